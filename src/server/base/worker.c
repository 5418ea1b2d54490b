/* The worker primitive (worker.h): one mutex guards the queue, the done list and which jobs each thread
 * runs; jobs run outside it. The only pthread_create of the server is here. */
#define _POSIX_C_SOURCE 200809L /* pthread_sigmask, clock_gettime, nanosleep */

#include "worker.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct WorkerThread {
    Worker *w;
    int index;
    pthread_t thread;
    void *running;         /* the first job of the batch it runs (under the lock), NULL when none */
    int running_n;         /* how many */
    atomic_bool cancelled; /* the batch it runs was cancelled (or the worker stops, cancel_on_stop) */
} WorkerThread;

struct Worker {
    WorkerConfig cfg; /* idle_ms under the mutex, the rest fixed */
    pthread_mutex_t mutex;
    pthread_cond_t cond; /* queued jobs, stopping, a cancel (ends a pause), a new idle_ms */
    void *queue_head, *queue_tail;
    size_t queued;
    void *done_head, *done_tail;
    bool stopping;
    int alive;   /* threads that have not left their loop */
    int started; /* threads[0 .. started-1] were started (the creator's, for joining) */
    WorkerThread *threads;
};

/* ---- the jobs' own links ---- */

static void *next_of(const Worker *w, const void *job) {
    void *next;
    memcpy(&next, (const char *)job + w->cfg.next_offset, sizeof next);
    return next;
}

static void set_next(const Worker *w, void *job, void *next) {
    memcpy((char *)job + w->cfg.next_offset, &next, sizeof next);
}

/* Appends first..last to a list given by its head and tail. */
static void append(const Worker *w, void **head, void **tail, void *first, void *last) {
    if (*tail)
        set_next(w, *tail, first);
    else
        *head = first;
    *tail = last;
}

static void free_list(Worker *w, void *job) {
    while (job) {
        void *next = next_of(w, job);
        w->cfg.free_job(job);
        job = next;
    }
}

/* The worker whose done list takes w's finished jobs. */
static Worker *sink_of(Worker *w) { return w->cfg.done_to ? w->cfg.done_to : w; }

/* Adds first..last to the done list of w's sink and wakes its owner. Without the lock. */
static void deliver(Worker *w, void *first, void *last) {
    if (!w->cfg.hand_back) {
        if (w->cfg.free_job)
            free_list(w, first);
        return;
    }
    Worker *d = sink_of(w);
    pthread_mutex_lock(&d->mutex);
    append(d, &d->done_head, &d->done_tail, first, last);
    pthread_mutex_unlock(&d->mutex);
    /* Outside the lock: the wake function may take the mutex of whoever it wakes. */
    if (d->cfg.wake)
        d->cfg.wake(d->cfg.wake_ctx);
}

static struct timespec after_ms(int ms) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* Under the lock: sets t's cancel flag and tells the hook about each job t runs. */
static void cancel_running(Worker *w, WorkerThread *t) {
    atomic_store(&t->cancelled, true);
    void *job = t->running;
    for (int i = 0; job && i < t->running_n; i++, job = next_of(w, job))
        if (w->cfg.cancel)
            w->cfg.cancel(w->cfg.owner, job, WORKER_RUNNING, t->index);
}

/* ---- the threads ---- */

/* Under the lock: waits for a job or stopping, running idle() whenever idle_ms pass without one. */
static void wait_for_work(Worker *w) {
    while (!w->queue_head && !w->stopping) {
        if (!w->cfg.idle || w->cfg.idle_ms <= 0) {
            pthread_cond_wait(&w->cond, &w->mutex);
            continue;
        }
        struct timespec until = after_ms(w->cfg.idle_ms);
        if (pthread_cond_timedwait(&w->cond, &w->mutex, &until) == 0 || w->stopping)
            continue; /* woken: wait again, with the idle_ms of now */
        pthread_mutex_unlock(&w->mutex);
        w->cfg.idle(w, w->cfg.owner);
        pthread_mutex_lock(&w->mutex);
    }
}

