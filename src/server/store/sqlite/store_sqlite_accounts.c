/* Accounts and sessions in the SQLite store (store_accounts.h): a connection of their own to the same
 * file, through the same VFS (it shares the process's lock), each call one short transaction. Here are
 * the connection, the helpers its other parts share (store_sqlite_internal.h), accounts, sessions and
 * the site key; the lobby is in store_sqlite_lobby.c, ratings and the player pages in
 * store_sqlite_ratings.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "../store_accounts.h"
#include "store_sqlite_internal.h"

void store_sqlite_copy_text(char *out, size_t size, const unsigned char *text) {
    snprintf(out, size, "%s", text ? (const char *)text : "");
}

bool store_sqlite_accounts_usable(SqliteAccounts *a, char *err, size_t err_size) {
    pthread_mutex_lock(&a->store->mutex);
    bool damaged = a->store->check_state == STORE_CHECK_DAMAGED;
    pthread_mutex_unlock(&a->store->mutex);
    if (damaged)
        store_set_err(err, err_size, "the database is damaged");
    return !damaged;
}

StoreAccountResult store_sqlite_accounts_fault(SqliteAccounts *a, const char *what, char *err, size_t err_size) {
    store_set_err(err, err_size, "%s: %s", what, sqlite3_errmsg(a->db));
    return SA_FAULT;
}

sqlite3_stmt *store_sqlite_accounts_prepare(SqliteAccounts *a, const char *sql, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(a->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "prepare: %s", sqlite3_errmsg(a->db));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void read_row(sqlite3_stmt *st, AccountRow *out) {
    store_sqlite_copy_text(out->key, sizeof out->key, sqlite3_column_text(st, 0));
    store_sqlite_copy_text(out->name, sizeof out->name, sqlite3_column_text(st, 1));
    store_sqlite_copy_text(out->password_hash, sizeof out->password_hash, sqlite3_column_text(st, 2));
    out->created_ms = sqlite3_column_int64(st, 3);
    out->seat_epoch = sqlite3_column_int64(st, 4);
}

static StoreAccountResult sa_create(StoreAccounts *base, const AccountRow *row, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st =
        store_sqlite_accounts_prepare(a,
                                      "INSERT INTO accounts (key, name, password_hash, created_ms, skeleton)"
                                      " VALUES (?1, ?2, ?3, ?4, " STORE_NAME_SKELETON("?2") ") ON CONFLICT DO NOTHING",
                                      err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, row->key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, row->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, row->password_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, row->created_ms);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return store_sqlite_accounts_fault(a, "create account", err, err_size);
    if (sqlite3_changes(a->db) == 1)
        return SA_OK;
    /* Refused by one of the two unique keys: the name's own, or its skeleton's. */
    AccountRow same;
    StoreAccountResult r = base->vtbl->get(base, row->key, &same, err, err_size);
    return r == SA_OK ? SA_TAKEN : r == SA_NOT_FOUND ? SA_CONFUSABLE : r;
}

