/* The SQLite store: one write connection owned by a writer thread that commits everything queued
 * meanwhile in one transaction (group commit: one fsync per batch), each operation inside its own
 * savepoint so a failing one is rolled back alone. Reads (load) use a connection of their own.
 *
 * Durability: WAL with synchronous=FULL fsyncs the log on every COMMIT, so an operation reported ok
 * survives a crash or power loss; ok is only set after COMMIT returned.
 *
 * Error texts are technical (they carry SQLite's English messages) and meant for the server's log;
 * the caller words what a person sees. */
#define _POSIX_C_SOURCE 200809L /* mkdir, pthread_sigmask */

#include "store.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* How long a connection waits for a lock held by another connection (another process, or load()
 * while a checkpoint runs) before an operation fails. */
#define STORE_BUSY_TIMEOUT_MS 5000

/* Checkpoints (copying the WAL back into the database file, with an fsync of its own) run on a
 * thread and connection of their own once the WAL holds this many pages, so a commit never waits
 * for one. SQLite's automatic checkpoint would run inside the COMMIT of whichever batch crosses the
 * limit and delay every op queued behind it by the whole checkpoint. */
#define STORE_CHECKPOINT_PAGES 1000
/* A checkpoint running beside a busy writer may never catch up with it completely, and the WAL only
 * starts over once it has; past this size the writer checkpoints itself between batches. */
#define STORE_CHECKPOINT_FORCE_PAGES 16000

/* The schema, one step per version: step i brings user_version from i to i+1 in one transaction.
 * Never edit a step that has shipped; append a new one. */
static const char *const store_migrations[] = {
    /* 1: games and their moves. A zero hash (nobody holds the side, no invitation) is NULL. */
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY NOT NULL,"
    "  created_ms INTEGER NOT NULL,"
    "  updated_ms INTEGER NOT NULL,"
    "  start_fen TEXT NOT NULL,"
    "  mode TEXT NOT NULL,"
    "  time_type TEXT NOT NULL,"
    "  minutes INTEGER NOT NULL,"
    "  increment INTEGER NOT NULL,"
    "  days INTEGER NOT NULL,"
    "  secret_hash_white BLOB,"
    "  secret_hash_black BLOB,"
    "  invite_hash BLOB,"
    "  invite_color INTEGER NOT NULL,"
    "  result TEXT NOT NULL,"
    "  termination TEXT NOT NULL,"
    "  draw_offer INTEGER NOT NULL,"
    "  clock_white_ms INTEGER NOT NULL,"
    "  clock_black_ms INTEGER NOT NULL,"
    "  turn_started_ms INTEGER NOT NULL"
    ");"
    /* Finished games by age: what a clean-up of old games walks. */
    "CREATE INDEX games_finished_by_update ON games(updated_ms) WHERE result <> '';"
    "CREATE TABLE moves ("
    "  game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,"
    "  ply INTEGER NOT NULL CHECK (ply >= 0),"
    "  uci TEXT NOT NULL,"
    "  at_ms INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, ply)"
    ") WITHOUT ROWID;",
    /* 2: games against the computer name the engine level they play at ("" for other games). */
    "ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT '';",
    /* 3: start-up reads only the games in play, whatever the number of finished ones. */
    "CREATE INDEX games_in_play ON games(created_ms, id) WHERE result = '';",
};
#define STORE_SCHEMA_VERSION ((int)(sizeof store_migrations / sizeof store_migrations[0]))

/* Parameter numbers of a game row, shared by the INSERT and the UPDATE statement. */
enum {
    GP_ID = 1,
    GP_CREATED,
    GP_UPDATED,
    GP_START_FEN,
    GP_MODE,
    GP_TIME_TYPE,
    GP_MINUTES,
    GP_INCREMENT,
    GP_DAYS,
    GP_SECRET_WHITE,
    GP_SECRET_BLACK,
    GP_INVITE_HASH,
    GP_INVITE_COLOR,
    GP_RESULT,
    GP_TERMINATION,
    GP_DRAW_OFFER,
    GP_CLOCK_WHITE,
    GP_CLOCK_BLACK,
    GP_TURN_STARTED,
    GP_LEVEL,
};

