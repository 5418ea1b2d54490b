/* The PostgreSQL store's ops in SQL: each op is one prepared statement (its writes joined in
 * data-modifying WITH clauses), so it is atomic by itself, and its answer row says whether it applied
 * and, when not, why (a stale rev, a ply that is not the next one, a lease held by another node). The
 * writer (store_pg_writer.c) sends them in batches. */
#include "store_pg_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Type OIDs (pg_type.h is a server header). */
#define OID_BOOL  16
#define OID_BYTEA 17
#define OID_INT8  20
#define OID_INT4  23
#define OID_TEXT  25

#define RECORD_TYPES                                                                                                   \
    OID_TEXT, OID_INT8, OID_INT8, OID_TEXT, OID_TEXT, OID_TEXT, OID_INT4, OID_INT4, OID_INT4, OID_BYTEA, OID_BYTEA,    \
        OID_BYTEA, OID_INT4, OID_TEXT, OID_TEXT, OID_INT4, OID_INT8, OID_INT8, OID_INT8, OID_TEXT, OID_INT4, OID_TEXT, \
        OID_TEXT, OID_TEXT, OID_INT4, OID_INT4, OID_INT4, OID_INT4, OID_INT4, OID_INT4, OID_INT4, OID_TEXT, OID_INT8,  \
        OID_INT8, OID_INT4, OID_INT4

/* Every op statement answers one row: the game's rev after the op (NULL: not applied), its rev before
 * (NULL: no such game; the newest committed one, read under the row's lock) and the number of moves
 * before (what "the next ply" was). */

/* A new game, with its first move when the op appends one (that must be ply 0). */
static const char SQL_CREATE[] =
    "WITH g AS (INSERT INTO games (" STORE_PG_GAME_COLUMNS ", rev)"
    "  SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22,"
    "  $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, 1"
    "  WHERE NOT $37 OR $38 = 0 ON CONFLICT (id) DO NOTHING RETURNING rev),"
    " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $38, $39, $40 FROM g WHERE $37)"
    " SELECT (SELECT rev FROM g), NULL::bigint, 0";

/* The row lock taken in l serialises the writers of all nodes on the game: one that waited for it reads
 * the rev the other committed, so of two ops made on the same rev exactly one applies. */
#define LOCK_AND_COUNT                                                                                                 \
    "WITH l AS (SELECT rev FROM games WHERE id = $1 FOR UPDATE),"                                                      \
    " n AS (SELECT coalesce(max(ply) + 1, 0) AS next FROM moves WHERE game_id = $1),"

/* The game's row replaced (all but id, created_ms, rev and the lease), and a move when append is set. */
#define UPDATE_ROW                                                                                                     \
    LOCK_AND_COUNT                                                                                                     \
    " u AS (UPDATE games SET rev = games.rev + 1, updated_ms = $3, start_fen = $4, mode = $5,"                         \
    "  time_type = $6, minutes = $7, increment = $8, days = $9, secret_hash_white = $10,"                              \
    "  secret_hash_black = $11, invite_hash = $12, invite_color = $13, result = $14, termination = $15,"               \
    "  draw_offer = $16, clock_white_ms = $17, clock_black_ms = $18, turn_started_ms = $19,"                           \
    "  level = $20, plies = $21, reason = $22, account_white = $23, account_black = $24, rated = $25,"                 \
    "  rating_white = $26, rating_black = $27, rating_diff_white = $28, rating_diff_black = $29,"                      \
    "  rematch_offer = $30, rematch_decline = $31, rematch_game = $32,"                                                \
    "  seat_epoch_white = $33, seat_epoch_black = $34, provisional_white = $35, provisional_black = $36 FROM l, n"     \
    "  WHERE games.id = $1 AND ($37 = 0 OR l.rev = $37) AND (NOT $38 OR n.next = $39)"                                 \
    "  RETURNING games.rev),"
