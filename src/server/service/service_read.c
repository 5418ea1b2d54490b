/* The requests that only read: a game's state, a browser's list of games, the recently finished
 * games (the PGN: service_pgn.c). A finished game not in memory is read from the store (svc_fetch) and cached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "computer/service_computer.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

uint64_t svc_action_state(Req *r, SvcGame *g) {
    size_t len = 0;
    char *state = svc_state_text(g, svc_now(r->svc), &len);
    svc_send_text(r->reply, r->ctx, 200, state, len, g->game.ply_count, false, false);
    return r->ticket;
}

/* Every position of the game as FEN, the start first: the browser shows any earlier position (review)
 * without knowing the rules (castling, en passant and promotion are libschach's to apply). */
uint64_t svc_action_positions(Req *r, SvcGame *g) {
    json_t *fens = json_array();
    SchPosition pos = g->game.start;
    char fen[SCH_FEN_MAX];
    sch_fen_write(&pos, fen, sizeof fen);
    bool ok = fens && json_array_append_new(fens, json_string(fen)) == 0;
    for (int i = 0; ok && i < g->game.ply_count; i++) {
        SchUndo undo;
        sch_pos_make(&pos, g->game.plies[i].move, &undo);
        sch_fen_write(&pos, fen, sizeof fen);
        ok = json_array_append_new(fens, json_string(fen)) == 0;
    }
    if (!ok) {
        json_decref(fens);
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    }
    svc_send_json(r->reply, r->ctx, 200, json_pack("{s:o}", "fens", fens));
    return r->ticket;
}

uint64_t svc_action_list(Req *r) {
    json_t *games = json_array();
    const char *p = r->in->ids ? r->in->ids : "";
    int listed = 0;
    while (*p && listed < SVC_LIST_MAX) {
        size_t n = strcspn(p, ",");
        if (n == STORE_ID_LEN) {
            char id[STORE_ID_LEN + 1];
            memcpy(id, p, n);
            id[n] = '\0';
            SvcError e = SVC_E_NOT_FOUND;
            SvcGame *g = svc_fetch(r->svc, id, &e);
            if (g) {
                json_array_append_new(games, svc_summary_json(g));
                svc_touch(r->svc, g);
                listed++;
            } else if (e != SVC_E_NOT_FOUND) {
                json_decref(games); /* a list with holes would tell the browser its games are gone */
                return svc_reply_error(r, e, NULL);
            }
        }
        p += n;
        if (*p == ',')
            p++;
    }
    svc_send_json(r->reply, r->ctx, 200, json_pack("{s:o}", "games", games));
    return r->ticket;
}

uint64_t svc_action_recent(Req *r) {
    json_t *games = json_array();
    for (int i = 0; i < r->svc->recent_count; i++)
        json_array_append(games, r->svc->recent[i].summary);
    svc_send_json(r->reply, r->ctx, 200, json_pack("{s:o}", "games", games));
    return r->ticket;
}
