/* The service room (src/server/service/): games in play, their actions, commits, clocks, rules jobs,
 * rematches and the computer players (computer.h), and secrets (secret.h). Builds on store and base.
 *
 * schach serve: the games, independent of HTTP and WebSocket (docs/api.md).
 *
 * The service keeps the games in play in memory (a libschach Game plus its record) and finished games
 * only in a bounded cache (read from the store again when asked for), validates requests with
 * jansson, decides every rule through libschach, runs the clocks, and writes through a Store. A
 * change is validated at once but applied, answered and broadcast only after the store committed
 * it, so nothing unacknowledged is ever shown and everything acknowledged survives a crash.
 *
 * Everything here runs on the event loop's thread; only the store's writer thread and the computer's
 * worker threads (computer.h) run elsewhere, and both hand their results back through the wake
 * function: the loop then calls service_on_wake.
 */
#ifndef SCHACH_SERVER_SERVICE_H
#define SCHACH_SERVER_SERVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "schach/types.h"
#include "store/store.h"

typedef struct Service Service;

/* Milliseconds since the Unix epoch; injectable so tests control the clocks. */
typedef int64_t (*ServiceClock)(void *ctx);

/* Creates the service over an open store and reads the games in play and the recently finished list
 * (not the other finished games). now may be NULL (real time). NULL with err filled on failure (err
 * may be NULL when the reason is not wanted). */
Service *service_create(Store *store, ServiceClock now, void *clock_ctx, char *err, size_t err_size);
/* Games in play live in memory; finished games are read from the store when asked for and kept in a
 * cache of at most this many (least recently used first out; a game someone watches stays). */
#define SERVICE_CACHE_DEFAULT 1000
void service_set_cache_max(Service *svc, int games);

/* A game in play in which not both sides have moved yet is aborted (result "*", not rated) when nothing
 * happened in it for this long: live_ms for games with a live clock, slow_ms for correspondence games
 * and games without a clock. The time counts from the game's last change (its creation, a join, the
 * first move), also for games loaded at start; the aborted game leaves memory unless it is watched.
 * Both must be > 0 (else the default stays). */
#define SERVICE_UNSTARTED_LIVE_DEFAULT_MS (6LL * 3600 * 1000)
#define SERVICE_UNSTARTED_SLOW_DEFAULT_MS (7LL * 86400 * 1000)
void service_set_unstarted_expiry(Service *svc, int64_t live_ms, int64_t slow_ms);

/* What the service holds now, for the log, tests and benchmarks. */
typedef struct ServiceStats {
    int games_in_memory; /* in play, plus cached finished games */
    int games_in_play;
    int subscriptions;
} ServiceStats;
void service_stats(const Service *svc, ServiceStats *out);

/* What the service has done so far, for GET /metrics (counters only grow). */
typedef struct ServiceMetrics {
    uint64_t moves_committed;   /* moves (people's and the computer's) committed by this node */
    uint64_t changes_committed; /* every committed change, moves included */
    uint64_t conflicts;         /* changes another node got in first (409 stale_ply, or a timer's no-op) */
    uint64_t refreshes;         /* games read again because the store was ahead of the copy in memory */
    uint64_t notices;           /* announcements of other nodes' commits handled */
    StoreHistogram move_ms;     /* a move request from its arrival to its committed answer */
} ServiceMetrics;
void service_metrics(const Service *svc, ServiceMetrics *out);
/* The store the service writes through (for /healthz and /metrics). */
Store *service_store(Service *svc);
/* Changes handed to the store and not yet back: a draining server waits until this is 0. */
int service_pending_count(const Service *svc);

/* Several servers share the store (PostgreSQL): node names this one in leases. Turns on the leases on
 * the computer's thinking, and keeps each change's request so that one another node got in first can
 * be handled once more on the refreshed game. Call before service_computer_start. */
void service_set_cluster(Service *svc, const char *node);
/* Announcements of other nodes' commits (store_take_notices) are handled in service_on_wake. */

/* Called on the loop after this node committed the end of a rated game, whatever ended it, but not an
 * abort (aborted games are not rated); once per game in a cluster (only the node whose commit ended it
 * calls it). The callee rates it (accounts.h). */
typedef void (*ServiceGameOver)(void *ctx, const GameRecord *rec);
void service_set_game_over(Service *svc, ServiceGameOver fn, void *ctx);
/* The game was rated (its row now has the ratings before and their change, at rev): the copy in memory
 * takes them and its watchers hear of it; a copy not at rev - 1 is only marked to be read again. */
void service_rated(Service *svc, const char *id, const int before[2], const int diff[2], int64_t rev);
/* Hands text (a whole WebSocket message, e.g. {"type":"analysis",...}) to every subscriber of game id on
 * this node; nothing when the game is not in memory or has none. */
