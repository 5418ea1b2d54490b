/* schach serve: the graceful stop (SIGTERM, docs/api.md "Draining"). Behind a load balancer a node
 * that goes away must not take anything with it that a client was promised:
 *
 *   1. The listening socket is closed at once (see close_listener), so new connections are refused:
 *      the balancer's health checks fail and its connection attempts go to other nodes; /healthz
 *      answers 503 "draining" on the connections that are still open.
 *   2. Everything in flight is finished: the changes in the store are committed and answered
 *      (service_pending_count() drops to 0), at most DRAIN_WAIT_MS. Requests that still arrive on open
 *      connections are served; every HTTP answer from now on carries Connection: close.
 *   3. Every WebSocket is closed with 1001 (going away) once its queued messages (the acks and states
 *      of step 2 among them) are written, so browsers reconnect at once, through the balancer to
 *      another node. The loop stops when they are closed and every HTTP answer is out, at most
 *      DRAIN_CLOSE_MS later.
 *
 * Anything still unanswered at the bounds is cut off like in a crash: nothing acknowledged is lost,
 * and what was not acknowledged is either committed at teardown or not done at all (a client repeats
 * a move with the same ply and is told it was a duplicate).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "http_internal.h"
#include "base/base.h"

enum {
    DRAIN_WAIT_MS = 10 * 1000, /* for the changes in the store */
    DRAIN_CLOSE_MS = 2 * 1000, /* for the WebSockets' close handshakes and the last HTTP answers */
};
/* How often the drain looks again, on a libev timer of its own: lws 4.1's timers (lws_sul) over
 * libev are not re-armed earlier when one is scheduled while a later one is pending. */
static const double DRAIN_TICK_S = 0.01;

void http_server_drain(HttpServer *srv) {
    srv->drain_requested = 1;
    /* lws_cancel_service only writes to the loop's wake-up pipe: fine from a signal handler. */
    if (srv->context)
        lws_cancel_service(srv->context);
}

static void log_count(const char *event, const char *k1, long long v1, const char *k2, long long v2, const char *k3,
                      long long v3) {
    char a[24], b[24], c[24];
    snprintf(a, sizeof a, "%lld", v1);
    snprintf(b, sizeof b, "%lld", v2);
    snprintf(c, sizeof c, "%lld", v3);
    log_event(LOG_INFO, event, k1, a, k2, b, k3, c, (char *)NULL);
}

static int pending(const struct HttpServer *srv) { return srv->service ? service_pending_count(srv->service) : 0; }

static void drain_finish(struct HttpServer *srv, bool timed_out) {
    srv->drain_phase = DRAIN_DONE;
    ev_timer_stop(srv->loop, &srv->drain_timer);
    log_event(LOG_INFO, "drained", "result", timed_out ? "timeout" : "ok", (char *)NULL);
    srv->stop = 1;
    ev_break(srv->loop, EVBREAK_ALL);
}

static void drain_tick(struct ev_loop *loop, ev_timer *w, int revents) {
    (void)loop, (void)revents;
    struct HttpServer *srv = w->data;
    int64_t now = monotonic_ms();
    if (srv->drain_phase == DRAIN_WAITING && (pending(srv) == 0 || now - srv->drain_started_ms >= DRAIN_WAIT_MS)) {
        if (pending(srv) > 0)
            log_count("drain_timeout", "pending", pending(srv), "websockets", srv->websockets, "http_busy",
                      srv->http_busy);
        srv->drain_phase = DRAIN_CLOSING;
        srv->drain_closing_ms = now;
        ws_close_all_going_away(srv);
    }
    if (srv->drain_phase == DRAIN_CLOSING) {
        bool quiet = srv->websockets == 0 && srv->http_busy == 0 && pending(srv) == 0;
        if (quiet || now - srv->drain_closing_ms >= DRAIN_CLOSE_MS) {
            drain_finish(srv, !quiet);
        }
    }
}

/* Closes the listening socket under lws's feet, soundly. lws 4.1 has no call for it: its
 * lws_context_deprecate reads the listening wsi after freeing it (the server crashed), and closing
 * the descriptor would let the next accepted connection get its number while lws still holds the
 * listening wsi under it. So an eventfd, which is never readable, takes the descriptor's place
 * (dup2 closes the socket and reuses the number in one step): the kernel refuses new connections,
 * lws waits for an accept that never comes, and closes the eventfd with its wsi at the end. */
static bool close_listener(struct HttpServer *srv) {
    if (srv->listen_fd < 0)
        return false;
    int placeholder = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (placeholder < 0)
        return false;
    bool ok = dup2(placeholder, srv->listen_fd) == srv->listen_fd;
    close(placeholder);
    return ok;
}

void http_drain_check(struct HttpServer *srv) {
    if (!srv->drain_requested || srv->drain_phase != DRAIN_NONE || !srv->context)
        return;
    srv->drain_phase = DRAIN_WAITING;
    srv->drain_started_ms = monotonic_ms();
    log_count("drain", "pending", pending(srv), "websockets", srv->websockets, "connections",
              srv->limits ? limits_connections(srv->limits) : 0);
    /* Should that fail, /healthz still says "draining", which takes the node out of the balancer. */
    if (!close_listener(srv))
        log_event(LOG_WARN, "drain_listening", "result", "still_open", (char *)NULL);
    ev_timer_init(&srv->drain_timer, drain_tick, 0., DRAIN_TICK_S);
    srv->drain_timer.data = srv;
    ev_timer_start(srv->loop, &srv->drain_timer);
}

void http_drain_stop(struct HttpServer *srv) {
    if (srv->loop)
        ev_timer_stop(srv->loop, &srv->drain_timer);
}
