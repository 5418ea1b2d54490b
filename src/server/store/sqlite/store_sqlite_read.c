/* The SQLite store's reads: load() at start-up (the games in play), get() one game by id and recent()
 * the newest finished games for the event loop. Each read runs in one read transaction, so a game and
 * its moves always match; in WAL mode a read never waits for the writer. */
#include "store_sqlite_internal.h"

#include <stdlib.h>
#include <string.h>

static const char SQL_SELECT_GAMES[] =
    "SELECT " STORE_GAME_SELECT " FROM games INDEXED BY games_in_play WHERE result = '' ORDER BY created_ms, id";
static const char SQL_SELECT_GAME[] = "SELECT " STORE_GAME_SELECT " FROM games WHERE id = ?1";
static const char SQL_SELECT_RECENT[] = "SELECT " STORE_GAME_SELECT " FROM games INDEXED BY games_finished_by_update"
                                        " WHERE result <> '' ORDER BY updated_ms DESC LIMIT ?1";
static const char SQL_SELECT_REV[] = "SELECT rev FROM games WHERE id = ?1";
static const char SQL_SELECT_SCAN[] = "SELECT " STORE_GAME_SELECT " FROM games WHERE id > ?1 ORDER BY id LIMIT ?2";
static const char SQL_SELECT_MOVES[] = "SELECT ply, uci, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply";

/* Copies a text column into a fixed field; false when it does not fit. */
static bool column_text(sqlite3_stmt *st, int col, char *out, size_t size) {
    const unsigned char *text = sqlite3_column_text(st, col);
    size_t len = (size_t)sqlite3_column_bytes(st, col);
    if (len >= size)
        return false;
    if (len)
        memcpy(out, text, len);
    out[len] = '\0';
    return true;
}

static bool column_hash(sqlite3_stmt *st, int col, unsigned char *out) {
    if (sqlite3_column_type(st, col) == SQLITE_NULL) {
        memset(out, 0, STORE_HASH_LEN);
        return true;
    }
    const void *blob = sqlite3_column_blob(st, col);
    if (sqlite3_column_bytes(st, col) != STORE_HASH_LEN)
        return false;
    memcpy(out, blob, STORE_HASH_LEN);
    return true;
}

/* Fills r from a row of SQL_SELECT_GAMES (columns are parameter numbers - 1). */
static bool read_record(sqlite3_stmt *st, GameRecord *r) {
    memset(r, 0, sizeof *r);
    r->created_ms = sqlite3_column_int64(st, GP_CREATED - 1);
    r->updated_ms = sqlite3_column_int64(st, GP_UPDATED - 1);
    r->time.minutes = sqlite3_column_int(st, GP_MINUTES - 1);
    r->time.increment = sqlite3_column_int(st, GP_INCREMENT - 1);
    r->time.days = sqlite3_column_int(st, GP_DAYS - 1);
    r->invite_color = sqlite3_column_int(st, GP_INVITE_COLOR - 1);
    store_offers_unpack(r, sqlite3_column_int64(st, GP_DRAW_OFFER - 1));
    r->clock_ms[0] = sqlite3_column_int64(st, GP_CLOCK_WHITE - 1);
    r->clock_ms[1] = sqlite3_column_int64(st, GP_CLOCK_BLACK - 1);
    r->turn_started_ms = sqlite3_column_int64(st, GP_TURN_STARTED - 1);
    r->plies = sqlite3_column_int(st, GP_PLIES - 1);
    r->rev = sqlite3_column_int64(st, GP_REV - 1);
    r->rated = sqlite3_column_int(st, GP_RATED - 1);
    r->rating[0] = sqlite3_column_int(st, GP_RATING_WHITE - 1);
    r->rating[1] = sqlite3_column_int(st, GP_RATING_BLACK - 1);
    r->rating_diff[0] = sqlite3_column_int(st, GP_RATING_DIFF_WHITE - 1);
    r->rating_diff[1] = sqlite3_column_int(st, GP_RATING_DIFF_BLACK - 1);
    r->rematch_offer = sqlite3_column_int(st, GP_REMATCH_OFFER - 1);
    r->rematch_decline = sqlite3_column_int(st, GP_REMATCH_DECLINE - 1);
    r->seat_epoch[0] = sqlite3_column_int64(st, GP_SEAT_EPOCH_WHITE - 1);
    r->seat_epoch[1] = sqlite3_column_int64(st, GP_SEAT_EPOCH_BLACK - 1);
    r->provisional[0] = sqlite3_column_int(st, GP_PROVISIONAL_WHITE - 1);
    r->provisional[1] = sqlite3_column_int(st, GP_PROVISIONAL_BLACK - 1);
    char time_type[16] = "";
    bool ok = column_text(st, GP_TIME_TYPE - 1, time_type, sizeof time_type);
    r->time.type = store_time_type_read(time_type);
    return ok && column_text(st, GP_ID - 1, r->id, sizeof r->id) &&
           column_text(st, GP_REMATCH_GAME - 1, r->rematch_game, sizeof r->rematch_game) &&
           column_text(st, GP_START_FEN - 1, r->start_fen, sizeof r->start_fen) &&
           column_text(st, GP_MODE - 1, r->mode, sizeof r->mode) &&
           column_text(st, GP_RESULT - 1, r->result, sizeof r->result) &&
           column_text(st, GP_TERMINATION - 1, r->termination, sizeof r->termination) &&
           column_hash(st, GP_SECRET_WHITE - 1, r->secret_hash[0]) &&
           column_hash(st, GP_SECRET_BLACK - 1, r->secret_hash[1]) &&
           column_hash(st, GP_INVITE_HASH - 1, r->invite_hash) &&
           column_text(st, GP_LEVEL - 1, r->level, sizeof r->level) &&
           column_text(st, GP_REASON - 1, r->reason, sizeof r->reason) &&
           column_text(st, GP_ACCOUNT_WHITE - 1, r->account[0], sizeof r->account[0]) &&
           column_text(st, GP_ACCOUNT_BLACK - 1, r->account[1], sizeof r->account[1]);
}

