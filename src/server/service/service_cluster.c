/* Several servers on one store (PostgreSQL): any node serves any game, and the database decides.
 *
 * Every game row has a version (rev, store.h); every change names the rev it was made on, and the store
 * refuses it when another node got in first. Each node keeps its copies of the games in memory as
 * before and learns of other nodes' commits from the store's announcements (NOTIFY): a copy someone
 * watches here is read again at once and the new state pushed to its subscribers; any other copy is
 * only marked, and read again when it is next used (a request, a timer, the computer). A change the
 * store refused is handled once more on the refreshed game, so a player whose node was a little behind
 * sees no difference; a move that was played already by the same request answers as a duplicate.
 *
 * Time-outs and dead positions need no more than that: every node may try to end a game, and the rev
 * lets exactly one succeed. The computer's thinking is costlier, so it runs only on the node that holds
 * the game's lease for the current rev (a claim through the store, store.h); another node asks again
 * after a while, so a node that died with the lease holds nobody up for longer than the lease. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

/* How long a lease on the computer's thinking holds beyond the search's own time, and how soon a node
 * that found the lease held by another asks again. */
#define LEASE_SLACK_MS 30000
#define LEASE_RETRY_MS 5000
/* Games whose revs one query of a resync asks for. */
#define RESYNC_CHUNK 256

bool svc_game_stale(const SvcGame *g) { return g->store_rev > g->rec.rev; }

/* ------------------------------------------------------------------------------------------------ */
/* Refreshing a copy */

typedef struct RefreshRead {
    SvcGame *game;
    bool failed;
    char err[256];
} RefreshRead;

static void refresh_read(void *ctx, const GameRecord *record, const StoredMove *moves, int count) {
    RefreshRead *rr = ctx;
    if (rr->game || rr->failed)
        return;
    rr->game = svc_game_build(record, moves, count, rr->err, sizeof rr->err);
    rr->failed = !rr->game;
}

/* Work under way for the old copy means nothing for the new one: searches and analyses are dropped
 * (their results find no job of that serial when they come back). */
static void drop_jobs(Service *svc, SvcGame *g) {
    if (svc->computer) {
        if (g->job)
            computer_cancel(svc->computer, g->job);
        if (g->dead_job)
            computer_cancel(svc->computer, g->dead_job);
        if (g->flag_job)
            computer_cancel(svc->computer, g->flag_job);
    }
    g->job = g->dead_job = g->flag_job = 0;
    g->has_result = false;
    g->flag_judged = false;
    g->flag_retry_ms = 0;
}

/* Moves the rules' state of fresh (just built from the store) into g, which keeps its place in the
 * registry, its subscribers, timers and cache links; fresh is freed. */
static void transplant(SvcGame *g, SvcGame *fresh) {
    SchGame old = g->game;
    g->game = fresh->game;
    fresh->game = old;
    char *text = g->moves_text;
    size_t len = g->moves_len, cap = g->moves_capacity;
    g->moves_text = fresh->moves_text;
    g->moves_len = fresh->moves_len;
    g->moves_capacity = fresh->moves_capacity;
    fresh->moves_text = text;
    fresh->moves_len = len;
    fresh->moves_capacity = cap;
    g->rec = fresh->rec;
    g->aborted = fresh->aborted;
    g->level = fresh->level;
    g->computer = fresh->computer;
    g->dead_ready = fresh->dead_ready;
    g->dead_ply = fresh->dead_ply;
    memcpy(g->dead_reason, fresh->dead_reason, sizeof g->dead_reason);
    svc_game_free(fresh);
}

