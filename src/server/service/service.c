/* schach serve: the game service's entry points (service.h): start, end, requests and their replies.
 * Requests are validated at once against the game in memory; a change is tried on the live game, its
 * new record computed, and the game put back exactly (a Position is a plain value), so the game in
 * memory always shows what is committed. The change is replayed on the game when the store hands the
 * committed operation back, then answered and broadcast (service_commit.c). One change per game is in
 * flight at a time; others get 409 busy. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

/* ------------------------------------------------------------------------------------------------ */
/* Time, replies */

static int64_t real_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t svc_now(const Service *svc) { return svc->now_fn ? svc->now_fn(svc->now_ctx) : real_now(); }

bool svc_is_over(const SvcGame *g) { return g->aborted || sch_game_over(&g->game); }

void svc_deliver(ServiceReply reply, void *ctx, int status, const char *type, const char *body, size_t len, int ply,
                 bool duplicate, bool claim_rejected) {
    if (!reply)
        return;
    ServiceAnswer a = {status, type, body, len, ply, duplicate, claim_rejected};
    reply(ctx, &a);
}

void svc_send_json(ServiceReply reply, void *ctx, int status, json_t *j) {
    if (!reply) {
        json_decref(j);
        return;
    }
    size_t len = 0;
    char *text = j ? svc_dump(j, &len) : NULL;
    json_decref(j);
    if (!text) {
        static const char oom[] = "{\"error\":{\"code\":\"storage\",\"message\":\"out of memory\"}}";
        svc_deliver(reply, ctx, 500, "application/json", oom, sizeof oom - 1, -1, false, false);
        return;
    }
    svc_deliver(reply, ctx, status, "application/json", text, len, -1, false, false);
    free(text);
}

uint64_t svc_reply_error(Req *r, SvcError e, const char *arg) {
    svc_send_json(r->reply, r->ctx, svc_error_status(e), svc_error_json(e, r->lang, arg));
    return r->ticket;
}

void svc_send_text(ServiceReply reply, void *ctx, int status, char *text, size_t len, int ply, bool duplicate,
                   bool claim_rejected) {
    if (!text) {
        svc_send_json(reply, ctx, status, NULL);
        return;
    }
    svc_deliver(reply, ctx, status, "application/json", text, len, ply, duplicate, claim_rejected);
    free(text);
}

char *svc_with_state(const Service *svc, const SvcGame *g, json_t *obj, size_t *len) {
    char *state = svc_state_text(g, svc_now(svc), NULL);
    char *text = state ? svc_json_with(obj, "state", state, len) : (json_decref(obj), NULL);
    free(state);
    return text;
}

/* ------------------------------------------------------------------------------------------------ */
/* Requests */

uint64_t svc_handle_game(Req *r, SvcGame *g) {
    switch (r->in->action) {
        case ACTION_JOIN: return svc_action_join(r, g);
        case ACTION_STATE: return svc_action_state(r, g);
        case ACTION_MOVE: return svc_action_move(r, g);
        case ACTION_DRAW: return svc_action_draw(r, g);
        case ACTION_CLAIM: return svc_action_claim(r, g);
        case ACTION_RESIGN: return svc_action_secret_only(r, g, CH_RESIGN);
        case ACTION_ABORT: return svc_action_secret_only(r, g, CH_ABORT);
        case ACTION_PGN: return svc_action_pgn(r, g);
        case ACTION_POSITIONS: return svc_action_positions(r, g);
        case ACTION_REMATCH: return svc_action_rematch(r, g);
        case ACTION_TAKEBACK: return svc_action_takeback(r, g);
        case ACTION_PREMOVE: return svc_action_premove(r, g);
        default: return svc_reply_error(r, SVC_E_NO_PATH, NULL);
    }
}

/* Reads are answered with the store's latest (svc_fetch_latest). A change needs no such read: the
 * store refuses one made on an old copy, and it is handled again on the game read anew. */
static bool reads_game(ServiceAction action) {
    return action == ACTION_STATE || action == ACTION_PGN || action == ACTION_POSITIONS;
}

static uint64_t handle(Req *r) {
    switch (r->in->action) {
        case ACTION_CREATE: return svc_action_create(r);
        case ACTION_LIST: return svc_action_list(r);
        case ACTION_RECENT: return svc_action_recent(r);
        case ACTION_LEVELS: svc_send_json(r->reply, r->ctx, 200, svc_levels_json()); return r->ticket;
        default: break;
    }
    SvcError e = SVC_E_NOT_FOUND;
    SvcGame *g =
        reads_game(r->in->action) ? svc_fetch_latest(r->svc, r->in->game, &e) : svc_fetch(r->svc, r->in->game, &e);
    if (!g)
        return svc_reply_error(r, e, NULL);
    uint64_t ticket = svc_handle_game(r, g);
    svc_touch(r->svc, g);
    return ticket;
}

uint64_t service_handle(Service *svc, const ServiceRequest *req, ServiceReply reply, void *ctx) {
    Req r = {svc, req, req->lang, reply, ctx, ++svc->next_ticket, false};
    if (r.ticket == 0)
        r.ticket = ++svc->next_ticket;
    svc_enter(svc);
    uint64_t ticket = handle(&r);
    svc_leave(svc);
    return ticket;
}

void service_cancel(Service *svc, uint64_t ticket) {
    for (SvcPending *p = svc->pending; p; p = p->next)
        if (p->ticket == ticket && p->reply) {
            p->reply = NULL;
            return;
        }
}

/* ------------------------------------------------------------------------------------------------ */
/* Start and end */

