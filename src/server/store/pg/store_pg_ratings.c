/* Ratings and the player pages' queries in the PostgreSQL store (store_accounts.h), on the accounts'
 * connection (store_pg_accounts.c): rating a finished game once (and announcing the game's new row to
 * the other nodes), an account's ratings and their history, the games a player page lists. Apart from
 * accounts and sessions because these read and write the games and the rating tables, not the
 * accounts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../store_accounts.h"
#include "store_pg_internal.h"

/* Runs a plain statement in the open transaction; false with err filled. */
static bool tx_exec(PgAccounts *a, const char *sql, char *err, size_t err_size) {
    PGresult *res = PQexec(a->conn, sql);
    bool ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        store_pg_set_err(err, err_size, "%s", PQresultErrorMessage(res));
    PQclear(res);
    return ok;
}

/* Both accounts' ratings in the category, locked (in key order, so two games of the same pair ending at
 * once wait for each other instead of deadlocking); a newcomer's for one without. */
static bool lock_ratings(PgAccounts *a, const char *category, const char *keys[2], RatingRow out[2], char *err,
                         size_t err_size) {
    for (int i = 0; i < 2; i++) {
        out[i].g = glicko2_new();
        out[i].games = 0;
        out[i].updated_ms = 0;
    }
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, keys[0]);
    store_pg_param_text(&p, keys[1]);
    store_pg_param_text(&p, category);
    /* A newcomer's row first, so that the lock below holds even for a first game: two first games of one
     * player ending at once are then rated one after the other, not both from 1500. */
    char seed[300];
    snprintf(seed, sizeof seed,
             "INSERT INTO ratings (account_key, category, rating, rd, volatility, games, updated_ms)"
             " SELECT k, $3, %.1f, %.1f, %.2f, 0, 0 FROM unnest(ARRAY[$1, $2]::text[]) AS k ORDER BY k"
             " ON CONFLICT DO NOTHING",
             GLICKO2_DEFAULT_RATING, GLICKO2_DEFAULT_RD, GLICKO2_DEFAULT_VOLATILITY);
    PGresult *seeded = store_pg_accounts_run(a, seed, &p, PGRES_COMMAND_OK, err, err_size);
    if (!seeded)
        return false;
    PQclear(seeded);
    PGresult *res =
        store_pg_accounts_run(a,
                              "SELECT account_key, rating, rd, volatility, games, updated_ms FROM ratings"
                              " WHERE category = $3 AND account_key IN ($1, $2) ORDER BY account_key FOR UPDATE",
                              &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return false;
    for (int row = 0; row < PQntuples(res); row++)
        for (int i = 0; i < 2; i++)
            if (!strcmp(PQgetvalue(res, row, 0), keys[i])) {
                out[i].g.rating = strtod(PQgetvalue(res, row, 1), NULL);
                out[i].g.rd = strtod(PQgetvalue(res, row, 2), NULL);
                out[i].g.volatility = strtod(PQgetvalue(res, row, 3), NULL);
                out[i].games = atoi(PQgetvalue(res, row, 4));
                out[i].updated_ms = strtoll(PQgetvalue(res, row, 5), NULL, 10);
            }
    PQclear(res);
    return true;
}

static bool store_rating(PgAccounts *a, const char *key, const char *category, const RatingRow *r, const char *game_id,
                         char *err, size_t err_size) {
    char rating[40], rd[40], vol[40];
    snprintf(rating, sizeof rating, "%.17g", r->g.rating);
    snprintf(rd, sizeof rd, "%.17g", r->g.rd);
    snprintf(vol, sizeof vol, "%.17g", r->g.volatility);
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, key);
    store_pg_param_text(&p, category);
    store_pg_param_text(&p, rating);
    store_pg_param_text(&p, rd);
    store_pg_param_text(&p, vol);
    store_pg_param_int(&p, r->games);
    store_pg_param_int(&p, r->updated_ms);
    store_pg_param_text(&p, game_id);
    store_pg_param_int(&p, (long long)(r->g.rating + 0.5));
    PGresult *res =
        store_pg_accounts_run(a,
                              "WITH h AS (INSERT INTO rating_history (account_key, category, at_ms, game_id, rating)"
                              "  VALUES ($1, $2, $7::bigint, $8, $9::int) ON CONFLICT DO NOTHING)"
                              " INSERT INTO ratings (account_key, category, rating, rd, volatility, games, updated_ms)"
                              " VALUES ($1, $2, $3::float8, $4::float8, $5::float8, $6::int, $7::bigint)"
                              " ON CONFLICT (account_key, category) DO UPDATE SET rating = $3::float8, rd = $4::float8,"
                              " volatility = $5::float8, games = $6::int, updated_ms = $7::bigint",
                              &p, PGRES_COMMAND_OK, err, err_size);
    PQclear(res);
    return res != NULL;
}

