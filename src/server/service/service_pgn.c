/* The PGN export of a game, as lichess writes it and the PGN standard names it: [Event] says rated or
 * casual and the category ("Rated blitz game"), [Site] the game's URL, [UTCDate]/[UTCTime] its start,
 * [TimeControl] the standard's "300+3" or "1/259200" (one move per so many seconds: correspondence)
 * or "-", [Termination] the standard's values ("normal", "time forfeit", "abandoned", "unterminated"),
 * the ratings and what the game changed them by, a [%clk] after every move of a live game, and what
 * ended the game in words in the comment after the last move (for a repetition: where the position
 * stood). GET /api/games/{id}/pgn, a player's file of games and the analysed PGN all write it. */
#define _POSIX_C_SOURCE 200809L /* open_memstream, gmtime_r */

#include "service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "schach/pgn.h"
#include "computer/service_computer.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

static char public_url[SERVICE_PUBLIC_URL_MAX + 1];

bool service_set_public_url(const char *url) {
    size_t len = url ? strlen(url) : 0;
    size_t scheme = strncmp(url ? url : "", "http://", 7) == 0    ? 7
                    : strncmp(url ? url : "", "https://", 8) == 0 ? 8
                                                                  : 0;
    if (!scheme || len > SERVICE_PUBLIC_URL_MAX)
        return false;
    for (size_t i = 0; i < len; i++)
        if (url[i] <= ' ' || url[i] > '~' || url[i] == '"' || url[i] == '\\')
            return false;
    while (len > scheme && url[len - 1] == '/')
        len--;
    if (len == scheme || url[scheme] == '/')
        return false; /* no host */
    memcpy(public_url, url, len);
    public_url[len] = '\0';
    return true;
}

const char *service_public_url(void) { return public_url; }

/* "Rated blitz game", "Casual correspondence game", "Rated Chess960 blitz game", "Casual unlimited
 * game" (no clock). */
static void event_name(const SvcGame *g, char *out, size_t size) {
    int category = rating_category(&g->rec.time, VARIANT_STANDARD); /* the time's, also for Chess960 */
    const char *name = category >= 0 ? rating_category_name(category) : "unlimited";
    snprintf(out, size, "%s %s%s game", g->rec.rated ? "Rated" : "Casual",
             svc_game_variant(g) == VARIANT_CHESS960 ? "Chess960 " : "", name);
}

