/** @file
 * libschach: bitboard primitives and attack tables.
 *
 * The tables are filled once, when the library is loaded, and never change afterwards, so any number
 * of threads may read them; to users they are const. Sliding attacks are looked up with PEXT when the
 * CPU has BMI2 and with magic bitboards otherwise, chosen at load time (see
 * sch_slider_lookup() in schach.h), so one build of the library is fast on every x86-64 CPU.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_BITBOARD_H
#define SCH_BITBOARD_H

#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's own sources define SCH_TABLES_WRITABLE where they fill the tables; everyone
 * else sees them const. */
#ifdef SCH_TABLES_WRITABLE
#define SCH_TABLE_CONST
#else
/** const for everyone but the library's own table builders. */
#define SCH_TABLE_CONST const
#endif

#define SCH_BB_FILE_A        0x0101010101010101ULL /**< the a-file */
#define SCH_BB_FILE_H        (SCH_BB_FILE_A << 7)  /**< the h-file */
#define SCH_BB_RANK_1        0xFFULL               /**< the first rank */
#define SCH_BB_RANK_2        (SCH_BB_RANK_1 << 8)  /**< the second rank */
#define SCH_BB_RANK_3        (SCH_BB_RANK_1 << 16) /**< the third rank */
#define SCH_BB_RANK_4        (SCH_BB_RANK_1 << 24) /**< the fourth rank */
#define SCH_BB_RANK_5        (SCH_BB_RANK_1 << 32) /**< the fifth rank */
#define SCH_BB_RANK_6        (SCH_BB_RANK_1 << 40) /**< the sixth rank */
#define SCH_BB_RANK_7        (SCH_BB_RANK_1 << 48) /**< the seventh rank */
#define SCH_BB_RANK_8        (SCH_BB_RANK_1 << 56) /**< the eighth rank */
#define SCH_BB_LIGHT_SQUARES 0x55AA55AA55AA55AAULL /**< the light squares (h1, a2, ...) */
#define SCH_BB_DARK_SQUARES  0xAA55AA55AA55AA55ULL /**< the dark squares (a1, c1, ...) */

/** The bitboard of one square. */
static inline SchBitboard sch_bb_square(SchSquare s) { return 1ULL << s; }
/** The number of squares in b. */
static inline int sch_bb_count(SchBitboard b) { return __builtin_popcountll(b); }
/** Lowest set square; b must not be empty. */
static inline SchSquare sch_bb_lsb(SchBitboard b) { return (SchSquare)__builtin_ctzll(b); }
/** Removes and returns the lowest set square; *b must not be empty. */
static inline SchSquare sch_bb_pop(SchBitboard *b) {
    SchSquare s = sch_bb_lsb(*b);
    *b &= *b - 1;
    return s;
}
/** Whether b holds two squares or more. */
static inline bool sch_bb_more_than_one(SchBitboard b) { return (b & (b - 1)) != 0; }

/** b one rank up (towards rank 8). */
static inline SchBitboard sch_bb_shift_north(SchBitboard b) { return b << 8; }
/** b one rank down (towards rank 1). */
static inline SchBitboard sch_bb_shift_south(SchBitboard b) { return b >> 8; }
/** Pawn push direction of colour c. */
static inline SchBitboard sch_bb_shift_forward(SchColor c, SchBitboard b) { return c == SCH_WHITE ? b << 8 : b >> 8; }
/** Squares attacked by all pawns in b of colour c. */
static inline SchBitboard sch_bb_pawn_attacks_set(SchColor c, SchBitboard b) {
    SchBitboard west = b & ~SCH_BB_FILE_A, east = b & ~SCH_BB_FILE_H;
    return c == SCH_WHITE ? (west << 7) | (east << 9) : (west >> 9) | (east >> 7);
}

/** One square's magic lookup: attacks = table[((occ & mask) * magic) >> shift]. */
typedef struct SchMagic {
    SchBitboard mask;         /**< the squares whose occupancy matters (the edges left out) */
    SchBitboard magic;        /**< the multiplier of the magic lookup */
    const SchBitboard *table; /**< this square's slice of the attack table */
    unsigned shift;           /**< 64 minus the index bits; 0 when the lookup is by PEXT */
} SchMagic;

