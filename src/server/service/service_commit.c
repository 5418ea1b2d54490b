/* What comes back from the store: a committed change is replayed on the game in memory (where it was
 * tried before, and nothing changed the game since: one change per game is in flight), answered and
 * broadcast; a failed one leaves the game as it was and answers 503 storage. Also the timers that end
 * games whose time ran out. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

static char *create_reply(const SvcPending *p, const char *state, size_t *len) {
    const SvcGame *g = p->game;
    json_t *j = json_pack("{s:s, s:s, s:s, s:o}", "id", g->rec.id, "color", p->color == SCH_WHITE ? "white" : "black",
                          "secret", p->secret, "invite", p->invite[0] ? json_string(p->invite) : json_null());
    if (j && p->secret2[0]) {
        const char *white = p->color == SCH_WHITE ? p->secret : p->secret2;
        const char *black = p->color == SCH_WHITE ? p->secret2 : p->secret;
        json_object_set_new(j, "secrets", json_pack("{s:s, s:s}", "white", white, "black", black));
    }
    return svc_json_with(j, "state", state, len);
}

static void created(Service *svc, SvcPending *p) {
    SvcGame *g = p->game;
    size_t len = 0;
    g->rec.rev = p->op.record.rev;
    g->store_rev = g->rec.rev;
    if (!svc_register(svc, g)) {
        /* Stored but not shown until the next start; the requester hears of the failure. */
        svc_send_json(p->reply, p->ctx, 500, svc_error_json(SVC_E_INTERNAL, p->lang, NULL));
        svc_game_free(g);
        return;
    }
    char *state = svc_state_text(g, svc_now(svc), NULL);
    char *reply = state ? create_reply(p, state, &len) : NULL;
    svc_send_text(p->reply, p->ctx, 201, reply, len, g->game.ply_count, false, false);
    free(state);
    svc_rules_poke(svc, g);    /* a position from a FEN may be dead */
    svc_computer_poke(svc, g); /* it may have the first move */
}

/* Counts a committed change for GET /metrics; a person's move with its time from arrival to answer. */
static void count_commit(Service *svc, const SvcPending *p) {
    if (p->replayed)
        return; /* another node's move, committed there */
    svc->metrics.changes_committed++;
    if (p->kind != CH_MOVE)
        return;
    svc->metrics.moves_committed++;
    if (p->arrived_ms > 0)
        store_histogram_add(&svc->metrics.move_ms, svc_monotonic_ms() - p->arrived_ms);
}

void svc_commit_apply(Service *svc, SvcPending *p) {
    count_commit(svc, p);
    if (p->kind == CH_CREATE) {
        created(svc, p);
        return;
    }
    if (p->kind == CH_REMATCH) {
        svc_rematch_committed(svc, p);
        return;
    }
    SvcGame *g = p->game;
    size_t len = 0;
    if (p->expiry) {
        svc->expiring--;
        g->forget = true; /* nobody began it: out of memory, unless it is watched */
    }
    bool was_over = svc_is_over(g);
    SchPosition before = g->game.pos;
    SchError err;
    sch_err_clear(&err);
    svc_change_run(g, p, &err); /* succeeded on the same game before, and nothing changed it since */
    if (p->kind == CH_MOVE)
        svc_moves_append(g, &before, p->move, p->op.move.at_ms); /* room reserved when the move was accepted */
    if (p->kind == CH_TAKEBACK && p->takeback_plies > 0)
        svc_takeback_committed(g);
    g->rec = p->op.record;
    if (g->store_rev < g->rec.rev)
        g->store_rev = g->rec.rev;
    g->pending = NULL;
    svc_timer_update(svc, g);
    if (!was_over && svc_is_over(g)) {
        svc_recent_insert(svc, g);
        if (g->rec.rated && svc->game_over && !p->replayed && !g->aborted)
            svc->game_over(svc->game_over_ctx, &g->rec);
    }

    /* One state text for the answer and every subscriber. */
    char *state = svc_state_text(g, svc_now(svc), NULL);
    json_t *j;
    if (p->kind == CH_JOIN)
        j = json_pack("{s:s, s:s}", "color", p->color == SCH_WHITE ? "white" : "black", "secret", p->secret);
    else if (p->claim_rejected)
        j = json_pack("{s:b}", "claim_rejected", true);
    else
        j = json_object();
    char *reply = state ? svc_json_with(j, "state", state, &len) : (json_decref(j), NULL);
    svc_send_text(p->reply, p->ctx, 200, reply, len, g->game.ply_count, false, p->claim_rejected);
    svc_broadcast(svc, g, state);
    free(state);
    svc_rules_poke(svc, g);
    svc_computer_poke(svc, g);
    svc_premove_poke(svc, g); /* the opponent's move brought the premover's turn */
    /* Another node's later change was announced while this one was in the store (the announcement
     * only marked the copy then): watchers hear of it now, not at the game's next request. */
    if (svc_game_stale(g) && !g->pending && g->sub_count > 0)
        svc_refresh(svc, g);
    svc_touch(svc, g); /* a game that just ended may go to the cache */
}

