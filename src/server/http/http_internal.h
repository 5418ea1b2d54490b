/* schach serve's transport, inside: what the files of the HTTP server share.
 *
 *   http_server.c    the context, the loop, wake-ups, timers, the listening vhost, the connection
 *                    filter (limits per address, total) and libwebsockets' own log
 *   http_api.c       HTTP requests: framing checks, routing /api to the service, responses
 *   http_static.c    static files from the web folder (GET/HEAD only, confined by realpath)
 *   http_ws.c        the WebSocket: messages, subscriptions, the send queue and slow clients
 *   http_messages.c  the transport's own messages (English and German) and language choice
 *   http_ops.c       for operators: GET /healthz (for the load balancer) and GET /metrics (Prometheus)
 *   http_drain.c     the graceful stop on SIGTERM: no new connections, what is in flight finished,
 *                    WebSockets closed with 1001 (going away)
 *
 * One lws context with one vhost; protocol 0 ("http") gets every HTTP request through one callback
 * mount at "/", protocol 1 ("schach") is the WebSocket (also the default for clients naming none).
 * Replies of the service may come later than the request: each connection keeps its state in lws's
 * per-session data, and every write happens in a writeable callback, one lws_write per callback.
 */
#ifndef SCHACH_SERVER_HTTP_INTERNAL_H
#define SCHACH_SERVER_HTTP_INTERNAL_H

#include <ev.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "http.h"
#include "accounts/accounts.h"
#include "base/base.h"
#include "service/service.h"
#include "store/store.h"
#include "ws_guard.h"

enum {
    MAX_REQUEST = 16 * 1024, /* HTTP bodies and WebSocket messages (docs/api.md) */
    MAX_DRAIN = 1024 * 1024, /* larger declared bodies are refused at once and the socket closed */
    WRITE_CHUNK = 16 * 1024, /* HTTP body bytes per writeable callback */
    /* lws reads WebSocket input in pieces of at most this, into a buffer of this size per connection:
     * 4096 cost 7.7 kB per idle connection, 2048 3.6 kB, 1024 2.6 kB but fewer moves per second
     * (make bench-server). */
    WS_RX_BUFFER = 2048,
    WS_TX_PACKET = 64 * 1024,     /* without it lws would send in pieces of WS_RX_BUFFER */
    WS_QUEUE_MAX_MSGS = 256,      /* a client this far behind is dropped ... */
    WS_QUEUE_MAX_BYTES = 4 << 20, /* ... or holding this much unsent data */
    WS_MAX_PENDING = 64,          /* changes one connection may have waiting for their commit */
    STATIC_MAX_FILE = 8 << 20,    /* larger files are not served */
    QUERY_MAX = 4096,
    PATH_BUF = 1024,
};

