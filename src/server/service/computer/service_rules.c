/* The rules' analyses that may take milliseconds — whether a position is dead (FIDE 5.2.2) beyond
 * what the quick pass inside sch_game_play settles, and whether the side with time can still mate when
 * a flag falls (6.9) — run where the computer player thinks (computer.h), never on the event loop.
 * Their verdicts come back through service_on_wake and end the game through the same change path as
 * a person's request: stored first, then broadcast.
 *
 * Every service game defers its full dead-position analysis (SCH_GAME_DEAD_DEFER): sch_game_play marks the
 * position as pending and this file hands it to a worker. A dead position stays dead whatever is
 * played after it, so a verdict that arrives after another move still ends the game. Without workers
 * (a service whose computer was never started) the analyses run inline, bounded by their budgets. */
#include <stdlib.h>
#include <string.h>

#include "service_computer.h"
#include "service/service_change.h"
#include "service/service_registry.h"

/* Ends g as a dead position with the verdict waiting in it, unless a change is on its way (then the
 * next poke does it). */
static void settle_dead(Service *svc, SvcGame *g) {
    if (!g->dead_ready || g->pending)
        return;
    g->dead_ready = false;
    if (svc_is_over(g))
        return;
    SvcPending *p = svc_pending_new(NULL, g, CH_DEAD, sch_pos_turn(sch_game_position(&g->game)));
    if (!p)
        return;
    p->dead_ply = g->dead_ply;
    memcpy(p->dead_reason, g->dead_reason, sizeof p->dead_reason);
    SchError err;
    if (!svc_change_prepare(p, svc_now(svc), &err)) {
        svc_pending_free(p);
        return;
    }
    svc_pending_submit(svc, p);
}

static void dead_verdict(Service *svc, SvcGame *g, int ply, const SchWinResult res[2]) {
    if (res[SCH_WHITE].verdict != SCH_WIN_UNWINNABLE || res[SCH_BLACK].verdict != SCH_WIN_UNWINNABLE)
        return;
    g->dead_ready = true;
    g->dead_ply = ply;
    g->dead_reason[SCH_WHITE] = (uint8_t)res[SCH_WHITE].reason;
    g->dead_reason[SCH_BLACK] = (uint8_t)res[SCH_BLACK].reason;
    settle_dead(svc, g);
}

void svc_rules_poke(Service *svc, SvcGame *g) {
    if (svc_is_over(g)) {
        g->dead_ready = false;
        return;
    }
    settle_dead(svc, g);
    /* A 6.9 verdict that came back while another change was on its way ends the game now. */
    int64_t now = svc_now(svc);
    if (g->flag_judged && g->flag_ply == g->game.ply_count && !g->pending && svc_time_is_up(g, now))
        svc_timeout_start(svc, g, now);
    if (!sch_game_dead_pending(&g->game) || g->dead_job || g->dead_ready)
        return;
    /* Asked once per position: the flag goes down whether or not the answer is dead. */
    g->game.dead_pending = false;
    if (!svc->computer) {
        static const SchWinLimits full = {false, SCH_GAME_DEAD_NODES};
        SchWinResult res[2];
        sch_dead_position(sch_game_position(&g->game), &full, NULL, res);
        dead_verdict(svc, g, g->game.ply_count, res);
        return;
    }
    ComputerJob *job = computer_rules_job_new(JOB_DEAD, sch_game_position(&g->game));
    if (!job)
        return; /* out of memory: the game plays on, as when the analysis is undetermined */
    job->serial = ++svc->next_job;
    snprintf(job->game_id, sizeof job->game_id, "%s", g->rec.id);
    job->ply = g->game.ply_count;
    g->dead_job = job->serial;
    computer_submit(svc->computer, job);
}

void svc_rules_loaded(SvcGame *g) {
    sch_game_set_dead_mode(&g->game, SCH_GAME_DEAD_DEFER);
    if (svc_is_over(g))
        return;
    static const SchWinLimits quick = {true, 0};
    SchWinResult res[2];
    SchWinnability v = sch_dead_position(sch_game_position(&g->game), &quick, NULL, res);
    if (v == SCH_WIN_UNWINNABLE) {
        g->dead_ready = true;
        g->dead_ply = g->game.ply_count;
        g->dead_reason[SCH_WHITE] = (uint8_t)res[SCH_WHITE].reason;
        g->dead_reason[SCH_BLACK] = (uint8_t)res[SCH_BLACK].reason;
    } else if (v == SCH_WIN_UNDETERMINED && (res[SCH_WHITE].blockade || res[SCH_BLACK].blockade)) {
        g->game.dead_pending = true;
    }
}

/* The 6.9 verdict for g's position (the side to move's flag fell) in g->flag_*. */
static void flag_verdict(SvcGame *g, int ply, const SchWinResult *r) {
    g->flag_judged = true;
    g->flag_ply = ply;
    g->flag_verdict = (uint8_t)r->verdict;
    g->flag_reason = (uint8_t)r->reason;
}

bool svc_flag_judged(Service *svc, SvcGame *g, int64_t now) {
    if (g->flag_judged && g->flag_ply == g->game.ply_count)
        return true;
    if (g->flag_job)
        return false; /* under way */
    SchColor flagged = sch_pos_turn(sch_game_position(&g->game));
    if (!svc->computer) {
        static const SchWinLimits full = {false, SCH_GAME_FLAG_NODES};
        SchWinResult r;
        sch_can_checkmate(sch_game_position(&g->game), (SchColor)!flagged, &full, NULL, &r);
        flag_verdict(g, g->game.ply_count, &r);
        return true;
    }
    ComputerJob *job = computer_rules_job_new(JOB_FLAG, sch_game_position(&g->game));
    if (!job) {
        g->flag_retry_ms = now + 1000; /* out of memory: the timer tries again in a second */
        return false;
    }
    job->flagged = flagged;
    job->serial = ++svc->next_job;
    snprintf(job->game_id, sizeof job->game_id, "%s", g->rec.id);
    job->ply = g->game.ply_count;
    /* The timers leave g alone until the verdict is back (service_next_timer_ms). */
    g->flag_job = job->serial;
    computer_submit(svc->computer, job);
    return false;
}

void svc_rules_result(Service *svc, const ComputerJob *job) {
    SvcGame *g = svc_find(svc, job->game_id);
    if (!g)
        return;
    if (job->kind == JOB_DEAD && g->dead_job == job->serial) {
        g->dead_job = 0;
        /* Moves played since do not matter: what was dead stays dead. */
        if (!job->cancelled && !svc_is_over(g) && job->ply <= g->game.ply_count)
            dead_verdict(svc, g, job->ply, job->win);
        svc_rules_poke(svc, g); /* a later position may wait for its own analysis */
    } else if (job->kind == JOB_FLAG && g->flag_job == job->serial) {
        g->flag_job = 0;
        if (job->cancelled || svc_is_over(g) || job->ply != g->game.ply_count)
            return;
        flag_verdict(g, job->ply, &job->win[0]);
        int64_t now = svc_now(svc);
        if (!g->pending && svc_time_is_up(g, now))
            svc_timeout_start(svc, g, now);
    }
    svc_touch(svc, g);
}
