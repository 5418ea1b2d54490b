/* The UCI protocol loop (see uci.h): commands are read on the caller's thread, the search runs on a
 * thread of its own, and both write whole lines to the output under one lock. */
#define _POSIX_C_SOURCE 200809L /* getline, strcasecmp */

#include "uci.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "schach/fen.h"
#include "schach/game.h"
#include "schach/movegen.h"
#include "schach/notation.h"

enum { SHOWN_MAX = 40 }; /* input quoted in messages is cut to this many characters */
enum { INFO_LINE_MAX = 256 + ENGINE_MAX_PLY * 6 };

typedef enum { OPT_SPIN, OPT_CHECK, OPT_BUTTON } OptionType;

typedef enum {
    OPT_HASH,
    OPT_THREADS,
    OPT_MULTIPV,
    OPT_MOVE_OVERHEAD,
    OPT_PONDER,
    OPT_LIMIT_STRENGTH,
    OPT_ELO,
    OPT_SKILL,
    OPT_CHESS960,
    OPT_CLEAR_HASH,
    OPT_NB
} OptionId;

typedef struct UciOption {
    const char *name;
    OptionType type;
    int min, max;
} UciOption;

static const UciOption uci_options[OPT_NB] = {
    [OPT_HASH] = {"Hash", OPT_SPIN, 1, 65536},
    [OPT_THREADS] = {"Threads", OPT_SPIN, 1, ENGINE_THREADS_MAX},
    [OPT_MULTIPV] = {"MultiPV", OPT_SPIN, 1, ENGINE_MAX_MULTIPV},
    [OPT_MOVE_OVERHEAD] = {"Move Overhead", OPT_SPIN, 0, 5000},
    [OPT_PONDER] = {"Ponder", OPT_CHECK, 0, 1},
    [OPT_LIMIT_STRENGTH] = {"UCI_LimitStrength", OPT_CHECK, 0, 1},
    [OPT_ELO] = {"UCI_Elo", OPT_SPIN, ENGINE_ELO_MIN, ENGINE_ELO_MAX},
    [OPT_SKILL] = {"Skill Level", OPT_SPIN, 0, 20},
    [OPT_CHESS960] = {"UCI_Chess960", OPT_CHECK, 0, 1},
    [OPT_CLEAR_HASH] = {"Clear Hash", OPT_BUTTON, 0, 0},
};

/* The settings behind the options: what the Engine keeps plus what only the protocol uses. */
typedef struct Settings {
    EngineOptions engine;
    int multipv;
    bool ponder;
    bool chess960; /* UCI_Chess960: castling written king-takes-rook, X-FEN castling fields */
} Settings;

typedef struct Uci {
    FILE *in, *out;
    const char *version;
    Engine *engine;
    Settings set;
    Game game; /* the position of the last good `position` */
    bool has_position;

    /* The search. job_* are written by the reading thread only while no search thread exists. */
    pthread_t thread;
    bool thread_alive; /* started and not yet joined (reading thread only) */
    Game job_game;
    bool job_game_valid;
    EngineLimits job_limits;
    Move job_moves[SCHACH_MAX_MOVES];

    pthread_mutex_t out_lock; /* whole lines on out */
    pthread_mutex_t lock;     /* the flags below */
    pthread_cond_t cond;
    bool started;     /* the engine has begun searching: stop and ponderhit reach it now */
    bool engine_done; /* engine_search returned: a stop now would wait for the next search */
    bool finished;    /* bestmove printed */
    bool stop_seen;   /* stop or quit arrived */
    bool ponderhit_seen;
} Uci;

typedef struct Tokens {
    char **v;
    size_t n, cap;
} Tokens;

/* ---- output ------------------------------------------------------------------------------------ */

/* Writes one line (a newline is added) and flushes it, whole even when both threads write. */
__attribute__((format(printf, 2, 3))) static void say(Uci *u, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&u->out_lock);
    vfprintf(u->out, fmt, ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
    va_end(ap);
}