/* The game's row changed (its ratings, a new rev): announced like the writer's commits, so that other
 * servers holding the game show the rating change to its watchers. Sent inside the transaction, so it
 * is delivered only if the transaction commits. Ply 0 and the note "r" tell the listeners that this
 * is no move to replay but a row to read again. */
static bool announce_rating(PgAccounts *a, const char *game_id, int64_t rev, char *err, size_t err_size) {
    char payload[STORE_PG_PAYLOAD_MAX];
    store_pg_format_payload(payload, game_id, rev, 0, store_pg_wall_ms(), a->store->node, "r");
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, payload);
    PGresult *res =
        store_pg_accounts_run(a, "SELECT pg_notify('" STORE_PG_CHANNEL "', $1)", &p, PGRES_TUPLES_OK, err, err_size);
    PQclear(res);
    return res != NULL;
}

/* How many games the two accounts were both rated in (in any category) that ended after since_ms: the
 * points of their rating histories of one game, the first account's read by the primary key's prefix,
 * each matched by the second's full key. -1 on a failure. */
static int pair_rated(PgAccounts *a, const char *key0, const char *key1, int64_t since_ms, char *err, size_t err_size) {
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, key0);
    store_pg_param_text(&p, key1);
    store_pg_param_int(&p, since_ms);
    return store_pg_accounts_count(a,
                                   "SELECT count(*) FROM rating_history w JOIN rating_history b"
                                   " ON b.account_key = $2 AND b.category = w.category AND b.at_ms = w.at_ms"
                                   " AND b.game_id = w.game_id WHERE w.account_key = $1 AND w.at_ms > $3::bigint",
                                   &p, err, err_size);
}

StoreAccountResult store_pg_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                      const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                      void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev, char *err,
                                      size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    *game_rev = 0;
    if (!store_pg_accounts_conn(a, err, err_size) || !tx_exec(a, "BEGIN", err, err_size)) {
        if (a->conn && PQstatus(a->conn) != CONNECTION_OK) {
            PQfinish(a->conn);
            a->conn = NULL;
        }
        return SA_FAULT;
    }
    StoreAccountResult r = SA_OK;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, game_id);
    store_pg_param_text(&p, category);
    store_pg_param_int(&p, now_ms);
    PGresult *res =
        store_pg_accounts_run(a,
                              "INSERT INTO game_ratings (game_id, category, at_ms) VALUES ($1, $2, $3::bigint)"
                              " ON CONFLICT DO NOTHING",
                              &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        r = SA_FAULT;
    else if (store_pg_affected(res) == 0)
        r = SA_TAKEN;
    const char *keys[2] = {white_key, black_key};
    if (r == SA_OK) {
        /* Lock in key order; before[] in colour order. */
        bool swap = strcmp(white_key, black_key) > 0;
        const char *ordered[2] = {keys[swap], keys[!swap]};
        RatingRow got[2];
        if (!lock_ratings(a, category, ordered, got, err, err_size))
            r = SA_FAULT;
        before[0] = got[swap];
        before[1] = got[!swap];
    }
    /* Beyond the pair's games that count today: recorded, not rated. Counted under the lock of both
     * ratings, so two games of the pair ending at once on two servers are counted one after the other. */
    bool counts = true;
    if (r == SA_OK) {
        int n = pair_rated(a, white_key, black_key, now_ms - STORE_RATED_PAIR_WINDOW_MS, err, err_size);
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
        (!store_rating(a, white_key, category, &after[0], game_id, err, err_size) ||
         !store_rating(a, black_key, category, &after[1], game_id, err, err_size)))
        r = SA_FAULT;
    if (r == SA_OK) {
        StorePgParams q = {.n = 0};
        store_pg_param_text(&q, game_id);
        store_pg_param_int(&q, (long long)(before[0].g.rating + 0.5));
        store_pg_param_int(&q, (long long)(after[0].g.rating + 0.5));
        store_pg_param_int(&q, (long long)(before[1].g.rating + 0.5));
        store_pg_param_int(&q, (long long)(after[1].g.rating + 0.5));
        res = store_pg_accounts_run(a,
                                    "WITH u AS (UPDATE game_ratings SET white_before = $2::int, white_after = $3::int,"
                                    "  black_before = $4::int, black_after = $5::int WHERE game_id = $1)"
                                    " UPDATE games SET rating_white = $2::int, rating_black = $4::int,"
                                    " rating_diff_white = $3::int - $2::int, rating_diff_black = $5::int - $4::int,"
                                    " rev = rev + 1 WHERE id = $1 RETURNING rev",
                                    &q, PGRES_TUPLES_OK, err, err_size);
        if (!res)
            r = SA_FAULT;
        else if (PQntuples(res) == 1)
            *game_rev = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
        PQclear(res);
    }
    if (r == SA_OK && *game_rev > 0 && !announce_rating(a, game_id, *game_rev, err, err_size))
        r = SA_FAULT;
    if (!a->conn)
        return SA_FAULT; /* the connection broke: the transaction is gone with it */
    if (r == SA_OK && !tx_exec(a, "COMMIT", err, err_size))
        r = SA_FAULT;
    if (r != SA_OK)
        PQclear(PQexec(a->conn, "ROLLBACK"));
    return r;
}

