/* The lobby's seeks in the SQLite store (store_accounts.h), on the accounts' connection
 * (store_sqlite_accounts.c). Apart from accounts and sessions because a seek is a game in the making,
 * not a login: a table of its own with its own expiry, and accepting one inserts the game's row. */
#include <string.h>

#include "../store_accounts.h"
#include "store_sqlite_internal.h"

#define SEEK_COLUMNS                                                                                                   \
    "id, created_ms, expires_ms, account_key, name, rating, rated, color, time_type, minutes, increment, days,"        \
    " secret_hash, game_id, poster_color, poster_address, provisional, variant"

static void read_seek(sqlite3_stmt *st, SeekRow *out) {
    memset(out, 0, sizeof *out);
    store_sqlite_copy_text(out->id, sizeof out->id, sqlite3_column_text(st, 0));
    out->created_ms = sqlite3_column_int64(st, 1);
    out->expires_ms = sqlite3_column_int64(st, 2);
    store_sqlite_copy_text(out->account, sizeof out->account, sqlite3_column_text(st, 3));
    store_sqlite_copy_text(out->name, sizeof out->name, sqlite3_column_text(st, 4));
    out->rating = sqlite3_column_int(st, 5);
    out->rated = sqlite3_column_int(st, 6);
    store_sqlite_copy_text(out->color, sizeof out->color, sqlite3_column_text(st, 7));
    out->time.type = store_time_type_read((const char *)sqlite3_column_text(st, 8));
    out->time.minutes = sqlite3_column_int(st, 9);
    out->time.increment = sqlite3_column_int(st, 10);
    out->time.days = sqlite3_column_int(st, 11);
    if (sqlite3_column_bytes(st, 12) == STORE_HASH_LEN)
        memcpy(out->secret_hash, sqlite3_column_blob(st, 12), STORE_HASH_LEN);
    store_sqlite_copy_text(out->game_id, sizeof out->game_id, sqlite3_column_text(st, 13));
    out->poster_color = sqlite3_column_int(st, 14);
    store_sqlite_copy_text(out->address, sizeof out->address, sqlite3_column_text(st, 15));
    out->provisional = sqlite3_column_int(st, 16);
    variant_of((const char *)sqlite3_column_text(st, 17), &out->variant); /* standard when unknown */
}

StoreAccountResult store_sqlite_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *old = store_sqlite_accounts_prepare(a,
                                                      "DELETE FROM seeks WHERE (game_id = '' AND expires_ms <= ?1) OR"
                                                      " (game_id <> '' AND created_ms < ?1 - ?2)",
                                                      err, err_size);
    if (!old)
        return SA_FAULT;
    sqlite3_bind_int64(old, 1, k->created_ms);
    sqlite3_bind_int64(old, 2, STORE_SEEK_KEEP_MS);
    if (store_sqlite_accounts_run(a, &old, 1, NULL, "clear seeks", err, err_size) != SA_OK)
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(a,
                                                     "INSERT INTO seeks (" SEEK_COLUMNS
                                                     ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10,"
                                                     " ?11, ?12, ?13, '', -1, ?14, ?15, ?16) ON CONFLICT DO NOTHING",
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
    sqlite3_bind_text(st, 9, store_time_type_text(k->time.type), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 10, k->time.minutes);
    sqlite3_bind_int(st, 11, k->time.increment);
    sqlite3_bind_int(st, 12, k->time.days);
    sqlite3_bind_blob(st, 13, k->secret_hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_text(st, 14, k->account[0] ? "" : k->address, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 15, k->provisional);
    sqlite3_bind_text(st, 16, variant_name(k->variant), -1, SQLITE_STATIC);
    int changes = 0;
    StoreAccountResult r = store_sqlite_accounts_run(a, &st, 1, &changes, "create seek", err, err_size);
    return r == SA_OK && changes == 0 ? SA_TAKEN : r;
}

int store_sqlite_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st =
        store_sqlite_accounts_prepare(a,
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
        store_sqlite_accounts_fault(a, "list seeks", err, err_size);
        return -1;
    }
    return n;
}

