/* The lobby's seeks in the PostgreSQL store (store_accounts.h), on the accounts' connection
 * (store_pg_accounts.c). Apart from accounts and sessions because a seek is a game in the making, not
 * a login: a table of its own with its own expiry, and accepting one inserts the game's row. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../store_accounts.h"
#include "store_pg_internal.h"

#define SEEK_COLUMNS                                                                                                   \
    "id, created_ms, expires_ms, account_key, name, rating, rated, color, time_type, minutes, increment, days,"        \
    " encode(secret_hash, 'hex'), game_id, poster_color, poster_address, provisional, variant"

/* Whether an open seek's process is alive (store_accounts.h seek_beat): posted through none (before
 * schema 17), or through one that beat after the cutoff, parameter number N. */
#define ALIVE(n) "(node = '' OR node IN (SELECT node FROM lobby_nodes WHERE seen_ms > $" #n "::bigint))"

/* The cutoff of ALIVE at now_ms: STORE_LOBBY_NODE_DEADLINE_MS before (tests: SCHACH_LOBBY_NODE_DEADLINE_MS). */
static int64_t alive_cutoff(int64_t now_ms) {
    const char *v = getenv("SCHACH_LOBBY_NODE_DEADLINE_MS");
    int64_t deadline = v && atoll(v) > 0 ? atoll(v) : STORE_LOBBY_NODE_DEADLINE_MS;
    return now_ms - deadline;
}

/* This server process in the lobby: the node's name, the process id and when it first asked (a node
 * restarted under its name is another process, whose beats do not bring back the seeks of the old). */
static void instance(const PgAccounts *a, char *out, size_t size) {
    static _Atomic int64_t started;
    int64_t zero = 0, now = store_pg_wall_ms();
    atomic_compare_exchange_strong(&started, &zero, now);
    snprintf(out, size, "%s/%ld/%lld", a->store->node, (long)getpid(), (long long)atomic_load(&started));
}

StoreAccountResult store_pg_seek_beat(StoreAccounts *base, int64_t now_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    char me[STORE_NODE_LEN + 64];
    instance(a, me, sizeof me);
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, me);
    store_pg_param_int(&p, now_ms);
    /* Processes silent for a day are forgotten (their seeks left the lobby long before). */
    PGresult *res = store_pg_accounts_run(a,
                                          "WITH old AS (DELETE FROM lobby_nodes WHERE seen_ms < $2::bigint - 86400000"
                                          "  AND node <> $1)"
                                          " INSERT INTO lobby_nodes (node, seen_ms) VALUES ($1, $2::bigint)"
                                          " ON CONFLICT (node) DO UPDATE SET seen_ms = GREATEST(lobby_nodes.seen_ms,"
                                          " EXCLUDED.seen_ms)",
                                          &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    PQclear(res);
    return SA_OK;
}

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
    out->time.type = store_time_type_read(PQgetvalue(res, row, 8));
    out->time.minutes = atoi(PQgetvalue(res, row, 9));
    out->time.increment = atoi(PQgetvalue(res, row, 10));
    out->time.days = atoi(PQgetvalue(res, row, 11));
    const char *hex = PQgetvalue(res, row, 12);
    if (PQgetlength(res, row, 12) == 2 * STORE_HASH_LEN)
        for (int i = 0; i < STORE_HASH_LEN; i++) {
            unsigned int byte = 0;
            if (sscanf(hex + 2 * i, "%2x", &byte) == 1)
                out->secret_hash[i] = (unsigned char)byte;
        }
    snprintf(out->game_id, sizeof out->game_id, "%s", PQgetvalue(res, row, 13));
    out->poster_color = atoi(PQgetvalue(res, row, 14));
    snprintf(out->address, sizeof out->address, "%s", PQgetvalue(res, row, 15));
    out->provisional = atoi(PQgetvalue(res, row, 16));
    variant_of(PQgetvalue(res, row, 17), &out->variant); /* standard when unknown */
}

