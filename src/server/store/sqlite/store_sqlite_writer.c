/* The SQLite store's writer (store_sqlite.c opens it): one write connection owned by a writer thread
 * (a worker, worker.h, in batch mode) that commits everything queued meanwhile in one transaction
 * (group commit: one fsync per batch), each operation inside its own savepoint so a failing one is
 * rolled back alone, and the checkpointer thread (a worker of its own) that copies the WAL back
 * beside it. Apart from store_sqlite.c because this is what runs once
 * the store is open: the statements, the batches, and the storage faults they meet.
 *
 * Durability: WAL with synchronous=FULL fsyncs the log on every COMMIT, so an operation reported ok
 * survives a crash or power loss; ok is only set after COMMIT returned. Before each batch the writer
 * checks that the database and its WAL are still the files it opened: writes into a deleted or
 * replaced file would be acknowledged and then vanish. */
#define _POSIX_C_SOURCE 200809L /* stat, clock_gettime */

#include "store_sqlite_internal.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Checkpoints (copying the WAL back into the database file, with an fsync of its own) run on a
 * thread and connection of their own once the WAL holds this many pages, so a commit never waits
 * for one. SQLite's automatic checkpoint would run inside the COMMIT of whichever batch crosses the
 * limit and delay every op queued behind it by the whole checkpoint. */
#define STORE_CHECKPOINT_PAGES 1000
/* A checkpoint running beside a busy writer may never catch up with it completely, and the WAL only
 * starts over once it has; past this size the writer checkpoints itself between batches. */
#define STORE_CHECKPOINT_FORCE_PAGES 16000

const char store_sqlite_insert_game_sql[] =
    "INSERT INTO games (" STORE_GAME_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35,"
    " ?36)";
static const char SQL_UPDATE_GAME[] =
    "UPDATE games SET created_ms = ?2, updated_ms = ?3, start_fen = ?4, mode = ?5, time_type = ?6,"
    " minutes = ?7, increment = ?8, days = ?9, secret_hash_white = ?10, secret_hash_black = ?11,"
    " invite_hash = ?12, invite_color = ?13, result = ?14, termination = ?15, draw_offer = ?16,"
    " clock_white_ms = ?17, clock_black_ms = ?18, turn_started_ms = ?19, level = ?20, plies = ?21,"
    " reason = ?22, account_white = ?23, account_black = ?24, rated = ?25, rating_white = ?26,"
    " rating_black = ?27, rating_diff_white = ?28, rating_diff_black = ?29, rematch_offer = ?30,"
    " rematch_decline = ?31, rematch_game = ?32, seat_epoch_white = ?33, seat_epoch_black = ?34,"
    " provisional_white = ?35, provisional_black = ?36 WHERE id = ?1";
/* Inserts only when ply is the next one, so a gap (a lost move) is refused like a duplicate. */
static const char SQL_APPEND_MOVE[] = "INSERT INTO moves (game_id, ply, uci, at_ms) SELECT ?1, ?2, ?3, ?4"
                                      " WHERE ?2 = (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = ?1)";

/* Every change of a game raises its rev; with a base rev only while the row is still at it, so a change
 * made on an outdated copy is refused (store.h). */
static const char SQL_BUMP_REV[] =
    "UPDATE games SET rev = rev + 1 WHERE id = ?1 AND (?2 = 0 OR rev = ?2) RETURNING rev";
/* A lease holds for the rev it was taken at: once the game moved on, anyone may claim it again. */
static const char SQL_CLAIM[] =
    "UPDATE games SET lease_node = ?2, lease_rev = rev, lease_until_ms = ?3 WHERE id = ?1 AND (?4 = 0 OR rev = ?4)"
    " AND (lease_until_ms < ?5 OR lease_node = ?2 OR lease_node = '' OR lease_rev <> rev)";

/* clang-format off */
static const char *const writer_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT op",
    [ST_RELEASE] = "RELEASE op",
    [ST_ROLLBACK_TO] = "ROLLBACK TO op",
    [ST_INSERT_GAME] = store_sqlite_insert_game_sql,
    [ST_UPDATE_GAME] = SQL_UPDATE_GAME,
    [ST_APPEND_MOVE] = SQL_APPEND_MOVE,
    [ST_BUMP_REV] = SQL_BUMP_REV,
    [ST_TRUNCATE_MOVES] = "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
    [ST_CLAIM] = SQL_CLAIM,
    [ST_GAME_EXISTS] = "SELECT 1 FROM games WHERE id = ?1",
};
/* clang-format on */

