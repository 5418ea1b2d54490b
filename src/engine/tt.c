/* Engine: the transposition table (see tt.h). */
#define _DEFAULT_SOURCE /* madvise, MADV_HUGEPAGE */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "engine.h"
#include "tt.h"

#define GENERATION_MASK 63

_Static_assert(sizeof(TTBucket) == 32, "a bucket is half a cache line");

static inline uint16_t key_check(uint64_t key) { return (uint16_t)(key >> 48); }

/* One entry unpacked. */
typedef struct TTEntry {
    uint16_t check; /* the key's top 16 bits (once the data's fold is taken off) */
    SchMove move;
    int16_t score;
    int16_t eval;
    uint8_t depth;
    uint8_t genbound; /* generation << 2 | bound */
} TTEntry;

static inline int entry_bound(const TTEntry *e) { return e->genbound & 3; }
static inline int entry_generation(const TTEntry *e) { return e->genbound >> 2; }

static inline uint16_t fold(uint64_t d) { return (uint16_t)(d ^ d >> 16 ^ d >> 32 ^ d >> 48); }

/* Relaxed atomics: other threads may write the bucket meanwhile (see tt.h); on x86-64 these are the
 * plain loads and stores the table used before, without the data race. */
static inline TTEntry entry_load(const TTBucket *b, int i) {
    uint64_t d = __atomic_load_n(&b->data[i], __ATOMIC_RELAXED);
    uint16_t c = __atomic_load_n(&b->check[i], __ATOMIC_RELAXED);
    return (TTEntry){(uint16_t)(c ^ fold(d)),      (SchMove)d,         (int16_t)(uint16_t)(d >> 16),
                     (int16_t)(uint16_t)(d >> 32), (uint8_t)(d >> 48), (uint8_t)(d >> 56)};
}

static inline void entry_save(TTBucket *b, int i, const TTEntry *e) {
    uint64_t d = (uint64_t)e->move | (uint64_t)(uint16_t)e->score << 16 | (uint64_t)(uint16_t)e->eval << 32 |
                 (uint64_t)e->depth << 48 | (uint64_t)e->genbound << 56;
    __atomic_store_n(&b->data[i], d, __ATOMIC_RELAXED);
    __atomic_store_n(&b->check[i], (uint16_t)(e->check ^ fold(d)), __ATOMIC_RELAXED);
}

#define HUGE_PAGE_BYTES ((size_t)2 << 20)

/* The table's memory. A probe lands anywhere in it, so with 4 KB pages nearly every probe also missed
 * the TLB (the probes were a sixth of the search's time). On Linux a table of 2 MB or more is aligned
 * to and advised for 2 MB pages (transparent huge pages, where the system allows them). */
static TTBucket *alloc_buckets(size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE_BYTES) {
        TTBucket *buckets = aligned_alloc(HUGE_PAGE_BYTES, bytes);
        if (buckets)
            madvise(buckets, bytes, MADV_HUGEPAGE); /* advice only: a refusal leaves 4 KB pages */
        return buckets;
    }
#endif
    return malloc(bytes);
}

bool tt_resize(TT *tt, size_t mb) {
    size_t bytes = mb << 20, count = 1;
    while (count * 2 * sizeof(TTBucket) <= bytes)
        count *= 2;
    TTBucket *buckets = alloc_buckets(count * sizeof(TTBucket));
    if (!buckets)
        return false;
    free(tt->buckets);
    tt->buckets = buckets;
    tt->mask = count - 1;
    tt_clear(tt);
    return true;
}

void tt_free(TT *tt) {
    free(tt->buckets);
    tt->buckets = NULL;
}

void tt_clear(TT *tt) {
    memset(tt->buckets, 0, (tt->mask + 1) * sizeof(TTBucket));
    tt->generation = 0;
}

void tt_new_search(TT *tt) { tt->generation = (tt->generation + 1) & GENERATION_MASK; }

/* A mate score counts plies from the root in the search, from the node in the table. */
static int score_to_tt(int score, int ply) {
    if (score >= ENGINE_MATE_BOUND)
        return score + ply;
    if (score <= -ENGINE_MATE_BOUND)
        return score - ply;
    return score;
}

static int score_from_tt(int score, int ply) {
    if (score >= ENGINE_MATE_BOUND)
        return score - ply;
    if (score <= -ENGINE_MATE_BOUND)
        return score + ply;
    return score;
}

bool tt_probe(const TT *tt, uint64_t key, int ply, TTHit *hit) {
    const TTBucket *bucket = &tt->buckets[key & tt->mask];
    uint16_t check = key_check(key);
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        TTEntry e = entry_load(bucket, i);
        if (e.check != check || entry_bound(&e) == BOUND_NONE)
            continue;
        *hit = (TTHit){e.move, score_from_tt(e.score, ply), e.eval, e.depth, entry_bound(&e)};
        return true;
    }
    return false;
}

/* The lower the value, the sooner an entry is replaced. */
static int entry_value(const TT *tt, const TTEntry *e) {
    int age = (tt->generation - entry_generation(e)) & GENERATION_MASK;
    return e->depth - 8 * age;
}

void tt_store(TT *tt, uint64_t key, int ply, SchMove move, int score, int eval, int depth, int bound) {
    TTBucket *bucket = &tt->buckets[key & tt->mask];
    uint16_t check = key_check(key);
    TTEntry entries[TT_BUCKET_ENTRIES];
    int index = 0;
    for (int i = 0; i < TT_BUCKET_ENTRIES; i++) {
        entries[i] = entry_load(bucket, i);
        const TTEntry *e = &entries[i];
        if (e->check == check || entry_bound(e) == BOUND_NONE) {
            index = i;
            break;
        }
        if (entry_value(tt, e) < entry_value(tt, &entries[index]))
            index = i;
    }
    const TTEntry *slot = &entries[index];
    /* Keep a deeper result of this position from the current search unless the new one is exact. */
    if (slot->check == check && entry_bound(slot) != BOUND_NONE && bound != BOUND_EXACT &&
        entry_generation(slot) == tt->generation && depth + 3 < slot->depth)
        return;
    if (move == SCH_MOVE_NONE && slot->check == check)
        move = slot->move;
    TTEntry e = {check,
                 move,
                 (int16_t)score_to_tt(score, ply),
                 (int16_t)eval,
                 (uint8_t)(depth < 0 ? 0 : depth),
                 (uint8_t)(tt->generation << 2 | bound)};
    entry_save(bucket, index, &e);
}

int tt_hashfull(const TT *tt) {
    int used = 0, counted = 0;
    for (uint64_t b = 0; b <= tt->mask && counted < 999; b++)
        for (int i = 0; i < TT_BUCKET_ENTRIES; i++, counted++) {
            TTEntry e = entry_load(&tt->buckets[b], i);
            used += entry_bound(&e) != BOUND_NONE && entry_generation(&e) == tt->generation;
        }
    return used * 1000 / counted;
}
