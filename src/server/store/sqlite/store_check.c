/* The SQLite store's start-up checks: the database is not held by another process, its WAL keeps
 * every committed transaction reachable, its pages are sound (PRAGMA quick_check) and it can be
 * written. Each refusal says what is wrong and what to do, because the person reading it is the one
 * who has to repair the files.
 *
 * Why validate the WAL ourselves: SQLite reads the log up to the first frame whose checksum does not
 * match and silently drops the rest, committed transactions included, and ignores a log whose header
 * is damaged altogether. After a crash that is exactly right for the torn tail of an unfinished
 * transaction; after bit-rot or a bad copy it loses acknowledged moves without a word. The format
 * (https://www.sqlite.org/fileformat.html, "WAL file format"): a 32-byte header (magic 0x377f0682
 * or 0x377f0683, version 3007000, page size, checkpoint sequence, two salts, a checksum of the first
 * 24 bytes), then frames of a 24-byte header (page number, database size after a commit or 0, the
 * salts, a checksum) and one page each. Checksums are cumulative over the header and every frame;
 * the magic's low bit says whether their 32-bit words are big-endian. */
#define _POSIX_C_SOURCE 200809L /* pread, fcntl */
#define _DEFAULT_SOURCE         /* syscall(SYS_gettid): a checker thread lowers its own priority */

#include "store_sqlite_internal.h"
#include "base/base.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define WAL_MAGIC        0x377f0682u
#define WAL_VERSION      3007000u
#define WAL_HEADER_SIZE  32
#define WAL_FRAME_HEADER 24

/* What to do, appended to every refusal of a damaged database. */
#define RESTORE_HINT                                                                                                   \
    "Restore it from a backup made with `schach backup` (stop the server, remove %s-wal, copy the backup over %s)"

bool store_is_storage_error(int rc) {
    switch (rc & 0xff) {
        case SQLITE_IOERR:
        case SQLITE_FULL:
        case SQLITE_CORRUPT:
        case SQLITE_NOTADB:
        case SQLITE_READONLY:
        case SQLITE_CANTOPEN:
        case SQLITE_BUSY:
        case SQLITE_LOCKED:
        case SQLITE_NOMEM:
        case SQLITE_PROTOCOL:
        case SQLITE_PERM: return true;
        default: return false;
    }
}

/* ---- the WAL ---- */

