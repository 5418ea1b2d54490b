/* The requests that only read: a game's state and PGN, a browser's list of games, the recently
 * finished games. A finished game not in memory is read from the store (svc_fetch) and cached. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, gmtime_r */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schach/fen.h"
#include "schach/pgn.h"
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

/* The PGN's tags for g; false when out of memory. */
static bool pgn_tags(SchPgnGame *pg, const SvcGame *g, SchLang lang) {
    char date[16], tc[32];
    time_t secs = (time_t)(g->rec.created_ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    if (g->rec.time.type == TIME_LIVE)
        snprintf(tc, sizeof tc, "%d+%d", g->rec.time.minutes * 60, g->rec.time.increment);
    else if (g->rec.time.type == TIME_CORRESPONDENCE)
        snprintf(tc, sizeof tc, "1/%lld", (long long)g->rec.time.days * 86400);
    else
        snprintf(tc, sizeof tc, "-");
    /* Players with accounts by their names; against the computer its side is named with its level,
     * e.g. "schach (Club player)". */
    char names[2][96] = {"?", "?"}, elo[16] = "";
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++)
        if (g->rec.account[c][0])
            snprintf(names[c], sizeof names[c], "%s", g->rec.account[c]);
    if (g->computer >= 0) {
        svc_computer_name(g->level, lang, names[g->computer], sizeof names[0]);
        if (g->level && g->level->elo > 0)
            snprintf(elo, sizeof elo, "%d", g->level->elo);
    }
    bool ok = sch_pgn_set_tag(pg, "Event", "schach online") && sch_pgn_set_tag(pg, "Site", "?") &&
              sch_pgn_set_tag(pg, "Date", date) && sch_pgn_set_tag(pg, "Round", "-") &&
              sch_pgn_set_tag(pg, "White", names[SCH_WHITE]) && sch_pgn_set_tag(pg, "Black", names[SCH_BLACK]) &&
              sch_pgn_set_tag(pg, "TimeControl", tc);
    /* What ended the game, in words (the export standard's "normal" says the same for a mate, a claim
     * and a resignation). */
    char ending[200];
    if (ok && g->aborted)
        ok = sch_pgn_set_tag(pg, "Termination", "unterminated");
    else if (ok && sch_game_over(&g->game) && sch_outcome_describe(&g->game.outcome, lang, ending, sizeof ending) > 0)
        ok = sch_pgn_set_tag(pg, "Termination", ending);
    if (ok && g->rec.rated && g->rec.account[SCH_WHITE][0] && g->rec.account[SCH_BLACK][0]) {
        char we[16], be[16];
        snprintf(we, sizeof we, "%d", g->rec.rating[SCH_WHITE]);
        snprintf(be, sizeof be, "%d", g->rec.rating[SCH_BLACK]);
        ok = sch_pgn_set_tag(pg, "WhiteElo", we) && sch_pgn_set_tag(pg, "BlackElo", be);
    }
    if (ok && g->computer >= 0) {
        ok = sch_pgn_set_tag(pg, "ComputerLevel", g->rec.level) &&
             (!elo[0] || sch_pgn_set_tag(pg, g->computer == SCH_WHITE ? "WhiteElo" : "BlackElo", elo));
    }
    return ok;
}

/* g's PGN in lang: malloc'd text (*len bytes), NULL when out of memory. */
static char *pgn_text(const SvcGame *g, SchLang lang, size_t *len) {
    SchPgnGame pg;
    sch_pgn_game_init(&pg);
    sch_game_free(&pg.game);
    char *text = NULL;
    *len = 0;
    bool ok = sch_game_copy(&pg.game, &g->game);
    if (!ok)
        sch_game_init(&pg.game);
    ok = ok && pgn_tags(&pg, g, lang);
    if (ok) {
        FILE *f = open_memstream(&text, len);
        ok = f && sch_pgn_write(f, &pg, lang);
        if (f && fclose(f) != 0)
            ok = false;
    }
    sch_pgn_game_free(&pg);
    if (!ok) {
        free(text);
        return NULL;
    }
    return text;
}

uint64_t svc_action_pgn(Req *r, SvcGame *g) {
    size_t len = 0;
    char *text = pgn_text(g, r->lang, &len);
    if (!text)
        return svc_reply_error(r, SVC_E_INTERNAL, NULL);
    svc_deliver(r->reply, r->ctx, 200, "text/plain; charset=utf-8", text, len, g->game.ply_count, false, false);
    free(text);
    return r->ticket;
}

char *service_pgn_of_record(const GameRecord *rec, const StoredMove *moves, int count, SchLang lang, size_t *len,
                            char *err, size_t err_size) {
    SvcGame *g = svc_game_build(rec, moves, count, err, err_size);
    if (!g)
        return NULL;
    char *text = pgn_text(g, lang, len);
    svc_game_free(g);
    if (!text)
        snprintf(err, err_size, "out of memory writing the PGN of game %s", rec->id);
    return text;
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
