/** @file
 * libschach: reading a move the way a learner types it, and saying in words why it is refused.
 *
 * sch_game_parse_move() accepts every notation sch_move_parse() does (UCI, long algebraic, SAN in English or
 * German). When the text names no legal move it finds what the player most likely meant and names
 * the rule that forbids it: no piece of that kind can reach the square; the square holds an own
 * piece; the path is blocked at d4; the knight on d2 is pinned and would expose the king; the king
 * would be in check on e2; the move does not answer the check; castling is not allowed because the
 * king has moved / the rook has moved / f1 is attacked / the king is in check / b1 is occupied;
 * en passant is only allowed right after the double step; a pawn moves straight ahead and captures
 * diagonally; a pawn reaching the last rank must promote; ambiguous: Nbd2 or Nfd2. The game's
 * history tells which of king or rook moved.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_EXPLAIN_H
#define SCH_EXPLAIN_H

#include "error.h"
#include "game.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    SCH_EXPLAIN_ERR_OWN_PIECE = 500, /**< %1: target square, %2: "@knight"-style name of the own piece on it */
    SCH_EXPLAIN_ERR_BLOCKED, /**< %1: "@rook"-style name of the moving piece, %2: its square, %3: the blocking square */
    /** %1: piece name, %2: its square: pinned, moving would expose the king (reported as
     * SCH_EXPLAIN_ERR_PINNED_PAWN + type, see below) */
    SCH_EXPLAIN_ERR_PINNED,
    SCH_EXPLAIN_ERR_KING_ATTACKED, /**< %1: the square where the king would be in check */
    /** %1: piece name of (one) checker, %2: its square (reported as SCH_EXPLAIN_ERR_CHECK_BY_PAWN + type,
     * see below) */
    SCH_EXPLAIN_ERR_CHECK_NOT_ANSWERED,
    SCH_EXPLAIN_ERR_CASTLE_KING_MOVED, /**< the king has moved (in this game) */
    SCH_EXPLAIN_ERR_CASTLE_ROOK_MOVED, /**< %1: the rook's home square: that rook has moved */
    SCH_EXPLAIN_ERR_CASTLE_ROOK_GONE,  /**< %1: the rook's home square: the rook was captured */
    SCH_EXPLAIN_ERR_CASTLE_NO_RIGHT,   /**< the game started without this castling right */
    SCH_EXPLAIN_ERR_CASTLE_IN_CHECK,   /**< the king is in check */
    SCH_EXPLAIN_ERR_CASTLE_ATTACKED,   /**< %1: the attacked square the king would cross or reach */
    SCH_EXPLAIN_ERR_CASTLE_OCCUPIED,   /**< %1: the occupied square between king and rook */
    SCH_EXPLAIN_ERR_EP_TOO_LATE,       /**< %1: the target square: en passant only right after the double step */
    SCH_EXPLAIN_ERR_PAWN_MOVE,         /**< %1: from, %2: to: pawns move straight ahead and capture diagonally */
    /** explain.c may add codes below this line */
    /** German needs the article of the piece ("der Springer", "die Dame", "durch den Bauern"), which
     * "@knight"-style arguments cannot inflect, so these two reasons come with one code per piece
     * type, as notation's MOVE_ERR_NO_*: code = SCH_EXPLAIN_ERR_PINNED_PAWN + SchPieceType of the pinned
     * piece, SCH_EXPLAIN_ERR_CHECK_BY_PAWN + SchPieceType of the checker. Arguments as in the generic code. */
    SCH_EXPLAIN_ERR_PINNED_PAWN,
    SCH_EXPLAIN_ERR_PINNED_KNIGHT,
    SCH_EXPLAIN_ERR_PINNED_BISHOP,
    SCH_EXPLAIN_ERR_PINNED_ROOK,
    SCH_EXPLAIN_ERR_PINNED_QUEEN,
    SCH_EXPLAIN_ERR_PINNED_KING,
    SCH_EXPLAIN_ERR_CHECK_BY_PAWN,
    SCH_EXPLAIN_ERR_CHECK_BY_KNIGHT,
    SCH_EXPLAIN_ERR_CHECK_BY_BISHOP,
    SCH_EXPLAIN_ERR_CHECK_BY_ROOK,
    SCH_EXPLAIN_ERR_CHECK_BY_QUEEN,
    SCH_EXPLAIN_ERR_CHECK_BY_KING,
};

/** The reason a code stands for: SCH_EXPLAIN_ERR_PINNED for every EXPLAIN_ERR_PINNED_*,
 * SCH_EXPLAIN_ERR_CHECK_NOT_ANSWERED for every EXPLAIN_ERR_CHECK_BY_*, any other code unchanged. */
static inline int sch_explain_error_kind(int code) {
    if (code >= SCH_EXPLAIN_ERR_PINNED_PAWN && code <= SCH_EXPLAIN_ERR_PINNED_KING)
        return SCH_EXPLAIN_ERR_PINNED;
    if (code >= SCH_EXPLAIN_ERR_CHECK_BY_PAWN && code <= SCH_EXPLAIN_ERR_CHECK_BY_KING)
        return SCH_EXPLAIN_ERR_CHECK_NOT_ANSWERED;
    return code;
}

/** Reads text as a move in g's current position (any notation, letters of lang preferred for 'B').
 * Returns the legal move, or SCH_MOVE_NONE with err set to the most specific reason: one of the
 * EXPLAIN_ERR_* codes above or a notation.h MOVE_ERR_* code (syntax, ambiguity, no piece can reach,
 * empty or enemy from square, promotion missing — then the caller may ask for the piece and try
 * again). Castling may be typed O-O, 0-0, O-O-O, e1g1, e1h1, Ke1-g1 or Kg1. Never crashes on any
 * text (NULL included); err may be NULL. */
SchMove sch_game_parse_move(const SchGame *g, const char *text, SchLang lang, SchError *err);

/** Explains why from -> to (promotion promo, SCH_PIECE_TYPE_NB for none) is not legal in g's current
 * position; the move must not be legal. Sets err and always returns false. */
bool sch_game_explain_move(const SchGame *g, SchSquare from, SchSquare to, SchPieceType promo, SchError *err);

#ifdef __cplusplus
}
#endif

#endif
