/* The state object and the summaries of docs/api.md, built with jansson from the game in memory and
 * its cached move list, so that serialising never replays the game. */
#include <stdlib.h>
#include <string.h>

#include "schach/fen.h"
#include "schach/movegen.h"
#include "computer/service_computer.h"
#include "service_registry.h"
#include "service_requests.h"
#include "service_state.h"

static const char *color_name(SchColor c) { return c == SCH_WHITE ? "white" : "black"; }

static json_t *color_or_null(int c) { return c < 0 ? json_null() : json_string(color_name((SchColor)c)); }

static json_t *time_json(const GameRecord *rec) {
    const TimeControl *t = &rec->time;
    if (t->type == TIME_LIVE)
        return json_pack("{s:s, s:i, s:i}", "type", time_type_name(t->type), "minutes", t->minutes, "increment",
                         t->increment);
    if (t->type == TIME_CORRESPONDENCE)
        return json_pack("{s:s, s:i}", "type", time_type_name(t->type), "days", t->days);
    return json_pack("{s:s}", "type", time_type_name(TIME_NONE));
}

/* The ending in words, English and German: libschach's own sentence (sch_outcome_describe), which names
 * the reason of a dead position or a 6.9 draw. Every subscriber gets the same state, so both. */
static json_t *outcome_words(const SchOutcome *o, SchLang lang) {
    char text[256];
    sch_outcome_describe(o, lang, text, sizeof text);
    return json_string(text);
}

static json_t *outcome_json(const SvcGame *g) {
    if (g->aborted)
        return json_pack("{s:s, s:s, s:n, s:n, s:s, s:s}", "result", "*", "termination", "aborted", "winner", "reason",
                         "text", "Game aborted", "text_de", "Partie abgebrochen");
    const SchOutcome *o = &g->game.outcome;
    if (o->result == SCH_RESULT_NONE)
        return json_null();
    json_t *winner = o->result == SCH_RESULT_WHITE_WINS   ? json_string("white")
                     : o->result == SCH_RESULT_BLACK_WINS ? json_string("black")
                                                          : json_null();
    const char *term = sch_termination_name(o->termination);
    /* Why a dead position (or a 6.9 draw beyond material) is one; null for every other ending. */
    const char *reason = sch_win_reason_name((SchWinReason)o->reason);
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "result", sch_result_string(o->result), "termination",
                     term ? term : "unknown", "winner", winner, "reason", reason ? json_string(reason) : json_null(),
                     "text", outcome_words(o, SCH_LANG_EN), "text_de", outcome_words(o, SCH_LANG_DE));
}

/* origin -> targets of every legal move; castling also as king-onto-rook, which is how chessground
 * lets a player drop the king on its own rook. Promotions as "e7e8" pairs. */
static void legal_json(const SvcGame *g, json_t **legal, json_t **promotions) {
    *legal = json_object();
    *promotions = json_array();
    if (svc_is_over(g))
        return;
    const SchPosition *pos = sch_game_position(&g->game);
    SchMove moves[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    json_t *by_from[64] = {0};
    for (int i = 0; i < n; i++) {
        SchMove m = moves[i];
        SchSquare from = sch_move_from(m), to = sch_move_to(m);
        char fs[3], ts[3];
        sch_square_name(from, fs);
        sch_square_name(to, ts);
        if (!by_from[from]) {
            by_from[from] = json_array();
            json_object_set_new(*legal, fs, by_from[from]);
        }
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
            /* Four moves per pair: list the target and the pair once, with the queen. */
            if (sch_move_promotion(m) != SCH_QUEEN)
                continue;
            char pair[5];
            memcpy(pair, fs, 2);
            memcpy(pair + 2, ts, 2);
            pair[4] = '\0';
            json_array_append_new(*promotions, json_string(pair));
        }
        json_array_append_new(by_from[from], json_string(ts));
        if (sch_move_kind(m) == SCH_MOVE_CASTLING) {
            /* Castling also as the king taking its rook, wherever the rook stands (Chess960). */
            SchSquare rook = sch_pos_castling_rook(pos, m);
            char rs[3];
            sch_square_name(rook, rs);
            json_array_append_new(by_from[from], json_string(rs));
        }
    }
}

