/* The PostgreSQL store's writer: one connection, one thread (a worker in batch mode, worker.h), group
 * commit. Everything queued meanwhile becomes one transaction, sent in libpq's pipeline mode, so a
 * batch costs two round trips however many ops it holds (one for the ops, one for the announcements
 * and COMMIT) instead of several per op.
 *
 * Each op is a single statement (store_pg_ops.c: its writes joined in data-modifying WITH clauses), so
 * it is atomic by itself: an op that cannot apply (a stale base_rev, a ply that is not the next one, a
 * lease held by another node) changes nothing and says why in its result row, with no error. An op
 * that raises an error (a constraint: two nodes appending the same ply without a rev check) aborts the
 * transaction: it is rolled back, that op fails alone, and the batch runs again without it. That is what a
 * SAVEPOINT per op gives, without one subtransaction per op: a batch of more than 64 of them overflows
 * PostgreSQL's per-backend subtransaction cache, which slows every other session's snapshots while it
 * runs, and every SAVEPOINT and RELEASE is one more statement to execute.
 *
 * Ops run ordered by game id (their order within a game kept), so the writers of two nodes lock rows
 * in the same order and never deadlock; they come back in the order they were submitted.
 *
 * Only COMMIT's answer makes an op ok. A connection that breaks before COMMIT was sent lost nothing:
 * the batch runs once more on a new connection (this is what a restart of the database looks like to
 * an idle writer). One that breaks later leaves the outcome unknown: every op of the batch fails with
 * fault set, and a resync notice tells the loop to compare its games with the store. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "store_pg_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* At most this many ops per transaction: a bound on its locks, its memory and how long it runs. */
#define PG_BATCH_MAX 4096
/* How often a batch is run again after a deadlock or serialization failure before it fails. */
#define PG_BATCH_RETRIES 3

/* ---- one batch ---- */

/* An op of the batch in execution order, and what its statement answered. */
typedef struct PgSlot {
    StoreOp *op;
    int index;   /* in submission order */
    bool active; /* sent in this attempt (not failed already, alone) */
    int stmt;    /* PG_W_CREATE ... PG_W_CLAIM; -1: the op names no write */
    int64_t new_rev;
    int plies_after; /* the game's ply count after the op, for its announcement */
} Slot;

typedef enum {
    RUN_OK,        /* committed */
    RUN_LOST,      /* the connection broke before COMMIT was sent: nothing was committed */
    RUN_FAULT,     /* the storage failed; the outcome is known (nothing committed) */
    RUN_UNKNOWN,   /* the connection broke after COMMIT was sent */
    RUN_RETRY,     /* deadlock or serialization failure: run the batch again */
    RUN_OP_FAILED, /* one op raised an error of its own: it failed alone, run the rest again */
} RunResult;