StoreAccountResult store_pg_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                       bool have[RATING_COUNT], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    for (int c = 0; c < RATING_COUNT; c++)
        have[c] = false;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, key);
    PGresult *res = store_pg_accounts_run(
        a, "SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE account_key = $1", &p,
        PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    for (int row = 0; row < PQntuples(res); row++) {
        int c = rating_category_of(PQgetvalue(res, row, 0));
        if (c < 0)
            continue;
        have[c] = true;
        out[c].g.rating = strtod(PQgetvalue(res, row, 1), NULL);
        out[c].g.rd = strtod(PQgetvalue(res, row, 2), NULL);
        out[c].g.volatility = strtod(PQgetvalue(res, row, 3), NULL);
        out[c].games = atoi(PQgetvalue(res, row, 4));
        out[c].updated_ms = strtoll(PQgetvalue(res, row, 5), NULL, 10);
    }
    PQclear(res);
    return SA_OK;
}

StoreAccountResult store_pg_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                        char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, game_id);
    PGresult *res =
        store_pg_accounts_run(a,
                              "SELECT white_before, white_after, black_before, black_after FROM game_ratings"
                              " WHERE game_id = $1",
                              &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found) {
        before[0] = atoi(PQgetvalue(res, 0, 0));
        after[0] = atoi(PQgetvalue(res, 0, 1));
        before[1] = atoi(PQgetvalue(res, 0, 2));
        after[1] = atoi(PQgetvalue(res, 0, 3));
    }
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

int store_pg_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_int(&p, since_ms);
    store_pg_param_int(&p, max);
    PGresult *res = store_pg_accounts_run(
        a,
        "SELECT id, account_white, account_black, result, time_type, minutes, increment, updated_ms, days,"
        " CASE WHEN start_fen <> '' THEN 1 ELSE 0 END FROM games g"
        " WHERE result <> '' AND updated_ms > $1::bigint AND rated = 1 AND result <> '*'"
        " AND NOT EXISTS (SELECT 1 FROM game_ratings r WHERE r.game_id = g.id) ORDER BY updated_ms LIMIT $2::int",
        &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++) {
        UnratedGame *u = &out[i];
        memset(u, 0, sizeof *u);
        snprintf(u->id, sizeof u->id, "%s", PQgetvalue(res, i, 0));
        snprintf(u->account[0], sizeof u->account[0], "%s", PQgetvalue(res, i, 1));
        snprintf(u->account[1], sizeof u->account[1], "%s", PQgetvalue(res, i, 2));
        snprintf(u->result, sizeof u->result, "%s", PQgetvalue(res, i, 3));
        u->time.type = store_time_type_read(PQgetvalue(res, i, 4));
        u->time.minutes = atoi(PQgetvalue(res, i, 5));
        u->time.increment = atoi(PQgetvalue(res, i, 6));
        u->updated_ms = strtoll(PQgetvalue(res, i, 7), NULL, 10);
        u->time.days = atoi(PQgetvalue(res, i, 8));
        u->variant = atoi(PQgetvalue(res, i, 9)) ? VARIANT_CHESS960 : VARIANT_STANDARD;
    }
    PQclear(res);
    return n;
}

