/* Why a move is not legal: the reasons people need when a typed or dragged move is refused. */
#include "schach/notation.h"

#include "schach/movegen.h"

#include <stdlib.h>

static bool fail(SchError *err, int code, const char *a1, const char *a2) { return err_set(err, code, a1, a2, NULL); }

static bool is_empty(const Position *pos, int s) { return pos_piece_on(pos, (Square)s) == NO_PIECE; }

/* Whether a pawn could go from -> to by the movement rules alone (pins and checks aside). */
static bool pawn_reaches(const Position *pos, Color us, Square from, Square to) {
    int fwd = us == WHITE ? 8 : -8;
    int one = (int)from + fwd, two = (int)from + 2 * fwd;
    if (square_file(from) == square_file(to)) {
        if ((int)to == one)
            return is_empty(pos, one);
        return (int)to == two && square_rank(square_relative(us, from)) == 1 && is_empty(pos, one) &&
               is_empty(pos, two);
    }
    if (!(bb_pawn_attacks(us, from) & bb_square(to)))
        return false;
    Piece target = pos_piece_on(pos, to);
    return (target != NO_PIECE && piece_color(target) != us) || to == pos->ep;
}

/* Why castling with right (0-3: CASTLE_WK, CASTLE_WQ, CASTLE_BK, CASTLE_BQ order) is not legal, by the
 * Chess960 rule of which standard chess is a case: squares both pieces cross or reach must be empty
 * but for them, and no square the king crosses or reaches may be attacked once king and rook have left
 * their squares. */
static bool explain_castling(const Position *pos, int right, const char *text, SchError *err) {
    if (!(pos->castling & (1 << right)))
        return fail(err, MOVE_ERR_CASTLE_RIGHTS, text, NULL);
    if (pos_in_check(pos))
        return fail(err, MOVE_ERR_CASTLE_IN_CHECK, text, NULL);
    Color us = (Color)(right >> 1);
    Square king = pos_king(pos, us), rook = (Square)pos->castle_rook[right];
    Square king_to = square_relative(us, (right & 1) ? SQ_C1 : SQ_G1);
    Square rook_to = square_relative(us, (right & 1) ? SQ_D1 : SQ_F1);
    Bitboard occ = pos_occupied(pos) ^ bb_square(king) ^ bb_square(rook);
    Bitboard crossed = bb_between(king, king_to) | bb_square(king_to) | bb_between(rook, rook_to) | bb_square(rook_to);
    if (crossed & occ)
        return fail(err, MOVE_ERR_CASTLE_BLOCKED, text, NULL);
    int step = king_to > king ? 1 : -1;
    for (int s = king == king_to ? (int)king : (int)king + step;; s += step) {
        if (pos_attackers_to(pos, (Square)s, occ) & pos->by_color[!us]) {
            char sq[3];
            square_name((Square)s, sq);
            return fail(err, MOVE_ERR_CASTLE_ATTACKED, text, sq);
        }
        if (s == (int)king_to)
            break;
    }
    return fail(err, MOVE_ERR_ILLEGAL, text, NULL);
}

bool move_explain_castling(const Position *pos, bool h_side, const char *text, SchError *err) {
    Color us = pos_turn(pos);
    int right = 2 * (int)us + !h_side;
    if (square_rank(square_relative(us, pos_king(pos, us))) != 0)
        return fail(err, MOVE_ERR_CASTLE_RIGHTS, text, NULL);
    return explain_castling(pos, right, text, err);
}

/* The castling right a king move from -> to attempts, or -1: the king takes its own rook on its back
 * rank (the Chess960 UCI form), or goes two or more files towards the g- or c-file (in standard chess
 * only from the e-file, so a stray king's long move stays plainly illegal). */
static int castling_attempt(const Position *pos, Color us, Square from, Square to) {
    if (square_rank(square_relative(us, from)) != 0 || square_rank(from) != square_rank(to))
        return -1;
    bool h_side = to > from;
    if (pos_piece_on(pos, to) == piece_make(us, ROOK))
        return pos->chess960 || from == square_relative(us, SQ_E1) ? 2 * (int)us + !h_side : -1;
    int file = square_file(to), distance = abs(file - square_file(from));
    if ((file != 6 && file != 2) || distance < 2 || (file == 6) != h_side)
        return -1;
    if (!pos->chess960 && from != square_relative(us, SQ_E1))
        return -1;
    return 2 * (int)us + !h_side;
}

bool move_explain(const Position *pos, Square from, Square to, PieceType promo, const char *text, SchError *err) {
    if (from >= SQ_NONE || to >= SQ_NONE || from == to)
        return fail(err, MOVE_ERR_ILLEGAL, text, NULL);
    Color us = pos_turn(pos);
    Piece p = pos_piece_on(pos, from);
    char sq[3];
    square_name(from, sq);
    if (p == NO_PIECE)
        return fail(err, MOVE_ERR_EMPTY_SQUARE, sq, NULL);
    if (piece_color(p) != us)
        return fail(err, MOVE_ERR_WRONG_COLOR, sq, NULL);
    PieceType pt = piece_type(p);
    if (pt == KING) {
        int right = castling_attempt(pos, us, from, to);
        if (right >= 0)
            return explain_castling(pos, right, text, err);
    }
    Piece target = pos_piece_on(pos, to);
    if (target != NO_PIECE && piece_color(target) == us)
        return fail(err, MOVE_ERR_ILLEGAL, text, NULL);
    bool reaches, last_rank = false;
    if (pt == PAWN) {
        reaches = pawn_reaches(pos, us, from, to);
        last_rank = square_rank(square_relative(us, to)) == 7;
    } else {
        Bitboard att = pt == KING ? bb_king_attacks(from) : bb_attacks(pt, from, pos_occupied(pos));
        reaches = (att & bb_square(to)) != 0;
    }
    if (!reaches)
        return fail(err, MOVE_ERR_ILLEGAL, text, NULL);
    if (promo != PIECE_TYPE_NB) {
        if (!last_rank)
            return fail(err, MOVE_ERR_PROMOTION_BAD, text, NULL);
        if (promo == PAWN || promo == KING)
            return fail(err, MOVE_ERR_PROMOTION_PIECE, text, NULL);
    } else if (last_rank) {
        return fail(err, MOVE_ERR_PROMOTION_MISSING, text, NULL);
    }
    /* The piece moves like that and the move is still not legal: the own king is the reason. */
    return fail(err, MOVE_ERR_KING_EXPOSED, text, NULL);
}
