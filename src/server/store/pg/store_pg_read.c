/* The PostgreSQL store's reads, on the calling thread: load() at start-up on a connection of its own,
 * and get(), recent(), revs(), scan() and ping() for the event loop on its read connection (opened on
 * first use, dropped after any failure and opened again by the next read). A read never waits for the
 * writer: PostgreSQL's readers take no locks that writers hold.
 *
 * Each game comes with its moves from one statement (the moves aggregated per game), so both are read
 * in one snapshot and always match, in one round trip. Rows are streamed (libpq's single-row mode),
 * so load() holds one game at a time however many are in play. A read on the event loop is bounded:
 * the server cancels it after STORE_PG_READ_TIMEOUT_MS, and if the server does not answer at all the
 * store gives up a second later and drops the connection. */
#define _POSIX_C_SOURCE 200809L /* poll, clock_gettime */

#include "store_pg_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

/* The game's columns (hashes as hex), its rev, and its moves as "ply,uci,at_ms" separated by spaces. */
#define SELECT_GAME                                                                                                    \
    "SELECT id, created_ms, updated_ms, start_fen, mode, time_type, minutes, increment, days,"                         \
    " encode(secret_hash_white, 'hex'), encode(secret_hash_black, 'hex'), encode(invite_hash, 'hex'),"                 \
    " invite_color, result, termination, draw_offer, clock_white_ms, clock_black_ms, turn_started_ms, level, plies,"   \
    " reason, account_white, account_black, rated, rating_white, rating_black, rating_diff_white,"                     \
    " rating_diff_black, rematch_offer, rematch_decline, rematch_game, seat_epoch_white, seat_epoch_black,"            \
    " provisional_white, provisional_black, rev, "                                                                     \
    "(SELECT string_agg(ply || ',' || uci || "                                                                         \
    "',' || at_ms, ' ' ORDER BY ply) FROM moves m"                                                                     \
    " WHERE m.game_id = g.id) FROM games g "
#define COL_REV   PGP_RECORD_COUNT
#define COL_MOVES (PGP_RECORD_COUNT + 1)

enum { R_GET, R_RECENT, R_REVS, R_SCAN, R_COUNT };

static const struct {
    const char *name, *sql;
} read_stmts[R_COUNT] = {
    [R_GET] = {"schach_get", SELECT_GAME "WHERE id = $1"},
    [R_RECENT] = {"schach_recent", SELECT_GAME "WHERE result <> '' ORDER BY updated_ms DESC LIMIT $1"},
    [R_REVS] = {"schach_revs", "SELECT id, rev FROM games WHERE id = ANY($1::text[])"},
    [R_SCAN] = {"schach_scan", SELECT_GAME "WHERE id > $1 ORDER BY id LIMIT $2"},
};
/* An account's finished games (GET /api/players's filter: a result, not aborted), newest first. */
static const char SQL_LOAD[] = SELECT_GAME "WHERE result = '' ORDER BY created_ms, id";

/* ---- a game from a row ---- */

static bool copy_text(const PGresult *res, int col, char *out, size_t size) {
    size_t len = (size_t)PQgetlength(res, 0, col);
    if (PQgetisnull(res, 0, col) || len >= size)
        return false;
    memcpy(out, PQgetvalue(res, 0, col), len + 1);
    return true;
}

static bool copy_hash(const PGresult *res, int col, unsigned char *out) {
    memset(out, 0, STORE_HASH_LEN);
    if (PQgetisnull(res, 0, col))
        return true;
    const char *hex = PQgetvalue(res, 0, col);
    if (PQgetlength(res, 0, col) != 2 * STORE_HASH_LEN)
        return false;
    for (int i = 0; i < STORE_HASH_LEN; i++) {
        unsigned int byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1)
            return false;
        out[i] = (unsigned char)byte;
    }
    return true;
}

static long long column_int(const PGresult *res, int col) { return strtoll(PQgetvalue(res, 0, col), NULL, 10); }