bool svc_refresh(Service *svc, SvcGame *g) {
    if (g->pending)
        return false;
    RefreshRead rr = {0};
    char err[256];
    int found = store_get(svc->store, g->rec.id, refresh_read, &rr, err, sizeof err);
    if (found <= 0 || rr.failed || !rr.game) {
        svc_game_free(rr.game);
        return false;
    }
    SvcGame *fresh = rr.game;
    if (fresh->rec.rev <= g->rec.rev) { /* nothing new after all (a fault that had committed nothing) */
        g->store_rev = g->rec.rev;
        svc_game_free(fresh);
        return true;
    }
    bool was_over = svc_is_over(g);
    drop_jobs(svc, g);
    transplant(g, fresh);
    g->store_rev = g->rec.rev;
    svc->metrics.refreshes++;
    svc_timer_update(svc, g);
    if (!was_over && svc_is_over(g))
        svc_recent_insert(svc, g);
    if (g->sub_count > 0) {
        char *state = svc_state_text(g, svc_now(svc), NULL);
        svc_broadcast(svc, g, state);
        free(state);
    }
    svc_rules_poke(svc, g);
    svc_computer_poke(svc, g);
    svc_premove_poke(svc, g); /* another node's move may have brought a premove's turn */
    svc_touch(svc, g);
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* Conflicts */

void svc_commit_conflict(Service *svc, SvcPending *p) {
    SvcGame *g = p->game;
    svc->metrics.conflicts++;
    g->pending = NULL;
    if (g->store_rev <= g->rec.rev)
        g->store_rev = g->rec.rev + 1;
    if (p->expiry) /* another node changed it first: it began, ended or expired there */
        svc->expiring--;
    bool fresh = svc_refresh(svc, g);
    if ((p->body || p->json) && fresh && p->retries < 2) {
        /* The request once more, on the game as it is now: the same answers as on one node. Also when
         * nobody waits for the answer any more: a cancelled request's change still happens. */
        ServiceRequest req = {.action = p->action,
                              .game = g->rec.id,
                              .body = p->body,
                              .json = p->json,
                              .lang = p->lang,
                              .lang_explicit = p->lang_explicit,
                              .account = p->account,
                              .seat_epoch = p->seat_epoch};
        Req r = {svc, &req, p->lang, p->reply, p->ctx, p->ticket, true};
        svc->retry_depth = p->retries + 1;
        svc_handle_game(&r, g);
        svc->retry_depth = 0;
    } else if (p->reply) {
        svc_send_json(p->reply, p->ctx, svc_error_status(SVC_E_STALE), svc_error_json(SVC_E_STALE, p->lang, NULL));
    }
    if (!fresh) {
        if (p->kind == CH_TIMEOUT)
            g->flag_retry_ms = svc_now(svc) + 1000;
        if (p->expiry)
            svc->unstarted_retry_ms = svc_now(svc) + 1000;
        svc_timer_update(svc, g);
    }
    svc_touch(svc, g);
}

/* ------------------------------------------------------------------------------------------------ */
/* Announcements */

static void mark_rev(void *ctx, const char *id, int64_t rev) {
    SvcGame *g = svc_find(ctx, id);
    if (g && rev > g->store_rev)
        g->store_rev = rev;
}

/* After the announcements may have been missed: every copy in memory is compared with the store. */
static void resync(Service *svc) {
    const char *ids[RESYNC_CHUNK];
    uint32_t i = 0;
    while (i < svc->slot_count) {
        int n = 0;
        for (; i < svc->slot_count && n < RESYNC_CHUNK; i++)
            if (svc->slots[i])
                ids[n++] = svc->slots[i]->rec.id;
        char err[256];
        if (n && store_revs(svc->store, ids, n, mark_rev, svc, err, sizeof err) < 0) {
            /* The store is away again: a resync notice follows when it is back. */
            log_event(LOG_WARN, "resync_failed", "error", err, (char *)NULL);
            return;
        }
    }
    for (uint32_t k = 0; k < svc->slot_count; k++) {
        SvcGame *g = svc->slots[k];
        if (g && svc_game_stale(g) && !g->pending && (g->sub_count > 0 || g->in_timer_list))
            svc_refresh(svc, g);
    }
}

/* Another node's plain move, announced with its note ("m UCI AT_MS"), played on this copy when it is at
 * the rev the move was made on: the same change as there (svc_change_prepare with the move's time gives
 * the same row), without reading the game. false when the copy is not right for it. */
static bool replay_move(Service *svc, SvcGame *g, const StoreNotice *n) {
    char uci[8];
    long long at;
    if (g->pending || n->rev != g->rec.rev + 1 || n->ply != g->game.ply_count + 1 || svc_is_over(g) ||
        sscanf(n->note, "m %7s %lld", uci, &at) != 2)
        return false;
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_uci_parse(sch_game_position(&g->game), uci, &err);
    if (m == SCH_MOVE_NONE || !svc_moves_reserve(g))
        return false;
    SvcPending *p = svc_pending_new(NULL, g, CH_MOVE, sch_pos_turn(sch_game_position(&g->game)));
    if (!p)
        return false;
    p->move = m;
    p->replayed = true;
    if (!svc_change_prepare(p, (int64_t)at, &err)) {
        svc_pending_free(p);
        return false;
    }
    p->op.record.rev = n->rev;
    drop_jobs(svc, g); /* what was under way here was for the position before the move */
    svc_commit_apply(svc, p);
    svc_pending_free(p);
    return true;
}

/* Another node's analysis of a game watched here went on or ended: its watchers here hear of it as the
 * running node's do ({"type":"analysis",...}, docs/api.md "Analysis"). */
static void analysis_notice(Service *svc, const StoreNotice *n) {
    char status[16];
    int done, total;
    if (sscanf(n->note, "a %15s %d %d", status, &done, &total) != 3 ||
        (strcmp(status, "running") != 0 && strcmp(status, "done") != 0))
        return;
    json_t *o = json_pack("{s:s,s:s,s:{s:s,s:{s:i,s:i}}}", "type", "analysis", "game", n->id, "analysis", "status",
                          status, "progress", "done", done, "total", total);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (text)
        service_game_event(svc, n->id, text, strlen(text));
    free(text);
    json_decref(o);
}

void svc_notices(Service *svc, StoreNotice *list) {
    bool again = false;
    for (StoreNotice *n = list; n; n = n->next) {
        if (n->resync) {
            again = true;
            continue;
        }
        if (store_notice_is_analysis(n)) {
            analysis_notice(svc, n);
            continue;
        }
        SvcGame *g = svc_find(svc, n->id);
        if (!g || n->rev <= g->rec.rev)
            continue; /* not here, or this node's own commit */
        svc->metrics.notices++;
        if (replay_move(svc, g, n))
            continue;
        if (n->rev > g->store_rev)
            g->store_rev = n->rev;
        /* Watchers hear of the change now, and a premove queued here is played; any other copy is read
         * when it is next used. */
        if (!g->pending && (g->sub_count > 0 || g->premove_side))
            svc_refresh(svc, g);
    }
    if (again)
        resync(svc);
}

/* ------------------------------------------------------------------------------------------------ */
/* Refusals made on a copy that may be behind */

/* Asks the store for g's rev (one small read) and marks g stale when the store is ahead; false when
 * the store cannot say. */
static bool ask_rev(Service *svc, SvcGame *g) {
    const char *id = g->rec.id;
    char err[256];
    return store_revs(svc->store, &id, 1, mark_rev, svc, err, sizeof err) >= 0;
}

bool svc_catch_up(Service *svc, SvcGame *g) {
    if (!svc->cluster || g->pending)
        return false;
    int64_t rev = g->rec.rev;
    if (!svc_game_stale(g) && !ask_rev(svc, g))
        return false; /* the store cannot say: the copy's answer stands */
    return svc_game_stale(g) && svc_refresh(svc, g) && g->rec.rev > rev;
}

SvcGame *svc_fetch_latest(Service *svc, const char *id, SvcError *err) {
    SvcGame *g = svc_find(svc, id);
    /* A copy already marked is read again by svc_fetch, a game not in memory is read from the store:
     * only a copy that looks current needs the question. When the store cannot say, it stands. */
    if (g && svc->cluster && !g->pending && !svc_game_stale(g))
        ask_rev(svc, g);
    return svc_fetch(svc, id, err);
}

bool svc_handled_again(Req *r, SvcGame *g) {
    if (r->caught_up)
        return false;
    r->caught_up = true;
    if (!svc_catch_up(r->svc, g))
        return false;
    svc_handle_game(r, g);
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* The lease on the computer's thinking */

bool svc_lease_held(Service *svc, SvcGame *g) {
    if (!svc->cluster || g->lease_rev == g->rec.rev)
        return true;
    int64_t now = svc_now(svc);
    if (g->claiming || svc_game_stale(g))
        return false;
    /* Another node held the lease at this rev: ask again later. A lease ends when the game moves on,
     * so on a later rev the claim goes out now. */
    if (now < g->claim_retry_ms && g->claim_retry_rev == g->rec.rev)
        return false;
    if (g->claim_retry_ms) {
        g->claim_retry_ms = 0;
        svc_timer_update(svc, g);
    }
    SvcPending *p = svc_pending_new(NULL, g, CH_LEASE, (SchColor)(g->computer < 0 ? SCH_WHITE : g->computer));
    if (!p)
        return false;
    EngineLimits limits;
    svc_computer_limits(g, &svc->computer_cfg, now, &limits);
    /* A search never takes longer than its movetime, or than the computer's whole clock. */
    int64_t think = limits.movetime > 0 ? limits.movetime : g->computer >= 0 ? limits.time[g->computer] : 0;
    memset(&p->op, 0, sizeof p->op);
    p->op.claim = true;
    snprintf(p->op.record.id, sizeof p->op.record.id, "%s", g->rec.id);
    snprintf(p->op.node, sizeof p->op.node, "%s", svc->node);
    p->op.now_ms = now;
    p->op.lease_until_ms = now + think + svc->computer_cfg.delay_ms + LEASE_SLACK_MS;
    g->claiming = true;
    svc_pending_submit(svc, p);
    return false;
}

void svc_lease_done(Service *svc, SvcPending *p) {
    SvcGame *g = p->game;
    g->claiming = false;
    if (p->op.ok) {
        g->lease_rev = p->op.base_rev;
        g->claim_retry_ms = 0;
    } else {
        /* Held by another node, or the game moved on: ask again later, and read it again now. */
        g->claim_retry_ms = svc_now(svc) + (p->op.conflict ? LEASE_RETRY_MS : 1000);
        g->claim_retry_rev = p->op.base_rev;
        if (p->op.conflict && g->store_rev <= g->rec.rev)
            g->store_rev = g->rec.rev + 1;
    }
    svc_timer_update(svc, g);
    if (svc_game_stale(g) && !g->pending)
        svc_refresh(svc, g);
    else
        svc_computer_poke(svc, g);
    svc_touch(svc, g);
}

void service_set_cluster(Service *svc, const char *node) {
    svc->cluster = node != NULL;
    snprintf(svc->node, sizeof svc->node, "%s", node ? node : "");
}
