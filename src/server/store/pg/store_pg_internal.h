/* The PostgreSQL store's parts, shared by its files: store_pg.c (open, close, connections, the queues),
 * store_pg_writer.c (the writer thread), store_pg_ops.c (each op as one statement), store_pg_read.c (reads on the event loop's connection),
 * store_pg_listen.c (the listener thread and its notices), store_pg_schema.c (migrations) and the
 * accounts' connection (store_pg_accounts.c, store_pg_lobby.c, store_pg_ratings.c). Not for the rest of
 * the server: store.h and store_accounts.h are the interface. */
#ifndef SCHACH_SERVER_STORE_PG_INTERNAL_H
#define SCHACH_SERVER_STORE_PG_INTERNAL_H

#include <libpq-fe.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/base.h"
#include "../store.h"
#include "../store_accounts.h"

/* The channel every node announces its commits on, and the payload's layout:
 * "<id> <rev> <ply> <sent_ms> <node>\t<note>" (the op's note, store.h; node names have no tab). */
#define STORE_PG_CHANNEL "schach_games"

/* Taken (per transaction) by every schema migration step, so nodes starting together migrate once. */
#define STORE_PG_MIGRATION_LOCK 0x5363686163680001LL

/* The columns of a game row, in the order of PgGameParam: the same as SQLite's plus rev. */
#define STORE_PG_GAME_COLUMNS                                                                                          \
    "id, created_ms, updated_ms, start_fen, mode, time_type, minutes, increment, days, secret_hash_white,"             \
    " secret_hash_black, invite_hash, invite_color, result, termination, draw_offer, clock_white_ms,"                  \
    " clock_black_ms, turn_started_ms, level, plies, reason, account_white, account_black, rated, rating_white,"       \
    " rating_black, rating_diff_white, rating_diff_black, rematch_offer, rematch_decline, rematch_game,"               \
    " seat_epoch_white, seat_epoch_black, provisional_white, provisional_black"

/* Parameter numbers of a game row in the writer's statements; a SELECT of STORE_PG_GAME_COLUMNS has
 * them as column numbers + 1. */
enum PgGameParam {
    PGP_ID = 1,
    PGP_CREATED,
    PGP_UPDATED,
    PGP_START_FEN,
    PGP_MODE,
    PGP_TIME_TYPE,
    PGP_MINUTES,
    PGP_INCREMENT,
    PGP_DAYS,
    PGP_SECRET_WHITE,
    PGP_SECRET_BLACK,
    PGP_INVITE_HASH,
    PGP_INVITE_COLOR,
    PGP_RESULT,
    PGP_TERMINATION,
    PGP_DRAW_OFFER,
    PGP_CLOCK_WHITE,
    PGP_CLOCK_BLACK,
    PGP_TURN_STARTED,
    PGP_LEVEL,
    PGP_PLIES,
    PGP_REASON,
    PGP_ACCOUNT_WHITE,
    PGP_ACCOUNT_BLACK,
    PGP_RATED,
    PGP_RATING_WHITE,
    PGP_RATING_BLACK,
    PGP_RATING_DIFF_WHITE,
    PGP_RATING_DIFF_BLACK,
    PGP_REMATCH_OFFER,
    PGP_REMATCH_DECLINE,
    PGP_REMATCH_GAME,
    PGP_SEAT_EPOCH_WHITE,
    PGP_SEAT_EPOCH_BLACK,
    PGP_PROVISIONAL_WHITE,
    PGP_PROVISIONAL_BLACK,
    PGP_RECORD_COUNT = PGP_PROVISIONAL_BLACK
};

/* How long a read on the event loop may take: the server cancels a statement after
 * STORE_PG_READ_TIMEOUT_MS, and the store gives up on the connection (and closes it) a second later,
 * in case the database does not answer at all. */
#define STORE_PG_READ_TIMEOUT_MS 5000
#define STORE_PG_PING_TIMEOUT_MS 2000
/* Seconds libpq waits for a connection unless the conninfo says otherwise. */
#define STORE_PG_CONNECT_TIMEOUT "3"

/* Which connection: each gets its session settings (store_pg.c). */
typedef enum { PG_CONN_WRITER, PG_CONN_READER, PG_CONN_LISTENER, PG_CONN_PLAIN } PgConnRole;