static uint32_t get_be32(const unsigned char *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint32_t get_le32(const unsigned char *p) {
    return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | (uint32_t)p[0];
}

/* SQLite's WAL checksum over len bytes (a multiple of 8), continuing from sum. */
static void wal_checksum(bool big_endian, const unsigned char *data, size_t len, uint32_t sum[2]) {
    uint32_t s0 = sum[0], s1 = sum[1];
    for (size_t i = 0; i + 8 <= len; i += 8) {
        uint32_t x0 = big_endian ? get_be32(data + i) : get_le32(data + i);
        uint32_t x1 = big_endian ? get_be32(data + i + 4) : get_le32(data + i + 4);
        s0 += x0 + s1;
        s1 += x1 + s0;
    }
    sum[0] = s0;
    sum[1] = s1;
}

/* The header as SQLite's recovery judges it; fills page size, byte order and the chain's start. */
static bool wal_header_valid(const unsigned char *h, uint32_t *page_size, bool *big_endian, uint32_t sum[2]) {
    uint32_t magic = get_be32(h), page = get_be32(h + 8);
    if ((magic & ~1u) != WAL_MAGIC || get_be32(h + 4) != WAL_VERSION || page < 512 || page > 65536 ||
        (page & (page - 1)) != 0)
        return false;
    *big_endian = magic & 1u;
    *page_size = page;
    sum[0] = sum[1] = 0;
    wal_checksum(*big_endian, h, 24, sum);
    return sum[0] == get_be32(h + 24) && sum[1] == get_be32(h + 28);
}

void store_wal_scan(uint64_t size, StoreWalRead read, void *ctx, StoreWalScan *out) {
    memset(out, 0, sizeof *out);
    out->verdict = STORE_WAL_OK;
    if (size < WAL_HEADER_SIZE)
        return; /* no header, so no frame either: nothing SQLite could drop */
    unsigned char h[WAL_HEADER_SIZE];
    if (!read(ctx, 0, h, sizeof h)) {
        out->read_error = true;
        return;
    }
    bool big_endian;
    uint32_t sum[2];
    if (!wal_header_valid(h, &out->page_size, &big_endian, sum)) {
        out->page_size = 0;
        if (size > WAL_HEADER_SIZE)
            out->verdict = STORE_WAL_BAD_HEADER;
        return;
    }
    size_t frame_size = WAL_FRAME_HEADER + (size_t)out->page_size;
    uint64_t frames = (size - WAL_HEADER_SIZE) / frame_size;
    unsigned char *frame = malloc(frame_size);
    if (!frame) {
        out->read_error = true;
        return;
    }
    bool broken = false;
    for (uint64_t i = 0; i < frames; i++) {
        if (!read(ctx, WAL_HEADER_SIZE + i * frame_size, frame, frame_size)) {
            out->read_error = true;
            break;
        }
        bool salts = memcmp(frame + 8, h + 16, 8) == 0;
        uint32_t page = get_be32(frame), commit = get_be32(frame + 4);
        if (broken) {
            /* Past the break, a frame of this log generation that ends a transaction means a
             * transaction committed after the damaged one: its fsync came after the damaged frame's. */
            if (salts && page != 0 && commit != 0)
                out->commits_after++;
            continue;
        }
        uint32_t next[2] = {sum[0], sum[1]};
        wal_checksum(big_endian, frame, 8, next);
        wal_checksum(big_endian, frame + WAL_FRAME_HEADER, out->page_size, next);
        if (salts && page != 0 && next[0] == get_be32(frame + 16) && next[1] == get_be32(frame + 20)) {
            sum[0] = next[0];
            sum[1] = next[1];
            out->valid_frames++;
            if (commit != 0)
                out->committed_frames = out->valid_frames;
        } else {
            broken = true;
            out->break_frame = i;
        }
    }
    if (!broken)
        out->break_frame = out->valid_frames;
    free(frame);
    if (out->commits_after > 0)
        out->verdict = STORE_WAL_LOST_COMMITS;
}

static bool read_fd(void *ctx, uint64_t offset, void *buf, size_t len) {
    int fd = *(int *)ctx;
    for (size_t done = 0; done < len;) {
        ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += (size_t)n;
    }
    return true;
}

bool store_check_wal(const char *path, char *err, size_t err_size) {
    size_t len = strlen(path);
    char *wal = malloc(len + 5);
    if (!wal) {
        store_set_err(err, err_size, "out of memory");
        return false;
    }
    snprintf(wal, len + 5, "%s-wal", path);
    int fd = open(wal, O_RDONLY | O_CLOEXEC);
    bool ok = true;
    struct stat st;
    StoreWalScan scan;
    if (fd < 0 && errno == ENOENT) {
        ok = true;
    } else if (fd < 0 || fstat(fd, &st) != 0) {
        store_set_err(err, err_size, "cannot read %s: %s", wal, strerror(errno));
        ok = false;
    } else {
        store_wal_scan((uint64_t)st.st_size, read_fd, &fd, &scan);
        ok = scan.verdict == STORE_WAL_OK && !scan.read_error;
        if (scan.read_error)
            store_set_err(err, err_size, "cannot read %s: %s", wal, errno ? strerror(errno) : "it changed while read");
        else if (scan.verdict == STORE_WAL_BAD_HEADER)
            store_set_err(err, err_size,
                          "the write-ahead log %s is damaged: its header is invalid, so SQLite would silently drop"
                          " the %lld bytes of changes in it. " RESTORE_HINT
                          "; or, to give up those changes, move %s aside and start again",
                          wal, (long long)st.st_size - WAL_HEADER_SIZE, path, path, wal);
        else if (scan.verdict == STORE_WAL_LOST_COMMITS)
            store_set_err(err, err_size,
                          "the write-ahead log %s is damaged at frame %llu, and %llu committed transaction(s) follow"
                          " that SQLite would silently drop. " RESTORE_HINT
                          "; or, to keep what comes before the damage and give up the rest, run"
                          " `sqlite3 %s 'PRAGMA wal_checkpoint(TRUNCATE)'` and start again",
                          wal, (unsigned long long)scan.break_frame + 1, (unsigned long long)scan.commits_after, path,
                          path, path);
    }
    if (fd >= 0)
        close(fd);
    free(wal);
    return ok;
}

/* ---- the database ---- */

/* The databases this process holds open, by file identity. A second store on the same file in one
 * process is refused before anything touches the file: closing a descriptor of a file drops every
 * POSIX lock the process holds on it, the unix-excl lock of the first store included. */
#define STORE_OPEN_MAX 16
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    dev_t dev;
    ino_t ino;
    bool used;
} open_files[STORE_OPEN_MAX];