static const char SQL_UPDATE[] =
    UPDATE_ROW " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $39, $40, $41 FROM u WHERE $38),"
               " d AS (DELETE FROM moves USING u WHERE $42 AND NOT $38 AND moves.game_id = $1 AND moves.ply >= $21)"
               " SELECT (SELECT rev FROM u), (SELECT rev FROM l), (SELECT next FROM n)";

/* An update with a new game (StoreOp.spawn, $42..$77) inserted only from the updated row: both or
 * neither, in one statement. */
static const char SQL_SPAWN[] =
    UPDATE_ROW " s AS (INSERT INTO games (" STORE_PG_GAME_COLUMNS ", rev) SELECT $42, $43, $44, $45, $46, $47, $48,"
               "  $49, $50, $51, $52, $53, $54, $55, $56, $57, $58, $59, $60, $61, $62, $63, $64, $65, $66, $67, $68,"
               "  $69, $70, $71, $72, $73, $74, $75, $76, $77, 1 FROM u)"
               " SELECT (SELECT rev FROM u), (SELECT rev FROM l), (SELECT next FROM n)";

/* A move, inserted only when ply is the next one (a gap is refused like a duplicate). */
static const char SQL_APPEND[] =
    LOCK_AND_COUNT " u AS (UPDATE games SET rev = games.rev + 1 FROM l, n"
                   "  WHERE games.id = $1 AND ($2 = 0 OR l.rev = $2) AND n.next = $3 RETURNING games.rev),"
                   " m AS (INSERT INTO moves (game_id, ply, uci, at_ms) SELECT $1, $3, $4, $5 FROM u)"
                   " SELECT (SELECT rev FROM u), (SELECT rev FROM l), (SELECT next FROM n)";

/* The lease: free, expired, taken at an older rev (the game moved on), or this node's already (a
 * renewal). The rev stays. */
static const char SQL_CLAIM[] =
    "WITH l AS (SELECT rev FROM games WHERE id = $1 FOR UPDATE),"
    " u AS (UPDATE games SET lease_node = $3, lease_rev = games.rev, lease_until_ms = $5 FROM l"
    "  WHERE games.id = $1 AND ($2 = 0 OR l.rev = $2)"
    "  AND (games.lease_until_ms < $4 OR games.lease_node = $3 OR games.lease_node = ''"
    "       OR games.lease_rev <> games.rev) RETURNING games.rev)"
    " SELECT (SELECT rev FROM u), (SELECT rev FROM l), 0";

typedef struct WriterStmt {
    const char *name, *sql;
    int nparams;
    Oid types[80];
} WriterStmt;

/* clang-format off */
static const WriterStmt writer_stmts[PG_W_COUNT] = {
    [PG_W_BEGIN] = {"schach_begin", "BEGIN", 0, {0}},
    [PG_W_COMMIT] = {"schach_commit", "COMMIT", 0, {0}},
    [PG_W_ROLLBACK] = {"schach_rollback", "ROLLBACK", 0, {0}},
    [PG_W_CREATE] = {"schach_create", SQL_CREATE, 40, {RECORD_TYPES, OID_BOOL, OID_INT4, OID_TEXT, OID_INT8}},
    [PG_W_UPDATE] = {"schach_update", SQL_UPDATE, 42,
                     {RECORD_TYPES, OID_INT8, OID_BOOL, OID_INT4, OID_TEXT, OID_INT8, OID_BOOL}},
    [PG_W_SPAWN] = {"schach_spawn", SQL_SPAWN, 77,
                    {RECORD_TYPES, OID_INT8, OID_BOOL, OID_INT4, OID_TEXT, OID_INT8, RECORD_TYPES}},
    [PG_W_APPEND] = {"schach_append", SQL_APPEND, 5, {OID_TEXT, OID_INT8, OID_INT4, OID_TEXT, OID_INT8}},
    [PG_W_CLAIM] = {"schach_claim", SQL_CLAIM, 5, {OID_TEXT, OID_INT8, OID_TEXT, OID_INT8, OID_INT8}},
    [PG_W_NOTIFY] = {"schach_notify", "SELECT pg_notify('" STORE_PG_CHANNEL "', $1)", 1, {OID_TEXT}},
};
/* clang-format on */

