/* The engine's analyses of finished games in the SQLite store (store_accounts.h, schema 15), on the
 * accounts' connection: queued with the requests counted against their requesters, claimed by one
 * node under a lease, their progress and result written by that node. Also the one-game read the
 * analysis needs on this connection. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_accounts.h"
#include "store_sqlite_internal.h"

#define ANALYSIS_COLUMNS "game_id, status, requested_ms, updated_ms, node, lease_until_ms, done, total"

static void read_analysis(sqlite3_stmt *st, AnalysisRow *out) {
    memset(out, 0, sizeof *out);
    store_sqlite_copy_text(out->game_id, sizeof out->game_id, sqlite3_column_text(st, 0));
    store_sqlite_copy_text(out->status, sizeof out->status, sqlite3_column_text(st, 1));
    out->requested_ms = sqlite3_column_int64(st, 2);
    out->updated_ms = sqlite3_column_int64(st, 3);
    store_sqlite_copy_text(out->node, sizeof out->node, sqlite3_column_text(st, 4));
    out->lease_until_ms = sqlite3_column_int64(st, 5);
    out->done = sqlite3_column_int(st, 6);
    out->total = sqlite3_column_int(st, 7);
}

int store_sqlite_game_get(StoreAccounts *base, const char *id, StoreEachGame each, void *ctx, char *err,
                          size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    return store_sqlite_read_one_game(a->db, id, each, ctx, err, err_size);
}

/* Reads game_id's analysis (and its result when result is not NULL) with the open connection. */
static StoreAccountResult get_row(SqliteAccounts *a, const char *game_id, AnalysisRow *out, char **result, char *err,
                                  size_t err_size) {
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a, "SELECT " ANALYSIS_COLUMNS ", result FROM analyses WHERE game_id = ?1", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    StoreAccountResult r = rc == SQLITE_ROW ? SA_OK : rc == SQLITE_DONE ? SA_NOT_FOUND : SA_FAULT;
    if (r == SA_OK) {
        read_analysis(st, out);
        if (result) {
            const unsigned char *text = sqlite3_column_text(st, 8);
            *result = strdup(text ? (const char *)text : "");
            if (!*result) {
                store_set_err(err, err_size, "out of memory");
                r = SA_FAULT;
            }
        }
    } else if (r == SA_FAULT) {
        store_sqlite_accounts_fault(a, "read analysis", err, err_size);
    }
    sqlite3_finalize(st);
    return r;
}

StoreAccountResult store_sqlite_analysis_get(StoreAccounts *base, const char *game_id, AnalysisRow *out, char **result,
                                             char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    return get_row(a, game_id, out, result, err, err_size);
}

/* The requests of requester in the window before now_ms, or -1. */
static int requests_of(SqliteAccounts *a, const char *requester, int64_t now_ms, char *err, size_t err_size) {
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a, "SELECT count(*) FROM analysis_requests WHERE requester = ?1 AND at_ms > ?2", err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, requester, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms - STORE_ANALYSIS_WINDOW_MS);
    int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    if (n < 0)
        store_sqlite_accounts_fault(a, "count analysis requests", err, err_size);
    sqlite3_finalize(st);
    return n;
}

/* Runs sql with game_id (?1) and the others bound by the caller; the rows it changed, or -1. */
static int run_one(SqliteAccounts *a, sqlite3_stmt *st, const char *what, char *err, size_t err_size) {
    int rc = sqlite3_step(st);
    int n = rc == SQLITE_DONE ? sqlite3_changes(a->db) : -1;
    if (n < 0)
        store_sqlite_accounts_fault(a, what, err, err_size);
    sqlite3_finalize(st);
    return n;
}

