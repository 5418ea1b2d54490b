/* schach serve: the libwebsockets front end of the game service (docs/api.md).
 *
 * One lws context with one vhost and one service thread (the caller of http_server_run). Protocol 0
 * ("http") serves the mounts: static files from the web folder, chessground from its npm folder, and
 * callback mounts for /api (mapped to service requests) and /g/<id> (the single-page app's index).
 * Protocol 1 ("schach") is the WebSocket; it is also the vhost's default so a client that names no
 * subprotocol is served too.
 *
 * Replies of the service may come later than the request (after the store committed): each
 * connection keeps its state in lws's per-session data, and every write happens in a writeable
 * callback, one lws_write per callback.
 */
#define _POSIX_C_SOURCE 200809L

#include "http_server.h"

#include <errno.h>
#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "schach/engine.h"
#include "service.h"
#include "store.h"

#ifndef SCHACH_WEB_DIR
#define SCHACH_WEB_DIR "web"
#endif

enum {
    MAX_REQUEST = 16 * 1024,      /* HTTP bodies and WebSocket messages (docs/api.md) */
    MAX_DRAIN = 1024 * 1024,      /* larger declared bodies are refused at once and the socket closed */
    WRITE_CHUNK = 16 * 1024,      /* HTTP body bytes per writeable callback */
    WS_RX_BUFFER = 4096,          /* lws hands WebSocket input over in pieces of at most this */
    WS_QUEUE_MAX_MSGS = 256,      /* a client this far behind is dropped ... */
    WS_QUEUE_MAX_BYTES = 4 << 20, /* ... or holding this much unsent data */
    WS_MAX_SUBS = 64,             /* games one connection may watch at once */
    WS_MAX_PENDING = 64,          /* changes one connection may have waiting for their commit */
    QUERY_MAX = 4096,
    PATH_BUF = 256,
};

/* ---- per-connection state -------------------------------------------------------------------- */

typedef struct HttpServer HttpServer;

typedef struct HttpConn {
    HttpServer *srv;
    struct lws *wsi;
    /* the request */
    bool api;         /* under /api: no-store, JSON errors */
    bool post;        /* waits for the body before it is handled */
    int route_status; /* != 0: answer with this error once the body is in */
    const char *route_code;
    ServiceAction action;
    char game[STORE_ID_LEN + 1];
    char *ids;       /* list: the ids= query argument */
    bool lang_fixed; /* ?lang= given: it beats a "lang" in the body */
    Lang lang;
    char *body; /* MAX_REQUEST + 1 bytes once a body arrives */
    size_t body_len;
    bool too_large;
    /* waiting for the service */
    bool waiting;
    bool in_handle; /* inside service_handle: the reply may come synchronously */
    uint64_t ticket;
    /* the response */
    bool ready;
    bool headers_sent;
    bool close_after;
    int status;
    char content_type[64];
    unsigned char *resp; /* LWS_PRE headroom + resp_len bytes */
    size_t resp_len, resp_off;
} HttpConn;

typedef struct WsMsg {
    struct WsMsg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE + len */
} WsMsg;

typedef struct WsConn WsConn;

/* A WebSocket change waiting for the service's reply. */
typedef struct WsPending {
    struct WsPending *next;
    WsConn *conn;
    json_t *id; /* the request's "id", echoed in the answer; may be NULL */
    char game[STORE_ID_LEN + 1];
    uint64_t ticket;
    bool in_handle;
    bool done;
} WsPending;

typedef struct WsSub {
    uint64_t id;
    char game[STORE_ID_LEN + 1];
} WsSub;

struct WsConn {
    HttpServer *srv;
    struct lws *wsi;
    Lang lang;
    bool open;
    bool dead;        /* dropped (too slow): nothing more is queued, the next writeable closes */
    bool close_after; /* close once the queue is written (after a too_large error) */
    bool closing;     /* close reason set: the next writeable returns -1 */
    WsMsg *head, *tail;
    size_t queued_bytes;
    int queued_msgs;
    char *rx; /* the message being reassembled (MAX_REQUEST bytes) */
    size_t rx_len;
    bool in_message, rx_binary, rx_skip;
    WsSub *subs;
    int nsubs;
    WsPending *pending;
    int npending;
};

struct HttpServer {
    struct lws_context *context;
    /* The event loop under lws: libev's epoll. lws's own loop calls poll() over every open connection
     * on every wake-up, which was 45% of the server's CPU at 1,000 WebSockets. (Not libuv: Debian's
     * lws 4.1.6 is a debug build that, on libuv only, closes a connection twice and so drops the
     * close frame of a connection the server closes.) */
    struct ev_loop *loop;
    struct lws_vhost *vhost;
    Store *store;
    Service *service;
    lws_sorted_usec_list_t timer;
    pthread_mutex_t wake_lock;
    struct lws_context *wake_context; /* under wake_lock: NULL once the context is going away */
    volatile sig_atomic_t stop;
    int port;
    char web_dir[PATH_MAX];
    char vendor_dir[PATH_MAX];
    char index_path[PATH_MAX];
    struct lws_protocols protocols[3];
    struct lws_protocol_vhost_options pvo_default, pvo_schach;
    struct lws_protocol_vhost_options mime[7];
    struct lws_http_mount mounts[4];
};

/* ---- messages of the transport itself --------------------------------------------------------- */

