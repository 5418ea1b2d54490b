/* libschach: bitboard primitives and attack tables.
 *
 * The tables are filled once by schach_init() (schach.h) and never change afterwards, so any number
 * of threads may read them; to users they are const. Sliding attacks are looked up with PEXT when the
 * CPU has BMI2 and with magic bitboards otherwise, chosen at run time by schach_init() (see
 * schach_slider_lookup() in schach.h), so one build of the library is fast on every x86-64 CPU.
 */
#ifndef SCHACH_BITBOARD_H
#define SCHACH_BITBOARD_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's own sources define SCHACH_TABLES_WRITABLE where they fill the tables; everyone
 * else sees them const. */
#ifdef SCHACH_TABLES_WRITABLE
#define SCHACH_TABLE_CONST
#else
#define SCHACH_TABLE_CONST const
#endif

#define BB_FILE_A        0x0101010101010101ULL
#define BB_FILE_H        (BB_FILE_A << 7)
#define BB_RANK_1        0xFFULL
#define BB_RANK_2        (BB_RANK_1 << 8)
#define BB_RANK_3        (BB_RANK_1 << 16)
#define BB_RANK_4        (BB_RANK_1 << 24)
#define BB_RANK_5        (BB_RANK_1 << 32)
#define BB_RANK_6        (BB_RANK_1 << 40)
#define BB_RANK_7        (BB_RANK_1 << 48)
#define BB_RANK_8        (BB_RANK_1 << 56)
#define BB_LIGHT_SQUARES 0x55AA55AA55AA55AAULL
#define BB_DARK_SQUARES  0xAA55AA55AA55AA55ULL

static inline Bitboard bb_square(Square s) { return 1ULL << s; }
static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
/* Lowest set square; b must not be empty. */
static inline Square bb_lsb(Bitboard b) { return (Square)__builtin_ctzll(b); }
/* Removes and returns the lowest set square; *b must not be empty. */
static inline Square bb_pop(Bitboard *b) {
    Square s = bb_lsb(*b);
    *b &= *b - 1;
    return s;
}
static inline bool bb_more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

static inline Bitboard bb_shift_north(Bitboard b) { return b << 8; }
static inline Bitboard bb_shift_south(Bitboard b) { return b >> 8; }
/* Pawn push direction of colour c. */
static inline Bitboard bb_shift_forward(Color c, Bitboard b) { return c == WHITE ? b << 8 : b >> 8; }
/* Squares attacked by all pawns in b of colour c. */
static inline Bitboard bb_pawn_attacks_set(Color c, Bitboard b) {
    Bitboard west = b & ~BB_FILE_A, east = b & ~BB_FILE_H;
    return c == WHITE ? (west << 7) | (east << 9) : (west >> 9) | (east >> 7);
}

/* One square's magic lookup: attacks = table[((occ & mask) * magic) >> shift]. */
typedef struct Magic {
    Bitboard mask;
    Bitboard magic;
    const Bitboard *table;
    unsigned shift;
} Magic;

extern SCHACH_TABLE_CONST Magic bb_bishop_magics[64];
extern SCHACH_TABLE_CONST Magic bb_rook_magics[64];
extern SCHACH_TABLE_CONST Bitboard bb_knight_table[64];
extern SCHACH_TABLE_CONST Bitboard bb_king_table[64];
extern SCHACH_TABLE_CONST Bitboard bb_pawn_table[2][64];
extern SCHACH_TABLE_CONST Bitboard bb_between_table[64][64];
extern SCHACH_TABLE_CONST Bitboard bb_line_table[64][64];

/* With PEXT (BMI2) the index is the parallel bit extract of the occupancy under the mask: fewer
 * instructions than the multiply and shift. schach_init() chooses PEXT or magics for this CPU, fills
 * the tables for its choice and, for PEXT, sets every square's shift to 0 (a magic lookup always has
 * a shift of at least 52), so code built for any x86-64 reads the choice from the entry it loads
 * anyway: no extra memory access, and a branch that always goes the same way. The library's own hot
 * paths are also built with BMI2 and only PEXT lookups (SCHACH_LOOKUP_PEXT, set by that build only),
 * chosen once per call of a generator (src/core/dispatch.c). PEXT is written as assembly here
 * because code built for the first x86-64 may not use the compiler's intrinsic. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SCHACH_NO_PEXT)
#define SCHACH_HAS_PEXT 1
static inline Bitboard bb_pext(Bitboard src, Bitboard mask) {
    Bitboard r;
    __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(src), "rm"(mask));
    return r;
}
#else
#define SCHACH_HAS_PEXT 0
#endif
#if SCHACH_HAS_PEXT && defined(SCHACH_LOOKUP_PEXT)
static inline Bitboard bb_magic_lookup(const Magic *m, Bitboard occ) { return m->table[bb_pext(occ, m->mask)]; }
#elif SCHACH_HAS_PEXT
static inline Bitboard bb_magic_lookup(const Magic *m, Bitboard occ) {
    if (m->shift == 0)
        return m->table[bb_pext(occ, m->mask)];
    return m->table[((occ & m->mask) * m->magic) >> m->shift];
}
#else
static inline Bitboard bb_magic_lookup(const Magic *m, Bitboard occ) {
    return m->table[((occ & m->mask) * m->magic) >> m->shift];
}
#endif
static inline Bitboard bb_bishop_attacks(Square s, Bitboard occ) { return bb_magic_lookup(&bb_bishop_magics[s], occ); }
static inline Bitboard bb_rook_attacks(Square s, Bitboard occ) { return bb_magic_lookup(&bb_rook_magics[s], occ); }
static inline Bitboard bb_queen_attacks(Square s, Bitboard occ) {
    return bb_bishop_attacks(s, occ) | bb_rook_attacks(s, occ);
}
static inline Bitboard bb_knight_attacks(Square s) { return bb_knight_table[s]; }
static inline Bitboard bb_king_attacks(Square s) { return bb_king_table[s]; }
/* Squares a pawn of colour c on s attacks (diagonally forward). */
static inline Bitboard bb_pawn_attacks(Color c, Square s) { return bb_pawn_table[c][s]; }
/* Squares strictly between a and b when they share a rank, file or diagonal; else empty. */
static inline Bitboard bb_between(Square a, Square b) { return bb_between_table[a][b]; }
/* The whole rank, file or diagonal through a and b (edge to edge) when aligned; else empty. */
static inline Bitboard bb_line(Square a, Square b) { return bb_line_table[a][b]; }

/* Attacks of a piece of type t (not PAWN) standing on s, with occupancy occ. */
Bitboard bb_attacks(PieceType t, Square s, Bitboard occ);

#ifdef __cplusplus
}
#endif

#endif