static int by_game(const void *a, const void *b) {
    const Slot *x = a, *y = b;
    int c = strcmp(x->op->record.id, y->op->record.id);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* An error of the op's own making: bad data or a constraint (SQLSTATE classes 22 and 23). Anything else
 * (no space, the server shutting down, a missing table) is the storage's. */
static bool own_error(const char *sqlstate) {
    return sqlstate && (strncmp(sqlstate, "22", 2) == 0 || strncmp(sqlstate, "23", 2) == 0);
}

static bool retryable(const char *sqlstate) {
    return sqlstate && (strcmp(sqlstate, "40P01") == 0 || strcmp(sqlstate, "40001") == 0);
}

/* The next query's result in the pipeline, its trailing NULL consumed; NULL when the connection broke. */
static PGresult *next_result(PGconn *conn) {
    PGresult *res = PQgetResult(conn);
    if (!res)
        return NULL;
    if (PQresultStatus(res) != PGRES_PIPELINE_SYNC) {
        PGresult *extra;
        while ((extra = PQgetResult(conn)) != NULL)
            PQclear(extra);
    }
    return res;
}

/* Waits for the pipeline's sync point; false when the connection broke. */
static bool read_sync(PGconn *conn) {
    PGresult *res = PQgetResult(conn);
    bool ok = res && PQresultStatus(res) == PGRES_PIPELINE_SYNC;
    PQclear(res);
    return ok && PQexitPipelineMode(conn) == 1;
}

static bool conn_broken(PGconn *conn) { return PQstatus(conn) == CONNECTION_BAD; }

/* Phase one: BEGIN and every active op, in one round trip. The transaction stays open on RUN_OK. */
static RunResult run_ops(PGconn *conn, Slot *slots, int n, char *why, size_t why_size) {
    bool sent = PQenterPipelineMode(conn) == 1 && store_pg_send_plain(conn, PG_W_BEGIN);
    for (int i = 0; sent && i < n; i++)
        if (slots[i].active)
            sent = store_pg_send_op(conn, slots[i].stmt, slots[i].op);
    if (!sent || PQpipelineSync(conn) != 1) {
        store_pg_message(conn, NULL, why, why_size);
        return RUN_LOST;
    }
    RunResult result = RUN_OK;
    char msg[300] = "";
    PGresult *res = next_result(conn);
    if (!res || PQresultStatus(res) != PGRES_COMMAND_OK) {
        store_pg_message(conn, res, msg, sizeof msg);
        snprintf(why, why_size, "begin: %s", msg);
        result = RUN_FAULT;
    }
    PQclear(res);
    for (int i = 0; i < n && !conn_broken(conn); i++) {
        Slot *slot = &slots[i];
        if (!slot->active)
            continue;
        res = next_result(conn);
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_TUPLES_OK) {
            store_pg_take_answer(slot->op, slot->stmt, res, &slot->new_rev, &slot->plies_after);
        } else if (st == PGRES_FATAL_ERROR && result == RUN_OK) {
            const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
            store_pg_message(conn, res, msg, sizeof msg);
            if (own_error(state)) {
                snprintf(slot->op->error, sizeof slot->op->error, "%s of game %s: %s", store_pg_stmt_kind(slot->stmt),
                         slot->op->record.id, msg);
                slot->active = false;
                result = RUN_OP_FAILED;
            } else {
                snprintf(why, why_size, "%s of game %s: %s", store_pg_stmt_kind(slot->stmt), slot->op->record.id, msg);
                result = retryable(state) ? RUN_RETRY : RUN_FAULT;
            }
        }
        PQclear(res);
    }
    if (conn_broken(conn) || !read_sync(conn)) {
        store_pg_message(conn, NULL, why, why_size);
        return RUN_LOST;
    }
    return result;
}

/* The announcement of a changed game (store_pg_format_payload). */
static void send_notice(PGconn *conn, const PgStore *s, const Slot *slot, int64_t sent_ms, bool *sent) {
    char payload[STORE_PG_PAYLOAD_MAX];
    store_pg_format_payload(payload, slot->op->record.id, slot->new_rev, slot->plies_after, sent_ms, s->node,
                            slot->op->note);
    *sent = *sent && store_pg_send_notify(conn, payload);
}