static bool read_record(const PGresult *res, GameRecord *r) {
    memset(r, 0, sizeof *r);
    r->created_ms = column_int(res, PGP_CREATED - 1);
    r->updated_ms = column_int(res, PGP_UPDATED - 1);
    r->time.minutes = (int)column_int(res, PGP_MINUTES - 1);
    r->time.increment = (int)column_int(res, PGP_INCREMENT - 1);
    r->time.days = (int)column_int(res, PGP_DAYS - 1);
    r->invite_color = (int)column_int(res, PGP_INVITE_COLOR - 1);
    store_offers_unpack(r, column_int(res, PGP_DRAW_OFFER - 1));
    r->clock_ms[0] = column_int(res, PGP_CLOCK_WHITE - 1);
    r->clock_ms[1] = column_int(res, PGP_CLOCK_BLACK - 1);
    r->turn_started_ms = column_int(res, PGP_TURN_STARTED - 1);
    r->plies = (int)column_int(res, PGP_PLIES - 1);
    r->rated = (int)column_int(res, PGP_RATED - 1);
    r->rating[0] = (int)column_int(res, PGP_RATING_WHITE - 1);
    r->rating[1] = (int)column_int(res, PGP_RATING_BLACK - 1);
    r->rating_diff[0] = (int)column_int(res, PGP_RATING_DIFF_WHITE - 1);
    r->rating_diff[1] = (int)column_int(res, PGP_RATING_DIFF_BLACK - 1);
    r->rematch_offer = (int)column_int(res, PGP_REMATCH_OFFER - 1);
    r->rematch_decline = (int)column_int(res, PGP_REMATCH_DECLINE - 1);
    r->seat_epoch[0] = column_int(res, PGP_SEAT_EPOCH_WHITE - 1);
    r->seat_epoch[1] = column_int(res, PGP_SEAT_EPOCH_BLACK - 1);
    r->provisional[0] = (int)column_int(res, PGP_PROVISIONAL_WHITE - 1);
    r->provisional[1] = (int)column_int(res, PGP_PROVISIONAL_BLACK - 1);
    r->rev = column_int(res, COL_REV);
    char time_type[16] = "";
    bool ok = copy_text(res, PGP_TIME_TYPE - 1, time_type, sizeof time_type);
    r->time.type = store_time_type_read(time_type);
    return ok && copy_text(res, PGP_ID - 1, r->id, sizeof r->id) &&
           copy_text(res, PGP_START_FEN - 1, r->start_fen, sizeof r->start_fen) &&
           copy_text(res, PGP_MODE - 1, r->mode, sizeof r->mode) &&
           copy_text(res, PGP_REMATCH_GAME - 1, r->rematch_game, sizeof r->rematch_game) &&
           copy_text(res, PGP_RESULT - 1, r->result, sizeof r->result) &&
           copy_text(res, PGP_TERMINATION - 1, r->termination, sizeof r->termination) &&
           copy_hash(res, PGP_SECRET_WHITE - 1, r->secret_hash[0]) &&
           copy_hash(res, PGP_SECRET_BLACK - 1, r->secret_hash[1]) &&
           copy_hash(res, PGP_INVITE_HASH - 1, r->invite_hash) &&
           copy_text(res, PGP_LEVEL - 1, r->level, sizeof r->level) &&
           copy_text(res, PGP_REASON - 1, r->reason, sizeof r->reason) &&
           copy_text(res, PGP_ACCOUNT_WHITE - 1, r->account[0], sizeof r->account[0]) &&
           copy_text(res, PGP_ACCOUNT_BLACK - 1, r->account[1], sizeof r->account[1]);
}

/* Where the moves of the games being read go. */
typedef struct GameReader {
    StoreEachGame each;
    void *ctx;
    StoredMove **moves;
    int *cap;
    int count; /* games handed out */
} GameReader;

/* Splits "ply,uci,at_ms ..." into moves; -1 on a malformed one or no memory. */
static int parse_moves(const char *text, const GameRecord *rec, StoredMove **moves, int *cap, char *err,
                       size_t err_size) {
    int count = 0;
    for (const char *p = text; p && *p;) {
        if (count == *cap) {
            int grown = *cap ? *cap * 2 : 256;
            StoredMove *more = realloc(*moves, (size_t)grown * sizeof **moves);
            if (!more) {
                store_pg_set_err(err, err_size, "out of memory");
                return -1;
            }
            *moves = more;
            *cap = grown;
        }
        StoredMove *m = &(*moves)[count];
        memset(m, 0, sizeof *m);
        char *end;
        long ply = strtol(p, &end, 10);
        const char *uci = end + 1, *comma = *end == ',' ? strchr(uci, ',') : NULL;
        if (end == p || ply != count || !comma || comma == uci || (size_t)(comma - uci) >= sizeof m->uci) {
            store_pg_set_err(err, err_size, "game %s: bad stored move at ply %d", rec->id, count);
            return -1;
        }
        memcpy(m->uci, uci, (size_t)(comma - uci));
        m->at_ms = strtoll(comma + 1, &end, 10);
        if (end == comma + 1 || (*end != ' ' && *end != '\0')) {
            store_pg_set_err(err, err_size, "game %s: bad stored move at ply %d", rec->id, count);
            return -1;
        }
        p = *end ? end + 1 : end;
        count++;
    }
    /* The ply count the row was written at: exactly as many for a finished game, at least as many for
     * one in play. A move list cut short is damage, never a shorter game. */
    if (rec->plies >= 0 && (rec->result[0] ? count != rec->plies : count < rec->plies)) {
        store_pg_set_err(err, err_size,
                         "the database is damaged: game %s has %d moves stored, but its row was written at ply %d",
                         rec->id, count, rec->plies);
        return -1;
    }
    return count;
}

