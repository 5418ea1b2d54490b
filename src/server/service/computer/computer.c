/* The computer player's worker pool (computer.h): two workers (worker.h), the searches' (a pool of
 * threads, an engine each) and the analyses' (one thread, no engine), so a verdict never waits for a
 * search; both hand back through the searches' done list. Stopping a search is engine_stop, which may
 * come before the thread's engine_search has begun (the search clears its stop flag when it starts),
 * so a search also asks for the stop again from its progress callback, and shutdown repeats
 * engine_stop until every thread has left. */
#include "computer.h"
#include "base/base.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#define COMPUTER_MAX_THREADS 8

struct Computer {
    int threads;                           /* 0: synchronous */
    Engine *engines[COMPUTER_MAX_THREADS]; /* one per search thread; [0] alone when synchronous */
    Worker *search;                        /* the searches: threads threads, and the done list of both */
    Worker *rules;                         /* the analyses: one thread, handing back into search's list */
};

ComputerJob *computer_job_new(const SchGame *game) {
    ComputerJob *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    if (!sch_game_copy(&job->game, game)) {
        free(job);
        return NULL;
    }
    return job;
}

ComputerJob *computer_rules_job_new(ComputerJobKind kind, const SchPosition *pos) {
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
    sch_game_free(&job->game);
    free(job);
}

static void set_skill(Engine *e, int skill) {
    EngineOptions opt;
    engine_get_options(e, &opt);
    if (opt.skill == skill)
        return;
    opt.skill = skill;
    engine_set_options(e, &opt);
}

/* What a search's progress reports need: where it runs. */
typedef struct SearchThread {
    Worker *w;
    int thread;
    Engine *engine;
} SearchThread;

/* Progress report of a search: the moment to repeat a stop that came before the search began. */
static void on_info(const EngineInfo *info, void *ctx) {
    (void)info;
    SearchThread *t = ctx;
    if (worker_cancelled(t->w, t->thread))
        engine_stop(t->engine);
}

/* A search on one of the search worker's threads (or, synchronous, on the caller's). */
static void run_search(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)n;
    Computer *c = owner;
    ComputerJob *job = jobs;
    /* Testing: the delay is cut short by a cancel or shutdown, and then the job is not searched. */
    if (job->delay_ms > 0 && !worker_pause(w, thread, job->delay_ms)) {
        job->cancelled = true;
        return;
    }
    SearchThread t = {w, thread, c->engines[thread]};
    set_skill(t.engine, job->skill);
    job->result = engine_search(t.engine, &job->game, &job->limits, c->threads ? on_info : NULL, &t);
}

/* An analysis on the rules worker's thread: bounded by its node budget, never cancelled. */
static void run_rules(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)owner, (void)n, (void)thread;
    static const SchWinLimits dead = {false, SCH_GAME_DEAD_NODES};
    static const SchWinLimits flag = {false, SCH_GAME_FLAG_NODES};
    ComputerJob *job = jobs;
    if (job->kind == JOB_DEAD)
        sch_dead_position(sch_game_position(&job->game), &dead, NULL, job->win);
    else
        sch_can_checkmate(sch_game_position(&job->game), (SchColor)!job->flagged, &flag, NULL, &job->win[0]);
}

/* A search cancelled: queued, it comes back unsearched; running, its engine is told to stop (again
 * from its progress reports); either way it comes back marked. One already done is left alone. */
static void cancel_search(void *owner, void *job, WorkerState state, int thread) {
    Computer *c = owner;
    if (state == WORKER_RUNNING)
        engine_stop(c->engines[thread]);
    else if (state != WORKER_DONE)
        ((ComputerJob *)job)->cancelled = true;
}

static void free_job(void *job) { computer_job_free(job); }

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
    bool ok = true;
    for (int i = 0; ok && i < (threads ? threads : 1); i++)
        if (!(c->engines[i] = engine_with_hash(hash_mb)))
            ok = false;
    if (!ok)
        snprintf(err, err_size, "out of memory for the computer's engines");
    /* Stopping drops the queued jobs and stops the searches that run (a stop can be lost when it comes
     * just before a search begins: the worker repeats it until every thread has left). */
    WorkerConfig search = {.threads = threads,
                           .next_offset = offsetof(ComputerJob, next),
                           .hand_back = true,
                           .skip_cancelled = true,
                           .cancel_on_stop = true,
                           .owner = c,
                           .run = run_search,
                           .cancel = cancel_search,
                           .free_job = free_job,
                           .wake = wake,
                           .wake_ctx = wake_ctx};
    char why[200];
    if (ok && !(c->search = worker_new(&search, why, sizeof why))) {
        snprintf(err, err_size, "cannot start a computer thread: %s", why);
        ok = false;
    }
    /* The analyses: a running one finishes at shutdown (bounded by its node budget). */
    WorkerConfig rules = {.threads = threads ? 1 : 0,
                          .next_offset = offsetof(ComputerJob, next),
                          .hand_back = true,
                          .done_to = c->search,
                          .owner = c,
                          .run = run_rules,
                          .free_job = free_job};
    if (ok && !(c->rules = worker_new(&rules, why, sizeof why))) {
        snprintf(err, err_size, "cannot start a computer thread: %s", why);
        ok = false;
    }
    if (!ok) {
        computer_free(c);
        return NULL;
    }
    return c;
}

void computer_submit(Computer *c, ComputerJob *job) {
    job->cancelled = false;
    worker_submit(job->kind == JOB_SEARCH ? c->search : c->rules, job); /* no bound */
}

ComputerJob *computer_take_done(Computer *c) { return worker_take_done(c->search); }

static bool has_serial(const void *job, void *serial) {
    return ((const ComputerJob *)job)->serial == *(uint64_t *)serial;
}

void computer_cancel(Computer *c, uint64_t serial) { worker_cancel(c->search, has_serial, &serial); }

void computer_free(Computer *c) {
    if (!c)
        return;
    worker_stop(c->search);
    worker_stop(c->rules);
    worker_free(c->rules); /* first: it hands back into search's list */
    worker_free(c->search);
    for (int i = 0; i < COMPUTER_MAX_THREADS; i++)
        if (c->engines[i])
            engine_free(c->engines[i]);
    free(c);
}
