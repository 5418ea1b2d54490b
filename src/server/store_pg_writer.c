/* The PostgreSQL store's writer: one connection, one thread, group commit. Everything queued meanwhile
 * becomes one transaction, sent in libpq's pipeline mode, so a batch costs two round trips however
 * many ops it holds (one for the ops, one for the announcements and COMMIT) instead of several per op.
 *
 * Each op is a single statement (its writes joined in data-modifying WITH clauses), so it is atomic by
 * itself: an op that cannot apply (a stale base_rev, a ply that is not the next one, a lease held by
 * another node) changes nothing and says why in its result row, with no error. An op that raises an
 * error (a constraint: two nodes appending the same ply without a rev check) aborts the transaction:
 * it is rolled back, that op fails alone, and the batch runs again without it. That is what a
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

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* At most this many ops per transaction: a bound on its locks, its memory and how long it runs. */
#define PG_BATCH_MAX 4096
/* How often a batch is run again after a deadlock or serialization failure before it fails. */
#define PG_BATCH_RETRIES 3

/* Type OIDs (pg_type.h is a server header). */
#define OID_BOOL  16
#define OID_BYTEA 17
#define OID_INT8  20
#define OID_INT4  23
#define OID_TEXT  25

#define RECORD_TYPES                                                                                                   \
    OID_TEXT, OID_INT8, OID_INT8, OID_TEXT, OID_TEXT, OID_TEXT, OID_INT4, OID_INT4, OID_INT4, OID_BYTEA, OID_BYTEA,    \
        OID_BYTEA, OID_INT4, OID_TEXT, OID_TEXT, OID_INT4, OID_INT8, OID_INT8, OID_INT8, OID_TEXT, OID_INT4, OID_TEXT

/* Every op statement answers one row: the game's rev after the op (NULL: not applied), its rev before
 * (NULL: no such game; the newest committed one, read under the row's lock) and the number of moves
 * before (what "the next ply" was). */

/* A new game, with its first move when the op appends one (that must be ply 0). */
static const char SQL_CREATE[] =
    "WITH g AS (INSERT INTO games (" STORE_PG_GAME_COLUMNS ", rev)"
    "  SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, 1"
    "  WHERE NOT $23 OR $24 = 0 ON CONFLICT (id) DO NOTHING RETURNING rev),"
    " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $24, $25, $26 FROM g WHERE $23)"
    " SELECT (SELECT rev FROM g), NULL::bigint, 0";

/* The row lock taken in l serialises the writers of all nodes on the game: one that waited for it reads
 * the rev the other committed, so of two ops made on the same rev exactly one applies. */
#define LOCK_AND_COUNT                                                                                                 \
    "WITH l AS (SELECT rev FROM games WHERE id = $1 FOR UPDATE),"                                                      \
    " n AS (SELECT coalesce(max(ply) + 1, 0) AS next FROM moves WHERE game_id = $1),"

/* The game's row replaced (all but id, created_ms, rev and the lease), and a move when append is set. */
static const char SQL_UPDATE[] =
    LOCK_AND_COUNT " u AS (UPDATE games SET rev = games.rev + 1, updated_ms = $3, start_fen = $4, mode = $5,"
                   "  time_type = $6, minutes = $7, increment = $8, days = $9, secret_hash_white = $10,"
                   "  secret_hash_black = $11, invite_hash = $12, invite_color = $13, result = $14, termination = $15,"
                   "  draw_offer = $16, clock_white_ms = $17, clock_black_ms = $18, turn_started_ms = $19,"
                   "  level = $20, plies = $21, reason = $22 FROM l, n"
                   "  WHERE games.id = $1 AND ($23 = 0 OR l.rev = $23) AND (NOT $24 OR n.next = $25)"
                   "  RETURNING games.rev),"
                   " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $25, $26, $27 FROM u WHERE $24)"
                   " SELECT (SELECT rev FROM u), (SELECT rev FROM l), (SELECT next FROM n)";

/* A move, inserted only when ply is the next one (a gap is refused like a duplicate). */
static const char SQL_APPEND[] =
    LOCK_AND_COUNT " u AS (UPDATE games SET rev = games.rev + 1 FROM l, n"
                   "  WHERE games.id = $1 AND ($2 = 0 OR l.rev = $2) AND n.next = $3 RETURNING games.rev),"
                   " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $3, $4, $5 FROM u)"
                   " SELECT (SELECT rev FROM u), (SELECT rev FROM l), (SELECT next FROM n)";