bool store_pg_prepare_writer(PGconn *conn, char *err, size_t err_size) {
    for (int i = 0; i < PG_W_COUNT; i++) {
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

typedef StorePgParams Params;

static void p_bool(Params *p, bool v) { store_pg_param_text(p, v ? "t" : "f"); }

/* A hash as bytea in binary format; NULL when it is all zero (nobody holds the side). */
static void p_hash(Params *p, const unsigned char *hash) {
    bool zero = true;
    for (int i = 0; i < STORE_HASH_LEN && zero; i++)
        zero = hash[i] == 0;
    p->values[p->n] = zero ? NULL : (const char *)hash;
    p->lengths[p->n] = STORE_HASH_LEN;
    p->formats[p->n++] = 1;
}

void store_pg_params_record(StorePgParams *p, const GameRecord *r) {
    store_pg_param_text(p, r->id);
    store_pg_param_int(p, r->created_ms);
    store_pg_param_int(p, r->updated_ms);
    store_pg_param_text(p, r->start_fen);
    store_pg_param_text(p, r->mode);
    store_pg_param_text(p, store_time_type_text(r->time.type));
    store_pg_param_int(p, r->time.minutes);
    store_pg_param_int(p, r->time.increment);
    store_pg_param_int(p, r->time.days);
    p_hash(p, r->secret_hash[0]);
    p_hash(p, r->secret_hash[1]);
    p_hash(p, r->invite_hash);
    store_pg_param_int(p, r->invite_color);
    store_pg_param_text(p, r->result);
    store_pg_param_text(p, r->termination);
    store_pg_param_int(p, store_offers_pack(r));
    store_pg_param_int(p, r->clock_ms[0]);
    store_pg_param_int(p, r->clock_ms[1]);
    store_pg_param_int(p, r->turn_started_ms);
    store_pg_param_text(p, r->level);
    store_pg_param_int(p, r->plies);
    store_pg_param_text(p, r->reason);
    store_pg_param_text(p, r->account[0]);
    store_pg_param_text(p, r->account[1]);
    store_pg_param_int(p, r->rated);
    store_pg_param_int(p, r->rating[0]);
    store_pg_param_int(p, r->rating[1]);
    store_pg_param_int(p, r->rating_diff[0]);
    store_pg_param_int(p, r->rating_diff[1]);
    store_pg_param_int(p, r->rematch_offer);
    store_pg_param_int(p, r->rematch_decline);
    store_pg_param_text(p, r->rematch_game);
    store_pg_param_int(p, r->seat_epoch[0]);
    store_pg_param_int(p, r->seat_epoch[1]);
    store_pg_param_int(p, r->provisional[0]);
    store_pg_param_int(p, r->provisional[1]);
}

static bool send_stmt(PGconn *conn, int which, const Params *p) {
    return PQsendQueryPrepared(conn, writer_stmts[which].name, p ? p->n : 0, p ? p->values : NULL,
                               p ? p->lengths : NULL, p ? p->formats : NULL, 0) == 1;
}

static void op_error(StoreOp *op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void op_error(StoreOp *op, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(op->error, sizeof op->error, fmt, ap);
    va_end(ap);
}

const char *store_pg_stmt_kind(int stmt) {
    switch (stmt) {
        case PG_W_CREATE: return "create";
        case PG_W_UPDATE:
        case PG_W_SPAWN: return "update";
        case PG_W_APPEND: return "append";
        default: return "claim";
    }
}

int store_pg_op_stmt(StoreOp *op) {
    if (op->claim && (op->create || op->update || op->append)) {
        op_error(op, "operation on game %s: a claim combines with no other write", op->record.id);
        return -1;
    }
    if (op->claim)
        return PG_W_CLAIM;
    if (op->create) /* an update alongside changes nothing: the row is created from the same record */
        return PG_W_CREATE;
    if (op->update)
        return op->spawn ? PG_W_SPAWN : PG_W_UPDATE;
    if (op->append)
        return PG_W_APPEND;
    op_error(op, "operation on game %s names no write", op->record.id);
    return -1;
}

bool store_pg_send_op(PGconn *conn, int stmt, const StoreOp *op) {
    Params p;
    p.n = 0;
    switch (stmt) {
        case PG_W_CREATE:
            store_pg_params_record(&p, &op->record);
            p_bool(&p, op->append);
            store_pg_param_int(&p, op->ply);
            store_pg_param_text(&p, op->move.uci);
            store_pg_param_int(&p, op->move.at_ms);
            break;
        case PG_W_UPDATE:
        case PG_W_SPAWN:
            store_pg_params_record(&p, &op->record);
            store_pg_param_int(&p, op->base_rev);
            p_bool(&p, op->append);
            store_pg_param_int(&p, op->ply);
            store_pg_param_text(&p, op->move.uci);
            store_pg_param_int(&p, op->move.at_ms);
            if (stmt == PG_W_SPAWN)
                store_pg_params_record(&p, op->spawn);
            else
                p_bool(&p, op->truncate); /* $42: a takeback deletes the moves from $21 (plies) on */
            break;
        case PG_W_APPEND:
            store_pg_param_text(&p, op->record.id);
            store_pg_param_int(&p, op->base_rev);
            store_pg_param_int(&p, op->ply);
            store_pg_param_text(&p, op->move.uci);
            store_pg_param_int(&p, op->move.at_ms);
            break;
        default:
            store_pg_param_text(&p, op->record.id);
            store_pg_param_int(&p, op->base_rev);
            store_pg_param_text(&p, op->node);
            store_pg_param_int(&p, op->now_ms);
            store_pg_param_int(&p, op->lease_until_ms);
            break;
    }
    return send_stmt(conn, stmt, &p);
}

bool store_pg_send_plain(PGconn *conn, int stmt) { return send_stmt(conn, stmt, NULL); }

bool store_pg_send_notify(PGconn *conn, const char *payload) {
    Params p;
    p.n = 0;
    store_pg_param_text(&p, payload);
    return send_stmt(conn, PG_W_NOTIFY, &p);
}

void store_pg_take_answer(StoreOp *op, int stmt, const PGresult *res, int64_t *new_rev, int *plies_after) {
    const char *what = store_pg_stmt_kind(stmt);
    if (PQntuples(res) != 1 || PQnfields(res) != 3) {
        op_error(op, "%s of game %s: unexpected answer", what, op->record.id);
        return;
    }
    bool applied = !PQgetisnull(res, 0, 0), exists = !PQgetisnull(res, 0, 1);
    long long before = exists ? strtoll(PQgetvalue(res, 0, 1), NULL, 10) : 0;
    int next = PQgetisnull(res, 0, 2) ? 0 : atoi(PQgetvalue(res, 0, 2));
    if (applied) {
        op->ok = true;
        *new_rev = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        *plies_after = op->append                            ? op->ply + 1
                       : stmt == PG_W_CREATE                 ? 0
                       : stmt == PG_W_UPDATE && op->truncate ? op->record.plies
                                                             : next;
        return;
    }
    if (stmt == PG_W_CREATE) {
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
    } else if (stmt == PG_W_CLAIM) {
        op->conflict = true;
        op_error(op, "claim of game %s: another node holds the lease", op->record.id);
    } else {
        op_error(op, "%s of game %s: ply %d is not the next ply (%d)", what, op->record.id, op->ply, next);
    }
}
