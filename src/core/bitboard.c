/* Attack tables: leapers by direct computation, sliders by PEXT or by magic bitboards whose magics
 * we search for with a fixed-seed generator (so every run builds identical tables). Which of the two
 * is chosen here at init, from the CPU (cpuid) and the SCHACH_SLIDERS environment variable. */
#define SCHACH_TABLES_WRITABLE
#include "bitboard_internal.h"
#include "init.h"

#include <stdlib.h>
#include <string.h>
#if SCHACH_HAS_PEXT
#include <cpuid.h>
#endif

Magic bb_bishop_magics[64];
Magic bb_rook_magics[64];
Bitboard bb_knight_table[64];
Bitboard bb_king_table[64];
Bitboard bb_pawn_table[2][64];
Bitboard bb_between_table[64][64];
Bitboard bb_line_table[64][64];

/* Relevant occupancy of a rook has at most 12 bits, of a bishop 9: 4096 and 512 entries per square
 * are the upper bounds; the sums below are the exact totals for all 64 squares. */
#define ROOK_TABLE_SIZE   102400
#define BISHOP_TABLE_SIZE 5248
static Bitboard rook_table[ROOK_TABLE_SIZE];
static Bitboard bishop_table[BISHOP_TABLE_SIZE];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

static Bitboard ray_walk(const int dirs[4][2], Square s, Bitboard occ) {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = square_file(s) + dirs[d][0], r = square_rank(s) + dirs[d][1];
        for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1]) {
            Bitboard b = bb_square(square_make(f, r));
            attacks |= b;
            if (occ & b)
                break;
        }
    }
    return attacks;
}

Bitboard bb_slider_attacks_slow(PieceType t, Square s, Bitboard occ) {
    Bitboard a = 0;
    if (t == BISHOP || t == QUEEN)
        a |= ray_walk(bishop_dirs, s, occ);
    if (t == ROOK || t == QUEEN)
        a |= ray_walk(rook_dirs, s, occ);
    return a;
}

static Bitboard leaper_attacks(const int deltas[][2], int n, Square s) {
    Bitboard b = 0;
    for (int i = 0; i < n; i++) {
        int f = square_file(s) + deltas[i][0], r = square_rank(s) + deltas[i][1];
        if (on_board(f, r))
            b |= bb_square(square_make(f, r));
    }
    return b;
}

static void init_leapers(void) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (Square s = SQ_A1; s <= SQ_H8; s++) {
        bb_knight_table[s] = leaper_attacks(knight, 8, s);
        bb_king_table[s] = leaper_attacks(king, 8, s);
        bb_pawn_table[WHITE][s] = leaper_attacks(white_pawn, 2, s);
        bb_pawn_table[BLACK][s] = leaper_attacks(black_pawn, 2, s);
    }
}

#define MAGIC_SEED (0x5C4AC4ULL * 0x9E3779B97F4A7C15ULL)

/* xorshift64*: small, fast, and fixed-seeded so the magics are the same on every run. */
static uint64_t rng_next(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ULL;
}

/* Occupancy bits that matter for a slider on s: its rays without the board edge at their ends. */
static Bitboard relevant_mask(PieceType t, Square s) {
    Bitboard edges = ((BB_RANK_1 | BB_RANK_8) & ~(BB_RANK_1 << (8 * square_rank(s)))) |
                     ((BB_FILE_A | BB_FILE_H) & ~(BB_FILE_A << square_file(s)));
    return bb_slider_attacks_slow(t, s, 0) & ~edges;
}

/* Every subset of a square's mask with its true attacks; shared scratch of the init thread. */
typedef struct Occupancies {
    Bitboard occupancy[4096], attacks[4096];
    unsigned epoch[4096];
    size_t size;
} Occupancies;

static void enumerate_occupancies(PieceType t, Square s, Bitboard mask, Occupancies *o) {
    o->size = 0;
    Bitboard b = 0;
    do { /* Carry-Rippler: enumerate every subset of the mask. */
        o->occupancy[o->size] = b;
        o->attacks[o->size] = bb_slider_attacks_slow(t, s, b);
        o->size++;
        b = (b - mask) & mask;
    } while (b);
}

/* Fills the table for m->magic; false on a collision (two occupancies with different attacks). */
static bool try_magic(const Magic *m, Bitboard *table, Occupancies *o, unsigned attempt) {
    for (size_t i = 0; i < o->size; i++) {
        size_t idx = (size_t)(((o->occupancy[i] & m->mask) * m->magic) >> m->shift);
        if (o->epoch[idx] < attempt) {
            o->epoch[idx] = attempt;
            table[idx] = o->attacks[i];
        } else if (table[idx] != o->attacks[i]) {
            return false;
        }
    }
    return true;
}

Bitboard bb_find_magic(PieceType t, Square s, uint64_t *rng, Bitboard *table) {
    static Occupancies o;
    Magic m = {.mask = relevant_mask(t, s), .table = table};
    m.shift = 64 - (unsigned)bb_count(m.mask);
    enumerate_occupancies(t, s, m.mask, &o);
    memset(o.epoch, 0, sizeof o.epoch);
    for (unsigned attempt = 1;; attempt++) {
        do
            m.magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        while (bb_count((m.mask * m.magic) >> 56) < 6);
        if (try_magic(&m, table, &o, attempt))
            return m.magic;
    }
}

bool bb_use_bmi2;

