/* Perft: counts leaves of the legal move tree. The last ply is counted in bulk by sch_gen_count, which
 * counts moves as bitboard populations without writing or playing them. */
#include "schach/perft.h"

static uint64_t perft_recursive(SchPosition *pos, int depth) {
    if (depth == 1)
        return (uint64_t)sch_gen_count(pos);
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    uint64_t nodes = 0;
    SchUndo undo;
    for (int i = 0; i < n; i++) {
        sch_pos_make(pos, moves[i], &undo);
        nodes += perft_recursive(pos, depth - 1);
        sch_pos_unmake(pos, moves[i], &undo);
    }
    return nodes;
}

uint64_t sch_perft(const SchPosition *pos, int depth) {
    if (depth <= 0)
        return 1;
    SchPosition copy = *pos;
    return perft_recursive(&copy, depth);
}

int sch_perft_divide(const SchPosition *pos, int depth, SchMove *moves, uint64_t *counts) {
    SchPosition copy = *pos;
    int n = sch_gen_moves(&copy, SCH_GEN_ALL, moves);
    SchUndo undo;
    for (int i = 0; i < n; i++) {
        sch_pos_make(&copy, moves[i], &undo);
        counts[i] = sch_perft(&copy, depth - 1);
        sch_pos_unmake(&copy, moves[i], &undo);
    }
    return n;
}
