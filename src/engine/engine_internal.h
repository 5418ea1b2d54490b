/* Engine: functions beyond engine.h for tests and tools inside the project. */
#ifndef SCHACH_ENGINE_INTERNAL_H
#define SCHACH_ENGINE_INTERNAL_H

#include <stdint.h>

#include "engine.h"

/* Seeds the engine's random generator (used by weaker levels only): the same seed, options and
 * game give the same moves. engine_new() seeds from the clock. */
void engine_set_seed(Engine *e, uint64_t seed);

/* The time (ms) each move has been seen to cost the clock beyond the search, which the next
 * search plans for. */
int engine_lag(const Engine *e);

/* Tests: the clock (ms) that times each search for the lag estimate, tm_now_ms when NULL. One that
 * stands still makes every search take 0 ms there, however busy the machine. The search's own time
 * limits still go by tm_now_ms. */
void engine_set_lag_clock(Engine *e, int64_t (*now_ms)(void));

#endif
