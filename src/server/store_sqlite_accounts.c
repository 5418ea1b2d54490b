/* Accounts and sessions in the SQLite store (store_accounts.h): a connection of their own to the same
 * file, through the same VFS (it shares the process's lock), each call one short transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

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
        prepare(a,
                "DELETE FROM sessions WHERE account_key = ?1 AND (expires_ms <= ?2 OR token_hash NOT IN"
                " (SELECT token_hash FROM sessions WHERE account_key = ?1 ORDER BY created_ms DESC LIMIT ?3))",
                err, err_size),
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
    sqlite3_bind_int(sts[0], 3, STORE_SESSIONS_MAX - 1);
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

/* ---- the lobby ---- */

#define SEEK_COLUMNS                                                                                                   \
    "id, created_ms, expires_ms, account_key, name, rating, rated, color, time_type, minutes, increment, days,"        \
    " secret_hash, game_id, poster_color"

static void read_seek(sqlite3_stmt *st, SeekRow *out) {
    memset(out, 0, sizeof *out);
    copy_text(out->id, sizeof out->id, sqlite3_column_text(st, 0));
    out->created_ms = sqlite3_column_int64(st, 1);
    out->expires_ms = sqlite3_column_int64(st, 2);
    copy_text(out->account, sizeof out->account, sqlite3_column_text(st, 3));
    copy_text(out->name, sizeof out->name, sqlite3_column_text(st, 4));
    out->rating = sqlite3_column_int(st, 5);
    out->rated = sqlite3_column_int(st, 6);
    copy_text(out->color, sizeof out->color, sqlite3_column_text(st, 7));
    copy_text(out->time_type, sizeof out->time_type, sqlite3_column_text(st, 8));
    out->minutes = sqlite3_column_int(st, 9);
    out->increment = sqlite3_column_int(st, 10);
    out->days = sqlite3_column_int(st, 11);
    if (sqlite3_column_bytes(st, 12) == STORE_HASH_LEN)
        memcpy(out->secret_hash, sqlite3_column_blob(st, 12), STORE_HASH_LEN);
    copy_text(out->game_id, sizeof out->game_id, sqlite3_column_text(st, 13));
    out->poster_color = sqlite3_column_int(st, 14);
}

static StoreAccountResult sa_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *old = prepare(a,
                                "DELETE FROM seeks WHERE (game_id = '' AND expires_ms <= ?1) OR"
                                " (game_id <> '' AND created_ms < ?1 - ?2)",
                                err, err_size);
    if (!old)
        return SA_FAULT;
    sqlite3_bind_int64(old, 1, k->created_ms);
    sqlite3_bind_int64(old, 2, STORE_SEEK_KEEP_MS);
    if (run_all(a, &old, 1, NULL, "clear seeks", err, err_size) != SA_OK)
        return SA_FAULT;
    sqlite3_stmt *st = prepare(a,
                               "INSERT INTO seeks (" SEEK_COLUMNS ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                               " ?11, ?12, ?13, '', -1) ON CONFLICT DO NOTHING",
                               err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, k->id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, k->created_ms);
    sqlite3_bind_int64(st, 3, k->expires_ms);
    sqlite3_bind_text(st, 4, k->account, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 5, k->name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 6, k->rating);
    sqlite3_bind_int(st, 7, k->rated);
    sqlite3_bind_text(st, 8, k->color, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 9, k->time_type, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 10, k->minutes);
    sqlite3_bind_int(st, 11, k->increment);
    sqlite3_bind_int(st, 12, k->days);
    sqlite3_bind_blob(st, 13, k->secret_hash, STORE_HASH_LEN, SQLITE_STATIC);
    int changes = 0;
    StoreAccountResult r = run_all(a, &st, 1, &changes, "create seek", err, err_size);
    return r == SA_OK && changes == 0 ? SA_TAKEN : r;
}

static int sa_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = prepare(a,
                               "SELECT " SEEK_COLUMNS " FROM seeks WHERE game_id = '' AND expires_ms > ?1"
                               " ORDER BY created_ms, id LIMIT ?2",
                               err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, now_ms);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max)
        read_seek(st, &out[n++]);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fault(a, "list seeks", err, err_size);
        return -1;
    }
    return n;
}