static const struct {
    const char *key;
    const char *code;
    const char *en;
    const char *de;
} local_messages[] = {
    {"bad_json", "bad_json", "The request is not a JSON object.", "Die Anfrage ist kein JSON-Objekt."},
    {"binary", "bad_json", "Binary messages are not accepted; send JSON text.",
     "Binäre Nachrichten werden nicht angenommen; bitte JSON-Text senden."},
    {"too_large", "too_large", "The request is larger than 16 KiB.", "Die Anfrage ist größer als 16 KiB."},
    {"no_path", "not_found", "There is nothing at this address.", "Unter dieser Adresse gibt es nichts."},
    {"no_game", "not_found", "There is no game with this id.", "Eine Partie mit dieser Kennung gibt es nicht."},
    {"method", "method_not_allowed", "This method is not allowed for this address.",
     "Diese Methode ist für diese Adresse nicht erlaubt."},
    {"type", "bad_request", "The member \"type\" is missing or unknown.",
     "Das Feld \"type\" fehlt oder ist unbekannt."},
    {"game", "bad_request", "The member \"game\" is missing or not a game id.",
     "Das Feld \"game\" fehlt oder ist keine Partiekennung."},
    {"subs", "bad_request", "Too many subscriptions on this connection.",
     "Zu viele Abonnements auf dieser Verbindung."},
    {"pending", "busy", "Too many requests are waiting; try again.",
     "Zu viele Anfragen warten; bitte erneut versuchen."},
    {"internal", "storage", "The server ran out of memory; nothing changed.",
     "Dem Server fehlt Speicher; nichts wurde geändert."},
};

static void local_message(const char *key, Lang lang, const char **code, const char **text) {
    for (size_t i = 0; i < sizeof local_messages / sizeof local_messages[0]; i++)
        if (!strcmp(local_messages[i].key, key)) {
            *code = local_messages[i].code;
            *text = lang == LANG_DE ? local_messages[i].de : local_messages[i].en;
            return;
        }
    *code = "bad_request";
    *text = key;
}

/* {"error":{"code":…,"message":…}} for a local message key, or NULL when out of memory. */
static json_t *error_object(const char *key, Lang lang) {
    const char *code, *text;
    local_message(key, lang, &code, &text);
    return json_pack("{s:s,s:s}", "code", code, "message", text);
}

/* ---- helpers ---------------------------------------------------------------------------------- */

static bool valid_game_id(const char *s, size_t n) {
    if (n == 0 || n > STORE_ID_LEN)
        return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
            return false;
    }
    return true;
}

static bool parse_lang_word(const char *s, Lang *out) {
    if (!strcasecmp(s, "de")) {
        *out = LANG_DE;
        return true;
    }
    if (!strcasecmp(s, "en")) {
        *out = LANG_EN;
        return true;
    }
    return false;
}

/* The preferred of German and English in an Accept-Language header ("de-DE,de;q=0.9,en;q=0.8");
 * English when it names neither. Ties go to the earlier entry, as the header lists them by taste. */
static Lang lang_from_accept(const char *h) {
    Lang best = LANG_EN;
    double best_q = -1.0;
    while (*h) {
        const char *end = strchr(h, ',');
        size_t n = end ? (size_t)(end - h) : strlen(h);
        char item[64];
        if (n < sizeof item) {
            memcpy(item, h, n);
            item[n] = '\0';
            char *p = item;
            while (*p == ' ' || *p == '\t')
                p++;
            double q = 1.0;
            char *semi = strchr(p, ';');
            if (semi) {
                *semi = '\0';
                char *qp = strstr(semi + 1, "q=");
                if (qp)
                    q = strtod(qp + 2, NULL);
            }
            char *dash = strchr(p, '-');
            if (dash)
                *dash = '\0';
            size_t len = strlen(p);
            while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
                p[--len] = '\0';
            Lang l;
            if (parse_lang_word(p, &l) && q > best_q) {
                best = l;
                best_q = q;
            }
        }
        if (!end)
            break;
        h = end + 1;
    }
    return best;
}

/* The language of a request: ?lang= wins (then *fixed is true), else Accept-Language, else English. */
static Lang request_lang(struct lws *wsi, bool *fixed) {
    char buf[32];
    Lang l;
    *fixed = false;
    const char *v = lws_get_urlarg_by_name(wsi, "lang=", buf, (int)sizeof buf);
    if (v && parse_lang_word(v, &l)) {
        *fixed = true;
        return l;
    }
    int n = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_ACCEPT_LANGUAGE);
    if (n > 0 && n < 512) {
        char h[512];
        if (lws_hdr_copy(wsi, h, (int)sizeof h, WSI_TOKEN_HTTP_ACCEPT_LANGUAGE) > 0)
            return lang_from_accept(h);
    }
    return LANG_EN;
}

/* ---- timers and wake-ups ---------------------------------------------------------------------- */

static void schedule_timer(HttpServer *srv);

static void timer_fired(lws_sorted_usec_list_t *sul) {
    HttpServer *srv = (HttpServer *)(void *)((char *)sul - offsetof(HttpServer, timer));
    if (srv->service)
        service_on_timer(srv->service);
    schedule_timer(srv);
}

/* Every change may move the next clock deadline: called after each request, wake and timer. */
static void schedule_timer(HttpServer *srv) {
    if (!srv->service || !srv->context)
        return;
    int64_t ms = service_next_timer_ms(srv->service);
    if (ms < 0) {
        lws_sul_cancel(&srv->timer);
        return;
    }
    lws_sul_schedule(srv->context, 0, &srv->timer, timer_fired, (lws_usec_t)ms * 1000);
}

/* The store's writer thread calls this after each batch: only lws_cancel_service may cross threads. */
static void server_wake(void *ctx) {
    HttpServer *srv = ctx;
    pthread_mutex_lock(&srv->wake_lock);
    if (srv->wake_context)
        lws_cancel_service(srv->wake_context);
    pthread_mutex_unlock(&srv->wake_lock);
}

