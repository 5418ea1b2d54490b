/* Engine facade: options, lifetime and the public entry points of engine.h.
 *
 * Randomness (only weaker levels use it) comes from a generator inside the Engine, seeded in
 * engine_new() from the clock, so two engines vary their play; engine_set_seed() (engine_internal.h)
 * makes an engine deterministic for tests and reproducible matches.
 *
 * With Threads > 1 the helper threads of pool.h search beside the caller's thread (lazy SMP).
 *
 * The stop flag is cleared when a search ends, not when it begins: a stop that arrives between a
 * caller's "go" and the start of engine_search() on another thread still ends that search.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "eval.h"
#include "nnue.h"
#include "pool.h"
#include "rng.h"
#include "engine.h"
#include "schach/schach.h"
#include "search.h"
#include "strength.h"
#include "timeman.h"

/* What the clock did around a side's previous search: in a game that goes on, that side's next
 * clock should be the last one plus the increment minus the time searched. What is missing was lost
 * outside the search (the GUI, the pipes, a busy machine) and will be lost again: the time manager
 * plans for it. One record per colour, as one engine may search for both sides. */
typedef struct ClockRecord {
    bool valid;                   /* the search was timed on this side's clock */
    int ply;                      /* game length at that search */
    uint64_t key;                 /* and the position's repetition key */
    int64_t clock, inc, searched; /* ms */
} ClockRecord;

struct Engine {
    EngineOptions opt;
    uint64_t rng;
    ClockRecord last[2]; /* by colour */
    int lag;             /* estimated ms per move (rises at once, falls by a quarter per move) */
    TT tt;               /* shared by the search and its helpers */
    SearchPool pool;     /* Threads - 1 helper threads */
    Search search;       /* the main thread's; large: the engine is allocated on the heap */
    /* What times a search for the lag: tm_now_ms, or a test's clock (engine_set_lag_clock). */
    int64_t (*lag_clock)(void);
    NnueNet loaded;                     /* EvalFile's net (empty: the built-in one) */
    char net_name[ENGINE_NET_NAME_MAX]; /* EvalFile, NNUE_EMBEDDED_NAME for the built-in net */
};

static size_t clamp_hash(size_t mb) { return mb < 1 ? 1 : mb > 65536 ? 65536 : mb; }

void engine_options_default(EngineOptions *opt) {
    *opt = (EngineOptions){.hash_mb = 16,
                           .threads = 1,
                           .move_overhead = 10,
                           .skill = 20,
                           .limit_strength = false,
                           .elo = 1500,
                           .use_nnue = true};
}

static void normalise(EngineOptions *opt) {
    opt->hash_mb = clamp_hash(opt->hash_mb);
    opt->threads = opt->threads < 1 ? 1 : opt->threads > ENGINE_THREADS_MAX ? ENGINE_THREADS_MAX : opt->threads;
    opt->move_overhead = opt->move_overhead < 0 ? 0 : opt->move_overhead;
    opt->skill = opt->skill < 0 ? 0 : opt->skill > 20 ? 20 : opt->skill;
    opt->elo = opt->elo < ENGINE_ELO_MIN ? ENGINE_ELO_MIN : opt->elo > ENGINE_ELO_MAX ? ENGINE_ELO_MAX : opt->elo;
}

Engine *engine_new(const EngineOptions *opt) {
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    engine_options_default(&e->opt);
    if (opt)
        e->opt = *opt;
    normalise(&e->opt);
    if (!tt_resize(&e->tt, e->opt.hash_mb)) {
        free(e);
        return NULL;
    }
    search_init(&e->search, &e->tt);
    pool_init(&e->pool);
    if (!pool_resize(&e->pool, e->opt.threads - 1, &e->tt)) {
        engine_free(e);
        return NULL;
    }
    e->rng = rng_seed((uint64_t)tm_now_ms() ^ (uint64_t)(uintptr_t)e);
    snprintf(e->net_name, sizeof e->net_name, "%s", NNUE_EMBEDDED_NAME);
    return e;
}

void engine_free(Engine *e) {
    if (!e)
        return;
    pool_free(&e->pool);
    tt_free(&e->tt);
    nnue_free(&e->loaded);
    free(e);
}

bool engine_set_options(Engine *e, const EngineOptions *opt) {
    EngineOptions next = *opt;
    normalise(&next);
    if (next.hash_mb != e->opt.hash_mb && !tt_resize(&e->tt, next.hash_mb))
        return false;
    if (next.use_nnue != e->opt.use_nnue)
        tt_clear(&e->tt); /* its entries hold the other evaluation's static values */
    if (next.threads != e->opt.threads && !pool_resize(&e->pool, next.threads - 1, &e->tt)) {
        next.threads = 1; /* the helpers could not be had: one thread still searches */
        e->opt = next;
        return false;
    }
    e->opt = next;
    return true;
}

void engine_get_options(const Engine *e, EngineOptions *opt) { *opt = e->opt; }

void engine_clear(Engine *e) {
    tt_clear(&e->tt);
    search_clear(&e->search);
    pool_clear(&e->pool);
    e->last[SCH_WHITE].valid = e->last[SCH_BLACK].valid = false; /* a new game: its clocks start afresh */
}

void engine_set_seed(Engine *e, uint64_t seed) { e->rng = rng_seed(seed); }

int engine_lag(const Engine *e) { return e->lag; }

void engine_set_lag_clock(Engine *e, int64_t (*now_ms)(void)) { e->lag_clock = now_ms; }

