/* Perft: counts leaves of the legal move tree. The last ply is counted in bulk by gen_count, which
 * counts moves as bitboard populations without writing or playing them. */
#include "schach/perft.h"

static uint64_t perft_recursive(Position *pos, int depth) {
    if (depth == 1)
        return (uint64_t)gen_count(pos);
    Move moves[SCHACH_MAX_MOVES];
    int n = gen_moves(pos, GEN_ALL, moves);
    uint64_t nodes = 0;
    Undo undo;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i], &undo);
        nodes += perft_recursive(pos, depth - 1);
        pos_unmake(pos, moves[i], &undo);
    }
    return nodes;
}

uint64_t perft(const Position *pos, int depth) {
    if (depth <= 0)
        return 1;
    Position copy = *pos;
    return perft_recursive(&copy, depth);
}

int perft_divide(const Position *pos, int depth, Move *moves, uint64_t *counts) {
    Position copy = *pos;
    int n = gen_moves(&copy, GEN_ALL, moves);
    Undo undo;
    for (int i = 0; i < n; i++) {
        pos_make(&copy, moves[i], &undo);
        counts[i] = perft(&copy, depth - 1);
        pos_unmake(&copy, moves[i], &undo);
    }
    return n;
}
