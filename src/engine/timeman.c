/* Engine: time management (see timeman.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <time.h>

#include "timeman.h"

int64_t tm_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

void tm_init(TimeManager *tm, const EngineLimits *limits, SchColor us, int overhead, int lag) {
    tm->start_ms = tm_now_ms();
    tm->soft_ms = tm->hard_ms = 0;
    if (limits->movetime > 0) {
        tm->soft_ms = tm->hard_ms = max64(1, limits->movetime - overhead);
        return;
    }
    int64_t time = limits->time[us], inc = limits->inc[us];
    if (time <= 0)
        return;
    /* Sudden death: plan as if 30 moves remained; a control in n moves: spread over them. */
    int64_t moves = limits->movestogo > 0 ? min64(limits->movestogo, 40) : 30;
    /* Each move costs its lag on top of the search, and the increment pays for the lag first. */
    int64_t avail = max64(1, time - overhead - lag);
    int64_t spendable_inc = max64(0, inc - lag);
    /* A cushion stays on the clock for the stalls of a busy machine (a descheduled process, a slow
     * pipe): the plan leaves it out, and the share of the increment spent shrinks as the clock
     * approaches it, so a low clock climbs back. Without it the clock settled near 85 ms at
     * 1 s + 0.01 s, where one stall lost the game; with it, near 400 ms. A clock below a third of
     * a second keeps a quarter of itself free to spend. */
    int64_t cushion = min64(TM_CUSHION_MS, time * 3 / 4);
    int64_t usable = max64(0, avail - cushion);
    double inc_share = 0.75 * (double)time / (double)(time + TM_CUSHION_MS);
    int64_t soft = max64(1, usable / moves + (int64_t)(inc_share * (double)spendable_inc));
    int64_t hard = min64(soft * 5, avail * (limits->movestogo == 1 ? 9 : 5) / 10);
    tm->hard_ms = max64(1, hard);
    tm->soft_ms = max64(1, min64(soft, tm->hard_ms));
}

bool tm_hard_over(const TimeManager *tm, int64_t elapsed) { return tm->hard_ms && elapsed >= tm->hard_ms; }

bool tm_soft_over(const TimeManager *tm, int64_t elapsed, const TmSignals *signals) {
    if (!tm->soft_ms)
        return false;
    /* A new best move wants more time; a settled one less (the factors are in percent). */
    static const int stable_factor[] = {140, 110, 90, 75, 65};
    int i = signals->stability < 4 ? signals->stability : 4;
    int64_t effort = 100;
    if (signals->best_effort >= 0) {
        effort = TM_EFFORT_BASE - (int64_t)signals->best_effort * TM_EFFORT_SLOPE / 1000;
        effort = min64(TM_EFFORT_MAX, max64(TM_EFFORT_MIN, effort));
    }
    int64_t drop = 100 + min64(TM_SCORE_DROP_MAX, max64(0, signals->score_drop) / TM_SCORE_DROP_CP);
    /* percent^3: the soft limit scaled by all three factors */
    return elapsed * 1000000 >= tm->soft_ms * stable_factor[i] * effort * drop;
}