/* ---- HTTP ------------------------------------------------------------------------------------- */

static void http_reset(HttpConn *c) {
    if (c->waiting && c->srv && c->srv->service)
        service_cancel(c->srv->service, c->ticket);
    free(c->ids);
    free(c->body);
    free(c->resp);
    HttpServer *srv = c->srv;
    struct lws *wsi = c->wsi;
    memset(c, 0, sizeof *c);
    c->srv = srv;
    c->wsi = wsi;
}

/* Takes over a response (copies body) and asks for a writeable callback to send it. */
static void http_set_response(HttpConn *c, int status, const char *content_type, const char *body, size_t len) {
    free(c->resp);
    c->resp = malloc(LWS_PRE + len + 1);
    if (!c->resp) {
        /* Nothing sensible can be sent: close the connection. */
        c->close_after = true;
        len = 0;
        c->resp = malloc(LWS_PRE + 1);
        status = 500;
    }
    if (c->resp && len)
        memcpy(c->resp + LWS_PRE, body, len);
    c->resp_len = c->resp ? len : 0;
    c->resp_off = 0;
    c->status = status;
    snprintf(c->content_type, sizeof c->content_type, "%s", content_type);
    c->ready = true;
    c->headers_sent = false;
    lws_callback_on_writable(c->wsi);
}

static void http_error(HttpConn *c, int status, const char *key) {
    if (!c->api) {
        const char *code, *text;
        local_message(key, c->lang, &code, &text);
        http_set_response(c, status, "text/plain; charset=utf-8", text, strlen(text));
        return;
    }
    json_t *err = error_object(key, c->lang);
    json_t *o = err ? json_pack("{s:o}", "error", err) : NULL;
    char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
    static const char fallback[] = "{\"error\":{\"code\":\"storage\",\"message\":\"out of memory\"}}";
    if (s)
        http_set_response(c, status, "application/json", s, strlen(s));
    else
        http_set_response(c, 500, "application/json", fallback, sizeof fallback - 1);
    free(s);
    json_decref(o);
}

static void http_reply(void *ctx, const ServiceAnswer *a) {
    HttpConn *c = ctx;
    c->waiting = false;
    c->ticket = 0;
    http_set_response(c, a->status, a->content_type ? a->content_type : "application/json", a->body, a->len);
}

/* With ?lang= the query beats the body's "lang" (docs/api.md): the body's member is overwritten.
 * Returns a new body to free, or NULL to keep the original. */
static char *body_with_lang(const HttpConn *c) {
    if (!c->lang_fixed || !c->body)
        return NULL;
    json_t *o = json_loadb(c->body, c->body_len, 0, NULL);
    char *out = NULL;
    if (json_is_object(o) && json_object_get(o, "lang")) {
        json_object_set_new(o, "lang", json_string(c->lang == LANG_DE ? "de" : "en"));
        out = json_dumps(o, JSON_COMPACT);
    }
    json_decref(o);
    return out;
}

static void http_dispatch(HttpConn *c) {
    HttpServer *srv = c->srv;
    if (!srv->service) {
        http_error(c, 500, "internal");
        return;
    }
    char *rewritten = body_with_lang(c);
    ServiceRequest req = {
        .action = c->action,
        .game = c->game[0] ? c->game : NULL,
        .body = rewritten ? rewritten
                : c->body ? c->body
                          : (c->post ? "" : NULL),
        .ids = c->ids,
        .lang = c->lang,
    };
    c->waiting = true;
    c->in_handle = true;
    uint64_t ticket = service_handle(srv->service, &req, http_reply, c);
    c->in_handle = false;
    if (c->waiting)
        c->ticket = ticket;
    free(rewritten);
    schedule_timer(srv);
}

/* Maps method and path under /api to an action; fills route_status/route_code when there is none. */
static void http_route(HttpConn *c, int method, const char *path) {
    bool get = method == LWSHUMETH_GET, post = method == LWSHUMETH_POST;
    c->post = post;
    const char *rest = path + strlen("/api/");
    if (strncmp(path, "/api/", 5) != 0) {
        c->route_status = 404, c->route_code = "no_path";
        return;
    }
    if (!strcmp(rest, "levels")) {
        if (get)
            c->action = ACTION_LEVELS;
        else
            c->route_status = 405, c->route_code = "method";
        return;
    }
    if (!strcmp(rest, "recent")) {
        if (get)
            c->action = ACTION_RECENT;
        else
            c->route_status = 405, c->route_code = "method";
        return;
    }
    if (!strcmp(rest, "games")) {
        if (get)
            c->action = ACTION_LIST;
        else if (post)
            c->action = ACTION_CREATE;
        else
            c->route_status = 405, c->route_code = "method";
        return;
    }
    if (strncmp(rest, "games/", 6) != 0) {
        c->route_status = 404, c->route_code = "no_path";
        return;
    }
    const char *id = rest + 6;
    const char *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    const char *verb = slash ? slash + 1 : NULL;
    static const struct {
        const char *verb;
        ServiceAction action;
        bool post;
    } verbs[] = {
        {"join", ACTION_JOIN, true},   {"move", ACTION_MOVE, true},     {"draw", ACTION_DRAW, true},
        {"claim", ACTION_CLAIM, true}, {"resign", ACTION_RESIGN, true}, {"abort", ACTION_ABORT, true},
        {"pgn", ACTION_PGN, false},
    };
    int found = -1;
    if (verb)
        for (int i = 0; i < (int)(sizeof verbs / sizeof verbs[0]); i++)
            if (!strcmp(verb, verbs[i].verb))
                found = i;
    if (verb && found < 0) {
        c->route_status = 404, c->route_code = "no_path";
        return;
    }
    bool want_post = verb ? verbs[found].post : false;
    if ((want_post && !post) || (!want_post && !get)) {
        c->route_status = 405, c->route_code = "method";
        return;
    }
    if (!valid_game_id(id, idlen)) {
        c->route_status = 404, c->route_code = "no_game";
        return;
    }
    memcpy(c->game, id, idlen);
    c->game[idlen] = '\0';
    c->action = verb ? verbs[found].action : ACTION_STATE;
}