StoreAccountResult store_sqlite_analysis_queue(StoreAccounts *base, const char *game_id, int total,
                                               const char *const requesters[2], const int per_day[2], int64_t now_ms,
                                               AnalysisRow *out, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    /* One write transaction: the check of the limits and the writes cannot interleave with another's. */
    if (!store_exec(a->db, "BEGIN IMMEDIATE", "queue analysis", err, err_size))
        return SA_FAULT;
    StoreAccountResult r = get_row(a, game_id, out, NULL, err, err_size);
    if (r == SA_OK)
        r = SA_TAKEN;
    else if (r == SA_NOT_FOUND)
        r = SA_OK;
    for (int i = 0; i < 2 && r == SA_OK; i++) {
        if (!requesters[i])
            continue;
        int n = requests_of(a, requesters[i], now_ms, err, err_size);
        r = n < 0 ? SA_FAULT : n >= per_day[i] ? SA_LIMITED : SA_OK;
    }
    sqlite3_stmt *st;
    if (r == SA_OK) {
        st = store_sqlite_accounts_prepare(a, "DELETE FROM analysis_requests WHERE at_ms <= ?1", err, err_size);
        if (st)
            sqlite3_bind_int64(st, 1, now_ms - STORE_ANALYSIS_WINDOW_MS);
        if (!st || run_one(a, st, "clear analysis requests", err, err_size) < 0)
            r = SA_FAULT;
    }
    if (r == SA_OK) {
        st = store_sqlite_accounts_prepare(a,
                                           "INSERT INTO analyses (game_id, status, requested_ms, updated_ms, total)"
                                           " VALUES (?1, 'queued', ?2, ?2, ?3)",
                                           err, err_size);
        if (st) {
            sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, now_ms);
            sqlite3_bind_int(st, 3, total);
        }
        if (!st || run_one(a, st, "queue analysis", err, err_size) != 1)
            r = SA_FAULT;
    }
    for (int i = 0; i < 2 && r == SA_OK; i++) {
        if (!requesters[i])
            continue;
        st = store_sqlite_accounts_prepare(
            a, "INSERT OR IGNORE INTO analysis_requests (requester, at_ms, game_id) VALUES (?1, ?2, ?3)", err,
            err_size);
        if (st) {
            sqlite3_bind_text(st, 1, requesters[i], -1, SQLITE_STATIC);
            sqlite3_bind_int64(st, 2, now_ms);
            sqlite3_bind_text(st, 3, game_id, -1, SQLITE_STATIC);
        }
        if (!st || run_one(a, st, "count analysis request", err, err_size) < 0)
            r = SA_FAULT;
    }
    if (r == SA_OK && !store_exec(a->db, "COMMIT", "queue analysis", err, err_size))
        r = SA_FAULT;
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    if (r == SA_OK) {
        memset(out, 0, sizeof *out);
        strncpy(out->game_id, game_id, sizeof out->game_id - 1);
        strcpy(out->status, "queued");
        out->requested_ms = out->updated_ms = now_ms;
        out->total = total;
    }
    return r;
}

/* One UPDATE of game_id's row (?1) with ?2 node, ?3 now, ?4 a number, ?5 a text: SA_OK when it changed
 * the row, else miss. */
static StoreAccountResult update(SqliteAccounts *a, const char *sql, const char *game_id, const char *node,
                                 int64_t now_ms, int64_t number, const char *text, StoreAccountResult miss,
                                 const char *what, char *err, size_t err_size) {
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(a, sql, err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, node, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, now_ms);
    sqlite3_bind_int64(st, 4, number);
    sqlite3_bind_text(st, 5, text ? text : "", -1, SQLITE_STATIC);
    int n = run_one(a, st, what, err, err_size);
    return n < 0 ? SA_FAULT : n == 1 ? SA_OK : miss;
}

StoreAccountResult store_sqlite_analysis_claim(StoreAccounts *base, const char *game_id, const char *node,
                                               int64_t now_ms, int64_t until_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    StoreAccountResult r =
        update(a,
               "UPDATE analyses SET status = 'running', node = ?2, lease_until_ms = ?4, updated_ms = ?3"
               " WHERE game_id = ?1 AND (status = 'queued' OR (status = 'running' AND"
               " (lease_until_ms < ?3 OR node = ?2)))",
               game_id, node, now_ms, until_ms, NULL, SA_TAKEN, "claim analysis", err, err_size);
    if (r == SA_TAKEN) {
        AnalysisRow row;
        StoreAccountResult g = get_row(a, game_id, &row, NULL, err, err_size);
        if (g != SA_OK)
            r = g;
    }
    return r;
}

StoreAccountResult store_sqlite_analysis_progress(StoreAccounts *base, const char *game_id, const char *node, int done,
                                                  int64_t now_ms, int64_t until_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    char until[24];
    snprintf(until, sizeof until, "%lld", (long long)until_ms);
    return update(a,
                  "UPDATE analyses SET done = ?4, lease_until_ms = CAST(?5 AS INTEGER), updated_ms = ?3"
                  " WHERE game_id = ?1 AND node = ?2 AND status = 'running'",
                  game_id, node, now_ms, done, until, SA_NOT_FOUND, "analysis progress", err, err_size);
}

StoreAccountResult store_sqlite_analysis_finish(StoreAccounts *base, const char *game_id, const char *node,
                                                const char *result, int64_t now_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    return update(a,
                  "UPDATE analyses SET status = 'done', done = total, result = ?5, updated_ms = ?3,"
                  " lease_until_ms = 0 WHERE game_id = ?1 AND node = ?2 AND status = 'running' AND ?4 = 0",
                  game_id, node, now_ms, 0, result, SA_NOT_FOUND, "finish analysis", err, err_size);
}
