/* Engine: time management: how long to think about one move. */
#ifndef SCHACH_ENGINE_TIMEMAN_H
#define SCHACH_ENGINE_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"

/* Milliseconds of the clock a sudden-death or increment search plans never to touch. */
#define TM_CUSHION_MS 250

typedef struct TimeManager {
    int64_t start_ms; /* when the search began (tm_now_ms) */
    int64_t soft_ms;  /* do not start another iteration after this (0: no limit) */
    int64_t hard_ms;  /* stop the search at once after this (0: no limit) */
} TimeManager;

/* Milliseconds of a monotonic clock. */
int64_t tm_now_ms(void);

/* Budgets for the side `us` from limits; overhead (ms) is kept back for communication delays, and
 * lag (ms) is what each move has been seen to cost the clock beyond the search (engine.c measures
 * it). Pondering and infinite searches get budgets too: the search ignores them until ponderhit. */
void tm_init(TimeManager *tm, const EngineLimits *limits, SchColor us, int overhead, int lag);

static inline int64_t tm_elapsed(const TimeManager *tm) { return tm_now_ms() - tm->start_ms; }

/* True when the search must stop now. */
bool tm_hard_over(const TimeManager *tm, int64_t elapsed);

/* True when no new iteration should start. stability 0..: completed iterations the best move has
 * not changed; a stable best move lets the search stop sooner. */
bool tm_soft_over(const TimeManager *tm, int64_t elapsed, int stability);

#endif