static bool take_game(GameReader *g, const PGresult *res, char *err, size_t err_size) {
    GameRecord record;
    if (PQnfields(res) != COL_MOVES + 1 || !read_record(res, &record)) {
        store_pg_set_err(err, err_size, "game %.40s: a stored field does not fit",
                         PQnfields(res) > 0 ? PQgetvalue(res, 0, 0) : "?");
        return false;
    }
    const char *text = PQgetisnull(res, 0, COL_MOVES) ? "" : PQgetvalue(res, 0, COL_MOVES);
    int count = parse_moves(text, &record, g->moves, g->cap, err, err_size);
    if (count < 0)
        return false;
    g->each(g->ctx, &record, *g->moves, count);
    g->count++;
    return true;
}

/* ---- running a read ---- */

typedef bool (*RowFn)(void *ctx, const PGresult *row, char *err, size_t err_size);

/* Waits until conn has a whole result; false on a broken connection or when deadline_ms (monotonic; 0:
 * none) passed. */
static bool await_result(PGconn *conn, int64_t deadline_ms) {
    while (PQisBusy(conn)) {
        int timeout = -1;
        if (deadline_ms) {
            int64_t left = deadline_ms - monotonic_ms();
            if (left <= 0)
                return false;
            timeout = (int)left;
        }
        struct pollfd pfd = {.fd = PQsocket(conn), .events = POLLIN};
        int rc = poll(&pfd, 1, timeout);
        if (rc < 0 && errno != EINTR)
            return false;
        if (rc > 0 && PQconsumeInput(conn) != 1)
            return false;
    }
    return true;
}

/* Why a read failed: the connection is fine (a refused row, a statement error), broken (nothing more
 * will come: a read may be tried again on a new one), or the server did not answer in time. */
typedef enum { READ_FAILED, READ_BROKEN, READ_TIMEOUT } ReadFailure;

/* Sends a statement (prepared when name is set, else sql) and hands each row to fn, one at a time,
 * waiting at most wait_ms for each answer (0: no limit). Returns the number of rows, or -1 with err and
 * *failure filled. */
static int run_read(PGconn *conn, const char *name, const char *sql, int nparams, const char *const *values,
                    int wait_ms, RowFn fn, void *ctx, ReadFailure *failure, char *err, size_t err_size) {
    *failure = READ_FAILED;
    int sent = name ? PQsendQueryPrepared(conn, name, nparams, values, NULL, NULL, 0)
                    : PQsendQueryParams(conn, sql, nparams, NULL, values, NULL, NULL, 0);
    if (!sent || !PQsetSingleRowMode(conn)) {
        char why[300];
        store_pg_set_err(err, err_size, "read: %s", store_pg_message(conn, NULL, why, sizeof why));
        *failure = READ_BROKEN;
        return -1;
    }
    int64_t deadline = wait_ms > 0 ? monotonic_ms() + wait_ms : 0;
    int rows = 0;
    bool failed = false;
    for (;;) {
        if (!await_result(conn, deadline)) {
            char why[300];
            if (PQstatus(conn) == CONNECTION_BAD || PQsocket(conn) < 0) {
                store_pg_set_err(err, err_size, "read: %s", store_pg_message(conn, NULL, why, sizeof why));
                *failure = READ_BROKEN;
            } else {
                store_pg_set_err(err, err_size, "read: PostgreSQL did not answer within %d ms", wait_ms);
                *failure = READ_TIMEOUT;
            }
            return -1;
        }
        PGresult *res = PQgetResult(conn);
        if (!res)
            break;
        ExecStatusType st = PQresultStatus(res);
        if (st == PGRES_SINGLE_TUPLE) {
            /* After a row fn refused, the rest is read and dropped: the connection must be idle again. */
            if (!failed && !fn(ctx, res, err, err_size))
                failed = true;
            rows += !failed;
        } else if (st != PGRES_TUPLES_OK && !failed) {
            char why[300];
            store_pg_set_err(err, err_size, "read: %s", store_pg_message(conn, res, why, sizeof why));
            failed = true;
        }
        PQclear(res);
    }
    if (PQstatus(conn) == CONNECTION_BAD) {
        *failure = READ_BROKEN;
        if (!failed) {
            char why[300];
            store_pg_set_err(err, err_size, "read: %s", store_pg_message(conn, NULL, why, sizeof why));
        }
        return -1;
    }
    return failed ? -1 : rows;
}

