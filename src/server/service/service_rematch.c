/* Rematch (docs/api.md "Rematch"): after a game ended, one player offers, the other accepts by asking
 * too, and a new game begins with the colours swapped. The offer, a refusal and the new game's id live
 * in the old game's row, and the new game's row is written in the same transaction as the row that
 * names it (StoreOp.spawn), so two players accepting at once, even on two nodes, make one game: the
 * second change is made on an outdated rev and refused, and its request, handled again on the game
 * read anew, finds the game made.
 *
 * The new game's secrets are never stored: a side an account plays gets the account's derived secret
 * (GET /api/me hands it out), an anonymous side one derived from the site's key and the hash of the
 * secret its player held in the old game, so whoever proves that old secret can ask again any time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "computer/service_computer.h"
#include "service_change.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

static json_t *side_json(int side) {
    return side == 1 + SCH_WHITE ? json_string("white") : side == 1 + SCH_BLACK ? json_string("black") : json_null();
}

json_t *svc_rematch_json(const SvcGame *g) {
    const GameRecord *r = &g->rec;
    if (!r->rematch_offer && !r->rematch_decline && !r->rematch_game[0])
        return json_null();
    return json_pack("{s:o, s:o, s:o}", "offered_by", side_json(r->rematch_offer), "declined_by",
                     side_json(r->rematch_decline), "game",
                     r->rematch_game[0] ? json_string(r->rematch_game) : json_null());
}

/* The secret of side color of the rematch new_id of the game old: that side is played by whoever played
 * the other colour in old. */
static void new_secret(const Service *svc, const GameRecord *old, const char *new_id, int color,
                       char out[SVC_SECRET_LEN + 1]) {
    if (old->account[!color][0])
        secret_side(svc->site_key, new_id, color, old->seat_epoch[!color], out);
    else
        secret_rematch(svc->site_key, new_id, color, old->secret_hash[!color], out);
}

/* {"id","color","secret","state"} of the rematch of g for the player of color in g (and "secrets" of
 * both sides in a local game), as reply's answer. */
static void answer_new_side(Service *svc, ServiceReply reply, void *ctx, SchLang lang, SvcGame *g, int color) {
    if (!reply)
        return;
    SvcError e = SVC_E_NOT_FOUND;
    SvcGame *n = svc_fetch(svc, g->rec.rematch_game, &e);
    if (!n) {
        svc_send_json(reply, ctx, svc_error_status(e), svc_error_json(e, lang, NULL));
        return;
    }
    int mine = !color;
    char secret[SVC_SECRET_LEN + 1], other[SVC_SECRET_LEN + 1];
    new_secret(svc, &g->rec, n->rec.id, mine, secret);
    json_t *j =
        json_pack("{s:s, s:s, s:s}", "id", n->rec.id, "color", mine == SCH_WHITE ? "white" : "black", "secret", secret);
    if (j && strcmp(g->rec.mode, "local") == 0) {
        new_secret(svc, &g->rec, n->rec.id, !mine, other);
        json_object_set_new(j, "secrets",
                            json_pack("{s:s, s:s}", "white", mine == SCH_WHITE ? secret : other, "black",
                                      mine == SCH_WHITE ? other : secret));
        sodium_memzero(other, sizeof other);
    }
    sodium_memzero(secret, sizeof secret);
    size_t len = 0;
    char *text = svc_with_state(svc, n, j, &len);
    svc_send_text(reply, ctx, 200, text, len, g->game.ply_count, false, false);
    svc_touch(svc, n);
}

/* The new game of a rematch of g, into p->spawned; false when it cannot be built (out of memory). */
static bool build_new_game(Service *svc, SvcGame *g, SvcPending *p) {
    const GameRecord *old = &g->rec;
    GameRecord rec;
    memset(&rec, 0, sizeof rec);
    do
        secret_random_id(rec.id, STORE_ID_LEN);
    while (svc_find(svc, rec.id));
    rec.created_ms = rec.updated_ms = svc_now(svc);
    memcpy(rec.start_fen, old->start_fen, sizeof rec.start_fen);
    memcpy(rec.mode, old->mode, sizeof rec.mode);
    memcpy(rec.level, old->level, sizeof rec.level);
    rec.time = old->time;
    if (rec.time.type == TIME_LIVE)
        rec.clock_ms[SCH_WHITE] = rec.clock_ms[SCH_BLACK] = (int64_t)rec.time.minutes * 60000;
    rec.draw_offer = -1;
    rec.invite_color = -1;
    rec.plies = 0;
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        /* Colours swapped: side c is played by whoever played !c; the computer's side stays without. */
        memcpy(rec.account[c], old->account[!c], sizeof rec.account[c]);
        rec.seat_epoch[c] = old->seat_epoch[!c];
        if (secret_is_set(old->secret_hash[!c])) {
            char secret[SVC_SECRET_LEN + 1];
            new_secret(svc, old, rec.id, c, secret);
            secret_hash(secret, rec.secret_hash[c]);
            sodium_memzero(secret, sizeof secret);
        }
    }
    rec.rated = old->rated && rec.account[SCH_WHITE][0] && rec.account[SCH_BLACK][0];
    if (rec.rated) {
        /* The ratings the players came out of the old game with; the rating at the new game's end reads
         * the current ones again (accounts.h), so a game they played meanwhile changes nothing there.
         * Whether each is provisional is carried over from the old game: the deviation it left is in
         * the ratings' store, which the service does not read (one game rarely ends a newcomer's "?"). */
        for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
            rec.rating[c] = old->rating[!c] + old->rating_diff[!c];
            rec.provisional[c] = old->provisional[!c];
        }
    }
    char err[256];
    p->spawned = svc_game_build(&rec, NULL, 0, err, sizeof err);
    return p->spawned != NULL;
}

