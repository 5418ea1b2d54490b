/* Internal to libschach (not installed): the slow reference attacks and the magic search behind the
 * attack tables, for bitboard.c, tools/magics.c and the tests. */
#ifndef SCHACH_CORE_BITBOARD_INTERNAL_H
#define SCHACH_CORE_BITBOARD_INTERNAL_H

#include "schach/bitboard.h"

/* Searches a magic number for a slider (BISHOP or ROOK) on s with the generator state *rng, filling
 * table (room for 4096 entries) as it goes. Used at init as a fallback and by tools/magics.c. */
SchBitboard sch_bb_find_magic(SchPieceType t, SchSquare s, uint64_t *rng, SchBitboard *table);

/* Slow reference ray walk, used to build and to verify the attack tables. */
SchBitboard sch_bb_slider_attacks_slow(SchPieceType t, SchSquare s, SchBitboard occ);

/* Whether the library chose PEXT at load time (and the BMI2 build of the hot files, src/core/dispatch.c). */
extern bool sch_bb_use_bmi2;

#endif