/* Reads the moves of the game of rec into *moves (grown as needed); -1 on a bad row, no memory, or a
 * count that does not fit the ply count its row was written at (damage SQLite did not notice). */
static int read_moves(sqlite3_stmt *st, const GameRecord *rec, StoredMove **moves, int *cap, char *err,
                      size_t err_size) {
    const char *id = rec->id;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int count = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (count == *cap) {
            int grown = *cap ? *cap * 2 : 256;
            StoredMove *more = realloc(*moves, (size_t)grown * sizeof **moves);
            if (!more) {
                store_set_err(err, err_size, "out of memory");
                count = -1;
                break;
            }
            *moves = more;
            *cap = grown;
        }
        StoredMove *m = &(*moves)[count];
        memset(m, 0, sizeof *m);
        if (sqlite3_column_int(st, 0) != count || !column_text(st, 1, m->uci, sizeof m->uci)) {
            store_set_err(err, err_size, "game %s: bad stored move at ply %d", id, count);
            count = -1;
            break;
        }
        m->at_ms = sqlite3_column_int64(st, 2);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        store_set_err(err, err_size, "reading the moves of game %s: %s", id, sqlite3_errmsg(sqlite3_db_handle(st)));
        count = -1;
    }
    if (count >= 0 && rec->plies >= 0 && (rec->result[0] ? count != rec->plies : count < rec->plies)) {
        store_set_err(err, err_size,
                      "the database is damaged: game %s has %d moves stored, but its row was written at ply %d."
                      " Restore it from a backup made with `schach backup`",
                      id, count, rec->plies);
        count = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    return count;
}

