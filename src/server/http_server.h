/* schach serve: HTTP, static files and WebSocket on one libwebsockets event loop (docs/api.md).
 *
 * The server owns the store and the service: it opens the SQLite store (whose writer thread wakes the
 * loop through lws_cancel_service), loads the games, and maps HTTP requests and WebSocket messages to
 * service requests. Everything but the store's writer runs on the thread that calls http_server_run.
 */
#ifndef SCHACH_SERVER_HTTP_SERVER_H
#define SCHACH_SERVER_HTTP_SERVER_H

#include <stddef.h>

#include "schach/types.h"

typedef struct HttpServer HttpServer;

typedef struct HttpServerConfig {
    const char *host;    /* IP address to listen on ("127.0.0.1", "::1"); NULL: 127.0.0.1 */
    int port;            /* 0 picks a free port (see http_server_port) */
    const char *db_path; /* the SQLite database file (created with its folder when missing) */
    const char *web_dir; /* the browser UI; NULL: SCHACH_WEB_DIR */
    Lang lang;           /* language of the error messages put into err */
} HttpServerConfig;

/* Opens the store, loads every game and starts listening (nothing is served before http_server_run).
 * NULL with a message in err on failure. */
HttpServer *http_server_start(const HttpServerConfig *cfg, char *err, size_t err_size);
/* The port actually listened on (the chosen one when cfg->port was 0). */
int http_server_port(const HttpServer *srv);
/* Serves until http_server_stop; returns 0, or -1 when the event loop failed. */
int http_server_run(HttpServer *srv);
/* Makes http_server_run return soon. Safe from a signal handler and from any thread. */
void http_server_stop(HttpServer *srv);
/* Finishes the store's queued commits, closes every connection and frees everything. NULL is fine. */
void http_server_free(HttpServer *srv);

#endif
