/* The SQLite store's parts, shared by its files: store_sqlite.c (open, close, the vtable),
 * store_sqlite_writer.c (the writer thread, its batches and faults, the checkpointer),
 * store_sqlite_read.c (load, get, recent), store_check.c (start-up checks, the WAL validator),
 * store_backup.c (online backups and their Unix socket) and the accounts' connection
 * (store_sqlite_accounts.c, store_sqlite_lobby.c, store_sqlite_ratings.c). Not for the rest of the
 * server: store.h and store_accounts.h are the interface. */
#ifndef SCHACH_SERVER_STORE_SQLITE_INTERNAL_H
#define SCHACH_SERVER_STORE_SQLITE_INTERNAL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/base.h"
#include "../store.h"
#include "../store_accounts.h"

/* Every connection of the store uses this VFS: it holds the database file locked for this process
 * alone (another process cannot open it) and keeps the WAL index in heap memory, so no -shm file is
 * ever mapped (and nothing done to one can raise SIGBUS). Connections of one process share the lock
 * and the index. */
#define STORE_VFS "unix-excl"

/* How long a connection waits for a lock held by another connection of this process (a read while
 * a checkpoint runs) before an operation fails. */
#define STORE_BUSY_TIMEOUT_MS 5000

/* The columns of a game row, in the order of GameParam below. */
#define STORE_GAME_COLUMNS                                                                                             \
    "id, created_ms, updated_ms, start_fen, mode, time_type, minutes, increment, days, secret_hash_white,"             \
    " secret_hash_black, invite_hash, invite_color, result, termination, draw_offer, clock_white_ms,"                  \
    " clock_black_ms, turn_started_ms, level, plies, reason, account_white, account_black, rated, rating_white,"       \
    " rating_black, rating_diff_white, rating_diff_black, rematch_offer, rematch_decline, rematch_game,"               \
    " seat_epoch_white, seat_epoch_black, provisional_white, provisional_black"

/* What reads select: the row's columns and its rev (column GP_REV - 1). */
#define STORE_GAME_SELECT STORE_GAME_COLUMNS ", rev"

/* Parameter numbers of a game row in the INSERT and UPDATE statements; a SELECT of STORE_GAME_COLUMNS
 * has them as column numbers + 1. */
enum GameParam {
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
    GP_PLIES,
    GP_REASON,
    GP_ACCOUNT_WHITE,
    GP_ACCOUNT_BLACK,
    GP_RATED,
    GP_RATING_WHITE,
    GP_RATING_BLACK,
    GP_RATING_DIFF_WHITE,
    GP_RATING_DIFF_BLACK,
    GP_REMATCH_OFFER,
    GP_REMATCH_DECLINE,
    GP_REMATCH_GAME,
    GP_SEAT_EPOCH_WHITE,
    GP_SEAT_EPOCH_BLACK,
    GP_PROVISIONAL_WHITE,
    GP_PROVISIONAL_BLACK,
    GP_REV, /* reads only */
};

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
    ST_BUMP_REV,
    ST_TRUNCATE_MOVES,
    ST_CLAIM,
    ST_GAME_EXISTS,
    ST_COUNT
};

typedef struct StoreBackupServer StoreBackupServer;

/* Threads that share the check of a large database (store_check.c). */
#define STORE_CHECK_THREADS 2