typedef struct PgStore {
    Store base;
    char *conninfo;                /* as given; may hold a password, so it is never written anywhere */
    char where[200];               /* "user@host:port/dbname", for messages and the log */
    char node[STORE_NODE_LEN + 1]; /* this server's name in leases and announcements */
    void (*wake)(void *);
    void *wake_ctx;

    /* The writer thread's alone once it runs. */
    PGconn *wconn;
    bool wconn_lost;      /* the connection broke: open a fresh one before the next batch */
    bool faulted;         /* the last batch failed for the storage's sake (logged once it recovers) */
    LogLimiter fault_log; /* storage_fault lines: at most one a second */
    struct PgSlot *slots; /* a batch in execution order (store_pg_writer.c); NULL: one op per batch */
    Worker *writer;       /* one thread, batches of up to PG_BATCH_MAX ops (store_pg_writer.c) */

    /* The listener thread's alone once it runs. */
    PGconn *lconn;
    Worker *listener; /* one task: store_pg_listener_main */
    int stop_pipe[2]; /* written at close: ends the listener's wait */
    LogLimiter listen_log;

    /* The event loop's read connection (get, recent, revs, scan, ping), opened on first use and
     * dropped after a failure, and its buffer of moves. */
    PGconn *rconn;
    StoredMove *read_buf;
    int read_cap;
    LogLimiter read_log;

    /* Tests: while the file SCHACH_STORE_NOTICES_HOLD named at open exists, take_notices hands nothing
     * to the loop (the announcements wait here), so a test can hold a node surely behind the others.
     * NULL without the variable. */
    char *notices_hold;

    pthread_mutex_t mutex; /* guards everything below */
    StoreNotice *notice_head, *notice_tail;
    size_t notice_count;
    int writer_pid;      /* the writer's backend: announcements from it are this node's own */
    bool writer_ok;      /* the writer's last batch (or connection) worked */
    bool listener_ok;    /* the listener is connected and listening */
    StoreStats counters; /* backend, connected and queue_depth are filled by stats() */
} PgStore;

/* ---- store_pg.c ---- */

