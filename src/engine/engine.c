/* Engine facade: options, lifetime and the public entry points of engine.h.
 *
 * Randomness (only weaker levels use it) comes from a generator inside the Engine, seeded in
 * engine_new() from the clock, so two engines vary their play; engine_set_seed() (engine_internal.h)
 * makes an engine deterministic for tests and reproducible matches.
 *
 * The stop flag is cleared when a search ends, not when it begins: a stop that arrives between a
 * caller's "go" and the start of engine_search() on another thread still ends that search.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"
#include "eval.h"
#include "rng.h"
#include "schach/engine.h"
#include "search.h"
#include "strength.h"
#include "timeman.h"

struct Engine {
    EngineOptions opt;
    uint64_t rng;
    Search search; /* large: the engine is allocated on the heap */
};

static size_t clamp_hash(size_t mb) { return mb < 1 ? 1 : mb > 65536 ? 65536 : mb; }

void engine_options_default(EngineOptions *opt) {
    *opt = (EngineOptions){
        .hash_mb = 16, .threads = 1, .move_overhead = 10, .skill = 20, .limit_strength = false, .elo = 1500};
}

static void normalise(EngineOptions *opt) {
    opt->hash_mb = clamp_hash(opt->hash_mb);
    opt->threads = 1;
    opt->move_overhead = opt->move_overhead < 0 ? 0 : opt->move_overhead;
    opt->skill = opt->skill < 0 ? 0 : opt->skill > 20 ? 20 : opt->skill;
    opt->elo = opt->elo < ENGINE_ELO_MIN ? ENGINE_ELO_MIN : opt->elo > ENGINE_ELO_MAX ? ENGINE_ELO_MAX : opt->elo;
}

Engine *engine_new(const EngineOptions *opt) {
    schach_init();
    Engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    engine_options_default(&e->opt);
    if (opt)
        e->opt = *opt;
    normalise(&e->opt);
    if (!search_init(&e->search, e->opt.hash_mb)) {
        free(e);
        return NULL;
    }
    e->rng = rng_seed((uint64_t)tm_now_ms() ^ (uint64_t)(uintptr_t)e);
    return e;
}

void engine_free(Engine *e) {
    if (!e)
        return;
    search_release(&e->search);
    free(e);
}

bool engine_set_options(Engine *e, const EngineOptions *opt) {
    EngineOptions next = *opt;
    normalise(&next);
    if (next.hash_mb != e->opt.hash_mb && !search_set_hash(&e->search, next.hash_mb))
        return false;
    e->opt = next;
    return true;
}

void engine_get_options(const Engine *e, EngineOptions *opt) { *opt = e->opt; }

void engine_clear(Engine *e) { search_clear(&e->search); }

void engine_set_seed(Engine *e, uint64_t seed) { e->rng = rng_seed(seed); }

EngineResult engine_search(Engine *e, const Game *game, const EngineLimits *limits, EngineInfoFn info, void *ctx) {
    StrengthPlan plan;
    strength_plan(&e->opt, &plan);
    EngineLimits lim = *limits;
    strength_limit(&plan, &lim);
    int report_lines = limits->multipv > 0 ? limits->multipv : 1;
    EngineResult r = search_run(&e->search, game, &lim, e->opt.move_overhead, report_lines, info, ctx);
    const Search *s = &e->search;
    if (plan.active && s->line_count > 1) {
        const RootMove *line = &s->lines[strength_choose(&plan, &s->pos, s->lines, s->line_count, &e->rng)];
        r.best = line->move;
        r.ponder = line->pv_length > 1 ? line->pv[1] : MOVE_NONE;
        r.score = line->score;
    }
    atomic_store(&e->search.stop, false);
    return r;
}

void engine_stop(Engine *e) { atomic_store(&e->search.stop, true); }

void engine_ponderhit(Engine *e) { atomic_store(&e->search.pondering, false); }

int engine_evaluate(const Position *pos) { return eval_position(pos, NULL); }
