/* The worker primitive (src/server/base/worker.c): order, the bounded queue, batches, a pool, no
 * threads, cancellation before and during a job and after it, stopping (drained, dropped, cancelled),
 * the done list and its wake, idle work, one-task threads. Also run under ThreadSanitizer (label
 * tsan). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/worker.h"

typedef struct Job {
    int id;
    struct Job *next; /* not first: the worker goes by next_offset */
    bool block;       /* run() waits for the gate */
    bool pause;       /* run() pauses 10 s (cut short by a cancel or stop) */
    int ran;          /* how often run() had it */
    int batch;        /* the size of the batch it came in */
    int thread;
    bool paused_fully;
    bool saw_cancel;   /* worker_cancelled() was true after the pause */
    int hooks[4];      /* cancel hook calls by WorkerState */
    atomic_int *freed; /* counts free_job calls */
} Job;

/* The owner: a gate that holds blocking jobs, what ran, and the deliveries. */
typedef struct Owner {
    pthread_mutex_t mutex;
    pthread_cond_t cond;
    bool open;
    int blocked; /* jobs waiting at the gate now */
    int paused;  /* jobs that began their pause */
    int order[512];
    int ran;
    int batches[64];
    int nbatches;
    int wakes;
    int idles;
    int starts;
    atomic_int freed;
} Owner;

static void owner_init(Owner *o) {
    memset(o, 0, sizeof *o);
    pthread_mutex_init(&o->mutex, NULL);
    pthread_cond_init(&o->cond, NULL);
}

static void owner_destroy(Owner *o) {
    pthread_mutex_destroy(&o->mutex);
    pthread_cond_destroy(&o->cond);
}

static struct timespec deadline(int ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000L;
    }
    return t;
}

/* Waits (10 s at most) until *value reaches at least want, under the owner's mutex. */
static void wait_for(Owner *o, const int *value, int want) {
    struct timespec until = deadline(10000);
    pthread_mutex_lock(&o->mutex);
    while (*value < want)
        if (pthread_cond_timedwait(&o->cond, &o->mutex, &until) != 0)
            break;
    int got = *value;
    pthread_mutex_unlock(&o->mutex);
    assert_true(got >= want);
}

static void open_gate(Owner *o) {
    pthread_mutex_lock(&o->mutex);
    o->open = true;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->mutex);
}

static void run(Worker *w, void *owner, void *jobs, int n, int thread) {
    Owner *o = owner;
    pthread_mutex_lock(&o->mutex);
    if (o->nbatches < 64)
        o->batches[o->nbatches++] = n;
    pthread_mutex_unlock(&o->mutex);
    int count = 0;
    for (Job *j = jobs; j; j = j->next, count++) {
        j->ran++;
        j->batch = n;
        j->thread = thread;
        if (j->block) {
            pthread_mutex_lock(&o->mutex);
            o->blocked++;
            pthread_cond_broadcast(&o->cond);
            while (!o->open)
                pthread_cond_wait(&o->cond, &o->mutex);
            o->blocked--;
            pthread_mutex_unlock(&o->mutex);
        }
        if (j->pause) {
            pthread_mutex_lock(&o->mutex);
            o->paused++;
            pthread_cond_broadcast(&o->cond);
            pthread_mutex_unlock(&o->mutex);
            j->paused_fully = worker_pause(w, thread, 10000);
            j->saw_cancel = worker_cancelled(w, thread);
        }
        pthread_mutex_lock(&o->mutex);
        if (o->ran < 512)
            o->order[o->ran] = j->id;
        o->ran++;
        pthread_cond_broadcast(&o->cond);
        pthread_mutex_unlock(&o->mutex);
    }
    assert_int_equal(count, n);
}

static void wake(void *ctx) {
    Owner *o = ctx;
    pthread_mutex_lock(&o->mutex);
    o->wakes++;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->mutex);
}

static void cancel_hook(void *owner, void *job, WorkerState state, int thread) {
    (void)owner, (void)thread;
    ((Job *)job)->hooks[state]++;
}

static void free_job(void *job) {
    Job *j = job;
    atomic_fetch_add(j->freed, 1);
    j->next = NULL;
}

