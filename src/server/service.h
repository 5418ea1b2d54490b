/* schach serve: the games, independent of HTTP and WebSocket (docs/api.md).
 *
 * The service keeps every game in memory (a libschach Game plus its record), validates requests with
 * jansson, decides every rule through libschach, runs the clocks, and writes through a Store. A
 * change is validated at once but applied, answered and broadcast only after the store committed
 * it, so nothing unacknowledged is ever shown and everything acknowledged survives a crash.
 *
 * Everything here runs on the event loop's thread; only the store's writer thread runs elsewhere.
 */
#ifndef SCHACH_SERVER_SERVICE_H
#define SCHACH_SERVER_SERVICE_H

#include <stddef.h>
#include <stdint.h>

#include "schach/types.h"
#include "store.h"

typedef struct Service Service;

/* Milliseconds since the Unix epoch; injectable so tests control the clocks. */
typedef int64_t (*ServiceClock)(void *ctx);

/* Creates the service over an open store and loads every stored game. now may be NULL (real time).
 * NULL with err filled on failure. */
Service *service_create(Store *store, ServiceClock now, void *clock_ctx, char *err, size_t err_size);
/* Frees the service (not the store). Pending replies are dropped without being called. */
void service_free(Service *svc);

typedef enum {
    ACTION_CREATE, ACTION_JOIN, ACTION_STATE, ACTION_MOVE, ACTION_DRAW, ACTION_CLAIM, ACTION_RESIGN,
    ACTION_ABORT, ACTION_PGN, ACTION_LIST, ACTION_RECENT
} ServiceAction;

typedef struct ServiceRequest {
    ServiceAction action;
    const char *game;  /* game id from the path or message; NULL for create, list, recent */
    const char *body;  /* the JSON body (NUL-terminated), NULL when there is none */
    const char *ids;   /* list: comma-separated ids from the query */
    Lang lang;         /* language of messages (and of PGN letters for ACTION_PGN) */
} ServiceRequest;

/* The answer to one request: HTTP status, content type ("application/json" or a PGN's
 * "text/plain; charset=utf-8") and body. Called exactly once per request unless cancelled. */
typedef void (*ServiceReply)(void *ctx, int status, const char *content_type, const char *body, size_t len);

/* Handles req and calls reply now or, for changes, after the commit. Returns a ticket (never 0) that
 * service_cancel accepts while the reply is outstanding. */
uint64_t service_handle(Service *svc, const ServiceRequest *req, ServiceReply reply, void *ctx);
/* The requester went away: its reply will not be called (the change itself still happens). */
void service_cancel(Service *svc, uint64_t ticket);

/* Receives the WebSocket "state" message ({"type":"state","game":…,"state":…}) of a game after every
 * change, and once right after subscribing. */
typedef void (*ServiceEvent)(void *ctx, const char *json, size_t len);
/* Subscribes to a game; 0 when the game does not exist. */
uint64_t service_subscribe(Service *svc, const char *game, ServiceEvent event, void *ctx);
void service_unsubscribe(Service *svc, uint64_t subscription);

/* The loop woke up for the store: answers and broadcasts what was committed. */
void service_on_wake(Service *svc);
/* Milliseconds until the next clock or deadline runs out, -1 when none runs. */
int64_t service_next_timer_ms(Service *svc);
/* Ends the games whose time ran out (time forfeit, 6.9 draw, correspondence deadline). */
void service_on_timer(Service *svc);


#endif