void service_game_event(Service *svc, const char *id, const char *text, size_t len);
/* The account (its name as shown) revoked its seat secrets (a password change, "log out everywhere"):
 * its games in memory are read again from the store, which holds their new seat epochs. */
void service_seats_revoked(Service *svc, const char *account);

/* The site's key (store_accounts.h site_key, the same on every node): the secrets of a rematch's sides
 * are derived from it, an account's side as GET /api/me derives it, an anonymous one from the hash of
 * that player's old secret. Until it is set, a random key of this process stands in (tests). */
void service_set_site_key(Service *svc, const unsigned char key[32]);

/* Frees the service (not the store). Pending replies are dropped without being called; writes still
 * in flight are waited for (taken back from the store), so call this before store_close(). */
void service_free(Service *svc);

typedef enum {
    ACTION_CREATE,
    ACTION_JOIN,
    ACTION_STATE,
    ACTION_MOVE,
    ACTION_DRAW,
    ACTION_CLAIM,
    ACTION_RESIGN,
    ACTION_ABORT,
    ACTION_REMATCH,  /* a finished game's rematch: offer, accept, decline (docs/api.md "Rematch") */
    ACTION_TAKEBACK, /* a casual game's takeback: offer, accept, decline (docs/api.md "Takebacks") */
    ACTION_PREMOVE,  /* a move queued for the player's next turn, or its cancellation ("Premoves") */
    ACTION_PGN,
    ACTION_POSITIONS,
    ACTION_LIST,
    ACTION_RECENT,
    ACTION_LEVELS
} ServiceAction;

/* The game actions by name, one table for every transport. Over HTTP a verb is the NAME of
 * /api/games/{id}/NAME, asked for with POST when it changes the game and with GET (or HEAD) when it
 * only reads; over the WebSocket, when websocket is set, it is the "type" of a message
 * {"type":NAME,"game":id,...} whose other members are the body (changes only: the sender gets an
 * acknowledgement, the new state comes to the subscribers). A game's state, GET /api/games/{id}, has
 * no verb. */
typedef struct ServiceVerb {
    const char *name;
    ServiceAction action;
    bool change;    /* changes the game: POST over HTTP (else GET and HEAD) */
    bool websocket; /* also a WebSocket message */
} ServiceVerb;
extern const ServiceVerb service_verbs[];
extern const size_t service_verb_count;
/* The verb called name (exactly), or NULL. */
const ServiceVerb *service_verb(const char *name);

/* A body is one JSON object with exactly the members docs/api.md names for the action (json_unpack
 * strict: an unknown member is a 400 bad_request). Every body may also carry "lang" ("de"/"en") and
 * the WebSocket envelope members "type", "game" and "id", which the service ignores, so a transport
 * may pass a WebSocket message on as it came. Bodies over 16 KiB are refused (413). */
typedef struct ServiceRequest {
    ServiceAction action;
    const char *game;   /* game id from the path or message; NULL for create, list, recent */
    const char *body;   /* the JSON body (NUL-terminated), NULL when there is none */
    const char *ids;    /* list: comma-separated ids from the query */
    SchLang lang;       /* language of messages (and of PGN letters for ACTION_PGN) */
    bool lang_explicit; /* lang came from the `lang` query parameter; else a body's "lang" wins */
    /* The body already parsed, used instead of body when set: a transport that read the request as
     * JSON (a WebSocket message) hands the object on. The same checks apply to it as to a text, the
     * 16 KiB to its compact JSON text (counted, not written). The service does not change it, and
     * takes a reference of its own while it may handle the request once more. */
    json_t *json;
    /* Create and join only (accounts.h ACCOUNTS_GAME): the logged-in requester's account (its name as
     * shown; NULL or "" for nobody) and its seat epoch. The requester's side becomes the account's, its
     * secret derived from the site's key as GET /api/me derives it (issue 24: every game a logged-in
     * player starts or joins is theirs). Not in a local game, and not a side of a game whose other side
     * the same account plays already. */
    const char *account;
    int64_t seat_epoch;
} ServiceRequest;

/* The answer to one request: HTTP status, content type ("application/json" or a PGN's
 * "text/plain; charset=utf-8") and body, plus the facts a WebSocket acknowledgement needs, so a
 * transport never has to parse the body of a success. */
typedef struct ServiceAnswer {
    int status;
    const char *content_type;
    const char *body;
    size_t len;
    int ply;             /* the game's ply after a successful game request, -1 otherwise */
    bool duplicate;      /* the move repeated one already played: nothing changed */
    bool claim_rejected; /* a claim made with a move was incorrect: the move stands */
} ServiceAnswer;

/* Called exactly once per request unless cancelled; the answer is valid during the call only. */
typedef void (*ServiceReply)(void *ctx, const ServiceAnswer *answer);

/* Handles req and calls reply now or, for changes, after the commit. Returns a ticket (never 0) that
 * service_cancel accepts while the reply is outstanding. */