/* A read connection of its own, so loading never waits for (or disturbs) the writer. */
bool store_read_load(Store *store, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    /* What start-up reads must have passed the check (a large database is checked while the store
     * migrates and the server sets up). */
    if (store_check_wait(s, err, err_size) != 0)
        return false;
    sqlite3 *db = store_open_connection(s->path, SQLITE_OPEN_READONLY, err, err_size);
    if (!db)
        return false;
    sqlite3_stmt *games = NULL, *moves_st = NULL;
    StoredMove *moves = NULL;
    int cap = 0;
    bool ok = store_exec(db, "BEGIN", "load", err, err_size);
    if (ok && (sqlite3_prepare_v2(db, SQL_SELECT_GAMES, -1, &games, NULL) != SQLITE_OK ||
               sqlite3_prepare_v2(db, SQL_SELECT_MOVES, -1, &moves_st, NULL) != SQLITE_OK)) {
        store_set_err(err, err_size, "load: %s", sqlite3_errmsg(db));
        ok = false;
    }
    int rc = SQLITE_DONE;
    while (ok && (rc = sqlite3_step(games)) == SQLITE_ROW) {
        GameRecord record;
        if (!read_record(games, &record)) {
            const unsigned char *id = sqlite3_column_text(games, GP_ID - 1);
            store_set_err(err, err_size, "game %.40s: a stored field does not fit", id ? (const char *)id : "?");
            ok = false;
            break;
        }
        int count = read_moves(moves_st, &record, &moves, &cap, err, err_size);
        if (count < 0) {
            ok = false;
            break;
        }
        each(ctx, &record, moves, count);
    }
    if (ok && rc != SQLITE_DONE) {
        store_set_err(err, err_size, "load: %s", sqlite3_errmsg(db));
        ok = false;
    }
    sqlite3_finalize(games);
    sqlite3_finalize(moves_st);
    free(moves);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL); /* ends the read transaction */
    sqlite3_close(db);
    return ok;
}

/* Opens the loop's read connection and its statements once. */
static bool read_ready(SqliteStore *s, char *err, size_t err_size) {
    if (s->read_db)
        return true;
    s->read_db = store_open_connection(s->path, SQLITE_OPEN_READONLY, err, err_size);
    if (!s->read_db)
        return false;
    if (sqlite3_prepare_v3(s->read_db, SQL_SELECT_GAME, -1, SQLITE_PREPARE_PERSISTENT, &s->read_game, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v3(s->read_db, SQL_SELECT_MOVES, -1, SQLITE_PREPARE_PERSISTENT, &s->read_moves, NULL) !=
            SQLITE_OK ||
        sqlite3_prepare_v3(s->read_db, SQL_SELECT_RECENT, -1, SQLITE_PREPARE_PERSISTENT, &s->read_recent, NULL) !=
            SQLITE_OK) {
        store_set_err(err, err_size, "read connection: %s", sqlite3_errmsg(s->read_db));
        /* Not half open: the next read tries again from the start. */
        store_read_close(s);
        return false;
    }
    return true;
}

/* Steps st (a game query, bound) and hands each row with its moves to each; count or -1. All rows
 * come from one read transaction, so a game and its moves match. */
static int read_games(SqliteStore *s, sqlite3_stmt *st, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    int count = 0, rc;
    if (sqlite3_exec(s->read_db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "read: %s", sqlite3_errmsg(s->read_db));
        sqlite3_reset(st);
        return -1;
    }
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        GameRecord record;
        if (!read_record(st, &record)) {
            store_set_err(err, err_size, "a stored game field does not fit");
            count = -1;
            break;
        }
        int moves = read_moves(s->read_moves, &record, &s->read_buf, &s->read_cap, err, err_size);
        if (moves < 0) {
            static LogLimiter read_fault_log;
            log_event_limited(&read_fault_log, LOG_ERROR, "storage_fault", "path", s->path, "error", err, (char *)NULL);
            count = -1;
            break;
        }
        each(ctx, &record, s->read_buf, moves);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        store_set_err(err, err_size, "read: %s", sqlite3_errmsg(s->read_db));
        count = -1;
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    sqlite3_exec(s->read_db, "COMMIT", NULL, NULL, NULL);
    return count;
}

int store_read_get(Store *store, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (store_check_wait(s, err, err_size) != 0 || !read_ready(s, err, err_size))
        return -1;
    sqlite3_bind_text(s->read_game, 1, id, -1, SQLITE_TRANSIENT);
    int n = read_games(s, s->read_game, each, ctx, err, err_size);
    return n < 0 ? -1 : n > 0;
}

int store_read_recent(Store *store, int max, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (store_check_wait(s, err, err_size) != 0 || !read_ready(s, err, err_size))
        return -1;
    sqlite3_bind_int(s->read_recent, 1, max);
    return read_games(s, s->read_recent, each, ctx, err, err_size);
}

int store_read_revs(Store *store, const char *const *ids, int count, StoreEachRev each, void *ctx, char *err,
                    size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (store_check_wait(s, err, err_size) != 0 || !read_ready(s, err, err_size))
        return -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->read_db, SQL_SELECT_REV, -1, &st, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "revs: %s", sqlite3_errmsg(s->read_db));
        return -1;
    }
    int found = 0;
    for (int i = 0; i < count && found >= 0; i++) {
        sqlite3_bind_text(st, 1, ids[i], -1, SQLITE_STATIC);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            each(ctx, ids[i], sqlite3_column_int64(st, 0));
            found++;
        } else if (rc != SQLITE_DONE) {
            store_set_err(err, err_size, "revs: %s", sqlite3_errmsg(s->read_db));
            found = -1;
        }
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    return found;
}

