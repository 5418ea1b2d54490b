/* Ratings and the player pages' queries in the SQLite store (store_accounts.h), on the accounts'
 * connection (store_sqlite_accounts.c): rating a finished game once, an account's ratings and their
 * history, the games a player page lists. Apart from accounts and sessions because these read and write
 * the games and the rating tables, not the accounts. */
#include <string.h>

#include "../store_accounts.h"
#include "store_sqlite_internal.h"

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

/* How many games the two accounts were both rated in (in any category) that ended after since_ms: the
 * points of their rating histories of one game, the first account's read by the primary key's prefix,
 * each matched by the second's full key. -1 on a failure. */
static int pair_rated(SqliteAccounts *a, const char *key0, const char *key1, int64_t since_ms) {
    sqlite3_stmt *st = NULL;
    int n = -1;
    if (sqlite3_prepare_v2(a->db,
                           "SELECT count(*) FROM rating_history w JOIN rating_history b ON b.account_key = ?2"
                           " AND b.category = w.category AND b.at_ms = w.at_ms AND b.game_id = w.game_id"
                           " WHERE w.account_key = ?1 AND w.at_ms > ?3",
                           -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_text(st, 1, key0, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, key1, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, since_ms);
        if (sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
    return n;
}

StoreAccountResult store_sqlite_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                          const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                          void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev,
                                          char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    *game_rev = 0;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    if (sqlite3_exec(a->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return store_sqlite_accounts_fault(a, "rate game", err, err_size);
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
    /* Beyond the pair's games that count today: recorded, not rated. */
    bool counts = true;
    if (r == SA_OK) {
        int n = pair_rated(a, white_key, black_key, now_ms - STORE_RATED_PAIR_WINDOW_MS);
        if (n < 0)
            r = SA_FAULT;
        counts = n < STORE_RATED_PAIR_MAX;
    }
    if (r == SA_OK) {
        after[0] = before[0];
        after[1] = before[1];
        if (counts && !fn(ctx, &after[0], &after[1]))
            r = SA_NOT_FOUND;
    }
    if (r == SA_OK && counts &&
        (!write_rating(a, white_key, category, &after[0], game_id) ||
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
        r = store_sqlite_accounts_fault(a, "rate game", err, err_size);
    if (r != SA_OK && !sqlite3_get_autocommit(a->db))
        sqlite3_exec(a->db, "ROLLBACK", NULL, NULL, NULL);
    return r;
}

StoreAccountResult store_sqlite_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                           bool have[RATING_COUNT], char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    for (int c = 0; c < RATING_COUNT; c++)
        have[c] = false;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a, "SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE account_key = ?1", err,
        err_size);
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
    return rc == SQLITE_DONE ? SA_OK : store_sqlite_accounts_fault(a, "read ratings", err, err_size);
}

StoreAccountResult store_sqlite_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                            char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return SA_FAULT;
    sqlite3_stmt *st =
        store_sqlite_accounts_prepare(a,
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
    return rc == SQLITE_DONE ? SA_NOT_FOUND : store_sqlite_accounts_fault(a, "read game rating", err, err_size);
}

int store_sqlite_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a,
        "SELECT id, account_white, account_black, result, time_type, minutes, increment, updated_ms, days,"
        " CASE WHEN start_fen <> '' THEN 1 ELSE 0 END FROM games g"
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
        store_sqlite_copy_text(u->id, sizeof u->id, sqlite3_column_text(st, 0));
        store_sqlite_copy_text(u->account[0], sizeof u->account[0], sqlite3_column_text(st, 1));
        store_sqlite_copy_text(u->account[1], sizeof u->account[1], sqlite3_column_text(st, 2));
        store_sqlite_copy_text(u->result, sizeof u->result, sqlite3_column_text(st, 3));
        u->time.type = store_time_type_read((const char *)sqlite3_column_text(st, 4));
        u->time.minutes = sqlite3_column_int(st, 5);
        u->time.increment = sqlite3_column_int(st, 6);
        u->updated_ms = sqlite3_column_int64(st, 7);
        u->time.days = sqlite3_column_int(st, 8);
        u->variant = sqlite3_column_int(st, 9) ? VARIANT_CHESS960 : VARIANT_STANDARD;
    }
    sqlite3_finalize(st);
    return n;
}

int store_sqlite_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                                char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    sqlite3_stmt *st = store_sqlite_accounts_prepare(
        a,
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

/* ---- the player pages ---- */

int store_sqlite_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    char sql[2400];
    store_playing_sql("?1", " ORDER BY updated_ms DESC LIMIT ?2", sql, sizeof sql);
    sqlite3_stmt *st = store_sqlite_accounts_prepare(a, sql, err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        PlayingGame *p = &out[n++];
        memset(p, 0, sizeof *p);
        store_sqlite_copy_text(p->id, sizeof p->id, sqlite3_column_text(st, 0));
        p->color = sqlite3_column_int(st, 1);
        store_sqlite_copy_text(p->start_fen, sizeof p->start_fen, sqlite3_column_text(st, 2));
        p->time.type = store_time_type_read((const char *)sqlite3_column_text(st, 3));
        p->updated_ms = sqlite3_column_int64(st, 4);
        p->moves = sqlite3_column_int(st, 5);
        p->time.minutes = sqlite3_column_int(st, 6);
        p->time.increment = sqlite3_column_int(st, 7);
        p->time.days = sqlite3_column_int(st, 8);
        p->seat_epoch = sqlite3_column_int64(st, 9);
        store_sqlite_copy_text(p->opponent, sizeof p->opponent, sqlite3_column_text(st, 10));
        p->rated = sqlite3_column_int(st, 11);
        p->opponent_rating = sqlite3_column_int(st, 12);
        store_sqlite_copy_text(p->level, sizeof p->level, sqlite3_column_text(st, 13));
        p->opponent_provisional = sqlite3_column_int(st, 14);
    }
    sqlite3_finalize(st);
    return n;
}

int store_sqlite_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out,
                        int max, char *err, size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    if (!store_sqlite_accounts_usable(a, err, err_size))
        return -1;
    char sql[1200];
    store_played_sql(filter, "?1", " ORDER BY created_ms DESC, id LIMIT ?3 OFFSET ?2", sql, sizeof sql);
    sqlite3_stmt *st = store_sqlite_accounts_prepare(a, sql, err, err_size);
    if (!st)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, offset);
    sqlite3_bind_int(st, 3, max);
    int n = 0, rc;
    while (n < max && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        PlayedGame *g = &out[n++];
        memset(g, 0, sizeof *g);
        store_sqlite_copy_text(g->id, sizeof g->id, sqlite3_column_text(st, 0));
        g->created_ms = sqlite3_column_int64(st, 1);
        g->ended_ms = sqlite3_column_int64(st, 2);
        store_sqlite_copy_text(g->account[0], sizeof g->account[0], sqlite3_column_text(st, 3));
        store_sqlite_copy_text(g->account[1], sizeof g->account[1], sqlite3_column_text(st, 4));
        store_sqlite_copy_text(g->result, sizeof g->result, sqlite3_column_text(st, 5));
        store_sqlite_copy_text(g->termination, sizeof g->termination, sqlite3_column_text(st, 6));
        store_sqlite_copy_text(g->reason, sizeof g->reason, sqlite3_column_text(st, 7));
        g->time.type = store_time_type_read((const char *)sqlite3_column_text(st, 8));
        g->time.minutes = sqlite3_column_int(st, 9);
        g->time.increment = sqlite3_column_int(st, 10);
        g->time.days = sqlite3_column_int(st, 11);
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

int store_sqlite_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                              size_t err_size) {
    SqliteAccounts *a = (SqliteAccounts *)base;
    return store_sqlite_accounts_usable(a, err, err_size)
               ? store_sqlite_read_player_games(a->db, name, max, each, ctx, err, err_size)
               : -1;
}
