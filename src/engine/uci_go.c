/* UCI: `go` and its parameters (clocks, limits, searchmoves) read into EngineLimits. Apart from the
 * search thread (uci_search.c) because it only parses and checks what the GUI asks for; a bad
 * parameter is reported here and no search starts. */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "uci_internal.h"

typedef enum {
    GO_WTIME,
    GO_BTIME,
    GO_WINC,
    GO_BINC,
    GO_MOVESTOGO,
    GO_DEPTH,
    GO_NODES,
    GO_MOVETIME,
    GO_MATE,
    GO_INFINITE,
    GO_PONDER,
    GO_SEARCHMOVES,
    GO_NB
} GoWord;

static const char *const go_words[GO_NB] = {"wtime", "btime",    "winc", "binc",     "movestogo", "depth",
                                            "nodes", "movetime", "mate", "infinite", "ponder",    "searchmoves"};

static int go_word(const char *s) {
    for (int w = 0; w < GO_NB; w++)
        if (!strcasecmp(go_words[w], s))
            return w;
    return -1;
}

/* A clock value: at or below zero the flag is about to fall, so the engine moves at once. */
static int clock_ms(Uci *u, const char *word, long long v) {
    if (v < 0)
        uci_say(u, "info string go: %s %lld is negative; moving at once", word, v);
    if (v < 1)
        return 1;
    return v > INT32_MAX ? INT32_MAX : (int)v;
}

/* Stores the numeric parameter w = v into *l; false (reported) when v is out of range. */
static bool go_number(Uci *u, EngineLimits *l, GoWord w, long long v) {
    const char *word = go_words[w];
    long long capped = v > INT32_MAX ? INT32_MAX : v;
    switch (w) {
        case GO_WTIME: l->time[SCH_WHITE] = clock_ms(u, word, v); return true;
        case GO_BTIME: l->time[SCH_BLACK] = clock_ms(u, word, v); return true;
        case GO_MOVETIME: l->movetime = clock_ms(u, word, v); return true;
        case GO_WINC:
        case GO_BINC:
            if (v < 0)
                uci_say(u, "info string go: %s %lld is negative; using 0", word, v);
            l->inc[w == GO_WINC ? SCH_WHITE : SCH_BLACK] = v < 0 ? 0 : (int)capped;
            return true;
        case GO_MOVESTOGO:
            if (v < 0)
                break;
            l->movestogo = (int)capped;
            return true;
        case GO_DEPTH:
            if (v < 1)
                break;
            l->depth = v > ENGINE_MAX_PLY ? ENGINE_MAX_PLY : (int)v;
            return true;
        case GO_NODES:
            if (v < 1)
                break;
            l->nodes = (uint64_t)v;
            return true;
        case GO_MATE:
            if (v < 1)
                break;
            l->mate = v > ENGINE_MAX_PLY ? ENGINE_MAX_PLY : (int)v;
            return true;
        default: break;
    }
    uci_say(u, "info string go: %s %lld is out of range; go ignored", word, v);
    return false;
}

/* Reads the searchmoves from tokens [*i, ...) up to the next go keyword; illegal ones are skipped. */
static void go_searchmoves(Uci *u, const Tokens *t, size_t *i, EngineLimits *l) {
    l->searchmoves = u->job_moves;
    l->searchmoves_count = 0;
    for (; *i < t->n && go_word(t->v[*i]) < 0; (*i)++) {
        SchError err;
        sch_err_clear(&err);
        SchMove m = sch_uci_parse(sch_game_position(&u->game), t->v[*i], &err);
        char buf[SHOWN_MAX + 8];
        if (m == SCH_MOVE_NONE) {
            uci_say(u, "info string go: searchmoves: '%s' is not a legal move here; skipped",
                    uci_shown(t->v[*i], buf, sizeof buf));
            continue;
        }
        bool seen = false;
        for (int k = 0; k < l->searchmoves_count; k++)
            seen |= u->job_moves[k] == m;
        if (!seen && l->searchmoves_count < SCH_MAX_MOVES)
            u->job_moves[l->searchmoves_count++] = m;
    }
    if (l->searchmoves_count == 0) {
        uci_say(u, "info string go: searchmoves names no legal move; searching all moves");
        l->searchmoves = NULL;
    }
}

/* Parses the parameters of go into *l; false (reported) when the go must be ignored. */
static bool go_parse(Uci *u, const Tokens *t, size_t i, EngineLimits *l) {
    memset(l, 0, sizeof *l);
    l->multipv = u->set.multipv;
    char buf[SHOWN_MAX + 8];
    while (i < t->n) {
        int w = go_word(t->v[i++]);
        if (w < 0) {
            uci_say(u, "info string go: unknown parameter '%s' skipped", uci_shown(t->v[i - 1], buf, sizeof buf));
        } else if (w == GO_INFINITE) {
            l->infinite = true;
        } else if (w == GO_PONDER) {
            l->ponder = true;
        } else if (w == GO_SEARCHMOVES) {
            go_searchmoves(u, t, &i, l);
        } else {
            long long v;
            if (i >= t->n || !uci_parse_integer(t->v[i], &v)) {
                uci_say(u, "info string go: %s needs a whole number%s%s%s; go ignored", go_words[w],
                        i < t->n ? ", not '" : "", i < t->n ? uci_shown(t->v[i], buf, sizeof buf) : "",
                        i < t->n ? "'" : "");
                return false;
            }
            i++;
            if (!go_number(u, l, (GoWord)w, v))
                return false;
        }
    }
    return true;
}

void uci_cmd_go(Uci *u, const Tokens *t, size_t i) {
    if (!uci_await_search(u)) {
        uci_say(u, "info string go: refused during go infinite or go ponder (send stop first)");
        return;
    }
    EngineLimits limits;
    if (!go_parse(u, t, i, &limits))
        return;
    if (!u->has_position) {
        /* Without a position there is nothing to search, but the GUI (python-chess, for one) waits for a
         * bestmove: it gets one at once, (none), and the reason in an info string. */
        if (u->position_refused)
            uci_say(u, "info string go: no valid position (the last position command was refused); "
                       "send a valid one");
        else
            uci_say(u, "info string go: no valid position yet (send position startpos or position fen ...)");
        uci_say(u, "bestmove (none)");
        return;
    }
    if (u->job_game_valid)
        sch_game_free(&u->job_game);
    u->job_game_valid = sch_game_copy(&u->job_game, &u->game);
    if (!u->job_game_valid) {
        uci_say(u, "info string go: out of memory; go ignored");
        return;
    }
    u->job_limits = limits;
    if (!uci_start_search(u))
        uci_say(u, "info string go: cannot start the search thread; go ignored");
}