static StoreAccountResult sa_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                      size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = prepare(
        a, "SELECT " SEEK_COLUMNS " FROM seeks WHERE id = ?1 AND (game_id <> '' OR expires_ms > ?2)", err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_seek(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : fault(a, "read seek", err, err_size);
}

static StoreAccountResult sa_seek_cancel(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                         int64_t now_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    /* Expired ones go with it: the table holds open seeks and the accepted ones' games only. */
    sqlite3_stmt *sts[2] = {
        prepare(a, "DELETE FROM seeks WHERE id = ?1 AND secret_hash = ?2 AND game_id = '' AND expires_ms > ?3", err,
                err_size),
        prepare(a, "DELETE FROM seeks WHERE game_id = '' AND expires_ms <= ?1", err, err_size),
    };
    if (!sts[0] || !sts[1]) {
        sqlite3_finalize(sts[0]);
        sqlite3_finalize(sts[1]);
        return SA_FAULT;
    }
    sqlite3_bind_text(sts[0], 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(sts[0], 2, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_int64(sts[0], 3, now_ms);
    sqlite3_bind_int64(sts[1], 1, now_ms);
    int changes[2] = {0, 0};
    StoreAccountResult r = run_all(a, sts, 2, changes, "cancel seek", err, err_size);
    return r == SA_OK && changes[0] == 0 ? SA_NOT_FOUND : r;
}

static StoreAccountResult sa_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                         const GameRecord *game, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[2] = {
        prepare(a,
                "UPDATE seeks SET game_id = ?2, poster_color = ?3 WHERE id = ?1 AND game_id = '' AND expires_ms > ?4",
                err, err_size),
        prepare(a, store_sqlite_insert_game_sql, err, err_size),
    };
    if (!sts[0] || !sts[1]) {
        sqlite3_finalize(sts[0]);
        sqlite3_finalize(sts[1]);
        return SA_FAULT;
    }
    sqlite3_bind_text(sts[0], 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(sts[0], 2, game->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(sts[0], 3, poster_color);
    sqlite3_bind_int64(sts[0], 4, now_ms);
    store_sqlite_bind_record(sts[1], game);
    /* Both or neither: the game only when the seek was still open. */
    StoreAccountResult r = SA_OK;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        r = fault(a, "accept seek", err, err_size);
    if (r == SA_OK && sqlite3_step(sts[0]) != SQLITE_DONE)
        r = fault(a, "accept seek", err, err_size);
    if (r == SA_OK && sqlite3_changes(a->db) != 1)
        r = SA_NOT_FOUND;
    if (r == SA_OK && sqlite3_step(sts[1]) != SQLITE_DONE)
        r = fault(a, "create the seek's game", err, err_size);
    if (r == SA_OK && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        r = fault(a, "accept seek", err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    sqlite3_finalize(sts[0]);
    sqlite3_finalize(sts[1]);
    return r;
}

/* ---- ratings ---- */

/* One account's rating in a category into *r (a newcomer's when there is none); false on a failure. */
static bool read_rating(SqliteAccounts *a, const char *key, const char *category, RatingRow *r) {
    r->g = glicko2_new();
    r->games = 0;
    r->updated_ms = 0;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(a->db,
                           "SELECT rating, rd, volatility, games, updated_ms FROM ratings WHERE account_key = ?1"
                           " AND category = ?2",
                           -1, &st, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        return false;
    }
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        r->g.rating = sqlite3_column_double(st, 0);
        r->g.rd = sqlite3_column_double(st, 1);
        r->g.volatility = sqlite3_column_double(st, 2);
        r->games = sqlite3_column_int(st, 3);
        r->updated_ms = sqlite3_column_int64(st, 4);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

static bool write_rating(SqliteAccounts *a, const char *key, const char *category, const RatingRow *r,
                         const char *game_id) {
    sqlite3_stmt *st = NULL, *h = NULL;
    bool ok =
        sqlite3_prepare_v2(a->db,
                           "INSERT INTO ratings (account_key, category, rating, rd, volatility, games, updated_ms)"
                           " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (account_key, category) DO UPDATE"
                           " SET rating = ?3, rd = ?4, volatility = ?5, games = ?6, updated_ms = ?7",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(a->db,
                           "INSERT OR IGNORE INTO rating_history (account_key, category, at_ms, game_id, rating)"
                           " VALUES (?1, ?2, ?3, ?4, ?5)",
                           -1, &h, NULL) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, r->g.rating);
        sqlite3_bind_double(st, 4, r->g.rd);
        sqlite3_bind_double(st, 5, r->g.volatility);
        sqlite3_bind_int(st, 6, r->games);
        sqlite3_bind_int64(st, 7, r->updated_ms);
        sqlite3_bind_text(h, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_text(h, 2, category, -1, SQLITE_STATIC);
        sqlite3_bind_int64(h, 3, r->updated_ms);
        sqlite3_bind_text(h, 4, game_id, -1, SQLITE_STATIC);
        sqlite3_bind_int(h, 5, (int)(r->g.rating + 0.5));
        ok = sqlite3_step(st) == SQLITE_DONE && sqlite3_step(h) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(h);
    return ok;
}

static StoreAccountResult sa_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                       const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                       void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev, char *err,
                                       size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    *game_rev = 0;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return fault(a, "rate game", err, err_size);
    StoreAccountResult r = SA_OK;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(a->db,
                           "INSERT INTO game_ratings (game_id, category, at_ms) VALUES (?1, ?2, ?3)"
                           " ON CONFLICT DO NOTHING",
                           -1, &st, NULL) != SQLITE_OK)
        r = SA_FAULT;
    if (r == SA_OK) {
        sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, now_ms);
        r = sqlite3_step(st) != SQLITE_DONE ? SA_FAULT : sqlite3_changes(a->db) == 0 ? SA_TAKEN : SA_OK;
    }
    sqlite3_finalize(st);
    if (r == SA_OK &&
        (!read_rating(a, white_key, category, &before[0]) || !read_rating(a, black_key, category, &before[1])))
        r = SA_FAULT;
    if (r == SA_OK) {
        after[0] = before[0];
        after[1] = before[1];
        if (!fn(ctx, &after[0], &after[1]))
            r = SA_NOT_FOUND;
    }
    if (r == SA_OK && (!write_rating(a, white_key, category, &after[0], game_id) ||
                       !write_rating(a, black_key, category, &after[1], game_id)))
        r = SA_FAULT;
    if (r == SA_OK) {
        st = NULL;
        if (sqlite3_prepare_v2(a->db,
                               "UPDATE game_ratings SET white_before = ?2, white_after = ?3, black_before = ?4,"
                               " black_after = ?5 WHERE game_id = ?1",
                               -1, &st, NULL) != SQLITE_OK) {
            r = SA_FAULT;
        } else {
            sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
            sqlite3_bind_int(st, 2, (int)(before[0].g.rating + 0.5));
            sqlite3_bind_int(st, 3, (int)(after[0].g.rating + 0.5));
            sqlite3_bind_int(st, 4, (int)(before[1].g.rating + 0.5));
            sqlite3_bind_int(st, 5, (int)(after[1].g.rating + 0.5));
            if (sqlite3_step(st) != SQLITE_DONE)
                r = SA_FAULT;
        }
        sqlite3_finalize(st);
    }
    if (r == SA_OK) {
        st = NULL;
        if (sqlite3_prepare_v2(a->db,
                               "UPDATE games SET rating_white = ?2, rating_black = ?3, rating_diff_white = ?4,"
                               " rating_diff_black = ?5, rev = rev + 1 WHERE id = ?1 RETURNING rev",
                               -1, &st, NULL) != SQLITE_OK) {
            r = SA_FAULT;
        } else {
            int bw = (int)(before[0].g.rating + 0.5), bb = (int)(before[1].g.rating + 0.5);
            sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
            sqlite3_bind_int(st, 2, bw);
            sqlite3_bind_int(st, 3, bb);
            sqlite3_bind_int(st, 4, (int)(after[0].g.rating + 0.5) - bw);
            sqlite3_bind_int(st, 5, (int)(after[1].g.rating + 0.5) - bb);
            int rc = sqlite3_step(st);
            if (rc == SQLITE_ROW) {
                *game_rev = sqlite3_column_int64(st, 0);
                rc = sqlite3_step(st);
            }
            if (rc != SQLITE_DONE)
                r = SA_FAULT;
        }
        sqlite3_finalize(st);
    }
    if (r == SA_FAULT)
        store_set_err(err, err_size, "rate game: %s", sqlite3_errmsg(a->db));
    if (r == SA_OK && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        r = fault(a, "rate game", err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
}

static StoreAccountResult sa_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                        bool have[RATING_COUNT], char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    for (int c = 0; c < RATING_COUNT; c++)
        have[c] = false;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st =
        prepare(a, "SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE account_key = ?1",
                err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int c = rating_category_of((const char *)sqlite3_column_text(st, 0));
        if (c < 0)
            continue;
        have[c] = true;
        out[c].g.rating = sqlite3_column_double(st, 1);
        out[c].g.rd = sqlite3_column_double(st, 2);
        out[c].g.volatility = sqlite3_column_double(st, 3);
        out[c].games = sqlite3_column_int(st, 4);
        out[c].updated_ms = sqlite3_column_int64(st, 5);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SA_OK : fault(a, "read ratings", err, err_size);
}

static int sa_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = prepare(
        a,
        "SELECT id, account_white, account_black, result, time_type, minutes, increment, updated_ms FROM games g"
        " WHERE result <> '' AND updated_ms > ?1 AND rated = 1 AND result <> '*'"
        " AND NOT EXISTS (SELECT 1 FROM game_ratings r WHERE r.game_id = g.id) ORDER BY updated_ms LIMIT ?2",
        err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_int64(st, 1, since_ms);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        UnratedGame *u = &out[n++];
        memset(u, 0, sizeof *u);
        copy_text(u->id, sizeof u->id, sqlite3_column_text(st, 0));
        copy_text(u->account[0], sizeof u->account[0], sqlite3_column_text(st, 1));
        copy_text(u->account[1], sizeof u->account[1], sqlite3_column_text(st, 2));
        copy_text(u->result, sizeof u->result, sqlite3_column_text(st, 3));
        copy_text(u->time_type, sizeof u->time_type, sqlite3_column_text(st, 4));
        u->minutes = sqlite3_column_int(st, 5);
        u->increment = sqlite3_column_int(st, 6);
        u->updated_ms = sqlite3_column_int64(st, 7);
    }
    sqlite3_finalize(st);
    return n;
}

static StoreAccountResult sa_site_key(StoreAccounts *base, unsigned char key[32], char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    unsigned char fresh[32];
    randombytes_buf(fresh, sizeof fresh);
    sqlite3_stmt *sts[1] = {prepare(
        a, "INSERT INTO store_meta (key, value) VALUES ('site_key', ?1) ON CONFLICT DO NOTHING", err, err_size)};
    if (!sts[0])
        return SA_FAULT;
    sqlite3_bind_blob(sts[0], 1, fresh, sizeof fresh, SQLITE_TRANSIENT);
    sodium_memzero(fresh, sizeof fresh);
    if (run_all(a, sts, 1, NULL, "site key", err, err_size) != SA_OK)
        return SA_FAULT;
    sqlite3_stmt *st = prepare(a, "SELECT value FROM store_meta WHERE key = 'site_key'", err, err_size);
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

static int sa_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st =
        prepare(a,
                "SELECT id, CASE WHEN account_white = ?1 THEN 0 ELSE 1 END, start_fen, time_type, updated_ms,"
                " (SELECT count(*) FROM moves m WHERE m.game_id = g.id) FROM games g"
                " WHERE result = '' AND (account_white = ?1 OR account_black = ?1) ORDER BY updated_ms DESC LIMIT ?2",
                err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        PlayingGame *p = &out[n++];
        memset(p, 0, sizeof *p);
        copy_text(p->id, sizeof p->id, sqlite3_column_text(st, 0));
        p->color = sqlite3_column_int(st, 1);
        copy_text(p->start_fen, sizeof p->start_fen, sqlite3_column_text(st, 2));
        copy_text(p->time_type, sizeof p->time_type, sqlite3_column_text(st, 3));
        p->updated_ms = sqlite3_column_int64(st, 4);
        p->moves = sqlite3_column_int(st, 5);
    }
    sqlite3_finalize(st);
    return n;
}

static int sa_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                             char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = prepare(a,
                               "SELECT at_ms, rating FROM (SELECT at_ms, rating, game_id FROM rating_history"
                               " WHERE account_key = ?1 AND category = ?2 ORDER BY at_ms DESC, game_id DESC LIMIT ?3)"
                               " ORDER BY at_ms, game_id",
                               err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, category, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        out[n].at_ms = sqlite3_column_int64(st, 0);
        out[n++].rating = sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    return n;
}

static int sa_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out, int max,
                     char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return -1;
    char sql[1200];
    store_played_sql(filter, "?1", " ORDER BY created_ms DESC, id LIMIT ?3 OFFSET ?2", sql, sizeof sql);
    sqlite3_stmt *st = prepare(a, sql, err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, offset);
    sqlite3_bind_int(st, 3, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        PlayedGame *g = &out[n++];
        memset(g, 0, sizeof *g);
        copy_text(g->id, sizeof g->id, sqlite3_column_text(st, 0));
        g->created_ms = sqlite3_column_int64(st, 1);
        g->ended_ms = sqlite3_column_int64(st, 2);
        copy_text(g->account[0], sizeof g->account[0], sqlite3_column_text(st, 3));
        copy_text(g->account[1], sizeof g->account[1], sqlite3_column_text(st, 4));
        copy_text(g->result, sizeof g->result, sqlite3_column_text(st, 5));
        copy_text(g->termination, sizeof g->termination, sqlite3_column_text(st, 6));
        copy_text(g->reason, sizeof g->reason, sqlite3_column_text(st, 7));
        copy_text(g->time_type, sizeof g->time_type, sqlite3_column_text(st, 8));
        g->minutes = sqlite3_column_int(st, 9);
        g->increment = sqlite3_column_int(st, 10);
        g->days = sqlite3_column_int(st, 11);
        g->rated = sqlite3_column_int(st, 12);
        g->rating[0] = sqlite3_column_int(st, 13);
        g->rating[1] = sqlite3_column_int(st, 14);
        g->rating_diff[0] = sqlite3_column_int(st, 15);
        g->rating_diff[1] = sqlite3_column_int(st, 16);
        g->moves = sqlite3_column_int(st, 17);
    }
    sqlite3_finalize(st);
    return n;
}

static StoreAccountResult sa_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                         char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = prepare(a,
                               "SELECT white_before, white_after, black_before, black_after FROM game_ratings"
                               " WHERE game_id = ?1",
                               err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, game_id, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        before[0] = sqlite3_column_int(st, 0);
        after[0] = sqlite3_column_int(st, 1);
        before[1] = sqlite3_column_int(st, 2);
        after[1] = sqlite3_column_int(st, 3);
    }
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : fault(a, "read game rating", err, err_size);
}

static int sa_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                           size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    return usable(a, err, err_size) ? store_sqlite_read_player_games(a->db, name, max, each, ctx, err, err_size) : -1;
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
    .seek_create = sa_seek_create,
    .seek_list = sa_seek_list,
    .seek_get = sa_seek_get,
    .seek_cancel = sa_seek_cancel,
    .seek_accept = sa_seek_accept,
    .rate_game = sa_rate_game,
    .ratings_of = sa_ratings_of,
    .game_rating = sa_game_rating,
    .unrated = sa_unrated,
    .site_key = sa_site_key,
    .playing = sa_playing,
    .rating_history = sa_rating_history,
    .played = sa_played,
    .player_games = sa_player_games,
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
