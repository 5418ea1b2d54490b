/* schach serve: durable storage of games, behind an interface so another backend (PostgreSQL with
 * libpq and LISTEN/NOTIFY, for several server processes) can follow.
 *
 * Threads: the event loop submits write operations; one writer thread per store commits them in
 * batches (group commit: one transaction, one fsync, for everything queued meanwhile) and hands
 * them back through take_done(); after each batch it calls the wake function (the server passes one
 * that calls lws_cancel_service, so the loop picks the results up). Nothing is acknowledged to a
 * player before its operation comes back with ok == true.
 */
#ifndef SCHACH_SERVER_STORE_H
#define SCHACH_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schach/types.h"

#define STORE_ID_LEN   12 /* game ids: URL-safe characters */
#define STORE_HASH_LEN 32 /* crypto_generichash output of a secret */

/* One game's row: everything but the moves. */
typedef struct GameRecord {
    char id[STORE_ID_LEN + 1];
    int64_t created_ms;
    int64_t updated_ms;
    char start_fen[SCHACH_FEN_MAX];               /* "" for the standard start */
    char mode[16];                                /* "friend", "local" or "computer" */
    char time_type[16];                           /* "none", "live" or "correspondence" */
    int minutes, increment, days;                 /* time control parameters */
    unsigned char secret_hash[2][STORE_HASH_LEN]; /* per Color; all zero while nobody holds the side */
    unsigned char invite_hash[STORE_HASH_LEN];    /* all zero when there is no open invitation */
    int invite_color;                             /* Color the invitation is for, -1 when none */
    char result[8];                               /* "1-0", "0-1", "1/2-1/2", "" while the game goes on */
    char termination[40];                         /* termination name, "" while the game goes on */
    char reason[32];                              /* dead_position, timeout_unwinnable: win_reason_name, else "" */
    int draw_offer;                               /* -1 none, else the Color whose offer stands */
    int64_t clock_ms[2];                          /* live: time left per Color when the current turn began */
    int64_t turn_started_ms;                      /* when the current turn's time began, 0 while not running */
    char level[16];                               /* mode "computer": the engine level's id, else "" */
    int plies; /* the game's ply count when this row was written (-1: unknown, an older row). A read
                * checks the moves against it: exactly as many for a finished game, at least as many
                * for one in play; anything else is damage, and the read fails. */
} GameRecord;

typedef struct StoredMove {
    char uci[8];   /* "e2e4", "e7e8q" */
    int64_t at_ms; /* when it was played */
} StoredMove;

/* A write. The owner fills it and keeps it alive until it comes back from take_done(). */
typedef struct StoreOp {
    bool create;       /* insert record (a new game) */
    bool update;       /* replace the game's row with record */
    bool append;       /* add move as ply number `ply` (0-based) of game record.id */
    GameRecord record; /* record.id names the game for every kind */
    int ply;
    StoredMove move;
    /* Filled by the store: */
    bool ok;
    bool fault; /* when !ok: the storage failed (disk, file deleted or replaced), not the op itself */
    char error[128];
    /* Owned by whoever holds the op: */
    void *user;
    struct StoreOp *next;
} StoreOp;

typedef struct Store Store;

/* Called once per game by load(), get() and recent(): the record and its moves in order. */
typedef void (*StoreEachGame)(void *ctx, const GameRecord *record, const StoredMove *moves, int count);

typedef struct StoreVtbl {
    /* Reads every game still in play (result ""), at start-up: finished games stay on disk and are
     * read one at a time by get(). false with err filled on failure. */
    bool (*load)(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size);
    /* Reads one game by id (finished or not) on the calling thread (the event loop), on a read
     * connection of its own that never waits for the writer. 1: found (each called once), 0: no such
     * game, -1: error with err filled. */
    int (*get)(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
    /* The max most recently finished games (largest updated_ms first, from an index), each called per
     * game in that order. Returns how many, or -1 with err filled. */
    int (*recent)(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size);
    /* Queues op for the writer thread (called from the event loop). */
    void (*submit)(Store *store, StoreOp *op);
    /* Returns the operations whose batch finished (ok or not), oldest first, linked by next; NULL if none. */
    StoreOp *(*take_done)(Store *store);
    /* Finishes queued writes, stops the writer, closes the database. Ops not yet taken are not returned
     * and never touched again once it returns: close before freeing ops still in flight. No submit
     * once close began; wake may still be called during close. */
    void (*close)(Store *store);
} StoreVtbl;

struct Store {
    const StoreVtbl *vtbl;
};

/* Opens (creating it and its parent folder if needed) the SQLite database at path and refuses, with a
 * message in err that says what to do, one that is damaged (PRAGMA quick_check, the WAL's checksums),
 * read-only or unwritable, or held by another server. A database over 64 MB is checked by threads of
 * its own while the caller goes on: load() waits for them and fails with that refusal, and nothing is
 * committed before the check passed. The database is held exclusively by this process (SQLite's
 * unix-excl VFS: no -shm file is mapped, so nothing done to one can raise SIGBUS, and a second server
 * cannot open it). WAL mode with synchronous=FULL, versioned schema migrations, and the writer
 * thread, which calls wake(wake_ctx) after each batch. While running, a failed write is logged
 * (log.h, at most once a second) and its ops come back with ok == false and fault set; a database
 * file (or WAL) deleted or replaced under the server fails every write until it is restarted. Writes
 * recover by themselves when the fault clears. SIGXFSZ is ignored from here on (a file-size limit
 * then fails a write with EFBIG instead of killing the process). Serves online backups to
 * `schach backup` (store_sqlite_backup) over a Unix socket beside the database (path + ".sock",
 * owner only). NULL with err filled on failure. */
Store *store_sqlite_open(const char *path, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size);

/* Databases up to bytes (default 128 MB) are checked completely (PRAGMA quick_check) before
 * store_sqlite_open returns; larger ones in the background while the server serves (start-up time
 * must not grow with the finished games), and a damage found then refuses every write and every read
 * of a stored game from that moment on, logged as "storage_damaged". Set before opening. */
void store_sqlite_set_check_limit(long long bytes);

/* An online, consistent copy of the database at db_path into dest (SQLite's backup API): through the
 * running server's socket when a server holds the database, else directly. dest is written to a
 * temporary file beside it, synced and renamed, so it is either the complete copy or untouched
 * (also after kill -9). false with err filled on failure. */
bool store_sqlite_backup(const char *db_path, const char *dest, char *err, size_t err_size);

static inline bool store_load(Store *s, StoreEachGame each, void *ctx, char *err, size_t n) {
    return s->vtbl->load(s, each, ctx, err, n);
}
static inline int store_get(Store *s, const char *id, StoreEachGame each, void *ctx, char *err, size_t n) {
    return s->vtbl->get(s, id, each, ctx, err, n);
}
static inline int store_recent(Store *s, int max, StoreEachGame each, void *ctx, char *err, size_t n) {
    return s->vtbl->recent(s, max, each, ctx, err, n);
}
static inline void store_submit(Store *s, StoreOp *op) { s->vtbl->submit(s, op); }
static inline StoreOp *store_take_done(Store *s) { return s->vtbl->take_done(s); }
static inline void store_close(Store *s) { s->vtbl->close(s); }

#endif
