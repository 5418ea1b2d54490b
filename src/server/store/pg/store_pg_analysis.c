/* The engine's analyses of finished games in the PostgreSQL store (store_accounts.h, schema 15), on
 * the accounts' connection: queued with the requests counted against their requesters (one
 * transaction), claimed by one node under a lease (the row's lock serialises the nodes), their progress
 * and result written by that node. Also the one-game read the analysis needs on this connection. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_accounts.h"
#include "store_pg_internal.h"

#define ANALYSIS_COLUMNS "game_id, status, requested_ms, updated_ms, node, lease_until_ms, done, total"

static void read_analysis(const PGresult *res, AnalysisRow *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, 0, 0));
    snprintf(out->status, sizeof out->status, "%s", PQgetvalue(res, 0, 1));
    out->requested_ms = strtoll(PQgetvalue(res, 0, 2), NULL, 10);
    out->updated_ms = strtoll(PQgetvalue(res, 0, 3), NULL, 10);
    snprintf(out->node, sizeof out->node, "%s", PQgetvalue(res, 0, 4));
    out->lease_until_ms = strtoll(PQgetvalue(res, 0, 5), NULL, 10);
    out->done = atoi(PQgetvalue(res, 0, 6));
    out->total = atoi(PQgetvalue(res, 0, 7));
}

int store_pg_game_get(StoreAccounts *base, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    PGconn *conn = store_pg_accounts_conn(a, err, err_size);
    if (!conn)
        return -1;
    bool broken = false;
    int n = store_pg_read_one_game(conn, id, each, ctx, &broken, err, err_size);
    if (broken) {
        PQfinish(a->conn);
        a->conn = NULL;
    }
    return n;
}

StoreAccountResult store_pg_analysis_get(StoreAccounts *base, const char *game_id, AnalysisRow *out, char **result,
                                         char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, game_id);
    PGresult *res = store_pg_accounts_run(a, "SELECT " ANALYSIS_COLUMNS ", result FROM analyses WHERE game_id = $1", &p,
                                          PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    StoreAccountResult r = PQntuples(res) == 1 ? SA_OK : SA_NOT_FOUND;
    if (r == SA_OK) {
        read_analysis(res, out);
        if (result && !(*result = strdup(PQgetvalue(res, 0, 8)))) {
            store_pg_set_err(err, err_size, "out of memory");
            r = SA_FAULT;
        }
    }
    PQclear(res);
    return r;
}

/* Runs sql as a command (or a query); false with err filled when it failed. */
static bool exec(PgAccounts *a, const char *sql, const StorePgParams *p, ExecStatusType want, long *rows, char *err,
                 size_t err_size) {
    PGresult *res = store_pg_accounts_run(a, sql, p, want, err, err_size);
    if (!res)
        return false;
    if (rows)
        *rows = want == PGRES_TUPLES_OK ? (PQntuples(res) == 1 ? strtol(PQgetvalue(res, 0, 0), NULL, 10) : -1)
                                        : strtol(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return true;
}

StoreAccountResult store_pg_analysis_queue(StoreAccounts *base, const char *game_id, int total,
                                           const char *const requesters[2], const int per_day[2], int64_t now_ms,
                                           AnalysisRow *out, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams none = {.n = 0};
    if (!exec(a, "BEGIN", &none, PGRES_COMMAND_OK, NULL, err, err_size))
        return SA_FAULT;
    StoreAccountResult r = store_pg_analysis_get(base, game_id, out, NULL, err, err_size);
    r = r == SA_OK ? SA_TAKEN : r == SA_NOT_FOUND ? SA_OK : r;
    for (int i = 0; i < 2 && r == SA_OK; i++) {
        if (!requesters[i])
            continue;
        StorePgParams p = {.n = 0};
        store_pg_param_text(&p, requesters[i]);
        store_pg_param_int(&p, now_ms - STORE_ANALYSIS_WINDOW_MS);
        long n = -1;
        if (!exec(a, "SELECT count(*) FROM analysis_requests WHERE requester = $1 AND at_ms > $2::bigint", &p,
                  PGRES_TUPLES_OK, &n, err, err_size))
            r = SA_FAULT;
        else if (n >= per_day[i])
            r = SA_LIMITED;
    }
    if (r == SA_OK) {
        StorePgParams p = {.n = 0};
        store_pg_param_int(&p, now_ms - STORE_ANALYSIS_WINDOW_MS);
        if (!exec(a, "DELETE FROM analysis_requests WHERE at_ms <= $1::bigint", &p, PGRES_COMMAND_OK, NULL, err,
                  err_size))
            r = SA_FAULT;
    }
    if (r == SA_OK) {
        StorePgParams p = {.n = 0};
        store_pg_param_text(&p, game_id);
        store_pg_param_int(&p, now_ms);
        store_pg_param_int(&p, total);
        long rows = 0;
        if (!exec(a,
                  "INSERT INTO analyses (game_id, status, requested_ms, updated_ms, total)"
                  " VALUES ($1, 'queued', $2::bigint, $2::bigint, $3::int) ON CONFLICT DO NOTHING",
                  &p, PGRES_COMMAND_OK, &rows, err, err_size))
            r = SA_FAULT;
        else if (rows != 1) /* another node queued it meanwhile */
            r = store_pg_analysis_get(base, game_id, out, NULL, err, err_size) == SA_OK ? SA_TAKEN : SA_FAULT;
    }
    for (int i = 0; i < 2 && r == SA_OK; i++) {
        if (!requesters[i])
            continue;
        StorePgParams p = {.n = 0};
        store_pg_param_text(&p, requesters[i]);
        store_pg_param_int(&p, now_ms);
        store_pg_param_text(&p, game_id);
        if (!exec(a,
                  "INSERT INTO analysis_requests (requester, at_ms, game_id) VALUES ($1, $2::bigint, $3)"
                  " ON CONFLICT DO NOTHING",
                  &p, PGRES_COMMAND_OK, NULL, err, err_size))
            r = SA_FAULT;
    }
    char ignored[200];
    if (r == SA_OK && !exec(a, "COMMIT", &none, PGRES_COMMAND_OK, NULL, err, err_size))
        r = SA_FAULT;
    else if (r != SA_OK && a->conn)
        exec(a, "ROLLBACK", &none, PGRES_COMMAND_OK, NULL, ignored, sizeof ignored);
    if (r == SA_OK) {
        memset(out, 0, sizeof *out);
        snprintf(out->game_id, sizeof out->game_id, "%s", game_id);
        snprintf(out->status, sizeof out->status, "%s", "queued");
        out->requested_ms = out->updated_ms = now_ms;
        out->total = total;
    }
    return r;
}

/* One UPDATE of game_id's row ($1) with $2 node, $3 now, $4 a number, $5 a text: SA_OK when it changed
 * the row, else miss. */
static StoreAccountResult update(PgAccounts *a, const char *sql, const char *game_id, const char *node, int64_t now_ms,
                                 int64_t number, const char *text, StoreAccountResult miss, char *err,
                                 size_t err_size) {
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, game_id);
    store_pg_param_text(&p, node);
    store_pg_param_int(&p, now_ms);
    store_pg_param_int(&p, number);
    store_pg_param_text(&p, text ? text : "");
    long rows = 0;
    if (!exec(a, sql, &p, PGRES_COMMAND_OK, &rows, err, err_size))
        return SA_FAULT;
    return rows == 1 ? SA_OK : miss;
}