/* Input text as it may appear in a message: printable ASCII, cut to SHOWN_MAX characters. */
static const char *shown(const char *text, char *buf, size_t size) {
    size_t len = strlen(text);
    size_t keep = len > SHOWN_MAX ? SHOWN_MAX : len;
    err_text_arg(text, keep, buf, size);
    if (len > keep && strlen(buf) + 4 <= size)
        strcat(buf, "...");
    return buf;
}

/* The score as UCI writes it: "cp 35" or "mate 3" / "mate -2" (moves, not plies). */
static void score_text(int score, char *buf, size_t size) {
    if (score >= ENGINE_MATE_BOUND)
        snprintf(buf, size, "mate %d", (ENGINE_MATE - score + 1) / 2);
    else if (score <= -ENGINE_MATE_BOUND)
        snprintf(buf, size, "mate %d", -((ENGINE_MATE + score) / 2));
    else
        snprintf(buf, size, "cp %d", score);
}

/* ---- the search thread ------------------------------------------------------------------------- */

static void mark_started(Uci *u) {
    pthread_mutex_lock(&u->lock);
    if (!u->started) {
        u->started = true;
        pthread_cond_broadcast(&u->cond);
    }
    pthread_mutex_unlock(&u->lock);
}

/* Called on the search thread after each iteration. */
static void on_info(const EngineInfo *info, void *ctx) {
    Uci *u = ctx;
    mark_started(u);
    char line[INFO_LINE_MAX], score[32];
    score_text(info->score, score, sizeof score);
    int len = snprintf(
        line, sizeof line, "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d time %lld",
        info->depth, info->seldepth, info->multipv > 0 ? info->multipv : 1, score,
        info->lowerbound   ? " lowerbound"
        : info->upperbound ? " upperbound"
                           : "",
        (unsigned long long)info->nodes, (unsigned long long)info->nps, info->hashfull, (long long)info->time_ms);
    if (info->pv_length > 0 && len > 0 && (size_t)len + 3 < sizeof line) {
        strcpy(line + len, " pv");
        len += 3;
    }
    /* Chess960 castling is written from the position it is played in (king takes rook). */
    Position walk = u->job_game.pos;
    for (int i = 0; i < info->pv_length && i < ENGINE_MAX_PLY && len > 0; i++) {
        char move[SCHACH_MOVE_TEXT_MAX];
        if (walk.chess960 && gen_is_legal(&walk, info->pv[i])) {
            Undo undo;
            uci_write_pos(&walk, info->pv[i], move, sizeof move);
            pos_make(&walk, info->pv[i], &undo);
        } else {
            uci_write(info->pv[i], move, sizeof move);
        }
        if ((size_t)len + 1 + strlen(move) >= sizeof line)
            break;
        len += snprintf(line + len, sizeof line - (size_t)len, " %s", move);
    }
    say(u, "%s", line);
}

/* go infinite waits for stop, go ponder for stop or ponderhit, before bestmove may be printed. */
static void wait_for_release(Uci *u) {
    pthread_mutex_lock(&u->lock);
    while (!u->stop_seen && (u->job_limits.infinite || (u->job_limits.ponder && !u->ponderhit_seen)))
        pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
}

/* "bestmove e2e4 ponder e7e5"; the ponder move only when it is legal after the best move. */
static void print_bestmove(Uci *u, const EngineResult *r) {
    if (r->best == MOVE_NONE) {
        say(u, "bestmove (none)"); /* what GUIs and python-chess read; Stockfish says the same */
        return;
    }
    char best[SCHACH_MOVE_TEXT_MAX], ponder[SCHACH_MOVE_TEXT_MAX];
    uci_write_pos(&u->job_game.pos, r->best, best, sizeof best);
    Position after = u->job_game.pos;
    Undo undo;
    pos_make(&after, r->best, &undo);
    if (r->ponder != MOVE_NONE && gen_is_legal(&after, r->ponder)) {
        uci_write_pos(&after, r->ponder, ponder, sizeof ponder);
        say(u, "bestmove %s ponder %s", best, ponder);
    } else {
        say(u, "bestmove %s", best);
    }
}

