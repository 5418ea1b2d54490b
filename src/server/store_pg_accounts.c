/* Accounts and sessions in the PostgreSQL store (store_accounts.h): a connection of their own with the
 * writer's settings (synchronous_commit on, statement and lock timeouts), opened again after a loss;
 * each call one statement or one transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_accounts.h"
#include "store_pg_internal.h"

typedef struct PgAccounts {
    StoreAccounts base;
    PgStore *store;
    PGconn *conn;
} PgAccounts;

/* The connection, opened (again) when there is none or it broke. */
static PGconn *conn_of(PgAccounts *a, char *err, size_t err_size) {
    if (a->conn && PQstatus(a->conn) == CONNECTION_OK)
        return a->conn;
    PQfinish(a->conn);
    a->conn = store_pg_connect(a->store, PG_CONN_WRITER, err, err_size);
    return a->conn;
}

/* Runs one statement with text parameters, but for the session hash (binary, where hash_param is its
 * 1-based number, 0 for none). The result, or NULL with err filled (and the connection dropped when
 * it broke). */
static PGresult *run(PgAccounts *a, const char *sql, int n, const char *const *values, const unsigned char *hash,
                     int hash_param, ExecStatusType want, char *err, size_t err_size) {
    PGconn *conn = conn_of(a, err, err_size);
    if (!conn)
        return NULL;
    int lengths[8] = {0}, formats[8] = {0};
    const char *params[8];
    for (int i = 0; i < n && i < 8; i++)
        params[i] = values[i];
    if (hash_param > 0) {
        params[hash_param - 1] = (const char *)hash;
        lengths[hash_param - 1] = STORE_HASH_LEN;
        formats[hash_param - 1] = 1;
    }
    PGresult *res = PQexecParams(conn, sql, n, NULL, params, lengths, formats, 0);
    if (PQresultStatus(res) != want) {
        store_pg_set_err(err, err_size, "%s", PQresultErrorMessage(res));
        size_t len = strlen(err);
        while (len && (err[len - 1] == '\n' || err[len - 1] == ' '))
            err[--len] = '\0';
        PQclear(res);
        if (PQstatus(conn) != CONNECTION_OK) {
            PQfinish(conn);
            a->conn = NULL;
        }
        return NULL;
    }
    return res;
}

static void read_row(const PGresult *res, AccountRow *out) {
    snprintf(out->key, sizeof out->key, "%s", PQgetvalue(res, 0, 0));
    snprintf(out->name, sizeof out->name, "%s", PQgetvalue(res, 0, 1));
    snprintf(out->password_hash, sizeof out->password_hash, "%s", PQgetvalue(res, 0, 2));
    out->created_ms = strtoll(PQgetvalue(res, 0, 3), NULL, 10);
}

static long affected(PGresult *res) {
    long n = strtol(PQcmdTuples(res), NULL, 10);
    PQclear(res);
    return n;
}

static StoreAccountResult pa_create(StoreAccounts *base, const AccountRow *row, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char created[24];
    snprintf(created, sizeof created, "%lld", (long long)row->created_ms);
    const char *v[] = {row->key, row->name, row->password_hash, created};
    PGresult *res = run(a,
                        "INSERT INTO accounts (key, name, password_hash, created_ms) VALUES ($1, $2, $3, $4)"
                        " ON CONFLICT DO NOTHING",
                        4, v, NULL, 0, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_TAKEN;
}

static StoreAccountResult pa_get(StoreAccounts *base, const char *key, AccountRow *out, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    const char *v[] = {key};
    PGresult *res = run(a, "SELECT key, name, password_hash, created_ms FROM accounts WHERE key = $1", 1, v, NULL, 0,
                        PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found)
        read_row(res, out);
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_set_password(StoreAccounts *base, const char *key, const char *password_hash,
                                          const unsigned char keep[STORE_HASH_LEN], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    /* One statement, so one transaction: the new hash and the end of the other sessions together. */
    const char *v[] = {key, password_hash, NULL};
    PGresult *res = run(a,
                        "WITH u AS (UPDATE accounts SET password_hash = $2 WHERE key = $1 RETURNING key),"
                        " d AS (DELETE FROM sessions WHERE account_key IN (SELECT key FROM u)"
                        "       AND ($3::bytea IS NULL OR token_hash <> $3::bytea))"
                        " SELECT count(*) FROM u",
                        3, v, keep, keep ? 3 : 0, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "1") == 0;
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_session_create(StoreAccounts *base, const char *key,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                            int64_t expires_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char now[24], expires[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    snprintf(expires, sizeof expires, "%lld", (long long)expires_ms);
    const char *v[] = {NULL, key, now, expires};
    PGresult *res = run(a,
                        "WITH d AS (DELETE FROM sessions WHERE account_key = $2 AND expires_ms <= $3::bigint)"
                        " INSERT INTO sessions (token_hash, account_key, created_ms, expires_ms)"
                        " SELECT $1, key, $3::bigint, $4::bigint FROM accounts WHERE key = $2",
                        4, v, hash, 1, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_session_get(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                         AccountRow *out, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    const char *v[] = {NULL, now};
    PGresult *res =
        run(a,
            "SELECT a.key, a.name, a.password_hash, a.created_ms FROM sessions s"
            " JOIN accounts a ON a.key = s.account_key WHERE s.token_hash = $1 AND s.expires_ms > $2::bigint",
            2, v, hash, 1, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found)
        read_row(res, out);
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_session_delete(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                                            size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    const char *v[] = {NULL};
    PGresult *res =
        run(a, "DELETE FROM sessions WHERE token_hash = $1", 1, v, hash, 1, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

static void pa_close(StoreAccounts *base) {
    PgAccounts *a = (PgAccounts *)base;
    PQfinish(a->conn);
    free(a);
}

static const StoreAccountsVtbl pg_accounts_vtbl = {
    .close = pa_close,
    .create = pa_create,
    .get = pa_get,
    .set_password = pa_set_password,
    .session_create = pa_session_create,
    .session_get = pa_session_get,
    .session_delete = pa_session_delete,
};

StoreAccounts *store_pg_accounts_open(Store *store, char *err, size_t err_size) {
    PgAccounts *a = calloc(1, sizeof *a);
    if (!a) {
        store_pg_set_err(err, err_size, "out of memory");
        return NULL;
    }
    a->base.vtbl = &pg_accounts_vtbl;
    a->store = (PgStore *)store;
    /* Connected on first use: a database that is away now may be back by then. */
    return &a->base;
}
