/* Engine: static exchange evaluation by the swap list: play out the captures on one square with the
 * least valuable attacker each time, then let each side, from the last capture back, choose between
 * capturing and stopping. */
#include "see.h"

const int see_value[SCH_PIECE_TYPE_NB] = {100, 320, 330, 500, 950, 20000};

SchPieceType see_captured(const SchPosition *pos, SchMove m) {
    if (sch_move_kind(m) == SCH_MOVE_EN_PASSANT)
        return SCH_PAWN;
    SchPiece p = sch_pos_piece_on(pos, sch_move_to(m));
    return p == SCH_NO_PIECE || sch_move_kind(m) == SCH_MOVE_CASTLING ? SCH_PIECE_TYPE_NB : sch_piece_type(p);
}

/* The least valuable piece among attackers (one side's); SCH_PIECE_TYPE_NB when there is none. */
static SchPieceType least_valuable(const SchPosition *pos, SchBitboard attackers, SchSquare *from) {
    for (SchPieceType t = SCH_PAWN; t <= SCH_KING; t++) {
        SchBitboard b = attackers & pos->by_type[t];
        if (b) {
            *from = sch_bb_lsb(b);
            return t;
        }
    }
    return SCH_PIECE_TYPE_NB;
}

static inline int max_int(int a, int b) { return a > b ? a : b; }

bool see_ge(const SchPosition *pos, SchMove m, int threshold) {
    if (sch_move_kind(m) == SCH_MOVE_CASTLING)
        return threshold <= 0;
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    SchPieceType captured = see_captured(pos, m);
    SchPieceType on_square = sch_piece_type(sch_pos_piece_on(pos, from));
    /* gain[d]: the balance of the side making capture d if the exchange ended right after it. */
    int gain[32], d = 0;
    gain[0] = captured == SCH_PIECE_TYPE_NB ? 0 : see_value[captured];
    if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
        on_square = sch_move_promotion(m);
        gain[0] += see_value[on_square] - see_value[SCH_PAWN];
    }
    /* The answer without the exchange: below the threshold even if nothing recaptures, or above it
     * even if the piece on the square is lost for nothing (whatever follows, the side to move can
     * stop there). */
    if (gain[0] < threshold)
        return false;
    if (gain[0] - see_value[on_square] >= threshold)
        return true;
    SchBitboard occ = sch_pos_occupied(pos) ^ sch_bb_square(from);
    if (sch_move_kind(m) == SCH_MOVE_EN_PASSANT)
        occ ^= sch_bb_square(sch_square_make(sch_square_file(to), sch_square_rank(from)));
    /* All attackers once; after each capture only the sliders behind the capturer can join. */
    SchBitboard diagonal = pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN];
    SchBitboard straight = pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN];
    SchBitboard attackers = sch_pos_attackers_to(pos, to, occ) & occ;
    SchColor side = (SchColor)!sch_pos_turn(pos);
    while (d < 31) {
        SchSquare sq;
        SchPieceType t = least_valuable(pos, attackers & pos->by_color[side], &sq);
        if (t == SCH_PIECE_TYPE_NB)
            break;
        d++;
        gain[d] = see_value[on_square] - gain[d - 1];
        on_square = t;
        occ ^= sch_bb_square(sq);
        attackers =
            (attackers | (sch_bb_bishop_attacks(to, occ) & diagonal) | (sch_bb_rook_attacks(to, occ) & straight)) & occ;
        side = (SchColor)!side;
    }
    /* A king "capture" into a defended square costs the king's value, so no side chooses it. */
    for (; d > 0; d--)
        gain[d - 1] = -max_int(-gain[d - 1], gain[d]);
    return gain[0] >= threshold;
}