static void *search_main(void *arg) {
    Uci *u = arg;
    EngineResult r;
    memset(&r, 0, sizeof r);
    const Position *pos = game_position(&u->job_game);
    if (gen_has_legal_move(pos)) {
        r = engine_search(u->engine, &u->job_game, &u->job_limits, on_info, u);
        /* The search's totals at its end (every thread's nodes), as Stockfish closes a search: the
         * last iteration's line counted only up to its own end. */
        say(u, "info nodes %llu nps %llu time %lld", (unsigned long long)r.nodes,
            (unsigned long long)(r.time_ms > 0 ? r.nodes * 1000 / (uint64_t)r.time_ms : r.nodes), (long long)r.time_ms);
    } else
        say(u, "info depth 0 score %s", pos_in_check(pos) ? "mate 0" : "cp 0");
    mark_started(u);
    pthread_mutex_lock(&u->lock);
    u->engine_done = true;
    pthread_mutex_unlock(&u->lock);
    wait_for_release(u);
    print_bestmove(u, &r);
    pthread_mutex_lock(&u->lock);
    u->finished = true;
    pthread_cond_broadcast(&u->cond);
    pthread_mutex_unlock(&u->lock);
    return NULL;
}

/* Joins a search thread that has printed its bestmove; afterwards thread_alive tells whether one
 * still searches. */
static void reap(Uci *u) {
    if (!u->thread_alive)
        return;
    pthread_mutex_lock(&u->lock);
    bool done = u->finished;
    pthread_mutex_unlock(&u->lock);
    if (done) {
        pthread_join(u->thread, NULL);
        u->thread_alive = false;
    }
}

/* True when the running search ends only on stop: go infinite, go ponder before ponderhit, or a go
 * without any limit for the side to move. */
static bool search_unbounded(Uci *u) {
    const EngineLimits *l = &u->job_limits;
    pthread_mutex_lock(&u->lock);
    bool pondering = l->ponder && !u->ponderhit_seen;
    pthread_mutex_unlock(&u->lock);
    Color stm = pos_turn(game_position(&u->job_game));
    bool limited = l->depth || l->nodes || l->movetime || l->mate || l->time[stm];
    return l->infinite || pondering || !limited;
}

/* Before a command that changes what a search uses (go, setoption, ucinewgame): waits for a running
 * search that ends by its own limits, so a script of commands runs in order. false, without
 * waiting, when the search only ends on stop. */
static bool await_search(Uci *u) {
    reap(u);
    if (!u->thread_alive)
        return true;
    if (search_unbounded(u))
        return false;
    pthread_join(u->thread, NULL);
    u->thread_alive = false;
    return true;
}

/* Ends a running search: its bestmove is printed before this returns. The engine is only told while
 * engine_search runs: a stop it receives between searches would end the next one (engine.c clears
 * the flag when a search ends, so that a stop right after "go" is never lost). */
static void stop_search(Uci *u) {
    reap(u);
    if (!u->thread_alive)
        return;
    pthread_mutex_lock(&u->lock);
    u->stop_seen = true;
    pthread_cond_broadcast(&u->cond);
    if (!u->engine_done)
        engine_stop(u->engine);
    pthread_mutex_unlock(&u->lock);
    pthread_join(u->thread, NULL);
    u->thread_alive = false;
}

/* Starts the search of job_game within job_limits and returns once the engine is searching, so a
 * stop or ponderhit read next cannot arrive before the engine listens for it. */
static bool start_search(Uci *u) {
    u->started = u->engine_done = u->finished = u->stop_seen = u->ponderhit_seen = false;
    if (pthread_create(&u->thread, NULL, search_main, u) != 0)
        return false;
    u->thread_alive = true;
    pthread_mutex_lock(&u->lock);
    while (!u->started)
        pthread_cond_wait(&u->cond, &u->lock);
    pthread_mutex_unlock(&u->lock);
    return true;
}

/* ---- tokens and numbers ------------------------------------------------------------------------ */

/* Splits line in place at blanks (space, tab, CR, other control characters). false when out of memory. */
static bool tokenize(char *line, Tokens *t) {
    t->n = 0;
    char *s = line;
    for (;;) {
        while (*s && (unsigned char)*s <= ' ')
            s++;
        if (!*s)
            return true;
        if (t->n == t->cap) {
            size_t cap = t->cap ? 2 * t->cap : 64;
            char **v = realloc(t->v, cap * sizeof *v);
            if (!v)
                return false;
            t->v = v;
            t->cap = cap;
        }
        t->v[t->n++] = s;
        while (*s && (unsigned char)*s > ' ')
            s++;
        if (*s)
            *s++ = '\0';
    }
}

