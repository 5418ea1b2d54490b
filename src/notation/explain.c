/* Why a move is not legal: the reasons people need when a typed or dragged move is refused. */
#include "schach/notation.h"

#include "schach/movegen.h"

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

static bool explain_castling(const Position *pos, Color us, Square from, Square to, const char *text, SchError *err) {
    bool king_side = square_file(to) == 6;
    int right = us == WHITE ? (king_side ? CASTLE_WK : CASTLE_WQ) : (king_side ? CASTLE_BK : CASTLE_BQ);
    if (!(pos->castling & right))
        return fail(err, MOVE_ERR_CASTLE_RIGHTS, text, NULL);
    if (pos_in_check(pos))
        return fail(err, MOVE_ERR_CASTLE_IN_CHECK, text, NULL);
    Square rook = square_relative(us, king_side ? SQ_H1 : SQ_A1);
    if (bb_between(from, rook) & pos_occupied(pos))
        return fail(err, MOVE_ERR_CASTLE_BLOCKED, text, NULL);
    int step = king_side ? 1 : -1;
    for (int s = (int)from + step;; s += step) {
        if (pos_attacked_by(pos, (Square)s, (Color)!us)) {
            char sq[3];
            square_name((Square)s, sq);
            return fail(err, MOVE_ERR_CASTLE_ATTACKED, text, sq);
        }
        if (s == (int)to)
            break;
    }
    return fail(err, MOVE_ERR_ILLEGAL, text, NULL);
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
    if (pt == KING && from == square_relative(us, SQ_E1) &&
        (to == square_relative(us, SQ_G1) || to == square_relative(us, SQ_C1)))
        return explain_castling(pos, us, from, to, text, err);
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