static bool open_files_has(dev_t dev, ino_t ino) {
    bool found = false;
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < STORE_OPEN_MAX; i++)
        found |= open_files[i].used && open_files[i].dev == dev && open_files[i].ino == ino;
    pthread_mutex_unlock(&open_lock);
    return found;
}

bool store_open_in_process(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && open_files_has(st.st_dev, st.st_ino);
}

bool store_open_files_set(dev_t dev, ino_t ino, bool add) {
    bool done = false;
    pthread_mutex_lock(&open_lock);
    for (int i = 0; i < STORE_OPEN_MAX && !done; i++) {
        if (add && !open_files[i].used) {
            open_files[i].used = true;
            open_files[i].dev = dev;
            open_files[i].ino = ino;
            done = true;
        } else if (!add && open_files[i].used && open_files[i].dev == dev && open_files[i].ino == ino) {
            open_files[i].used = false;
            done = true;
        }
    }
    pthread_mutex_unlock(&open_lock);
    return done;
}

bool store_check_not_held(const char *path, char *err, size_t err_size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return true; /* SQLite says why it cannot open it */
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    bool free_to_use = fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type == F_UNLCK;
    close(fd); /* before SQLite opens the file: this process holds no lock on it yet */
    if (!free_to_use)
        store_set_err(err, err_size,
                      "the database %s is in use by another process (pid %ld: another schach serve, a schach backup"
                      " or a sqlite3 shell); stop it first, or give this server a database of its own with --db",
                      path, (long)fl.l_pid);
    return free_to_use;
}

static bool refuse_busy(sqlite3 *db, const char *path, char *err, size_t err_size) {
    int rc = sqlite3_errcode(db);
    if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
        return false;
    store_set_err(err, err_size,
                  "the database %s is in use by another process (another schach serve, a schach backup or a"
                  " sqlite3 shell); stop it first, or give this server a database of its own with --db",
                  path);
    return true;
}

bool store_check_integrity(sqlite3 *db, const char *path, const char *table, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    char first[200] = "";
    char *sql = table ? sqlite3_mprintf("PRAGMA quick_check(%Q)", table) : sqlite3_mprintf("PRAGMA quick_check");
    int rc = sql ? sqlite3_prepare_v2(db, sql, -1, &st, NULL) : SQLITE_NOMEM;
    sqlite3_free(sql);
    bool ok = rc == SQLITE_OK;
    while (ok && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (!line || strcmp(line, "ok") == 0 || first[0])
            continue;
        /* One line for the log: without the "*** in database main ***" heading, line breaks as "; ". */
        const char *heading = "*** in database main ***\n";
        if (strncmp(line, heading, strlen(heading)) == 0)
            line += strlen(heading);
        snprintf(first, sizeof first, "%s", line);
        for (char *p = first; *p; p++)
            if (*p == '\n')
                *p = ';';
    }
    if (ok && rc != SQLITE_DONE)
        ok = false;
    sqlite3_finalize(st);
    if (!ok && refuse_busy(db, path, err, err_size))
        return false;
    int primary = rc & 0xff;
    if (!ok && primary != SQLITE_CORRUPT && primary != SQLITE_NOTADB) {
        store_set_err(err, err_size, "cannot read the database %s: %s", path, sqlite3_errmsg(db));
        return false;
    }
    if (!ok || first[0]) {
        store_set_err(err, err_size, "the database %s is damaged (PRAGMA quick_check: %s). " RESTORE_HINT, path,
                      first[0] ? first : sqlite3_errmsg(db), path, path);
        return false;
    }
    return true;
}

