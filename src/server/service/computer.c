/* The computer player's worker pool (computer.h): one mutex guards the queues, the done list and which
 * job each worker runs; searches and analyses run outside it. The engines' workers take searches,
 * one worker of its own (no engine) takes the rules' analyses, so a verdict never waits for a search. Stopping a search is engine_stop, which may come
 * before the worker's engine_search has begun (the search clears its stop flag when it starts), so a
 * worker also asks for the stop again from the search's progress callback, and shutdown repeats
 * engine_stop until every worker has left. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, nanosleep, clock_gettime */

#include "computer.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define COMPUTER_MAX_THREADS 8

typedef struct Worker {
    struct Computer *c;
    pthread_t thread;
    bool started;
    Engine *engine;       /* NULL for the rules worker */
    ComputerJob *running; /* under the mutex */
    atomic_bool stop;     /* the running job should end now */
} Worker;

struct Computer {
    int threads; /* 0: synchronous */
    Worker workers[COMPUTER_MAX_THREADS];
    Worker rules; /* the analyses' worker (threads > 0) */
    Engine *sync_engine;
    void (*wake)(void *);
    void *wake_ctx;

    pthread_mutex_t mutex;
    pthread_cond_t cond;                  /* queued work, a cancelled delay, or stopping */
    ComputerJob *queue_head, *queue_tail; /* searches */
    ComputerJob *rules_head, *rules_tail; /* analyses (JOB_DEAD, JOB_FLAG), in the order submitted */
    ComputerJob *done_head, *done_tail;
    int alive; /* workers that have not left their loop */
    bool stopping;
};

ComputerJob *computer_job_new(const Game *game) {
    ComputerJob *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    if (!game_copy(&job->game, game)) {
        free(job);
        return NULL;
    }
    return job;
}

ComputerJob *computer_rules_job_new(ComputerJobKind kind, const Position *pos) {
    ComputerJob *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    /* Only the position: the analyses need no history, so nothing is copied per ply. */
    job->kind = kind;
    job->game.pos = *pos;
    return job;
}

void computer_job_free(ComputerJob *job) {
    if (!job)
        return;
    game_free(&job->game);
    free(job);
}

/* Under the mutex. */
static void done_append(Computer *c, ComputerJob *job) {
    job->next = NULL;
    if (c->done_tail)
        c->done_tail->next = job;
    else
        c->done_head = job;
    c->done_tail = job;
}

static void set_skill(Engine *e, int skill) {
    EngineOptions opt;
    engine_get_options(e, &opt);
    if (opt.skill == skill)
        return;
    opt.skill = skill;
    engine_set_options(e, &opt);
}

/* Progress report of a search: the moment to repeat a stop that came before the search began. */
static void on_info(const EngineInfo *info, void *ctx) {
    (void)info;
    Worker *w = ctx;
    if (atomic_load(&w->stop))
        engine_stop(w->engine);
}

static void run_job(Engine *e, ComputerJob *job, Worker *w) {
    static const WinLimits dead = {false, GAME_DEAD_NODES};
    static const WinLimits flag = {false, GAME_FLAG_NODES};
    switch (job->kind) {
        case JOB_SEARCH:
            set_skill(e, job->skill);
            job->result = engine_search(e, &job->game, &job->limits, w ? on_info : NULL, w);
            break;
        case JOB_DEAD: dead_position(game_position(&job->game), &dead, NULL, job->win); break;
        case JOB_FLAG: can_checkmate(game_position(&job->game), (Color)!job->flagged, &flag, NULL, &job->win[0]); break;
    }
}

/* Waits up to ms for a cancel or shutdown (under the mutex); true when the job may go on. */
static bool delay_job(Computer *c, Worker *w, ComputerJob *job, int ms) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += ms / 1000;
    until.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    while (!c->stopping && !atomic_load(&w->stop) && !job->cancelled)
        if (pthread_cond_timedwait(&c->cond, &c->mutex, &until) == ETIMEDOUT)
            break;
    return !c->stopping && !atomic_load(&w->stop) && !job->cancelled;
}

/* Under the mutex: the queue w takes its jobs from (searches for an engine's worker, analyses for
 * the rules worker), as pointers to its head and tail. */
static ComputerJob **queue_of(Computer *c, const Worker *w, ComputerJob ***tail) {
    *tail = w->engine ? &c->queue_tail : &c->rules_tail;
    return w->engine ? &c->queue_head : &c->rules_head;
}

static void *worker_main(void *arg) {
    Worker *w = arg;
    Computer *c = w->c;
    ComputerJob **tail, **head = queue_of(c, w, &tail);
    pthread_mutex_lock(&c->mutex);
    for (;;) {
        while (!*head && !c->stopping)
            pthread_cond_wait(&c->cond, &c->mutex);
        if (c->stopping)
            break;
        ComputerJob *job = *head;
        *head = job->next;
        if (!*head)
            *tail = NULL;
        w->running = job;
        atomic_store(&w->stop, false);
        bool go = job->delay_ms <= 0 || delay_job(c, w, job, job->delay_ms);
        pthread_mutex_unlock(&c->mutex);

        if (go)
            run_job(w->engine, job, w);

        pthread_mutex_lock(&c->mutex);
        w->running = NULL;
        if (!go || atomic_load(&w->stop))
            job->cancelled = true;
        done_append(c, job);
        pthread_mutex_unlock(&c->mutex);
        /* Outside the lock, as the store does: the wake function may take locks of its own. */
        if (c->wake)
            c->wake(c->wake_ctx);
        pthread_mutex_lock(&c->mutex);
    }
    c->alive--;
    pthread_mutex_unlock(&c->mutex);
    return NULL;
}