static json_t *claims_json(const SvcGame *g) {
    json_t *a = json_array();
    if (svc_is_over(g))
        return a;
    int claims = sch_game_claims(&g->game);
    if (claims & SCH_CLAIM_THREEFOLD)
        json_array_append_new(a, json_string("threefold_repetition"));
    if (claims & SCH_CLAIM_FIFTY)
        json_array_append_new(a, json_string("fifty_moves"));
    return a;
}

/* Where the position stood when a threefold repetition can be claimed now or ended the game:
 * {"plies": [0, 4, 8], "text": ..., "text_de": ...} (sch_game_repetition_describe), else null. */
static json_t *repetition_json(const SvcGame *g) {
    SchTermination t = g->game.outcome.termination;
    bool ended = sch_game_over(&g->game) && (t == SCH_TERM_THREEFOLD_REPETITION || t == SCH_TERM_FIVEFOLD_REPETITION);
    if (g->aborted || !(ended || (!svc_is_over(g) && (sch_game_claims(&g->game) & SCH_CLAIM_THREEFOLD))))
        return json_null();
    int plies[SCH_GAME_REPETITION_MAX];
    int n = sch_game_repetition_plies(&g->game, SCH_MOVE_NONE, plies, SCH_GAME_REPETITION_MAX);
    char en[400], de[400];
    sch_game_repetition_describe(&g->game, SCH_MOVE_NONE, SCH_LANG_EN, en, sizeof en);
    sch_game_repetition_describe(&g->game, SCH_MOVE_NONE, SCH_LANG_DE, de, sizeof de);
    json_t *list = json_array();
    for (int i = 0; i < n && i < SCH_GAME_REPETITION_MAX; i++) /* at most five: the fifth ends the game */
        json_array_append_new(list, json_integer(plies[i]));
    return json_pack("{s:o, s:s, s:s}", "plies", list, "text", en, "text_de", de);
}

static json_t *clock_json(const SvcGame *g, int64_t now) {
    const GameRecord *rec = &g->rec;
    json_t *running =
        svc_clock_running(g) ? json_string(color_name(sch_pos_turn(sch_game_position(&g->game)))) : json_null();
    if (rec->time.type == TIME_LIVE)
        return json_pack("{s:I, s:I, s:o}", "white", (json_int_t)svc_time_left(g, SCH_WHITE, now), "black",
                         (json_int_t)svc_time_left(g, SCH_BLACK, now), "running", running);
    if (rec->time.type == TIME_CORRESPONDENCE) {
        int64_t deadline = svc_deadline(g);
        return json_pack("{s:o, s:o}", "deadline", deadline ? json_integer(deadline) : json_null(), "running", running);
    }
    json_decref(running);
    return json_null();
}

bool svc_moves_reserve(SvcGame *g) {
    size_t need = g->moves_len + SVC_MOVE_JSON_MAX + 2;
    if (need <= g->moves_capacity)
        return true;
    size_t cap = g->moves_capacity ? g->moves_capacity * 2 : 512; /* ~6 moves; finished games are many */
    while (cap < need)
        cap *= 2;
    char *text = realloc(g->moves_text, cap);
    if (!text)
        return false;
    g->moves_text = text;
    g->moves_capacity = cap;
    return true;
}