/* Hands the change of g's rematch fields (and the new game, when made) to the store. */
static uint64_t submit(Req *r, SvcGame *g, int color, int offer, int decline, bool make) {
    SvcPending *p = svc_pending_new(r, g, CH_REMATCH, (SchColor)color);
    if (!p || (make && !build_new_game(r->svc, g, p))) {
        svc_pending_free(p);
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    }
    memset(&p->op, 0, sizeof p->op);
    p->op.update = true;
    p->op.record = g->rec;
    p->op.record.plies = g->game.ply_count;
    p->op.record.rematch_offer = offer;
    p->op.record.rematch_decline = decline;
    if (make) {
        memcpy(p->op.record.rematch_game, p->spawned->rec.id, sizeof p->op.record.rematch_game);
        p->op.spawn = &p->spawned->rec;
    }
    svc_pending_submit(r->svc, p);
    return r->ticket;
}

uint64_t svc_action_rematch(Req *r, SvcGame *g) {
    static const Field fields[] = {{"secret", 's', false}, {"action", 's', false}};
    json_t *body = svc_body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *action = NULL;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s?s, " ENVELOPE_FMT, "secret", &secret, "action", &action,
                       ENVELOPE_ARGS(env)) != 0) {
        svc_unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    bool decline = action && strcmp(action, "decline") == 0;
    bool bad_action = action && !decline && strcmp(action, "offer") != 0;
    int color = bad_action ? -1 : svc_side_of(r->svc, g, secret);
    json_decref(body);
    if (bad_action)
        return svc_reply_error(r, SVC_E_VALUE, "action");
    if (color < 0)
        return svc_reply_error(r, SVC_E_BAD_SECRET, NULL);
    if (g->pending)
        return svc_reply_error(r, SVC_E_BUSY, NULL);
    /* Another node may have taken an offer or made the game since this copy was read (one small read). */
    if (r->svc->cluster && !r->caught_up) {
        r->caught_up = true;
        svc_catch_up(r->svc, g);
    }
    if (!svc_is_over(g))
        return svc_reply_error(r, SVC_E_NOT_OVER, NULL);
    const GameRecord *rec = &g->rec;
    if (decline) {
        if (rec->rematch_game[0])
            return svc_reply_error(r, SVC_E_REMATCH_MADE, NULL);
        if (!rec->rematch_offer)
            return svc_reply_error(r, SVC_E_NO_REMATCH, NULL);
        return submit(r, g, color, 0, 1 + color, false);
    }
    if (rec->rematch_game[0]) { /* made already: the caller's side of it, as often as asked */
        answer_new_side(r->svc, r->reply, r->ctx, r->lang, g, color);
        return r->ticket;
    }
    /* The computer accepts at once, and in a local game the one browser holds both sides. */
    bool one_call = strcmp(rec->mode, "local") == 0 || strcmp(rec->mode, "computer") == 0;
    if (one_call || rec->rematch_offer == 1 + !color)
        return submit(r, g, color, one_call ? 1 + color : rec->rematch_offer, 0, true);
    if (rec->rematch_offer == 1 + color) { /* offered already: nothing changes */
        size_t len = 0;
        char *text = svc_with_state(r->svc, g, json_object(), &len);
        svc_send_text(r->reply, r->ctx, 200, text, len, g->game.ply_count, false, false);
        return r->ticket;
    }
    return submit(r, g, color, 1 + color, 0, false);
}

void svc_rematch_committed(Service *svc, SvcPending *p) {
    SvcGame *g = p->game;
    g->rec = p->op.record;
    if (g->store_rev < g->rec.rev)
        g->store_rev = g->rec.rev;
    g->pending = NULL;
    SvcGame *n = p->spawned;
    if (n) {
        p->spawned = NULL;
        n->rec.rev = n->store_rev = 1;
        if (svc_register(svc, n)) {
            svc_rules_poke(svc, n);
            svc_computer_poke(svc, n); /* the computer may have the first move */
        } else {
            svc_game_free(n); /* stored: read from the store when asked for */
        }
    }
    char *state = svc_state_text(g, svc_now(svc), NULL);
    svc_broadcast(svc, g, state);
    if (g->rec.rematch_game[0]) {
        answer_new_side(svc, p->reply, p->ctx, p->lang, g, p->color);
        free(state);
    } else {
        size_t len = 0;
        char *reply = state ? svc_json_with(json_object(), "state", state, &len) : NULL;
        free(state);
        svc_send_text(p->reply, p->ctx, 200, reply, len, g->game.ply_count, false, false);
    }
    if (svc_game_stale(g) && !g->pending && g->sub_count > 0)
        svc_refresh(svc, g);
    svc_touch(svc, g);
}
