/* Attack tables: leapers by direct computation, sliders by PEXT or by magic bitboards whose magics
 * we search for with a fixed-seed generator (so every run builds identical tables). Which of the two
 * is chosen here at init, from the CPU (cpuid) and the SCHACH_SLIDERS environment variable. */
#define SCH_TABLES_WRITABLE
#include "bitboard_internal.h"
#include "init.h"

#include <stdlib.h>
#include <string.h>
#if SCH_HAS_PEXT
#include <cpuid.h>
#endif

SchMagic sch_bb_bishop_magics[64];
SchMagic sch_bb_rook_magics[64];
SchBitboard sch_bb_knight_table[64];
SchBitboard sch_bb_king_table[64];
SchBitboard sch_bb_pawn_table[2][64];
SchBitboard sch_bb_between_table[64][64];
SchBitboard sch_bb_line_table[64][64];

/* Relevant occupancy of a rook has at most 12 bits, of a bishop 9: 4096 and 512 entries per square
 * are the upper bounds; the sums below are the exact totals for all 64 squares. */
#define ROOK_TABLE_SIZE   102400
#define BISHOP_TABLE_SIZE 5248
static SchBitboard rook_table[ROOK_TABLE_SIZE];
static SchBitboard bishop_table[BISHOP_TABLE_SIZE];

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

static bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

static SchBitboard ray_walk(const int dirs[4][2], SchSquare s, SchBitboard occ) {
    SchBitboard attacks = 0;
    for (int d = 0; d < 4; d++) {
        int f = sch_square_file(s) + dirs[d][0], r = sch_square_rank(s) + dirs[d][1];
        for (; on_board(f, r); f += dirs[d][0], r += dirs[d][1]) {
            SchBitboard b = sch_bb_square(sch_square_make(f, r));
            attacks |= b;
            if (occ & b)
                break;
        }
    }
    return attacks;
}

SchBitboard sch_bb_slider_attacks_slow(SchPieceType t, SchSquare s, SchBitboard occ) {
    SchBitboard a = 0;
    if (t == SCH_BISHOP || t == SCH_QUEEN)
        a |= ray_walk(bishop_dirs, s, occ);
    if (t == SCH_ROOK || t == SCH_QUEEN)
        a |= ray_walk(rook_dirs, s, occ);
    return a;
}

static SchBitboard leaper_attacks(const int deltas[][2], int n, SchSquare s) {
    SchBitboard b = 0;
    for (int i = 0; i < n; i++) {
        int f = sch_square_file(s) + deltas[i][0], r = sch_square_rank(s) + deltas[i][1];
        if (on_board(f, r))
            b |= sch_bb_square(sch_square_make(f, r));
    }
    return b;
}