int store_read_scan(Store *store, const char *after, int max, StoreEachGame each, void *ctx, char *err,
                    size_t err_size) {
    SqliteStore *s = (SqliteStore *)store;
    if (store_check_wait(s, err, err_size) != 0 || !read_ready(s, err, err_size))
        return -1;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->read_db, SQL_SELECT_SCAN, -1, &st, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "scan: %s", sqlite3_errmsg(s->read_db));
        return -1;
    }
    sqlite3_bind_text(st, 1, after ? after : "", -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, max);
    int n = read_games(s, st, each, ctx, err, err_size);
    sqlite3_finalize(st);
    return n;
}

/* The account's finished games: the filter of GET /api/players (result set, not aborted: "*"). */

/* The games sql selects (STORE_GAME_SELECT's columns; ?1 text, ?2 max when max >= 0), each with its
 * moves, in one read transaction on db: every game with the moves it had when the read began. */
static int read_games_with_moves(sqlite3 *db, const char *sql, const char *text, int max, StoreEachGame each, void *ctx,
                                 const char *what, char *err, size_t err_size) {
    sqlite3_stmt *games = NULL, *moves_st = NULL;
    StoredMove *moves = NULL;
    int cap = 0, count = 0, rc = SQLITE_DONE;
    if (!store_exec(db, "BEGIN", what, err, err_size))
        return -1;
    if (sqlite3_prepare_v2(db, sql, -1, &games, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, SQL_SELECT_MOVES, -1, &moves_st, NULL) != SQLITE_OK) {
        store_set_err(err, err_size, "%s: %s", what, sqlite3_errmsg(db));
        count = -1;
    } else {
        sqlite3_bind_text(games, 1, text, -1, SQLITE_STATIC);
        if (max >= 0)
            sqlite3_bind_int(games, 2, max);
    }
    while (count >= 0 && (rc = sqlite3_step(games)) == SQLITE_ROW) {
        GameRecord record;
        int n = -1;
        if (!read_record(games, &record))
            store_set_err(err, err_size, "a stored game field does not fit");
        else
            n = read_moves(moves_st, &record, &moves, &cap, err, err_size);
        if (n < 0) {
            count = -1;
            break;
        }
        each(ctx, &record, moves, n);
        count++;
    }
    if (count >= 0 && rc != SQLITE_DONE) {
        store_set_err(err, err_size, "%s: %s", what, sqlite3_errmsg(db));
        count = -1;
    }
    sqlite3_finalize(games);
    sqlite3_finalize(moves_st);
    free(moves);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL); /* ends the read transaction */
    return count;
}

int store_sqlite_read_player_games(sqlite3 *db, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                                   size_t err_size) {
    char sql[2000];
    store_player_games_sql("SELECT " STORE_GAME_SELECT " FROM games g", "?1",
                           " ORDER BY created_ms DESC, id DESC LIMIT ?2", sql, sizeof sql);
    return read_games_with_moves(db, sql, name, max < 0 ? 0 : max, each, ctx, "player games", err, err_size);
}

int store_sqlite_read_one_game(sqlite3 *db, const char *id, StoreEachGame each, void *ctx, char *err, size_t err_size) {
    return read_games_with_moves(db, "SELECT " STORE_GAME_SELECT " FROM games g WHERE id = ?1", id, -1, each, ctx,
                                 "read game", err, err_size);
}

void store_read_close(SqliteStore *s) {
    sqlite3_finalize(s->read_game);
    sqlite3_finalize(s->read_moves);
    sqlite3_finalize(s->read_recent);
    sqlite3_close(s->read_db);
    free(s->read_buf);
    s->read_game = s->read_moves = s->read_recent = NULL;
    s->read_db = NULL;
    s->read_buf = NULL;
    s->read_cap = 0;
}
