/* Why a move is not legal: the reasons people need when a typed or dragged move is refused. */
#include "schach/notation.h"

#include "schach/movegen.h"

#include <stdlib.h>

static bool fail(SchError *err, int code, const char *a1, const char *a2) {
    return sch_err_set(err, code, a1, a2, NULL);
}

static bool is_empty(const SchPosition *pos, int s) { return sch_pos_piece_on(pos, (SchSquare)s) == SCH_NO_PIECE; }

/* Whether a pawn could go from -> to by the movement rules alone (pins and checks aside). */
static bool pawn_reaches(const SchPosition *pos, SchColor us, SchSquare from, SchSquare to) {
    int fwd = us == SCH_WHITE ? 8 : -8;
    int one = (int)from + fwd, two = (int)from + 2 * fwd;
    if (sch_square_file(from) == sch_square_file(to)) {
        if ((int)to == one)
            return is_empty(pos, one);
        return (int)to == two && sch_square_rank(sch_square_relative(us, from)) == 1 && is_empty(pos, one) &&
               is_empty(pos, two);
    }
    if (!(sch_bb_pawn_attacks(us, from) & sch_bb_square(to)))
        return false;
    SchPiece target = sch_pos_piece_on(pos, to);
    return (target != SCH_NO_PIECE && sch_piece_color(target) != us) || to == pos->ep;
}

/* Why castling with right (0-3: SCH_CASTLE_WK, SCH_CASTLE_WQ, SCH_CASTLE_BK, SCH_CASTLE_BQ order) is not legal, by the
 * Chess960 rule of which standard chess is a case: squares both pieces cross or reach must be empty
 * but for them, and no square the king crosses or reaches may be attacked once king and rook have left
 * their squares. */
static bool explain_castling(const SchPosition *pos, int right, const char *text, SchError *err) {
    if (!(pos->castling & (1 << right)))
        return fail(err, SCH_MOVE_ERR_CASTLE_RIGHTS, text, NULL);
    if (sch_pos_in_check(pos))
        return fail(err, SCH_MOVE_ERR_CASTLE_IN_CHECK, text, NULL);
    SchColor us = (SchColor)(right >> 1);
    SchSquare king = sch_pos_king(pos, us), rook = (SchSquare)pos->castle_rook[right];
    SchSquare king_to = sch_square_relative(us, (right & 1) ? SCH_SQ_C1 : SCH_SQ_G1);
    SchSquare rook_to = sch_square_relative(us, (right & 1) ? SCH_SQ_D1 : SCH_SQ_F1);
    SchBitboard occ = sch_pos_occupied(pos) ^ sch_bb_square(king) ^ sch_bb_square(rook);
    SchBitboard crossed =
        sch_bb_between(king, king_to) | sch_bb_square(king_to) | sch_bb_between(rook, rook_to) | sch_bb_square(rook_to);
    if (crossed & occ)
        return fail(err, SCH_MOVE_ERR_CASTLE_BLOCKED, text, NULL);
    int step = king_to > king ? 1 : -1;
    for (int s = king == king_to ? (int)king : (int)king + step;; s += step) {
        if (sch_pos_attackers_to(pos, (SchSquare)s, occ) & pos->by_color[!us]) {
            char sq[3];
            sch_square_name((SchSquare)s, sq);
            return fail(err, SCH_MOVE_ERR_CASTLE_ATTACKED, text, sq);
        }
        if (s == (int)king_to)
            break;
    }
    return fail(err, SCH_MOVE_ERR_ILLEGAL, text, NULL);
}

bool sch_move_explain_castling(const SchPosition *pos, bool h_side, const char *text, SchError *err) {
    SchColor us = sch_pos_turn(pos);
    int right = 2 * (int)us + !h_side;
    if (sch_square_rank(sch_square_relative(us, sch_pos_king(pos, us))) != 0)
        return fail(err, SCH_MOVE_ERR_CASTLE_RIGHTS, text, NULL);
    return explain_castling(pos, right, text, err);
}

/* The castling right a king move from -> to attempts, or -1: the king takes its own rook on its back
 * rank (the Chess960 UCI form), or goes two or more files towards the g- or c-file (in standard chess
 * only from the e-file, so a stray king's long move stays plainly illegal). */
static int castling_attempt(const SchPosition *pos, SchColor us, SchSquare from, SchSquare to) {
    if (sch_square_rank(sch_square_relative(us, from)) != 0 || sch_square_rank(from) != sch_square_rank(to))
        return -1;
    bool h_side = to > from;
    if (sch_pos_piece_on(pos, to) == sch_piece_make(us, SCH_ROOK))
        return pos->chess960 || from == sch_square_relative(us, SCH_SQ_E1) ? 2 * (int)us + !h_side : -1;
    int file = sch_square_file(to), distance = abs(file - sch_square_file(from));
    if ((file != 6 && file != 2) || distance < 2 || (file == 6) != h_side)
        return -1;
    if (!pos->chess960 && from != sch_square_relative(us, SCH_SQ_E1))
        return -1;
    return 2 * (int)us + !h_side;
}

bool sch_move_explain(const SchPosition *pos, SchSquare from, SchSquare to, SchPieceType promo, const char *text,
                      SchError *err) {
    if (from >= SCH_SQ_NONE || to >= SCH_SQ_NONE || from == to)
        return fail(err, SCH_MOVE_ERR_ILLEGAL, text, NULL);
    SchColor us = sch_pos_turn(pos);
    SchPiece p = sch_pos_piece_on(pos, from);
    char sq[3];
    sch_square_name(from, sq);
    if (p == SCH_NO_PIECE)
        return fail(err, SCH_MOVE_ERR_EMPTY_SQUARE, sq, NULL);
    if (sch_piece_color(p) != us)
        return fail(err, SCH_MOVE_ERR_WRONG_COLOR, sq, NULL);
    SchPieceType pt = sch_piece_type(p);
    if (pt == SCH_KING) {
        int right = castling_attempt(pos, us, from, to);
        if (right >= 0)
            return explain_castling(pos, right, text, err);
    }
    SchPiece target = sch_pos_piece_on(pos, to);
    if (target != SCH_NO_PIECE && sch_piece_color(target) == us)
        return fail(err, SCH_MOVE_ERR_ILLEGAL, text, NULL);
    bool reaches, last_rank = false;
    if (pt == SCH_PAWN) {
        reaches = pawn_reaches(pos, us, from, to);
        last_rank = sch_square_rank(sch_square_relative(us, to)) == 7;
    } else {
        SchBitboard att = pt == SCH_KING ? sch_bb_king_attacks(from) : sch_bb_attacks(pt, from, sch_pos_occupied(pos));
        reaches = (att & sch_bb_square(to)) != 0;
    }
    if (!reaches)
        return fail(err, SCH_MOVE_ERR_ILLEGAL, text, NULL);
    if (promo != SCH_PIECE_TYPE_NB) {
        if (!last_rank)
            return fail(err, SCH_MOVE_ERR_PROMOTION_BAD, text, NULL);
        if (promo == SCH_PAWN || promo == SCH_KING)
            return fail(err, SCH_MOVE_ERR_PROMOTION_PIECE, text, NULL);
    } else if (last_rank) {
        return fail(err, SCH_MOVE_ERR_PROMOTION_MISSING, text, NULL);
    }
    /* The piece moves like that and the move is still not legal: the own king is the reason. */
    return fail(err, SCH_MOVE_ERR_KING_EXPOSED, text, NULL);
}