bool store_check_not_read_only(sqlite3 *db, const char *path, char *err, size_t err_size) {
    if (sqlite3_db_readonly(db, "main") != 1)
        return true;
    store_set_err(err, err_size,
                  "the database %s is read-only for this user: make it, its -wal file and their folder writable by"
                  " the user that runs the server",
                  path);
    return false;
}

bool store_check_writable(sqlite3 *db, const char *path, char *err, size_t err_size) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    char sql[200];
    snprintf(sql, sizeof sql,
             "BEGIN IMMEDIATE; INSERT INTO store_meta (key, value) VALUES ('opened_ms', %lld)"
             " ON CONFLICT (key) DO UPDATE SET value = excluded.value; COMMIT",
             (long long)now.tv_sec * 1000 + now.tv_nsec / 1000000);
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK)
        return true;
    if (refuse_busy(db, path, err, err_size))
        return false;
    store_set_err(err, err_size,
                  "cannot write the database %s (%s): make sure the user that runs the server can write it, its"
                  " -wal file and their folder, and that the disk has room",
                  path, sqlite3_errmsg(db));
    if (!sqlite3_get_autocommit(db))
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    return false;
}

/* ---- the check of a large database, in parallel ---- */

/* One share of the tables: a job of the checkers' worker (s->checkers, one thread per share). */
typedef struct CheckPart {
    struct CheckPart *next;
    int part;
} CheckPart;

/* Checks every STORE_CHECK_THREADS-th table (by name, the schema table last) on a connection of its
 * own; the last part to finish decides. */
static void check_part(Worker *w, void *owner, void *jobs, int n, int thread) {
    (void)w, (void)n, (void)thread;
    CheckPart cp_copy = *(CheckPart *)jobs, *cp = &cp_copy;
    free(jobs);
    SqliteStore *s = owner;
    /* In the background the check takes what the loop, the writer and the computer leave over (on
     * Linux a thread has a nice value of its own). */
    if (s->check_background) {
        setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
        /* Tests: SCHACH_STORE_CHECK_DELAY_MS holds the check back, so the server surely serves before
         * the damage is found. */
        const char *delay = getenv("SCHACH_STORE_CHECK_DELAY_MS");
        long ms = delay ? strtol(delay, NULL, 10) : 0;
        if (ms > 0 && ms <= 60000) {
            struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
            nanosleep(&pause, NULL);
        }
    }
    char err[sizeof s->check_error] = "";
    sqlite3 *db = store_open_connection(s->path, SQLITE_OPEN_READONLY, err, sizeof err);
    sqlite3_stmt *tables = NULL;
    bool ok = db && sqlite3_prepare_v2(db,
                                       "SELECT name FROM sqlite_schema WHERE type = 'table'"
                                       " UNION ALL SELECT 'sqlite_schema'",
                                       -1, &tables, NULL) == SQLITE_OK;
    /* Without the list of tables the whole database is checked instead, and its verdict stands: a
     * list that could not be read once is no damage, and a verdict of damage says what it found. */
    if (db && !ok)
        ok = store_check_integrity(db, s->path, NULL, err, sizeof err);
    char name[200];
    for (int i = 0; ok && tables && sqlite3_step(tables) == SQLITE_ROW; i++) {
        if (i % STORE_CHECK_THREADS != cp->part)
            continue;
        snprintf(name, sizeof name, "%s", (const char *)sqlite3_column_text(tables, 0));
        /* In the list's read transaction: every table is checked in one snapshot. */
        ok = store_check_integrity(db, s->path, name, err, sizeof err);
    }
    sqlite3_finalize(tables);
    sqlite3_close(db);
    pthread_mutex_lock(&s->mutex);
    if (!ok && s->check_state != STORE_CHECK_DAMAGED) {
        s->check_state = STORE_CHECK_DAMAGED;
        snprintf(s->check_error, sizeof s->check_error, "%s", err);
        log_event(LOG_ERROR, "storage_damaged", "path", s->path, "error", err, (char *)NULL);
    }
    if (--s->check_parts_left == 0 && s->check_state == STORE_CHECK_RUNNING) {
        s->check_state = STORE_CHECK_OK;
        if (s->check_background) {
            char ms[32];
            snprintf(ms, sizeof ms, "%lld", (long long)(monotonic_ms() - s->check_started_ms));
            log_event(LOG_INFO, "storage_checked", "path", s->path, "ms", ms, (char *)NULL);
        }
    }
    pthread_cond_broadcast(&s->check_cond);
    pthread_mutex_unlock(&s->mutex);
}

