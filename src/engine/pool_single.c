/* Engine: the pool of a build without threads (the WebAssembly build chooses this file instead of
 * pool.c). It never has helpers: every search runs on the caller's thread alone, and asking for more
 * threads fails, so the engine keeps one (engine_set_options). */
#include "pool.h"

void pool_init(SearchPool *p) { *p = (SearchPool){0}; }

void pool_free(SearchPool *p) { *p = (SearchPool){0}; }

bool pool_resize(SearchPool *p, int count, TT *tt) {
    (void)tt;
    p->count = 0;
    return count <= 0;
}

void pool_clear(SearchPool *p) { (void)p; }

void pool_start(SearchPool *p, const SchGame *game, const EngineLimits *limits) {
    (void)p;
    (void)game;
    (void)limits;
}

void pool_stop(SearchPool *p) { (void)p; }