void svc_moves_append(SvcGame *g, const SchPosition *pos, SchMove m, int64_t at_ms) {
    char uci[8], san[SCH_MOVE_TEXT_MAX], san_de[SCH_MOVE_TEXT_MAX];
    sch_uci_write(pos, m, uci, sizeof uci); /* castling off the e-file as king takes rook */
    sch_san_write(pos, m, SCH_LANG_EN, san, sizeof san);
    sch_san_write(pos, m, SCH_LANG_DE, san_de, sizeof san_de);
    json_t *entry =
        json_pack("{s:s, s:s, s:s, s:I}", "uci", uci, "san", san, "san_de", san_de, "at", (json_int_t)at_ms);
    char *text = g->moves_text + g->moves_len;
    size_t room = g->moves_capacity - g->moves_len;
    if (g->moves_len > 0) {
        *text++ = ',';
        room--;
    }
    /* The entry is pure ASCII of bounded length, so the reserved room always holds it. */
    size_t n = entry ? json_dumpb(entry, text, room - 1, JSON_COMPACT) : 0;
    json_decref(entry);
    if (n == 0 || n >= room) {
        g->moves_text[g->moves_len] = '\0';
        return;
    }
    g->moves_len = (size_t)(text - g->moves_text) + n;
    g->moves_text[g->moves_len] = '\0';
}

char *svc_json_with(json_t *obj, const char *name, const char *raw, size_t *len) {
    size_t base_len = 0;
    char *base = obj ? svc_dump(obj, &base_len) : NULL;
    json_decref(obj);
    if (!base || !raw)
        goto fail;
    size_t name_len = strlen(name), raw_len = strlen(raw);
    char *out = malloc(base_len + name_len + raw_len + 8);
    if (!out)
        goto fail;
    /* base ends with '}': put the member before it, after a comma unless base is "{}". */
    size_t n = base_len - 1;
    memcpy(out, base, n);
    if (n > 1)
        out[n++] = ',';
    out[n++] = '"';
    memcpy(out + n, name, name_len);
    n += name_len;
    out[n++] = '"';
    out[n++] = ':';
    memcpy(out + n, raw, raw_len);
    n += raw_len;
    out[n++] = '}';
    out[n] = '\0';
    free(base);
    if (len)
        *len = n;
    return out;
fail:
    free(base);
    return NULL;
}

/* Who plays with an account, and in a rated game the ratings: {"white": {"name", "rating", "provisional",
 * "diff"} or null, "black": ...}; "rating" is the one the game began with and "provisional" whether it
 * was provisional then (the pages show "1500?"; both null in a casual game), "diff" what its end changed
 * it by (null until the game was rated). null for a game without accounts. */
static json_t *accounts_json(const SvcGame *g) {
    if (!g->rec.account[SCH_WHITE][0] && !g->rec.account[SCH_BLACK][0])
        return json_null();
    json_t *o = json_object();
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        json_t *side = json_null();
        if (g->rec.account[c][0]) {
            bool rated_done = g->rec.rated && (g->rec.rating_diff[SCH_WHITE] || g->rec.rating_diff[SCH_BLACK]);
            side = json_pack("{s:s, s:o, s:o, s:o}", "name", g->rec.account[c], "rating",
                             g->rec.rated ? json_integer(g->rec.rating[c]) : json_null(), "provisional",
                             g->rec.rated ? json_boolean(g->rec.provisional[c]) : json_null(), "diff",
                             rated_done ? json_integer(g->rec.rating_diff[c]) : json_null());
        }
        json_object_set_new(o, c == SCH_WHITE ? "white" : "black", side);
    }
    return o;
}

