/* The SQLite store: opening it (the checks a database must pass first, the connections' settings),
 * its vtable, and closing it. The writer thread and its checkpoints (workers, worker.h) are in
 * store_sqlite_writer.c; reads (store_sqlite_read.c), start-up checks (store_check.c), the schema
 * (store_schema.c), backups (store_backup.c) and the accounts' connection (store_sqlite_accounts.c)
 * live beside it.
 *
 * Error texts are technical (they carry SQLite's English messages) and meant for the server's log;
 * the caller words what a person sees. */
#define _POSIX_C_SOURCE 200809L /* mkdir, sigaction */

#include "store_sqlite_internal.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void store_set_err(char *err, size_t size, const char *fmt, ...) {
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
        store_set_err(err, err_size, "out of memory");
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
                store_set_err(err, err_size, "cannot create folder %s: %s", dir, strerror(mkdir_errno));
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

bool store_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t err_size) {
    char *msg = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        store_set_err(err, err_size, "%s: %s", what, msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return false;
    }
    return true;
}

sqlite3 *store_open_connection(const char *path, int flags, char *err, size_t err_size) {
    sqlite3 *db = NULL;
    /* A connection opened read-only does not take unix-excl's process lock and maps a -shm file after
     * all; readers open read-write and promise not to write (query_only). */
    bool reader = (flags & SQLITE_OPEN_READONLY) != 0;
    if (reader)
        flags = (flags & ~SQLITE_OPEN_READONLY) | SQLITE_OPEN_READWRITE;
    /* NOMUTEX: each connection is used by one thread at a time (handed over by a worker's start and end). */
    int rc = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, STORE_VFS);
    if (rc != SQLITE_OK) {
        store_set_err(err, err_size, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return NULL;
    }
    sqlite3_extended_result_codes(db, 1);
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    if (!store_exec(db, "PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL", path, err, err_size) ||
        (reader && !store_exec(db, "PRAGMA query_only = ON", path, err, err_size))) {
        int primary = sqlite3_errcode(db) & 0xff;
        if (primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT)
            store_check_integrity(db, path, NULL, err, err_size); /* the refusal that says what to do */
        sqlite3_close(db);
        return NULL;
    }
    return db;
}

/* ---- the vtable ---- */

static void sqlite_submit(Store *store, StoreOp *op) {
    SqliteStore *s = (SqliteStore *)store;
    op->ok = false;
    op->error[0] = '\0';
    worker_submit(s->writer, op); /* no bound, and nobody submits once close began */
}

static StoreOp *sqlite_take_done(Store *store) { return worker_take_done(((SqliteStore *)store)->writer); }

/* ---- open and close ---- */

/* Stops the threads (the writer after everything queued) and frees the store. */
static void free_store(SqliteStore *s) {
    store_backup_server_stop(s->backup);
    worker_free(s->writer);
    /* After the writer: its last commits may still ask for a checkpoint. */
    worker_free(s->checkpointer);
    worker_free(s->checkers);
    sqlite3_close(s->checkpoint_db);
    store_read_close(s);
    for (int i = 0; i < ST_COUNT; i++)
        sqlite3_finalize(s->stmt[i]);
    /* The last connection to close checkpoints the WAL completely and removes it. */
    sqlite3_close(s->db);
    if (s->registered)
        store_open_files_set(s->db_dev, s->db_ino, false);
    pthread_cond_destroy(&s->check_cond);
    pthread_mutex_destroy(&s->mutex);
    free(s->wal_path);
    free(s->path);
    free(s);
}

/* Ops submitted before close() was called are committed; ops still in the done list are not returned
 * (their owner keeps them and may free them once close() returned). */
static void sqlite_close(Store *store) { free_store((SqliteStore *)store); }

/* One process holds an SQLite database: nobody else commits, so there is nothing to announce. */
static StoreNotice *sqlite_take_notices(Store *store) {
    (void)store;
    return NULL;
}

/* The database answers unless a check found it damaged (then every write and stored read fails). */
static bool sqlite_ping(Store *store) {
    SqliteStore *s = (SqliteStore *)store;
    pthread_mutex_lock(&s->mutex);
    bool ok = s->check_state != STORE_CHECK_DAMAGED;
    pthread_mutex_unlock(&s->mutex);
    return ok;
}

