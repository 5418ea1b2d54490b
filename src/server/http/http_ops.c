/* schach serve: what operators and load balancers ask (docs/api.md "Health and metrics").
 *
 *   GET /healthz  200 {"status":"ok"} while the store answers; 503 {"status":"unavailable",…} when it
 *                 does not, 503 {"status":"draining"} once the node drains: the balancer takes the
 *                 node out before it goes.
 *   GET /metrics  the node's counters, gauges and histograms in Prometheus' text format (0.0.4).
 *
 * Neither is rate-limited (a balancer checks every second, a scraper every few seconds, both from one
 * address) nor logged; both answer GET and HEAD only, with Cache-Control: no-store. The store's ping
 * may take a round trip on the loop's thread, so /healthz asks it at most every HEALTH_CACHE_MS
 * whatever the number of checks; /metrics never pings when the store keeps statistics.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_internal.h"
#include "base/base.h"

enum { HEALTH_CACHE_MS = 250 };

/* ---- the store, whichever backend (a backend without ping or stats counts as up) ------------------ */

static bool store_up(Store *s) { return !s->vtbl->ping || store_ping(s); }

static void store_stats_of(Store *s, StoreStats *out) {
    memset(out, 0, sizeof *out);
    if (s->vtbl->stats) {
        store_stats(s, out);
    } else {
        out->connected = store_up(s);
    }
    if (!out->backend)
        out->backend = "unknown";
}

/* ---- /healthz ------------------------------------------------------------------------------------ */

static void health(HttpConn *c) {
    struct HttpServer *srv = c->srv;
    static const char ok[] = "{\"status\":\"ok\"}";
    static const char draining[] = "{\"status\":\"draining\"}";
    static const char down[] = "{\"status\":\"unavailable\",\"reason\":\"store\"}";
    if (http_draining(srv)) {
        http_set_response(c, 503, "application/json", draining, sizeof draining - 1);
        return;
    }
    if (!srv->service) {
        http_error(c, 500, "internal");
        return;
    }
    int64_t now = monotonic_ms();
    if (srv->health_checked_ms == 0 || now - srv->health_checked_ms >= HEALTH_CACHE_MS) {
        srv->health_ok = store_up(service_store(srv->service));
        srv->health_checked_ms = now;
    }
    if (srv->health_ok)
        http_set_response(c, 200, "application/json", ok, sizeof ok - 1);
    else
        http_set_response(c, 503, "application/json", down, sizeof down - 1);
}

/* ---- /metrics ------------------------------------------------------------------------------------ */

typedef struct Text {
    char *buf;
    size_t len, cap;
    bool failed; /* out of memory */
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(Text *t, const char *fmt, ...) {
    if (t->failed)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf ? t->buf + t->len : NULL, t->buf ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->buf && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap ? t->cap * 2 : 8192;
        while (cap < t->len + (size_t)n + 1)
            cap *= 2;
        char *b = realloc(t->buf, cap);
        if (!b) {
            t->failed = true;
            return;
        }
        t->buf = b;
        t->cap = cap;
    }
}

