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

/* How the soft limit follows the search: the best move's share of the root's nodes. At the usual
 * share (about 850 per mille) the factor is about 100 %; a best move that took few of the nodes
 * (the others were hard to refute) gets more time, one that took nearly all of them less. */
#define TM_EFFORT_BASE  217 /* percent at a share of 0 */
#define TM_EFFORT_SLOPE 135 /* percent less per 1000 per mille of share */
#define TM_EFFORT_MIN   60  /* the factor stays within these percentages */
#define TM_EFFORT_MAX   200
/* A falling score wants time to find a way out: 1 % more per TM_SCORE_DROP_CP centipawns it fell
 * over the last two iterations, at most TM_SCORE_DROP_MAX %. */
#define TM_SCORE_DROP_CP  2
#define TM_SCORE_DROP_MAX 50

/* What the search has seen so far, for the soft limit. */
typedef struct TmSignals {
    int stability;   /* completed iterations the best move has not changed (0: it just changed) */
    int best_effort; /* per mille of the root's nodes spent under the best move; < 0: not yet known */
    int score_drop;  /* centipawns the score fell over the last two iterations (0: it did not) */
} TmSignals;

/* True when no new iteration should start: a stable best move lets the search stop sooner, a new
 * one, a contested one or a falling score later. */
bool tm_soft_over(const TimeManager *tm, int64_t elapsed, const TmSignals *signals);

#endif