StoreAccountResult store_pg_analysis_claim(StoreAccounts *base, const char *game_id, const char *node, int64_t now_ms,
                                           int64_t until_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StoreAccountResult r =
        update(a,
               "UPDATE analyses SET status = 'running', node = $2, lease_until_ms = $4::bigint,"
               " updated_ms = $3::bigint WHERE game_id = $1 AND (status = 'queued' OR (status = 'running' AND"
               " (lease_until_ms < $3::bigint OR node = $2))) AND $5 = ''",
               game_id, node, now_ms, until_ms, NULL, SA_TAKEN, err, err_size);
    if (r == SA_TAKEN) {
        AnalysisRow row;
        StoreAccountResult g = store_pg_analysis_get(base, game_id, &row, NULL, err, err_size);
        if (g != SA_OK)
            r = g;
    }
    return r;
}

/* Tells the other nodes' watchers of the game (store.h store_notice_is_analysis). */
static void announce(PgAccounts *a, const char *game_id, const char *status, int done, int total, int64_t now_ms) {
    char note[STORE_NOTE_LEN + 1], payload[STORE_PG_PAYLOAD_MAX], err[200];
    snprintf(note, sizeof note, "a %s %d %d", status, done, total);
    store_pg_format_payload(payload, game_id, 1, 0, now_ms, a->store->node, note);
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, payload);
    exec(a, "SELECT pg_notify('" STORE_PG_CHANNEL "', $1)", &p, PGRES_TUPLES_OK, NULL, err, sizeof err);
}

StoreAccountResult store_pg_analysis_progress(StoreAccounts *base, const char *game_id, const char *node, int done,
                                              int64_t now_ms, int64_t until_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char until[24];
    snprintf(until, sizeof until, "%lld", (long long)until_ms);
    StoreAccountResult r =
        update(a,
               "UPDATE analyses SET done = $4::int, lease_until_ms = $5::bigint, updated_ms = $3::bigint"
               " WHERE game_id = $1 AND node = $2 AND status = 'running'",
               game_id, node, now_ms, done, until, SA_NOT_FOUND, err, err_size);
    AnalysisRow row;
    if (r == SA_OK && store_pg_analysis_get(base, game_id, &row, NULL, err, err_size) == SA_OK)
        announce(a, game_id, "running", row.done, row.total, now_ms);
    return r;
}

StoreAccountResult store_pg_analysis_finish(StoreAccounts *base, const char *game_id, const char *node,
                                            const char *result, int64_t now_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StoreAccountResult r =
        update(a,
               "UPDATE analyses SET status = 'done', done = total, result = $5, updated_ms = $3::bigint,"
               " lease_until_ms = 0 WHERE game_id = $1 AND node = $2 AND status = 'running' AND $4::int = 0",
               game_id, node, now_ms, 0, result, SA_NOT_FOUND, err, err_size);
    AnalysisRow row;
    if (r == SA_OK && store_pg_analysis_get(base, game_id, &row, NULL, err, err_size) == SA_OK)
        announce(a, game_id, "done", row.total, row.total, now_ms);
    return r;
}