/* Phase two: one announcement per changed game (its last change in the batch), and COMMIT. */
static RunResult run_commit(PgStore *s, PGconn *conn, Slot *slots, int n, char *why, size_t why_size) {
    bool sent = PQenterPipelineMode(conn) == 1;
    int notices = 0;
    int64_t sent_ms = store_pg_wall_ms();
    for (int i = 0; i < n; i++) {
        const Slot *slot = &slots[i];
        if (!slot->active || !slot->op->ok || slot->stmt == PG_W_CLAIM)
            continue;
        /* The last change of this game in the batch speaks for all of them. */
        bool later = false;
        for (int j = i + 1; j < n && strcmp(slots[j].op->record.id, slot->op->record.id) == 0 && !later; j++)
            later = slots[j].active && slots[j].op->ok && slots[j].stmt != PG_W_CLAIM;
        if (!later) {
            send_notice(conn, s, slot, sent_ms, &sent);
            notices++;
        }
    }
    sent = sent && store_pg_send_plain(conn, PG_W_COMMIT) && PQpipelineSync(conn) == 1;
    if (!sent) {
        store_pg_message(conn, NULL, why, why_size);
        return RUN_UNKNOWN; /* part of the pipeline may have reached the server */
    }
    char msg[300] = "";
    RunResult result = RUN_OK;
    for (int i = 0; i <= notices; i++) {
        PGresult *res = next_result(conn);
        ExecStatusType st = PQresultStatus(res);
        bool ok = i < notices ? st == PGRES_TUPLES_OK : st == PGRES_COMMAND_OK;
        if (!ok && result == RUN_OK) {
            store_pg_message(conn, res, msg, sizeof msg);
            snprintf(why, why_size, "%s: %s", i < notices ? "announcing" : "commit", msg);
            result = conn_broken(conn) ? RUN_UNKNOWN : RUN_FAULT;
        }
        PQclear(res);
        if (conn_broken(conn))
            return RUN_UNKNOWN;
    }
    if (!read_sync(conn)) {
        store_pg_message(conn, NULL, why, why_size);
        return RUN_UNKNOWN;
    }
    return result;
}

/* Leaves the connection outside any transaction; false when it is broken. */
static bool rollback(PGconn *conn) {
    if (PQtransactionStatus(conn) == PQTRANS_IDLE)
        return true;
    PQclear(PQexec(conn, "ROLLBACK"));
    return PQtransactionStatus(conn) == PQTRANS_IDLE;
}

/* Runs the batch until it committed or cannot. */
static RunResult run_batch(PgStore *s, Slot *slots, int n, char *why, size_t why_size) {
    PGconn *conn = s->wconn;
    int retries = 0;
    for (;;) {
        if (!rollback(conn)) {
            store_pg_message(conn, NULL, why, why_size);
            return RUN_LOST;
        }
        for (int i = 0; i < n; i++) {
            if (slots[i].active) {
                slots[i].op->ok = slots[i].op->conflict = false;
                slots[i].op->error[0] = '\0';
            }
        }
        RunResult r = run_ops(conn, slots, n, why, why_size);
        if (r == RUN_OK)
            r = run_commit(s, conn, slots, n, why, why_size);
        if (r == RUN_OK || r == RUN_LOST || r == RUN_UNKNOWN)
            return r;
        if (!rollback(conn))
            return r == RUN_FAULT ? RUN_FAULT : RUN_LOST;
        if (r == RUN_FAULT || (r == RUN_RETRY && ++retries > PG_BATCH_RETRIES))
            return RUN_FAULT;
        /* RUN_OP_FAILED (that op is inactive now) or a retry: again. */
    }
}

/* ---- the connection and the thread ---- */

/* A working connection with the statements prepared: the one there is, or a new one after a loss.
 * Every new one is announced to the loop as a resync: batches that failed with an unknown outcome
 * may have committed, and the loop's copies of their games may be behind. */
static bool ensure_connection(PgStore *s, char *why, size_t why_size) {
    if (s->wconn && !s->wconn_lost && PQstatus(s->wconn) == CONNECTION_OK)
        return true;
    PQfinish(s->wconn);
    s->wconn = NULL;
    PGconn *conn = store_pg_connect(s, PG_CONN_WRITER, why, why_size);
    if (!conn)
        return false;
    if (!store_pg_prepare_writer(conn, why, why_size)) {
        PQfinish(conn);
        return false;
    }
    s->wconn = conn;
    s->wconn_lost = false;
    pthread_mutex_lock(&s->mutex);
    s->writer_pid = PQbackendPID(conn);
    s->counters.reconnects++;
    pthread_mutex_unlock(&s->mutex);
    store_pg_queue_resync(s);
    return true;
}

static double elapsed_ms(const struct timespec *since) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - since->tv_sec) * 1000.0 + (double)(now.tv_nsec - since->tv_nsec) / 1e6;
}

/* One batch and what it means for the storage's state: a failure is logged (at most once a second),
 * the first success after one too. */
