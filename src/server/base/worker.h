/* schach serve: the one worker primitive. Every hand-off from the event loop to threads of its own and
 * back goes through it: the store's writers (group commit: a batch per transaction), the accounts'
 * requests, the computer's searches and analyses, and the store's helpers (checkpoints, the start-up
 * check, the backup socket, the PostgreSQL listener). No other file of the server starts a thread.
 *
 * A Worker is a FIFO queue, bounded or not, served by threads: one, a pool of several on the one
 * queue, or none (then worker_submit runs the job at once on the caller's thread). Finished jobs go
 * to a done list; after each delivery the owner's wake function is called, outside the worker's lock
 * (the server's wakes call lws_cancel_service), and the event loop takes the list with
 * worker_take_done. Jobs are the owner's structs, linked through a pointer member of their own
 * (next_offset): the worker allocates nothing per job, and a batch or the done list is the owner's
 * own linked list, oldest first.
 *
 * Cancellation: worker_cancel finds the jobs a predicate matches and tells the owner's cancel hook
 * where each one is. A queued one is handed back unrun (skip_cancelled) or left to run; a running one
 * has its thread's cancel flag set (worker_cancelled, worker_pause see it) and the hook may interrupt
 * it; when it ends the hook hears of it once more (WORKER_RAN; in a batch, of every job of it: the flag
 * is the thread's), before it is handed back. Either way the job comes back through the done list,
 * marked by the owner's hook, and the owner drops its result. (The accounts' requests still run when
 * cancelled, only their replies are dropped; the computer's searches are skipped or stopped.)
 *
 * Stopping: worker_free lets the threads finish the jobs they run (cancel_on_stop cancels those), runs
 * what is queued when drain is set (else drops it), joins the threads and frees the jobs left with
 * free_job. Threads run with every signal blocked, so the process's signals reach the event loop.
 *
 * Threads: every function but worker_new and worker_free may be called from any thread, the hooks'
 * included (worker_hand_back from a hook is how work a thread found itself comes back). */
#ifndef SCHACH_SERVER_WORKER_H
#define SCHACH_SERVER_WORKER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Worker Worker;

/* Where worker_cancel (or a stop) found a job, for the cancel hook. */
typedef enum {
    WORKER_QUEUED,  /* waiting: with skip_cancelled it is handed back unrun */
    WORKER_RUNNING, /* running on thread: interrupt it if it can be */
    WORKER_RAN,     /* it ran while cancelled and has ended now: it is handed back next (hand_back) */
    WORKER_DONE     /* finished, in the done list, not taken yet */
} WorkerState;

typedef struct WorkerConfig {
    int threads;         /* 0: none, worker_submit runs each job on the caller's thread */
    size_t next_offset;  /* offsetof(Job, next): the job's pointer to the next job */
    int queue_max;       /* jobs waiting at most (worker_submit refuses one more); 0: no bound */
    int batch_max;       /* jobs one run() takes at most: 0 or 1 one at a time; INT_MAX all that wait */
    bool drain;          /* stopping runs what is queued first (else it is dropped, with free_job) */
    bool hand_back;      /* finished jobs go to the done list; else run() keeps them (frees them) */
    bool skip_cancelled; /* a queued job worker_cancel finds is handed back unrun (else it still runs) */
    bool cancel_on_stop; /* stopping cancels running jobs too, repeated until each thread has left */
    int idle_ms;         /* with idle: a thread without a job this long runs idle() (worker_set_idle_ms) */
    Worker *done_to;     /* hand back into this worker's done list (and wake) instead of this one's */
    void *owner;         /* the hooks' owner argument */
    /* Runs n jobs (1 unless batch_max says more), linked from jobs by their next member, the last one's
     * next NULL, on thread (0 .. threads-1). It must leave the links as they are. */
    void (*run)(Worker *w, void *owner, void *jobs, int n, int thread);
    /* Optional: first thing on each thread. */
    void (*start)(Worker *w, void *owner, int thread);
    /* Optional: idle_ms without a job (on each thread of a pool: meant for one thread). */
    void (*idle)(Worker *w, void *owner);
    /* Optional: job was cancelled (or, RUNNING with cancel_on_stop, the worker stops). Called under the
     * worker's lock: it marks the job or interrupts what runs, and calls no function of this worker. */
    void (*cancel)(void *owner, void *job, WorkerState state, int thread);
    /* Optional: frees a job nobody takes any more (dropped from the queue, left in the done list at
     * worker_free, or cancelled unrun without hand_back). NULL: they stay the owner's. */
    void (*free_job)(void *job);
    /* Optional: called after jobs were added to the done list, outside the lock, from the thread that
     * added them. */
    void (*wake)(void *wake_ctx);
    void *wake_ctx;
} WorkerConfig;

/* Starts the threads; NULL with err filled (strerror's text or "out of memory", for the caller's own
 * message) when one cannot start. */
Worker *worker_new(const WorkerConfig *cfg, char *err, size_t err_size);
/* Queues job (it is the worker's until it comes back); false when the queue is full or the worker
 * stops (the job stays the caller's). Without threads, runs it here and hands it back. */
bool worker_submit(Worker *w, void *job);
/* The finished jobs, oldest first, linked by their next member; NULL when none. The caller's now. */
void *worker_take_done(Worker *w);
/* Hands jobs (a list linked by next, never queued) back through the done list, and wakes. */
void worker_hand_back(Worker *w, void *jobs);
/* Cancels the jobs match says yes to (see the top); true when one was found. */
bool worker_cancel(Worker *w, bool (*match)(const void *job, void *ctx), void *ctx);
/* From run(): the job running on thread was cancelled, or the worker stops with cancel_on_stop. */
bool worker_cancelled(Worker *w, int thread);
/* From run(): waits up to ms, cut short by a cancel of thread's job or by stopping; true when neither
 * came (the job may go on). */
bool worker_pause(Worker *w, int thread, int ms);
/* Jobs waiting in the queue (taken ones not counted); 0 for NULL. */
size_t worker_queued(Worker *w);
/* A new idle_ms; a thread waiting already starts its wait again with it. */
void worker_set_idle_ms(Worker *w, int ms);
/* Stops taking jobs and tells the threads to end (without waiting for them); worker_free still to come. */
void worker_stop(Worker *w);
/* Stops, waits for the threads and frees the worker (see the top). NULL is fine. */
void worker_free(Worker *w);

/* A thread for one task (a socket's loop until a stop pipe is written): a worker of one thread whose
 * one job is fn(arg), stopped at once, so its thread leaves when fn returns; worker_free waits for
 * that. NULL with err filled. */
Worker *worker_start_task(void (*fn)(void *arg), void *arg, char *err, size_t err_size);

#endif
