/* The store room (src/server/store/): durable storage. Owns the Store interface and its two backends,
 * sqlite/ and pg/ (schema, readers, writers, checks, backup), and the accounts' part (store_accounts.h).
 * Builds on base; every room above reaches it through this header only.
 *
 * schach serve: durable storage of games, behind one interface with two backends: SQLite (one server
 * process, store_sqlite*.c) and PostgreSQL (several server processes on one database, store_pg*.c).
 *
 * Threads: the event loop submits write operations; one writer thread per store commits them in
 * batches (group commit: one transaction, one fsync, for everything queued meanwhile) and hands
 * them back through take_done(); after each batch it calls the wake function (the server passes one
 * that calls lws_cancel_service, so the loop picks the results up). Nothing is acknowledged to a
 * player before its operation comes back with ok == true.
 *
 * Several servers on one database: every game row carries a version (rev) that each committed change
 * of the game raises by one. A change names the version it was made on (base_rev); the store applies
 * it only when the row is still at that version, so of two nodes that change one game at once exactly
 * one succeeds and the other's op comes back with conflict set (nothing written). After each commit
 * the PostgreSQL store announces the changed games (id and new rev) to every node (NOTIFY); a node
 * reads them with take_notices() and refreshes its copies that are behind.
 */
#ifndef SCHACH_SERVER_STORE_H
#define SCHACH_SERVER_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "schach/types.h"

#define STORE_ID_LEN      12 /* game ids: URL-safe characters */
#define STORE_HASH_LEN    32 /* crypto_generichash output of a secret */
#define STORE_ACCOUNT_LEN 20 /* an account's key (account.h: ACCOUNT_NAME_MAX) */

/* One game's row: everything but the moves. */
typedef struct GameRecord {
    char id[STORE_ID_LEN + 1];
    int64_t created_ms;
    int64_t updated_ms;
    char start_fen[SCH_FEN_MAX];                  /* "" for the standard start */
    char mode[16];                                /* "friend", "local" or "computer" */
    TimeControl time;                             /* stored as time_type (its name), minutes, increment, days */
    unsigned char secret_hash[2][STORE_HASH_LEN]; /* per Color; all zero while nobody holds the side */
    unsigned char invite_hash[STORE_HASH_LEN];    /* all zero when there is no open invitation */
    int invite_color;                             /* Color the invitation is for, -1 when none */
    char result[8];                               /* "1-0", "0-1", "1/2-1/2", "" while the game goes on */
    char termination[40];                         /* termination name, "" while the game goes on */
    char reason[32]; /* sch_dead_position, timeout_unwinnable: sch_win_reason_name, else "" */
    int draw_offer;  /* -1 none, else the Color whose offer stands */
    /* 1 + the Color whose takeback request stands, 0: none. Stored with draw_offer in its column
     * (store_offers_pack), so the row needs no column of its own. */
    int takeback_offer;
    int64_t clock_ms[2];     /* live: time left per Color when the current turn began */
    int64_t turn_started_ms; /* when the current turn's time began, 0 while not running */
    char level[16];          /* mode "computer": the engine level's id, else "" */
    int plies;               /* the game's ply count when this row was written (-1: unknown, an older row). A read
                * checks the moves against it: exactly as many for a finished game, at least as many
                * for one in play; anything else is damage, and the read fails. */
    /* Accounts (schema 9): who plays each side, "" for nobody with an account, and the ratings. */
    /* per Color: the account playing the side, by its name as shown (names are unique whatever their
     * case, and never change), "" for nobody with an account */
    char account[2][STORE_ACCOUNT_LEN + 1];
    int rated;          /* 1: the game changes the players' ratings, 0: casual */
    int rating[2];      /* rated: each side's rating when the game began (0 otherwise) */
    int rating_diff[2]; /* rated: what the game's end changed each side's rating by (0 until then) */
    /* rated (schema 18): 1 when that side's rating was provisional as the game began (shown with "?") */
    int provisional[2];
    /* Rematch (schema 12), of a finished game: 1 + the Color whose offer stands (0: none), 1 + the Color
     * that declined or withdrew the last offer (0: none), and the new game once made ("" before). */
    int rematch_offer;
    int rematch_decline;
    char rematch_game[STORE_ID_LEN + 1];
    /* per Color, for a side an account plays (schema 14): the generation of the account's seat secrets
     * the side's secret is derived with (secret_side). Raised with the account's at a password change
     * and at "log out everywhere", so every secret handed out before stops working. */
    int64_t seat_epoch[2];
    int64_t rev; /* the row's version: 1 when created, one more with every committed change (update,
                  * append or both in one op). Set by the store: reads fill it, a committed op gets the
                  * new value in record.rev; what a writer puts here is ignored. */
} GameRecord;