/* Workers run with every signal blocked, so SIGINT and SIGTERM reach the event loop's thread. */
static bool start_worker(Worker *w, char *err, size_t err_size) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&w->thread, NULL, worker_main, w);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(err, err_size, "cannot start a computer thread: %s", strerror(rc));
        return false;
    }
    w->started = true;
    return true;
}

static Engine *engine_with_hash(size_t hash_mb) {
    EngineOptions opt;
    engine_options_default(&opt);
    if (hash_mb)
        opt.hash_mb = hash_mb;
    return engine_new(&opt);
}

Computer *computer_start(int threads, size_t hash_mb, void (*wake)(void *), void *wake_ctx, char *err,
                         size_t err_size) {
    if (threads < 0 || threads > COMPUTER_MAX_THREADS) {
        snprintf(err, err_size, "computer threads must be 0..%d", COMPUTER_MAX_THREADS);
        return NULL;
    }
    Computer *c = calloc(1, sizeof *c);
    if (!c) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    c->threads = threads;
    c->wake = wake;
    c->wake_ctx = wake_ctx;
    pthread_mutex_init(&c->mutex, NULL);
    pthread_cond_init(&c->cond, NULL);
    bool ok = true;
    if (threads == 0 && !(c->sync_engine = engine_with_hash(hash_mb)))
        ok = false;
    for (int i = 0; ok && i < threads; i++)
        if (!(c->workers[i].engine = engine_with_hash(hash_mb)))
            ok = false;
    if (!ok)
        snprintf(err, err_size, "out of memory for the computer's engines");
    for (int i = 0; ok && i < threads; i++) {
        c->workers[i].c = c;
        ok = start_worker(&c->workers[i], err, err_size);
        if (ok)
            c->alive++;
    }
    if (ok && threads > 0) {
        c->rules.c = c;
        ok = start_worker(&c->rules, err, err_size);
        if (ok)
            c->alive++;
    }
    if (!ok) {
        computer_free(c);
        return NULL;
    }
    return c;
}

void computer_submit(Computer *c, ComputerJob *job) {
    job->next = NULL;
    job->cancelled = false;
    if (c->threads == 0) {
        run_job(c->sync_engine, job, NULL);
        pthread_mutex_lock(&c->mutex);
        done_append(c, job);
        pthread_mutex_unlock(&c->mutex);
        if (c->wake)
            c->wake(c->wake_ctx);
        return;
    }
    pthread_mutex_lock(&c->mutex);
    bool search = job->kind == JOB_SEARCH;
    ComputerJob **head = search ? &c->queue_head : &c->rules_head, **tail = search ? &c->queue_tail : &c->rules_tail;
    if (*tail)
        (*tail)->next = job;
    else
        *head = job;
    *tail = job;
    pthread_cond_broadcast(&c->cond);
    pthread_mutex_unlock(&c->mutex);
}

ComputerJob *computer_take_done(Computer *c) {
    pthread_mutex_lock(&c->mutex);
    ComputerJob *done = c->done_head;
    c->done_head = c->done_tail = NULL;
    pthread_mutex_unlock(&c->mutex);
    return done;
}

void computer_cancel(Computer *c, uint64_t serial) {
    bool woke = false;
    pthread_mutex_lock(&c->mutex);
    ComputerJob **link = &c->queue_head, *prev = NULL;
    for (ComputerJob *job = c->queue_head; job; prev = job, job = job->next) {
        if (job->serial != serial) {
            link = &job->next;
            continue;
        }
        *link = job->next;
        if (c->queue_tail == job)
            c->queue_tail = prev;
        job->cancelled = true;
        done_append(c, job);
        woke = true;
        break;
    }
    for (int i = 0; !woke && i < c->threads; i++) {
        Worker *w = &c->workers[i];
        if (w->running && w->running->serial == serial) {
            atomic_store(&w->stop, true);
            engine_stop(w->engine);
            pthread_cond_broadcast(&c->cond); /* ends a testing delay */
        }
    }
    pthread_mutex_unlock(&c->mutex);
    if (woke && c->wake)
        c->wake(c->wake_ctx);
}

static void free_list(ComputerJob *job) {
    while (job) {
        ComputerJob *next = job->next;
        computer_job_free(job);
        job = next;
    }
}

void computer_free(Computer *c) {
    if (!c)
        return;
    pthread_mutex_lock(&c->mutex);
    c->stopping = true;
    pthread_cond_broadcast(&c->cond);
    /* A stop can be lost when it comes just before a search begins: repeat it until all have left. */
    while (c->alive > 0) {
        for (int i = 0; i < c->threads; i++)
            if (c->workers[i].running) {
                atomic_store(&c->workers[i].stop, true);
                engine_stop(c->workers[i].engine);
            }
        pthread_mutex_unlock(&c->mutex);
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
        pthread_mutex_lock(&c->mutex);
    }
    pthread_mutex_unlock(&c->mutex);
    for (int i = 0; i < c->threads; i++) {
        if (c->workers[i].started)
            pthread_join(c->workers[i].thread, NULL);
        if (c->workers[i].engine)
            engine_free(c->workers[i].engine);
    }
    if (c->rules.started) /* it ends its analysis first: bounded by the analysis's node budget */
        pthread_join(c->rules.thread, NULL);
    if (c->sync_engine)
        engine_free(c->sync_engine);
    free_list(c->queue_head);
    free_list(c->rules_head);
    free_list(c->done_head);
    pthread_cond_destroy(&c->cond);
    pthread_mutex_destroy(&c->mutex);
    free(c);
}