static void init_leapers(void) {
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++) {
        sch_bb_knight_table[s] = leaper_attacks(knight, 8, s);
        sch_bb_king_table[s] = leaper_attacks(king, 8, s);
        sch_bb_pawn_table[SCH_WHITE][s] = leaper_attacks(white_pawn, 2, s);
        sch_bb_pawn_table[SCH_BLACK][s] = leaper_attacks(black_pawn, 2, s);
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
static SchBitboard relevant_mask(SchPieceType t, SchSquare s) {
    SchBitboard edges = ((SCH_BB_RANK_1 | SCH_BB_RANK_8) & ~(SCH_BB_RANK_1 << (8 * sch_square_rank(s)))) |
                        ((SCH_BB_FILE_A | SCH_BB_FILE_H) & ~(SCH_BB_FILE_A << sch_square_file(s)));
    return sch_bb_slider_attacks_slow(t, s, 0) & ~edges;
}

/* Every subset of a square's mask with its true attacks; shared scratch of the init thread. */
typedef struct Occupancies {
    SchBitboard occupancy[4096], attacks[4096];
    unsigned epoch[4096];
    size_t size;
} Occupancies;

static void enumerate_occupancies(SchPieceType t, SchSquare s, SchBitboard mask, Occupancies *o) {
    o->size = 0;
    SchBitboard b = 0;
    do { /* Carry-Rippler: enumerate every subset of the mask. */
        o->occupancy[o->size] = b;
        o->attacks[o->size] = sch_bb_slider_attacks_slow(t, s, b);
        o->size++;
        b = (b - mask) & mask;
    } while (b);
}

/* Fills the table for m->magic; false on a collision (two occupancies with different attacks). */
static bool try_magic(const SchMagic *m, SchBitboard *table, Occupancies *o, unsigned attempt) {
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

SchBitboard sch_bb_find_magic(SchPieceType t, SchSquare s, uint64_t *rng, SchBitboard *table) {
    static Occupancies o;
    SchMagic m = {.mask = relevant_mask(t, s), .table = table};
    m.shift = 64 - (unsigned)sch_bb_count(m.mask);
    enumerate_occupancies(t, s, m.mask, &o);
    memset(o.epoch, 0, sizeof o.epoch);
    for (unsigned attempt = 1;; attempt++) {
        do
            m.magic = rng_next(rng) & rng_next(rng) & rng_next(rng);
        while (sch_bb_count((m.mask * m.magic) >> 56) < 6);
        if (try_magic(&m, table, &o, attempt))
            return m.magic;
    }
}

bool sch_bb_use_bmi2;

#if SCH_HAS_PEXT
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
#if SCH_HAS_PEXT
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

/* The tables are built when the program or libschach.so is loaded, so no user has to call anything
 * first (see init.h). It lives here, beside the attack tables, because every use of the library
 * reads them: a static link that takes any function of the library takes this file and this call. */
__attribute__((constructor)) static void tables_at_load(void) { sch_core_init(); }

const char *sch_slider_lookup(void) {
    sch_core_init();
    return sch_bb_use_bmi2 ? "pext" : "magic";
}

/* Sets up one square: the precomputed magic when it works (it always should), else a fresh search.
 * Returns the slice size used. */
static size_t init_magic(SchPieceType t, SchSquare s, SchBitboard known, SchMagic *m, SchBitboard *table,
                         uint64_t *rng) {
    static Occupancies o;
    m->mask = relevant_mask(t, s);
    m->shift = 64 - (unsigned)sch_bb_count(m->mask);
    m->table = table;
    m->magic = known;
    enumerate_occupancies(t, s, m->mask, &o);
#if SCH_HAS_PEXT
    if (sch_bb_use_bmi2) {
        m->shift = 0; /* tells sch_bb_magic_lookup to extract */
        for (size_t i = 0; i < o.size; i++)
            table[sch_bb_pext(o.occupancy[i], m->mask)] = o.attacks[i];
        return o.size;
    }
#endif
    memset(o.epoch, 0, sizeof o.epoch);
    if (!try_magic(m, table, &o, 1))
        m->magic = sch_bb_find_magic(t, s, rng, table);
    return o.size;
}

/* Found by sch_bb_find_magic with the seed in init_magics (tools/magics.c prints them), stored so that
 * start-up takes microseconds instead of the search's tenth of a second. */
static const SchBitboard rook_magics_found[64] = {
#include "magics_rook.inc"
};
static const SchBitboard bishop_magics_found[64] = {
#include "magics_bishop.inc"
};

static void init_magics(void) {
    sch_bb_use_bmi2 = choose_pext();
    uint64_t rng = MAGIC_SEED;
    size_t used_rook = 0, used_bishop = 0;
    for (SchSquare s = SCH_SQ_A1; s <= SCH_SQ_H8; s++) {
        used_rook +=
            init_magic(SCH_ROOK, s, rook_magics_found[s], &sch_bb_rook_magics[s], rook_table + used_rook, &rng);
        used_bishop += init_magic(SCH_BISHOP, s, bishop_magics_found[s], &sch_bb_bishop_magics[s],
                                  bishop_table + used_bishop, &rng);
    }
    if (used_rook != ROOK_TABLE_SIZE || used_bishop != BISHOP_TABLE_SIZE)
        abort(); /* the table sizes above are facts of chess geometry; anything else is a bug */
}

static void init_lines(void) {
    for (SchSquare a = SCH_SQ_A1; a <= SCH_SQ_H8; a++) {
        for (SchSquare b = SCH_SQ_A1; b <= SCH_SQ_H8; b++) {
            sch_bb_between_table[a][b] = sch_bb_line_table[a][b] = 0;
            if (a == b)
                continue;
            for (SchPieceType t = SCH_BISHOP; t <= SCH_ROOK; t++) {
                if (sch_bb_slider_attacks_slow(t, a, 0) & sch_bb_square(b)) {
                    sch_bb_line_table[a][b] =
                        (sch_bb_slider_attacks_slow(t, a, 0) & sch_bb_slider_attacks_slow(t, b, 0)) | sch_bb_square(a) |
                        sch_bb_square(b);
                    sch_bb_between_table[a][b] = sch_bb_slider_attacks_slow(t, a, sch_bb_square(b)) &
                                                 sch_bb_slider_attacks_slow(t, b, sch_bb_square(a));
                }
            }
        }
    }
}

void sch_bb_init_tables(void) {
    init_leapers();
    init_magics();
    init_lines();
}

SchBitboard sch_bb_attacks(SchPieceType t, SchSquare s, SchBitboard occ) {
    switch (t) {
        case SCH_KNIGHT: return sch_bb_knight_attacks(s);
        case SCH_BISHOP: return sch_bb_bishop_attacks(s, occ);
        case SCH_ROOK: return sch_bb_rook_attacks(s, occ);
        case SCH_QUEEN: return sch_bb_queen_attacks(s, occ);
        case SCH_KING: return sch_bb_king_attacks(s);
        default: return 0;
    }
}
