/* Engine: the helper threads of a multi-threaded search (lazy SMP).
 *
 * With Threads = n the Engine's own search runs on the caller's thread and n - 1 helpers search the
 * same position on threads of their own, sharing the transposition table and nothing else. The
 * helpers never report and never decide the move: they fill the table with results the main thread
 * then finds, which makes it reach deeper in the same time. The threads are created when the option
 * changes and sleep between searches, so a search allocates nothing.
 */
#ifndef SCHACH_ENGINE_POOL_H
#define SCHACH_ENGINE_POOL_H

#include <pthread.h>

#include "search.h"

typedef struct SearchPool {
    int count;       /* helper threads */
    Search *helpers; /* count searches (heap) */
    pthread_t *threads;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* a new search or quit */
    pthread_cond_t idle; /* running fell to 0 */
    unsigned generation; /* counts started searches */
    int running;         /* helpers still searching the current one */
    bool quit;
    const SchGame *game; /* the search the helpers run */
    EngineLimits limits;
} SearchPool;

/* Prepares an empty pool (no helpers). */
void pool_init(SearchPool *p);
/* Ends the helper threads and frees them. */
void pool_free(SearchPool *p);
/* Replaces the helpers by count new ones sharing tt; false (with no helpers) when the memory or
 * the threads cannot be had. Only between searches. */
bool pool_resize(SearchPool *p, int count, TT *tt);
/* Forgets the helpers' move ordering statistics. Only between searches. */
void pool_clear(SearchPool *p);

/* Starts the helpers on game (which must stay unchanged until pool_stop) within limits' depth. */
void pool_start(SearchPool *p, const SchGame *game, const EngineLimits *limits);
/* Tells the helpers to stop and waits until they have. */
void pool_stop(SearchPool *p);

#endif