/* A seek's secret hash as a binary bytea parameter. */
static void p_blob(StorePgParams *p, const unsigned char *hash) {
    p->values[p->n] = (const char *)hash;
    p->lengths[p->n] = STORE_HASH_LEN;
    p->formats[p->n++] = 1;
}

StoreAccountResult store_pg_seek_create(StoreAccounts *base, const SeekRow *k, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, k->id);
    store_pg_param_int(&p, k->created_ms);
    store_pg_param_int(&p, k->expires_ms);
    store_pg_param_text(&p, k->account);
    store_pg_param_text(&p, k->name);
    store_pg_param_int(&p, k->rating);
    store_pg_param_int(&p, k->rated);
    store_pg_param_text(&p, k->color);
    store_pg_param_text(&p, store_time_type_text(k->time.type));
    store_pg_param_int(&p, k->time.minutes);
    store_pg_param_int(&p, k->time.increment);
    store_pg_param_int(&p, k->time.days);
    p_blob(&p, k->secret_hash);
    store_pg_param_int(&p, STORE_SEEK_KEEP_MS);
    store_pg_param_text(&p, k->account[0] ? "" : k->address);
    store_pg_param_int(&p, k->provisional);
    char me[STORE_NODE_LEN + 64];
    instance(a, me, sizeof me);
    store_pg_param_text(&p, me);
    store_pg_param_int(&p, alive_cutoff(k->created_ms));
    store_pg_param_text(&p, variant_name(k->variant));
    PGresult *res = store_pg_accounts_run(
        a,
        "WITH old AS (DELETE FROM seeks WHERE (game_id = '' AND (expires_ms <= $2::bigint OR"
        "  NOT " ALIVE(
            18) ")) OR (game_id <> '' AND created_ms < $2::bigint - $14::bigint)),"
                " beat AS (INSERT INTO lobby_nodes (node, seen_ms) VALUES ($17, $2::bigint) ON CONFLICT (node)"
                "  DO UPDATE SET seen_ms = GREATEST(lobby_nodes.seen_ms, EXCLUDED.seen_ms))"
                " INSERT INTO seeks (id, created_ms, expires_ms, account_key, name, rating, rated, color,"
                " time_type, minutes, increment, days, secret_hash, poster_address, provisional, node, variant)"
                " VALUES ($1, $2::bigint, $3::bigint, $4, $5, $6::int, $7::int, $8, $9, $10::int, $11::int,"
                " $12::int, $13, $15, $16::int, $17, $19)"
                " ON CONFLICT DO NOTHING",
        &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return store_pg_affected(res) == 1 ? SA_OK : SA_TAKEN;
}

int store_pg_seek_list(StoreAccounts *base, int64_t now_ms, SeekRow *out, int max, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_int(&p, now_ms);
    store_pg_param_int(&p, max);
    store_pg_param_int(&p, alive_cutoff(now_ms));
    PGresult *res =
        store_pg_accounts_run(a,
                              "SELECT " SEEK_COLUMNS " FROM seeks WHERE game_id = '' AND expires_ms > $1::bigint"
                              " AND " ALIVE(3) " ORDER BY created_ms, id LIMIT $2::int",
                              &p, PGRES_TUPLES_OK, err, err_size);
    if (!res)
        return -1;
    int n = PQntuples(res) < max ? PQntuples(res) : max;
    for (int i = 0; i < n; i++)
        read_seek(res, i, &out[i]);
    PQclear(res);
    return n;
}

/* The answer of a query for at most one seek (res NULL: it failed): the seek into out, or not found.
 * Clears res. */
static StoreAccountResult one_seek(PGresult *res, SeekRow *out) {
    if (!res)
        return SA_FAULT;
    bool found = PQntuples(res) == 1;
    if (found)
        read_seek(res, 0, out);
    PQclear(res);
    return found ? SA_OK : SA_NOT_FOUND;
}