void store_pg_set_err(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A connection with the store's defaults (connect_timeout, keepalives, application name; anything the
 * conninfo says wins) and the session settings of role. NULL with err filled ("cannot connect to
 * PostgreSQL at ...: why"; never the conninfo itself, which may hold a password). */
PGconn *store_pg_connect(PgStore *s, PgConnRole role, char *err, size_t err_size);
/* Runs sql (no parameters) and reports whether it succeeded; err gets PostgreSQL's message. */
bool store_pg_exec(PGconn *conn, const char *sql, char *err, size_t err_size);
/* PostgreSQL's message of a failed result or connection, on one line, without its "ERROR:  " prefix
 * and DETAIL lines, into buf. */
const char *store_pg_message(PGconn *conn, const PGresult *res, char *buf, size_t size);
/* Queues a notice (taking it) and wakes the loop: used by the listener and the writer. When the
 * queue is too long the loop is not reading it: it is replaced by one resync notice. */
void store_pg_queue_notice(PgStore *s, StoreNotice *n);
/* Queues a resync notice (the announcements since the last one may have been missed). */
void store_pg_queue_resync(PgStore *s);
/* Wall-clock milliseconds (what notices carry). */
int64_t store_pg_wall_ms(void);

/* ---- store_pg_ops.c: the writer's statements ---- */

enum {
    PG_W_BEGIN,
    PG_W_COMMIT,
    PG_W_ROLLBACK,
    PG_W_CREATE,
    PG_W_UPDATE,
    PG_W_SPAWN,
    PG_W_APPEND,
    PG_W_CLAIM,
    PG_W_NOTIFY,
    PG_W_COUNT
};

/* Prepares the writer's statements on conn; false with err filled. */
bool store_pg_prepare_writer(PGconn *conn, char *err, size_t err_size);
/* Parameters of a statement (text, or binary for hashes), and a game record's as $1..$PGP_RECORD_COUNT. */
#define STORE_PG_MAX_PARAMS 80
typedef struct StorePgParams {
    const char *values[STORE_PG_MAX_PARAMS];
    int lengths[STORE_PG_MAX_PARAMS];
    int formats[STORE_PG_MAX_PARAMS];
    char numbers[STORE_PG_MAX_PARAMS][24];
    int n;
} StorePgParams;
/* Appends a text parameter, or a number as text, to p. */
static inline void store_pg_param_text(StorePgParams *p, const char *v) {
    p->values[p->n] = v;
    p->lengths[p->n] = 0;
    p->formats[p->n++] = 0;
}
static inline void store_pg_param_int(StorePgParams *p, long long v) {
    snprintf(p->numbers[p->n], sizeof p->numbers[p->n], "%lld", v);
    store_pg_param_text(p, p->numbers[p->n]);
}
void store_pg_params_record(StorePgParams *p, const GameRecord *r);
/* Which statement op needs (PG_W_CREATE ... PG_W_CLAIM); -1, with op->error filled, when it names no
 * write or a claim together with another write. */
int store_pg_op_stmt(StoreOp *op);
/* "create", "update", "append" or "claim", for messages. */
const char *store_pg_stmt_kind(int stmt);
/* Send a statement (into the pipeline): op's, BEGIN / COMMIT / ROLLBACK, an announcement. */
bool store_pg_send_op(PGconn *conn, int stmt, const StoreOp *op);
bool store_pg_send_plain(PGconn *conn, int stmt);
bool store_pg_send_notify(PGconn *conn, const char *payload);
/* Reads the answer row of op's statement: op->ok with the game's new rev and ply count, or op->error
 * (and op->conflict) saying why it did not apply. */
void store_pg_take_answer(StoreOp *op, int stmt, const PGresult *res, int64_t *new_rev, int *plies_after);

/* ---- store_pg_writer.c ---- */

/* Starts the writer thread: batches of what is queued, one transaction each, handed back to the loop
 * (at close worker_free(s->writer) commits what is queued; s->slots is freed after it); false with
 * err filled. */
bool store_pg_writer_start(PgStore *s, char *err, size_t err_size);

/* ---- store_pg_read.c ---- */

bool store_pg_load(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_pg_get(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
int store_pg_recent(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size);
/* store_accounts.h player_games on the accounts' connection conn (its statement timeout bounds it).
 * *broken: the connection failed (the caller opens a new one next time). */
/* One game by id with its moves on conn (an accounts connection): 1, 0 when there is none, -1 (*broken:
 * the connection is no longer usable). */
int store_pg_read_one_game(PGconn *conn, const char *id, StoreEachGame each, void *ctx, bool *broken, char *err,
                           size_t err_size);
int store_pg_read_player_games(PGconn *conn, const char *name, int max, StoreEachGame each, void *ctx, bool *broken,
                               char *err, size_t err_size);
int store_pg_revs(Store *store, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                  size_t err_size);
int store_pg_scan(Store *store, const char *after, int max, StoreEachGame each, void *ctx, char *err, size_t err_size);
bool store_pg_ping(Store *store);
/* Closes the loop's read connection and frees its buffer (at close). */
void store_pg_read_close(PgStore *s);

/* ---- store_pg_listen.c ---- */

/* LISTENs on conn (the listener's connection, opened by store_pg_open before the thread starts). */
bool store_pg_listen_on(PGconn *conn, char *err, size_t err_size);
/* The listener's loop (the task of s->listener, arg the PgStore) until the stop pipe is written. */
void store_pg_listener_main(void *arg);
/* Parses an announcement's payload into n (id, rev, ply, sent_ms) and node (at least
 * STORE_NODE_LEN + 1 bytes); false for a malformed one. */
bool store_pg_parse_payload(const char *payload, StoreNotice *n, char *node);
/* The announcement of a changed game, as store_pg_parse_payload reads it:
 * "<id> <rev> <ply> <sent_ms> <node>\t<note>". */
#define STORE_PG_PAYLOAD_MAX (STORE_ID_LEN + STORE_NODE_LEN + STORE_NOTE_LEN + 80)
void store_pg_format_payload(char out[STORE_PG_PAYLOAD_MAX], const char *id, int64_t rev, int ply, int64_t sent_ms,
                             const char *node, const char *note);

/* ---- store_pg_schema.c ---- */

/* Brings the schema up to the newest version, one transaction per step under an advisory lock;
 * refuses a newer database. */
bool store_pg_migrate(PGconn *conn, char *err, size_t err_size);
/* The newest schema version this program knows. */
int store_pg_schema_version(void);

/* ---- accounts (store_pg_accounts.c, store_pg_lobby.c, store_pg_ratings.c) ---- */

/* store_accounts.h's connection for accounts: connected on first use. */
StoreAccounts *store_pg_accounts_open(Store *store, char *err, size_t err_size);

typedef struct PgAccounts {
    StoreAccounts base;
    PgStore *store;
    PGconn *conn;
} PgAccounts;

/* The connection, opened (again) when there is none or it broke. */
PGconn *store_pg_accounts_conn(PgAccounts *a, char *err, size_t err_size);
/* Runs sql with the parameters of p (no result rows wanted unless want says so); NULL with err filled
 * (and a broken connection dropped) when the result is not want. */
PGresult *store_pg_accounts_run(PgAccounts *a, const char *sql, const StorePgParams *p, ExecStatusType want, char *err,
                                size_t err_size);
/* The rows a command changed; clears res. */
long store_pg_affected(PGresult *res);
/* Runs a `SELECT count(*)` with the parameters of p: the count, or -1 with err filled. */
int store_pg_accounts_count(PgAccounts *a, const char *sql, const StorePgParams *p, char *err, size_t err_size);

/* The lobby (store_pg_lobby.c): StoreAccountsVtbl's methods of the same names. */
/* The analyses (store_pg_analysis.c): StoreAccountsVtbl's methods of the same names. */
int store_pg_game_get(StoreAccounts *base, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size);
StoreAccountResult store_pg_analysis_get(StoreAccounts *base, const char *game_id, AnalysisRow *out, char **result,
                                         char *err, size_t err_size);
StoreAccountResult store_pg_analysis_queue(StoreAccounts *base, const char *game_id, int total,
                                           const char *const requesters[2], const int per_day[2], int64_t now_ms,
                                           AnalysisRow *out, char *err, size_t err_size);
StoreAccountResult store_pg_analysis_claim(StoreAccounts *base, const char *game_id, const char *node, int64_t now_ms,
                                           int64_t until_ms, char *err, size_t err_size);
StoreAccountResult store_pg_analysis_progress(StoreAccounts *base, const char *game_id, const char *node, int done,
                                              int64_t now_ms, int64_t until_ms, char *err, size_t err_size);
StoreAccountResult store_pg_analysis_finish(StoreAccounts *base, const char *game_id, const char *node,
                                            const char *result, int64_t now_ms, char *err, size_t err_size);
StoreAccountResult store_pg_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size);
int store_pg_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size);
int store_pg_seek_count(StoreAccounts *base, const char *account, const char *address, int64_t now_ms, char *err,
                        size_t err_size);
StoreAccountResult store_pg_seek_match(StoreAccounts *base, const SeekRow *want, const SeekWindow *w,
                                       const char *account, const char *address, int64_t now_ms, SeekRow *out,
                                       char *err, size_t err_size);
StoreAccountResult store_pg_seek_beat(StoreAccounts *base, int64_t now_ms, char *err, size_t err_size);
StoreAccountResult store_pg_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                     size_t err_size);
StoreAccountResult store_pg_seek_cancel(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                        int64_t now_ms, char *err, size_t err_size);
StoreAccountResult store_pg_seek_hold(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                      int64_t now_ms, int64_t ttl_ms, char *err, size_t err_size);
StoreAccountResult store_pg_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                        const GameRecord *game, const char *withdraw,
                                        const unsigned char withdraw_hash[STORE_HASH_LEN], char *err, size_t err_size);

/* Ratings and the player pages (store_pg_ratings.c): StoreAccountsVtbl's methods of the same names. */
StoreAccountResult store_pg_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                      const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                      void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev, char *err,
                                      size_t err_size);
StoreAccountResult store_pg_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                       bool have[RATING_COUNT], char *err, size_t err_size);
StoreAccountResult store_pg_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                        char *err, size_t err_size);
int store_pg_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size);
int store_pg_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                            char *err, size_t err_size);
int store_pg_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size);
int store_pg_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out, int max,
                    char *err, size_t err_size);
int store_pg_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                          size_t err_size);

#endif