static WorkerConfig config(Owner *o, int threads) {
    return (WorkerConfig){.threads = threads,
                          .next_offset = offsetof(Job, next),
                          .hand_back = true,
                          .owner = o,
                          .run = run,
                          .cancel = cancel_hook,
                          .wake = wake,
                          .wake_ctx = o};
}

static Worker *start(const WorkerConfig *cfg) {
    char err[200] = "";
    Worker *w = worker_new(cfg, err, sizeof err);
    assert_non_null(w);
    return w;
}

static int get(Owner *o, const int *value) {
    pthread_mutex_lock(&o->mutex);
    int v = *value;
    pthread_mutex_unlock(&o->mutex);
    return v;
}

/* Takes the done list until count jobs came back, waiting for a wake whenever it is short; fills out in
 * order. */
static int take(Worker *w, Owner *o, Job **out, int count) {
    int got = 0;
    for (;;) {
        int seen = get(o, &o->wakes); /* a delivery after the take below wakes after this */
        for (Job *j = worker_take_done(w); j; j = j->next)
            out[got++] = j;
        if (got >= count)
            return got;
        wait_for(o, &o->wakes, seen + 1);
    }
}

static void make_jobs(Job *jobs, int n, Owner *o) {
    memset(jobs, 0, sizeof *jobs * (size_t)n);
    for (int i = 0; i < n; i++) {
        jobs[i].id = i;
        jobs[i].freed = &o->freed;
    }
}

static void test_order_and_wake(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    Worker *w = start(&(WorkerConfig){0});
    worker_free(w); /* a worker with nothing configured starts and stops */
    WorkerConfig cfg = config(&o, 1);
    w = start(&cfg);
    Job jobs[100], *back[100];
    make_jobs(jobs, 100, &o);
    for (int i = 0; i < 100; i++)
        assert_true(worker_submit(w, &jobs[i]));
    assert_int_equal(take(w, &o, back, 100), 100);
    for (int i = 0; i < 100; i++) {
        assert_int_equal(o.order[i], i);     /* run in the order submitted */
        assert_ptr_equal(back[i], &jobs[i]); /* and handed back in it */
        assert_int_equal(jobs[i].ran, 1);
        assert_int_equal(jobs[i].batch, 1);
    }
    assert_null(back[99]->next);
    int wakes = get(&o, &o.wakes);
    assert_true(wakes >= 1 && wakes <= 100); /* a wake after each delivery */
    assert_null(worker_take_done(w));
    assert_int_equal(worker_queued(w), 0);
    worker_free(w);
    owner_destroy(&o);
}

static void test_bounded_queue(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    cfg.queue_max = 2;
    Worker *w = start(&cfg);
    Job jobs[5], *back[5];
    make_jobs(jobs, 5, &o);
    jobs[0].block = true;
    assert_true(worker_submit(w, &jobs[0]));
    wait_for(&o, &o.blocked, 1); /* taken: no longer queued */
    assert_true(worker_submit(w, &jobs[1]));
    assert_true(worker_submit(w, &jobs[2]));
    assert_int_equal(worker_queued(w), 2);
    assert_false(worker_submit(w, &jobs[3])); /* full: refused, the job stays the caller's */
    assert_int_equal(jobs[3].ran, 0);
    open_gate(&o);
    assert_int_equal(take(w, &o, back, 3), 3);
    assert_true(worker_submit(w, &jobs[3])); /* room again */
    assert_int_equal(take(w, &o, back, 1), 1);
    assert_ptr_equal(back[0], &jobs[3]);
    worker_stop(w);
    assert_false(worker_submit(w, &jobs[4])); /* stopping: refused */
    worker_free(w);
    owner_destroy(&o);
}