static StoreAccountResult sa_get(StoreAccounts *base, const char *key, AccountRow *out, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a, "SELECT key, name, password_hash, created_ms, seat_epoch FROM accounts WHERE key = ?1", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_row(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : store_sqlite_accounts_fault(a, "read account", err, err_size);
}

StoreAccountResult store_sqlite_accounts_run(SqliteAccounts *a, sqlite3_stmt **sts, int n, int *changes,
                                             const char *what, char *err, size_t err_size) {
    StoreAccountResult r = SA_OK;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        r = store_sqlite_accounts_fault(a, what, err, err_size);
    for (int i = 0; i < n && r == SA_OK; i++) {
        if (sqlite3_step(sts[i]) != SQLITE_DONE)
            r = store_sqlite_accounts_fault(a, what, err, err_size);
        else if (changes)
            changes[i] = sqlite3_changes(a->db);
    }
    if (r == SA_OK && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        r = store_sqlite_accounts_fault(a, what, err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < n; i++)
        sqlite3_finalize(sts[i]);
    return r;
}

/* The sides of the account's games (each read from its side's partial index) move to the account's new
 * seat epoch, and their rows to a new rev. */
#define REVOKE_SIDE(side)                                                                                              \
    "UPDATE games SET seat_epoch_" side " = (SELECT seat_epoch FROM accounts WHERE key = ?1), rev = rev + 1"           \
    " WHERE account_" side " = (SELECT name FROM accounts WHERE key = ?1) AND account_" side " <> ''"

static StoreAccountResult sa_revoke_access(StoreAccounts *base, const char *key, const char *password_hash,
                                           const unsigned char keep[STORE_HASH_LEN], int *ended, char *err,
                                           size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    enum { N = 4 };
    sqlite3_stmt *sts[N] = {
        store_sqlite_accounts_prepare(a,
                                      "UPDATE accounts SET password_hash = coalesce(?2, password_hash),"
                                      " seat_epoch = seat_epoch + 1 WHERE key = ?1",
                                      err, err_size),
        store_sqlite_accounts_prepare(
            a, "DELETE FROM sessions WHERE account_key = ?1 AND (?2 IS NULL OR token_hash <> ?2)", err, err_size),
        store_sqlite_accounts_prepare(a, REVOKE_SIDE("white"), err, err_size),
        store_sqlite_accounts_prepare(a, REVOKE_SIDE("black"), err, err_size),
    };
    for (int i = 0; i < N; i++)
        if (!sts[i]) {
            for (int k = 0; k < N; k++)
                sqlite3_finalize(sts[k]);
            return SA_FAULT;
        }
    for (int i = 0; i < N; i++)
        sqlite3_bind_text(sts[i], 1, key, -1, SQLITE_STATIC);
    if (password_hash)
        sqlite3_bind_text(sts[0], 2, password_hash, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(sts[0], 2);
    if (keep)
        sqlite3_bind_blob(sts[1], 2, keep, STORE_HASH_LEN, SQLITE_STATIC);
    else
        sqlite3_bind_null(sts[1], 2);
    int changes[N] = {0};
    StoreAccountResult r = store_sqlite_accounts_run(a, sts, N, changes, "revoke access", err, err_size);
    if (r == SA_OK && ended)
        *ended = changes[1];
    return r == SA_OK && changes[0] == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_session_create(StoreAccounts *base, const char *key,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                            int64_t expires_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[2] = {
        store_sqlite_accounts_prepare(
            a,
            "DELETE FROM sessions WHERE account_key = ?1 AND (expires_ms <= ?2 OR token_hash NOT IN"
            " (SELECT token_hash FROM sessions WHERE account_key = ?1 ORDER BY created_ms DESC LIMIT ?3))",
            err, err_size),
        store_sqlite_accounts_prepare(a,
                                      "INSERT INTO sessions (token_hash, account_key, created_ms, expires_ms)"
                                      " SELECT ?1, key, ?3, ?4 FROM accounts WHERE key = ?2",
                                      err, err_size),
    };
    if (!sts[0] || !sts[1]) {
        sqlite3_finalize(sts[0]);
        sqlite3_finalize(sts[1]);
        return SA_FAULT;
    }
    sqlite3_bind_text(sts[0], 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(sts[0], 2, now_ms);
    sqlite3_bind_int(sts[0], 3, STORE_SESSIONS_MAX - 1);
    sqlite3_bind_blob(sts[1], 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(sts[1], 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(sts[1], 3, now_ms);
    sqlite3_bind_int64(sts[1], 4, expires_ms);
    int changes[2] = {0, 0};
    StoreAccountResult r = store_sqlite_accounts_run(a, sts, 2, changes, "create session", err, err_size);
    return r == SA_OK && changes[1] == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_session_get(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                         AccountRow *out, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a,
        "SELECT a.key, a.name, a.password_hash, a.created_ms, a.seat_epoch FROM sessions s"
        " JOIN accounts a ON a.key = s.account_key WHERE s.token_hash = ?1 AND s.expires_ms > ?2",
        err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_row(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : store_sqlite_accounts_fault(a, "read session", err, err_size);
}

static StoreAccountResult sa_session_delete(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                                            size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(a, "DELETE FROM sessions WHERE token_hash = ?1", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    int changes = 0;
    StoreAccountResult r = store_sqlite_accounts_run(a, &st, 1, &changes, "delete session", err, err_size);
    return r == SA_OK && changes == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_site_key(StoreAccounts *base, unsigned char key[32], char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    unsigned char fresh[32];
    randombytes_buf(fresh, sizeof fresh);
    sqlite3_stmt *sts[1] = {store_sqlite_accounts_prepare(
        a, "INSERT INTO store_meta (key, value) VALUES ('site_key', ?1) ON CONFLICT DO NOTHING", err, err_size)};
    if (!sts[0])
        return SA_FAULT;
    sqlite3_bind_blob(sts[0], 1, fresh, sizeof fresh, SQLITE_TRANSIENT);
    sodium_memzero(fresh, sizeof fresh);
    if (store_sqlite_accounts_run(a, sts, 1, NULL, "site key", err, err_size) != SA_OK)
        return SA_FAULT;
    sqlite3_stmt *st =
        store_sqlite_accounts_prepare(a, "SELECT value FROM store_meta WHERE key = 'site_key'", err, err_size);
    if (!st)
        return SA_FAULT;
    int rc = sqlite3_step(st);
    bool ok = rc == SQLITE_ROW && sqlite3_column_bytes(st, 0) == 32;
    if (ok)
        memcpy(key, sqlite3_column_blob(st, 0), 32);
    sqlite3_finalize(st);
    if (!ok)
        store_set_err(err, err_size, "the site key is missing or damaged");
    return ok ? SA_OK : SA_FAULT;
}

static void sa_close(StoreAccounts *base) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    sqlite3_close(a->db);
    free(a);
}

static const StoreAccountsVtbl sqlite_accounts_vtbl = {
    .close = sa_close,
    .create = sa_create,
    .get = sa_get,
    .revoke_access = sa_revoke_access,
    .session_create = sa_session_create,
    .session_get = sa_session_get,
    .session_delete = sa_session_delete,
    .seek_create = store_sqlite_seek_create,
    .seek_list = store_sqlite_seek_list,
    .seek_count = store_sqlite_seek_count,
    .seek_match = store_sqlite_seek_match,
    .seek_beat = store_sqlite_seek_beat,
    .seek_get = store_sqlite_seek_get,
    .seek_cancel = store_sqlite_seek_cancel,
    .seek_hold = store_sqlite_seek_hold,
    .seek_accept = store_sqlite_seek_accept,
    .rate_game = store_sqlite_rate_game,
    .ratings_of = store_sqlite_ratings_of,
    .game_rating = store_sqlite_game_rating,
    .unrated = store_sqlite_unrated,
    .site_key = sa_site_key,
    .playing = store_sqlite_playing,
    .rating_history = store_sqlite_rating_history,
    .played = store_sqlite_played,
    .player_games = store_sqlite_player_games,
    .game_get = store_sqlite_game_get,
    .analysis_get = store_sqlite_analysis_get,
    .analysis_queue = store_sqlite_analysis_queue,
    .analysis_claim = store_sqlite_analysis_claim,
    .analysis_progress = store_sqlite_analysis_progress,
    .analysis_finish = store_sqlite_analysis_finish,
};

StoreAccounts *store_sqlite_accounts_open(Store *store, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    SqliteAccounts *a = calloc(1, sizeof *a);
    if (!a) {
        store_set_err(err, err_size, "out of memory");
        return NULL;
    }
    a->base.vtbl = &sqlite_accounts_vtbl;
    a->store = s;
    a->db = store_open_connection(s->path, SQLITE_OPEN_READWRITE, err, err_size);
    if (!a->db) {
        free(a);
        return NULL;
    }
    return &a->base;
}