typedef struct HttpConn {
    struct HttpServer *srv;
    struct lws *wsi;
    char client[LIMITS_ADDRESS_MAX]; /* the client's address key (X-Forwarded-For from a trusted proxy) */
    /* the request */
    bool api;         /* under /api: no-store, JSON errors */
    bool ops;         /* /healthz or /metrics: no-store, no rate limit */
    bool busy;        /* a request is being answered (counted in srv->http_busy until its answer is out) */
    bool head;        /* HEAD: the headers of the GET answer, no body */
    bool post;        /* waits for the body before it is handled */
    bool refused;     /* answered already (bad framing, limits): the body changes nothing */
    int route_status; /* != 0: answer with this error once the body is in */
    const char *route_code;
    int retry_after; /* 429: seconds for Retry-After */
    bool allow_get;  /* 405 on a static path: Allow: GET, HEAD */
    ServiceAction action;
    bool account;                  /* an accounts request (accounts.h) instead of the service's */
    AccountsAction account_action; /* ... which one */
    bool json_body;                /* Content-Type: application/json */
    bool foreign_origin;           /* an Origin header that is not this site's, or Sec-Fetch-Site not same-origin */
    bool navigation;               /* Sec-Fetch-Mode: navigate (a link followed, not a page's script) */
    bool secure;                   /* the page was served over HTTPS (X-Forwarded-Proto from a trusted proxy) */
    char session[64];              /* the session token of the Cookie header, "" for none */
    char set_cookie[200];          /* the answer's Set-Cookie value, "" for none */
    char filename[64];             /* the answer is a download under this name (Content-Disposition), "" for none */
    char seek[STORE_ID_LEN + 1];   /* a seek's id from the path, "" for none */
    bool static_file;              /* the answer is a file of the web folder: ETag, revalidation */
    bool gzip;                     /* ... sent gzip-compressed (Content-Encoding) */
    char etag[48];                 /* ... its entity tag ("" for none) */
    char player[32];               /* a player's name from the path (/api/players/NAME) */
    int page;                      /* ?page= of a player's games */
    char filter[8];                /* ?result= of a player's games */
    char game[STORE_ID_LEN + 1];
    char *ids;       /* list: the ids= query argument */
    bool lang_fixed; /* ?lang= given: it beats a "lang" in the body */
    SchLang lang;
    char *body; /* MAX_REQUEST + 1 bytes once a body arrives */
    size_t body_len;
    bool too_large;
    /* The request deadline (--request-timeout): armed once the headers are in and a body follows. */
    lws_sorted_usec_list_t deadline;
    bool timed_out;       /* the deadline passed before the body was in: 408, then closed */
    int64_t timed_out_ms; /* ... when */
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

enum { WS_HELD_SEEKS = 4 }; /* seeks one connection may hold in the lobby */

/* A WebSocket change waiting for the service's reply. */
typedef struct WsPending {
    struct WsPending *next;
    WsConn *conn;
    json_t *id; /* the request's "id", echoed in the answer; may be NULL */
    char game[STORE_ID_LEN + 1];
    uint64_t ticket;
    bool in_handle;
    bool done;
    bool rematch; /* the answer's new game (id, color, secret) goes into the ack */
} WsPending;

typedef struct WsSub {
    uint64_t id;
    char game[STORE_ID_LEN + 1];
} WsSub;

struct WsConn {
    struct HttpServer *srv;
    struct lws *wsi;
    char client[LIMITS_ADDRESS_MAX];
    SchLang lang;
    bool open;
    bool dead;           /* dropped (too slow): nothing more is queued, lws kills it asynchronously */
    bool close_after;    /* close once the queue is written (after a too_large error) */
    bool closing;        /* close reason set: the next writeable returns -1 */
    bool protocol_error; /* the client broke the framing (ws_guard.h): closed with 1002, nothing read */
    bool going_away;     /* the server drains: Close 1001 once the queue is written, nothing more read */
    /* The server's list of open WebSockets (srv->ws_open). */
    WsConn *prev_open, *next_open;
    WsMsg *head, *tail;
    size_t queued_bytes;
    int queued_msgs;
    char *rx; /* a message that came in pieces, while it is reassembled (freed after it) */
    size_t rx_len, rx_cap;
    bool in_message, rx_binary, rx_skip;
    WsSub *subs; /* grown as needed: an idle connection holds little */
    int nsubs, subs_cap;
    uint64_t lobby_watch; /* accounts_lobby_watch, 0 when not watching the lobby */
    /* Seeks this connection's poster holds: withdrawn when the connection goes. */
    struct {
        char seek[STORE_ID_LEN + 1];
        char secret[64];
    } held[WS_HELD_SEEKS];
    int nheld;
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
    Service *service;                 /* NULL until http_server_listen and after http_server_close */
    Accounts *accounts;               /* NULL when the server keeps no accounts, and after http_server_close */
    struct StaticCache *static_cache; /* the web folder's files as sent (http_static.c) */
    Limits *limits;
    int ws_subscriptions;
    int request_timeout_s;                                      /* HttpServerConfig.request_timeout_s */
    char trusted[HTTP_MAX_TRUSTED_PROXIES][LIMITS_ADDRESS_MAX]; /* canonical addresses */
    int ntrusted;
    lws_sorted_usec_list_t timer;
    lws_sorted_usec_list_t sweep;
    pthread_mutex_t wake_lock;
    struct lws_context *wake_context; /* under wake_lock: NULL once the context is going away */
    volatile sig_atomic_t stop;
    int port_wanted, port;
    char host[64];
    SchLang lang;
    char web_dir[PATH_MAX];    /* realpath of the web folder */
    char vendor_dir[PATH_MAX]; /* realpath of chessground's folder, "" when missing */
    struct lws_protocols protocols[3];
    struct lws_protocol_vhost_options pvo_default, pvo_schach;
    struct lws_http_mount mount;
    LimitsEntry *accepted; /* counted by the connection filter, not yet tied to its wsi */
    LogLimiter log_limit_hit, log_dropped;
    /* For GET /metrics and the drain: */
    WsConn *ws_open; /* every open WebSocket */
    int websockets;  /* ... and how many */
    int http_busy;   /* HTTP requests begun whose answer is not written yet */
    /* /healthz asks the store at most every HEALTH_CACHE_MS (no rate limit protects it). */
    int64_t health_checked_ms;
    bool health_ok;
    int listen_fd; /* the vhost's listening socket (found by http_server_listen), -1: unknown */
    /* The drain (http_drain.c): asked for by a signal handler, run on the loop. */
    volatile sig_atomic_t drain_requested;
    int drain_phase; /* DRAIN_* */
    int64_t drain_started_ms, drain_closing_ms;
    ev_timer drain_timer;
};

/* Where a drain stands (HttpServer.drain_phase). */
enum { DRAIN_NONE, DRAIN_WAITING, DRAIN_CLOSING, DRAIN_DONE };

/* http_server.c */
void http_schedule_timer(struct HttpServer *srv);
/* The client's key: the peer's, or from X-Forwarded-For when the peer is a trusted proxy. */
/* The peer is one of the trusted proxies (its X-Forwarded-* headers count). */
bool http_peer_trusted(struct HttpServer *srv, struct lws *wsi);
/* Frees the web folder's cached files (http_static.c). */
void http_static_cache_free(struct StaticCache *cache);
void http_client_key(struct HttpServer *srv, struct lws *wsi, char *key, size_t size);
/* The loop woke up (store, computer or http_server_stop). */
void http_on_wake(struct HttpServer *srv);
/* LWS_CALLBACK_FILTER_NETWORK_CONNECTION: nonzero refuses the connection (limits). */
int http_filter_connection(struct HttpServer *srv, void *args);
/* LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED / LWS_CALLBACK_WSI_DESTROY: connection accounting. */
int http_connection_opened(struct HttpServer *srv, struct lws *wsi);
void http_connection_destroyed(struct HttpServer *srv, struct lws *wsi);
/* Logs a limit hit (at most one line a second). */
void http_log_limit(struct HttpServer *srv, const char *kind, const char *address);

/* http_api.c */
int http_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);
void http_set_response(HttpConn *c, int status, const char *content_type, const char *body, size_t len);
void http_error(HttpConn *c, int status, const char *key);
/* Whether a request comes from another site's page: an Origin that does not name the Host it was
 * sent to, or Sec-Fetch-Site other than same-origin or none. *navigation: Sec-Fetch-Mode navigate. */
