/* Premoves (docs/api.md "Premoves"): in a game with a live clock a player queues one move during the
 * opponent's turn; the service plays it as soon as the opponent's move is committed (on this node, or
 * announced by another one), so the premover's clock is charged only the service's own time, and drops
 * it, telling the player's sockets, when it is not legal then. A premove is the player's alone: it is
 * in no state, and it is kept in memory by the node that took it (a restart of that node forgets it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service_change.h"
#include "service_requests.h"
#include "service_state.h"

/* A move in UCI as far as it can be checked before its position exists: two squares and a promotion. */
static bool uci_shape(const char *s) {
    size_t n = strlen(s);
    if (n != 4 && n != 5)
        return false;
    for (int i = 0; i < 4; i += 2)
        if (s[i] < 'a' || s[i] > 'h' || s[i + 1] < '1' || s[i + 1] > '8')
            return false;
    return n == 4 || strchr("qrbn", s[4]) != NULL;
}

/* Tells the sockets of side c here that its premove of ply went: {"type":"premove","game","premove":null,
 * "dropped":UCI,"ply"}. */
static void tell_dropped(Service *svc, SvcGame *g, int c, const char *uci, int ply) {
    json_t *o = json_pack("{s:s, s:s, s:n, s:s, s:i}", "type", "premove", "game", g->rec.id, "premove", "dropped", uci,
                          "ply", ply);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    if (!text)
        return;
    svc_deliver_to(svc, g, c, text, strlen(text));
    free(text);
}

static void premove_clear(SvcGame *g) {
    g->premove_side = 0;
    g->premove_ply = 0;
    g->premove_uci[0] = '\0';
}

static void drop(Service *svc, SvcGame *g) {
    int c = g->premove_side - 1, ply = g->premove_ply;
    char uci[sizeof g->premove_uci];
    memcpy(uci, g->premove_uci, sizeof uci);
    premove_clear(g);
    tell_dropped(svc, g, c, uci, ply);
}

void svc_premove_poke(Service *svc, SvcGame *g) {
    if (!g->premove_side || g->pending || svc_game_stale(g))
        return; /* none, or it comes back here after the change in flight or the refresh */
    SchColor c = (SchColor)(g->premove_side - 1);
    int n = g->game.ply_count;
    if (!svc_is_over(g) && n == g->premove_ply - 1 && sch_pos_turn(sch_game_position(&g->game)) != c)
        return; /* the opponent has not moved yet */
    int64_t now = svc_now(svc);
    if (svc_is_over(g) || n != g->premove_ply || sch_pos_turn(sch_game_position(&g->game)) != c ||
        svc_time_is_up(g, now)) {
        drop(svc, g); /* the game ended, or its moves were taken back */
        return;
    }
    SchError err;
    sch_err_clear(&err);
    SchMove m = sch_game_parse_move(&g->game, g->premove_uci, SCH_LANG_EN, &err);
    if (m == SCH_MOVE_NONE) {
        drop(svc, g); /* not legal after the opponent's move */
        return;
    }
    SvcPending *p = svc_moves_reserve(g) ? svc_pending_new(NULL, g, CH_MOVE, c) : NULL;
    if (!p)
        return; /* out of memory: tried again after the next change */
    p->move = m;
    premove_clear(g);
    if (!svc_change_prepare(p, now, &err)) {
        svc_pending_free(p);
        return;
    }
    svc_pending_submit(svc, p);
}

uint64_t svc_action_premove(Req *r, SvcGame *g) {
    static const Field fields[] = {{"secret", 's', false}, {"ply", 'i', false}, {"move", 's', false}};
    json_t *body = svc_body_parse(r, fields, sizeof fields / sizeof fields[0]);
    if (!body)
        return r->ticket;
    const char *secret = NULL, *text = NULL;
    json_int_t ply = -1;
    Envelope env = {0};
    json_error_t jerr;
    if (json_unpack_ex(body, &jerr, 0, "{s?s, s?I, s?s, " ENVELOPE_FMT, "secret", &secret, "ply", &ply, "move", &text,
                       ENVELOPE_ARGS(env)) != 0) {
        svc_unpack_failed(r, body, &jerr);
        return r->ticket;
    }
    bool has_ply = json_object_get(body, "ply") != NULL;
    char uci[sizeof g->premove_uci] = "";
    bool has_move = text != NULL;
    if (text && uci_shape(text))
        snprintf(uci, sizeof uci, "%s", text);
    SvcError e = has_move && !has_ply                    ? SVC_E_MISSING
                 : has_ply && !has_move                  ? SVC_E_MISSING
                 : has_ply && (ply < 0 || ply > 1000000) ? SVC_E_VALUE
                                                         : SVC_E_COUNT;
    int color = e == SVC_E_COUNT ? svc_change_check(r, g, secret) : -1; /* secret lives as long as body */
    json_decref(body);
    if (e != SVC_E_COUNT)
        return svc_reply_error(r, e, has_move && !has_ply ? "ply" : has_ply && !has_move ? "move" : "ply");
    if (color < 0)
        return r->ticket;
    if (g->rec.time.type != TIME_LIVE)
        return svc_reply_error(r, SVC_E_NO_PREMOVE, NULL);
    SchColor turn = sch_pos_turn(sch_game_position(&g->game));
    if (has_move) {
        if (ply == g->game.ply_count && turn == (SchColor)color)
            return svc_action_move(r, g); /* the turn came already: an ordinary move */
        if (ply != g->game.ply_count + 1 || turn == (SchColor)color)
            return svc_handled_again(r, g) ? r->ticket : svc_reply_error(r, SVC_E_STALE, NULL);
        if (!uci[0])
            return svc_reply_error(r, SVC_E_VALUE, "move");
        g->premove_side = 1 + color;
        g->premove_ply = (int)ply;
        memcpy(g->premove_uci, uci, sizeof uci);
    } else if (g->premove_side == 1 + color) {
        premove_clear(g); /* cancelled */
    }
    json_t *j =
        has_move ? json_pack("{s:{s:s, s:i}}", "premove", "move", uci, "ply", (int)ply) : json_pack("{s:n}", "premove");
    size_t len = 0;
    char *reply = svc_with_state(r->svc, g, j, &len);
    svc_send_text(r->reply, r->ctx, 200, reply, len, g->game.ply_count, false, false);
    return r->ticket;
}