int store_sqlite_seek_count(StoreAccounts *base, const char *account, const char *address, int64_t now_ms, char *err,
                            size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a,
        account[0] ? "SELECT count(*) FROM seeks WHERE account_key = ?1 AND game_id = '' AND expires_ms > ?2"
                   : "SELECT count(*) FROM seeks WHERE poster_address = ?1 AND account_key = '' AND game_id = ''"
                     " AND expires_ms > ?2",
        err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, account[0] ? account : address, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, now_ms);
    int rc = sqlite3_step(st), n = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        store_sqlite_accounts_fault(a, "count seeks", err, err_size);
    return n;
}

StoreAccountResult store_sqlite_seek_match(StoreAccounts *base, const SeekRow *want, const SeekWindow *w,
                                           const char *account, const char *address, int64_t now_ms, SeekRow *out,
                                           char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    /* The window of a waiting seek (SeekWindow): any rating once it waited ?13 steps of ?12 ms, else
     * ?10 + ?11 a step; the asker's own (?14) when larger. */
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a,
        "SELECT " SEEK_COLUMNS " FROM seeks WHERE game_id = '' AND time_type = ?1 AND minutes = ?2"
        " AND increment = ?3 AND days = ?4 AND rated = ?5 AND expires_ms > ?6 AND color = 'random' AND id <> ?15"
        " AND variant = ?16"
        " AND (?7 = '' OR account_key <> ?7) AND (?7 <> '' OR ?8 = '' OR account_key <> ''"
        " OR poster_address <> ?8)"
        " AND (rated = 0 OR ?14 < 0 OR abs(rating - ?9) <= ?14 OR ?6 - created_ms >= ?13 * ?12"
        " OR abs(rating - ?9) <= ?10 + ?11 * ((?6 - created_ms) / ?12)) ORDER BY created_ms, id LIMIT 1",
        err, err_size);
    if (!st)
        return SA_FAULT;
    sqlite3_bind_text(st, 1, store_time_type_text(want->time.type), -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, want->time.minutes);
    sqlite3_bind_int(st, 3, want->time.increment);
    sqlite3_bind_int(st, 4, want->time.days);
    sqlite3_bind_int(st, 5, want->rated);
    sqlite3_bind_int64(st, 6, now_ms);
    sqlite3_bind_text(st, 7, account, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 8, address, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 9, want->rating);
    sqlite3_bind_int(st, 10, w->start);
    sqlite3_bind_int(st, 11, w->growth);
    sqlite3_bind_int64(st, 12, w->step_ms > 0 ? w->step_ms : 1);
    sqlite3_bind_int(st, 13, w->steps);
    sqlite3_bind_int(st, 14, w->floor);
    sqlite3_bind_text(st, 15, want->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 16, variant_name(want->variant), -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        read_seek(st, out);
    sqlite3_finalize(st);
    if (rc == SQLITE_ROW)
        return SA_OK;
    return rc == SQLITE_DONE ? SA_NOT_FOUND : store_sqlite_accounts_fault(a, "match seek", err, err_size);
}

/* One server per SQLite file: its seeks live as long as it does. */
StoreAccountResult store_sqlite_seek_beat(StoreAccounts *base, int64_t now_ms, char *err, size_t err_size) {
    (void)base, (void)now_ms, (void)err, (void)err_size;
    return SA_OK;
}

StoreAccountResult store_sqlite_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                         size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
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
    return rc == SQLITE_DONE ? SA_NOT_FOUND : store_sqlite_accounts_fault(a, "read seek", err, err_size);
}

