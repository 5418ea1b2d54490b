/* Accounts and sessions in the PostgreSQL store (store_accounts.h): a connection of their own with the
 * writer's settings (synchronous_commit on, statement and lock timeouts), opened again after a loss;
 * each call one statement or one transaction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

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

/* Runs sql with the parameters of p (no result rows wanted unless want says so). */
static PGresult *run_params(PgAccounts *a, const char *sql, const StorePgParams *p, ExecStatusType want, char *err,
                            size_t err_size) {
    PGconn *conn = conn_of(a, err, err_size);
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

/* run_params with text parameters, but for the session hash (binary, where hash_param is its 1-based
 * number, 0 for none). */
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
    return run_params(a, sql, &p, want, err, err_size);
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

/* ---- the lobby ---- */

#define SEEK_COLUMNS                                                                                                   \
    "id, created_ms, expires_ms, account_key, name, rating, rated, color, time_type, minutes, increment, days,"        \
    " encode(secret_hash, 'hex'), game_id, poster_color"

static void read_seek(const PGresult *res, int row, SeekRow *out) {
    memset(out, 0, sizeof *out);
    snprintf(out->id, sizeof out->id, "%s", PQgetvalue(res, row, 0));
    out->created_ms = strtoll(PQgetvalue(res, row, 1), NULL, 10);
    out->expires_ms = strtoll(PQgetvalue(res, row, 2), NULL, 10);
    snprintf(out->account, sizeof out->account, "%s", PQgetvalue(res, row, 3));
    snprintf(out->name, sizeof out->name, "%s", PQgetvalue(res, row, 4));
    out->rating = atoi(PQgetvalue(res, row, 5));
    out->rated = atoi(PQgetvalue(res, row, 6));
    snprintf(out->color, sizeof out->color, "%s", PQgetvalue(res, row, 7));
    snprintf(out->time_type, sizeof out->time_type, "%s", PQgetvalue(res, row, 8));
    out->minutes = atoi(PQgetvalue(res, row, 9));
    out->increment = atoi(PQgetvalue(res, row, 10));
    out->days = atoi(PQgetvalue(res, row, 11));
    const char *hex = PQgetvalue(res, row, 12);
    if (PQgetlength(res, row, 12) == 2 * STORE_HASH_LEN)
        for (int i = 0; i < STORE_HASH_LEN; i++) {
            unsigned int byte = 0;
            if (sscanf(hex + 2 * i, "%2x", &byte) == 1)
                out->secret_hash[i] = (unsigned char)byte;
        }
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, row, 13));
    out->poster_color = atoi(PQgetvalue(res, row, 14));
}

static void p_text(StorePgParams *p, const char *v) {
    p->values[p->n] = v;
    p->lengths[p->n] = 0;
    p->formats[p->n++] = 0;
}

static void p_int(StorePgParams *p, long long v) {
    snprintf(p->numbers[p->n], sizeof p->numbers[p->n], "%lld", v);
    p_text(p, p->numbers[p->n]);
}

static void p_blob(StorePgParams *p, const unsigned char *hash) {
    p->values[p->n] = (const char *)hash;
    p->lengths[p->n] = STORE_HASH_LEN;
    p->formats[p->n++] = 1;
}

static StoreAccountResult pa_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, k->id);
    p_int(&p, k->created_ms);
    p_int(&p, k->expires_ms);
    p_text(&p, k->account);
    p_text(&p, k->name);
    p_int(&p, k->rating);
    p_int(&p, k->rated);
    p_text(&p, k->color);
    p_text(&p, k->time_type);
    p_int(&p, k->minutes);
    p_int(&p, k->increment);
    p_int(&p, k->days);
    p_blob(&p, k->secret_hash);
    p_int(&p, STORE_SEEK_KEEP_MS);
    PGresult *res =
        run_params(a,
                   "WITH old AS (DELETE FROM seeks WHERE (game_id = '' AND expires_ms <= $2::bigint) OR"
                   "  (game_id <> '' AND created_ms < $2::bigint - $14::bigint))"
                   " INSERT INTO seeks (id, created_ms, expires_ms, account_key, name, rating, rated, color,"
                   " time_type, minutes, increment, days, secret_hash) VALUES ($1, $2::bigint, $3::bigint,"
                   " $4, $5, $6::int, $7::int, $8, $9, $10::int, $11::int, $12::int, $13)"
                   " ON CONFLICT DO NOTHING",
                   &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_TAKEN;
}