uint64_t service_handle(Service *svc, const ServiceRequest *req, ServiceReply reply, void *ctx);
/* The requester went away: its reply will not be called (the change itself still happens). */
void service_cancel(Service *svc, uint64_t ticket);

/* A change the store could not commit is answered 503 {"error":{"code":"storage",...}} (nothing
 * changed; the same over WebSocket); out of memory is 500 "storage".
 *
 * An error the transport answers itself, as {"error":{code,message}} in lang: code is "bad_json",
 * "not_found" (no such path), "method_not_allowed", "too_large" or "storage" (out of memory).
 * Returns the HTTP status and a malloc'd body in *body (NULL when out of memory) of *len bytes. */
int service_error(const char *code, SchLang lang, char **body, size_t *len);

/* Receives the WebSocket "state" message ({"type":"state","game":…,"state":…}) of a game after every
 * change (after its answer), and once right after subscribing (inside service_subscribe). */
typedef void (*ServiceEvent)(void *ctx, const char *json, size_t len);
/* Subscribes to a game (a finished one is read from the store and held in memory while watched); 0
 * when the game does not exist. Ids are never reused: unsubscribing an old id again does nothing. */
uint64_t service_subscribe(Service *svc, const char *game, ServiceEvent event, void *ctx);
/* The same by a player who shows their side's secret (NULL: a spectator): while at least one such
 * subscription of a side lives, the state's "online" says that side is present, and subscribers get
 * the state again when that changes. 0 with *bad_secret set when secret is no side's secret (nothing
 * subscribed). Presence is counted per node: another node's subscribers are not seen here. */
uint64_t service_subscribe_as(Service *svc, const char *game, const char *secret, ServiceEvent event, void *ctx,
                              bool *bad_secret);
void service_unsubscribe(Service *svc, uint64_t subscription);

/* How the computer player thinks (docs/api.md "Playing against the computer"). */
typedef struct ServiceComputerConfig {
    int threads;    /* worker threads, each with its own engine (0: every search runs synchronously when
                     * it is due, inside the service's own calls - for tests) */
    size_t hash_mb; /* transposition table per engine; 0: 16 MB */
    int think_ms;   /* > 0: the thinking time per move of games without a live clock, instead of the
                     * level's budget */
    int depth;      /* > 0: no search goes deeper than this (tests: fast and deterministic) */
    int delay_ms;   /* testing: each search waits this long before it starts (a shutdown or the end of
                     * the game cuts the wait short) */
} ServiceComputerConfig;

/* Starts the computer player; every game in which it is to move (after a restart too) gets a search
 * now. wake(wake_ctx) is called from a worker thread after each search; the loop then calls
 * service_on_wake. Before this runs, games against the computer can be created but it does not move.
 * false with err filled on failure. */
bool service_computer_start(Service *svc, const ServiceComputerConfig *cfg, void (*wake)(void *), void *wake_ctx,
                            char *err, size_t err_size);

/* The loop woke up for the store or the computer: answers and broadcasts what was committed, and
 * plays the moves the computer found. */
void service_on_wake(Service *svc);
/* Milliseconds until the next clock or deadline runs out, -1 when none runs. Games with a change
 * being committed are left out, so ask again after every request, wake and timer. */
int64_t service_next_timer_ms(Service *svc);
/* Ends the games whose time ran out (time forfeit, 6.9 draw, correspondence deadline). */
void service_on_timer(Service *svc);

/* ---- The PGN export (service_pgn.c) ---- */

/* The longest public URL (--public-url). */
#define SERVICE_PUBLIC_URL_MAX 200

/* The site's public origin, e.g. "https://chess.example.org" (schach serve --public-url; default
 * http://localhost:PORT): a game's [Site] is it followed by /g/ID. Set once at start-up, before the
 * server answers anything (every thread reads it afterwards). false (nothing changed) unless url is
 * http:// or https:// followed by a host and optionally a path, at most SERVICE_PUBLIC_URL_MAX
 * characters of printing ASCII without quotes, backslashes or spaces; a trailing '/' is dropped. */
bool service_set_public_url(const char *url);
/* The public URL set, "" before any. */
const char *service_public_url(void);

/* The PGN of a stored game (record and moves, as a store read hands them over), exactly as GET
 * /api/games/{id}/pgn writes it (service_pgn.c): the players' names, their ratings and rating changes
 * in a rated game, the standard's Termination with the ending in words after the last move, [%clk]. Touches no service state, so any thread may call it (the accounts worker writes a player's
 * games with it). malloc'd text (*len bytes) or NULL with err filled (the moves cannot be replayed,
 * out of memory). */
char *service_pgn_of_record(const GameRecord *rec, const StoredMove *moves, int count, SchLang lang, size_t *len,
                            char *err, size_t err_size);

/* Secrets and their hashes, which the accounts' session tokens use too. */
#include "secret.h"

#endif