static void test_batches(void **state) {
    (void)state;
    for (int mode = 0; mode < 2; mode++) {
        Owner o;
        owner_init(&o);
        WorkerConfig cfg = config(&o, 1);
        cfg.batch_max = mode == 0 ? INT_MAX : 4;
        Worker *w = start(&cfg);
        Job jobs[11], *back[11];
        make_jobs(jobs, 11, &o);
        jobs[0].block = true;
        assert_true(worker_submit(w, &jobs[0]));
        wait_for(&o, &o.blocked, 1);
        for (int i = 1; i < 11; i++)
            assert_true(worker_submit(w, &jobs[i]));
        assert_int_equal(worker_queued(w), 10);
        open_gate(&o);
        assert_int_equal(take(w, &o, back, 11), 11);
        for (int i = 0; i < 11; i++)
            assert_ptr_equal(back[i], &jobs[i]); /* one list, in the order submitted */
        /* Everything that waited as one batch, or batches of at most batch_max. */
        if (mode == 0) {
            assert_int_equal(o.nbatches, 2);
            assert_int_equal(o.batches[1], 10);
        } else {
            assert_int_equal(o.nbatches, 4);
            assert_int_equal(o.batches[1], 4);
            assert_int_equal(o.batches[2], 4);
            assert_int_equal(o.batches[3], 2);
        }
        worker_free(w);
        owner_destroy(&o);
    }
}

static void test_pool(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 4);
    Worker *w = start(&cfg);
    /* Four blocking jobs: each thread holds one, so all four run at once. */
    Job jobs[200], *back[200];
    make_jobs(jobs, 200, &o);
    for (int i = 0; i < 4; i++)
        jobs[i].block = true;
    for (int i = 0; i < 200; i++)
        assert_true(worker_submit(w, &jobs[i]));
    wait_for(&o, &o.blocked, 4);
    open_gate(&o);
    assert_int_equal(take(w, &o, back, 200), 200);
    bool thread_seen[4] = {false};
    for (int i = 0; i < 200; i++) {
        assert_int_equal(jobs[i].ran, 1);
        assert_true(jobs[i].thread >= 0 && jobs[i].thread < 4);
        if (i < 4)
            thread_seen[jobs[i].thread] = true;
    }
    for (int t = 0; t < 4; t++)
        assert_true(thread_seen[t]);
    worker_free(w);
    owner_destroy(&o);
}

static void test_no_threads(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 0);
    Worker *w = start(&cfg);
    Job jobs[3];
    make_jobs(jobs, 3, &o);
    jobs[0].pause = true; /* nothing can cancel it here: no wait */
    for (int i = 0; i < 3; i++) {
        assert_true(worker_submit(w, &jobs[i]));
        assert_int_equal(jobs[i].ran, 1); /* at once, on this thread */
        assert_int_equal(o.wakes, i + 1);
    }
    assert_true(jobs[0].paused_fully);
    Job *done = worker_take_done(w);
    assert_ptr_equal(done, &jobs[0]);
    assert_ptr_equal(done->next, &jobs[1]);
    assert_ptr_equal(done->next->next, &jobs[2]);
    worker_free(w);
    owner_destroy(&o);
}

static bool has_id(const void *job, void *id) { return ((const Job *)job)->id == *(int *)id; }

static void test_cancel_queued(void **state) {
    (void)state;
    for (int skip = 0; skip < 2; skip++) {
        Owner o;
        owner_init(&o);
        WorkerConfig cfg = config(&o, 1);
        cfg.skip_cancelled = skip;
        Worker *w = start(&cfg);
        Job jobs[4], *back[4];
        make_jobs(jobs, 4, &o);
        jobs[0].block = true;
        assert_true(worker_submit(w, &jobs[0]));
        wait_for(&o, &o.blocked, 1);
        for (int i = 1; i < 4; i++)
            assert_true(worker_submit(w, &jobs[i]));
        int id = 2, none = 99;
        assert_false(worker_cancel(w, has_id, &none));
        assert_true(worker_cancel(w, has_id, &id));
        assert_int_equal(jobs[2].hooks[WORKER_QUEUED], 1);
        if (skip) {
            /* Handed back at once, unrun, and the loop woken for it. */
            assert_int_equal(worker_queued(w), 2);
            assert_int_equal(take(w, &o, back, 1), 1);
            assert_ptr_equal(back[0], &jobs[2]);
            assert_int_equal(jobs[2].ran, 0);
        } else {
            assert_int_equal(worker_queued(w), 3); /* it still runs, marked */
        }
        open_gate(&o);
        int want = skip ? 3 : 4;
        assert_int_equal(take(w, &o, back, want), want);
        assert_int_equal(jobs[2].ran, skip ? 0 : 1);
        assert_int_equal(jobs[1].ran + jobs[3].ran, 2);
        assert_int_equal(jobs[2].hooks[WORKER_RUNNING] + jobs[2].hooks[WORKER_RAN], 0);
        worker_free(w);
        owner_destroy(&o);
    }
}