/* A whole decimal integer (sign allowed) into *v; false for anything else or overflow. */
static bool parse_integer(const char *text, long long *v) {
    char *end = NULL;
    errno = 0;
    long long x = strtoll(text, &end, 10);
    if (errno || end == text || *end)
        return false;
    *v = x;
    return true;
}

/* Joins tokens [from, to) with single spaces into a new string (NULL when out of memory). */
static char *join_tokens(const Tokens *t, size_t from, size_t to) {
    size_t len = 1;
    for (size_t i = from; i < to; i++)
        len += strlen(t->v[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    char *p = s;
    for (size_t i = from; i < to; i++) {
        size_t n = strlen(t->v[i]);
        if (i > from)
            *p++ = ' ';
        memcpy(p, t->v[i], n);
        p += n;
        *p = '\0';
    }
    return s;
}

/* ---- uci, isready, options --------------------------------------------------------------------- */

static int option_value(const Settings *s, OptionId id) {
    switch (id) {
        case OPT_HASH: return (int)s->engine.hash_mb;
        case OPT_THREADS: return s->engine.threads;
        case OPT_MULTIPV: return s->multipv;
        case OPT_MOVE_OVERHEAD: return s->engine.move_overhead;
        case OPT_PONDER: return s->ponder;
        case OPT_LIMIT_STRENGTH: return s->engine.limit_strength;
        case OPT_ELO: return s->engine.elo;
        case OPT_SKILL: return s->engine.skill;
        case OPT_CHESS960: return s->chess960;
        case OPT_CLEAR_HASH:
        case OPT_NB: break;
    }
    return 0;
}

static void set_option_value(Settings *s, OptionId id, int v) {
    switch (id) {
        case OPT_HASH: s->engine.hash_mb = (size_t)v; break;
        case OPT_THREADS: s->engine.threads = v; break;
        case OPT_MULTIPV: s->multipv = v; break;
        case OPT_MOVE_OVERHEAD: s->engine.move_overhead = v; break;
        case OPT_PONDER: s->ponder = v != 0; break;
        case OPT_LIMIT_STRENGTH: s->engine.limit_strength = v != 0; break;
        case OPT_ELO: s->engine.elo = v; break;
        case OPT_SKILL: s->engine.skill = v; break;
        case OPT_CHESS960: s->chess960 = v != 0; break;
        case OPT_CLEAR_HASH:
        case OPT_NB: break;
    }
}

static void settings_default(Settings *s) {
    engine_options_default(&s->engine);
    s->multipv = 1;
    s->ponder = false;
    s->chess960 = false;
}

static void cmd_uci(Uci *u) {
    Settings def;
    settings_default(&def);
    say(u, "id name schach %s", u->version ? u->version : "");
    say(u, "id author the schach authors");
    for (int i = 0; i < OPT_NB; i++) {
        const UciOption *o = &uci_options[i];
        int v = option_value(&def, (OptionId)i);
        if (o->type == OPT_SPIN)
            say(u, "option name %s type spin default %d min %d max %d", o->name, v, o->min, o->max);
        else if (o->type == OPT_CHECK)
            say(u, "option name %s type check default %s", o->name, v ? "true" : "false");
        else
            say(u, "option name %s type button", o->name);
    }
    say(u, "uciok");
}

static int find_option(const char *name) {
    for (int i = 0; i < OPT_NB; i++)
        if (!strcasecmp(uci_options[i].name, name))
            return i;
    return -1;
}

/* Parses value for option o into *v; reports and returns false when it does not fit. */
static bool option_parse_value(Uci *u, const UciOption *o, const char *value, int *v) {
    char buf[SHOWN_MAX + 8];
    if (o->type == OPT_BUTTON) {
        *v = 0;
        return true;
    }
    if (!value) {
        say(u, "info string setoption %s: a value is needed (setoption name %s value ...)", o->name, o->name);
        return false;
    }
    if (o->type == OPT_CHECK) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            say(u, "info string setoption %s: '%s' is not true or false", o->name, shown(value, buf, sizeof buf));
            return false;
        }
        *v = !strcasecmp(value, "true");
        return true;
    }
    long long x;
    if (!parse_integer(value, &x) || x < o->min || x > o->max) {
        say(u, "info string setoption %s: '%s' is not a whole number from %d to %d; it stays %d", o->name,
            shown(value, buf, sizeof buf), o->min, o->max, option_value(&u->set, (OptionId)(o - uci_options)));
        return false;
    }
    *v = (int)x;
    return true;
}