void svc_commit_failed(Service *svc, SvcPending *p) {
    if (p->kind == CH_CREATE) {
        svc_game_free(p->game);
    } else {
        p->game->pending = NULL;
        if (p->kind == CH_TIMEOUT)
            p->game->flag_retry_ms = svc_now(svc) + 1000;
        if (p->expiry)
            svc_expiry_failed(svc);
        /* A commit whose outcome is unknown (the connection broke during COMMIT) may have happened:
         * with other nodes about, the copy is read again before it is used. A fault that surely changed
         * nothing (the database could not be reached) leaves the copy as good as it was, so the games
         * held here can still be read and watched while the database is away. */
        if (svc->cluster && p->op.uncertain && p->game->store_rev <= p->game->rec.rev)
            p->game->store_rev = p->game->rec.rev + 1;
    }
    svc_send_json(p->reply, p->ctx, svc_error_status(SVC_E_STORAGE), svc_error_json(SVC_E_STORAGE, p->lang, NULL));
    if (p->kind != CH_CREATE) {
        svc_rules_poke(svc, p->game);
        svc_computer_poke(svc, p->game); /* its own change failed: it thinks again */
        svc_touch(svc, p->game);
    }
}

void service_on_wake(Service *svc) {
    svc_enter(svc);
    ComputerJob *job = svc->computer ? computer_take_done(svc->computer) : NULL;
    while (job) {
        ComputerJob *next = job->next;
        svc_computer_result(svc, job);
        computer_job_free(job);
        job = next;
    }
    StoreOp *op = store_take_done(svc->store);
    while (op) {
        StoreOp *next = op->next;
        SvcPending *p = op->user;
        svc_pending_unlink(svc, p);
        if (p->kind == CH_LEASE)
            svc_lease_done(svc, p);
        else if (op->ok)
            svc_commit_apply(svc, p);
        else if (op->conflict && p->kind != CH_CREATE)
            svc_commit_conflict(svc, p);
        else
            svc_commit_failed(svc, p);
        svc_pending_free(p);
        op = next;
    }
    StoreNotice *notices = store_take_notices(svc->store);
    if (notices) {
        svc_notices(svc, notices);
        store_notices_free(notices);
    }
    svc_leave(svc);
}

/* ------------------------------------------------------------------------------------------------ */
/* Timers */

/* When g (in an unstarted list) expires. */
static int64_t unstarted_due(const Service *svc, const SvcGame *g) {
    int k = g->rec.time.type == TIME_LIVE ? SVC_UNSTARTED_LIVE : SVC_UNSTARTED_SLOW;
    return g->unstarted_since + svc->unstarted_ms[k];
}

void svc_expiry_failed(Service *svc) {
    svc->expiring--;
    svc->unstarted_retry_ms = svc_now(svc) + 1000; /* the store is in trouble: not every game at once */
}

/* Aborts g, which nobody began and in which nothing happened for too long; no requester waits. */
static void expiry_start(Service *svc, SvcGame *g, int64_t now) {
    SvcPending *p = svc_pending_new(NULL, g, CH_ABORT, sch_pos_turn(sch_game_position(&g->game)));
    SchError err;
    if (!p)
        return;
    p->expiry = true;
    if (!svc_change_prepare(p, now, &err)) {
        svc_pending_free(p);
        return;
    }
    svc->expiring++;
    svc_pending_submit(svc, p);
}

