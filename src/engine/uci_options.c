/* UCI: the options. One table names them with their type and range; `uci` lists them with their
 * defaults and `setoption` checks a value against them before the engine gets it. Apart from the
 * loop because adding an option touches only this file (and Settings in uci_internal.h). */
#define _POSIX_C_SOURCE 200809L /* strcasecmp */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine.h"
#include "nnue.h"
#include "uci_internal.h"

typedef enum { OPT_SPIN, OPT_CHECK, OPT_BUTTON, OPT_STRING } OptionType;

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
    OPT_USE_NNUE,
    OPT_EVAL_FILE,
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
    [OPT_USE_NNUE] = {"UseNNUE", OPT_CHECK, 0, 1},
    [OPT_EVAL_FILE] = {"EvalFile", OPT_STRING, 0, 0},
};

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
        case OPT_USE_NNUE: return s->engine.use_nnue;
        case OPT_EVAL_FILE:
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
        case OPT_USE_NNUE: s->engine.use_nnue = v != 0; break;
        case OPT_EVAL_FILE:
        case OPT_CLEAR_HASH:
        case OPT_NB: break;
    }
}

void uci_settings_default(Settings *s) {
    engine_options_default(&s->engine);
    s->multipv = 1;
    s->ponder = false;
    s->chess960 = false;
}

/* The evaluation in use, with the net's checksum: after `uci` and after EvalFile or UseNNUE changes. */
static void uci_say_net(Uci *u) {
    char line[ENGINE_NET_NAME_MAX + 200];
    engine_describe_net(u->engine, line, sizeof line);
    const EngineOptions *o = &u->set.engine;
    /* The levels for people keep the classical evaluation (engine.h). */
    const char *state = !o->use_nnue                         ? "off"
                        : o->skill < 20 || o->limit_strength ? "off for this level (classical), on at full strength"
                                                             : "on";
    uci_say(u, "info string NNUE evaluation %s: %s", state, line);
}

void uci_cmd_uci(Uci *u) {
    Settings def;
    uci_settings_default(&def);
    uci_say(u, "id name schach %s", u->version ? u->version : "");
    uci_say(u, "id author the schach authors");
    for (int i = 0; i < OPT_NB; i++) {
        const UciOption *o = &uci_options[i];
        int v = option_value(&def, (OptionId)i);
        if (o->type == OPT_SPIN)
            uci_say(u, "option name %s type spin default %d min %d max %d", o->name, v, o->min, o->max);
        else if (o->type == OPT_CHECK)
            uci_say(u, "option name %s type check default %s", o->name, v ? "true" : "false");
        else if (o->type == OPT_STRING)
            uci_say(u, "option name %s type string default %s", o->name, NNUE_EMBEDDED_NAME);
        else
            uci_say(u, "option name %s type button", o->name);
    }
    uci_say_net(u);
    uci_say(u, "uciok");
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
        uci_say(u, "info string setoption %s: a value is needed (setoption name %s value ...)", o->name, o->name);
        return false;
    }
    if (o->type == OPT_CHECK) {
        if (strcasecmp(value, "true") && strcasecmp(value, "false")) {
            uci_say(u, "info string setoption %s: '%s' is not true or false", o->name,
                    uci_shown(value, buf, sizeof buf));
            return false;
        }
        *v = !strcasecmp(value, "true");
        return true;
    }
    long long x;
    if (!uci_parse_integer(value, &x) || x < o->min || x > o->max) {
        uci_say(u, "info string setoption %s: '%s' is not a whole number from %d to %d; it stays %d", o->name,
                uci_shown(value, buf, sizeof buf), o->min, o->max, option_value(&u->set, (OptionId)(o - uci_options)));
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
        uci_say(u, "info string setoption Threads: cannot start %d threads; searching with 1", next->engine.threads);
        engine_get_options(u->engine, &u->set.engine);
    } else {
        uci_say(u, "info string setoption %s: cannot allocate %zu MB for the hash table; keeping %zu MB",
                uci_options[id].name, next->engine.hash_mb, u->set.engine.hash_mb);
    }
}

/* EvalFile: a net file for the NNUE evaluation, or <embedded>; a bad one leaves the current net. */
static void set_eval_file(Uci *u, const char *path) {
    char err[ENGINE_NET_NAME_MAX + 200];
    if (!path || !*path) {
        uci_say(u, "info string setoption EvalFile: a file name is needed (or %s)", NNUE_EMBEDDED_NAME);
        return;
    }
    if (!engine_load_net(u->engine, path, err, sizeof err)) {
        uci_say(u, "info string setoption EvalFile: %s; keeping the current net", err);
        return;
    }
    uci_say_net(u);
}

/* setoption name <id> [value <x>]: names may hold spaces and are matched without regard to case. */
void uci_cmd_setoption(Uci *u, const Tokens *t, size_t i) {
    char buf[SHOWN_MAX + 8];
    if (i >= t->n || strcasecmp(t->v[i], "name")) {
        uci_say(u, "info string setoption: expected 'setoption name <id> [value <x>]'");
        return;
    }
    size_t name_end = ++i;
    while (name_end < t->n && strcasecmp(t->v[name_end], "value"))
        name_end++;
    char *name = uci_join_tokens(t, i, name_end);
    char *value = name_end < t->n ? uci_join_tokens(t, name_end + 1, t->n) : NULL;
    if (!name || (name_end < t->n && !value)) {
        uci_say(u, "info string setoption: out of memory");
    } else if (!uci_await_search(u)) {
        uci_say(u, "info string setoption %s: refused during go infinite or go ponder (send stop first)",
                uci_shown(name, buf, sizeof buf));
    } else {
        int id = find_option(name);
        int v;
        if (id < 0)
            uci_say(u, "info string setoption: no option named '%s'", uci_shown(name, buf, sizeof buf));
        else if (id == OPT_CLEAR_HASH)
            engine_clear(u->engine);
        else if (id == OPT_EVAL_FILE)
            set_eval_file(u, value);
        else if (option_parse_value(u, &uci_options[id], value, &v)) {
            Settings next = u->set;
            set_option_value(&next, (OptionId)id, v);
            apply_settings(u, &next, (OptionId)id);
            if (id == OPT_USE_NNUE)
                uci_say_net(u);
        }
    }
    free(name);
    free(value);
}