/* The loop's read connection, opened (with its statements) when there is none. A database known to be
 * unreachable (the listener has lost it and is trying again) is not tried here, so the loop does not
 * wait for connect_timeout on every read while it is down. */
static PGconn *read_conn(PgStore *s, char *err, size_t err_size) {
    if (s->rconn)
        return s->rconn;
    pthread_mutex_lock(&s->mutex);
    bool reachable = s->listener_ok;
    pthread_mutex_unlock(&s->mutex);
    if (!reachable) {
        store_pg_set_err(err, err_size, "PostgreSQL at %s is unreachable", s->where);
        return NULL;
    }
    PGconn *conn = store_pg_connect(s, PG_CONN_READER, err, err_size);
    if (!conn)
        return NULL;
    for (int i = 0; i < R_COUNT; i++) {
        PGresult *res = PQprepare(conn, read_stmts[i].name, read_stmts[i].sql, 0, NULL);
        bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        if (!ok) {
            char why[300];
            store_pg_set_err(err, err_size, "preparing %s: %s", read_stmts[i].name,
                             store_pg_message(conn, res, why, sizeof why));
        }
        PQclear(res);
        if (!ok) {
            PQfinish(conn);
            return NULL;
        }
    }
    s->rconn = conn;
    return conn;
}

/* A read on the loop's connection, which is dropped when it broke or timed out. One that broke before
 * anything was handed out (the database restarted since the last read) is tried once more on a new
 * connection: reads change nothing. */
static int loop_read(PgStore *s, int stmt, int nparams, const char *const *values, RowFn fn, void *ctx, int *handed_out,
                     char *err, size_t err_size) {
    for (int attempt = 0;; attempt++) {
        PGconn *conn = read_conn(s, err, err_size);
        if (!conn)
            return -1;
        ReadFailure failure;
        int n = run_read(conn, read_stmts[stmt].name, NULL, nparams, values, STORE_PG_READ_TIMEOUT_MS + 1000, fn, ctx,
                         &failure, err, err_size);
        if (n >= 0)
            return n;
        if (failure != READ_FAILED) {
            PQfinish(s->rconn);
            s->rconn = NULL;
        }
        if (attempt > 0 || failure != READ_BROKEN || *handed_out > 0) {
            log_event_limited(&s->read_log, LOG_ERROR, "storage_fault", "database", s->where, "error", err,
                              (char *)NULL);
            return -1;
        }
    }
}

static bool game_row(void *ctx, const PGresult *row, char *err, size_t err_size) {
    return take_game(ctx, row, err, err_size);
}

/* ---- the vtable's reads ---- */

/* At start-up, before the loop serves: a connection of its own without the loop's time limit (many
 * games in play take a while). */
bool store_pg_load(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    PgStore *s = (PgStore *)store;
    PGconn *conn = store_pg_connect(s, PG_CONN_PLAIN, err, err_size);
    if (!conn)
        return false;
    StoredMove *moves = NULL;
    int cap = 0;
    GameReader g = {each, ctx, &moves, &cap, 0};
    ReadFailure failure;
    int n = run_read(conn, NULL, SQL_LOAD, 0, NULL, 0, game_row, &g, &failure, err, err_size);
    free(moves);
    PQfinish(conn);
    return n >= 0;
}

int store_pg_get(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    PgStore *s = (PgStore *)store;
    GameReader g = {each, ctx, &s->read_buf, &s->read_cap, 0};
    const char *values[1] = {id};
    int n = loop_read(s, R_GET, 1, values, game_row, &g, &g.count, err, err_size);
    return n < 0 ? -1 : n > 0;
}