static void *thread_main(void *arg) {
    WorkerThread *t = arg;
    Worker *w = t->w;
    int max = w->cfg.batch_max > 1 ? w->cfg.batch_max : 1;
    if (w->cfg.start)
        w->cfg.start(w, w->cfg.owner, t->index);
    pthread_mutex_lock(&w->mutex);
    for (;;) {
        wait_for_work(w);
        if (!w->queue_head || (w->stopping && !w->cfg.drain))
            break; /* stopping, and (when draining) everything queued is done */
        void *first = w->queue_head, *last = first;
        int n = 1;
        for (void *next; n < max && (next = next_of(w, last)) != NULL; n++)
            last = next;
        w->queue_head = next_of(w, last);
        if (!w->queue_head)
            w->queue_tail = NULL;
        set_next(w, last, NULL);
        w->queued -= (size_t)n;
        t->running = first;
        t->running_n = n;
        atomic_store(&t->cancelled, false);
        pthread_mutex_unlock(&w->mutex);

        w->cfg.run(w, w->cfg.owner, first, n, t->index);

        pthread_mutex_lock(&w->mutex);
        t->running = NULL;
        if (!w->cfg.hand_back)
            continue; /* the jobs are run()'s now */
        if (atomic_load(&t->cancelled) && w->cfg.cancel)
            for (void *job = first; job; job = next_of(w, job))
                w->cfg.cancel(w->cfg.owner, job, WORKER_RAN, t->index);
        if (sink_of(w) == w) {
            /* In the same hold of the lock: a cancel finds the job running or done, never neither. */
            append(w, &w->done_head, &w->done_tail, first, last);
            pthread_mutex_unlock(&w->mutex);
            if (w->cfg.wake)
                w->cfg.wake(w->cfg.wake_ctx);
        } else {
            pthread_mutex_unlock(&w->mutex);
            deliver(w, first, last);
        }
        pthread_mutex_lock(&w->mutex);
    }
    w->alive--;
    pthread_mutex_unlock(&w->mutex);
    return NULL;
}

Worker *worker_new(const WorkerConfig *cfg, char *err, size_t err_size) {
    Worker *w = calloc(1, sizeof *w);
    int threads = cfg->threads > 0 ? cfg->threads : 0;
    if (w && threads)
        w->threads = calloc((size_t)threads, sizeof *w->threads);
    if (!w || (threads && !w->threads)) {
        free(w);
        snprintf(err, err_size, "%s", "out of memory");
        return NULL;
    }
    w->cfg = *cfg;
    w->cfg.threads = threads;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&w->cond, &attr);
    pthread_condattr_destroy(&attr);
    pthread_mutex_init(&w->mutex, NULL);

    /* Every signal blocked in the threads: the process's signals (SIGINT, SIGTERM) reach the loop. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = 0;
    for (int i = 0; i < threads; i++) {
        WorkerThread *t = &w->threads[i];
        t->w = w;
        t->index = i;
        atomic_init(&t->cancelled, false);
        pthread_mutex_lock(&w->mutex);
        w->alive++;
        pthread_mutex_unlock(&w->mutex);
        rc = pthread_create(&t->thread, NULL, thread_main, t);
        if (rc != 0) {
            pthread_mutex_lock(&w->mutex);
            w->alive--;
            pthread_mutex_unlock(&w->mutex);
            break;
        }
        w->started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        snprintf(err, err_size, "%s", strerror(rc));
        worker_free(w);
        return NULL;
    }
    return w;
}

/* ---- the loop's side ---- */

bool worker_submit(Worker *w, void *job) {
    set_next(w, job, NULL);
    if (w->cfg.threads <= 0) {
        w->cfg.run(w, w->cfg.owner, job, 1, 0);
        if (w->cfg.hand_back)
            deliver(w, job, job);
        return true;
    }
    pthread_mutex_lock(&w->mutex);
    bool room = !w->stopping && (w->cfg.queue_max <= 0 || w->queued < (size_t)w->cfg.queue_max);
    if (room) {
        append(w, &w->queue_head, &w->queue_tail, job, job);
        w->queued++;
        /* A pool's threads may wait for other reasons (a pause): each must see the job. */
        if (w->cfg.threads > 1)
            pthread_cond_broadcast(&w->cond);
        else
            pthread_cond_signal(&w->cond);
    }
    pthread_mutex_unlock(&w->mutex);
    return room;
}

void *worker_take_done(Worker *w) {
    pthread_mutex_lock(&w->mutex);
    void *done = w->done_head;
    w->done_head = w->done_tail = NULL;
    pthread_mutex_unlock(&w->mutex);
    return done;
}

void worker_hand_back(Worker *w, void *jobs) {
    if (!jobs)
        return;
    void *last = jobs;
    for (void *next; (next = next_of(w, last)) != NULL;)
        last = next;
    deliver(w, jobs, last);
}