static long declared_length(struct lws *wsi) {
    char buf[32];
    if (lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0 ||
        lws_hdr_copy(wsi, buf, (int)sizeof buf, WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0)
        return -1;
    char *end;
    errno = 0;
    long n = strtol(buf, &end, 10);
    if (errno || *end || n < 0)
        return LONG_MAX;
    return n;
}

static int http_serve_index(HttpConn *c, struct lws *wsi) {
    int n = lws_serve_http_file(wsi, c->srv->index_path, "text/html", NULL, 0);
    if (n < 0 || (n > 0 && lws_http_transaction_completed(wsi)))
        return -1;
    return 0;
}

static int http_begin(HttpServer *srv, HttpConn *c, struct lws *wsi) {
    c->srv = srv;
    c->wsi = wsi;
    http_reset(c);
    char *uri = NULL;
    int ulen = 0;
    int method = lws_http_get_uri_and_method(wsi, &uri, &ulen);
    char path[PATH_BUF];
    if (method < 0 || !uri || ulen <= 0 || ulen >= (int)sizeof path) {
        c->api = true;
        http_error(c, 404, "no_path");
        return 0;
    }
    memcpy(path, uri, (size_t)ulen);
    path[ulen] = '\0';
    c->lang = request_lang(wsi, &c->lang_fixed);

    if (!strncmp(path, "/g/", 3)) {
        if (method == LWSHUMETH_GET)
            return http_serve_index(c, wsi);
        c->api = true;
        http_error(c, 405, "method");
        return 0;
    }
    c->api = !strncmp(path, "/api/", 5) || !strcmp(path, "/api");
    http_route(c, method, path);
    if (c->action == ACTION_LIST && !c->route_status) {
        c->ids = malloc(QUERY_MAX);
        const char *v = c->ids ? lws_get_urlarg_by_name(wsi, "ids=", c->ids, QUERY_MAX) : NULL;
        if (v) {
            memmove(c->ids, v, strlen(v) + 1); /* lws leaves "ids=" in front */
        } else {
            free(c->ids);
            c->ids = NULL;
        }
    }
    if (c->post) {
        long n = declared_length(wsi);
        if (n > MAX_DRAIN) {
            /* Not worth reading: answer and close. */
            c->close_after = true;
            http_error(c, 413, "too_large");
            return 0;
        }
        if (n > 0)
            return 0; /* the body comes in LWS_CALLBACK_HTTP_BODY */
    }
    if (c->route_status)
        http_error(c, c->route_status, c->route_code);
    else
        http_dispatch(c);
    return 0;
}

static int http_body(HttpConn *c, const void *in, size_t len) {
    if (c->too_large || c->route_status || len == 0)
        return 0; /* drained: the answer does not depend on it */
    if (c->body_len + len > MAX_REQUEST) {
        c->too_large = true;
        return 0;
    }
    if (!c->body) {
        c->body = malloc(MAX_REQUEST + 1);
        if (!c->body)
            return -1;
    }
    memcpy(c->body + c->body_len, in, len);
    c->body_len += len;
    c->body[c->body_len] = '\0';
    return 0;
}

static int http_body_done(HttpConn *c) {
    if (c->too_large)
        http_error(c, 413, "too_large");
    else if (c->route_status)
        http_error(c, c->route_status, c->route_code);
    else
        http_dispatch(c);
    return 0;
}

static int http_writeable(HttpConn *c, struct lws *wsi) {
    if (!c->ready)
        return 0;
    if (!c->headers_sent) {
        unsigned char buf[LWS_PRE + 1024];
        unsigned char *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf - 1;
        if (lws_add_http_common_headers(wsi, (unsigned)c->status, c->content_type, (lws_filepos_t)c->resp_len, &p, end))
            return -1;
        if (c->api && lws_add_http_header_by_name(
                          wsi, (const unsigned char *)"cache-control:", (const unsigned char *)"no-store", 8, &p, end))
            return -1;
        if (c->action == ACTION_PGN && c->status == 200) {
            char disp[80];
            int n = snprintf(disp, sizeof disp, "attachment; filename=\"schach-%s.pgn\"", c->game);
            if (lws_add_http_header_by_name(
                    wsi, (const unsigned char *)"content-disposition:", (const unsigned char *)disp, n, &p, end))
                return -1;
        }
        if (c->close_after && lws_add_http_header_by_name(wsi, (const unsigned char *)"connection:",
                                                          (const unsigned char *)"close", 5, &p, end))
            return -1;
        if (lws_finalize_write_http_header(wsi, start, &p, end))
            return -1;
        c->headers_sent = true;
        if (c->resp_len > 0) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    } else {
        size_t n = c->resp_len - c->resp_off;
        if (n > WRITE_CHUNK)
            n = WRITE_CHUNK;
        bool last = c->resp_off + n == c->resp_len;
        if (lws_write(wsi, c->resp + LWS_PRE + c->resp_off, n, last ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
            return -1;
        c->resp_off += n;
        if (!last) {
            lws_callback_on_writable(wsi);
            return 0;
        }
    }
    bool close = c->close_after;
    http_reset(c);
    if (close || lws_http_transaction_completed(wsi))
        return -1;
    return 0;
}

static int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    HttpServer *srv = ctx ? lws_context_user(ctx) : NULL;
    HttpConn *c = user;
    switch (reason) {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            if (srv && srv->stop) {
                ev_break(srv->loop, EVBREAK_ALL);
                return 0;
            }
            if (srv && srv->service) {
                service_on_wake(srv->service);
                schedule_timer(srv);
            }
            return 0;
        case LWS_CALLBACK_HTTP:
            if (!c || !srv)
                return -1;
            return http_begin(srv, c, wsi);
        case LWS_CALLBACK_HTTP_BODY: return c ? http_body(c, in, len) : -1;
        case LWS_CALLBACK_HTTP_BODY_COMPLETION: return c ? http_body_done(c) : -1;
        case LWS_CALLBACK_HTTP_WRITEABLE:
            if (c && c->ready)
                return http_writeable(c, wsi);
            break;
        case LWS_CALLBACK_CLOSED_HTTP:
        case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
            if (c && c->srv)
                http_reset(c);
            break;
        default: break;
    }
    return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/* ---- WebSocket -------------------------------------------------------------------------------- */

static void ws_free_queue(WsConn *c) {
    while (c->head) {
        WsMsg *m = c->head;
        c->head = m->next;
        free(m);
    }
    c->tail = NULL;
    c->queued_bytes = 0;
    c->queued_msgs = 0;
}

/* Queues one text message. A client that lets too much pile up is dropped: its queue is freed and
 * the next writeable callback closes it. */
static void ws_enqueue(WsConn *c, const char *text, size_t len) {
    if (!c->open || c->dead || c->closing)
        return;
    if (c->queued_msgs >= WS_QUEUE_MAX_MSGS || c->queued_bytes + len > WS_QUEUE_MAX_BYTES) {
        c->dead = true;
        ws_free_queue(c);
        lws_callback_on_writable(c->wsi);
        return;
    }
    WsMsg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m) {
        c->dead = true;
        lws_callback_on_writable(c->wsi);
        return;
    }
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued_bytes += len;
    c->queued_msgs++;
    lws_callback_on_writable(c->wsi);
}

/* Queues obj (and releases it). */
static void ws_send_json(WsConn *c, json_t *obj) {
    char *s = obj ? json_dumps(obj, JSON_COMPACT) : NULL;
    if (s)
        ws_enqueue(c, s, strlen(s));
    free(s);
    json_decref(obj);
}

/* {"type":"error","id":…,"error":err}; takes err's reference; id is borrowed and may be NULL. */
static void ws_send_error_object(WsConn *c, json_t *id, json_t *err) {
    json_t *o = json_pack("{s:s,s:o}", "type", "error", "error", err ? err : json_object());
    if (o && id)
        json_object_set(o, "id", id);
    ws_send_json(c, o);
}

static void ws_send_error(WsConn *c, json_t *id, const char *key) {
    ws_send_error_object(c, id, error_object(key, c->lang));
}

static void ws_event(void *ctx, const char *json, size_t len) { ws_enqueue(ctx, json, len); }

static void ws_pending_unlink(WsConn *c, WsPending *p) {
    for (WsPending **pp = &c->pending; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            c->npending--;
            break;
        }
    json_decref(p->id);
    free(p);
}

/* The service answered a change: ack with the new ply, or the error as the service worded it. */
static void ws_reply(void *ctx, const ServiceAnswer *a) {
    WsPending *p = ctx;
    WsConn *c = p->conn;
    if (a->status >= 200 && a->status < 300) {
        /* The acknowledgement from the answer's facts: the state itself reaches this connection as a
         * subscriber, so its body is not parsed here (that was a third of the loop's time). */
        json_t *o = json_pack("{s:s,s:s}", "type", "ack", "game", p->game);
        if (o) {
            if (p->id)
                json_object_set(o, "id", p->id);
            if (a->ply >= 0)
                json_object_set_new(o, "ply", json_integer(a->ply));
            if (a->duplicate)
                json_object_set_new(o, "duplicate", json_true());
            if (a->claim_rejected)
                json_object_set_new(o, "claim_rejected", json_true());
        }
        ws_send_json(c, o);
    } else {
        json_t *r = json_loadb(a->body, a->len, 0, NULL);
        json_t *err = json_object_get(r, "error");
        if (json_is_object(err))
            ws_send_error_object(c, p->id, json_incref(err));
        else
            ws_send_error(c, p->id, "internal");
        json_decref(r);
    }
    p->done = true;
    if (!p->in_handle)
        ws_pending_unlink(c, p);
}

static void ws_unsubscribe(WsConn *c, const char *game) {
    for (int i = 0; i < c->nsubs; i++)
        if (!strcmp(c->subs[i].game, game)) {
            service_unsubscribe(c->srv->service, c->subs[i].id);
            c->subs[i] = c->subs[--c->nsubs];
            return;
        }
}

static void ws_subscribe(WsConn *c, json_t *id, const char *game) {
    ws_unsubscribe(c, game); /* subscribing again sends the full state again */
    if (c->nsubs >= WS_MAX_SUBS) {
        ws_send_error(c, id, "subs");
        return;
    }
    if (!c->subs) {
        c->subs = malloc(WS_MAX_SUBS * sizeof *c->subs);
        if (!c->subs) {
            ws_send_error(c, id, "internal");
            return;
        }
    }
    WsSub *s = &c->subs[c->nsubs];
    snprintf(s->game, sizeof s->game, "%s", game);
    s->id = service_subscribe(c->srv->service, game, ws_event, c);
    if (!s->id) {
        ws_send_error(c, id, "no_game");
        return;
    }
    c->nsubs++;
}

static void ws_change(WsConn *c, json_t *msg, json_t *id, ServiceAction action, const char *game) {
    if (c->npending >= WS_MAX_PENDING) {
        ws_send_error(c, id, "pending");
        return;
    }
    /* The body is the message without the envelope; the service validates it strictly. */
    json_t *body = json_copy(msg);
    json_object_del(body, "type");
    json_object_del(body, "game");
    json_object_del(body, "id");
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    WsPending *p = text ? calloc(1, sizeof *p) : NULL;
    if (!p) {
        free(text);
        ws_send_error(c, id, "internal");
        return;
    }
    p->conn = c;
    p->id = id ? json_incref(id) : NULL;
    snprintf(p->game, sizeof p->game, "%s", game);
    p->next = c->pending;
    c->pending = p;
    c->npending++;
    ServiceRequest req = {.action = action, .game = p->game, .body = text, .ids = NULL, .lang = c->lang};
    p->in_handle = true;
    uint64_t ticket = c->srv->service ? service_handle(c->srv->service, &req, ws_reply, p) : 0;
    p->in_handle = false;
    free(text);
    if (!ticket && !p->done) {
        ws_send_error(c, id, "internal");
        p->done = true;
    }
    if (p->done)
        ws_pending_unlink(c, p);
    else
        p->ticket = ticket;
    schedule_timer(c->srv);
}

static void ws_message(WsConn *c, const char *text, size_t len) {
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
    if (!json_is_object(msg)) {
        json_decref(msg);
        ws_send_error(c, NULL, "bad_json");
        return;
    }
    json_t *id = json_object_get(msg, "id");
    const char *type = json_string_value(json_object_get(msg, "type"));
    const char *game = json_string_value(json_object_get(msg, "game"));
    bool game_ok = game && valid_game_id(game, strlen(game));
    static const struct {
        const char *type;
        ServiceAction action;
    } changes[] = {
        {"move", ACTION_MOVE},     {"draw", ACTION_DRAW},   {"claim", ACTION_CLAIM},
        {"resign", ACTION_RESIGN}, {"abort", ACTION_ABORT},
    };
    if (!type) {
        ws_send_error(c, id, "type");
    } else if (!strcmp(type, "ping")) {
        json_t *o = json_pack("{s:s}", "type", "pong");
        if (o && id)
            json_object_set(o, "id", id);
        ws_send_json(c, o);
    } else if (!strcmp(type, "subscribe") || !strcmp(type, "unsubscribe")) {
        if (!game_ok)
            ws_send_error(c, id, game ? "no_game" : "game");
        else if (type[0] == 's')
            ws_subscribe(c, id, game);
        else
            ws_unsubscribe(c, game);
    } else {
        int found = -1;
        for (int i = 0; i < (int)(sizeof changes / sizeof changes[0]); i++)
            if (!strcmp(type, changes[i].type))
                found = i;
        if (found < 0)
            ws_send_error(c, id, "type");
        else if (!game_ok)
            ws_send_error(c, id, game ? "no_game" : "game");
        else
            ws_change(c, msg, id, changes[found].action, game);
    }
    json_decref(msg);
}

/* Reassembles messages from lws's pieces (frames and buffer-sized parts of frames). */
static void ws_receive(WsConn *c, struct lws *wsi, const void *in, size_t len) {
    if (c->dead || c->closing || c->close_after)
        return;
    if (!c->in_message) {
        c->in_message = true;
        c->rx_len = 0;
        c->rx_skip = false;
        c->rx_binary = lws_frame_is_binary(wsi) != 0;
    }
    if (!c->rx_skip && !c->rx_binary) {
        if (c->rx_len + len > MAX_REQUEST) {
            /* Refuse at once instead of reading the rest: error, then close. */
            ws_send_error(c, NULL, "too_large");
            c->close_after = true;
            return;
        }
        if (!c->rx)
            c->rx = malloc(MAX_REQUEST);
        if (!c->rx) {
            c->rx_skip = true;
        } else if (len > 0) {
            memcpy(c->rx + c->rx_len, in, len);
            c->rx_len += len;
        }
    }
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi) > 0)
        return;
    c->in_message = false;
    if (c->rx_binary)
        ws_send_error(c, NULL, "binary");
    else if (c->rx_skip)
        ws_send_error(c, NULL, "internal");
    else
        ws_message(c, c->rx, c->rx_len);
}