static void test_cancel_running_and_done(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    Worker *w = start(&cfg);
    Job jobs[3], *back[3];
    make_jobs(jobs, 3, &o);
    jobs[0].pause = true;
    assert_true(worker_submit(w, &jobs[0]));
    wait_for(&o, &o.paused, 1);
    int id = 0;
    assert_true(worker_cancel(w, has_id, &id));
    assert_int_equal(take(w, &o, back, 1), 1);
    /* The pause was cut short, run() saw the cancel, the hook heard of it running and once it ended. */
    assert_false(jobs[0].paused_fully);
    assert_true(jobs[0].saw_cancel);
    assert_int_equal(jobs[0].hooks[WORKER_RUNNING], 1);
    assert_int_equal(jobs[0].hooks[WORKER_RAN], 1);
    /* The next job runs with the flag cleared. */
    jobs[1].pause = true;
    assert_true(worker_submit(w, &jobs[1]));
    wait_for(&o, &o.paused, 2);
    id = 1;
    assert_true(worker_cancel(w, has_id, &id));
    assert_int_equal(take(w, &o, back, 1), 1);
    assert_false(jobs[1].paused_fully);
    assert_int_equal(jobs[1].hooks[WORKER_RUNNING], 1); /* found running: its pause had not ended */
    /* A finished job not taken yet: the hook marks it in the done list. */
    assert_true(worker_submit(w, &jobs[2]));
    wait_for(&o, &o.ran, 3);
    wait_for(&o, &o.wakes, 3);
    id = 2;
    assert_true(worker_cancel(w, has_id, &id));
    assert_int_equal(jobs[2].hooks[WORKER_DONE], 1);
    assert_ptr_equal(worker_take_done(w), &jobs[2]);
    worker_free(w);
    owner_destroy(&o);
}

static void slow_run(Worker *w, void *owner, void *jobs, int n, int thread) {
    struct timespec pause = {0, 200000};
    nanosleep(&pause, NULL);
    run(w, owner, jobs, n, thread);
}

static void test_stop_drains(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    cfg.run = slow_run;
    cfg.drain = true; /* no free_job: the done list stays the owner's */
    Worker *w = start(&cfg);
    Job jobs[50];
    make_jobs(jobs, 50, &o);
    for (int i = 0; i < 50; i++)
        assert_true(worker_submit(w, &jobs[i]));
    worker_free(w);
    for (int i = 0; i < 50; i++)
        assert_int_equal(jobs[i].ran, 1);
    assert_int_equal(o.ran, 50);
    assert_int_equal(atomic_load(&o.freed), 0);
    owner_destroy(&o);
}

static void test_stop_drops_and_frees(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    cfg.free_job = free_job;
    Worker *w = start(&cfg);
    Job jobs[50];
    make_jobs(jobs, 50, &o);
    jobs[0].block = true;
    for (int i = 0; i < 50; i++)
        assert_true(worker_submit(w, &jobs[i]));
    wait_for(&o, &o.blocked, 1);
    open_gate(&o);
    worker_free(w);
    /* What ran is freed from the done list, what waited is dropped unrun and freed: each once. */
    assert_int_equal(atomic_load(&o.freed), 50);
    assert_int_equal(jobs[0].ran, 1);
    int ran = 0;
    for (int i = 0; i < 50; i++)
        ran += jobs[i].ran;
    assert_int_equal(ran, o.ran);
    owner_destroy(&o);
}