static bool hash_is_zero(const unsigned char *hash) {
    unsigned char any = 0;
    for (int i = 0; i < STORE_HASH_LEN; i++)
        any |= hash[i];
    return any == 0;
}

static int bind_hash(sqlite3_stmt *st, int param, const unsigned char *hash) {
    if (hash_is_zero(hash))
        return sqlite3_bind_null(st, param);
    return sqlite3_bind_blob(st, param, hash, STORE_HASH_LEN, SQLITE_STATIC);
}

int store_sqlite_bind_record(sqlite3_stmt *st, const GameRecord *r) {
    /* The record lives until its op comes back, so SQLite need not copy the texts. */
    int rc = sqlite3_bind_text(st, GP_ID, r->id, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int64(st, GP_CREATED, r->created_ms);
    rc |= sqlite3_bind_int64(st, GP_UPDATED, r->updated_ms);
    rc |= sqlite3_bind_text(st, GP_START_FEN, r->start_fen, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_MODE, r->mode, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_TIME_TYPE, store_time_type_text(r->time.type), -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_MINUTES, r->time.minutes);
    rc |= sqlite3_bind_int(st, GP_INCREMENT, r->time.increment);
    rc |= sqlite3_bind_int(st, GP_DAYS, r->time.days);
    rc |= bind_hash(st, GP_SECRET_WHITE, r->secret_hash[0]);
    rc |= bind_hash(st, GP_SECRET_BLACK, r->secret_hash[1]);
    rc |= bind_hash(st, GP_INVITE_HASH, r->invite_hash);
    rc |= sqlite3_bind_int(st, GP_INVITE_COLOR, r->invite_color);
    rc |= sqlite3_bind_text(st, GP_RESULT, r->result, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_TERMINATION, r->termination, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_DRAW_OFFER, store_offers_pack(r));
    rc |= sqlite3_bind_int64(st, GP_CLOCK_WHITE, r->clock_ms[0]);
    rc |= sqlite3_bind_int64(st, GP_CLOCK_BLACK, r->clock_ms[1]);
    rc |= sqlite3_bind_int64(st, GP_TURN_STARTED, r->turn_started_ms);
    rc |= sqlite3_bind_text(st, GP_LEVEL, r->level, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_PLIES, r->plies);
    rc |= sqlite3_bind_text(st, GP_REASON, r->reason, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_ACCOUNT_WHITE, r->account[0], -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_ACCOUNT_BLACK, r->account[1], -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_RATED, r->rated);
    rc |= sqlite3_bind_int(st, GP_RATING_WHITE, r->rating[0]);
    rc |= sqlite3_bind_int(st, GP_RATING_BLACK, r->rating[1]);
    rc |= sqlite3_bind_int(st, GP_RATING_DIFF_WHITE, r->rating_diff[0]);
    rc |= sqlite3_bind_int(st, GP_RATING_DIFF_BLACK, r->rating_diff[1]);
    rc |= sqlite3_bind_int(st, GP_REMATCH_OFFER, r->rematch_offer);
    rc |= sqlite3_bind_int(st, GP_REMATCH_DECLINE, r->rematch_decline);
    rc |= sqlite3_bind_text(st, GP_REMATCH_GAME, r->rematch_game, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int64(st, GP_SEAT_EPOCH_WHITE, r->seat_epoch[0]);
    rc |= sqlite3_bind_int64(st, GP_SEAT_EPOCH_BLACK, r->seat_epoch[1]);
    rc |= sqlite3_bind_int(st, GP_PROVISIONAL_WHITE, r->provisional[0]);
    rc |= sqlite3_bind_int(st, GP_PROVISIONAL_BLACK, r->provisional[1]);
    return rc;
}

/* Steps a prepared statement to completion and makes it reusable; true on SQLITE_DONE. */
static bool run_stmt(sqlite3_stmt *st) {
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_DONE;
}

/* run_stmt after binding; bind_rc is the OR of the bind calls' results. */
static bool run_bound(sqlite3_stmt *st, int bind_rc) {
    if (bind_rc != SQLITE_OK) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        return false;
    }
    return run_stmt(st);
}

static void op_fail(StoreOp *op, sqlite3 *db, const char *what) {
    op->ok = false;
    op->fault = store_is_storage_error(sqlite3_extended_errcode(db));
    snprintf(op->error, sizeof op->error, "%s of game %s: %s", what, op->record.id, sqlite3_errmsg(db));
}

/* Whether game id has a row; -1 when the query failed. */
static int game_exists(SqliteStore *s, const char *id) {
    sqlite3_stmt *st = s->stmt[ST_GAME_EXISTS];
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

/* A refused rev check or claim: a conflict when the game exists, else "no such game". */
static bool op_refused(SqliteStore *s, StoreOp *op, const char *what) {
    int exists = game_exists(s, op->record.id);
    if (exists < 0) {
        op_fail(op, s->db, what);
    } else if (exists) {
        op->conflict = true;
        snprintf(op->error, sizeof op->error, "%s of game %s: the game changed since rev %lld", what, op->record.id,
                 (long long)op->base_rev);
    } else {
        snprintf(op->error, sizeof op->error, "%s of game %s: no such game", what, op->record.id);
    }
    return false;
}

/* Raises the game's rev (checking base_rev) into op->record.rev. */
static bool bump_rev(SqliteStore *s, StoreOp *op) {
    sqlite3_stmt *st = s->stmt[ST_BUMP_REV];
    int rc = sqlite3_bind_text(st, 1, op->record.id, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int64(st, 2, op->base_rev);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    int64_t rev = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
    int done = rc == SQLITE_ROW ? sqlite3_step(st) : rc;
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc == SQLITE_ROW && done == SQLITE_DONE) {
        op->record.rev = rev;
        return true;
    }
    if (rc == SQLITE_DONE)
        return op_refused(s, op, "change");
    op_fail(op, s->db, "change");
    return false;
}

static bool claim_lease(SqliteStore *s, StoreOp *op) {
    sqlite3_stmt *st = s->stmt[ST_CLAIM];
    int rc = sqlite3_bind_text(st, 1, op->record.id, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, 2, op->node, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int64(st, 3, op->lease_until_ms);
    rc |= sqlite3_bind_int64(st, 4, op->base_rev);
    rc |= sqlite3_bind_int64(st, 5, op->now_ms);
    if (!run_bound(st, rc)) {
        op_fail(op, s->db, "claim");
        return false;
    }
    return sqlite3_changes(s->db) == 1 || op_refused(s, op, "claim");
}

/* Runs the writes of one op (inside its savepoint); false with op->error filled on failure. */
static bool apply_op(SqliteStore *s, StoreOp *op) {
    if (op->claim && !op->create && !op->update && !op->append)
        return claim_lease(s, op);
    if (!op->create && !op->update && !op->append) {
        snprintf(op->error, sizeof op->error, "operation on game %s names no write", op->record.id);
        return false;
    }
    if (op->create) {
        op->record.rev = 1;
        sqlite3_stmt *st = s->stmt[ST_INSERT_GAME];
        if (!run_bound(st, store_sqlite_bind_record(st, &op->record))) {
            op_fail(op, s->db, "create");
            return false;
        }
    }
    if ((op->update || op->append) && !op->create && !bump_rev(s, op))
        return false;
    if (op->update) {
        sqlite3_stmt *st = s->stmt[ST_UPDATE_GAME];
        if (!run_bound(st, store_sqlite_bind_record(st, &op->record))) {
            op_fail(op, s->db, "update");
            return false;
        }
        if (sqlite3_changes(s->db) != 1) {
            snprintf(op->error, sizeof op->error, "update of game %s: no such game", op->record.id);
            return false;
        }
        if (op->spawn) { /* inside the op's savepoint: both or neither */
            GameRecord spawn = *op->spawn;
            spawn.rev = 1;
            st = s->stmt[ST_INSERT_GAME];
            if (!run_bound(st, store_sqlite_bind_record(st, &spawn))) {
                op_fail(op, s->db, "create");
                return false;
            }
        }
        if (op->truncate && !op->append && !op->spawn) { /* a takeback: the moves after the row's plies go */
            st = s->stmt[ST_TRUNCATE_MOVES];
            int rc = sqlite3_bind_text(st, 1, op->record.id, -1, SQLITE_STATIC);
            rc |= sqlite3_bind_int(st, 2, op->record.plies < 0 ? 0 : op->record.plies);
            if (!run_bound(st, rc)) {
                op_fail(op, s->db, "update");
                return false;
            }
        }
    }
    if (op->append) {
        sqlite3_stmt *st = s->stmt[ST_APPEND_MOVE];
        int rc = sqlite3_bind_text(st, 1, op->record.id, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int(st, 2, op->ply);
        rc |= sqlite3_bind_text(st, 3, op->move.uci, -1, SQLITE_STATIC);
        rc |= sqlite3_bind_int64(st, 4, op->move.at_ms);
        if (!run_bound(st, rc)) {
            op_fail(op, s->db, "append");
            return false;
        }
        if (sqlite3_changes(s->db) != 1) {
            snprintf(op->error, sizeof op->error, "append to game %s: ply %d is not the next ply (or no such game)",
                     op->record.id, op->ply);
            return false;
        }
    }
    return true;
}

static void fail_all(StoreOp *batch, const char *what, const char *why) {
    /* why may be one of the ops' own error texts: compose first, then cut to the field's size. */
    char msg[2 * sizeof batch->error] = "";
    snprintf(msg, sizeof msg, "%s: %s", what, why);
    for (StoreOp *op = batch; op; op = op->next) {
        op->ok = false;
        memcpy(op->error, msg, sizeof op->error - 1);
        op->error[sizeof op->error - 1] = '\0';
    }
}

/* One transaction for the whole batch; each op in a savepoint so its failure stays its own. Returns
 * false when the storage failed (every op of the batch failed with it), with why filled. */
static bool run_batch(SqliteStore *s, StoreOp *batch, char *why, size_t why_size) {
    sqlite3 *db = s->db;
    if (!run_stmt(s->stmt[ST_BEGIN])) {
        snprintf(why, why_size, "begin: %s", sqlite3_errmsg(db));
        return false;
    }
    for (StoreOp *op = batch; op; op = op->next) {
        op->error[0] = '\0';
        op->fault = false;
        op->conflict = false;
        op->uncertain = false; /* a failed SQLite COMMIT was rolled back */
        if (!run_stmt(s->stmt[ST_SAVEPOINT])) {
            op_fail(op, db, "savepoint");
        } else {
            op->ok = apply_op(s, op);
            if (!op->ok)
                run_stmt(s->stmt[ST_ROLLBACK_TO]);
            run_stmt(s->stmt[ST_RELEASE]);
        }
        if (op->fault || sqlite3_get_autocommit(db)) {
            /* A disk that fails (I/O, disk full, file-size limit) fails the batch: some such errors roll
             * the whole transaction back anyway, and an op that failed for the disk's sake is no
             * reason to keep its neighbours. */
            snprintf(why, why_size, "%s", op->error[0] ? op->error : sqlite3_errmsg(db));
            if (!sqlite3_get_autocommit(db))
                run_stmt(s->stmt[ST_ROLLBACK]);
            return false;
        }
    }
    if (!run_stmt(s->stmt[ST_COMMIT])) {
        snprintf(why, why_size, "commit: %s", sqlite3_errmsg(db));
        if (!sqlite3_get_autocommit(db))
            run_stmt(s->stmt[ST_ROLLBACK]);
        return false;
    }
    return true;
}

/* The database and its WAL are still the files the store opened. A database deleted (or replaced)
 * under a running server takes every later commit with it: SQLite writes on into the unlinked file.
 * Once that has happened, every write fails until the server is restarted on the file now there. */
static bool files_still_ours(SqliteStore *s, char *why, size_t why_size) {
    const char *what = NULL, *file = s->path;
    struct stat st;
    if (s->replaced)
        what = "was deleted or replaced";
    else if (stat(s->path, &st) != 0)
        what = errno == ENOENT ? "was deleted" : NULL;
    else if (st.st_dev != s->db_dev || st.st_ino != s->db_ino)
        what = "was replaced";
    else if ((file = s->wal_path, stat(s->wal_path, &st) != 0))
        what = errno == ENOENT ? "was deleted" : NULL;
    else if (st.st_dev != s->wal_dev || st.st_ino != s->wal_ino)
        what = "was replaced";
    else
        return true;
    if (!what) {
        snprintf(why, why_size, "cannot check %s: %s", file, strerror(errno));
        return false;
    }
    s->replaced = true;
    snprintf(why, why_size, "%s %s while the server ran: writes are refused until it is restarted", file, what);
    return false;
}

/* One batch and what it means for the storage's state: a failure is logged (at most once a second),
 * the first success after one too. */
static void write_batch(SqliteStore *s, StoreOp *batch) {
    char why[sizeof s->check_error] = "";
    if (store_check_wait(s, why, sizeof why) == 0 && files_still_ours(s, why, sizeof why) &&
        run_batch(s, batch, why, sizeof why)) {
        if (s->faulted)
            log_event(LOG_INFO, "storage_recovered", "path", s->path, (char *)NULL);
        s->faulted = false;
        return;
    }
    fail_all(batch, "storage", why);
    for (StoreOp *op = batch; op; op = op->next)
        op->fault = true;
    s->faulted = true;
    log_event_limited(&s->fault_log, LOG_ERROR, "storage_fault", "path", s->path, "error", why, (char *)NULL);
}

/* A checkpoint asked for: the checkpointer's queue holds at most one, so asking while one waits asks
 * for nothing more, and asking while one runs gets one more after it. */
typedef struct CheckpointJob {
    struct CheckpointJob *next;
} CheckpointJob;

/* Called by SQLite in the writer thread after each commit, with the WAL's size in pages. Replaces the
 * automatic checkpoint. */
static int on_wal_commit(void *ctx, sqlite3 *db, const char *name, int pages) {
    SqliteStore *s = ctx;
    if (pages >= STORE_CHECKPOINT_FORCE_PAGES) {
        /* Nothing else writes now, so this checkpoint completes and the next batch restarts the WAL. */
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else if (pages >= STORE_CHECKPOINT_PAGES && s->checkpointer) {
        CheckpointJob *job = calloc(1, sizeof *job);
        if (job && !worker_submit(s->checkpointer, job))
            free(job);
    }
    return SQLITE_OK;
}

static void checkpoint_run(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)n, (void)thread;
    SqliteStore *s = owner;
    free(jobs);
    sqlite3_wal_checkpoint_v2(s->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
}

/* Counts a finished batch into the metrics (under the store's mutex). */
static void count_batch(StoreStats *st, const StoreOp *batch, double ms) {
    bool committed = false;
    for (const StoreOp *op = batch; op; op = op->next) {
        committed |= op->ok;
        if (op->ok) {
            st->ops_committed++;
        } else {
            st->ops_failed++;
            st->conflicts += op->conflict;
        }
    }
    if (committed) {
        st->batches++;
        store_histogram_add(&st->commit_ms, ms);
    }
}

/* The writer's first step: nothing is committed (or acknowledged) before the database passed its check. */
static void writer_begin(Worker *w, void *owner, int thread) {
    (void)w, (void)thread;
    store_check_wait(owner, NULL, 0);
}

/* Everything queued since the last batch, as one batch: one transaction, one fsync. */
static void writer_run(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)n, (void)thread;
    SqliteStore *s = owner;
    StoreOp *batch = jobs;
    store_test_commit_delay();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    write_batch(s, batch);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    /* Counted before the batch is handed back. */
    pthread_mutex_lock(&s->mutex);
    count_batch(&s->stats, batch, (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
    pthread_mutex_unlock(&s->mutex);
}

bool store_sqlite_writer_start(SqliteStore *s, char *err, size_t err_size) {
    char why[200];
    /* The checkpoints: one at a time, at most one more waiting; one asked for at close is left out. */
    WorkerConfig checkpoints = {.threads = 1,
                                .next_offset = offsetof(CheckpointJob, next),
                                .queue_max = 1,
                                .owner = s,
                                .run = checkpoint_run,
                                .free_job = free};
    if (!(s->checkpointer = worker_new(&checkpoints, why, sizeof why))) {
        store_set_err(err, err_size, "cannot start the store's %s thread: %s", "checkpoint", why);
        return false;
    }
    /* The ops: all that wait as one batch, handed back to the loop; close commits what is queued. */
    WorkerConfig writer = {.threads = 1,
                           .next_offset = offsetof(StoreOp, next),
                           .batch_max = INT_MAX,
                           .drain = true,
                           .hand_back = true,
                           .owner = s,
                           .run = writer_run,
                           .start = writer_begin,
                           .wake = s->wake,
                           .wake_ctx = s->wake_ctx};
    if (!(s->writer = worker_new(&writer, why, sizeof why))) {
        store_set_err(err, err_size, "cannot start the store's %s thread: %s", "writer", why);
        return false;
    }
    return true;
}

bool store_sqlite_writer_prepare(SqliteStore *s, char *err, size_t err_size) {
    sqlite3_wal_hook(s->db, on_wal_commit, s);
    for (int i = 0; i < ST_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, writer_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL) != SQLITE_OK) {
            store_set_err(err, err_size, "preparing \"%.40s\": %s", writer_sql[i], sqlite3_errmsg(s->db));
            return false;
        }
    }
    return true;
}
