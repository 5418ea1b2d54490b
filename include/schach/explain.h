/* libschach: reading a move the way a learner types it, and saying in words why it is refused.
 *
 * game_parse_move() accepts every notation move_parse() does (UCI, long algebraic, SAN in English or
 * German). When the text names no legal move it finds what the player most likely meant and names
 * the rule that forbids it: no piece of that kind can reach the square; the square holds an own
 * piece; the path is blocked at d4; the knight on d2 is pinned and would expose the king; the king
 * would be in check on e2; the move does not answer the check; castling is not allowed because the
 * king has moved / the rook has moved / f1 is attacked / the king is in check / b1 is occupied;
 * en passant is only allowed right after the double step; a pawn reaching the last rank must
 * promote; ambiguous: Nbd2 or Nfd2. The game's history tells which of king or rook moved.
 */
#ifndef SCHACH_EXPLAIN_H
#define SCHACH_EXPLAIN_H

#include "error.h"
#include "game.h"

enum {
    EXPLAIN_ERR_OWN_PIECE = 500, /* %1: target square, %2: "@knight"-style name of the own piece on it */
    EXPLAIN_ERR_BLOCKED,         /* %1: "@rook"-style name of the moving piece, %2: its square, %3: the blocking square */
    EXPLAIN_ERR_PINNED,          /* %1: piece name, %2: its square: pinned, moving would expose the king */
    EXPLAIN_ERR_KING_ATTACKED,   /* %1: the square where the king would be in check */
    EXPLAIN_ERR_CHECK_NOT_ANSWERED, /* %1: piece name of (one) checker, %2: its square */
    EXPLAIN_ERR_CASTLE_KING_MOVED,  /* the king has moved (in this game) */
    EXPLAIN_ERR_CASTLE_ROOK_MOVED,  /* %1: the rook's home square: that rook has moved */
    EXPLAIN_ERR_CASTLE_ROOK_GONE,   /* %1: the rook's home square: the rook was captured */
    EXPLAIN_ERR_CASTLE_NO_RIGHT,    /* the game started without this castling right */
    EXPLAIN_ERR_CASTLE_IN_CHECK,    /* the king is in check */
    EXPLAIN_ERR_CASTLE_ATTACKED,    /* %1: the attacked square the king would cross or reach */
    EXPLAIN_ERR_CASTLE_OCCUPIED,    /* %1: the occupied square between king and rook */
    EXPLAIN_ERR_EP_TOO_LATE,        /* %1: the target square: en passant only right after the double step */
    EXPLAIN_ERR_PAWN_MOVE,          /* %1: from, %2: to: pawns move straight ahead and capture diagonally */
    /* explain.c may add codes below this line */
};

/* Reads text as a move in g's current position (any notation, letters of lang preferred for 'B').
 * Returns the legal move, or MOVE_NONE with err set to the most specific reason: one of the
 * EXPLAIN_ERR_* codes above or a notation.h MOVE_ERR_* code (syntax, ambiguity, no piece can reach,
 * promotion missing — then the caller may ask for the piece and try again). Never crashes on any text. */
Move game_parse_move(const Game *g, const char *text, Lang lang, SchError *err);

/* Explains why from -> to (promotion promo, PIECE_TYPE_NB for none) is not legal in g's current
 * position; the move must not be legal. Sets err and always returns false. */
bool game_explain_move(const Game *g, Square from, Square to, PieceType promo, SchError *err);

#endif