typedef struct StoredMove {
    char uci[8];   /* "e2e4", "e7e8q" */
    int64_t at_ms; /* when it was played */
} StoredMove;

/* The longest node name (StoreOp.node, store_pg_open), and the longest note of a change. */
#define STORE_NODE_LEN 40
#define STORE_NOTE_LEN 48

/* A write. The owner fills it and keeps it alive until it comes back from take_done(). Kinds combine
 * as create alone, update and/or append, or claim alone. */
typedef struct StoreOp {
    bool create;       /* insert record (a new game, rev 1) */
    bool update;       /* replace the game's row with record (all but id, created_ms and rev) */
    bool append;       /* add move as ply number `ply` (0-based) of game record.id */
    bool claim;        /* take the lease on work for game record.id (the computer's search) at its
                        * current rev: until lease_until_ms, or until the rev changes, nobody else's
                        * claim succeeds; a claim by the node that holds the lease renews it. Changes
                        * neither rev nor anything else of the game. */
    GameRecord record; /* record.id names the game for every kind */
    /* update only: a new game (rev 1) inserted in the same transaction, exactly when the update applies
     * (a rematch: the old game names it, so two nodes racing make one); NULL for none. */
    const GameRecord *spawn;
    int ply;
    StoredMove move;
    /* update only (no spawn, no append): the moves from ply record.plies on are deleted (a takeback). */
    bool truncate;
    /* update, append, claim: the rev this op was made on. The op is applied only while the stored row
     * is at exactly this rev (else conflict); 0 applies it whatever the rev (copies, tests). */
    int64_t base_rev;
    char node[STORE_NODE_LEN + 1]; /* claim: who claims (the node's name) */
    int64_t now_ms;                /* claim: the time a lease is compared with */
    int64_t lease_until_ms;        /* claim: until when the lease holds once taken */
    /* What the change was, in words the other nodes can replay without reading the game (the
     * service's business: "m e2e4 1763800000000" for a plain move at that time); appended to the
     * announcement of the commit, "" for none. */
    char note[STORE_NOTE_LEN + 1];
    /* Filled by the store: */
    bool ok;
    bool fault;     /* when !ok: the storage failed (disk, file deleted or replaced, connection lost),
                    * not the op itself; a commit whose outcome is unknown is a fault too */
    bool conflict;  /* when !ok: the game's stored rev is not base_rev (another node changed it), or a
                    * claim found the lease held by another node; nothing was written */
    bool uncertain; /* when fault: the outcome is unknown (the connection broke after COMMIT was sent), so
                     * the change may have been committed after all; a fault without it changed nothing */
    char error[128];
    /* Owned by whoever holds the op: */
    void *user;
    struct StoreOp *next;
} StoreOp;

typedef struct Store Store;

/* Called once per game by load(), get() and recent(): the record and its moves in order. */
typedef void (*StoreEachGame)(void *ctx, const GameRecord *record, const StoredMove *moves, int count);

