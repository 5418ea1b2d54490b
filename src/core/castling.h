/* Internal to src/core: Chess960 castling geometry shared by movegen, makemove, FEN and Zobrist. */
#ifndef SCHACH_CORE_CASTLING_H
#define SCHACH_CORE_CASTLING_H

#include "schach/position.h"

/* Rights of one colour (both sides). */
static inline uint8_t castle_rights_of(SchColor c) {
    return c == SCH_WHITE ? SCH_CASTLE_WK | SCH_CASTLE_WQ : SCH_CASTLE_BK | SCH_CASTLE_BQ;
}

/* Squares the king and rook of right i (0-3) end on. */
static inline SchSquare castle_king_to(int i) {
    return sch_square_relative((SchColor)(i >> 1), (i & 1) ? SCH_SQ_C1 : SCH_SQ_G1);
}
static inline SchSquare castle_rook_to(int i) {
    return sch_square_relative((SchColor)(i >> 1), (i & 1) ? SCH_SQ_D1 : SCH_SQ_F1);
}

/* Files lo..hi of rank 1 (either order) as a bitboard. */
static inline SchBitboard castle_span(int a, int b) {
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return (SchBitboard)((2u << hi) - (1u << lo));
}

/* Squares of castling with the king on square k and the rook on square r of the same back rank (the
 * side follows from which is further right): `empty` must hold no piece (king and rook squares left
 * out), `path` is what the king crosses or lands on (its target even when it does not move; its
 * start is covered by "not in check"). Indexed by the two squares, so one lookup keeps move
 * generation as fast as with the fixed standard squares. */
typedef struct CastlePath {
    SchBitboard empty, path;
} CastlePath;
extern CastlePath sch_castle_paths[64][64];
/* Fills sch_castle_paths (part of sch_core_init). */
void sch_castle_init(void);

/* Per (right, rook file) key; the standard rook file's key is the old one-per-right key, so standard
 * positions keep the keys they always had (and the engine's bench signature). */
extern uint64_t sch_zobrist_castle_rook[4][8];

/* XOR of the keys of the rights in `rights` with pos's rook squares. */
static inline uint64_t castle_key(const SchPosition *pos, unsigned rights) {
    uint64_t key = 0;
    for (int i = 0; i < 4; i++)
        if (rights & (1u << i))
            key ^= sch_zobrist_castle_rook[i][sch_square_file((SchSquare)pos->castle_rook[i])];
    return key;
}

/* Rights of pos that castle with a rook on s. */
static inline uint8_t castle_rights_on(const SchPosition *pos, SchSquare s) {
    return (uint8_t)((pos->castle_rook[0] == s) | (pos->castle_rook[1] == s) << 1 | (pos->castle_rook[2] == s) << 2 |
                     (pos->castle_rook[3] == s) << 3);
}

/* Sets the standard rook squares h1 a1 h8 a8. */
void sch_castle_set_standard(SchPosition *pos);

/* True when every held right has the king on the e-file and its rook in the corner. */
bool sch_castle_is_standard(const SchPosition *pos);

#endif
