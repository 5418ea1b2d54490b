/* Engine: static exchange evaluation by the swap list: play out the captures on one square with the
 * least valuable attacker each time, then let each side, from the last capture back, choose between
 * capturing and stopping. */
#include "see.h"

const int see_value[PIECE_TYPE_NB] = {100, 320, 330, 500, 950, 20000};

PieceType see_captured(const Position *pos, Move m) {
    if (move_kind(m) == MOVE_EN_PASSANT)
        return PAWN;
    Piece p = pos_piece_on(pos, move_to(m));
    return p == NO_PIECE || move_kind(m) == MOVE_CASTLING ? PIECE_TYPE_NB : piece_type(p);
}

/* The least valuable piece among attackers (one side's); PIECE_TYPE_NB when there is none. */
static PieceType least_valuable(const Position *pos, Bitboard attackers, Square *from) {
    for (PieceType t = PAWN; t <= KING; t++) {
        Bitboard b = attackers & pos->by_type[t];
        if (b) {
            *from = bb_lsb(b);
            return t;
        }
    }
    return PIECE_TYPE_NB;
}

static inline int max_int(int a, int b) { return a > b ? a : b; }

bool see_ge(const Position *pos, Move m, int threshold) {
    if (move_kind(m) == MOVE_CASTLING)
        return threshold <= 0;
    Square from = move_from(m), to = move_to(m);
    PieceType captured = see_captured(pos, m);
    PieceType on_square = piece_type(pos_piece_on(pos, from));
    /* gain[d]: the balance of the side making capture d if the exchange ended right after it. */
    int gain[32], d = 0;
    gain[0] = captured == PIECE_TYPE_NB ? 0 : see_value[captured];
    if (move_kind(m) == MOVE_PROMOTION) {
        on_square = move_promotion(m);
        gain[0] += see_value[on_square] - see_value[PAWN];
    }
    Bitboard occ = pos_occupied(pos) ^ bb_square(from);
    if (move_kind(m) == MOVE_EN_PASSANT)
        occ ^= bb_square(square_make(square_file(to), square_rank(from)));
    Color side = (Color)!pos_turn(pos);
    while (d < 31) {
        Bitboard attackers = pos_attackers_to(pos, to, occ) & occ & pos->by_color[side];
        Square sq;
        PieceType t = least_valuable(pos, attackers, &sq);
        if (t == PIECE_TYPE_NB)
            break;
        d++;
        gain[d] = see_value[on_square] - gain[d - 1];
        on_square = t;
        occ ^= bb_square(sq);
        side = (Color)!side;
    }
    /* A king "capture" into a defended square costs the king's value, so no side chooses it. */
    for (; d > 0; d--)
        gain[d - 1] = -max_int(-gain[d - 1], gain[d]);
    return gain[0] >= threshold;
}