int store_pg_seek_count(StoreAccounts *base, const char *account, const char *address, int64_t now_ms, char *err,
                        size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, account[0] ? account : address);
    store_pg_param_int(&p, now_ms);
    store_pg_param_int(&p, alive_cutoff(now_ms));
    return store_pg_accounts_count(
        a,
        account[0] ? "SELECT count(*) FROM seeks WHERE account_key = $1 AND game_id = '' AND expires_ms > $2::bigint"
                     " AND " ALIVE(3)
                   : "SELECT count(*) FROM seeks WHERE poster_address = $1 AND account_key = '' AND game_id = ''"
                     " AND expires_ms > $2::bigint AND " ALIVE(3),
        &p, err, err_size);
}

StoreAccountResult store_pg_seek_match(StoreAccounts *base, const SeekRow *want, const SeekWindow *w,
                                       const char *account, const char *address, int64_t now_ms, SeekRow *out,
                                       char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, store_time_type_text(want->time.type));
    store_pg_param_int(&p, want->time.minutes);
    store_pg_param_int(&p, want->time.increment);
    store_pg_param_int(&p, want->time.days);
    store_pg_param_int(&p, want->rated);
    store_pg_param_int(&p, now_ms);
    store_pg_param_text(&p, account);
    store_pg_param_text(&p, address);
    store_pg_param_int(&p, want->rating);
    store_pg_param_int(&p, w->start);
    store_pg_param_int(&p, w->growth);
    store_pg_param_int(&p, w->step_ms > 0 ? w->step_ms : 1);
    store_pg_param_int(&p, w->steps);
    store_pg_param_int(&p, w->floor);
    store_pg_param_text(&p, want->id);
    store_pg_param_int(&p, alive_cutoff(now_ms));
    store_pg_param_text(&p, variant_name(want->variant));
    /* The window of a waiting seek (SeekWindow): any rating once it waited $13 steps of $12 ms, else
     * $10 + $11 a step; the asker's own ($14) when larger. */
    PGresult *res = store_pg_accounts_run(
        a,
        "SELECT " SEEK_COLUMNS " FROM seeks WHERE game_id = '' AND time_type = $1 AND minutes = $2::int"
        " AND increment = $3::int AND days = $4::int AND rated = $5::int AND expires_ms > $6::bigint"
        " AND color = 'random' AND id <> $15 AND variant = $17 AND " ALIVE(
            16) " AND ($7 = '' OR account_key <> $7)"
                " AND ($7 <> '' OR $8 = '' OR account_key <> '' OR poster_address <> $8)"
                " AND (rated = 0 OR $14::int < 0 OR abs(rating - $9::int) <= $14::int"
                "  OR $6::bigint - created_ms >= $13::bigint * $12::bigint"
                "  OR abs(rating - $9::int) <= $10::bigint + $11::bigint * (($6::bigint - created_ms) / $12::bigint))"
                " ORDER BY created_ms, id LIMIT 1",
        &p, PGRES_TUPLES_OK, err, err_size);
    return one_seek(res, out);
}

StoreAccountResult store_pg_seek_get(StoreAccounts *base, const char *id, int64_t now_ms, SeekRow *out, char *err,
                                     size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, id);
    store_pg_param_int(&p, now_ms);
    store_pg_param_int(&p, alive_cutoff(now_ms));
    PGresult *res = store_pg_accounts_run(a,
                                          "SELECT " SEEK_COLUMNS " FROM seeks WHERE id = $1 AND (game_id <> '' OR"
                                          " (expires_ms > $2::bigint AND " ALIVE(3) "))",
                                          &p, PGRES_TUPLES_OK, err, err_size);
    return one_seek(res, out);
}