bool worker_cancel(Worker *w, bool (*match)(const void *job, void *ctx), void *ctx) {
    bool found = false;
    void *skipped = NULL, *skipped_tail = NULL;
    pthread_mutex_lock(&w->mutex);
    void *prev = NULL;
    for (void *job = w->queue_head, *next; job; job = next) {
        next = next_of(w, job);
        if (!match(job, ctx)) {
            prev = job;
            continue;
        }
        found = true;
        if (w->cfg.cancel)
            w->cfg.cancel(w->cfg.owner, job, WORKER_QUEUED, 0);
        if (!w->cfg.skip_cancelled) {
            prev = job;
            continue;
        }
        if (prev)
            set_next(w, prev, next);
        else
            w->queue_head = next;
        if (w->queue_tail == job)
            w->queue_tail = prev;
        w->queued--;
        set_next(w, job, NULL);
        append(w, &skipped, &skipped_tail, job, job);
    }
    for (int i = 0; i < w->cfg.threads; i++) {
        WorkerThread *t = &w->threads[i];
        void *job = t->running;
        for (int k = 0; job && k < t->running_n; k++, job = next_of(w, job))
            if (match(job, ctx)) {
                found = true;
                atomic_store(&t->cancelled, true);
                if (w->cfg.cancel)
                    w->cfg.cancel(w->cfg.owner, job, WORKER_RUNNING, t->index);
                pthread_cond_broadcast(&w->cond); /* ends a pause */
            }
    }
    for (void *job = w->done_head; job; job = next_of(w, job))
        if (match(job, ctx)) {
            found = true;
            if (w->cfg.cancel)
                w->cfg.cancel(w->cfg.owner, job, WORKER_DONE, 0);
        }
    pthread_mutex_unlock(&w->mutex);
    if (skipped)
        deliver(w, skipped, skipped_tail);
    return found;
}

bool worker_cancelled(Worker *w, int thread) {
    return thread >= 0 && thread < w->cfg.threads && atomic_load(&w->threads[thread].cancelled);
}

bool worker_pause(Worker *w, int thread, int ms) {
    if (thread < 0 || thread >= w->cfg.threads)
        return true; /* no thread: nothing can cancel a job while it runs */
    WorkerThread *t = &w->threads[thread];
    struct timespec until = after_ms(ms);
    pthread_mutex_lock(&w->mutex);
    while (!w->stopping && !atomic_load(&t->cancelled))
        if (pthread_cond_timedwait(&w->cond, &w->mutex, &until) == ETIMEDOUT)
            break;
    bool go = !w->stopping && !atomic_load(&t->cancelled);
    pthread_mutex_unlock(&w->mutex);
    return go;
}

size_t worker_queued(Worker *w) {
    if (!w)
        return 0;
    pthread_mutex_lock(&w->mutex);
    size_t n = w->queued;
    pthread_mutex_unlock(&w->mutex);
    return n;
}

void worker_set_idle_ms(Worker *w, int ms) {
    pthread_mutex_lock(&w->mutex);
    w->cfg.idle_ms = ms;
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}

/* ---- stopping ---- */

/* Under the lock: with cancel_on_stop, cancels every running job. */
static void cancel_all_running(Worker *w) {
    if (!w->cfg.cancel_on_stop)
        return;
    for (int i = 0; i < w->cfg.threads; i++)
        if (w->threads[i].running)
            cancel_running(w, &w->threads[i]);
}

void worker_stop(Worker *w) {
    if (!w)
        return;
    pthread_mutex_lock(&w->mutex);
    w->stopping = true;
    cancel_all_running(w);
    pthread_cond_broadcast(&w->cond);
    pthread_mutex_unlock(&w->mutex);
}

void worker_free(Worker *w) {
    if (!w)
        return;
    worker_stop(w);
    if (w->cfg.cancel_on_stop) {
        /* A cancel can be lost when it comes just before a job begins: repeat it until all have left. */
        pthread_mutex_lock(&w->mutex);
        while (w->alive > 0) {
            cancel_all_running(w);
            pthread_mutex_unlock(&w->mutex);
            struct timespec pause = {0, 2000000};
            nanosleep(&pause, NULL);
            pthread_mutex_lock(&w->mutex);
        }
        pthread_mutex_unlock(&w->mutex);
    }
    for (int i = 0; i < w->started; i++)
        pthread_join(w->threads[i].thread, NULL);
    if (w->cfg.free_job) {
        free_list(w, w->queue_head);
        free_list(w, w->done_head);
    }
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mutex);
    free(w->threads);
    free(w);
}

/* ---- one long task ---- */

typedef struct WorkerTask {
    struct WorkerTask *next;
    void (*fn)(void *arg);
    void *arg;
} WorkerTask;

static void run_task(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)owner, (void)n, (void)thread;
    WorkerTask *task = jobs;
    task->fn(task->arg);
    free(task);
}

Worker *worker_start_task(void (*fn)(void *arg), void *arg, char *err, size_t err_size) {
    WorkerTask *task = malloc(sizeof *task);
    if (!task) {
        snprintf(err, err_size, "%s", "out of memory");
        return NULL;
    }
    *task = (WorkerTask){.fn = fn, .arg = arg};
    WorkerConfig cfg = {
        .threads = 1, .next_offset = offsetof(WorkerTask, next), .drain = true, .run = run_task, .free_job = free};
    Worker *w = worker_new(&cfg, err, err_size);
    if (!w) {
        free(task);
        return NULL;
    }
    worker_submit(w, task);
    worker_stop(w); /* the thread leaves once the task returned */
    return w;
}
