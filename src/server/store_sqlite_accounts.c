/* Accounts and sessions in the SQLite store (store_accounts.h): a connection of their own to the same
 * file, through the same VFS (it shares the process's lock), each call one short transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store_accounts.h"
#include "store_sqlite_internal.h"

typedef struct SqliteAccounts {
    StoreAccounts base;
    SqliteStore *store;
    sqlite3 *db;
} SqliteAccounts;

static void copy_text(char *out, size_t size, const unsigned char *text) {
    snprintf(out, size, "%s", text ? (const char *)text : "");
}

/* A damaged database refuses writes and reads of what it holds (store_sqlite_open). */
static bool usable(SqliteAccounts *a, char *err, size_t err_size) {
    pthread_mutex_lock(&a->store->mutex);
    bool damaged = a->store->check_state == STORE_CHECK_DAMAGED;
    pthread_mutex_unlock(&a->store->mutex);
    if (damaged)
        store_set_err(err, err_size, "the database is damaged");
    return !damaged;
}

static StoreAccountResult fault(SqliteAccounts *a, const char *what, char *err, size_t err_size) {
    store_set_err(err, err_size, "%s: %s", what, sqlite3_errmsg(a->db));
    return SA_FAULT;
}

/* Prepares sql; NULL (and err filled) when it cannot. */
static sqlite3_stmt *prepare(SqliteAccounts *a, const char *sql, char *err, size_t err_size) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(a->db, sql, -1, &st, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "prepare: %s", sqlite3_errmsg(a->db));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

static void read_row(sqlite3_stmt *st, AccountRow *out) {
    copy_text(out->key, sizeof out->key, sqlite3_column_text(st, 0));
    copy_text(out->name, sizeof out->name, sqlite3_column_text(st, 1));
    copy_text(out->password_hash, sizeof out->password_hash, sqlite3_column_text(st, 2));
    out->created_ms = sqlite3_column_int64(st, 3);
}

static StoreAccountResult sa_create(StoreAccounts *base, const AccountRow *row, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = prepare(
        a, "INSERT INTO accounts (key, name, password_hash, created_ms) VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
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
        return fault(a, "create account", err, err_size);
    return sqlite3_changes(a->db) == 1 ? SA_OK : SA_TAKEN;
}

static StoreAccountResult sa_get(StoreAccounts *base, const char *key, AccountRow *out, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st =
        prepare(a, "SELECT key, name, password_hash, created_ms FROM accounts WHERE key = ?1", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_row(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : fault(a, "read account", err, err_size);
}

/* Runs the statements of one transaction (each with the binds its caller made); rolls back on error. */
static StoreAccountResult run_all(SqliteAccounts *a, sqlite3_stmt **sts, int n, int *changes, const char *what,
                                  char *err, size_t err_size) {
    StoreAccountResult r = SA_OK;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        r = fault(a, what, err, err_size);
    for (int i = 0; i < n && r == SA_OK; i++) {
        if (sqlite3_step(sts[i]) != SQLITE_DONE)
            r = fault(a, what, err, err_size);
        else if (changes)
            changes[i] = sqlite3_changes(a->db);
    }
    if (r == SA_OK && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        r = fault(a, what, err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < n; i++)
        sqlite3_finalize(sts[i]);
    return r;
}

static StoreAccountResult sa_set_password(StoreAccounts *base, const char *key, const char *password_hash,
                                          const unsigned char keep[STORE_HASH_LEN], char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[2] = {
        prepare(a, "UPDATE accounts SET password_hash = ?2 WHERE key = ?1", err, err_size),
        prepare(a, "DELETE FROM sessions WHERE account_key = ?1 AND (?2 IS NULL OR token_hash <> ?2)", err, err_size),
    };
    if (!sts[0] || !sts[1]) {
        sqlite3_finalize(sts[0]);
        sqlite3_finalize(sts[1]);
        return SA_FAULT;
    }
    sqlite3_bind_text(sts[0], 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(sts[0], 2, password_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(sts[1], 1, key, -1, SQLITE_STATIC);
    if (keep)
        sqlite3_bind_blob(sts[1], 2, keep, STORE_HASH_LEN, SQLITE_STATIC);
    else
        sqlite3_bind_null(sts[1], 2);
    int changes[2] = {0, 0};
    StoreAccountResult r = run_all(a, sts, 2, changes, "set password", err, err_size);
    return r == SA_OK && changes[0] == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_session_create(StoreAccounts *base, const char *key,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                            int64_t expires_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[2] = {
        prepare(a, "DELETE FROM sessions WHERE account_key = ?1 AND expires_ms <= ?2", err, err_size),
        prepare(a,
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
    sqlite3_bind_blob(sts[1], 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(sts[1], 2, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(sts[1], 3, now_ms);
    sqlite3_bind_int64(sts[1], 4, expires_ms);
    int changes[2] = {0, 0};
    StoreAccountResult r = run_all(a, sts, 2, changes, "create session", err, err_size);
    return r == SA_OK && changes[1] == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_session_get(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], int64_t now_ms,
                                         AccountRow *out, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st =
        prepare(a,
                "SELECT a.key, a.name, a.password_hash, a.created_ms FROM sessions s"
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
    return rc == SQLITE_DONE ? SA_NOT_FOUND : fault(a, "read session", err, err_size);
}

static StoreAccountResult sa_session_delete(StoreAccounts *base, const unsigned char hash[STORE_HASH_LEN], char *err,
                                            size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = prepare(a, "DELETE FROM sessions WHERE token_hash = ?1", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_blob(st, 1, hash, STORE_HASH_LEN, SQLITE_STATIC);
    int changes = 0;
    StoreAccountResult r = run_all(a, &st, 1, &changes, "delete session", err, err_size);
    return r == SA_OK && changes == 0 ? SA_NOT_FOUND : r;
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
    .set_password = sa_set_password,
    .session_create = sa_session_create,
    .session_get = sa_session_get,
    .session_delete = sa_session_delete,
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
