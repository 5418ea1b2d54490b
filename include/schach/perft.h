/** @file
 * libschach: perft, the number of leaf nodes of the legal move tree — the specification test of
 * move generation.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_PERFT_H
#define SCH_PERFT_H

#include "movegen.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Leaf nodes at depth (depth 0 counts 1). Uses make/unmake on a copy; counts the last ply in bulk. */
uint64_t sch_perft(const SchPosition *pos, int depth);

/** Per root move: fills moves[i] and counts[i] (arrays of SCH_MAX_MOVES); returns the move count. */
int sch_perft_divide(const SchPosition *pos, int depth, SchMove *moves, uint64_t *counts);

#ifdef __cplusplus
}
#endif

#endif