static int ws_writeable(WsConn *c, struct lws *wsi) {
    if (c->dead || c->closing)
        return -1;
    WsMsg *m = c->head;
    if (!m) {
        if (c->close_after) {
            static const char why[] = "message too large";
            lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)why, sizeof why - 1);
            return -1;
        }
        return 0;
    }
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued_bytes -= m->len;
    c->queued_msgs--;
    int n = lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT);
    bool ok = n >= (int)m->len;
    free(m);
    if (!ok)
        return -1;
    if (c->head || c->close_after)
        lws_callback_on_writable(wsi);
    return 0;
}

static void ws_closed(WsConn *c) {
    if (!c->open)
        return;
    c->open = false;
    Service *svc = c->srv->service;
    for (int i = 0; i < c->nsubs; i++)
        if (svc)
            service_unsubscribe(svc, c->subs[i].id);
    free(c->subs);
    c->subs = NULL;
    c->nsubs = 0;
    while (c->pending) {
        WsPending *p = c->pending;
        c->pending = p->next;
        if (svc)
            service_cancel(svc, p->ticket);
        json_decref(p->id);
        free(p);
    }
    ws_free_queue(c);
    free(c->rx);
    c->rx = NULL;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len) {
    struct lws_context *ctx = lws_get_context(wsi);
    HttpServer *srv = ctx ? lws_context_user(ctx) : NULL;
    WsConn *c = user;
    switch (reason) {
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: {
            /* Only /ws speaks WebSocket. */
            char *uri = NULL;
            int ulen = 0;
            if (lws_http_get_uri_and_method(wsi, &uri, &ulen) != LWSHUMETH_GET || ulen != 3 || memcmp(uri, "/ws", 3))
                return 1;
            return 0;
        }
        case LWS_CALLBACK_ESTABLISHED: {
            if (!c || !srv)
                return -1;
            memset(c, 0, sizeof *c);
            c->srv = srv;
            c->wsi = wsi;
            c->open = true;
            bool fixed;
            c->lang = request_lang(wsi, &fixed);
            return 0;
        }
        case LWS_CALLBACK_RECEIVE:
            if (c && c->open)
                ws_receive(c, wsi, in, len);
            return 0;
        case LWS_CALLBACK_SERVER_WRITEABLE: return c && c->open ? ws_writeable(c, wsi) : 0;
        case LWS_CALLBACK_CLOSED:
            if (c)
                ws_closed(c);
            return 0;
        default: return 0;
    }
}