#define GAME_COLUMNS                                                                                                   \
    "id, created_ms, updated_ms, start_fen, mode, time_type, minutes, increment, days, secret_hash_white,"             \
    " secret_hash_black, invite_hash, invite_color, result, termination, draw_offer, clock_white_ms,"                  \
    " clock_black_ms, turn_started_ms, level"

static const char SQL_INSERT_GAME[] =
    "INSERT INTO games (" GAME_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
    " ?14, ?15, ?16, ?17, ?18, ?19, ?20)";
static const char SQL_UPDATE_GAME[] =
    "UPDATE games SET created_ms = ?2, updated_ms = ?3, start_fen = ?4, mode = ?5, time_type = ?6,"
    " minutes = ?7, increment = ?8, days = ?9, secret_hash_white = ?10, secret_hash_black = ?11,"
    " invite_hash = ?12, invite_color = ?13, result = ?14, termination = ?15, draw_offer = ?16,"
    " clock_white_ms = ?17, clock_black_ms = ?18, turn_started_ms = ?19, level = ?20 WHERE id = ?1";
/* Inserts only when ply is the next one, so a gap (a lost move) is refused like a duplicate. */
static const char SQL_APPEND_MOVE[] = "INSERT INTO moves (game_id, ply, uci, at_ms) SELECT ?1, ?2, ?3, ?4"
                                      " WHERE ?2 = (SELECT coalesce(max(ply) + 1, 0) FROM moves WHERE game_id = ?1)";
static const char SQL_SELECT_GAMES[] =
    "SELECT " GAME_COLUMNS " FROM games INDEXED BY games_in_play WHERE result = '' ORDER BY created_ms, id";
static const char SQL_SELECT_GAME[] = "SELECT " GAME_COLUMNS " FROM games WHERE id = ?1";
static const char SQL_SELECT_RECENT[] = "SELECT " GAME_COLUMNS " FROM games INDEXED BY games_finished_by_update"
                                        " WHERE result <> '' ORDER BY updated_ms DESC LIMIT ?1";
static const char SQL_SELECT_MOVES[] = "SELECT ply, uci, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply";

/* The writer's statements, prepared once. */
enum {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROLLBACK,
    ST_SAVEPOINT,
    ST_RELEASE,
    ST_ROLLBACK_TO,
    ST_INSERT_GAME,
    ST_UPDATE_GAME,
    ST_APPEND_MOVE,
    ST_COUNT
};

/* clang-format off */
static const char *const writer_sql[ST_COUNT] = {
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
    [ST_ROLLBACK] = "ROLLBACK",
    [ST_SAVEPOINT] = "SAVEPOINT op",
    [ST_RELEASE] = "RELEASE op",
    [ST_ROLLBACK_TO] = "ROLLBACK TO op",
    [ST_INSERT_GAME] = SQL_INSERT_GAME,
    [ST_UPDATE_GAME] = SQL_UPDATE_GAME,
    [ST_APPEND_MOVE] = SQL_APPEND_MOVE,
};
/* clang-format on */

typedef struct SqliteStore {
    Store base;
    char *path;
    sqlite3 *db; /* the write connection: the writer thread's alone once it runs */
    sqlite3_stmt *stmt[ST_COUNT];
    void (*wake)(void *);
    void *wake_ctx;

    pthread_t thread, checkpointer;
    bool thread_started, checkpointer_started;
    sqlite3 *checkpoint_db; /* the checkpointer's connection */
    /* The event loop's read connection for get() and recent(), opened on first use. */
    sqlite3 *read_db;
    sqlite3_stmt *read_game, *read_moves, *read_recent;
    StoredMove *read_buf;
    int read_cap;

    pthread_mutex_t mutex;          /* guards everything below */
    pthread_cond_t cond;            /* signalled when ops are queued or stopping is set */
    pthread_cond_t checkpoint_cond; /* signalled when checkpoint_wanted or checkpoint_stopping is set */
    StoreOp *queue_head, *queue_tail;
    StoreOp *done_head, *done_tail;
    bool stopping;
    bool checkpoint_wanted, checkpoint_stopping;
} SqliteStore;