Service *service_create(Store *store, ServiceClock now, void *clock_ctx, char *err, size_t err_size) {
    char none[8];
    if (!err) { /* callers that do not want the reason (the fuzzer) */
        err = none;
        err_size = sizeof none;
    }
    if (!secret_init()) {
        snprintf(err, err_size, "libsodium cannot be initialised");
        return NULL;
    }
    Service *svc = calloc(1, sizeof *svc);
    if (!svc) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    svc->store = store;
    svc->now_fn = now;
    svc->now_ctx = clock_ctx;
    svc->cache_max = SERVICE_CACHE_DEFAULT;
    svc->unstarted_ms[SVC_UNSTARTED_LIVE] = SERVICE_UNSTARTED_LIVE_DEFAULT_MS;
    svc->unstarted_ms[SVC_UNSTARTED_SLOW] = SERVICE_UNSTARTED_SLOW_DEFAULT_MS;
    randombytes_buf(svc->site_key, sizeof svc->site_key); /* until service_set_site_key */
    if (!svc_registry_load(svc, err, err_size)) {
        service_free(svc);
        return NULL;
    }
    return svc;
}

void service_free(Service *svc) {
    if (!svc)
        return;
    /* The workers first: no search result may arrive while the rest goes away. */
    computer_free(svc->computer);
    svc->computer = NULL;
    /* The store still owns the operations in flight: wait until it hands every one back. */
    while (svc->pending) {
        StoreOp *op = store_take_done(svc->store);
        if (!op) {
            struct timespec pause = {0, 1000000};
            nanosleep(&pause, NULL);
            continue;
        }
        while (op) {
            StoreOp *next = op->next;
            SvcPending *p = op->user;
            svc_pending_unlink(svc, p);
            if (p->kind == CH_CREATE)
                svc_game_free(p->game);
            svc_pending_free(p); /* a rematch's new game with it */
            op = next;
        }
    }
    svc_registry_free(svc);
    free(svc);
}

int svc_side_of(const Service *svc, const SvcGame *g, const char *secret) {
    int side = -1;
    for (int c = SCH_WHITE; c <= SCH_BLACK && secret; c++) {
        bool match;
        if (g->rec.account[c][0] && secret_is_set(g->rec.secret_hash[c])) {
            char want[SECRET_LEN + 1];
            secret_side(svc->site_key, g->rec.id, c, g->rec.seat_epoch[c], want);
            match = strlen(secret) == SECRET_LEN && sodium_memcmp(want, secret, SECRET_LEN) == 0;
            sodium_memzero(want, sizeof want);
        } else {
            match = secret_matches(secret, g->rec.secret_hash[c]);
        }
        if (match && side < 0)
            side = c;
    }
    return side;
}

void service_seats_revoked(Service *svc, const char *account) {
    svc_enter(svc);
    for (uint32_t k = 0; k < svc->slot_count; k++) {
        SvcGame *g = svc->slots[k];
        if (!g || (strcmp(g->rec.account[SCH_WHITE], account) != 0 && strcmp(g->rec.account[SCH_BLACK], account) != 0))
            continue;
        /* The store moved its row on (revoke_access): behind for sure, read again now or, while a
         * change of it is in the store, when that comes back refused as made on an old rev. */
        if (g->store_rev <= g->rec.rev)
            g->store_rev = g->rec.rev + 1;
        if (!g->pending)
            svc_refresh(svc, g);
    }
    svc_leave(svc);
}

void service_set_site_key(Service *svc, const unsigned char key[32]) {
    memcpy(svc->site_key, key, sizeof svc->site_key);
}

void service_set_game_over(Service *svc, ServiceGameOver fn, void *ctx) {
    svc->game_over = fn;
    svc->game_over_ctx = ctx;
}

void service_rated(Service *svc, const char *id, const int before[2], const int diff[2], int64_t rev) {
    SvcGame *g = svc_find(svc, id);
    if (!g || rev <= g->rec.rev)
        return;
    if (g->pending || rev != g->rec.rev + 1) {
        if (rev > g->store_rev)
            g->store_rev = rev;
        return;
    }
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        g->rec.rating[c] = before[c];
        g->rec.rating_diff[c] = diff[c];
    }
    g->rec.rev = g->store_rev = rev;
    char *state = svc_state_text(g, svc_now(svc), NULL);
    if (state)
        svc_broadcast(svc, g, state);
    free(state);
}

void service_set_cache_max(Service *svc, int games) {
    svc->cache_max = games < 0 ? 0 : games;
    svc_enter(svc);
    svc_leave(svc); /* trims to the new size */
}

void service_set_unstarted_expiry(Service *svc, int64_t live_ms, int64_t slow_ms) {
    /* The lists are ordered by each game's last change, whatever the times: they stay in order. */
    if (live_ms > 0)
        svc->unstarted_ms[SVC_UNSTARTED_LIVE] = live_ms;
    if (slow_ms > 0)
        svc->unstarted_ms[SVC_UNSTARTED_SLOW] = slow_ms;
}

void service_metrics(const Service *svc, ServiceMetrics *out) { *out = svc->metrics; }

Store *service_store(Service *svc) { return svc->store; }

int service_pending_count(const Service *svc) { return svc->pending_count; }

double svc_monotonic_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

void service_stats(const Service *svc, ServiceStats *out) {
    memset(out, 0, sizeof *out);
    out->games_in_memory = (int)svc->game_count;
    for (uint32_t i = 0; i < svc->slot_count; i++) {
        const SvcGame *g = svc->slots[i];
        if (!g)
            continue;
        out->games_in_play += !svc_is_over(g);
        out->subscriptions += g->sub_count;
    }
}