typedef struct SqliteStore {
    Store base;
    char *path;
    char *wal_path;
    sqlite3 *db; /* the write connection: the writer thread's alone once it runs */
    sqlite3_stmt *stmt[ST_COUNT];
    void (*wake)(void *);
    void *wake_ctx;

    Worker *writer;         /* one thread: the batches (store_sqlite_writer.c) */
    Worker *checkpointer;   /* one thread: the checkpoints the writer asks for */
    sqlite3 *checkpoint_db; /* the checkpointer's connection */
    /* The event loop's read connection for get() and recent(), opened on first use. */
    sqlite3 *read_db;
    sqlite3_stmt *read_game, *read_moves, *read_recent;
    StoredMove *read_buf;
    int read_cap;

    /* The writer thread's alone: which files the store opened, and the state of storage faults. */
    dev_t db_dev, wal_dev;
    ino_t db_ino, wal_ino;
    bool replaced;             /* the database or its WAL was deleted or replaced: writes fail until restart */
    bool faulted;              /* the last batch failed for the storage's sake (logged once it recovers) */
    LogLimiter fault_log;      /* storage_fault lines: at most one a second */
    bool registered;           /* in the process's list of open databases (store_sqlite.c) */
    StoreBackupServer *backup; /* the socket `schach backup` talks to; NULL when there is none */
    /* A database too large to check in one go is checked by these threads, a share of its tables each,
     * while the store migrates and the server sets up; load() and the writer wait for them. */
    Worker *checkers;

    pthread_mutex_t mutex;     /* guards everything below */
    pthread_cond_t check_cond; /* signalled when check_state leaves STORE_CHECK_RUNNING */
    int check_state;           /* StoreCheckState */
    int check_parts_left;      /* checker threads still running */
    bool check_background;     /* too large to wait for: nobody waits, a damage found refuses from then on */
    int64_t check_started_ms;  /* monotonic, for the log line when a background check passes */
    char check_error[600];     /* why the database was found damaged */
    StoreStats stats;          /* the counters of store_stats (backend and queue_depth set on reading) */
} SqliteStore;

typedef enum { STORE_CHECK_OK, STORE_CHECK_RUNNING, STORE_CHECK_DAMAGED } StoreCheckState;

/* ---- helpers (store_sqlite.c) ---- */

