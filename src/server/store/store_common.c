/* What both store backends share: choosing a backend from a --db argument, histograms for the
 * metrics, the notice list, the time_type column's text, and the tests' commit delay. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"
#include "store_accounts.h"

static bool has_prefix(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

StoreKind store_kind_of(const char *db, const char **conninfo) {
    if (has_prefix(db, "postgresql://") || has_prefix(db, "postgres://")) {
        *conninfo = db;
        return STORE_KIND_POSTGRESQL;
    }
    if (has_prefix(db, "postgresql:")) { /* postgresql:host=... dbname=... (libpq key=value pairs) */
        *conninfo = db + strlen("postgresql:");
        return STORE_KIND_POSTGRESQL;
    }
    *conninfo = has_prefix(db, "sqlite:") ? db + strlen("sqlite:") : db;
    return STORE_KIND_SQLITE;
}

Store *store_open(const char *db, const char *node, void (*wake)(void *), void *wake_ctx, char *err, size_t err_size) {
    const char *conninfo;
    if (store_kind_of(db, &conninfo) == STORE_KIND_POSTGRESQL)
        return store_pg_open(conninfo, node, wake, wake_ctx, err, err_size);
    return store_sqlite_open(conninfo, wake, wake_ctx, err, err_size);
}

void store_describe(const char *db, char *out, size_t size) {
    const char *conninfo;
    if (store_kind_of(db, &conninfo) == STORE_KIND_SQLITE || size == 0) {
        snprintf(out, size, "%s", db);
        return;
    }
    size_t n = 0;
    const char *p = db;
    const char *scheme = strstr(db, "://");
    if (scheme) {
        /* scheme://user:password@host...: the part between the first ':' after the scheme and '@' goes. */
        const char *auth = scheme + 3;
        const char *at = strchr(auth, '@');
        const char *slash = strchr(auth, '/');
        const char *colon = strchr(auth, ':');
        if (at && (!slash || at < slash) && colon && colon < at) {
            snprintf(out, size, "%.*s%s", (int)(colon - db), db, at);
        } else {
            snprintf(out, size, "%s", db);
        }
        /* ...?password=...&... */
        char *q = strstr(out, "password=");
        if (q) {
            char *end = strchr(q, '&');
            memmove(q, end ? end + 1 : q + strlen(q), strlen(end ? end + 1 : q + strlen(q)) + 1);
        }
        return;
    }
    /* key=value pairs: every password=VALUE pair is left out. */
    while (*p && n + 1 < size) {
        if (strncmp(p, "password", 8) == 0) {
            const char *eq = p + 8;
            while (*eq == ' ')
                eq++;
            if (*eq == '=') {
                eq++;
                while (*eq == ' ')
                    eq++;
                if (*eq == '\'') {
                    for (eq++; *eq && *eq != '\''; eq++)
                        if (*eq == '\\' && eq[1])
                            eq++;
                    if (*eq)
                        eq++;
                } else {
                    while (*eq && *eq != ' ')
                        eq++;
                }
                p = eq;
                continue;
            }
        }
        out[n++] = *p++;
    }
    out[n] = '\0';
}

const char *store_time_type_text(TimeType type) {
    const char *name = time_type_name(type);
    return name ? name : time_type_name(TIME_NONE);
}

TimeType store_time_type_read(const char *text) {
    TimeType type = TIME_NONE;
    time_type_of(text, &type);
    return type;
}

void store_histogram_add(StoreHistogram *h, double ms) {
    static const double bounds[STORE_HIST_BUCKETS] = STORE_HIST_BOUNDS_MS;
    int i = 0;
    while (i < STORE_HIST_BUCKETS - 1 && ms > bounds[i])
        i++;
    h->counts[i]++;
    h->count++;
    h->sum_ms += ms;
}

void store_notices_free(StoreNotice *list) {
    while (list) {
        StoreNotice *next = list->next;
        free(list);
        list = next;
    }
}

void store_test_commit_delay(void) {
    const char *v = getenv("SCHACH_STORE_COMMIT_DELAY_MS");
    long ms = v ? strtol(v, NULL, 10) : 0;
    if (ms > 0 && ms <= 60000) {
        struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&pause, NULL);
    }
}

StoreAccounts *store_accounts_open(Store *store, char *err, size_t err_size) {
    if (!store->vtbl->accounts_open) {
        snprintf(err, err_size, "%s", "this store keeps no accounts");
        return NULL;
    }
    return store->vtbl->accounts_open(store, err, err_size);
}

/* An account's games by one query of two halves, one per side: each half is answered from that side's
 * partial index (games_by_white_account, games_by_black_account), which both SQLite and PostgreSQL
 * use only when the query itself says "<> ''" (a parameter proves nothing); a game the account plays
 * on both sides comes once. select is "SELECT ... FROM games g", cond_* what else each half asks. */
void store_account_games_sql(const char *select, const char *ph, const char *cond_white, const char *cond_black,
                             const char *tail, char *out, size_t size) {
    snprintf(out, size,
             "%s WHERE account_white = %s AND account_white <> ''%s"
             " UNION ALL %s WHERE account_black = %s AND account_black <> '' AND account_white <> %s%s%s",
             select, ph, cond_white, select, ph, ph, cond_black, tail);
}

#define PLAYED_SELECT                                                                                                  \
    "SELECT id, created_ms, updated_ms, account_white, account_black, result, termination, reason, time_type,"         \
    " minutes, increment, days, rated, rating_white, rating_black, rating_diff_white, rating_diff_black,"              \
    " (SELECT count(*) FROM moves m WHERE m.game_id = g.id) FROM games g"

void store_played_sql(PlayedFilter filter, const char *ph, const char *tail, char *out, size_t size) {
    static const char finished[] = " AND result <> '' AND result <> '*'";
    const char *white = finished, *black = finished;
    switch (filter) {
        case PLAYED_WON:
            white = " AND result = '1-0'";
            black = " AND result = '0-1'";
            break;
        case PLAYED_LOST:
            white = " AND result = '0-1'";
            black = " AND result = '1-0'";
            break;
        case PLAYED_DRAWN: white = black = " AND result = '1/2-1/2'"; break;
        default: break;
    }
    store_account_games_sql(PLAYED_SELECT, ph, white, black, tail, out, size);
}

void store_playing_sql(const char *ph, const char *tail, char *out, size_t size) {
    char select[800];
    snprintf(select, sizeof select,
             "SELECT id, CASE WHEN account_white = %s THEN 0 ELSE 1 END AS side, start_fen, time_type, updated_ms,"
             " (SELECT count(*) FROM moves m WHERE m.game_id = g.id), minutes, increment, days,"
             " CASE WHEN account_white = %s THEN seat_epoch_white ELSE seat_epoch_black END,"
             " CASE WHEN account_white = %s THEN account_black ELSE account_white END, rated,"
             " CASE WHEN account_white = %s THEN rating_black ELSE rating_white END, level,"
             " CASE WHEN account_white = %s THEN provisional_black ELSE provisional_white END FROM games g",
             ph, ph, ph, ph, ph);
    store_account_games_sql(select, ph, " AND result = ''", " AND result = ''", tail, out, size);
}

void store_player_games_sql(const char *select, const char *ph, const char *tail, char *out, size_t size) {
    static const char finished[] = " AND result <> '' AND result <> '*'";
    store_account_games_sql(select, ph, finished, finished, tail, out, size);
}
