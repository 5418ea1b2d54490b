/* Clocks and deadlines. The record keeps each side's time at the start of the current turn and when
 * that turn began, so a clock costs nothing while it runs and survives restarts. Time runs only once
 * both sides have moved (before that a game may be aborted), and stops when the game ends. */
#include <string.h>

#include "service_state.h"

static bool is_live(const GameRecord *rec) { return rec->time.type == TIME_LIVE; }
static bool is_correspondence(const GameRecord *rec) { return rec->time.type == TIME_CORRESPONDENCE; }

bool svc_clock_running(const SvcGame *g) {
    return g->rec.turn_started_ms != 0 && !sch_game_over(&g->game) && !g->aborted &&
           (is_live(&g->rec) || is_correspondence(&g->rec));
}

int64_t svc_time_left(const SvcGame *g, SchColor color, int64_t now) {
    int64_t left = g->rec.clock_ms[color];
    if (svc_clock_running(g) && color == sch_pos_turn(sch_game_position(&g->game)))
        left -= now - g->rec.turn_started_ms;
    return left < 0 ? 0 : left;
}

int64_t svc_deadline(const SvcGame *g) {
    if (!svc_clock_running(g) || !is_correspondence(&g->rec))
        return 0;
    return g->rec.turn_started_ms + g->rec.time.days * SVC_DAY_MS;
}

bool svc_expiry(const SvcGame *g, int64_t now, int64_t *ms) {
    if (!svc_clock_running(g))
        return false;
    if (is_live(&g->rec)) {
        SchColor turn = sch_pos_turn(sch_game_position(&g->game));
        *ms = g->rec.clock_ms[turn] - (now - g->rec.turn_started_ms);
    } else {
        *ms = svc_deadline(g) - now;
    }
    return true;
}

void svc_clock_after_move(const SvcGame *g, GameRecord *rec, int plies_after, int64_t now) {
    if (!is_live(rec) && !is_correspondence(rec))
        return;
    if (svc_clock_running(g)) {
        if (is_live(rec)) {
            SchColor mover = sch_pos_turn(sch_game_position(&g->game));
            rec->clock_ms[mover] += (int64_t)rec->time.increment * 1000 - (now - rec->turn_started_ms);
        }
        rec->turn_started_ms = now;
    } else if (plies_after >= 2) {
        rec->turn_started_ms = now; /* both sides have moved: the clock starts */
    }
}

void svc_clock_replay(const TimeControl *time, int plies_after, SchColor mover, int64_t at, int64_t clock[2],
                      int64_t *started) {
    if (*started != 0) {
        if (time->type == TIME_LIVE)
            clock[mover] += (int64_t)time->increment * 1000 - (at - *started);
        *started = at;
    } else if (plies_after >= 2) {
        *started = at;
    }
}

void svc_clock_stop(const SvcGame *g, GameRecord *rec, int64_t now) {
    if (!svc_clock_running(g))
        return;
    if (is_live(rec)) {
        SchColor turn = sch_pos_turn(sch_game_position(&g->game));
        rec->clock_ms[turn] = svc_time_left(g, turn, now);
    }
    rec->turn_started_ms = 0;
}
