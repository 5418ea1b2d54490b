/* Accounts and sessions in the PostgreSQL store (store_accounts.h): a connection of their own with the
 * writer's settings (synchronous_commit on, statement and lock timeouts), opened again after a loss;
 * each call one statement or one transaction. Here are the connection, the helpers its other parts
 * share (store_pg_internal.h), accounts, sessions and the site key; the lobby is in store_pg_lobby.c,
 * ratings and the player pages in store_pg_ratings.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../store_accounts.h"
#include "store_pg_internal.h"

PGconn *store_pg_accounts_conn(PgAccounts *a, char *err, size_t err_size) {
    if (a->conn && PQstatus(a->conn) == CONNECTION_OK)
        return a->conn;
    PQfinish(a->conn);
    a->conn = store_pg_connect(a->store, PG_CONN_WRITER, err, err_size);
    return a->conn;
}

PGresult *store_pg_accounts_run(PgAccounts *a, const char *sql, const StorePgParams *p, ExecStatusType want, char *err,
                                size_t err_size) {
    PGconn *conn = store_pg_accounts_conn(a, err, err_size);
    if (!conn)
        return NULL;
    PGresult *res = PQexecParams(conn, sql, p->n, NULL, p->values, p->lengths, p->formats, 0);
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

int store_pg_accounts_count(PgAccounts *a, const char *sql, const StorePgParams *p, char *err, size_t err_size) {
    PGresult *res = store_pg_accounts_run(a, sql, p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) == 1 ? atoi(PQgetvalue(res, 0, 0)) : -1;
    PQclear(res);
    return n;
}

/* store_pg_accounts_run with text parameters, but for the session hash (binary, where hash_param is its
 * 1-based number, 0 for none). */
static PGresult *run(PgAccounts *a, const char *sql, int n, const char *const *values, const unsigned char *hash,
                     int hash_param, ExecStatusType want, char *err, size_t err_size) {
    StorePgParams p = {.n = n};
    for (int i = 0; i < n && i < STORE_PG_MAX_PARAMS; i++) {
        p.values[i] = values[i];
        p.lengths[i] = p.formats[i] = 0;
    }
    if (hash_param > 0) {
        p.values[hash_param - 1] = (const char *)hash;
        p.lengths[hash_param - 1] = STORE_HASH_LEN;
        p.formats[hash_param - 1] = 1;
    }
    return store_pg_accounts_run(a, sql, &p, want, err, err_size);
}

static void read_row(const PGresult *res, AccountRow *out) {
    snprintf(out->key, sizeof out->key, "%s", PQgetvalue(res, 0, 0));
    snprintf(out->name, sizeof out->name, "%s", PQgetvalue(res, 0, 1));
    snprintf(out->password_hash, sizeof out->password_hash, "%s", PQgetvalue(res, 0, 2));
    out->created_ms = strtoll(PQgetvalue(res, 0, 3), NULL, 10);
    out->seat_epoch = strtoll(PQgetvalue(res, 0, 4), NULL, 10);
}

long store_pg_affected(PGresult *res) {
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
                        "INSERT INTO accounts (key, name, password_hash, created_ms, skeleton)"
                        " VALUES ($1, $2, $3, $4, " STORE_NAME_SKELETON("$2") ") ON CONFLICT DO NOTHING",
                        4, v, NULL, 0, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    if (store_pg_affected(res) == 1)
        return SA_OK;
    /* Refused by one of the two unique keys: the name's own, or its skeleton's. */
    AccountRow same;
    StoreAccountResult r = base->vtbl->get(base, row->key, &same, err, err_size);
    return r == SA_OK ? SA_TAKEN : r == SA_NOT_FOUND ? SA_CONFUSABLE : r;
}