static void sqlite_stats(Store *store, StoreStats *out) {
    SqliteStore *s = (SqliteStore *)store;
    pthread_mutex_lock(&s->mutex);
    *out = s->stats;
    out->connected = s->check_state != STORE_CHECK_DAMAGED;
    pthread_mutex_unlock(&s->mutex);
    out->queue_depth = worker_queued(s->writer);
    out->backend = "sqlite";
}

static const StoreVtbl sqlite_vtbl = {
    .load = store_read_load,
    .get = store_read_get,
    .recent = store_read_recent,
    .submit = sqlite_submit,
    .take_done = sqlite_take_done,
    .close = sqlite_close,
    .take_notices = sqlite_take_notices,
    .revs = store_read_revs,
    .ping = sqlite_ping,
    .stats = sqlite_stats,
    .scan = store_read_scan,
    .accounts_open = store_sqlite_accounts_open,
};

/* A write past a file-size limit (ulimit -f) must fail with EFBIG, which the store reports and
 * recovers from, rather than kill the server with SIGXFSZ. Left alone when someone set a handler. */
static void ignore_sigxfsz(void) {
    struct sigaction old;
    if (sigaction(SIGXFSZ, NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_IGN;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGXFSZ, &sa, NULL);
    }
}

/* Everything that must hold before the database is served: the file is this process's alone, its WAL
 * intact, its pages sound, and it can be written. */
static bool open_checked(SqliteStore *s, char *err, size_t err_size) {
    struct stat st;
    if (stat(s->path, &st) == 0) {
        if (store_open_in_process(s->path)) {
            store_set_err(err, err_size, "the database %s is already open in this process", s->path);
            return false;
        }
        if (!store_check_not_held(s->path, err, err_size) || !store_check_wal(s->path, err, err_size))
            return false;
    }
    s->db = store_open_connection(s->path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, err, err_size);
    if (!s->db || !store_check_not_read_only(s->db, s->path, err, err_size))
        return false;
    if (!store_enable_wal(s->db, err, err_size)) {
        int rc = sqlite3_errcode(s->db) & 0xff;
        if (rc == SQLITE_NOTADB || rc == SQLITE_CORRUPT)
            store_check_integrity(s->db, s->path, NULL, err, err_size); /* the refusal that says what to do */
        return false;
    }
    if (!store_check_start(s, err, err_size) || !store_migrate(s->db, err, err_size) ||
        !store_check_writable(s->db, s->path, err, err_size))
        return false;
    /* The files every batch compares against: the WAL exists from the write above until close. */
    struct stat wal;
    if (stat(s->path, &st) != 0 || stat(s->wal_path, &wal) != 0) {
        store_set_err(err, err_size, "cannot find %s or its WAL after opening it: %s", s->path, strerror(errno));
        return false;
    }
    s->db_dev = st.st_dev;
    s->db_ino = st.st_ino;
    s->wal_dev = wal.st_dev;
    s->wal_ino = wal.st_ino;
    s->registered = store_open_files_set(st.st_dev, st.st_ino, true);
    return true;
}

Store *store_sqlite_open(const char *path, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size) {
    if (!path || !*path) {
        store_set_err(err, err_size, "no database path");
        return NULL;
    }
    if (!make_parent_dirs(path, err, err_size))
        return NULL;
    ignore_sigxfsz();
    SqliteStore *s = calloc(1, sizeof *s);
    size_t len = strlen(path);
    if (!s || !(s->path = strdup(path)) || !(s->wal_path = malloc(len + 5))) {
        if (s)
            free(s->path);
        free(s);
        store_set_err(err, err_size, "out of memory");
        return NULL;
    }
    snprintf(s->wal_path, len + 5, "%s-wal", path);
    s->base.vtbl = &sqlite_vtbl;
    s->wake = wake;
    s->wake_ctx = wake_ctx;
    pthread_mutex_init(&s->mutex, NULL);
    pthread_cond_init(&s->check_cond, NULL);

    bool ok = open_checked(s, err, err_size) &&
              (s->checkpoint_db = store_open_connection(path, SQLITE_OPEN_READWRITE, err, err_size)) != NULL &&
              store_sqlite_writer_prepare(s, err, err_size) && store_sqlite_writer_start(s, err, err_size);
    if (!ok) {
        free_store(s);
        return NULL;
    }
    s->backup = store_backup_server_start(path);
    return &s->base;
}
