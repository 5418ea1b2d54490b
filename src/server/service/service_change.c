/* Changes of a game on their way through the store, and who hears of them. A change is tried on the
 * live game and put back at once (snapshot), so the game in memory shows only what is committed; it
 * is replayed when the store hands the committed operation back (service_commit.c). */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

/* ------------------------------------------------------------------------------------------------ */
/* Trying a change */

typedef struct Snapshot {
    SchPosition pos;
    int ply_count;
    SchOutcome outcome;
    int draw_offer;
    bool aborted;
    bool dead_pending; /* a tried move sets it for its own position (service_rules.c reads it) */
} Snapshot;

static Snapshot snapshot_take(const SvcGame *g) {
    return (Snapshot){g->game.pos,        g->game.ply_count, g->game.outcome,
                      g->game.draw_offer, g->aborted,        g->game.dead_pending};
}

static void snapshot_restore(SvcGame *g, const Snapshot *s) {
    g->game.pos = s->pos;
    g->game.ply_count = s->ply_count;
    g->game.outcome = s->outcome;
    g->game.draw_offer = s->draw_offer;
    g->aborted = s->aborted;
    g->game.dead_pending = s->dead_pending;
}

bool svc_change_run(SvcGame *g, SvcPending *p, SchError *err) {
    SchGame *game = &g->game;
    SchColor turn = sch_pos_turn(sch_game_position(game));
    switch (p->kind) {
        case CH_CREATE:
        case CH_JOIN:
        case CH_REMATCH:
        case CH_LEASE: return true;
        case CH_MOVE:
            if (p->claim < 0)
                return sch_game_play(game, p->move, err);
            p->claim_rejected = false;
            if (sch_game_claim_with_move(game, p->move, p->claim, err))
                return true;
            if (err->code == SCH_GAME_ERR_CLAIM_REJECTED) {
                p->claim_rejected = true;
                return true;
            }
            return err->code == SCH_GAME_ERR_CLAIM_VOID;
        case CH_DRAW:
            if (p->draw == DRAW_OFFER)
                return sch_game_offer_draw(game, p->color, err);
            if (p->draw == DRAW_ACCEPT)
                return sch_game_accept_draw(game, p->color, err);
            return sch_game_decline_draw(game, p->color, err);
        case CH_CLAIM: return sch_game_claim(game, p->claim, err);
        case CH_TAKEBACK: return svc_takeback_run(g, p, err);
        case CH_RESIGN:
            /* A rated game in which a side has not moved yet never began: resigning there aborts it, and
             * an aborted game is not rated (no farming of ratings with games resigned at once). */
            if (g->rec.rated && game->ply_count < 2 && !sch_game_over(game)) {
                g->aborted = true;
                return true;
            }
            return sch_game_resign(game, p->color, err);
        case CH_ABORT: g->aborted = true; return true;
        case CH_TIMEOUT:
            /* Clocks and deadlines run only once both sides have moved; should one run out before that
             * all the same (a row from elsewhere), the game never began: aborted, not lost. */
            if (game->ply_count < 2) {
                g->aborted = true;
                return true;
            }
            if (g->rec.time.type == TIME_LIVE) {
                /* Judged on a worker before this change was made (svc_flag_judged). */
                SchWinResult opponent = {.verdict = (SchWinnability)p->flag_verdict,
                                         .reason = (SchWinReason)p->flag_reason};
                return sch_game_time_forfeit_judged(game, turn, &opponent, err);
            }
            return sch_game_abandon(game, turn, err);
        case CH_DEAD: {
            SchWinResult res[2] = {{.verdict = SCH_WIN_UNWINNABLE, .reason = (SchWinReason)p->dead_reason[SCH_WHITE]},
                                   {.verdict = SCH_WIN_UNWINNABLE, .reason = (SchWinReason)p->dead_reason[SCH_BLACK]}};
            return sch_game_settle_dead(game, p->dead_ply, res);
        }
    }
    return false;
}

static void outcome_to_record(const SvcGame *g, GameRecord *rec) {
    if (g->aborted) {
        snprintf(rec->result, sizeof rec->result, "*");
        snprintf(rec->termination, sizeof rec->termination, "aborted");
    } else if (sch_game_over(&g->game)) {
        snprintf(rec->result, sizeof rec->result, "%s", sch_result_string(g->game.outcome.result));
        snprintf(rec->termination, sizeof rec->termination, "%s", sch_termination_name(g->game.outcome.termination));
        const char *reason = sch_win_reason_name((SchWinReason)g->game.outcome.reason);
        snprintf(rec->reason, sizeof rec->reason, "%s", reason ? reason : "");
    }
}