/* A change another node (or this one) committed, as announced after its commit. */
typedef struct StoreNotice {
    char id[STORE_ID_LEN + 1]; /* the game; "" for a resync notice */
    int64_t rev;               /* the game's rev after the change */
    int ply;                   /* its ply count after the change */
    /* resync: the announcements may have been missed (the store lost its connection and got it back):
     * every game in memory must be compared with the store (revs()) */
    bool resync;
    int64_t sent_ms;               /* wall-clock time the announcing node committed it (for the NOTIFY lag) */
    char note[STORE_NOTE_LEN + 1]; /* the op's note ("" when it had none) */
    struct StoreNotice *next;
} StoreNotice;

/* An analysis's progress announced by the node that runs it (store_accounts.h analysis_progress and
 * analysis_finish on PostgreSQL): note "a STATUS DONE TOTAL", rev 1, nothing changed in the game. */
static inline bool store_notice_is_analysis(const StoreNotice *n) { return n->note[0] == 'a' && n->note[1] == ' '; }

/* Called by revs() once per game found: its id and stored rev. */
typedef void (*StoreEachRev)(void *ctx, const char *id, int64_t rev);

/* What a store has done so far, for GET /metrics. Counters only grow. */
#define STORE_HIST_BUCKETS 12 /* upper bounds in ms: STORE_HIST_BOUNDS_MS, the last one is +Inf */
#define STORE_HIST_BOUNDS_MS                                                                                           \
    { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, -1 }
typedef struct StoreHistogram {
    uint64_t counts[STORE_HIST_BUCKETS]; /* per bucket, not cumulative */
    uint64_t count;
    double sum_ms;
} StoreHistogram;
typedef struct StoreStats {
    const char *backend;          /* "sqlite" or "postgresql" */
    bool connected;               /* the database answers (always true for SQLite once open) */
    uint64_t queue_depth;         /* ops submitted and not yet in a batch */
    uint64_t batches;             /* transactions committed */
    uint64_t ops_committed;       /* ops that came back ok */
    uint64_t ops_failed;          /* ops that came back !ok (conflicts included) */
    uint64_t conflicts;           /* of those, conflicts */
    uint64_t notices;             /* announcements of other nodes received */
    uint64_t reconnects;          /* connections to the database opened again after a loss */
    StoreHistogram commit_ms;     /* time of each batch's transaction, BEGIN to COMMIT returned */
    StoreHistogram notice_lag_ms; /* from the announcing commit to its receipt here (others' only) */
} StoreStats;

/* The draw_offer column holds a row's draw offer (-1, 0, 1) and its takeback request (0: none, 1 + the
 * Color) as draw_offer + 3 * takeback_offer: a row without a takeback request reads as it always did.
 * A value outside -1..7 is read as a draw offer alone, as before. */
static inline int store_offers_pack(const GameRecord *r) {
    int draw = r->draw_offer >= -1 && r->draw_offer <= 1 ? r->draw_offer : -1;
    int takeback = r->takeback_offer >= 0 && r->takeback_offer <= 2 ? r->takeback_offer : 0;
    return draw + 3 * takeback;
}
static inline void store_offers_unpack(GameRecord *r, long long value) {
    r->takeback_offer = value >= 2 && value <= 7 ? (int)((value + 1) / 3) : 0;
    r->draw_offer = (int)(value - 3 * r->takeback_offer);
}

/* Adds one observation of ms to h (not thread-safe: the caller holds the lock that guards h). */
void store_histogram_add(StoreHistogram *h, double ms);

/* The time_type column of games and seeks holds a TimeControl's type by its name (time_type_name):
 * the text a backend writes for a type, and the type of the text it reads (text that names no type
 * reads as TIME_NONE, as the server always took it). */
const char *store_time_type_text(TimeType type);
TimeType store_time_type_read(const char *text);

/* Tests: SCHACH_STORE_COMMIT_DELAY_MS (1 to 60000) holds each batch back that long before its
 * transaction, so that a test can act while a change is surely in flight (a drain, a crash). The
 * writer threads call it; without the variable it returns at once. */
