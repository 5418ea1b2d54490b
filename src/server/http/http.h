/* The http room (src/server/http/): HTTP, WebSocket, static files, per-address limits and the frame
 * guard (ws_guard.h), over every room below (base < store < service < accounts < http).
 *
 * schach serve: HTTP, static files and WebSocket on one libwebsockets event loop (docs/api.md).
 *
 * The transport only: it maps HTTP requests and WebSocket messages to a Service that the caller
 * (src/cli/cmd_serve.c) set up over its store, and enforces the limits of client_limits.h. Set-up order:
 *
 *     srv = http_server_new(&cfg)            the loop, nothing listens yet
 *     store_sqlite_open(.., http_server_wake, srv, ..), service_create, service_computer_start
 *     http_server_listen(srv, service)        only now the port accepts connections
 *     http_server_run(srv)                    until http_server_stop or a drain's end
 *     http_server_close(srv); service_free; store_close; http_server_free(srv)
 *
 * Everything but the store's writer and the computer's workers runs on the thread that calls
 * http_server_run; those two only call http_server_wake.
 */
#ifndef SCHACH_SERVER_HTTP_SERVER_H
#define SCHACH_SERVER_HTTP_SERVER_H

#include <stdbool.h>
#include <stddef.h>

#include "accounts/accounts.h"
#include "base/base.h"
#include "schach/types.h"
#include "service/service.h"

typedef struct HttpServer HttpServer;

/* HTTP_REQUEST_TIMEOUT: seconds a request's body may take after its headers (docs/site.md "Limits"). */
enum { HTTP_WS_SUBSCRIPTIONS = 64, HTTP_MAX_TRUSTED_PROXIES = 16, HTTP_REQUEST_TIMEOUT = 10 };

typedef struct HttpServerConfig {
    const char *host;      /* IP address to listen on ("127.0.0.1", "::1"); NULL: 127.0.0.1 */
    int port;              /* 0 picks a free port (see http_server_port) */
    const char *web_dir;   /* the browser UI; NULL: SCHACH_WEB_DIR */
    SchLang lang;          /* language of the error messages put into err */
    LimitsConfig limits;   /* connections and rates (client_limits.h) */
    int ws_subscriptions;  /* games one WebSocket may watch at once; 0: HTTP_WS_SUBSCRIPTIONS */
    int request_timeout_s; /* a request's body must be in this long after its headers; 0: HTTP_REQUEST_TIMEOUT */
    /* Peers whose X-Forwarded-For names the client (reverse proxies), as IP addresses. */
    const char *trusted_proxies[HTTP_MAX_TRUSTED_PROXIES];
    int ntrusted;
    int lws_log_level; /* libwebsockets' LLL_ bit mask for its own log; 0: errors only */
} HttpServerConfig;

/* Creates the event loop (nothing listens before http_server_listen). NULL with err filled. */
HttpServer *http_server_new(const HttpServerConfig *cfg, char *err, size_t err_size);
/* Wakes the loop so it calls service_on_wake. Safe from any thread from http_server_new until
 * http_server_free, also before the loop runs and after http_server_close (then it does nothing). */
void http_server_wake(void *srv);
/* Serves the accounts API (/api/accounts, /api/session, /api/me, /api/account/password) with a; call
 * before http_server_listen. Without it those paths answer 404. */
void http_server_set_accounts(HttpServer *srv, Accounts *a);
/* Starts listening and serving svc. false with err filled (cannot bind). */
bool http_server_listen(HttpServer *srv, Service *svc, char *err, size_t err_size);
/* The port actually listened on (the chosen one when cfg->port was 0). */
int http_server_port(const HttpServer *srv);
/* Serves until http_server_stop; returns 0, or -1 when the event loop failed. */
int http_server_run(HttpServer *srv);
/* Makes http_server_run return soon. Safe from a signal handler and from any thread. */
void http_server_stop(HttpServer *srv);
/* Makes http_server_run return gracefully (docs/api.md "Draining"): stops listening at once, finishes
 * and answers what is in flight (at most 10 s), closes the WebSockets with 1001 (going away), then
 * returns. Safe from a signal handler and from any thread; http_server_stop still cuts it short. */
void http_server_drain(HttpServer *srv);
/* Closes every connection (their pending replies are cancelled in the service) and the loop. The
 * service must still exist; afterwards the transport never calls it again. */
void http_server_close(HttpServer *srv);
/* Frees what is left (after the service and the store are gone). NULL is fine. */
void http_server_free(HttpServer *srv);

#endif