int store_pg_read_player_games(PGconn *conn, const char *name, int max, StoreEachGame each, void *ctx, bool *broken,
                               char *err, size_t err_size) {
    StoredMove *moves = NULL;
    int cap = 0;
    GameReader g = {each, ctx, &moves, &cap, 0};
    char limit[16];
    snprintf(limit, sizeof limit, "%d", max > 0 ? max : 0);
    const char *values[2] = {name, limit};
    ReadFailure failure;
    /* Streamed row by row (single-row mode): one game's moves in memory at a time. */
    char sql[2500];
    store_player_games_sql(SELECT_GAME, "$1", " ORDER BY created_ms DESC, id DESC LIMIT $2::int", sql, sizeof sql);
    int n = run_read(conn, NULL, sql, 2, values, 0, game_row, &g, &failure, err, err_size);
    free(moves);
    *broken = n < 0 && failure != READ_FAILED;
    return n;
}

int store_pg_read_one_game(PGconn *conn, const char *id, StoreEachGame each, void *ctx, bool *broken, char *err,
                           size_t err_size) {
    StoredMove *moves = NULL;
    int cap = 0;
    GameReader g = {each, ctx, &moves, &cap, 0};
    const char *values[1] = {id};
    ReadFailure failure;
    int n = run_read(conn, NULL, SELECT_GAME "WHERE id = $1", 1, values, 0, game_row, &g, &failure, err, err_size);
    free(moves);
    *broken = n < 0 && failure != READ_FAILED;
    return n < 0 ? -1 : n > 0;
}

int store_pg_recent(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    PgStore *s = (PgStore *)store;
    GameReader g = {each, ctx, &s->read_buf, &s->read_cap, 0};
    char limit[16];
    snprintf(limit, sizeof limit, "%d", max > 0 ? max : 0);
    const char *values[1] = {limit};
    return loop_read(s, R_RECENT, 1, values, game_row, &g, &g.count, err, err_size);
}

int store_pg_scan(Store *store, const char *after, int max, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    PgStore *s = (PgStore *)store;
    GameReader g = {each, ctx, &s->read_buf, &s->read_cap, 0};
    char limit[16];
    snprintf(limit, sizeof limit, "%d", max > 0 ? max : 0);
    const char *values[2] = {after ? after : "", limit};
    return loop_read(s, R_SCAN, 2, values, game_row, &g, &g.count, err, err_size);
}

typedef struct RevReader {
    StoreEachRev each;
    void *ctx;
    int count; /* handed out */
} RevReader;

static bool rev_row(void *ctx, const PGresult *row, char *err, size_t err_size) {
    (void)err, (void)err_size;
    RevReader *r = ctx;
    r->each(r->ctx, PQgetvalue(row, 0, 0), strtoll(PQgetvalue(row, 0, 1), NULL, 10));
    r->count++;
    return true;
}

int store_pg_revs(Store *store, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                  size_t err_size) {
    PgStore *s = (PgStore *)store;
    if (count <= 0)
        return 0;
    /* A text[] literal: {"id","id",...}, each element quoted, " and \ escaped. */
    size_t size = 3;
    for (int i = 0; i < count; i++)
        size += 2 * strlen(ids[i]) + 3;
    char *array = malloc(size);
    if (!array) {
        store_pg_set_err(err, err_size, "out of memory");
        return -1;
    }
    size_t n = 0;
    array[n++] = '{';
    for (int i = 0; i < count; i++) {
        if (i)
            array[n++] = ',';
        array[n++] = '"';
        for (const char *p = ids[i]; *p; p++) {
            if (*p == '"' || *p == '\\')
                array[n++] = '\\';
            array[n++] = *p;
        }
        array[n++] = '"';
    }
    array[n++] = '}';
    array[n] = '\0';
    RevReader r = {each, ctx, 0};
    const char *values[1] = {array};
    int found = loop_read(s, R_REVS, 1, values, rev_row, &r, &r.count, err, err_size);
    free(array);
    return found;
}

static bool ignore_row(void *ctx, const PGresult *row, char *err, size_t err_size) {
    (void)ctx, (void)row, (void)err, (void)err_size;
    return true;
}

bool store_pg_ping(Store *store) {
    PgStore *s = (PgStore *)store;
    char err[300];
    PGconn *conn = read_conn(s, err, sizeof err);
    if (!conn)
        return false;
    ReadFailure failure;
    if (run_read(conn, NULL, "SELECT 1", 0, NULL, STORE_PG_PING_TIMEOUT_MS, ignore_row, NULL, &failure, err,
                 sizeof err) == 1)
        return true;
    /* Whatever went wrong, the next read starts on a fresh connection. */
    PQfinish(s->rconn);
    s->rconn = NULL;
    return false;
}

void store_pg_read_close(PgStore *s) {
    PQfinish(s->rconn);
    s->rconn = NULL;
    free(s->read_buf);
    s->read_buf = NULL;
    s->read_cap = 0;
}