void store_test_commit_delay(void);

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
    /* Announcements of committed changes received since the last call, oldest first, linked by next,
     * to be freed by the caller (store_notices_free); NULL when none (always, for SQLite). The store
     * calls wake when new ones arrive. */
    StoreNotice *(*take_notices)(Store *store);
    /* The stored rev of each of the count games in ids that exists: each(ctx, id, rev), on the calling
     * thread. Returns how many were found, or -1 with err filled. */
    int (*revs)(Store *store, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                size_t err_size);
    /* Whether the database answers now (GET /healthz). May block for a short while (a round trip). */
    bool (*ping)(Store *store);
    /* Fills *out (thread-safe). */
    void (*stats)(Store *store, StoreStats *out);
    /* Every game, in play or finished, in the order of creation, in pages: each called per game; after
     * is the id of the last game of the previous page ("" first). Returns the number read (less than
     * max at the end), or -1 with err filled. On the calling thread (schach db copy). */
    int (*scan)(Store *store, const char *after, int max, StoreEachGame each, void *ctx, char *err, size_t err_size);
    /* A connection for accounts (store_accounts.h); NULL in stores made for tests. */
    struct StoreAccounts *(*accounts_open)(Store *store, char *err, size_t err_size);
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
/* Stores made for tests may leave out take_notices, ping and stats: none, up, nothing counted. */
static inline StoreNotice *store_take_notices(Store *s) {
    return s->vtbl->take_notices ? s->vtbl->take_notices(s) : NULL;
}
static inline int store_revs(Store *s, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                             size_t n) {
    return s->vtbl->revs(s, ids, count, each, ctx, err, n);
}
static inline bool store_ping(Store *s) { return s->vtbl->ping ? s->vtbl->ping(s) : true; }
static inline void store_stats(Store *s, StoreStats *out) {
    if (s->vtbl->stats) {
        s->vtbl->stats(s, out);
    } else {
        StoreStats none = {.backend = "test", .connected = true};
        *out = none;
    }
}
static inline int store_scan(Store *s, const char *after, int max, StoreEachGame each, void *ctx, char *err, size_t n) {
    return s->vtbl->scan(s, after, max, each, ctx, err, n);
}

/* Frees a list take_notices returned. */
void store_notices_free(StoreNotice *list);

/* Opens the PostgreSQL store on conninfo (a libpq connection string or postgresql:// URI): applies the
 * same versioned migrations as SQLite (under an advisory lock, so nodes starting together migrate
 * once), prepares the writer's statements, starts the writer thread (group commit, synchronous_commit
 * on: a batch is reported only after PostgreSQL committed it) and a listener thread that LISTENs for
 * the changes every node announces after its commits. node names this server in leases and in its
 * own announcements (NULL: host name and process id). Lost connections are opened again: meanwhile
 * writes fail with fault set and reads fail; after the listener's connection came back, a resync
 * notice says that announcements may have been missed. NULL with err filled when the database cannot
 * be reached or migrated. */
Store *store_pg_open(const char *conninfo, const char *node, void (*wake)(void *), void *wake_ctx, char *err,
                     size_t err_size);

/* Which backend a --db argument names: "postgresql://…", "postgres://…" or "postgresql:" followed by
 * a libpq key=value string is PostgreSQL (*conninfo points at the URI or after the "postgresql:"
 * prefix); "sqlite:PATH" or a plain path is SQLite (*conninfo points at the path). */
typedef enum { STORE_KIND_SQLITE, STORE_KIND_POSTGRESQL } StoreKind;
StoreKind store_kind_of(const char *db, const char **conninfo);

/* db as it may be shown (logs, errors): a PostgreSQL password, in a URI or as password=..., is left out. */
void store_describe(const char *db, char *out, size_t size);

/* Opens whichever backend db names (store_kind_of), SQLite with store_sqlite_open. */
Store *store_open(const char *db, const char *node, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size);

/* The accounts' part of the store (accounts, sessions, seeks, ratings): one public header for the room. */
#include "store_accounts.h"

#endif