StoreAccountResult store_sqlite_seek_cancel(StoreAccounts *base, const char *id,
                                            const unsigned char hash[STORE_HASH_LEN], int64_t now_ms, char *err,
                                            size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    /* Expired ones go with it: the table holds open seeks and the accepted ones' games only. */
    sqlite3_stmt *sts[2] = {
        store_sqlite_accounts_prepare(
            a, "DELETE FROM seeks WHERE id = ?1 AND secret_hash = ?2 AND game_id = '' AND expires_ms > ?3", err,
            err_size),
        store_sqlite_accounts_prepare(a, "DELETE FROM seeks WHERE game_id = '' AND expires_ms <= ?1", err, err_size),
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
    StoreAccountResult r = store_sqlite_accounts_run(a, sts, 2, changes, "cancel seek", err, err_size);
    return r == SA_OK && changes[0] == 0 ? SA_NOT_FOUND : r;
}

StoreAccountResult store_sqlite_seek_hold(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                          int64_t now_ms, int64_t ttl_ms, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[1] = {
        store_sqlite_accounts_prepare(a,
                                      "UPDATE seeks SET expires_ms = MAX(expires_ms, created_ms + ?4)"
                                      " WHERE id = ?1 AND secret_hash = ?2 AND game_id = '' AND expires_ms > ?3",
                                      err, err_size)};
    if (!sts[0])
        return SA_FAULT;
    sqlite3_bind_text(sts[0], 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_blob(sts[0], 2, hash, STORE_HASH_LEN, SQLITE_STATIC);
    sqlite3_bind_int64(sts[0], 3, now_ms);
    sqlite3_bind_int64(sts[0], 4, ttl_ms);
    int changes[1] = {0};
    StoreAccountResult r = store_sqlite_accounts_run(a, sts, 1, changes, "hold seek", err, err_size);
    return r == SA_OK && changes[0] == 0 ? SA_NOT_FOUND : r;
}

StoreAccountResult store_sqlite_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                            const GameRecord *game, const char *withdraw,
                                            const unsigned char withdraw_hash[STORE_HASH_LEN], char *err,
                                            size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *sts[3] = {
        store_sqlite_accounts_prepare(
            a, "UPDATE seeks SET game_id = ?2, poster_color = ?3 WHERE id = ?1 AND game_id = '' AND expires_ms > ?4",
            err, err_size),
        store_sqlite_accounts_prepare(a, store_sqlite_insert_game_sql, err, err_size),
        store_sqlite_accounts_prepare(a,
                                      "DELETE FROM seeks WHERE id = ?1 AND secret_hash = ?2 AND game_id = ''"
                                      " AND expires_ms > ?3",
                                      err, err_size),
    };
    if (!sts[0] || !sts[1] || !sts[2]) {
        for (int i = 0; i < 3; i++)
            sqlite3_finalize(sts[i]);
        return SA_FAULT;
    }
    sqlite3_bind_text(sts[0], 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(sts[0], 2, game->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(sts[0], 3, poster_color);
    sqlite3_bind_int64(sts[0], 4, now_ms);
    store_sqlite_bind_record(sts[1], game);
    bool withdrawing = withdraw && withdraw[0];
    if (withdrawing) {
        sqlite3_bind_text(sts[2], 1, withdraw, -1, SQLITE_STATIC);
        sqlite3_bind_blob(sts[2], 2, withdraw_hash, STORE_HASH_LEN, SQLITE_STATIC);
        sqlite3_bind_int64(sts[2], 3, now_ms);
    }
    /* All or nothing: the game only when the seek was still open (and the accepter's own one too). */
    StoreAccountResult r = SA_OK;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        r = store_sqlite_accounts_fault(a, "accept seek", err, err_size);
    if (r == SA_OK && withdrawing && sqlite3_step(sts[2]) != SQLITE_DONE)
        r = store_sqlite_accounts_fault(a, "withdraw the accepter's seek", err, err_size);
    if (r == SA_OK && withdrawing && sqlite3_changes(a->db) != 1)
        r = SA_NOT_FOUND;
    if (r == SA_OK && sqlite3_step(sts[0]) != SQLITE_DONE)
        r = store_sqlite_accounts_fault(a, "accept seek", err, err_size);
    if (r == SA_OK && sqlite3_changes(a->db) != 1)
        r = SA_NOT_FOUND;
    if (r == SA_OK && sqlite3_step(sts[1]) != SQLITE_DONE)
        r = store_sqlite_accounts_fault(a, "create the seek's game", err, err_size);
    if (r == SA_OK && sqlite3_exec(a->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        r = store_sqlite_accounts_fault(a, "accept seek", err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    for (int i = 0; i < 3; i++)
        sqlite3_finalize(sts[i]);
    return r;
}