static void head(Text *t, const char *name, const char *type, const char *help) {
    put(t, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void counter(Text *t, const char *name, const char *help, uint64_t v) {
    head(t, name, "counter", help);
    put(t, "%s %" PRIu64 "\n", name, v);
}

static void gauge(Text *t, const char *name, const char *help, long long v) {
    head(t, name, "gauge", help);
    put(t, "%s %lld\n", name, v);
}

/* A histogram of milliseconds, in seconds: cumulative buckets up to each bound, +Inf (the count),
 * the sum and the count. */
static void histogram(Text *t, const char *name, const char *help, const StoreHistogram *h) {
    static const double bounds[STORE_HIST_BUCKETS] = STORE_HIST_BOUNDS_MS;
    head(t, name, "histogram", help);
    uint64_t below = 0;
    for (int i = 0; i < STORE_HIST_BUCKETS && bounds[i] >= 0; i++) {
        below += h->counts[i];
        put(t, "%s_bucket{le=\"%g\"} %" PRIu64 "\n", name, bounds[i] / 1000.0, below);
    }
    put(t, "%s_bucket{le=\"+Inf\"} %" PRIu64 "\n", name, h->count);
    put(t, "%s_sum %.9g\n%s_count %" PRIu64 "\n", name, h->sum_ms / 1000.0, name, h->count);
}

static void render_service(Text *t, const struct HttpServer *srv) {
    ServiceMetrics m;
    ServiceStats st;
    service_metrics(srv->service, &m);
    service_stats(srv->service, &st);
    counter(t, "schach_moves_committed_total", "Moves (people's and the computer's) committed by this node.",
            m.moves_committed);
    counter(t, "schach_changes_committed_total", "Changes of games committed by this node, moves included.",
            m.changes_committed);
    counter(t, "schach_conflicts_total", "Changes another node committed first (409 stale_ply, or a timer's no-op).",
            m.conflicts);
    counter(t, "schach_refreshes_total", "Games read again because the database was ahead of the copy in memory.",
            m.refreshes);
    counter(t, "schach_notices_total", "Announcements of other nodes' commits handled.", m.notices);
    histogram(t, "schach_move_latency_seconds", "A person's move from its arrival to its commit.", &m.move_ms);
    gauge(t, "schach_pending_changes", "Changes handed to the store and not yet back.",
          service_pending_count(srv->service));
    gauge(t, "schach_games_in_memory", "Games in memory: in play, plus cached finished games.", st.games_in_memory);
    gauge(t, "schach_games_in_play", "Games in play in memory.", st.games_in_play);
    gauge(t, "schach_subscriptions", "WebSocket subscriptions to games.", st.subscriptions);
}

static void render_store(Text *t, Store *store) {
    StoreStats s;
    store_stats_of(store, &s);
    head(t, "schach_store_info", "gauge", "The store's backend.");
    put(t, "schach_store_info{backend=\"%s\"} 1\n", s.backend);
    gauge(t, "schach_store_up", "1 while the database answers.", s.connected ? 1 : 0);
    gauge(t, "schach_store_queue_depth", "Writes submitted and not yet in a batch.", (long long)s.queue_depth);
    counter(t, "schach_store_batches_total", "Transactions committed.", s.batches);
    counter(t, "schach_store_ops_committed_total", "Writes committed.", s.ops_committed);
    counter(t, "schach_store_ops_failed_total", "Writes that failed, conflicts included.", s.ops_failed);
    counter(t, "schach_store_conflicts_total", "Writes refused because another node changed the game first.",
            s.conflicts);
    counter(t, "schach_store_notices_total", "Announcements of other nodes' commits received.", s.notices);
    counter(t, "schach_store_reconnects_total", "Connections to the database opened again after a loss.", s.reconnects);
    histogram(t, "schach_store_commit_seconds", "Time of each batch's transaction.", &s.commit_ms);
    histogram(t, "schach_notify_lag_seconds", "From another node's commit to its announcement arriving here.",
              &s.notice_lag_ms);
}

static void metrics(HttpConn *c) {
    struct HttpServer *srv = c->srv;
    if (!srv->service) {
        http_error(c, 500, "internal");
        return;
    }
    Text t = {0};
    render_service(&t, srv);
    int connections = srv->limits ? limits_connections(srv->limits) : 0;
    gauge(&t, "schach_http_connections", "Open client connections speaking HTTP (WebSockets not included).",
          connections > srv->websockets ? connections - srv->websockets : 0);
    gauge(&t, "schach_websockets", "Open WebSockets.", srv->websockets);
    gauge(&t, "schach_draining", "1 once the node drains (SIGTERM).", http_draining(srv) ? 1 : 0);
    render_store(&t, service_store(srv->service));
    if (srv->accounts) {
        AccountsAnalysisMetrics am;
        accounts_analysis_metrics(srv->accounts, &am);
        counter(&t, "schach_analyses_done_total", "Game analyses this node ran to the end.", am.done);
        gauge(&t, "schach_analyses_waiting", "Game analyses running or queued on this node.", am.waiting);
    }
    if (t.failed)
        http_error(c, 500, "internal");
    else
        http_set_response(c, 200, "text/plain; version=0.0.4; charset=utf-8", t.buf, t.len);
    free(t.buf);
}

bool http_ops(HttpConn *c, int method, const char *path, long body_length) {
    bool is_health = !strcmp(path, "/healthz"), is_metrics = !strcmp(path, "/metrics");
    if (!is_health && !is_metrics)
        return false;
    c->ops = true;
    if ((method != LWSHUMETH_GET && method != LWSHUMETH_HEAD) || body_length > 0) {
        c->allow_get = true;
        c->route_status = 405;
        c->route_code = "method";
        c->post = body_length > 0;
        if (!c->post)
            http_error(c, 405, "method"); /* with a body: answered once it is drained */
        return true;
    }
    if (is_health)
        health(c);
    else
        metrics(c);
    return true;
}