static void test_stop_cancels_running(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 2);
    cfg.cancel_on_stop = true;
    cfg.free_job = free_job;
    Worker *w = start(&cfg);
    Job jobs[3];
    make_jobs(jobs, 3, &o);
    jobs[0].pause = jobs[1].pause = true;
    for (int i = 0; i < 3; i++)
        assert_true(worker_submit(w, &jobs[i]));
    wait_for(&o, &o.paused, 2);
    worker_free(w); /* does not wait the 10 s */
    for (int i = 0; i < 2; i++) {
        assert_false(jobs[i].paused_fully);
        assert_true(jobs[i].hooks[WORKER_RUNNING] >= 1);
        assert_int_equal(jobs[i].hooks[WORKER_RAN], 1);
    }
    assert_int_equal(jobs[2].ran, 0);
    assert_int_equal(atomic_load(&o.freed), 3);
    owner_destroy(&o);
}

static void test_shared_done_list(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    Worker *a = start(&cfg);
    WorkerConfig other = config(&o, 1);
    other.done_to = a;
    other.wake = NULL; /* a's wake is the one called */
    Worker *b = start(&other);
    Job jobs[2], *back[2];
    make_jobs(jobs, 2, &o);
    assert_true(worker_submit(b, &jobs[0]));
    assert_int_equal(take(a, &o, back, 1), 1);
    assert_ptr_equal(back[0], &jobs[0]);
    assert_true(worker_submit(a, &jobs[1]));
    assert_int_equal(take(a, &o, back, 1), 1);
    assert_ptr_equal(back[0], &jobs[1]);
    assert_null(worker_take_done(b));
    worker_free(b);
    worker_free(a);
    owner_destroy(&o);
}

static void idle(Worker *w, void *owner) {
    Owner *o = owner;
    pthread_mutex_lock(&o->mutex);
    o->idles++;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->mutex);
    /* Work a thread finds itself comes back like a job. */
    Job *j = calloc(1, sizeof *j);
    j->id = 1000;
    j->freed = &o->freed;
    worker_hand_back(w, j);
}

static void begin(Worker *w, void *owner, int thread) {
    (void)w, (void)thread;
    Owner *o = owner;
    pthread_mutex_lock(&o->mutex);
    o->starts++;
    pthread_mutex_unlock(&o->mutex);
}

static void test_idle_and_hand_back(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    WorkerConfig cfg = config(&o, 1);
    cfg.idle = idle;
    cfg.start = begin;
    cfg.free_job = free;
    cfg.idle_ms = 60000;
    Worker *w = start(&cfg);
    worker_set_idle_ms(w, 10); /* the waiting thread starts over with the new period */
    wait_for(&o, &o.idles, 2);
    worker_set_idle_ms(w, 60000);
    for (int got = 0; got < 2;) {
        int seen = get(&o, &o.wakes);
        for (Job *j = worker_take_done(w), *next; j; j = next, got++) {
            next = j->next;
            assert_int_equal(j->id, 1000);
            free(j);
        }
        if (got < 2)
            wait_for(&o, &o.wakes, seen + 1);
    }
    worker_free(w); /* frees what came back since */
    assert_int_equal(o.starts, 1);
    owner_destroy(&o);
}

static void task(void *arg) {
    Owner *o = arg;
    pthread_mutex_lock(&o->mutex);
    o->ran++;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->mutex);
}

static void test_task(void **state) {
    (void)state;
    Owner o;
    owner_init(&o);
    char err[200];
    Worker *w = worker_start_task(task, &o, err, sizeof err);
    assert_non_null(w);
    worker_free(w); /* waits for it */
    assert_int_equal(o.ran, 1);
    owner_destroy(&o);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_wake),
        cmocka_unit_test(test_bounded_queue),
        cmocka_unit_test(test_batches),
        cmocka_unit_test(test_pool),
        cmocka_unit_test(test_no_threads),
        cmocka_unit_test(test_cancel_queued),
        cmocka_unit_test(test_cancel_running_and_done),
        cmocka_unit_test(test_stop_drains),
        cmocka_unit_test(test_stop_drops_and_frees),
        cmocka_unit_test(test_stop_cancels_running),
        cmocka_unit_test(test_shared_done_list),
        cmocka_unit_test(test_idle_and_hand_back),
        cmocka_unit_test(test_task),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