void store_set_err(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
bool store_exec(sqlite3 *db, const char *sql, const char *what, char *err, size_t err_size);
/* A connection through STORE_VFS with the settings every connection of the store needs; flags as for
 * sqlite3_open_v2 (SQLITE_OPEN_NOMUTEX is added; SQLITE_OPEN_READONLY gives a read-write connection
 * with PRAGMA query_only, see there). NULL with err filled on failure. */
sqlite3 *store_open_connection(const char *path, int flags, char *err, size_t err_size);

/* ---- the writer (store_sqlite_writer.c) ---- */

/* The INSERT of a game row (parameters as enum GameParam) and the binding of a record to it. */
extern const char store_sqlite_insert_game_sql[];
int store_sqlite_bind_record(sqlite3_stmt *st, const GameRecord *r);
/* Prepares the writer's statements (s->stmt) on s->db and hooks the WAL's growth to the checkpointer;
 * false with err filled. */
bool store_sqlite_writer_prepare(SqliteStore *s, char *err, size_t err_size);
/* Starts the checkpointer (PASSIVE checkpoints beside the writer's commits, without blocking them) and
 * the writer, which commits what is queued batch by batch (worker_free(s->writer) drains the queue);
 * false with err filled. */
bool store_sqlite_writer_start(SqliteStore *s, char *err, size_t err_size);

/* ---- the schema (store_schema.c) ---- */

/* Switches the database to WAL mode (a no-op when it is in WAL mode already). */
bool store_enable_wal(sqlite3 *db, char *err, size_t err_size);
/* Brings the schema up to the newest version, one transaction per step; refuses a newer database. */
bool store_migrate(sqlite3 *db, char *err, size_t err_size);

/* ---- reads (store_sqlite_read.c) ---- */

bool store_read_load(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_read_get(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_read_recent(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_read_revs(Store *store, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                    size_t err_size);
int store_read_scan(Store *store, const char *after, int max, StoreEachGame each, void *ctx, char *err,
                    size_t err_size);
/* store_accounts.h player_games on the accounts' connection db. */
/* One game by id with its moves, on db (an accounts connection): 1, 0 when there is none, -1. */
int store_sqlite_read_one_game(sqlite3 *db, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_sqlite_read_player_games(sqlite3 *db, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                                   size_t err_size);
/* Closes the loop's read connection (at close). */
void store_read_close(SqliteStore *s);

/* ---- start-up checks (store_check.c) ---- */

/* True when this process holds the database at path open in a store (by file identity). */
bool store_open_in_process(const char *path);
/* Records (add) or forgets the file of a store this process opened; false when the table is full
 * (that store then goes unchecked). */
bool store_open_files_set(dev_t dev, ino_t ino, bool add);
/* false, with a message, when another process holds a lock on the database file (another server, a
 * backup, a sqlite3 shell in a transaction). Call before this process opens the file with SQLite. */
bool store_check_not_held(const char *path, char *err, size_t err_size);
/* Validates path's WAL file (path + "-wal") before SQLite reads it: false, with a message that says
 * what to do, when its header is damaged but frames follow, or when a break in its checksum chain is
 * followed by committed frames that SQLite would silently drop. */
bool store_check_wal(const char *path, char *err, size_t err_size);
/* PRAGMA quick_check over the whole database, or over one table and its indexes when table is not
 * NULL: false with the first problem and what to do. */
bool store_check_integrity(sqlite3 *db, const char *path, const char *table, char *err, size_t err_size);
/* Databases up to this size (file and WAL) get a whole quick_check before the store opens. Larger ones
 * are checked table by table (each table with its indexes) on STORE_CHECK_THREADS threads, overlapping
 * the migrations and the server's set-up. Up to store_sqlite_set_check_limit's size load() and the
 * writer wait for the result; above it (quick_check reads about 200 MB a second on one core here, and
 * a million finished games of 60 plies are 2.3 GB) the check runs on in the background at the lowest
 * priority while the server serves, and a damage it finds then refuses every write and every read of
 * a stored game from that moment on. */
#define STORE_CHECK_SYNC_BYTES (64LL * 1024 * 1024)
/* Checks s->path whole before returning when it is small, else starts the checker threads (after
 * s->db holds the database). false, with the refusal in err, when the database is damaged. */
bool store_check_start(SqliteStore *s, char *err, size_t err_size);
/* Waits until the checker threads are done (a background check is not waited for): 0 when the
 * database passed, was checked already or is still being checked in the background, -1 with the
 * refusal in err when it was found damaged. */
int store_check_wait(SqliteStore *s, char *err, size_t err_size);
/* false, with a message, when SQLite opened the database read-only (it does so silently when the file
 * is not writable). */
bool store_check_not_read_only(sqlite3 *db, const char *path, char *err, size_t err_size);
/* A real write (a row of store_meta) commits: the database, its WAL and their folder can be written. */
bool store_check_writable(sqlite3 *db, const char *path, char *err, size_t err_size);
/* True for SQLite result codes that mean the storage failed (disk, file, lock, memory) rather than the
 * operation itself (a constraint). */
bool store_is_storage_error(int rc);

/* The WAL validator's core, on any byte source (the fuzz harness reads from memory). */
typedef bool (*StoreWalRead)(void *ctx, uint64_t offset, void *buf, size_t len); /* false: short or error */
typedef enum {
    STORE_WAL_OK,          /* empty, or every committed frame is reachable */
    STORE_WAL_BAD_HEADER,  /* the header is damaged and frames follow: SQLite would ignore them all */
    STORE_WAL_LOST_COMMITS /* committed frames follow a break in the checksum chain */
} StoreWalVerdict;
typedef struct StoreWalScan {
    StoreWalVerdict verdict;
    uint32_t page_size;
    uint64_t valid_frames;     /* frames SQLite would read (up to the break) */
    uint64_t committed_frames; /* of those, up to and including the last commit frame */
    uint64_t break_frame;      /* index of the first invalid frame (== valid_frames) */
    uint64_t commits_after;    /* commit frames with the header's salts after the break */
    bool read_error;           /* the byte source failed (not: ended) */
} StoreWalScan;
void store_wal_scan(uint64_t size, StoreWalRead read, void *ctx, StoreWalScan *out);

/* ---- accounts (store_sqlite_accounts.c, store_sqlite_lobby.c, store_sqlite_ratings.c) ---- */

/* store_accounts.h's connection for accounts: a connection of its own to the store's file. */
StoreAccounts *store_sqlite_accounts_open(Store *store, char *err, size_t err_size);

typedef struct SqliteAccounts {
    StoreAccounts base;
    SqliteStore *store;
    sqlite3 *db;
} SqliteAccounts;

/* A column's text (NULL as "") into out. */
void store_sqlite_copy_text(char *out, size_t size, const unsigned char *text);
/* A damaged database refuses writes and reads of what it holds (store_sqlite_open): false, with err
 * filled, when it was found damaged. */
bool store_sqlite_accounts_usable(SqliteAccounts *a, char *err, size_t err_size);
/* SA_FAULT, with "what: SQLite's message" in err. */
StoreAccountResult store_sqlite_accounts_fault(SqliteAccounts *a, const char *what, char *err, size_t err_size);
/* Prepares sql; NULL (and err filled) when it cannot. */
sqlite3_stmt *store_sqlite_accounts_prepare(SqliteAccounts *a, const char *sql, char *err, size_t err_size);
/* Runs the statements of one transaction (each with the binds its caller made; changes, when not NULL,
 * gets each one's count of changed rows); rolls back on error; finalizes them all. */
StoreAccountResult store_sqlite_accounts_run(SqliteAccounts *a, sqlite3_stmt **sts, int n, int *changes,
                                             const char *what, char *err, size_t err_size);

/* The analyses (store_sqlite_analysis.c): StoreAccountsVtbl's methods of the same names. */
int store_sqlite_game_get(StoreAccounts *base, const char *id, StoreEachGame each, void *ctx, char *err,
                          size_t err_size);
StoreAccountResult store_sqlite_analysis_get(StoreAccounts *base, const char *game_id, AnalysisRow *out, char **result,
                                             char *err, size_t err_size);
StoreAccountResult store_sqlite_analysis_queue(StoreAccounts *base, const char *game_id, int total,
                                               const char *const requesters[2], const int per_day[2], int64_t now_ms,
                                               AnalysisRow *out, char *err, size_t err_size);
StoreAccountResult store_sqlite_analysis_claim(StoreAccounts *base, const char *game_id, const char *node,
                                               int64_t now_ms, int64_t until_ms, char *err, size_t err_size);
StoreAccountResult store_sqlite_analysis_progress(StoreAccounts *base, const char *game_id, const char *node, int done,
                                                  int64_t now_ms, int64_t until_ms, char *err, size_t err_size);
StoreAccountResult store_sqlite_analysis_finish(StoreAccounts *base, const char *game_id, const char *node,
                                                const char *result, int64_t now_ms, char *err, size_t err_size);
/* The lobby (store_sqlite_lobby.c): StoreAccountsVtbl's methods of the same names. */
StoreAccountResult store_sqlite_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size);
int store_sqlite_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size);
int store_sqlite_seek_count(StoreAccounts *base, const char *account, const char *address, int64_t now_ms, char *err,
                            size_t err_size);
StoreAccountResult store_sqlite_seek_match(StoreAccounts *base, const SeekRow *want, const SeekWindow *w,
                                           const char *account, const char *address, int64_t now_ms, SeekRow *out,
                                           char *err, size_t err_size);
StoreAccountResult store_sqlite_seek_beat(StoreAccounts *base, int64_t now_ms, char *err, size_t err_size);
StoreAccountResult store_sqlite_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                         size_t err_size);
StoreAccountResult store_sqlite_seek_cancel(StoreAccounts *base, const char *id,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms, char *err,
                                            size_t err_size);
StoreAccountResult store_sqlite_seek_hold(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                          int64_t now_ms, int64_t ttl_ms, char *err, size_t err_size);
StoreAccountResult store_sqlite_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                            const GameRecord *game, const char *withdraw,
                                            const unsigned char withdraw_hash[STORE_HASH_LEN], char *err,
                                            size_t err_size);

/* Ratings and the player pages (store_sqlite_ratings.c): StoreAccountsVtbl's methods of the same names. */
StoreAccountResult store_sqlite_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                          const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                          void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev,
                                          char *err, size_t err_size);
StoreAccountResult store_sqlite_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                           bool have[RATING_COUNT], char *err, size_t err_size);
StoreAccountResult store_sqlite_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                            char *err, size_t err_size);
int store_sqlite_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size);
int store_sqlite_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                                char *err, size_t err_size);
int store_sqlite_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size);
int store_sqlite_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out,
                        int max, char *err, size_t err_size);
int store_sqlite_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                              size_t err_size);

/* ---- online backups (store_backup.c) ---- */

/* Listens on path + ".sock" (owner only) for `schach backup`; NULL (logged) when it cannot. */
StoreBackupServer *store_backup_server_start(const char *db_path);
/* Stops listening, waits for a backup in progress, removes the socket. NULL is fine. */
void store_backup_server_stop(StoreBackupServer *b);

#endif