int store_pg_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                            char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, key);
    store_pg_param_text(&p, category);
    store_pg_param_int(&p, max);
    PGresult *res = store_pg_accounts_run(a,
                                          "SELECT at_ms, rating FROM (SELECT at_ms, rating, game_id FROM rating_history"
                                          " WHERE account_key = $1 AND category = $2 ORDER BY at_ms DESC, game_id DESC"
                                          " LIMIT $3::int) h ORDER BY at_ms, game_id",
                                          &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++) {
        out[i].at_ms = strtoll(PQgetvalue(res, i, 0), NULL, 10);
        out[i].rating = atoi(PQgetvalue(res, i, 1));
    }
    PQclear(res);
    return n;
}

/* ---- the player pages ---- */

int store_pg_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, name);
    store_pg_param_int(&p, max);
    char sql[2400];
    store_playing_sql("$1", " ORDER BY updated_ms DESC LIMIT $2::int", sql, sizeof sql);
    PGresult *res = store_pg_accounts_run(a, sql, &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++) {
        PlayingGame *g = &out[i];
        memset(g, 0, sizeof *g);
        snprintf(g->id, sizeof g->id, "%s", PQgetvalue(res, i, 0));
        g->color = atoi(PQgetvalue(res, i, 1));
        snprintf(g->start_fen, sizeof g->start_fen, "%s", PQgetvalue(res, i, 2));
        g->time.type = store_time_type_read(PQgetvalue(res, i, 3));
        g->updated_ms = strtoll(PQgetvalue(res, i, 4), NULL, 10);
        g->moves = atoi(PQgetvalue(res, i, 5));
        g->time.minutes = atoi(PQgetvalue(res, i, 6));
        g->time.increment = atoi(PQgetvalue(res, i, 7));
        g->time.days = atoi(PQgetvalue(res, i, 8));
        g->seat_epoch = strtoll(PQgetvalue(res, i, 9), NULL, 10);
        snprintf(g->opponent, sizeof g->opponent, "%s", PQgetvalue(res, i, 10));
        g->rated = atoi(PQgetvalue(res, i, 11));
        g->opponent_rating = atoi(PQgetvalue(res, i, 12));
        snprintf(g->level, sizeof g->level, "%s", PQgetvalue(res, i, 13));
        g->opponent_provisional = atoi(PQgetvalue(res, i, 14));
    }
    PQclear(res);
    return n;
}

int store_pg_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out, int max,
                    char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char sql[1200];
    store_played_sql(filter, "$1", " ORDER BY created_ms DESC, id LIMIT $3::int OFFSET $2::int", sql, sizeof sql);
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, name);
    store_pg_param_int(&p, offset);
    store_pg_param_int(&p, max);
    PGresult *res = store_pg_accounts_run(a, sql, &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++) {
        PlayedGame *g = &out[i];
        memset(g, 0, sizeof *g);
        snprintf(g->id, sizeof g->id, "%s", PQgetvalue(res, i, 0));
        g->created_ms = strtoll(PQgetvalue(res, i, 1), NULL, 10);
        g->ended_ms = strtoll(PQgetvalue(res, i, 2), NULL, 10);
        snprintf(g->account[0], sizeof g->account[0], "%s", PQgetvalue(res, i, 3));
        snprintf(g->account[1], sizeof g->account[1], "%s", PQgetvalue(res, i, 4));
        snprintf(g->result, sizeof g->result, "%s", PQgetvalue(res, i, 5));
        snprintf(g->termination, sizeof g->termination, "%s", PQgetvalue(res, i, 6));
        snprintf(g->reason, sizeof g->reason, "%s", PQgetvalue(res, i, 7));
        g->time.type = store_time_type_read(PQgetvalue(res, i, 8));
        g->time.minutes = atoi(PQgetvalue(res, i, 9));
        g->time.increment = atoi(PQgetvalue(res, i, 10));
        g->time.days = atoi(PQgetvalue(res, i, 11));
        g->rated = atoi(PQgetvalue(res, i, 12));
        g->rating[0] = atoi(PQgetvalue(res, i, 13));
        g->rating[1] = atoi(PQgetvalue(res, i, 14));
        g->rating_diff[0] = atoi(PQgetvalue(res, i, 15));
        g->rating_diff[1] = atoi(PQgetvalue(res, i, 16));
        g->moves = atoi(PQgetvalue(res, i, 17));
    }
    PQclear(res);
    return n;
}

int store_pg_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                          size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    PGconn *conn = store_pg_accounts_conn(a, err, err_size);
    if (!conn)
        return -1;
    bool broken = false;
    int n = store_pg_read_player_games(conn, name, max, each, ctx, &broken, err, err_size);
    if (broken) {
        PQfinish(a->conn);
        a->conn = NULL;
    }
    return n;
}