#if SCHACH_HAS_PEXT
/* BMI2 and what else the PEXT build of the hot files uses (BMI1, LZCNT: every CPU with BMI2 has
 * them, but cpuid is asked rather than assumed). */
static bool cpu_has_bmi2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 8)) || !(b & (1u << 3))) /* BMI2, BMI1 */
        return false;
    return __get_cpuid(0x80000001u, &a, &b, &c, &d) && (c & (1u << 5)); /* LZCNT */
}

/* PEXT is worth it where it is fast: every Intel CPU with BMI2 and AMD from Zen 3 on. AMD's Zen 1
 * and 2 (family 0x17) have BMI2 but run PEXT in microcode, dozens of cycles, slower than a magic
 * multiply; they get magics. */
static bool cpu_has_fast_pext(void) {
    unsigned a, b, c, d;
    if (!cpu_has_bmi2())
        return false;
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return false;
    bool amd = b == 0x68747541u; /* "Auth" of "AuthenticAMD" */
    if (!amd || !__get_cpuid(1, &a, &b, &c, &d))
        return true;
    unsigned family = ((a >> 8) & 0xf) + ((a >> 8 & 0xf) == 0xf ? (a >> 20) & 0xff : 0);
    return family != 0x17;
}
#endif

/* SCHACH_SLIDERS=magic forces magic bitboards (to test that path on any machine), =pext forces PEXT
 * where the CPU has it at all (e.g. on Zen 2); anything else lets the CPU decide. */
static bool choose_pext(void) {
#if SCHACH_HAS_PEXT
    const char *force = getenv("SCHACH_SLIDERS");
    if (force && strcmp(force, "magic") == 0)
        return false;
    if (force && strcmp(force, "pext") == 0)
        return cpu_has_bmi2();
    return cpu_has_fast_pext();
#else
    return false;
#endif
}

const char *schach_slider_lookup(void) {
    schach_init();
    return bb_use_bmi2 ? "pext" : "magic";
}

/* Sets up one square: the precomputed magic when it works (it always should), else a fresh search.
 * Returns the slice size used. */
static size_t init_magic(PieceType t, Square s, Bitboard known, Magic *m, Bitboard *table, uint64_t *rng) {
    static Occupancies o;
    m->mask = relevant_mask(t, s);
    m->shift = 64 - (unsigned)bb_count(m->mask);
    m->table = table;
    m->magic = known;
    enumerate_occupancies(t, s, m->mask, &o);
#if SCHACH_HAS_PEXT
    if (bb_use_bmi2) {
        m->shift = 0; /* tells bb_magic_lookup to extract */
        for (size_t i = 0; i < o.size; i++)
            table[bb_pext(o.occupancy[i], m->mask)] = o.attacks[i];
        return o.size;
    }
#endif
    memset(o.epoch, 0, sizeof o.epoch);
    if (!try_magic(m, table, &o, 1))
        m->magic = bb_find_magic(t, s, rng, table);
    return o.size;
}

/* Found by bb_find_magic with the seed in init_magics (tools/magics.c prints them), stored so that
 * start-up takes microseconds instead of the search's tenth of a second. */
static const Bitboard rook_magics_found[64] = {
#include "magics_rook.inc"
};
static const Bitboard bishop_magics_found[64] = {
#include "magics_bishop.inc"
};

static void init_magics(void) {
    bb_use_bmi2 = choose_pext();
    uint64_t rng = MAGIC_SEED;
    size_t used_rook = 0, used_bishop = 0;
    for (Square s = SQ_A1; s <= SQ_H8; s++) {
        used_rook += init_magic(ROOK, s, rook_magics_found[s], &bb_rook_magics[s], rook_table + used_rook, &rng);
        used_bishop +=
            init_magic(BISHOP, s, bishop_magics_found[s], &bb_bishop_magics[s], bishop_table + used_bishop, &rng);
    }
    if (used_rook != ROOK_TABLE_SIZE || used_bishop != BISHOP_TABLE_SIZE)
        abort(); /* the table sizes above are facts of chess geometry; anything else is a bug */
}

static void init_lines(void) {
    for (Square a = SQ_A1; a <= SQ_H8; a++) {
        for (Square b = SQ_A1; b <= SQ_H8; b++) {
            bb_between_table[a][b] = bb_line_table[a][b] = 0;
            if (a == b)
                continue;
            for (PieceType t = BISHOP; t <= ROOK; t++) {
                if (bb_slider_attacks_slow(t, a, 0) & bb_square(b)) {
                    bb_line_table[a][b] = (bb_slider_attacks_slow(t, a, 0) & bb_slider_attacks_slow(t, b, 0)) |
                                          bb_square(a) | bb_square(b);
                    bb_between_table[a][b] =
                        bb_slider_attacks_slow(t, a, bb_square(b)) & bb_slider_attacks_slow(t, b, bb_square(a));
                }
            }
        }
    }
}

void bb_init_tables(void) {
    init_leapers();
    init_magics();
    init_lines();
}

Bitboard bb_attacks(PieceType t, Square s, Bitboard occ) {
    switch (t) {
        case KNIGHT: return bb_knight_attacks(s);
        case BISHOP: return bb_bishop_attacks(s, occ);
        case ROOK: return bb_rook_attacks(s, occ);
        case QUEEN: return bb_queen_attacks(s, occ);
        case KING: return bb_king_attacks(s);
        default: return 0;
    }
}