StoreAccountResult store_pg_seek_cancel(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                        int64_t now_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, id);
    p_blob(&p, hash);
    store_pg_param_int(&p, now_ms);
    /* Expired ones go with it: the table holds open seeks and the accepted ones' games only. */
    PGresult *res =
        store_pg_accounts_run(a,
                              "WITH old AS (DELETE FROM seeks WHERE game_id = '' AND expires_ms <= $3::bigint"
                              "  AND id <> $1)"
                              " DELETE FROM seeks WHERE id = $1 AND secret_hash = $2 AND game_id = ''"
                              " AND expires_ms > $3::bigint",
                              &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return store_pg_affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

StoreAccountResult store_pg_seek_hold(StoreAccounts *base, const char *id, const unsigned char hash[STORE_HASH_LEN],
                                      int64_t now_ms, int64_t ttl_ms, char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    StorePgParams p = {.n = 0};
    store_pg_param_text(&p, id);
    p_blob(&p, hash);
    store_pg_param_int(&p, now_ms);
    store_pg_param_int(&p, ttl_ms);
    PGresult *res = store_pg_accounts_run(a,
                                          "UPDATE seeks SET expires_ms = GREATEST(expires_ms, created_ms + $4::bigint)"
                                          " WHERE id = $1 AND secret_hash = $2 AND game_id = ''"
                                          " AND expires_ms > $3::bigint",
                                          &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return store_pg_affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}

StoreAccountResult store_pg_seek_accept(StoreAccounts *base, const char *id, int64_t now_ms, int poster_color,
                                        const GameRecord *game, const char *withdraw,
                                        const unsigned char withdraw_hash[STORE_HASH_LEN], char *err, size_t err_size) {
    PgAccounts *a = (PgAccounts *)base;
    static const unsigned char no_hash[STORE_HASH_LEN];
    StorePgParams p = {.n = 0};
    store_pg_params_record(&p, game); /* $1 .. $PGP_RECORD_COUNT */
    store_pg_param_text(&p, id);
    store_pg_param_int(&p, poster_color);
    store_pg_param_int(&p, now_ms);
    store_pg_param_text(&p, withdraw ? withdraw : "");
    p_blob(&p, withdraw && withdraw[0] ? withdraw_hash : no_hash);
    store_pg_param_int(&p, alive_cutoff(now_ms));
    char sql[2200];
    /* One statement: both seeks (the accepted one, and the accepter's own one to withdraw) locked in
     * the order of their ids first (two accepters each withdrawing the seek the other accepts wait on
     * each other in turn, never in a circle), then, only when each is still open (and the own one's
     * secret is the one given), the seek taken, the own one removed and the game inserted from the
     * taken row. */
    int n = PGP_RECORD_COUNT;
    snprintf(sql, sizeof sql,
             "WITH l AS (SELECT id FROM seeks WHERE game_id = '' AND expires_ms > $%d::bigint AND (id = $%d OR"
             "  (id = $%d AND id <> $%d AND secret_hash = $%d)) AND (node = '' OR node IN (SELECT node FROM"
             "  lobby_nodes WHERE seen_ms > $%d::bigint)) ORDER BY id FOR UPDATE),"
             " ok AS (SELECT count(*) = CASE WHEN $%d = '' THEN 1 ELSE 2 END AS go FROM l),"
             " w AS (DELETE FROM seeks WHERE id = $%d AND $%d <> '' AND id IN (SELECT id FROM l)"
             "  AND (SELECT go FROM ok) RETURNING id),"
             " s AS (UPDATE seeks SET game_id = $1, poster_color = $%d::int WHERE id = $%d AND game_id = ''"
             "  AND expires_ms > $%d::bigint AND (SELECT go FROM ok) RETURNING id)"
             " INSERT INTO games (" STORE_PG_GAME_COLUMNS ", rev) SELECT $1, $2::bigint, $3::bigint, $4, $5, $6,"
             " $7::int, $8::int, $9::int, $10::bytea, $11::bytea, $12::bytea, $13::int, $14, $15, $16::int,"
             " $17::bigint, $18::bigint, $19::bigint, $20, $21::int, $22, $23, $24, $25::int, $26::int, $27::int,"
             " $28::int, $29::int, $30::int, $31::int, $32, $33::bigint, $34::bigint, $35::int, $36::int, 1 FROM s",
             n + 3, n + 1, n + 4, n + 1, n + 5, n + 6, n + 4, n + 4, n + 4, n + 2, n + 1, n + 3);
    PGresult *res = store_pg_accounts_run(a, sql, &p, PGRES_COMMAND_OK, err, err_size);
    if (!res)
        return SA_FAULT;
    return store_pg_affected(res) == 1 ? SA_OK : SA_NOT_FOUND;
}