static void write_batch(PgStore *s, Slot *slots, int n) {
    for (int i = 0; i < n; i++) {
        StoreOp *op = slots[i].op;
        op->ok = op->fault = op->conflict = op->uncertain = false;
        op->error[0] = '\0';
        slots[i].stmt = store_pg_op_stmt(op);
        slots[i].active = slots[i].stmt >= 0;
        slots[i].new_rev = 0;
        slots[i].plies_after = 0;
    }
    qsort(slots, (size_t)n, sizeof *slots, by_game);

    char why[600] = "";
    struct timespec started;
    clock_gettime(CLOCK_MONOTONIC, &started);
    RunResult r = RUN_LOST;
    /* A connection found broken before COMMIT was sent gets one more try on a new one. */
    for (int attempt = 0; attempt < 2 && r == RUN_LOST; attempt++) {
        if (!ensure_connection(s, why, sizeof why)) {
            r = RUN_FAULT;
            break;
        }
        r = run_batch(s, slots, n, why, sizeof why);
        if (r != RUN_OK && r != RUN_FAULT)
            s->wconn_lost = true;
    }
    double ms = elapsed_ms(&started);

    uint64_t ok = 0, conflicts = 0;
    if (r == RUN_OK) {
        for (int i = 0; i < n; i++) {
            StoreOp *op = slots[i].op;
            if (op->ok) {
                op->record.rev = slots[i].new_rev;
                ok++;
            }
            conflicts += op->conflict;
        }
        if (s->faulted)
            log_event(LOG_INFO, "storage_recovered", "database", s->where, (char *)NULL);
        s->faulted = false;
    } else {
        if (!why[0])
            snprintf(why, sizeof why, "%s", "the batch failed");
        char msg[2 * sizeof slots[0].op->error];
        snprintf(msg, sizeof msg, "storage: %s%s", why,
                 r == RUN_UNKNOWN ? " (the connection broke during COMMIT: its outcome is unknown)" : "");
        for (int i = 0; i < n; i++) {
            StoreOp *op = slots[i].op;
            op->ok = op->conflict = false;
            op->fault = true;
            op->uncertain = r == RUN_UNKNOWN;
            snprintf(op->error, sizeof op->error, "%s", msg);
        }
        s->faulted = true;
        log_event_limited(&s->fault_log, LOG_ERROR, "storage_fault", "database", s->where, "error", msg, (char *)NULL);
    }
    pthread_mutex_lock(&s->mutex);
    s->writer_ok = r == RUN_OK;
    if (r == RUN_OK) {
        s->counters.batches++;
        store_histogram_add(&s->counters.commit_ms, ms);
    }
    s->counters.ops_committed += ok;
    s->counters.ops_failed += (uint64_t)n - ok;
    s->counters.conflicts += conflicts;
    pthread_mutex_unlock(&s->mutex);
}

/* One batch: up to PG_BATCH_MAX ops (one without slots), linked from jobs in the order submitted. */
static void writer_run(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)thread;
    PgStore *s = owner;
    Slot one, *slots = s->slots ? s->slots : &one;
    StoreOp *op = jobs;
    for (int i = 0; i < n; i++, op = op->next)
        slots[i] = (Slot){.op = op, .index = i};
    store_test_commit_delay(); /* tests: hold the batch back, as the SQLite writer does */
    write_batch(s, slots, n);
}

bool store_pg_writer_start(PgStore *s, char *err, size_t err_size) {
    s->slots = malloc(sizeof *s->slots * PG_BATCH_MAX); /* without it still correct, one op per batch */
    WorkerConfig cfg = {.threads = 1,
                        .next_offset = offsetof(StoreOp, next),
                        .batch_max = s->slots ? PG_BATCH_MAX : 1,
                        .drain = true,
                        .hand_back = true,
                        .owner = s,
                        .run = writer_run,
                        .wake = s->wake,
                        .wake_ctx = s->wake_ctx};
    char why[200];
    if (!(s->writer = worker_new(&cfg, why, sizeof why))) {
        store_pg_set_err(err, err_size, "cannot start the store's %s thread: %s", "writer", why);
        return false;
    }
    return true;
}