static int pa_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_int(&p, now_ms);
    p_int(&p, max);
    PGresult *res = run_params(a,
                               "SELECT " SEEK_COLUMNS " FROM seeks WHERE game_id = '' AND expires_ms > $1::bigint"
                               " ORDER BY created_ms, id LIMIT $2::int",
                               &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++)
        read_seek(res, i, &out[i]);
    PQclear(res);
    return n;
}

static StoreAccountResult pa_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                      size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, id);
    p_int(&p, now_ms);
    PGresult *res =
        run_params(a, "SELECT " SEEK_COLUMNS " FROM seeks WHERE id = $1 AND (game_id <> '' OR expires_ms > $2::bigint)",
                   &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found)
        read_seek(res, 0, out);
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_seek_cancel(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                         int64_t now_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, id);
    p_blob(&p, hash);
    p_int(&p, now_ms);
    /* Expired ones go with it: the table holds open seeks and the accepted ones' games only. */
    PGresult *res = run_params(a,
                               "WITH old AS (DELETE FROM seeks WHERE game_id = '' AND expires_ms <= $3::bigint"
                               "  AND id <> $1)"
                               " DELETE FROM seeks WHERE id = $1 AND secret_hash = $2 AND game_id = ''"
                               " AND expires_ms > $3::bigint",
                               &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

static StoreAccountResult pa_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                         const GameRecord *game, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_params_record(&p, game); /* $1 .. $PGP_RECORD_COUNT */
    p_text(&p, id);
    p_int(&p, poster_color);
    p_int(&p, now_ms);
    char sql[1200];
    /* One statement: the seek taken (under its row lock, so two accepters cannot both take it) and the
     * game inserted only from that row. */
    snprintf(sql, sizeof sql,
             "WITH s AS (UPDATE seeks SET game_id = $1, poster_color = $%d::int WHERE id = $%d AND game_id = ''"
             "  AND expires_ms > $%d::bigint RETURNING id)"
             " INSERT INTO games (" STORE_PG_GAME_COLUMNS ", rev) SELECT $1, $2::bigint, $3::bigint, $4, $5, $6,"
             " $7::int, $8::int, $9::int, $10::bytea, $11::bytea, $12::bytea, $13::int, $14, $15, $16::int,"
             " $17::bigint, $18::bigint, $19::bigint, $20, $21::int, $22, $23, $24, $25::int, $26::int, $27::int,"
             " $28::int, $29::int, $30::int, $31::int, $32, 1 FROM s",
             PGP_RECORD_COUNT + 2, PGP_RECORD_COUNT + 1, PGP_RECORD_COUNT + 3);
    PGresult *res = run_params(a, sql, &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

/* ---- ratings ---- */

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
    p_text(&p, keys[0]);
    p_text(&p, keys[1]);
    p_text(&p, category);
    /* A newcomer's row first, so that the lock below holds even for a first game: two first games of one
     * player ending at once are then rated one after the other, not both from 1500. */
    char seed[300];
    snprintf(seed, sizeof seed,
             "INSERT INTO ratings (account_key, category, rating, rd, volatility, games, updated_ms)"
             " SELECT k, $3, %.1f, %.1f, %.2f, 0, 0 FROM unnest(ARRAY[$1, $2]::text[]) AS k ORDER BY k"
             " ON CONFLICT DO NOTHING",
             GLICKO2_DEFAULT_RATING, GLICKO2_DEFAULT_RD, GLICKO2_DEFAULT_VOLATILITY);
    PGresult *seeded = run_params(a, seed, &p, PGRES_COMMAND_OK, err, err_size);
    if (!seeded)
        return false;
    PQclear(seeded);
    PGresult *res = run_params(a,
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
    p_text(&p, key);
    p_text(&p, category);
    p_text(&p, rating);
    p_text(&p, rd);
    p_text(&p, vol);
    p_int(&p, r->games);
    p_int(&p, r->updated_ms);
    p_text(&p, game_id);
    p_int(&p, (long long)(r->g.rating + 0.5));
    PGresult *res =
        run_params(a,
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
    p_text(&p, payload);
    PGresult *res = run_params(a, "SELECT pg_notify('" STORE_PG_CHANNEL "', $1)", &p, PGRES_TUPLES_OK, err, err_size);
    PQclear(res);
    return res != NULL;
}

static StoreAccountResult pa_rate_game(StoreAccounts *base, const char *game_id, const char *category,
                                       const char *white_key, const char *black_key, int64_t now_ms, StoreRateFn fn,
                                       void *ctx, RatingRow before[2], RatingRow after[2], int64_t *game_rev, char *err,
                                       size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    *game_rev = 0;
    if (!conn_of(a, err, err_size) || !tx_exec(a, "BEGIN", err, err_size)) {
        if (a->conn && PQstatus(a->conn) != CONNECTION_OK) {
            PQfinish(a->conn);
            a->conn = NULL;
        }
        return SA_FAULT;
    }
    StoreAccountResult r = SA_OK;
    StorePgParams p = {.n = 0};
    p_text(&p, game_id);
    p_text(&p, category);
    p_int(&p, now_ms);
    PGresult *res = run_params(a,
                               "INSERT INTO game_ratings (game_id, category, at_ms) VALUES ($1, $2, $3::bigint)"
                               " ON CONFLICT DO NOTHING",
                               &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        r = SA_FAULT;
    else if (affected(res) == 0)
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
    if (r == SA_OK) {
        after[0] = before[0];
        after[1] = before[1];
        if (!fn(ctx, &after[0], &after[1]))
            r = SA_NOT_FOUND;
    }
    if (r == SA_OK && (!store_rating(a, white_key, category, &after[0], game_id, err, err_size) ||
                       !store_rating(a, black_key, category, &after[1], game_id, err, err_size)))
        r = SA_FAULT;
    if (r == SA_OK) {
        StorePgParams q = {.n = 0};
        p_text(&q, game_id);
        p_int(&q, (long long)(before[0].g.rating + 0.5));
        p_int(&q, (long long)(after[0].g.rating + 0.5));
        p_int(&q, (long long)(before[1].g.rating + 0.5));
        p_int(&q, (long long)(after[1].g.rating + 0.5));
        res = run_params(a,
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

static StoreAccountResult pa_ratings_of(StoreAccounts *base, const char *key, RatingRow out[RATING_COUNT],
                                        bool have[RATING_COUNT], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    for (int c = 0; c < RATING_COUNT; c++)
        have[c] = false;
    StorePgParams p = {.n = 0};
    p_text(&p, key);
    PGresult *res =
        run_params(a, "SELECT category, rating, rd, volatility, games, updated_ms FROM ratings WHERE account_key = $1",
                   &p, PGRES_TUPLES_OK, err, err_size);
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

static int pa_unrated(StoreAccounts *base, int64_t since_ms, UnratedGame *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_int(&p, since_ms);
    p_int(&p, max);
    PGresult *res = run_params(
        a,
        "SELECT id, account_white, account_black, result, time_type, minutes, increment, updated_ms FROM games g"
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
        snprintf(u->time_type, sizeof u->time_type, "%s", PQgetvalue(res, i, 4));
        u->minutes = atoi(PQgetvalue(res, i, 5));
        u->increment = atoi(PQgetvalue(res, i, 6));
        u->updated_ms = strtoll(PQgetvalue(res, i, 7), NULL, 10);
    }
    PQclear(res);
    return n;
}

static StoreAccountResult pa_site_key(StoreAccounts *base, unsigned char key[32], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    unsigned char fresh[32];
    char hex[65];
    randombytes_buf(fresh, sizeof fresh);
    sodium_bin2hex(hex, sizeof hex, fresh, sizeof fresh);
    sodium_memzero(fresh, sizeof fresh);
    StorePgParams p = {.n = 0};
    p_text(&p, hex);
    /* Whoever comes first writes it; everyone reads the one that is there. */
    PGresult *res = run_params(a,
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

static int pa_playing(StoreAccounts *base, const char *name, PlayingGame *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, name);
    p_int(&p, max);
    PGresult *res = run_params(
        a,
        "SELECT id, CASE WHEN account_white = $1 THEN 0 ELSE 1 END, start_fen, time_type, updated_ms,"
        " (SELECT count(*) FROM moves m WHERE m.game_id = g.id) FROM games g"
        " WHERE result = '' AND (account_white = $1 OR account_black = $1) ORDER BY updated_ms DESC LIMIT $2::int",
        &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++) {
        PlayingGame *g = &out[i];
        memset(g, 0, sizeof *g);
        snprintf(g->id, sizeof g->id, "%s", PQgetvalue(res, i, 0));
        g->color = atoi(PQgetvalue(res, i, 1));
        snprintf(g->start_fen, sizeof g->start_fen, "%s", PQgetvalue(res, i, 2));
        snprintf(g->time_type, sizeof g->time_type, "%s", PQgetvalue(res, i, 3));
        g->updated_ms = strtoll(PQgetvalue(res, i, 4), NULL, 10);
        g->moves = atoi(PQgetvalue(res, i, 5));
    }
    PQclear(res);
    return n;
}

static int pa_rating_history(StoreAccounts *base, const char *key, const char *category, RatingPoint *out, int max,
                             char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, key);
    p_text(&p, category);
    p_int(&p, max);
    PGresult *res = run_params(a,
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

static int pa_played(StoreAccounts *base, const char *name, PlayedFilter filter, int offset, PlayedGame *out, int max,
                     char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char sql[1200];
    store_played_sql(filter, "$1", " ORDER BY created_ms DESC, id LIMIT $3::int OFFSET $2::int", sql, sizeof sql);
    StorePgParams p = {.n = 0};
    p_text(&p, name);
    p_int(&p, offset);
    p_int(&p, max);
    PGresult *res = run_params(a, sql, &p, PGRES_TUPLES_OK, err, err_size);
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
        snprintf(g->time_type, sizeof g->time_type, "%s", PQgetvalue(res, i, 8));
        g->minutes = atoi(PQgetvalue(res, i, 9));
        g->increment = atoi(PQgetvalue(res, i, 10));
        g->days = atoi(PQgetvalue(res, i, 11));
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

static StoreAccountResult pa_game_rating(StoreAccounts *base, const char *game_id, int before[2], int after[2],
                                         char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    p_text(&p, game_id);
    PGresult *res = run_params(a,
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

static int pa_player_games(StoreAccounts *base, const char *name, int max, StoreEachGame each, void *ctx, char *err,
                           size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    PGconn *conn = conn_of(a, err, err_size);
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
    .seek_create = pa_seek_create,
    .seek_list = pa_seek_list,
    .seek_get = pa_seek_get,
    .seek_cancel = pa_seek_cancel,
    .seek_accept = pa_seek_accept,
    .rate_game = pa_rate_game,
    .ratings_of = pa_ratings_of,
    .game_rating = pa_game_rating,
    .unrated = pa_unrated,
    .site_key = pa_site_key,
    .playing = pa_playing,
    .rating_history = pa_rating_history,
    .played = pa_played,
    .player_games = pa_player_games,
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