static StoreAccountResult pa_get(StoreAccounts *base, const char *key, AccountRow *out, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    const char *v[] = {key};
    PGresult *res = run(a, "SELECT key, name, password_hash, created_ms, seat_epoch FROM accounts WHERE key = $1", 1, v,
                        NULL, 0, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found)
        read_row(res, out);
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_revoke_access(StoreAccounts *base, const char *key, const char *password_hash,
                                           const unsigned char keep[STORE_HASH_LEN], int *ended, char *err,
                                           size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    /* One statement, so one transaction: the new hash, the end of the other sessions and the account's
     * sides on the new seat epoch together. The games are found through the two partial indexes of the
     * sides' accounts; one UPDATE sets both sides, so a game the account played on both is right too. */
    const char *v[] = {key, password_hash, NULL};
    PGresult *res = run(
        a,
        "WITH u AS (UPDATE accounts SET password_hash = coalesce($2::text, password_hash),"
        "  seat_epoch = seat_epoch + 1 WHERE key = $1 RETURNING key, name, seat_epoch),"
        " d AS (DELETE FROM sessions WHERE account_key IN (SELECT key FROM u)"
        "       AND ($3::bytea IS NULL OR token_hash <> $3::bytea) RETURNING 1),"
        " g AS (UPDATE games SET rev = games.rev + 1,"
        "  seat_epoch_white = CASE WHEN games.account_white = u.name THEN u.seat_epoch ELSE games.seat_epoch_white END,"
        "  seat_epoch_black = CASE WHEN games.account_black = u.name THEN u.seat_epoch ELSE games.seat_epoch_black END"
        "  FROM u WHERE (games.account_white = u.name AND games.account_white <> '')"
        "  OR (games.account_black = u.name AND games.account_black <> ''))"
        " SELECT (SELECT count(*) FROM u), (SELECT count(*) FROM d)",
        3, v, keep, keep ? 3 : 0, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1 && strcmp(PQgetvalue(res, 0, 0), "1") == 0;
    if (found && ended)
        *ended = atoi(PQgetvalue(res, 0, 1));
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

/* The session limit is written into the statement below. */
_Static_assert(STORE_SESSIONS_MAX == 50, "pa_session_create keeps 49 sessions and the new one");

static StoreAccountResult pa_session_create(StoreAccounts *base, const char *key,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                            int64_t expires_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char now[24], expires[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    snprintf(expires, sizeof expires, "%lld", (long long)expires_ms);
    const char *v[] = {NULL, key, now, expires};
    PGresult *res = run(a,
                        "WITH d AS (DELETE FROM sessions WHERE account_key = $2 AND (expires_ms <= $3::bigint OR"
                        "  token_hash NOT IN (SELECT token_hash FROM sessions WHERE account_key = $2"
                        "  ORDER BY created_ms DESC LIMIT 49)))"
                        " INSERT INTO sessions (token_hash, account_key, created_ms, expires_ms)"
                        " SELECT $1, key, $3::bigint, $4::bigint FROM accounts WHERE key = $2",
                        4, v, hash, 1, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return store_pg_affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_session_get(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                         AccountRow *out, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char now[24];
    snprintf(now, sizeof now, "%lld", (long long)now_ms);
    const char *v[] = {NULL, now};
    PGresult *res =
        run(a,
            "SELECT a.key, a.name, a.password_hash, a.created_ms, a.seat_epoch FROM sessions s"
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
    return store_pg_affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_site_key(StoreAccounts *base, unsigned char key[32], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    unsigned char fresh[32];
    char hex[65];
    randombytes_buf(fresh, sizeof fresh);
    sodium_bin2hex(hex, sizeof hex, fresh, sizeof fresh);
    sodium_memzero(fresh, sizeof fresh);
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, hex);
    /* Whoever comes first writes it; everyone reads the one that is there. */
    PGresult *res =
        store_pg_accounts_run(a,
                              "WITH i AS (INSERT INTO store_meta (key, value) VALUES ('site_key', $1)"
                              "  ON CONFLICT DO NOTHING RETURNING value)"
                              " SELECT value FROM i UNION ALL SELECT value FROM store_meta WHERE key = 'site_key'",
                              &p, PGRES_TUPLES_OK, err, err_size);
    sodium_memzero(hex, sizeof hex);
    if (!res)
        return SA_FAULT;
    size_t len = 0;
    bool ok = PQntuples(res) >= 1 &&
              sodium_hex2bin(key, 32, PQgetvalue(res, 0, 0), (size_t)PQgetlength(res, 0, 0), NULL, &len, NULL) == 0 &&
              len == 32;
    PQclear(res);
    if (!ok)
        store_pg_set_err(err, err_size, "the site key is missing or damaged");
    return ok ? SA_OK : SA_FAULT;
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
    .revoke_access = pa_revoke_access,
    .session_create = pa_session_create,
    .session_get = pa_session_get,
    .session_delete = pa_session_delete,
    .seek_create = store_pg_seek_create,
    .seek_list = store_pg_seek_list,
    .seek_count = store_pg_seek_count,
    .seek_match = store_pg_seek_match,
    .seek_beat = store_pg_seek_beat,
    .seek_get = store_pg_seek_get,
    .seek_cancel = store_pg_seek_cancel,
    .seek_hold = store_pg_seek_hold,
    .seek_accept = store_pg_seek_accept,
    .rate_game = store_pg_rate_game,
    .ratings_of = store_pg_ratings_of,
    .game_rating = store_pg_game_rating,
    .unrated = store_pg_unrated,
    .site_key = pa_site_key,
    .playing = store_pg_playing,
    .rating_history = store_pg_rating_history,
    .played = store_pg_played,
    .player_games = store_pg_player_games,
    .game_get = store_pg_game_get,
    .analysis_get = store_pg_analysis_get,
    .analysis_queue = store_pg_analysis_queue,
    .analysis_claim = store_pg_analysis_claim,
    .analysis_progress = store_pg_analysis_progress,
    .analysis_finish = store_pg_analysis_finish,
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