/* The lease: free, expired, or this node's already (a renewal). The rev stays. */
static const char SQL_CLAIM[] =
    "WITH l AS (SELECT rev FROM games WHERE id = $1 FOR UPDATE),"
    " u AS (UPDATE games SET lease_node = $3, lease_until_ms = $5 FROM l"
    "  WHERE games.id = $1 AND ($2 = 0 OR l.rev = $2)"
    "  AND (games.lease_until_ms < $4 OR games.lease_node = $3 OR games.lease_node = '') RETURNING games.rev)"
    " SELECT (SELECT rev FROM u), (SELECT rev FROM l), 0";

enum { W_BEGIN, W_COMMIT, W_ROLLBACK, W_CREATE, W_UPDATE, W_APPEND, W_CLAIM, W_NOTIFY, W_COUNT };

typedef struct WriterStmt {
    const char *name, *sql;
    int nparams;
    Oid types[27];
} WriterStmt;

/* clang-format off */
static const WriterStmt writer_stmts[W_COUNT] = {
    [W_BEGIN] = {"schach_begin", "BEGIN", 0, {0}},
    [W_COMMIT] = {"schach_commit", "COMMIT", 0, {0}},
    [W_ROLLBACK] = {"schach_rollback", "ROLLBACK", 0, {0}},
    [W_CREATE] = {"schach_create", SQL_CREATE, 26, {RECORD_TYPES, OID_BOOL, OID_INT4, OID_TEXT, OID_INT8}},
    [W_UPDATE] = {"schach_update", SQL_UPDATE, 27, {RECORD_TYPES, OID_INT8, OID_BOOL, OID_INT4, OID_TEXT, OID_INT8}},
    [W_APPEND] = {"schach_append", SQL_APPEND, 5, {OID_TEXT, OID_INT8, OID_INT4, OID_TEXT, OID_INT8}},
    [W_CLAIM] = {"schach_claim", SQL_CLAIM, 5, {OID_TEXT, OID_INT8, OID_TEXT, OID_INT8, OID_INT8}},
    [W_NOTIFY] = {"schach_notify", "SELECT pg_notify('" STORE_PG_CHANNEL "', $1)", 1, {OID_TEXT}},
};
/* clang-format on */

bool store_pg_prepare_writer(PGconn *conn, char *err, size_t err_size) {
    for (int i = 0; i < W_COUNT; i++) {
        const WriterStmt *w = &writer_stmts[i];
        PGresult *res = PQprepare(conn, w->name, w->sql, w->nparams, w->types);
        bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
        if (!ok) {
            char why[300];
            store_pg_set_err(err, err_size, "preparing %s: %s", w->name, store_pg_message(conn, res, why, sizeof why));
        }
        PQclear(res);
        if (!ok)
            return false;
    }
    return true;
}

/* ---- parameters ---- */

#define MAX_PARAMS 27

typedef struct Params {
    const char *values[MAX_PARAMS];
    int lengths[MAX_PARAMS];
    int formats[MAX_PARAMS];
    char numbers[MAX_PARAMS][24];
    int n;
} Params;

static void p_text(Params *p, const char *v) {
    p->values[p->n] = v;
    p->lengths[p->n] = 0;
    p->formats[p->n++] = 0;
}

static void p_int(Params *p, long long v) {
    snprintf(p->numbers[p->n], sizeof p->numbers[p->n], "%lld", v);
    p_text(p, p->numbers[p->n]);
}

static void p_bool(Params *p, bool v) { p_text(p, v ? "t" : "f"); }

/* A hash as bytea in binary format; NULL when it is all zero (nobody holds the side). */
static void p_hash(Params *p, const unsigned char *hash) {
    bool zero = true;
    for (int i = 0; i < STORE_HASH_LEN && zero; i++)
        zero = hash[i] == 0;
    p->values[p->n] = zero ? NULL : (const char *)hash;
    p->lengths[p->n] = STORE_HASH_LEN;
    p->formats[p->n++] = 1;
}

static void p_record(Params *p, const GameRecord *r) {
    p_text(p, r->id);
    p_int(p, r->created_ms);
    p_int(p, r->updated_ms);
    p_text(p, r->start_fen);
    p_text(p, r->mode);
    p_text(p, r->time_type);
    p_int(p, r->minutes);
    p_int(p, r->increment);
    p_int(p, r->days);
    p_hash(p, r->secret_hash[0]);
    p_hash(p, r->secret_hash[1]);
    p_hash(p, r->invite_hash);
    p_int(p, r->invite_color);
    p_text(p, r->result);
    p_text(p, r->termination);
    p_int(p, r->draw_offer);
    p_int(p, r->clock_ms[0]);
    p_int(p, r->clock_ms[1]);
    p_int(p, r->turn_started_ms);
    p_text(p, r->level);
    p_int(p, r->plies);
    p_text(p, r->reason);
}

