/* What both store backends share: choosing a backend from a --db argument, histograms for the
 * metrics, the notice list, and the tests' commit delay. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store.h"

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