static void set_err(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t size, const char *fmt, ...) {
    if (!err || size == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
}

/* mkdir -p for the folder part of path. */
static bool make_parent_dirs(const char *path, char *err, size_t err_size) {
    size_t len = strlen(path);
    char *dir = malloc(len + 1);
    if (!dir) {
        set_err(err, err_size, "out of memory");
        return false;
    }
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    bool ok = true;
    if (slash && slash != dir) {
        *slash = '\0';
        /* Create each prefix in turn; existing ones are fine. */
        for (char *p = dir + 1;; p++) {
            if (*p != '/' && *p != '\0')
                continue;
            char saved = *p;
            *p = '\0';
            struct stat st;
            int mkdir_errno = mkdir(dir, 0700) == 0 ? 0 : errno;
            /* An existing folder is fine (mkdir may say EACCES or EROFS rather than EEXIST). */
            if (mkdir_errno && !(stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) {
                set_err(err, err_size, "cannot create folder %s: %s", dir, strerror(mkdir_errno));
                ok = false;
            }
            *p = saved;
            if (!ok || saved == '\0')
                break;
        }
    }
    free(dir);
    return ok;
}

static bool exec_sql(sqlite3 *db, const char *sql, const char *what, char *err, size_t err_size) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        set_err(err, err_size, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return false;
    }
    return true;
}

/* Runs a statement that returns one integer row (PRAGMA user_version). */
static bool query_int(sqlite3 *db, const char *sql, int *out, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    bool ok = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *out = sqlite3_column_int(st, 0);
    else
        set_err(err, err_size, "%s: %s", sql, sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return ok;
}

/* Opens a connection with the settings every connection of the store needs. */
static sqlite3 *open_connection(const char *path, char *err, size_t err_size) {
    sqlite3 *db = NULL;
    /* NOMUTEX: each connection is used by one thread at a time (handed over by pthread_create/join). */
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        set_err(err, err_size, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    if (!exec_sql(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", path, err, err_size)) {
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* WAL lets load() read while the writer commits and makes each commit one sequential log write. */
static bool enable_wal(sqlite3 *db, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    bool ok = false;
    if (sqlite3_prepare_v2(db, "PRAGMA journal_mode = WAL", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
        const char *mode = (const char *)sqlite3_column_text(st, 0);
        ok = mode && strcmp(mode, "wal") == 0;
        if (!ok)
            set_err(err, err_size, "the database cannot use WAL mode (journal mode stays %s)", mode ? mode : "?");
    } else {
        set_err(err, err_size, "PRAGMA journal_mode = WAL: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return ok;
}

/* Brings the schema up to STORE_SCHEMA_VERSION, one transaction per step. */
static bool migrate(sqlite3 *db, char *err, size_t err_size) {
    int version = 0;
    if (!query_int(db, "PRAGMA user_version", &version, err, err_size))
        return false;
    if (version > STORE_SCHEMA_VERSION) {
        set_err(err, err_size, "the database has schema version %d, newer than this program's %d", version,
                STORE_SCHEMA_VERSION);
        return false;
    }
    for (; version < STORE_SCHEMA_VERSION; version++) {
        char what[64], bump[64];
        snprintf(what, sizeof what, "schema migration %d", version + 1);
        snprintf(bump, sizeof bump, "PRAGMA user_version = %d", version + 1);
        /* user_version lives in the database header, so it commits or rolls back with the step. */
        if (!exec_sql(db, "BEGIN IMMEDIATE", what, err, err_size))
            return false;
        if (!exec_sql(db, store_migrations[version], what, err, err_size) || !exec_sql(db, bump, what, err, err_size) ||
            !exec_sql(db, "COMMIT", what, err, err_size)) {
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return false;
        }
    }
    return true;
}

/* ---- the writer ---- */

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

static int bind_record(sqlite3_stmt *st, const GameRecord *r) {
    /* The record lives until its op comes back, so SQLite need not copy the texts. */
    int rc = sqlite3_bind_text(st, GP_ID, r->id, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int64(st, GP_CREATED, r->created_ms);
    rc |= sqlite3_bind_int64(st, GP_UPDATED, r->updated_ms);
    rc |= sqlite3_bind_text(st, GP_START_FEN, r->start_fen, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_MODE, r->mode, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_TIME_TYPE, r->time_type, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_MINUTES, r->minutes);
    rc |= sqlite3_bind_int(st, GP_INCREMENT, r->increment);
    rc |= sqlite3_bind_int(st, GP_DAYS, r->days);
    rc |= bind_hash(st, GP_SECRET_WHITE, r->secret_hash[0]);
    rc |= bind_hash(st, GP_SECRET_BLACK, r->secret_hash[1]);
    rc |= bind_hash(st, GP_INVITE_HASH, r->invite_hash);
    rc |= sqlite3_bind_int(st, GP_INVITE_COLOR, r->invite_color);
    rc |= sqlite3_bind_text(st, GP_RESULT, r->result, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_text(st, GP_TERMINATION, r->termination, -1, SQLITE_STATIC);
    rc |= sqlite3_bind_int(st, GP_DRAW_OFFER, r->draw_offer);
    rc |= sqlite3_bind_int64(st, GP_CLOCK_WHITE, r->clock_ms[0]);
    rc |= sqlite3_bind_int64(st, GP_CLOCK_BLACK, r->clock_ms[1]);
    rc |= sqlite3_bind_int64(st, GP_TURN_STARTED, r->turn_started_ms);
    rc |= sqlite3_bind_text(st, GP_LEVEL, r->level, -1, SQLITE_STATIC);
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
    snprintf(op->error, sizeof op->error, "%s of game %s: %s", what, op->record.id, sqlite3_errmsg(db));
}

/* Runs the writes of one op (inside its savepoint); false with op->error filled on failure. */
static bool apply_op(SqliteStore *s, StoreOp *op) {
    if (!op->create && !op->update && !op->append) {
        snprintf(op->error, sizeof op->error, "operation on game %s names no write", op->record.id);
        return false;
    }
    if (op->create) {
        sqlite3_stmt *st = s->stmt[ST_INSERT_GAME];
        if (!run_bound(st, bind_record(st, &op->record))) {
            op_fail(op, s->db, "create");
            return false;
        }
    }
    if (op->update) {
        sqlite3_stmt *st = s->stmt[ST_UPDATE_GAME];
        if (!run_bound(st, bind_record(st, &op->record))) {
            op_fail(op, s->db, "update");
            return false;
        }
        if (sqlite3_changes(s->db) != 1) {
            snprintf(op->error, sizeof op->error, "update of game %s: no such game", op->record.id);
            return false;
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

/* One transaction for the whole batch; each op in a savepoint so its failure stays its own. */
static void run_batch(SqliteStore *s, StoreOp *batch) {
    sqlite3 *db = s->db;
    if (!run_stmt(s->stmt[ST_BEGIN])) {
        fail_all(batch, "begin", sqlite3_errmsg(db));
        return;
    }
    for (StoreOp *op = batch; op; op = op->next) {
        op->error[0] = '\0';
        if (!run_stmt(s->stmt[ST_SAVEPOINT])) {
            op_fail(op, db, "savepoint");
        } else {
            op->ok = apply_op(s, op);
            if (!op->ok)
                run_stmt(s->stmt[ST_ROLLBACK_TO]);
            run_stmt(s->stmt[ST_RELEASE]);
        }
        if (sqlite3_get_autocommit(db)) {
            /* Some errors (I/O, disk full, out of memory) roll the whole transaction back: nothing of
             * this batch will be committed. */
            fail_all(batch, "transaction rolled back", op->error[0] ? op->error : sqlite3_errmsg(db));
            return;
        }
    }
    if (!run_stmt(s->stmt[ST_COMMIT])) {
        char msg[sizeof batch->error];
        snprintf(msg, sizeof msg, "%s", sqlite3_errmsg(db));
        if (!sqlite3_get_autocommit(db))
            run_stmt(s->stmt[ST_ROLLBACK]);
        fail_all(batch, "commit", msg);
    }
}

/* Called by SQLite in the writer thread after each commit, with the WAL's size in pages. Replaces the
 * automatic checkpoint. */
static int on_wal_commit(void *ctx, sqlite3 *db, const char *name, int pages) {
    SqliteStore *s = ctx;
    if (pages >= STORE_CHECKPOINT_FORCE_PAGES) {
        /* Nothing else writes now, so this checkpoint completes and the next batch restarts the WAL. */
        sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    } else if (pages >= STORE_CHECKPOINT_PAGES) {
        pthread_mutex_lock(&s->mutex);
        s->checkpoint_wanted = true;
        pthread_cond_signal(&s->checkpoint_cond);
        pthread_mutex_unlock(&s->mutex);
    }
    return SQLITE_OK;
}

/* PASSIVE checkpoints run beside the writer's commits without blocking them. */
static void *checkpointer_main(void *arg) {
    SqliteStore *s = arg;
    pthread_mutex_lock(&s->mutex);
    for (;;) {
        while (!s->checkpoint_wanted && !s->checkpoint_stopping)
            pthread_cond_wait(&s->checkpoint_cond, &s->mutex);
        if (s->checkpoint_stopping)
            break;
        s->checkpoint_wanted = false;
        pthread_mutex_unlock(&s->mutex);
        sqlite3_wal_checkpoint_v2(s->checkpoint_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&s->mutex);
    }
    pthread_mutex_unlock(&s->mutex);
    return NULL;
}

static void *writer_main(void *arg) {
    SqliteStore *s = arg;
    pthread_mutex_lock(&s->mutex);
    for (;;) {
        while (!s->queue_head && !s->stopping)
            pthread_cond_wait(&s->cond, &s->mutex);
        if (!s->queue_head)
            break; /* stopping, and everything submitted is done */
        StoreOp *batch = s->queue_head;
        StoreOp *last = s->queue_tail;
        s->queue_head = s->queue_tail = NULL;
        pthread_mutex_unlock(&s->mutex);

        run_batch(s, batch);

        pthread_mutex_lock(&s->mutex);
        if (s->done_tail)
            s->done_tail->next = batch;
        else
            s->done_head = batch;
        s->done_tail = last;
        pthread_mutex_unlock(&s->mutex);
        /* Outside the lock: the wake function may take the mutex of whoever it wakes. */
        if (s->wake)
            s->wake(s->wake_ctx);
        pthread_mutex_lock(&s->mutex);
    }
    pthread_mutex_unlock(&s->mutex);
    return NULL;
}

/* ---- the vtable ---- */

static void sqlite_submit(Store *store, StoreOp *op) {
    SqliteStore *s = (SqliteStore *)store;
    op->ok = false;
    op->error[0] = '\0';
    op->next = NULL;
    pthread_mutex_lock(&s->mutex);
    if (s->queue_tail)
        s->queue_tail->next = op;
    else
        s->queue_head = op;
    s->queue_tail = op;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->mutex);
}

static StoreOp *sqlite_take_done(Store *store) {
    SqliteStore *s = (SqliteStore *)store;
    pthread_mutex_lock(&s->mutex);
    StoreOp *done = s->done_head;
    s->done_head = s->done_tail = NULL;
    pthread_mutex_unlock(&s->mutex);
    return done;
}

/* Copies a text column into a fixed field; false when it does not fit. */
static bool column_text(sqlite3_stmt *st, int col, char *out, size_t size) {
    const unsigned char *text = sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (len >= size)
        return false;
    if (len)
        memcpy(out, text, len);
    out[len] = '\0';
    return true;
}

static bool column_hash(sqlite3_stmt *st, int col, unsigned char *out) {
    if (sqlite3_column_type(st, col) == SQLITE_NULL) {
        memset(out, 0, STORE_HASH_LEN);
        return true;
    }
    const void *blob = sqlite3_column_blob(st, col);
    if (sqlite3_column_bytes(st, col) != STORE_HASH_LEN)
        return false;
    memcpy(out, blob, STORE_HASH_LEN);
    return true;
}

/* Fills r from a row of SQL_SELECT_GAMES (columns are parameter numbers - 1). */
static bool read_record(sqlite3_stmt *st, GameRecord *r) {
    memset(r, 0, sizeof *r);
    r->created_ms = sqlite3_column_int64(st, GP_CREATED - 1);
    r->updated_ms = sqlite3_column_int64(st, GP_UPDATED - 1);
    r->minutes = sqlite3_column_int(st, GP_MINUTES - 1);
    r->increment = sqlite3_column_int(st, GP_INCREMENT - 1);
    r->days = sqlite3_column_int(st, GP_DAYS - 1);
    r->invite_color = sqlite3_column_int(st, GP_INVITE_COLOR - 1);
    r->draw_offer = sqlite3_column_int(st, GP_DRAW_OFFER - 1);
    r->clock_ms[0] = sqlite3_column_int64(st, GP_CLOCK_WHITE - 1);
    r->clock_ms[1] = sqlite3_column_int64(st, GP_CLOCK_BLACK - 1);
    r->turn_started_ms = sqlite3_column_int64(st, GP_TURN_STARTED - 1);
    return column_text(st, GP_ID - 1, r->id, sizeof r->id) &&
           column_text(st, GP_START_FEN - 1, r->start_fen, sizeof r->start_fen) &&
           column_text(st, GP_MODE - 1, r->mode, sizeof r->mode) &&
           column_text(st, GP_TIME_TYPE - 1, r->time_type, sizeof r->time_type) &&
           column_text(st, GP_RESULT - 1, r->result, sizeof r->result) &&
           column_text(st, GP_TERMINATION - 1, r->termination, sizeof r->termination) &&
           column_hash(st, GP_SECRET_WHITE - 1, r->secret_hash[0]) &&
           column_hash(st, GP_SECRET_BLACK - 1, r->secret_hash[1]) &&
           column_hash(st, GP_INVITE_HASH - 1, r->invite_hash) &&
           column_text(st, GP_LEVEL - 1, r->level, sizeof r->level);
}

/* Reads the moves of game id into *moves (grown as needed); -1 on a bad row or no memory. */
static int read_moves(sqlite3_stmt *st, const char *id, StoredMove **moves, int *cap, char *err, size_t err_size) {
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int count = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == *cap) {
            int grown = *cap ? *cap * 2 : 256;
            StoredMove *more = realloc(*moves, (size_t)grown * sizeof **moves);
            if (!more) {
                set_err(err, err_size, "out of memory");
                count = -1;
                break;
            }
            *moves = more;
            *cap = grown;
        }
        StoredMove *m = &(*moves)[count];
        memset(m, 0, sizeof *m);
        if (sqlite3_column_int(st, 0) != count || !column_text(st, 1, m->uci, sizeof m->uci)) {
            set_err(err, err_size, "game %s: bad stored move at ply %d", id, count);
            count = -1;
            break;
        }
        m->at_ms = sqlite3_column_int64(st, 2);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        set_err(err, err_size, "reading the moves of game %s: %s", id, sqlite3_errmsg(sqlite3_db_handle(st)));
        count = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return count;
}

/* A read connection of its own, so loading never waits for (or disturbs) the writer. */
static bool sqlite_load(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    sqlite3 *db = open_connection(s->path, err, err_size);
    if (!db)
        return false;
    sqlite3_stmt *games = NULL, *moves_st = NULL;
    StoredMove *moves = NULL;
    int cap = 0;
    bool ok = exec_sql(db, "PRAGMA query_only = ON; BEGIN", "load", err, err_size);
    if (ok && (sqlite3_prepare_v2(db, SQL_SELECT_GAMES, -1, &games, NULL) != SQLITE_OK ||
               sqlite3_prepare_v2(db, SQL_SELECT_MOVES, -1, &moves_st, NULL) != SQLITE_OK)) {
        set_err(err, err_size, "load: %s", sqlite3_errmsg(db));
        ok = false;
    }
    int rc = SQLITE_DONE;
    while (ok && (rc = sqlite3_step(games)) == SQLITE_ROW) {
        GameRecord record;
        if (!read_record(games, &record)) {
            const unsigned char *id = sqlite3_column_text(games, GP_ID - 1);
            set_err(err, err_size, "game %.40s: a stored field does not fit", id ? (const char *)id : "?");
            ok = false;
            break;
        }
        int count = read_moves(moves_st, record.id, &moves, &cap, err, err_size);
        if (count < 0) {
            ok = false;
            break;
        }
        each(ctx, &record, moves, count);
    }
    if (ok && rc != SQLITE_DONE) {
        set_err(err, err_size, "load: %s", sqlite3_errmsg(db));
        ok = false;
    }
    sqlite3_finalize(games);
    sqlite3_finalize(moves_st);
    free(moves);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL); /* ends the read transaction */
    sqlite3_close(db);
    return ok;
}

/* Opens the loop's read connection and its statements once. */
static bool read_ready(SqliteStore *s, char *err, size_t err_size) {
    if (s->read_db)
        return true;
    s->read_db = open_connection(s->path, err, err_size);
    if (!s->read_db)
        return false;
    if (!exec_sql(s->read_db, "PRAGMA query_only = ON", "read connection", err, err_size) ||
        sqlite3_prepare_v3(s->read_db, SQL_SELECT_GAME, -1, SQLITE_PREPARE_PERSISTENT, &s->read_game, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v3(s->read_db, SQL_SELECT_MOVES, -1, SQLITE_PREPARE_PERSISTENT, &s->read_moves, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v3(s->read_db, SQL_SELECT_RECENT, -1, SQLITE_PREPARE_PERSISTENT, &s->read_recent, NULL) !=
            SQLITE_OK) {
        if (s->read_db && err && !err[0])
            set_err(err, err_size, "read connection: %s", sqlite3_errmsg(s->read_db));
        return false;
    }
    return true;
}

/* Steps st (a game query, bound) and hands each row with its moves to each; count or -1. All rows
 * come from one read transaction, so a game and its moves match. */
static int read_games(SqliteStore *s, sqlite3_stmt *st, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    int count = 0, rc;
    if (sqlite3_exec(s->read_db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        set_err(err, err_size, "read: %s", sqlite3_errmsg(s->read_db));
        sqlite3_reset(st);
        return -1;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        GameRecord record;
        if (!read_record(st, &record)) {
            set_err(err, err_size, "a stored game field does not fit");
            count = -1;
            break;
        }
        int moves = read_moves(s->read_moves, record.id, &s->read_buf, &s->read_cap, err, err_size);
        if (moves < 0) {
            count = -1;
            break;
        }
        each(ctx, &record, s->read_buf, moves);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        set_err(err, err_size, "read: %s", sqlite3_errmsg(s->read_db));
        count = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    sqlite3_exec(s->read_db, "COMMIT", NULL, NULL, NULL);
    return count;
}

static int sqlite_get(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (!read_ready(s, err, err_size))
        return -1;
    sqlite3_bind_text(s->read_game, 1, id, -1, SQLITE_TRANSIENT);
    int n = read_games(s, s->read_game, each, ctx, err, err_size);
    return n < 0 ? -1 : n > 0;
}

static int sqlite_recent(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (!read_ready(s, err, err_size))
        return -1;
    sqlite3_bind_int(s->read_recent, 1, max);
    return read_games(s, s->read_recent, each, ctx, err, err_size);
}

/* Stops the threads (the writer after everything queued) and frees the store. */
static void free_store(SqliteStore *s) {
    pthread_mutex_lock(&s->mutex);
    s->stopping = true;
    pthread_cond_signal(&s->cond);
    pthread_mutex_unlock(&s->mutex);
    if (s->thread_started)
        pthread_join(s->thread, NULL);
    /* After the writer: its last commits may still ask for a checkpoint. */
    pthread_mutex_lock(&s->mutex);
    s->checkpoint_stopping = true;
    pthread_cond_signal(&s->checkpoint_cond);
    pthread_mutex_unlock(&s->mutex);
    if (s->checkpointer_started)
        pthread_join(s->checkpointer, NULL);
    sqlite3_close(s->checkpoint_db);
    sqlite3_finalize(s->read_game);
    sqlite3_finalize(s->read_moves);
    sqlite3_finalize(s->read_recent);
    sqlite3_close(s->read_db);
    free(s->read_buf);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    /* The last connection to close checkpoints the WAL completely and removes it. */
    sqlite3_close(s->db);
    pthread_cond_destroy(&s->checkpoint_cond);
    pthread_cond_destroy(&s->cond);
    pthread_mutex_destroy(&s->mutex);
    free(s->path);
    free(s);
}

/* Ops submitted before close() was called are committed; ops still in the done list are not returned
 * (their owner keeps them and may free them once close() returned). */
static void sqlite_close(Store *store) { free_store((SqliteStore *)store); }

static const StoreVtbl sqlite_vtbl = {
    .load = sqlite_load,
    .get = sqlite_get,
    .recent = sqlite_recent,
    .submit = sqlite_submit,
    .take_done = sqlite_take_done,
    .close = sqlite_close,
};

/* The store's threads run with every signal blocked, so the process's signals (SIGINT, SIGTERM) reach
 * the event loop's thread. */
static bool start_thread(pthread_t *thread, void *(*main_fn)(void *), SqliteStore *s, const char *what, char *err,
                         size_t err_size) {
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(thread, NULL, main_fn, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        set_err(err, err_size, "cannot start the store's %s thread: %s", what, strerror(rc));
        return false;
    }
    return true;
}

Store *store_sqlite_open(const char *path, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size) {
    if (!path || !*path) {
        set_err(err, err_size, "no database path");
        return NULL;
    }
    if (!make_parent_dirs(path, err, err_size))
        return NULL;
    SqliteStore *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        set_err(err, err_size, "out of memory");
        return NULL;
    }
    s->base.vtbl = &sqlite_vtbl;
    s->wake = wake;
    s->wake_ctx = wake_ctx;
    pthread_mutex_init(&s->mutex, NULL);
    pthread_cond_init(&s->cond, NULL);
    pthread_cond_init(&s->checkpoint_cond, NULL);

    bool ok = (s->db = open_connection(path, err, err_size)) != NULL && enable_wal(s->db, err, err_size) &&
              migrate(s->db, err, err_size) && (s->checkpoint_db = open_connection(path, err, err_size)) != NULL;
    if (ok)
        sqlite3_wal_hook(s->db, on_wal_commit, s);
    for (int i = 0; ok && i < ST_COUNT; i++) {
        if (sqlite3_prepare_v3(s->db, writer_sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s->stmt[i], NULL) != SQLITE_OK) {
            set_err(err, err_size, "preparing \"%.40s\": %s", writer_sql[i], sqlite3_errmsg(s->db));
            ok = false;
        }
    }
    ok = ok &&
         (s->checkpointer_started = start_thread(&s->checkpointer, checkpointer_main, s, "checkpoint", err, err_size));
    ok = ok && (s->thread_started = start_thread(&s->thread, writer_main, s, "writer", err, err_size));
    if (!ok) {
        free_store(s);
        return NULL;
    }
    return &s->base;
}