/* Milliseconds until the next game nobody began expires (best: the earliest so far, -1: none). */
static int64_t unstarted_next_ms(const Service *svc, int64_t now, int64_t best) {
    if (svc->expiring >= SVC_EXPIRY_BATCH)
        return best; /* the wake after their commits asks again */
    for (int k = 0; k < 2; k++)
        for (const SvcGame *g = svc->unstarted_head[k]; g; g = g->unstarted_next) {
            if (g->pending)
                continue; /* reschedules when its change comes back */
            int64_t due = unstarted_due(svc, g);
            if (due < svc->unstarted_retry_ms)
                due = svc->unstarted_retry_ms;
            int64_t left = due - now < 0 ? 0 : due - now;
            if (best < 0 || left < best)
                best = left;
            break; /* the list is in order: the first one free is the next */
        }
    return best;
}

/* Aborts the games nobody began whose time is up (at most SVC_EXPIRY_BATCH in the store at once). */
static void unstarted_expire(Service *svc, int64_t now) {
    if (now < svc->unstarted_retry_ms)
        return;
    for (int k = 0; k < 2; k++) {
        SvcGame *next;
        for (SvcGame *g = svc->unstarted_head[k]; g && unstarted_due(svc, g) <= now; g = next) {
            if (svc->expiring >= SVC_EXPIRY_BATCH)
                return;
            next = g->unstarted_next; /* an update below moves g further back, never next */
            if (g->pending)
                continue;
            if (!svc_unstarted(g) || g->unstarted_since != g->rec.updated_ms) {
                svc_unstarted_update(svc, g); /* changed since it was put here */
                continue;
            }
            /* Another node may have moved in it: it expires only as the store has it. */
            if (svc_game_stale(g)) {
                if (!svc_refresh(svc, g)) {
                    svc->unstarted_retry_ms = now + 1000;
                    return;
                }
                if (!g->in_unstarted || unstarted_due(svc, g) > now || g->pending)
                    continue;
            }
            expiry_start(svc, g, now);
        }
    }
}

int64_t service_next_timer_ms(Service *svc) {
    int64_t now = svc_now(svc), best = -1;
    best = unstarted_next_ms(svc, now, best);
    for (SvcGame *g = svc->timers; g; g = g->timer_next) {
        int64_t left;
        if (g->claim_retry_ms && !g->claiming) { /* another node held the computer's lease */
            left = g->claim_retry_ms - now < 0 ? 0 : g->claim_retry_ms - now;
            if (best < 0 || left < best)
                best = left;
        }
        /* A committing change reschedules when it comes back, a 6.9 verdict when it is back. */
        if (g->pending || g->flag_job || !svc_expiry(g, now, &left))
            continue;
        if (left < g->flag_retry_ms - now)
            left = g->flag_retry_ms - now;
        if (left < 0)
            left = 0;
        if (best < 0 || left < best)
            best = left;
    }
    return best;
}

void service_on_timer(Service *svc) {
    svc_enter(svc);
    int64_t now = svc_now(svc);
    SvcGame *next;
    for (SvcGame *g = svc->timers; g; g = next) {
        next = g->timer_next; /* a refresh or a retry may take g out of the list */
        if (g->claim_retry_ms && !g->claiming && now >= g->claim_retry_ms) {
            g->claim_retry_ms = 0;
            svc_timer_update(svc, g);
            svc_computer_poke(svc, g);
            continue;
        }
        if (g->pending || g->flag_job || now < g->flag_retry_ms || !svc_time_is_up(g, now))
            continue;
        /* Another node may have moved in this game: a flag falls only on the copy the store has. */
        if (svc_game_stale(g) && (!svc_refresh(svc, g) || !svc_time_is_up(g, now)))
            continue;
        svc_timeout_start(svc, g, now);
    }
    unstarted_expire(svc, now);
    svc_leave(svc);
}