bool svc_change_prepare(SvcPending *p, int64_t now, SchError *err) {
    SvcGame *g = p->game;
    Snapshot before = snapshot_take(g);
    GameRecord rec = g->rec;
    GameRecord stopped = g->rec;
    svc_clock_stop(g, &stopped, now);
    int ply = g->game.ply_count;
    if (p->kind == CH_MOVE)
        svc_clock_after_move(g, &rec, ply + 1, now);
    sch_err_clear(err);
    if (!svc_change_run(g, p, err)) {
        snapshot_restore(g, &before);
        return false;
    }
    if (svc_is_over(g)) {
        if (p->kind != CH_MOVE)
            memcpy(rec.clock_ms, stopped.clock_ms, sizeof rec.clock_ms);
        rec.turn_started_ms = 0;
        outcome_to_record(g, &rec);
    }
    rec.draw_offer = svc_is_over(g) ? -1 : g->game.draw_offer;
    if (p->kind == CH_MOVE || svc_is_over(g))
        rec.takeback_offer = 0;    /* a move, or the end, lets a takeback request lapse */
    rec.plies = g->game.ply_count; /* what a read of the row checks the stored moves against */
    snapshot_restore(g, &before);
    if (p->kind == CH_TAKEBACK)
        svc_takeback_record(g, p, &rec);

    memset(&p->op, 0, sizeof p->op);
    p->op.user = p;
    if (p->kind == CH_MOVE) {
        p->op.append = true;
        p->op.ply = ply;
        /* g is back at the position before the move; castling off the e-file is stored as king takes
         * rook, which sch_uci_parse reads back as castling where a plain king move would read the same. */
        sch_uci_write(sch_game_position(&g->game), p->move, p->op.move.uci, sizeof p->op.move.uci);
        p->op.move.at_ms = now;
        /* A plain move is all another node needs to replay it on its copy (service_cluster.c): the
         * rest of the row follows from the move and its time, as it did here. */
        if (p->claim < 0)
            snprintf(p->op.note, sizeof p->op.note, "m %s %lld", p->op.move.uci, (long long)now);
        /* A plain move writes only the move, unless it changed what the row holds. */
        p->op.update = strcmp(rec.result, g->rec.result) != 0 || rec.draw_offer != g->rec.draw_offer ||
                       rec.takeback_offer != g->rec.takeback_offer || rec.turn_started_ms != g->rec.turn_started_ms ||
                       memcmp(rec.clock_ms, g->rec.clock_ms, sizeof rec.clock_ms) != 0;
    } else {
        p->op.update = true;
        p->op.truncate = p->kind == CH_TAKEBACK && p->takeback_plies > 0;
    }
    if (p->op.update)
        rec.updated_ms = now;
    p->op.record = rec;
    return true;
}

/* ------------------------------------------------------------------------------------------------ */
/* Through the store */

SvcPending *svc_pending_new(Req *r, SvcGame *g, ChangeKind kind, SchColor color) {
    SvcPending *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->kind = kind;
    p->game = g;
    p->color = color;
    p->claim = -1;
    if (r) {
        p->reply = r->reply;
        p->ctx = r->ctx;
        p->ticket = r->ticket;
        p->lang = r->lang;
        p->retries = r->svc->retry_depth;
        /* A rematch comes after the end of a rated game, whose rating raises the rev from the accounts'
         * worker even on one node. */
        if ((r->svc->cluster || kind == CH_REMATCH) && (r->in->body || r->in->json) && kind != CH_CREATE) {
            /* Kept to be handled again should another node change the game first; without it (no
             * memory) such a change is answered 409 stale_ply. */
            if (r->in->json)
                p->json = json_incref(r->in->json);
            else
                p->body = strdup(r->in->body);
            p->action = r->in->action;
            p->lang_explicit = r->in->lang_explicit;
            if (r->in->account)
                snprintf(p->account, sizeof p->account, "%s", r->in->account);
            p->seat_epoch = r->in->seat_epoch;
        }
        if (kind == CH_MOVE)
            p->arrived_ms = svc_monotonic_ms();
    }
    return p;
}