static long long file_bytes(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 ? (long long)st.st_size : 0;
}

static long long check_limit_bytes = 128LL * 1024 * 1024;

void store_sqlite_set_check_limit(long long bytes) { check_limit_bytes = bytes < 0 ? 0 : bytes; }

bool store_check_start(SqliteStore *s, char *err, size_t err_size) {
    long long bytes = file_bytes(s->path) + file_bytes(s->wal_path);
    if (bytes <= STORE_CHECK_SYNC_BYTES && bytes <= check_limit_bytes)
        return store_check_integrity(s->db, s->path, NULL, err, err_size);
    s->check_background = bytes > check_limit_bytes;
    s->check_started_ms = monotonic_ms();
    if (s->check_background) {
        char mb[32];
        snprintf(mb, sizeof mb, "%lld", bytes / (1024 * 1024));
        log_event(LOG_INFO, "storage_check_background", "path", s->path, "mb", mb, (char *)NULL);
    }
    s->check_state = STORE_CHECK_RUNNING;
    s->check_parts_left = STORE_CHECK_THREADS;
    /* Every part runs, also when the store closes first (drain); each frees its part. */
    WorkerConfig checkers = {.threads = STORE_CHECK_THREADS,
                             .next_offset = offsetof(CheckPart, next),
                             .drain = true,
                             .owner = s,
                             .run = check_part,
                             .free_job = free};
    char why[200];
    s->checkers = worker_new(&checkers, why, sizeof why);
    int started = 0;
    for (int i = 0; s->checkers && i < STORE_CHECK_THREADS; i++) {
        CheckPart *cp = malloc(sizeof *cp);
        if (cp)
            *cp = (CheckPart){.part = i};
        if (!cp || !worker_submit(s->checkers, cp)) {
            free(cp);
            break;
        }
        started++;
    }
    worker_stop(s->checkers); /* its threads leave once the parts are done (joined at close) */
    if (started < STORE_CHECK_THREADS) {
        /* No thread for every part: wait for those that run, then check the whole file here. */
        pthread_mutex_lock(&s->mutex);
        s->check_parts_left -= STORE_CHECK_THREADS - started;
        pthread_mutex_unlock(&s->mutex);
        if (store_check_wait(s, err, err_size) != 0 || !store_check_integrity(s->db, s->path, NULL, err, err_size))
            return false;
        pthread_mutex_lock(&s->mutex);
        s->check_state = STORE_CHECK_OK;
        pthread_mutex_unlock(&s->mutex);
    }
    return true;
}

int store_check_wait(SqliteStore *s, char *err, size_t err_size) {
    pthread_mutex_lock(&s->mutex);
    while (!s->check_background && s->check_state == STORE_CHECK_RUNNING && s->check_parts_left > 0)
        pthread_cond_wait(&s->check_cond, &s->mutex);
    bool damaged = s->check_state == STORE_CHECK_DAMAGED;
    if (damaged)
        store_set_err(err, err_size, "%s", s->check_error);
    pthread_mutex_unlock(&s->mutex);
    return damaged ? -1 : 0;
}
