/* Prints the magic numbers that src/core/bitboard.c stores (magics_rook.inc, magics_bishop.inc).
 * Usage: magics rook|bishop > src/core/magics_rook.inc — the search is deterministic, so the output
 * only changes when sch_bb_find_magic or its seed does. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/bitboard_internal.h"

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "rook") != 0 && strcmp(argv[1], "bishop") != 0)) {
        fprintf(stderr, "usage: magics rook|bishop\n");
        return 2;
    }
    SchPieceType t = strcmp(argv[1], "rook") == 0 ? SCH_ROOK : SCH_BISHOP;
    static SchBitboard table[4096];
    uint64_t rng = 0x5C4AC4ULL * 0x9E3779B97F4A7C15ULL;
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++)
        printf("0x%016" PRIx64 "ULL,%s", sch_bb_find_magic(t, s, &rng, table), s % 4 == 3 ? "\n" : " ");
    return 0;
}