static bool send_stmt(PGconn *conn, int which, const Params *p) {
    return PQsendQueryPrepared(conn, writer_stmts[which].name, p ? p->n : 0, p ? p->values : NULL,
                               p ? p->lengths : NULL, p ? p->formats : NULL, 0) == 1;
}

/* ---- one batch ---- */

/* An op of the batch in execution order, and what its statement answered. */
typedef struct Slot {
    StoreOp *op;
    int index;   /* in submission order */
    bool active; /* sent in this attempt (not failed already, alone) */
    int stmt;    /* W_CREATE ... W_CLAIM */
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

static void op_error(StoreOp *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void op_error(StoreOp *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(op->error, sizeof op->error, fmt, ap);
    va_end(ap);
}

static const char *kind_name(int stmt) {
    switch (stmt) {
        case W_CREATE: return "create";
        case W_UPDATE: return "update";
        case W_APPEND: return "append";
        default: return "claim";
    }
}

/* Which statement an op needs; -1 (with the op failed) for a combination that names no write. */
static int choose_stmt(StoreOp *op) {
    if (op->claim && (op->create || op->update || op->append)) {
        op_error(op, "operation on game %s: a claim combines with no other write", op->record.id);
        return -1;
    }
    if (op->claim)
        return W_CLAIM;
    if (op->create) /* an update alongside changes nothing: the row is created from the same record */
        return W_CREATE;
    if (op->update)
        return W_UPDATE;
    if (op->append)
        return W_APPEND;
    op_error(op, "operation on game %s names no write", op->record.id);
    return -1;
}

static bool send_op(PGconn *conn, const Slot *slot) {
    const StoreOp *op = slot->op;
    Params p;
    p.n = 0;
    switch (slot->stmt) {
        case W_CREATE:
            p_record(&p, &op->record);
            p_bool(&p, op->append);
            p_int(&p, op->ply);
            p_text(&p, op->move.uci);
            p_int(&p, op->move.at_ms);
            break;
        case W_UPDATE:
            p_record(&p, &op->record);
            p_int(&p, op->base_rev);
            p_bool(&p, op->append);
            p_int(&p, op->ply);
            p_text(&p, op->move.uci);
            p_int(&p, op->move.at_ms);
            break;
        case W_APPEND:
            p_text(&p, op->record.id);
            p_int(&p, op->base_rev);
            p_int(&p, op->ply);
            p_text(&p, op->move.uci);
            p_int(&p, op->move.at_ms);
            break;
        default:
            p_text(&p, op->record.id);
            p_int(&p, op->base_rev);
            p_text(&p, op->node);
            p_int(&p, op->now_ms);
            p_int(&p, op->lease_until_ms);
            break;
    }
    return send_stmt(conn, slot->stmt, &p);
}

/* Reads an op's answer row into its slot and op: ok, or why not. */
static void take_answer(Slot *slot, const PGresult *res) {
    StoreOp *op = slot->op;
    const char *what = kind_name(slot->stmt);
    if (PQntuples(res) != 1 || PQnfields(res) != 3) {
        op_error(op, "%s of game %s: unexpected answer", what, op->record.id);
        return;
    }
    bool applied = !PQgetisnull(res, 0, 0), exists = !PQgetisnull(res, 0, 1);
    long long before = exists ? strtoll(PQgetvalue(res, 0, 1), NULL, 10) : 0;
    int next = PQgetisnull(res, 0, 2) ? 0 : atoi(PQgetvalue(res, 0, 2));
    if (applied) {
        op->ok = true;
        slot->new_rev = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        slot->plies_after = op->append ? op->ply + 1 : slot->stmt == W_CREATE ? 0 : next;
        return;
    }
    if (slot->stmt == W_CREATE) {
        if (op->append && op->ply != 0)
            op_error(op, "create of game %s: ply %d is not the next ply (0)", op->record.id, op->ply);
        else
            op_error(op, "create of game %s: a game with this id exists", op->record.id);
    } else if (!exists) {
        op_error(op, "%s of game %s: no such game", what, op->record.id);
    } else if (op->base_rev != 0 && before != op->base_rev) {
        op->conflict = true;
        op_error(op, "%s of game %s: the game is at rev %lld, not %lld (changed by another node)", what, op->record.id,
                 before, (long long)op->base_rev);
    } else if (slot->stmt == W_CLAIM) {
        op->conflict = true;
        op_error(op, "claim of game %s: another node holds the lease", op->record.id);
    } else {
        op_error(op, "%s of game %s: ply %d is not the next ply (%d)", what, op->record.id, op->ply, next);
    }
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
    bool sent = PQenterPipelineMode(conn) == 1 && send_stmt(conn, W_BEGIN, NULL);
    for (int i = 0; sent && i < n; i++)
        if (slots[i].active)
            sent = send_op(conn, &slots[i]);
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
            take_answer(slot, res);
        } else if (st == PGRES_FATAL_ERROR && result == RUN_OK) {
            const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
            store_pg_message(conn, res, msg, sizeof msg);
            if (own_error(state)) {
                op_error(slot->op, "%s of game %s: %s", kind_name(slot->stmt), slot->op->record.id, msg);
                slot->active = false;
                result = RUN_OP_FAILED;
            } else {
                snprintf(why, why_size, "%s of game %s: %s", kind_name(slot->stmt), slot->op->record.id, msg);
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

/* The announcement of a changed game: "<id> <rev> <ply> <sent_ms> <node>". */
static void send_notice(PGconn *conn, const PgStore *s, const Slot *slot, int64_t sent_ms, bool *sent) {
    char payload[STORE_ID_LEN + STORE_NODE_LEN + 80];
    snprintf(payload, sizeof payload, "%s %lld %d %lld %s", slot->op->record.id, (long long)slot->new_rev,
             slot->plies_after, (long long)sent_ms, s->node);
    Params p;
    p.n = 0;
    p_text(&p, payload);
    *sent = *sent && send_stmt(conn, W_NOTIFY, &p);
}

/* Phase two: one announcement per changed game (its last change in the batch), and COMMIT. */
static RunResult run_commit(PgStore *s, PGconn *conn, Slot *slots, int n, char *why, size_t why_size) {
    bool sent = PQenterPipelineMode(conn) == 1;
    int notices = 0;
    int64_t sent_ms = store_pg_wall_ms();
    for (int i = 0; i < n; i++) {
        const Slot *slot = &slots[i];
        if (!slot->active || !slot->op->ok || slot->stmt == W_CLAIM)
            continue;
        /* The last change of this game in the batch speaks for all of them. */
        bool later = false;
        for (int j = i + 1; j < n && strcmp(slots[j].op->record.id, slot->op->record.id) == 0 && !later; j++)
            later = slots[j].active && slots[j].op->ok && slots[j].stmt != W_CLAIM;
        if (!later) {
            send_notice(conn, s, slot, sent_ms, &sent);
            notices++;
        }
    }
    sent = sent && send_stmt(conn, W_COMMIT, NULL) && PQpipelineSync(conn) == 1;
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
    PGresult *res = PQexecPrepared(conn, writer_stmts[W_ROLLBACK].name, 0, NULL, NULL, NULL, 0);
    PQclear(res);
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
        op->ok = op->fault = op->conflict = false;
        op->error[0] = '\0';
        slots[i].stmt = choose_stmt(op);
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
        char msg[2 * sizeof slots[0].op->error];
        snprintf(msg, sizeof msg, "storage: %s%s", why,
                 r == RUN_UNKNOWN ? " (the connection broke during COMMIT: its outcome is unknown)" : "");
        for (int i = 0; i < n; i++) {
            StoreOp *op = slots[i].op;
            op->ok = op->conflict = false;
            op->fault = true;
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

void *store_pg_writer_main(void *arg) {
    PgStore *s = arg;
    Slot one;
    int cap = PG_BATCH_MAX;
    Slot *slots = malloc(sizeof *slots * (size_t)cap);
    if (!slots) { /* still correct, one op per batch */
        slots = &one;
        cap = 1;
    }
    pthread_mutex_lock(&s->mutex);
    for (;;) {
        while (!s->queue_head && !s->stopping)
            pthread_cond_wait(&s->cond, &s->mutex);
        if (!s->queue_head)
            break; /* stopping, and everything submitted is done */
        StoreOp *batch = s->queue_head, *last = batch;
        int n = 1;
        slots[0] = (Slot){.op = batch, .index = 0};
        while (n < cap && last->next) {
            last = last->next;
            slots[n] = (Slot){.op = last, .index = n};
            n++;
        }
        s->queue_head = last->next;
        if (!s->queue_head)
            s->queue_tail = NULL;
        last->next = NULL;
        s->counters.queue_depth -= (uint64_t)n;
        pthread_mutex_unlock(&s->mutex);

        write_batch(s, slots, n);

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
    if (slots != &one)
        free(slots);
    return NULL;
}