extern SCH_TABLE_CONST SchMagic sch_bb_bishop_magics[64];        /**< per square: bishop attack lookup */
extern SCH_TABLE_CONST SchMagic sch_bb_rook_magics[64];          /**< per square: rook attack lookup */
extern SCH_TABLE_CONST SchBitboard sch_bb_knight_table[64];      /**< per square: knight attacks */
extern SCH_TABLE_CONST SchBitboard sch_bb_king_table[64];        /**< per square: king attacks */
extern SCH_TABLE_CONST SchBitboard sch_bb_pawn_table[2][64];     /**< per colour and square: pawn attacks */
extern SCH_TABLE_CONST SchBitboard sch_bb_between_table[64][64]; /**< see sch_bb_between() */
extern SCH_TABLE_CONST SchBitboard sch_bb_line_table[64][64];    /**< see sch_bb_line() */

/* With PEXT (BMI2) the index is the parallel bit extract of the occupancy under the mask: fewer
 * instructions than the multiply and shift. Loading the library chooses PEXT or magics for this CPU, fills
 * the tables for its choice and, for PEXT, sets every square's shift to 0 (a magic lookup always has
 * a shift of at least 52), so code built for any x86-64 reads the choice from the entry it loads
 * anyway: no extra memory access, and a branch that always goes the same way. The library's own hot
 * paths are also built with BMI2 and only PEXT lookups (SCH_LOOKUP_PEXT, set by that build only),
 * chosen once per call of a generator (src/core/dispatch.c). PEXT is written as assembly here
 * because code built for the first x86-64 may not use the compiler's intrinsic. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(SCH_NO_PEXT)
/** 1 where this compiler can emit PEXT (x86-64 with gcc or clang), else 0. */
#define SCH_HAS_PEXT 1
/** The parallel bit extract of src under mask; only for CPUs with BMI2. */
static inline SchBitboard sch_bb_pext(SchBitboard src, SchBitboard mask) {
    SchBitboard r;
    __asm__("pextq %2, %1, %0" : "=r"(r) : "r"(src), "rm"(mask));
    return r;
}
#else
/** 0: this compiler or CPU family has no PEXT. */
#define SCH_HAS_PEXT 0
#endif
#if SCH_HAS_PEXT && defined(SCH_LOOKUP_PEXT)
static inline SchBitboard sch_bb_magic_lookup(const SchMagic *m, SchBitboard occ) {
    return m->table[sch_bb_pext(occ, m->mask)];
}
#elif SCH_HAS_PEXT
/** The attacks one SchMagic entry gives for occupancy occ, by PEXT or by the magic multiply. */
static inline SchBitboard sch_bb_magic_lookup(const SchMagic *m, SchBitboard occ) {
    if (m->shift == 0)
        return m->table[sch_bb_pext(occ, m->mask)];
    return m->table[((occ & m->mask) * m->magic) >> m->shift];
}
#else
static inline SchBitboard sch_bb_magic_lookup(const SchMagic *m, SchBitboard occ) {
    return m->table[((occ & m->mask) * m->magic) >> m->shift];
}
#endif
/** The squares a bishop on s attacks with occupancy occ (the first piece on each ray included). */
static inline SchBitboard sch_bb_bishop_attacks(SchSquare s, SchBitboard occ) {
    return sch_bb_magic_lookup(&sch_bb_bishop_magics[s], occ);
}
/** The squares a rook on s attacks with occupancy occ. */
static inline SchBitboard sch_bb_rook_attacks(SchSquare s, SchBitboard occ) {
    return sch_bb_magic_lookup(&sch_bb_rook_magics[s], occ);
}
/** The squares a queen on s attacks with occupancy occ. */
static inline SchBitboard sch_bb_queen_attacks(SchSquare s, SchBitboard occ) {
    return sch_bb_bishop_attacks(s, occ) | sch_bb_rook_attacks(s, occ);
}
/** The squares a knight on s attacks. */
static inline SchBitboard sch_bb_knight_attacks(SchSquare s) { return sch_bb_knight_table[s]; }
/** The squares a king on s attacks. */
static inline SchBitboard sch_bb_king_attacks(SchSquare s) { return sch_bb_king_table[s]; }
/** Squares a pawn of colour c on s attacks (diagonally forward). */
static inline SchBitboard sch_bb_pawn_attacks(SchColor c, SchSquare s) { return sch_bb_pawn_table[c][s]; }
/** Squares strictly between a and b when they share a rank, file or diagonal; else empty. */
static inline SchBitboard sch_bb_between(SchSquare a, SchSquare b) { return sch_bb_between_table[a][b]; }
/** The whole rank, file or diagonal through a and b (edge to edge) when aligned; else empty. */
static inline SchBitboard sch_bb_line(SchSquare a, SchSquare b) { return sch_bb_line_table[a][b]; }

/** Attacks of a piece of type t (not PAWN) standing on s, with occupancy occ. */
SchBitboard sch_bb_attacks(SchPieceType t, SchSquare s, SchBitboard occ);

#ifdef __cplusplus
}
#endif

#endif
