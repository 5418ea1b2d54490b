/* Engine: the transposition table.
 *
 * Buckets of three entries fill one 32-byte half cache line. An entry keeps 16 bits of the key as a
 * check (the bucket index uses the low bits), the best move, the score, the static evaluation, the
 * depth and a byte with the bound (2 bits) and the search generation (6 bits). Replacement prefers
 * the same position, then the entry of least value (depth, minus 8 per generation of age).
 *
 * With several search threads the table is shared without locks, as in other lazy SMP engines. Every
 * word is read and written as a relaxed atomic (a plain load or store on x86-64), so there is no data
 * race, and because the check is XORed with the data, a data word and a check written by two threads
 * for two positions do not pass for an entry (but with the odds of a 16-bit collision). A table move
 * is still checked for legality before it is played (movepick.c).
 *
 * Mate scores are stored relative to the entry's node ("mate in n from here"), so they stay correct
 * when the position is reached at another ply: see tt_score_to() and tt_score_from().
 */
#ifndef SCHACH_ENGINE_TT_H
#define SCHACH_ENGINE_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schach/types.h"

enum { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

#define TT_BUCKET_ENTRIES 3
/* An entry is one 64-bit word of data (move, score, evaluation, depth, generation and bound; tt.c
 * packs it) and a 16-bit check: the key's top 16 bits XOR the data folded to 16 bits. */
typedef struct TTBucket {
    uint64_t data[TT_BUCKET_ENTRIES];
    uint16_t check[TT_BUCKET_ENTRIES];
    uint16_t padding;
} TTBucket;

typedef struct TT {
    TTBucket *buckets;
    uint64_t mask; /* bucket count - 1 (a power of two) */
    uint8_t generation;
} TT;

/* What a probe found. */
typedef struct TTHit {
    SchMove move;
    int score; /* already adjusted to the probing ply */
    int eval;
    int depth;
    int bound;
} TTHit;

/* Allocates a table of at most mb megabytes (rounded down to a power of two buckets) and clears it.
 * On failure returns false and leaves *tt unchanged (a table it held stays valid). */
bool tt_resize(TT *tt, size_t mb);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* Starts a new search: older entries age. */
void tt_new_search(TT *tt);

/* Looks up key; true with *hit filled when the position is stored. ply adjusts mate scores. */
bool tt_probe(const TT *tt, uint64_t key, int ply, TTHit *hit);
/* Stores a search result for key at ply (mate scores are made node-relative here). */
void tt_store(TT *tt, uint64_t key, int ply, SchMove move, int score, int eval, int depth, int bound);

/* Permille of the first thousand entries written in the current search. */
int tt_hashfull(const TT *tt);

static inline void tt_prefetch(const TT *tt, uint64_t key) { __builtin_prefetch(&tt->buckets[key & tt->mask]); }

#endif