/* The lag limit: a gap larger than this is a new game the caller did not announce, not lag. */
enum { LAG_MAX_MS = 1000 };

static void lag_observe(Engine *e, const SchGame *game, const EngineLimits *lim, SchColor us) {
    const ClockRecord *r = &e->last[us];
    if (!r->valid || game->ply_count != r->ply + 2 || lim->time[us] <= 0 ||
        sch_game_key_at(game, game->ply_count - 2) != r->key)
        return;
    int64_t seen = r->clock + r->inc - r->searched - lim->time[us];
    if (seen > LAG_MAX_MS)
        return;
    int64_t decayed = (int64_t)e->lag * 3 / 4;
    e->lag = (int)(seen > decayed ? seen : decayed);
}

static void lag_remember(Engine *e, const SchGame *game, const EngineLimits *lim, SchColor us, int64_t searched) {
    /* A ponder search's time was not all on our clock; it teaches nothing. */
    e->last[us] = (ClockRecord){.valid = lim->time[us] > 0 && !lim->ponder && !lim->infinite,
                                .ply = game->ply_count,
                                .key = sch_game_key_at(game, game->ply_count),
                                .clock = lim->time[us],
                                .inc = lim->inc[us],
                                .searched = searched};
}

/* The net of e's NNUE evaluation: EvalFile's or the built-in one (NULL if that is broken). */
static const NnueNet *engine_net(const Engine *e) { return e->loaded.memory ? &e->loaded : nnue_default(); }

EngineResult engine_search(Engine *e, const SchGame *game, const EngineLimits *limits, EngineInfoFn info, void *ctx) {
    StrengthPlan plan;
    strength_plan(&e->opt, &plan);
    EngineLimits lim = *limits;
    strength_limit(&plan, &lim);
    int report_lines = limits->multipv > 0 ? limits->multipv : 1;
    int64_t (*now_ms)(void) = e->lag_clock ? e->lag_clock : tm_now_ms;
    int64_t started = now_ms();
    SchColor us = sch_pos_turn(&game->pos);
    lag_observe(e, game, limits, us);
    tt_new_search(&e->tt);
    /* A weaker level searches alone: its budget and its choice among lines are one thread's. */
    bool helpers = !plan.classical && e->pool.count > 0;
    /* The levels for people keep the classical evaluation their Elo was measured with. */
    const NnueNet *net = e->opt.use_nnue && !plan.classical ? engine_net(e) : NULL;
    e->search.net = net;
    for (int i = 0; i < e->pool.count; i++)
        e->pool.helpers[i].net = net;
    e->search.peers = helpers ? e->pool.helpers : NULL;
    e->search.peer_count = helpers ? e->pool.count : 0;
    if (helpers) {
        for (int i = 0; i < e->pool.count; i++)
            e->pool.helpers[i].leader = &e->search;
        pool_start(&e->pool, game, &lim);
    }
    EngineResult r = search_run(&e->search, game, &lim, e->opt.move_overhead, e->lag, report_lines, info, ctx);
    if (helpers) {
        pool_stop(&e->pool);
        r.nodes = search_total_nodes(&e->search);
    }
    const Search *s = &e->search;
    if (plan.active && s->line_count > 1) {
        const RootMove *line = &s->lines[strength_choose(&plan, &s->pos, s->lines, s->line_count, &e->rng)];
        r.best = line->move;
        r.ponder = line->pv_length > 1 ? line->pv[1] : SCH_MOVE_NONE;
        r.score = line->score;
    }
    lag_remember(e, game, limits, us, now_ms() - started);
    atomic_store(&e->search.stop, false);
    return r;
}

void engine_stop(Engine *e) { atomic_store(&e->search.stop, true); }

void engine_ponderhit(Engine *e) { atomic_store(&e->search.pondering, false); }

int engine_evaluate(const SchPosition *pos) { return eval_position(pos, NULL); }

int engine_evaluate_nnue(const Engine *e, const SchPosition *pos) {
    const NnueNet *net = engine_net(e);
    return net ? nnue_evaluate_position(net, pos) : eval_position(pos, NULL);
}

bool engine_load_net(Engine *e, const char *path, char *err, size_t err_size) {
    NnueNet next = {0};
    bool embedded = strcmp(path, NNUE_EMBEDDED_NAME) == 0;
    if (!embedded && strlen(path) >= sizeof e->net_name) {
        snprintf(err, err_size, "the file name is longer than %zu characters", sizeof e->net_name - 1);
        return false;
    }
    if (!embedded && !nnue_load_file(&next, path, err, err_size))
        return false;
    nnue_free(&e->loaded);
    e->loaded = next;
    snprintf(e->net_name, sizeof e->net_name, "%s", path);
    tt_clear(&e->tt); /* its entries hold the old net's static values */
    return true;
}

void engine_describe_net(const Engine *e, char *buf, size_t size) {
    const NnueNet *net = engine_net(e);
    if (!net) {
        snprintf(buf, size, "no net (the built-in one is broken): classical evaluation");
    } else if (!e->loaded.memory) {
        snprintf(buf, size, "%s net 768x%dx2, sha256 %s, fnv1a64 %016" PRIx64 ", %s kernels", NNUE_EMBEDDED_NAME,
                 net->hidden, nnue_default_sha256(), net->checksum, nnue_kernel_name());
    } else {
        snprintf(buf, size, "net %s 768x%dx2, fnv1a64 %016" PRIx64 ", %s kernels", e->net_name, net->hidden,
                 net->checksum, nnue_kernel_name());
    }
}