char *svc_state_text(const SvcGame *g, int64_t now, size_t *len) {
    const SchPosition *pos = sch_game_position(&g->game);
    char fen[SCH_FEN_MAX], last[8] = "";
    sch_fen_write(pos, fen, sizeof fen);
    json_t *legal, *promotions;
    legal_json(g, &legal, &promotions);
    int plies = g->game.ply_count;
    if (plies) {
        /* Written in the position it was played in, as the move list has it (Chess960 castling). */
        const SchGamePly *lp = &g->game.plies[plies - 1];
        SchPosition played_in = *pos;
        sch_pos_unmake(&played_in, lp->move, &lp->undo);
        sch_uci_write(&played_in, lp->move, last, sizeof last);
    }
    bool over = svc_is_over(g);
    json_t *state = json_pack(
        "{s:s, s:i, s:s, s:o, s:s, s:b, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:o, s:o, s:{s:b, s:b}, s:b, s:I, s:o}",
        "id", g->rec.id, "ply", plies, "fen", fen, "start_fen",
        g->rec.start_fen[0] ? json_string(g->rec.start_fen) : json_null(), "turn", color_name(sch_pos_turn(pos)),
        "check", sch_pos_in_check(pos), "last_move", plies ? json_string(last) : json_null(), "legal", legal,
        "promotions", promotions, "outcome", outcome_json(g), "claims", claims_json(g), "draw_offer",
        color_or_null(over ? -1 : g->game.draw_offer), "mode", g->rec.mode, "time", time_json(&g->rec), "clock",
        clock_json(g, now), "players", "white", secret_is_set(g->rec.secret_hash[SCH_WHITE]), "black",
        secret_is_set(g->rec.secret_hash[SCH_BLACK]), "can_abort", !over && plies < 2, "created",
        (json_int_t)g->rec.created_ms, "computer", svc_computer_json(g));
    json_object_set_new(state, "rated", json_boolean(g->rec.rated));
    /* Chess960 (svc_game_start marks it): the start position's number when it is a start array. */
    int chess960 = g->game.start.chess960 ? sch_pos_chess960_number(&g->game.start) : -1;
    json_object_set_new(state, "variant", json_string(variant_name(svc_game_variant(g))));
    json_object_set_new(state, "chess960", chess960 >= 0 ? json_integer(chess960) : json_null());
    json_object_set_new(state, "accounts", accounts_json(g));
    json_object_set_new(state, "rematch", svc_rematch_json(g));
    json_object_set_new(state, "repetition", repetition_json(g));
    /* The side whose takeback request stands (docs/api.md "Takebacks"). */
    json_object_set_new(state, "takeback_offer", color_or_null(over ? -1 : g->rec.takeback_offer - 1));
    /* Presence: a side is online while one of its players watches (this node); the computer always;
     * in a local game one person holds both sides at one screen, so both are there while either is. */
    bool local = strcmp(g->rec.mode, "local") == 0;
    bool any = g->online[SCH_WHITE] > 0 || g->online[SCH_BLACK] > 0;
    json_object_set_new(state, "online",
                        json_pack("{s:b, s:b}", "white",
                                  g->online[SCH_WHITE] > 0 || g->computer == SCH_WHITE || (local && any), "black",
                                  g->online[SCH_BLACK] > 0 || g->computer == SCH_BLACK || (local && any)));
    /* "moves" comes from the cached text; jansson wrote every entry of it. */
    size_t moves_len = g->moves_len;
    char *moves = malloc(moves_len + 3);
    if (!moves) {
        json_decref(state);
        return NULL;
    }
    moves[0] = '[';
    if (moves_len)
        memcpy(moves + 1, g->moves_text, moves_len);
    moves[moves_len + 1] = ']';
    moves[moves_len + 2] = '\0';
    char *text = svc_json_with(state, "moves", moves, len);
    free(moves);
    return text;
}

json_t *svc_summary_json(const SvcGame *g) {
    /* "accounts" as in the state: the lists name who played, with the ratings of a rated game. */
    json_t *o = json_pack(
        "{s:s, s:I, s:s, s:o, s:i, s:o, s:b, s:b, s:o, s:s}", "id", g->rec.id, "created", (json_int_t)g->rec.created_ms,
        "mode", g->rec.mode, "time", time_json(&g->rec), "moves", g->game.ply_count, "outcome", outcome_json(g),
        "white", secret_is_set(g->rec.secret_hash[SCH_WHITE]), "black", secret_is_set(g->rec.secret_hash[SCH_BLACK]),
        "level", g->rec.level[0] ? json_string(g->rec.level) : json_null(), "variant",
        variant_name(svc_game_variant(g)));
    if (o)
        json_object_set_new(o, "accounts", accounts_json(g));
    return o;
}

char *svc_dump(const json_t *j, size_t *len) {
    char *s = json_dumps(j, JSON_COMPACT);
    if (s && len)
        *len = strlen(s);
    return s;
}