void svc_pending_free(SvcPending *p) {
    if (!p)
        return;
    svc_game_free(p->spawned);
    free(p->body);
    json_decref(p->json);
    free(p);
}

void svc_pending_submit(Service *svc, SvcPending *p) {
    p->op.user = p;
    if (p->kind != CH_CREATE)
        p->op.base_rev = p->game->rec.rev; /* refused if another node changed the game meanwhile */
    if (p->kind != CH_CREATE && p->kind != CH_LEASE)
        p->game->pending = p;
    p->prev = NULL;
    p->next = svc->pending;
    if (svc->pending)
        svc->pending->prev = p;
    svc->pending = p;
    svc->pending_count++;
    store_submit(svc->store, &p->op);
}

void svc_pending_unlink(Service *svc, SvcPending *p) {
    svc->pending_count--;
    if (p->prev)
        p->prev->next = p->next;
    else
        svc->pending = p->next;
    if (p->next)
        p->next->prev = p->prev;
}

uint64_t svc_change_start(Req *r, SvcPending *p) {
    SchError err;
    if (!svc_change_prepare(p, svc_now(r->svc), &err)) {
        SvcError e = err.code == SCH_GAME_ERR_NO_OFFER   ? SVC_E_NO_OFFER
                     : err.code == SCH_GAME_ERR_NO_CLAIM ? SVC_E_NO_CLAIM
                     : err.code == SCH_GAME_ERR_OVER     ? SVC_E_GAME_OVER
                                                         : SVC_E_INTERNAL;
        svc_pending_free(p);
        return svc_reply_error(r, e, NULL);
    }
    svc_pending_submit(r->svc, p);
    return r->ticket;
}

bool svc_time_is_up(const SvcGame *g, int64_t now) {
    int64_t left;
    return svc_expiry(g, now, &left) && left <= 0;
}

void svc_timeout_start(Service *svc, SvcGame *g, int64_t now) {
    bool live = g->rec.time.type == TIME_LIVE;
    if (live && !svc_flag_judged(svc, g, now))
        return; /* the 6.9 analysis runs on a worker and calls again */
    SvcPending *p = svc_pending_new(NULL, g, CH_TIMEOUT, sch_pos_turn(sch_game_position(&g->game)));
    SchError err;
    if (!p)
        return;
    p->flag_verdict = g->flag_verdict;
    p->flag_reason = g->flag_reason;
    if (!svc_change_prepare(p, now, &err)) {
        svc_pending_free(p);
        g->flag_retry_ms = now + 1000;
        return;
    }
    svc_pending_submit(svc, p);
}

/* ------------------------------------------------------------------------------------------------ */
/* Subscriptions: an id names its game's slot in the upper bits (so unsubscribing needs no search over
 * games) and a service-wide serial in the lower ones (so an id never matches a later subscription
 * after its game left memory and the slot went to another game). */

#define SUB_SERIAL_BITS 40
#define SUB_SLOT_MAX    ((1u << (64 - SUB_SERIAL_BITS)) - 2)

/* The WebSocket message {"type":"state","game":…,"state":…} for state text. */
static char *state_message(const SvcGame *g, const char *state, size_t *len) {
    return svc_json_with(json_pack("{s:s, s:s}", "type", "state", "game", g->rec.id), "state", state, len);
}

void svc_deliver_to(Service *svc, SvcGame *g, int side, const char *text, size_t len) {
    g->broadcasting++;
    int count = g->sub_count; /* who subscribes while we deliver got the state already */
    for (int i = 0; i < count; i++)
        if (g->subs[i].event && (side < 0 || g->subs[i].side == side))
            g->subs[i].event(g->subs[i].ctx, text, len);
    if (--g->broadcasting == 0) {
        int kept = 0;
        for (int i = 0; i < g->sub_count; i++)
            if (g->subs[i].event)
                g->subs[kept++] = g->subs[i];
        g->sub_count = kept;
        svc_touch(svc, g);
    }
}

void svc_broadcast(Service *svc, SvcGame *g, const char *state) {
    if (g->sub_count == 0 || !state)
        return;
    size_t len = 0;
    char *text = state_message(g, state, &len);
    if (!text)
        return;
    svc_deliver_to(svc, g, -1, text, len);
    free(text);
}

