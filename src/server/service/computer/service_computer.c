/* The computer player's plumbing: its searches run on the workers (computer.h), their results come
 * back through service_on_wake and are played through the same change path as a person's requests.
 * What it decides is service_computer_policy.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service_computer.h"
#include "service/service_change.h"
#include "service/service_registry.h"
#include "service/service_state.h"

/* Hands the workers a search for the computer's move in g. */
static void computer_think(Service *svc, SvcGame *g) {
    ComputerJob *job = computer_job_new(&g->game);
    if (!job)
        return; /* out of memory: the next change of the game tries again */
    job->serial = ++svc->next_job;
    snprintf(job->game_id, sizeof job->game_id, "%s", g->rec.id);
    job->ply = g->game.ply_count;
    svc_computer_limits(g, &svc->computer_cfg, svc_now(svc), &job->limits);
    job->skill = g->level ? g->level->skill : 20;
    job->delay_ms = svc->computer_cfg.delay_ms;
    g->job = job->serial;
    computer_submit(svc->computer, job);
}

/* Starts the computer's own change in g (no requester waits for it); false when it cannot. */
static bool computer_change(Service *svc, SvcGame *g, ChangeKind kind, SchMove move, int claim, DrawAction draw) {
    if (kind == CH_MOVE && !svc_moves_reserve(g))
        return false;
    SvcPending *p = svc_pending_new(NULL, g, kind, (SchColor)g->computer);
    if (!p)
        return false;
    p->by_computer = true;
    p->move = move;
    p->claim = claim;
    p->draw = draw;
    SchError err;
    if (!svc_change_prepare(p, svc_now(svc), &err)) {
        svc_pending_free(p);
        return false;
    }
    svc_pending_submit(svc, p);
    return true;
}

/* Plays the search result waiting in g (its turn, nothing pending): a move, a claim or an accepted
 * draw offer. */
static void computer_act(Service *svc, SvcGame *g) {
    g->has_result = false;
    int64_t now = svc_now(svc);
    if (svc_time_is_up(g, now)) {
        /* Its flag fell while it thought: the game ends like any other. */
        if (now >= g->flag_retry_ms)
            svc_timeout_start(svc, g, now);
        return;
    }
    int claim = -1;
    SvcComputerAct act = svc_computer_choose(g, g->result.best, g->result.score, &claim);
    ChangeKind kind = act == SVC_ACT_ACCEPT_DRAW ? CH_DRAW : act == SVC_ACT_CLAIM ? CH_CLAIM : CH_MOVE;
    if (kind == CH_CLAIM)
        claim = 0;
    if (!computer_change(svc, g, kind, g->result.best, claim, DRAW_ACCEPT) && kind != CH_MOVE)
        computer_change(svc, g, CH_MOVE, g->result.best, -1, DRAW_ACCEPT);
}

void svc_computer_poke(Service *svc, SvcGame *g) {
    if (!svc->computer || g->computer < 0 || svc_is_over(g)) {
        if (svc->computer && g->job) /* the game ended while it thought: stop wasting a worker */
            computer_cancel(svc->computer, g->job);
        g->job = 0;
        g->has_result = false;
        return;
    }
    if (g->pending)
        return; /* called again when that change comes back */
    if (svc_game_stale(g)) {
        svc_refresh(svc, g); /* another node changed the game: it pokes again once it has read it */
        return;
    }
    SchColor turn = sch_pos_turn(sch_game_position(&g->game));
    if ((int)turn != g->computer) {
        if (g->game.draw_offer == !g->computer)
            computer_change(svc, g, CH_DRAW, SCH_MOVE_NONE, -1,
                            svc_computer_accepts_offer(g) ? DRAW_ACCEPT : DRAW_DECLINE);
        return;
    }
    if (g->has_result && g->result_ply == g->game.ply_count) {
        computer_act(svc, g);
        return;
    }
    if (!g->job && svc_lease_held(svc, g))
        computer_think(svc, g);
}

void svc_computer_result(Service *svc, const ComputerJob *job) {
    if (job->kind != JOB_SEARCH) {
        svc_rules_result(svc, job);
        return;
    }
    /* Only games in play have searches, and they stay in memory: a game not found has none. */
    SvcGame *g = svc_find(svc, job->game_id);
    if (!g || g->job != job->serial)
        return;
    g->job = 0;
    if (job->cancelled || svc_is_over(g) || g->game.ply_count != job->ply || job->result.best == SCH_MOVE_NONE) {
        svc_computer_poke(svc, g);
        svc_touch(svc, g);
        return;
    }
    g->has_result = true;
    g->result_ply = job->ply;
    g->result = job->result;
    g->has_score = true;
    g->score = job->result.score;
    svc_computer_poke(svc, g);
}

bool service_computer_start(Service *svc, const ServiceComputerConfig *cfg, void (*wake)(void *), void *wake_ctx,
                            char *err, size_t err_size) {
    if (svc->computer) {
        snprintf(err, err_size, "the computer player runs already");
        return false;
    }
    ServiceComputerConfig none = {0};
    svc->computer_cfg = cfg ? *cfg : none;
    svc->computer = computer_start(svc->computer_cfg.threads, svc->computer_cfg.hash_mb, wake, wake_ctx, err, err_size);
    if (!svc->computer)
        return false;
    /* After a restart: whatever the computer was doing when the server stopped, it does again. */
    svc_enter(svc);
    for (uint32_t i = 0; i < svc->slot_count; i++)
        if (svc->slots[i]) {
            svc_rules_poke(svc, svc->slots[i]);
            svc_computer_poke(svc, svc->slots[i]);
        }
    svc_leave(svc);
    return true;
}