bool http_cross_site(struct lws *wsi, bool *navigation);

/* http_static.c: answers a GET/HEAD of a path outside /api (index, /g/<id>, files, chessground). */
void http_static(HttpConn *c, const char *path);

/* http_ws.c */
int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len);
/* ws_guard's callback: the client of the WsConn owner sent a frame a server must fail. */
void ws_frame_violation(void *owner, WsFrameError why);

/* http_ops.c: answers GET/HEAD /healthz and /metrics; false when path is neither (nothing done). */
bool http_ops(HttpConn *c, int method, const char *path, long body_length);

/* http_drain.c */
/* On the loop, after a wake-up: starts the drain that http_server_drain asked for. */
void http_drain_check(struct HttpServer *srv);
/* Stops the drain's timer (before the loop is destroyed). */
void http_drain_stop(struct HttpServer *srv);
/* Whether the server drains (also once it is done, until the loop stops). */
static inline bool http_draining(const struct HttpServer *srv) { return srv->drain_phase != DRAIN_NONE; }

/* http_ws.c: open WebSockets, for the drain */
/* Closes every open WebSocket with 1001 (going away) once its queued messages are written. */
void ws_close_all_going_away(struct HttpServer *srv);

/* http_messages.c */
void local_message(const char *key, SchLang lang, const char **code, const char **text);
/* {"code":…,"message":…} for a local message key, or NULL when out of memory. */
json_t *error_object(const char *key, SchLang lang);
bool valid_game_id(const char *s, size_t n);
/* The language of a request: ?lang= wins (then *fixed is true), else Accept-Language, else English. */
SchLang request_lang(struct lws *wsi, bool *fixed);

#endif