void service_game_event(Service *svc, const char *id, const char *text, size_t len) {
    SvcGame *g = svc_find(svc, id);
    if (!g || g->sub_count == 0)
        return;
    svc_enter(svc);
    svc_deliver_to(svc, g, -1, text, len);
    svc_leave(svc);
}

/* Presence changed (a side's first subscriber came or its last one went): everyone hears of it. */
static void presence_changed(Service *svc, SvcGame *g) {
    char *state = svc_state_text(g, svc_now(svc), NULL);
    svc_broadcast(svc, g, state);
    free(state);
}

static uint64_t subscribe(Service *svc, const char *game, const char *secret, ServiceEvent event, void *ctx,
                          bool *bad_secret) {
    SvcError e;
    /* The first state is the store's latest: a page that reconnects after its node went away is the
     * usual new watcher here, and the announcement of the move it saw last may not be here yet. */
    SvcGame *g = event ? svc_fetch_latest(svc, game, &e) : NULL;
    if (!g)
        return 0;
    int side = svc_side_of(svc, g, secret);
    if (secret && side < 0) {
        *bad_secret = true;
        svc_touch(svc, g);
        return 0;
    }
    if (g->slot > SUB_SLOT_MAX) {
        svc_touch(svc, g);
        return 0;
    }
    if (g->sub_count == g->sub_capacity) {
        int cap = g->sub_capacity ? g->sub_capacity * 2 : 4;
        SvcSub *subs = realloc(g->subs, (size_t)cap * sizeof *subs);
        if (!subs) {
            svc_touch(svc, g);
            return 0;
        }
        g->subs = subs;
        g->sub_capacity = cap;
    }
    uint64_t serial = ++svc->next_sub & ((1ull << SUB_SERIAL_BITS) - 1);
    uint64_t id = ((uint64_t)(g->slot + 1) << SUB_SERIAL_BITS) | serial;
    g->subs[g->sub_count++] = (SvcSub){id, event, ctx, side};
    svc_touch(svc, g); /* held now: out of the cache */
    if (side >= 0 && g->online[side]++ == 0) {
        presence_changed(svc, g); /* the new subscriber gets its first state with everyone else */
        return id;
    }
    size_t len = 0;
    char *state = svc_state_text(g, svc_now(svc), NULL);
    char *text = state ? state_message(g, state, &len) : NULL;
    free(state);
    if (text) {
        event(ctx, text, len);
        free(text);
    }
    return id;
}

uint64_t service_subscribe(Service *svc, const char *game, ServiceEvent event, void *ctx) {
    bool bad = false;
    return service_subscribe_as(svc, game, NULL, event, ctx, &bad);
}

uint64_t service_subscribe_as(Service *svc, const char *game, const char *secret, ServiceEvent event, void *ctx,
                              bool *bad_secret) {
    *bad_secret = false;
    svc_enter(svc);
    uint64_t id = subscribe(svc, game, secret, event, ctx, bad_secret);
    svc_leave(svc);
    return id;
}

static void unsubscribe(Service *svc, uint64_t subscription) {
    uint64_t slot = subscription >> SUB_SERIAL_BITS;
    SvcGame *g = slot ? svc_slot_game(svc, (uint32_t)(slot - 1)) : NULL;
    if (!g)
        return;
    for (int i = 0; i < g->sub_count; i++) {
        if (g->subs[i].id != subscription || !g->subs[i].event)
            continue;
        int side = g->subs[i].side;
        if (g->broadcasting) {
            g->subs[i].event = NULL;
        } else {
            memmove(&g->subs[i], &g->subs[i + 1], (size_t)(g->sub_count - i - 1) * sizeof g->subs[0]);
            g->sub_count--;
            if (g->sub_count == 0) { /* a crowd of watchers gone: their room too */
                free(g->subs);
                g->subs = NULL;
                g->sub_capacity = 0;
            }
            svc_touch(svc, g); /* nobody watches a finished game any more: it may go to the cache */
        }
        if (side >= 0 && --g->online[side] == 0)
            presence_changed(svc, g);
        return;
    }
}

void service_unsubscribe(Service *svc, uint64_t subscription) {
    svc_enter(svc);
    unsubscribe(svc, subscription);
    svc_leave(svc);
}
