/* schach serve: the computer player's thinking, and the rules' analyses, off the event loop.
 *
 * A small pool of worker threads (worker.h), each with an Engine of its own, takes search jobs from one FIFO
 * queue; one more thread, without an engine, takes the rules' analyses (dead positions, flag falls)
 * from a FIFO queue of their own, so a verdict never waits behind a search (which may think for
 * seconds), only behind other analyses, each bounded by its node budget. Finished jobs come back
 * through take_done(); after each one the worker calls the wake function (the server passes the one
 * the store uses, lws_cancel_service), exactly like the store's writer. The pool knows nothing of
 * games or the service: a job is a copy of a Game (of its position, for an analysis), limits and a
 * skill, and the caller matches results to its games by the job's serial.
 *
 * Threads: computer_submit, computer_take_done, computer_cancel and computer_free are called from
 * one thread (the event loop); only the workers run elsewhere.
 */
#ifndef SCHACH_SERVER_COMPUTER_H
#define SCHACH_SERVER_COMPUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "schach/game.h"
#include "store/store.h"

/* What a job asks: the computer's move, or one of the rules' analyses that must not run on the
 * event loop (FIDE 5.2.2 dead position, 6.9 flag fall; winnable.h), bounded by their node budgets. */
typedef enum {
    JOB_SEARCH = 0, /* engine_search: result */
    JOB_DEAD,       /* sch_dead_position of the game's position, SCH_GAME_DEAD_NODES: win[WHITE], win[BLACK] */
    JOB_FLAG        /* sch_can_checkmate of !flagged in the game's position, SCH_GAME_FLAG_NODES: win[0] */
} ComputerJobKind;

/* One job. The caller fills the inputs; the pool owns the job from submit until take_done. */
typedef struct ComputerJob {
    ComputerJobKind kind;
    SchColor flagged;               /* JOB_FLAG: whose flag fell */
    uint64_t serial;                /* the caller's name for the job (never 0) */
    char game_id[STORE_ID_LEN + 1]; /* which game it is for */
    int ply;                        /* the game's ply count when the job was made */
    SchGame game;                   /* a deep copy of the game (sch_game_copy), for an analysis only its
                                     * position (game.pos); freed with the job */
    EngineLimits limits;
    int skill;    /* EngineOptions.skill to search with */
    int delay_ms; /* testing: wait this long before searching (cut short by cancel) */
    /* Filled by the worker: */
    EngineResult result;
    SchWinResult win[2];
    bool cancelled; /* computer_cancel or shutdown cut it short: the result means nothing */
    struct ComputerJob *next;
} ComputerJob;

typedef struct Computer Computer;

/* Starts threads (1..8) workers, each with an engine of hash_mb MB (0: 16), and the rules worker.
 * threads == 0 runs every job synchronously inside computer_submit (for tests: results without
 * threads). NULL with err filled
 * on failure. wake(wake_ctx) is called after each finished job, from the worker's thread. */
Computer *computer_start(int threads, size_t hash_mb, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size);
/* A job with a copy of game (NULL when out of memory); its other inputs are zero. */
ComputerJob *computer_job_new(const SchGame *game);
/* An analysis (JOB_DEAD, JOB_FLAG) of pos; NULL when out of memory. Its other inputs are zero. */
ComputerJob *computer_rules_job_new(ComputerJobKind kind, const SchPosition *pos);
/* Frees a job that came back from take_done (or was never submitted). NULL is fine. */
void computer_job_free(ComputerJob *job);
/* Queues job (FIFO: searches in one queue, analyses in the other). */
void computer_submit(Computer *c, ComputerJob *job);
/* The finished jobs, oldest first, linked by next; NULL if none. The caller frees them. */
ComputerJob *computer_take_done(Computer *c);
/* The search with this serial is no longer wanted: a queued one is finished at once as cancelled, a
 * running one is stopped (engine_stop). Either way it still comes back through take_done. Analyses
 * are not cancelled: they are short, and a result nobody waits for is dropped by the caller. */
void computer_cancel(Computer *c, uint64_t serial);
/* Stops every search (engine_stop), lets a running analysis finish, joins the workers and frees every
 * job not yet taken. */
void computer_free(Computer *c);

#endif
