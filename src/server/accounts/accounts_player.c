/* A player's page (GET /api/players/{name}) and all their games as one PGN file (GET
 * /api/players/{name}/pgn), on the accounts' worker thread (docs/api.md "Players"). */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accounts_internal.h"
#include "base/base.h"

/* ---- a player's page ---- */

#define PLAYER_GAMES_PER_PAGE 20
#define PLAYER_HISTORY_POINTS 500

static json_t *played_json(const PlayedGame *g) {
    json_t *time = accounts_time_json(&g->time);
    json_t *o = json_pack("{s:s,s:I,s:I,s:o,s:o,s:s,s:s,s:o,s:o,s:b,s:i}", "id", g->id, "created",
                          (json_int_t)g->created_ms, "ended", (json_int_t)g->ended_ms, "white",
                          g->account[0][0] ? json_string(g->account[0]) : json_null(), "black",
                          g->account[1][0] ? json_string(g->account[1]) : json_null(), "result", g->result,
                          "termination", g->termination, "reason", g->reason[0] ? json_string(g->reason) : json_null(),
                          "time", time, "rated", g->rated, "moves", g->moves);
    if (g->rated)
        json_object_set_new(o, "ratings",
                            json_pack("{s:{s:i,s:i},s:{s:i,s:i}}", "white", "rating", g->rating[0], "diff",
                                      g->rating_diff[0], "black", "rating", g->rating[1], "diff", g->rating_diff[1]));
    return o;
}

/* The account the job names, into *row; false when there is none or it cannot be read (the job is
 * answered then). */
static bool player_row(Accounts *a, AccJob *j, AccountRow *row, char *err, size_t size) {
    (void)a;
    StoreAccountResult r = j->db->vtbl->get(j->db, j->key, row, err, size);
    if (r != SA_OK) {
        accounts_fail(j, r == SA_FAULT ? ACC_E_STORAGE : ACC_E_NO_PLAYER, err);
        return false;
    }
    return true;
}

static void player_page(Accounts *a, AccJob *j) {
    AccountRow row;
    char err[300] = "";
    if (!player_row(a, j, &row, err, sizeof err))
        return;
    json_t *ratings = accounts_ratings_json(j->db, row.key, err, sizeof err);
    json_t *history = json_object();
    RatingPoint *points = malloc(sizeof *points * PLAYER_HISTORY_POINTS);
    PlayedGame *games = malloc(sizeof *games * (PLAYER_GAMES_PER_PAGE + 1));
    bool ok = ratings && points && games;
    for (int c = 0; ok && c < RATING_COUNT; c++) {
        if (!json_object_get(ratings, rating_category_name(c)))
            continue;
        int n = j->db->vtbl->rating_history(j->db, row.key, rating_category_name(c), points, PLAYER_HISTORY_POINTS, err,
                                            sizeof err);
        ok = n >= 0;
        json_t *arr = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(arr, json_pack("[I,i]", (json_int_t)points[i].at_ms, points[i].rating));
        json_object_set_new(history, rating_category_name(c), arr);
    }
    /* One more than a page: whether there is a next one. */
    int n = ok ? j->db->vtbl->played(j->db, row.name, j->filter, j->page * PLAYER_GAMES_PER_PAGE, games,
                                     PLAYER_GAMES_PER_PAGE + 1, err, sizeof err)
               : -1;
    if (n < 0) {
        free(points);
        free(games);
        json_decref(ratings);
        json_decref(history);
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    json_t *list = json_array();
    for (int i = 0; i < n && i < PLAYER_GAMES_PER_PAGE; i++)
        json_array_append_new(list, played_json(&games[i]));
    free(points);
    free(games);
    accounts_set_body(j, 200,
                      json_pack("{s:s,s:I,s:o,s:o,s:o,s:i,s:b,s:o}", "username", row.name, "created",
                                (json_int_t)row.created_ms, "ratings", ratings, "history", history, "games", list,
                                "page", j->page, "more", n > PLAYER_GAMES_PER_PAGE, "categories",
                                accounts_categories_json()));
}

/* ---- all of a player's games as one PGN file ---- */

/* The file is bounded, so the worker's memory and time are: the newest PLAYER_PGN_GAMES games, and of
 * those only as many (newest first) as fit PLAYER_PGN_BYTES of text. While the worker writes them, the
 * other accounts requests wait in its queue. */
#define PLAYER_PGN_GAMES 10000
#define PLAYER_PGN_BYTES (16 << 20)

typedef struct PgnParts {
    SchLang lang;
    char **text; /* one game's PGN each, newest first */
    size_t *len;
    int n, cap;
    size_t total;
    bool full;   /* the byte budget is used up: the older games are left out */
    bool failed; /* out of memory or a game that cannot be replayed (err says which) */
    char err[300];
} PgnParts;

static void pgn_part(void *ctx, const GameRecord *rec, const StoredMove *moves, int count) {
    PgnParts *p = ctx;
    if (p->failed || p->full)
        return;
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 64;
        char **text = realloc(p->text, sizeof *text * (size_t)cap);
        if (text)
            p->text = text;
        size_t *len = text ? realloc(p->len, sizeof *len * (size_t)cap) : NULL;
        if (len)
            p->len = len;
        if (!text || !len) {
            p->failed = true;
            snprintf(p->err, sizeof p->err, "%s", "out of memory");
            return;
        }
        p->cap = cap;
    }
    size_t len = 0;
    char *text = service_pgn_of_record(rec, moves, count, p->lang, &len, p->err, sizeof p->err);
    if (!text) {
        p->failed = true;
        return;
    }
    if (p->total + len + 1 > PLAYER_PGN_BYTES) {
        free(text);
        p->full = true;
        return;
    }
    p->text[p->n] = text;
    p->len[p->n++] = len;
    p->total += len + 1;
}

static void player_pgn(Accounts *a, AccJob *j) {
    AccountRow row;
    char err[300] = "";
    if (!player_row(a, j, &row, err, sizeof err))
        return;
    PgnParts p = {.lang = j->lang};
    int n = j->db->vtbl->player_games(j->db, row.name, PLAYER_PGN_GAMES, pgn_part, &p, err, sizeof err);
    char *out = NULL;
    if (n >= 0 && !p.failed) {
        /* Oldest first, one blank line between games (the export format's separator): each game's
         * text ends with its own. */
        out = malloc(p.total + 1);
        size_t off = 0;
        for (int i = p.n - 1; out && i >= 0; i--) {
            memcpy(out + off, p.text[i], p.len[i]);
            off += p.len[i];
        }
        if (out) {
            out[off] = '\0';
            j->body_len = off;
        }
    }
    for (int i = 0; i < p.n; i++)
        free(p.text[i]);
    free(p.text);
    free(p.len);
    if (n < 0) {
        accounts_fail(j, ACC_E_STORAGE, err);
        return;
    }
    if (p.failed || !out) {
        log_event(LOG_ERROR, "player_pgn_failed", "player", row.name, "error", p.failed ? p.err : "out of memory",
                  (char *)NULL);
        free(out);
        accounts_fail(j, ACC_E_INTERNAL, NULL);
        return;
    }
    j->status = 200;
    j->body = out;
    j->content_type = "application/x-chess-pgn";
    snprintf(j->filename, sizeof j->filename, "schach-%s-%s.pgn", row.name, j->lang == SCH_LANG_DE ? "de" : "en");
}

void accounts_player_run(Accounts *a, AccJob *j) {
    if (j->action == ACCOUNTS_PLAYER_PGN)
        player_pgn(a, j);
    else
        player_page(a, j);
}
