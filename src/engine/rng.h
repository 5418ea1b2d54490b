/* Engine: a small seeded pseudo-random generator (xorshift64*), one state per Engine. */
#ifndef SCHACH_ENGINE_RNG_H
#define SCHACH_ENGINE_RNG_H

#include <stdint.h>

/* A state from any seed (0 included: the state itself is never zero). */
static inline uint64_t rng_seed(uint64_t seed) {
    seed += 0x9E3779B97F4A7C15ULL; /* splitmix64 step: spreads close seeds apart */
    seed = (seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9ULL;
    seed = (seed ^ (seed >> 27)) * 0x94D049BB133111EBULL;
    seed ^= seed >> 31;
    return seed ? seed : 1;
}

static inline uint64_t rng_next(uint64_t *state) {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 0x2545F4914F6CDD1DULL;
}

/* Uniform in [0, 1). */
static inline double rng_unit(uint64_t *state) { return (double)(rng_next(state) >> 11) * 0x1.0p-53; }

#endif