/* Hands the engine its part of the new settings; the old ones stay when the table cannot grow,
 * and one thread searches when the helper threads cannot be started. */
static void apply_settings(Uci *u, const Settings *next, OptionId id) {
    if (engine_set_options(u->engine, &next->engine)) {
        u->set = *next;
    } else if (id == OPT_THREADS) {
        say(u, "info string setoption Threads: cannot start %d threads; searching with 1", next->engine.threads);
        engine_get_options(u->engine, &u->set.engine);
    } else {
        say(u, "info string setoption %s: cannot allocate %zu MB for the hash table; keeping %zu MB",
            uci_options[id].name, next->engine.hash_mb, u->set.engine.hash_mb);
    }
}

/* setoption name <id> [value <x>]: names may hold spaces and are matched without regard to case. */
static void cmd_setoption(Uci *u, const Tokens *t, size_t i) {
    char buf[SHOWN_MAX + 8];
    if (i >= t->n || strcasecmp(t->v[i], "name")) {
        say(u, "info string setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    size_t name_end = ++i;
    while (name_end < t->n && strcasecmp(t->v[name_end], "value"))
        name_end++;
    char *name = join_tokens(t, i, name_end);
    char *value = name_end < t->n ? join_tokens(t, name_end + 1, t->n) : NULL;
    if (!name || (name_end < t->n && !value)) {
        say(u, "info string setoption: out of memory");
    } else if (!await_search(u)) {
        say(u, "info string setoption %s: refused during go infinite or go ponder (send stop first)",
            shown(name, buf, sizeof buf));
    } else {
        int id = find_option(name);
        int v;
        if (id < 0)
            say(u, "info string setoption: no option named '%s'", shown(name, buf, sizeof buf));
        else if (id == OPT_CLEAR_HASH)
            engine_clear(u->engine);
        else if (option_parse_value(u, &uci_options[id], value, &v)) {
            Settings next = u->set;
            set_option_value(&next, (OptionId)id, v);
            apply_settings(u, &next, (OptionId)id);
        }
    }
    free(name);
    free(value);
}

/* ---- position ---------------------------------------------------------------------------------- */

/* Plays m, also after an automatic ending that leaves legal moves: the GUI is the arbiter. The game
 * decides dead positions by material only (GAME_DEAD_MATERIAL_ONLY): the full analysis after each
 * replayed move of a locked position would cost milliseconds per ply on every "position" command,
 * time the engine's clock pays, and the search needs none of it. */
static bool play_on(Game *g, Move m, SchError *err) {
    if (game_over(g))
        memset(&g->outcome, 0, sizeof g->outcome);
    return game_play(g, m, err);
}

/* With UCI_Chess960 every position uses Chess960 notation (a 960 FEN switches it on by itself). */
static void set_chess960(const Uci *u, Game *g) {
    if (u->set.chess960)
        g->pos.chess960 = g->start.chess960 = 1;
}

/* Sets up g (which must be fresh) from tokens [i, end): "startpos" or "fen <fields>". */
static bool position_base(Uci *u, Game *g, const Tokens *t, size_t i, size_t end) {
    char buf[SHOWN_MAX + 8];
    if (i < end && !strcasecmp(t->v[i], "startpos")) {
        if (i + 1 < end) {
            say(u, "info string position: unexpected '%s' after startpos; position unchanged",
                shown(t->v[i + 1], buf, sizeof buf));
            return false;
        }
        game_init(g);
        game_set_dead_mode(g, GAME_DEAD_MATERIAL_ONLY);
        set_chess960(u, g);
        return true;
    }
    if (i >= end || strcasecmp(t->v[i], "fen")) {
        say(u, "info string position: expected 'startpos' or 'fen <FEN>'%s%s%s; position unchanged",
            i < end ? " instead of '" : "", i < end ? shown(t->v[i], buf, sizeof buf) : "", i < end ? "'" : "");
        return false;
    }
    char *fen = join_tokens(t, i + 1, end);
    if (!fen) {
        say(u, "info string position: out of memory; position unchanged");
        return false;
    }
    SchError err;
    err_clear(&err);
    bool ok = game_init_fen_mode(g, fen, GAME_DEAD_MATERIAL_ONLY, &err);
    if (!ok) {
        char msg[256];
        err_format(&err, LANG_EN, msg, sizeof msg);
        say(u, "info string position: invalid FEN: %s; position unchanged", msg);
    } else if (game_over(g) && gen_has_legal_move(game_position(g))) {
        memset(&g->outcome, 0, sizeof g->outcome);
    }
    free(fen);
    if (ok)
        set_chess960(u, g);
    return ok;
}

/* Plays the moves [i, n) on g; reports the first bad one. */
static bool position_moves(Uci *u, Game *g, const Tokens *t, size_t i) {
    for (size_t k = i; k < t->n; k++) {
        SchError err;
        err_clear(&err);
        Move m = uci_parse(game_position(g), t->v[k], &err);
        if (m == MOVE_NONE || !play_on(g, m, &err)) {
            char msg[256], buf[SHOWN_MAX + 8];
            err_format(&err, LANG_EN, msg, sizeof msg);
            say(u, "info string position: move %zu '%s' cannot be played: %s; position unchanged", k - i + 1,
                shown(t->v[k], buf, sizeof buf), msg);
            return false;
        }
    }
    return true;
}

/* position startpos|fen <FEN> [moves m1 m2 ...]: all or nothing. */
static void cmd_position(Uci *u, const Tokens *t, size_t i) {
    size_t moves = i;
    while (moves < t->n && strcasecmp(t->v[moves], "moves"))
        moves++;
    Game g;
    game_init(&g);
    game_free(&g);
    bool ok = position_base(u, &g, t, i, moves) && position_moves(u, &g, t, moves + 1);
    if (!ok) {
        game_free(&g);
        return;
    }
    if (u->has_position)
        game_free(&u->game);
    u->game = g;
    u->has_position = true;
}

/* ---- go ---------------------------------------------------------------------------------------- */

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
        say(u, "info string go: %s %lld is negative; moving at once", word, v);
    if (v < 1)
        return 1;
    return v > INT32_MAX ? INT32_MAX : (int)v;
}

/* Stores the numeric parameter w = v into *l; false (reported) when v is out of range. */
static bool go_number(Uci *u, EngineLimits *l, GoWord w, long long v) {
    const char *word = go_words[w];
    long long capped = v > INT32_MAX ? INT32_MAX : v;
    switch (w) {
        case GO_WTIME: l->time[WHITE] = clock_ms(u, word, v); return true;
        case GO_BTIME: l->time[BLACK] = clock_ms(u, word, v); return true;
        case GO_MOVETIME: l->movetime = clock_ms(u, word, v); return true;
        case GO_WINC:
        case GO_BINC:
            if (v < 0)
                say(u, "info string go: %s %lld is negative; using 0", word, v);
            l->inc[w == GO_WINC ? WHITE : BLACK] = v < 0 ? 0 : (int)capped;
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
    say(u, "info string go: %s %lld is out of range; go ignored", word, v);
    return false;
}

/* Reads the searchmoves from tokens [*i, ...) up to the next go keyword; illegal ones are skipped. */
static void go_searchmoves(Uci *u, const Tokens *t, size_t *i, EngineLimits *l) {
    l->searchmoves = u->job_moves;
    l->searchmoves_count = 0;
    for (; *i < t->n && go_word(t->v[*i]) < 0; (*i)++) {
        SchError err;
        err_clear(&err);
        Move m = uci_parse(game_position(&u->game), t->v[*i], &err);
        char buf[SHOWN_MAX + 8];
        if (m == MOVE_NONE) {
            say(u, "info string go: searchmoves: '%s' is not a legal move here; skipped",
                shown(t->v[*i], buf, sizeof buf));
            continue;
        }
        bool seen = false;
        for (int k = 0; k < l->searchmoves_count; k++)
            seen |= u->job_moves[k] == m;
        if (!seen && l->searchmoves_count < SCHACH_MAX_MOVES)
            u->job_moves[l->searchmoves_count++] = m;
    }
    if (l->searchmoves_count == 0) {
        say(u, "info string go: searchmoves names no legal move; searching all moves");
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
            say(u, "info string go: unknown parameter '%s' skipped", shown(t->v[i - 1], buf, sizeof buf));
        } else if (w == GO_INFINITE) {
            l->infinite = true;
        } else if (w == GO_PONDER) {
            l->ponder = true;
        } else if (w == GO_SEARCHMOVES) {
            go_searchmoves(u, t, &i, l);
        } else {
            long long v;
            if (i >= t->n || !parse_integer(t->v[i], &v)) {
                say(u, "info string go: %s needs a whole number%s%s%s; go ignored", go_words[w],
                    i < t->n ? ", not '" : "", i < t->n ? shown(t->v[i], buf, sizeof buf) : "", i < t->n ? "'" : "");
                return false;
            }
            i++;
            if (!go_number(u, l, (GoWord)w, v))
                return false;
        }
    }
    return true;
}

static void cmd_go(Uci *u, const Tokens *t, size_t i) {
    if (!await_search(u)) {
        say(u, "info string go: refused during go infinite or go ponder (send stop first)");
        return;
    }
    if (!u->has_position) {
        say(u, "info string go: no position yet (send position startpos or position fen ...); go ignored");
        return;
    }
    EngineLimits limits;
    if (!go_parse(u, t, i, &limits))
        return;
    if (u->job_game_valid)
        game_free(&u->job_game);
    u->job_game_valid = game_copy(&u->job_game, &u->game);
    if (!u->job_game_valid) {
        say(u, "info string go: out of memory; go ignored");
        return;
    }
    u->job_limits = limits;
    if (!start_search(u))
        say(u, "info string go: cannot start the search thread; go ignored");
}

static void cmd_ponderhit(Uci *u) {
    reap(u);
    if (!u->thread_alive || !u->job_limits.ponder) {
        say(u, "info string ponderhit: no 'go ponder' search is running; ignored");
        return;
    }
    pthread_mutex_lock(&u->lock);
    u->ponderhit_seen = true;
    pthread_cond_broadcast(&u->cond);
    if (!u->engine_done)
        engine_ponderhit(u->engine);
    pthread_mutex_unlock(&u->lock);
}

/* ---- debugging commands ------------------------------------------------------------------------ */

/* d: the board from white's side, its FEN and how many legal moves there are. */
static void cmd_display(Uci *u) {
    if (!u->has_position) {
        say(u, "info string d: no position yet");
        return;
    }
    const Position *pos = game_position(&u->game);
    for (int rank = 7; rank >= 0; rank--) {
        char row[32];
        int len = 0;
        for (int file = 0; file < 8; file++) {
            Piece p = pos_piece_on(pos, square_make(file, rank));
            char c = p == NO_PIECE ? '.' : "PNBRQKpnbrqk"[p];
            len += snprintf(row + len, sizeof row - (size_t)len, " %c", c);
        }
        say(u, "%d%s", rank + 1, row);
    }
    say(u, "  a b c d e f g h");
    char fen[SCHACH_FEN_MAX];
    fen_write(pos, fen, sizeof fen);
    say(u, "Fen: %s", fen);
    say(u, "Legal moves: %d", gen_count(pos));
}

static void cmd_eval(Uci *u) {
    if (!u->has_position) {
        say(u, "info string eval: no position yet");
        return;
    }
    const Position *pos = game_position(&u->game);
    say(u, "info string eval %d cp (from %s's point of view; static, no search)", engine_evaluate(pos),
        pos_turn(pos) == WHITE ? "white" : "black");
}

/* ---- the loop ---------------------------------------------------------------------------------- */

static const char *const command_words[] = {"uci",        "debug",    "isready", "setoption", "register",
                                            "ucinewgame", "position", "go",      "stop",      "ponderhit",
                                            "quit",       "d",        "eval"};
enum { COMMAND_WORD_COUNT = sizeof command_words / sizeof command_words[0] };

static bool is_command(const char *word) {
    for (int i = 0; i < COMMAND_WORD_COUNT; i++)
        if (!strcmp(command_words[i], word))
            return true;
    return false;
}

/* Answers one command; false for quit. */
static bool dispatch(Uci *u, const Tokens *t, size_t i) {
    const char *cmd = t->v[i++];
    if (!strcmp(cmd, "uci"))
        cmd_uci(u);
    else if (!strcmp(cmd, "isready"))
        say(u, "readyok");
    else if (!strcmp(cmd, "setoption"))
        cmd_setoption(u, t, i);
    else if (!strcmp(cmd, "ucinewgame")) {
        if (!await_search(u))
            say(u, "info string ucinewgame: refused during go infinite or go ponder (send stop first)");
        else
            engine_clear(u->engine);
    } else if (!strcmp(cmd, "position"))
        cmd_position(u, t, i);
    else if (!strcmp(cmd, "go"))
        cmd_go(u, t, i);
    else if (!strcmp(cmd, "stop"))
        stop_search(u);
    else if (!strcmp(cmd, "ponderhit"))
        cmd_ponderhit(u);
    else if (!strcmp(cmd, "quit"))
        return false;
    else if (!strcmp(cmd, "d"))
        cmd_display(u);
    else if (!strcmp(cmd, "eval"))
        cmd_eval(u);
    /* debug on|off and register need no answer: there is nothing to register or to debug yet. */
    return true;
}

/* Handles one input line; false for quit. Unknown words before a command are skipped (UCI 2.1). */
static bool handle_line(Uci *u, char *line, Tokens *t) {
    if (!tokenize(line, t)) {
        say(u, "info string out of memory reading a line; line ignored");
        return true;
    }
    size_t i = 0;
    while (i < t->n && !is_command(t->v[i]))
        i++;
    char buf[SHOWN_MAX + 8];
    if (i == t->n) {
        if (t->n > 0)
            say(u, "info string unknown command '%s'; line ignored", shown(t->v[0], buf, sizeof buf));
        return true;
    }
    if (i > 0)
        say(u, "info string unknown word '%s' before '%s' skipped", shown(t->v[0], buf, sizeof buf), t->v[i]);
    return dispatch(u, t, i);
}

static bool uci_init(Uci *u, FILE *in, FILE *out, const char *version) {
    memset(u, 0, sizeof *u);
    u->in = in;
    u->out = out;
    u->version = version;
    settings_default(&u->set);
    u->engine = engine_new(&u->set.engine);
    if (!u->engine)
        return false;
    pthread_mutex_init(&u->out_lock, NULL);
    pthread_mutex_init(&u->lock, NULL);
    pthread_cond_init(&u->cond, NULL);
    return true;
}

static void uci_release(Uci *u) {
    stop_search(u);
    if (u->has_position)
        game_free(&u->game);
    if (u->job_game_valid)
        game_free(&u->job_game);
    engine_free(u->engine);
    pthread_cond_destroy(&u->cond);
    pthread_mutex_destroy(&u->lock);
    pthread_mutex_destroy(&u->out_lock);
}

int uci_loop(FILE *in, FILE *out, const char *version) {
    Uci u;
    if (!uci_init(&u, in, out, version)) {
        fputs("info string out of memory: cannot create the engine\n", out);
        fflush(out);
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    Tokens tokens = {0};
    bool quit = false;
    while (!quit && getline(&line, &cap, in) >= 0)
        quit = !handle_line(&u, line, &tokens);
    if (!quit)
        await_search(&u); /* end of input: a piped "go depth 8" still gets its full answer */
    free(line);
    free(tokens.v);
    uci_release(&u);
    return 0;
}
