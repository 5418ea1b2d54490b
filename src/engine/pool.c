/* Engine: the helper threads of a multi-threaded search (see pool.h). */
#include "pool.h"

#include <stdlib.h>

typedef struct HelperStart {
    SearchPool *pool;
    int index;           /* 0-based */
    unsigned generation; /* when it was created: a search started later is one to run, even if it
                            started before the thread first looked */
} HelperStart;

/* A helper's life: sleep until a search starts, search until stopped, report idle, repeat. */
static void *helper_main(void *arg) {
    HelperStart start = *(HelperStart *)arg;
    free(arg);
    SearchPool *p = start.pool;
    Search *s = &p->helpers[start.index];
    unsigned seen = start.generation;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->generation == seen && !p->quit)
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->quit)
            break;
        seen = p->generation;
        const SchGame *game = p->game;
        EngineLimits limits = p->limits;
        pthread_mutex_unlock(&p->lock);

        search_run_helper(s, game, &limits, start.index + 1);

        pthread_mutex_lock(&p->lock);
        if (--p->running == 0)
            pthread_cond_signal(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

void pool_init(SearchPool *p) {
    *p = (SearchPool){0};
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->idle, NULL);
}

/* Ends and joins the helper threads (none is searching: callers stop a search first). */
static void end_threads(SearchPool *p) {
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->count; i++)
        pthread_join(p->threads[i], NULL);
    free(p->threads);
    free(p->helpers);
    p->threads = NULL;
    p->helpers = NULL;
    p->count = 0;
    p->quit = false;
}

void pool_free(SearchPool *p) {
    end_threads(p);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->idle);
}

bool pool_resize(SearchPool *p, int count, TT *tt) {
    end_threads(p);
    if (count <= 0)
        return true;
    p->helpers = calloc((size_t)count, sizeof *p->helpers);
    p->threads = calloc((size_t)count, sizeof *p->threads);
    if (!p->helpers || !p->threads) {
        free(p->helpers);
        free(p->threads);
        p->helpers = NULL;
        p->threads = NULL;
        return false;
    }
    for (int i = 0; i < count; i++)
        search_init(&p->helpers[i], tt);
    for (int i = 0; i < count; i++) {
        HelperStart *start = malloc(sizeof *start);
        if (start)
            *start = (HelperStart){.pool = p, .index = i, .generation = p->generation};
        if (!start || pthread_create(&p->threads[i], NULL, helper_main, start) != 0) {
            free(start);
            p->count = i; /* the ones that run are ended and all memory freed */
            end_threads(p);
            return false;
        }
        p->count = i + 1;
    }
    return true;
}

void pool_clear(SearchPool *p) {
    for (int i = 0; i < p->count; i++)
        search_clear(&p->helpers[i]);
}

void pool_start(SearchPool *p, const SchGame *game, const EngineLimits *limits) {
    if (p->count == 0)
        return;
    pthread_mutex_lock(&p->lock);
    for (int i = 0; i < p->count; i++)
        atomic_store(&p->helpers[i].stop, false);
    p->game = game;
    p->limits = *limits;
    p->running = p->count;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
}

void pool_stop(SearchPool *p) {
    if (p->count == 0)
        return;
    for (int i = 0; i < p->count; i++)
        atomic_store(&p->helpers[i].stop, true);
    pthread_mutex_lock(&p->lock);
    while (p->running > 0)
        pthread_cond_wait(&p->idle, &p->lock);
    pthread_mutex_unlock(&p->lock);
}
