/* Zobrist keys: one random 64-bit number per (piece, square), castling right (and, for Chess960, its
 * rook's file), en passant file and side to move, from a fixed seed so keys are identical across runs
 * (stable bench signatures). */
#define SCH_TABLES_WRITABLE
#include "castling.h"
#include "init.h"
#include "schach/position.h"

uint64_t sch_zobrist_piece[12][64];
uint64_t sch_zobrist_castling[16];
uint64_t sch_zobrist_ep_file[8];
uint64_t sch_zobrist_black_to_move;
uint64_t sch_zobrist_castle_rook[4][8];

/* splitmix64: every output is well mixed even from a simple counter. */
static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void sch_zobrist_init(void) {
    uint64_t state = 0x736368616368ULL; /* "schach" */
    for (int p = 0; p < 12; p++)
        for (int s = 0; s < 64; s++)
            sch_zobrist_piece[p][s] = splitmix(&state);
    /* Castling keys are XOR-combinations of four basic keys so a rights change is one XOR. */
    uint64_t basic[4];
    for (int i = 0; i < 4; i++)
        basic[i] = splitmix(&state);
    for (int rights = 0; rights < 16; rights++) {
        sch_zobrist_castling[rights] = 0;
        for (int i = 0; i < 4; i++)
            if (rights & (1 << i))
                sch_zobrist_castling[rights] ^= basic[i];
    }
    for (int f = 0; f < 8; f++)
        sch_zobrist_ep_file[f] = splitmix(&state);
    sch_zobrist_black_to_move = splitmix(&state);
    /* Chess960: a right's key also names its rook's file. The standard file reuses the basic key
     * (drawn last, so no earlier key changed), which keeps every standard position's key. */
    for (int i = 0; i < 4; i++)
        for (int f = 0; f < 8; f++)
            sch_zobrist_castle_rook[i][f] = f == ((i & 1) ? 0 : 7) ? basic[i] : splitmix(&state);
}