/* The PGN's tags for g; false when out of memory. */
static bool pgn_tags(SchPgnGame *pg, const SvcGame *g, SchLang lang) {
    char date[16], clock[16], tc[32], event[64], site[SERVICE_PUBLIC_URL_MAX + 32];
    time_t secs = (time_t)(g->rec.created_ms / 1000);
    struct tm tm;
    gmtime_r(&secs, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    strftime(clock, sizeof clock, "%H:%M:%S", &tm);
    if (g->rec.time.type == TIME_LIVE)
        snprintf(tc, sizeof tc, "%d+%d", g->rec.time.minutes * 60, g->rec.time.increment);
    else if (g->rec.time.type == TIME_CORRESPONDENCE)
        snprintf(tc, sizeof tc, "1/%lld", (long long)g->rec.time.days * 86400);
    else
        snprintf(tc, sizeof tc, "-");
    event_name(g, event, sizeof event);
    if (public_url[0])
        snprintf(site, sizeof site, "%s/g/%s", public_url, g->rec.id);
    else
        snprintf(site, sizeof site, "?");
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
    bool ok = sch_pgn_set_tag(pg, "Event", event) && sch_pgn_set_tag(pg, "Site", site) &&
              sch_pgn_set_tag(pg, "Date", date) && sch_pgn_set_tag(pg, "Round", "-") &&
              sch_pgn_set_tag(pg, "White", names[SCH_WHITE]) && sch_pgn_set_tag(pg, "Black", names[SCH_BLACK]) &&
              sch_pgn_set_tag(pg, "UTCDate", date) && sch_pgn_set_tag(pg, "UTCTime", clock) &&
              sch_pgn_set_tag(pg, "TimeControl", tc);
    /* The standard's Termination: the writer's "normal", "time forfeit" or "abandoned" for a game
     * over (what ended it goes into the comment after the last move); "unterminated" otherwise. */
    if (ok && !sch_game_over(&g->game))
        ok = sch_pgn_set_tag(pg, "Termination", "unterminated");
    bool accounts = g->rec.account[SCH_WHITE][0] && g->rec.account[SCH_BLACK][0];
    if (ok && g->rec.rated && accounts) {
        char we[16], be[16];
        snprintf(we, sizeof we, "%d", g->rec.rating[SCH_WHITE]);
        snprintf(be, sizeof be, "%d", g->rec.rating[SCH_BLACK]);
        ok = sch_pgn_set_tag(pg, "WhiteElo", we) && sch_pgn_set_tag(pg, "BlackElo", be);
        /* What the end changed the ratings by, once it did (as the state's accounts[].diff). */
        if (ok && !g->aborted && sch_game_over(&g->game) &&
            (g->rec.rating_diff[SCH_WHITE] || g->rec.rating_diff[SCH_BLACK])) {
            snprintf(we, sizeof we, "%+d", g->rec.rating_diff[SCH_WHITE]);
            snprintf(be, sizeof be, "%+d", g->rec.rating_diff[SCH_BLACK]);
            ok = sch_pgn_set_tag(pg, "WhiteRatingDiff", we) && sch_pgn_set_tag(pg, "BlackRatingDiff", be);
        }
    }
    if (ok && g->computer >= 0) {
        ok = sch_pgn_set_tag(pg, "ComputerLevel", g->rec.level) &&
             (!elo[0] || sch_pgn_set_tag(pg, g->computer == SCH_WHITE ? "WhiteElo" : "BlackElo", elo));
    }
    return ok;
}

/* When each ply was played (ms), from the state's move list; NULL (*ok still true) when a move has no
 * time, NULL with *ok false when out of memory. */
static int64_t *move_times(const SvcGame *g, bool *ok) {
    *ok = true;
    int n = g->game.ply_count;
    if (n == 0)
        return NULL;
    char *text = malloc(g->moves_len + 3);
    int64_t *at = malloc(sizeof *at * (size_t)n);
    json_t *moves = NULL;
    if (text && at) {
        text[0] = '[';
        memcpy(text + 1, g->moves_text ? g->moves_text : "", g->moves_len);
        text[g->moves_len + 1] = ']';
        text[g->moves_len + 2] = '\0';
        moves = json_loadb(text, g->moves_len + 2, 0, NULL);
    }
    bool all = moves && (int)json_array_size(moves) == n;
    for (int i = 0; all && i < n; i++) {
        json_t *t = json_object_get(json_array_get(moves, (size_t)i), "at");
        all = json_is_integer(t);
        if (all)
            at[i] = (int64_t)json_integer_value(t);
    }
    *ok = text && at && (moves || g->moves_len == 0);
    json_decref(moves);
    free(text);
    if (!all) {
        free(at);
        return NULL;
    }
    return at;
}

/* "[%clk H:MM:SS]" of ms (floored to whole seconds, never below 0). */
static void clock_command(int64_t ms, char *out, size_t size) {
    long long s = ms > 0 ? ms / 1000 : 0;
    snprintf(out, size, "[%%clk %lld:%02lld:%02lld]", s / 3600, s / 60 % 60, s % 60);
}

/* The comments after the moves: a live game's clock after each (as the page's clocksAt reckons it:
 * time runs once both sides have moved; each move after that costs its mover the time since the move
 * before and gives back the increment), and the ending in words after the last. */
static bool pgn_comments(SchPgnGame *pg, const SvcGame *g, SchLang lang) {
    /* The ending in words: after the last move, behind its clock (before the first move when none). */
    char ending[400] = "";
    if (g->aborted)
        snprintf(ending, sizeof ending, "%s", lang == SCH_LANG_DE ? "Partie abgebrochen" : "Game aborted");
    else if (sch_game_over(&g->game))
        sch_outcome_describe(&g->game.outcome, lang, ending, sizeof ending);
    SchTermination t = g->game.outcome.termination;
    if (ending[0] && !g->aborted && (t == SCH_TERM_THREEFOLD_REPETITION || t == SCH_TERM_FIVEFOLD_REPETITION)) {
        size_t len = strlen(ending);
        char where[300];
        if (sch_game_repetition_describe(&g->game, SCH_MOVE_NONE, lang, where, sizeof where) > 0)
            snprintf(ending + len, sizeof ending - len, ": %s", where);
    }
    int n = g->game.ply_count;
    bool ok = true;
    int64_t *at = g->rec.time.type == TIME_LIVE ? move_times(g, &ok) : NULL;
    int64_t clock[2] = {(int64_t)g->rec.time.minutes * 60000, (int64_t)g->rec.time.minutes * 60000};
    int64_t started = 0;
    SchColor first = sch_pos_turn(&g->game.start);
    char text[sizeof ending + 32];
    for (int i = 0; ok && i < n; i++) {
        text[0] = '\0';
        if (at) {
            SchColor mover = (SchColor)((int)first ^ (i & 1));
            svc_clock_replay(&g->rec.time, i + 1, mover, at[i], clock, &started);
            clock_command(clock[mover], text, sizeof text);
        }
        if (i == n - 1 && ending[0]) {
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, "%s%s", len ? " " : "", ending);
        }
        if (text[0])
            ok = sch_pgn_set_comment(pg, i + 1, text);
    }
    free(at);
    if (ok && n == 0 && ending[0])
        ok = sch_pgn_set_comment(pg, 0, ending);
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
    ok = ok && pgn_tags(&pg, g, lang) && pgn_comments(&pg, g, lang);
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