/* ---- the server ------------------------------------------------------------------------------- */

static bool is_dir(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void setup_vhost_tables(HttpServer *srv) {
    srv->protocols[0] =
        (struct lws_protocols){.name = "http", .callback = http_callback, .per_session_data_size = sizeof(HttpConn)};
    srv->protocols[1] = (struct lws_protocols){.name = "schach",
                                               .callback = ws_callback,
                                               .per_session_data_size = sizeof(WsConn),
                                               .rx_buffer_size = WS_RX_BUFFER};
    /* protocols[2] stays zero: the terminator. */

    /* "default": a WebSocket that names no subprotocol gets "schach". */
    srv->pvo_default = (struct lws_protocol_vhost_options){.name = "default", .value = "1"};
    srv->pvo_schach = (struct lws_protocol_vhost_options){.name = "schach", .options = &srv->pvo_default, .value = ""};

    static const char *const types[][2] = {
        {".mjs", "application/javascript"}, {".js", "application/javascript"},
        {".map", "application/json"},       {".css", "text/css"},
        {".svg", "image/svg+xml"},          {".woff2", "font/woff2"},
        {".json", "application/json"},
    };
    int nt = (int)(sizeof types / sizeof types[0]);
    for (int i = 0; i < nt; i++)
        srv->mime[i] = (struct lws_protocol_vhost_options){
            .next = i + 1 < nt ? &srv->mime[i + 1] : NULL, .name = types[i][0], .value = types[i][1]};

    struct lws_http_mount *m = srv->mounts;
    /* .protocol: a missing file goes to http_callback (which answers 404) instead of hanging. */
    m[0] = (struct lws_http_mount){.mount_next = &m[1],
                                   .mountpoint = "/",
                                   .origin = srv->web_dir,
                                   .def = "index.html",
                                   .protocol = "http",
                                   .extra_mimetypes = srv->mime,
                                   .origin_protocol = LWSMPRO_FILE,
                                   .mountpoint_len = 1};
    m[1] = (struct lws_http_mount){.mount_next = &m[2],
                                   .mountpoint = "/vendor/chessground",
                                   .origin = srv->vendor_dir,
                                   .protocol = "http",
                                   .extra_mimetypes = srv->mime,
                                   .origin_protocol = LWSMPRO_FILE,
                                   .mountpoint_len = 19};
    m[2] = (struct lws_http_mount){.mount_next = &m[3],
                                   .mountpoint = "/api",
                                   .origin = "http",
                                   .protocol = "http",
                                   .origin_protocol = LWSMPRO_CALLBACK,
                                   .mountpoint_len = 4};
    m[3] = (struct lws_http_mount){.mount_next = NULL,
                                   .mountpoint = "/g",
                                   .origin = "http",
                                   .protocol = "http",
                                   .origin_protocol = LWSMPRO_CALLBACK,
                                   .mountpoint_len = 2};
}

/* A non-negative integer from the environment, or fallback when it is unset or not one. */
static int env_int(const char *name, int fallback, int max) {
    const char *v = getenv(name);
    if (!v || !*v)
        return fallback;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    return *end || n < 0 || n > max ? fallback : (int)n;
}

/* The computer player: one worker by default (the loop, the store and the workers share the machine);
 * the SCHACH_COMPUTER_* variables of docs/api.md change that and let tests make it quick or slow. */
static void computer_config(ServiceComputerConfig *c) {
    memset(c, 0, sizeof *c);
    c->threads = env_int("SCHACH_COMPUTER_THREADS", 1, 8);
    if (c->threads == 0)
        c->threads = 1; /* synchronous searches would block the loop */
    c->hash_mb = (size_t)env_int("SCHACH_COMPUTER_HASH_MB", 16, 1024);
    c->think_ms = env_int("SCHACH_COMPUTER_THINK_MS", 0, 3600000);
    c->depth = env_int("SCHACH_COMPUTER_DEPTH", 0, ENGINE_MAX_PLY);
    c->delay_ms = env_int("SCHACH_COMPUTER_DELAY_MS", 0, 3600000);
}

HttpServer *http_server_start(const HttpServerConfig *cfg, char *err, size_t err_size) {
    Lang lang = cfg->lang;
    HttpServer *srv = calloc(1, sizeof *srv);
    if (!srv) {
        snprintf(err, err_size, "%s", lang == LANG_DE ? "kein Speicher" : "out of memory");
        return NULL;
    }
    pthread_mutex_init(&srv->wake_lock, NULL);
    const char *web = cfg->web_dir ? cfg->web_dir : SCHACH_WEB_DIR;
    if (!is_dir(web)) {
        snprintf(err, err_size, lang == LANG_DE ? "Web-Ordner %s nicht gefunden" : "web folder %s not found", web);
        http_server_free(srv);
        return NULL;
    }
    snprintf(srv->web_dir, sizeof srv->web_dir, "%s", web);
    snprintf(srv->vendor_dir, sizeof srv->vendor_dir, "%s/node_modules/@lichess-org/chessground", web);
    snprintf(srv->index_path, sizeof srv->index_path, "%s/index.html", web);
    setup_vhost_tables(srv);

    /* libwebsockets' own log: errors only, unless SCHACH_LWS_LOG asks for more (its LLL_ bit mask). */
    const char *log = getenv("SCHACH_LWS_LOG");
    lws_set_log_level(log ? atoi(log) : LLL_ERR, NULL);
    srv->loop = ev_loop_new(EVFLAG_AUTO | EVFLAG_NOENV);
    if (!srv->loop) {
        snprintf(err, err_size, "%s",
                 lang == LANG_DE ? "libev-Schleife fehlgeschlagen" : "could not create the libev loop");
        http_server_free(srv);
        return NULL;
    }
    void *foreign_loops[1] = {srv->loop};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.options = LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBEV;
    info.foreign_loops = foreign_loops;
    info.user = srv;
    info.max_http_header_data = 8192;
    srv->context = lws_create_context(&info);
    if (!srv->context) {
        snprintf(err, err_size, "%s",
                 lang == LANG_DE ? "libwebsockets-Kontext fehlgeschlagen"
                                 : "could not create the libwebsockets context");
        http_server_free(srv);
        return NULL;
    }

    const char *host = cfg->host ? cfg->host : "127.0.0.1";
    memset(&info, 0, sizeof info);
    info.vhost_name = "schach";
    info.port = cfg->port;
    info.iface = host;
    info.protocols = srv->protocols;
    info.pvo = &srv->pvo_schach;
    info.mounts = srv->mounts;
    info.user = srv;
    info.options = LWS_SERVER_OPTION_FAIL_UPON_UNABLE_TO_BIND;
    if (!strchr(host, ':'))
        info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
    srv->vhost = lws_create_vhost(srv->context, &info);
    if (!srv->vhost) {
        snprintf(err, err_size, lang == LANG_DE ? "kann nicht auf %s Port %d lauschen" : "cannot listen on %s port %d",
                 host, cfg->port);
        http_server_free(srv);
        return NULL;
    }
    srv->port = lws_get_vhost_listen_port(srv->vhost);

    srv->wake_context = srv->context;
    char why[256] = "";
    srv->store = store_sqlite_open(cfg->db_path, server_wake, srv, why, sizeof why);
    if (!srv->store) {
        snprintf(err, err_size, lang == LANG_DE ? "Datenbank %s: %s" : "database %s: %s", cfg->db_path, why);
        http_server_free(srv);
        return NULL;
    }
    srv->service = service_create(srv->store, NULL, NULL, why, sizeof why);
    if (!srv->service) {
        snprintf(err, err_size, lang == LANG_DE ? "Partien laden: %s" : "loading the games: %s", why);
        http_server_free(srv);
        return NULL;
    }
    ServiceComputerConfig computer;
    computer_config(&computer);
    /* Its workers wake the loop the way the store's writer does. */
    if (!service_computer_start(srv->service, &computer, server_wake, srv, why, sizeof why)) {
        snprintf(err, err_size, lang == LANG_DE ? "Computerspieler: %s" : "computer player: %s", why);
        http_server_free(srv);
        return NULL;
    }
    return srv;
}

int http_server_port(const HttpServer *srv) { return srv->port; }

int http_server_run(HttpServer *srv) {
    schedule_timer(srv);
    /* The store may have committed before the loop ran (start-up): pick that up now. */
    service_on_wake(srv->service);
    /* Runs until http_server_stop's wake-up reaches the loop (ev_break in the cancel callback). */
    while (!srv->stop)
        ev_run(srv->loop, 0);
    return 0;
}

void http_server_stop(HttpServer *srv) {
    srv->stop = 1;
    /* lws_cancel_service only writes to the loop's wake-up pipe: fine from a signal handler. */
    if (srv->context)
        lws_cancel_service(srv->context);
}

void http_server_free(HttpServer *srv) {
    if (!srv)
        return;
    pthread_mutex_lock(&srv->wake_lock);
    srv->wake_context = NULL;
    pthread_mutex_unlock(&srv->wake_lock);
    if (srv->context) {
        lws_sul_cancel(&srv->timer);
        /* Closes the listening socket and every connection; their close callbacks still see the
         * service, so pending replies are cancelled and subscriptions ended. */
        lws_context_destroy(srv->context);
        srv->context = NULL;
    }
    if (srv->loop) {
        ev_loop_destroy(srv->loop);
        srv->loop = NULL;
    }
    /* The service first: it waits until the store hands back every write still in flight (the
     * writer thread is still running), so closing the store afterwards leaves nothing dangling. */
    if (srv->service)
        service_free(srv->service);
    if (srv->store)
        store_close(srv->store);
    pthread_mutex_destroy(&srv->wake_lock);
    free(srv);
}
