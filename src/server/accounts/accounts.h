/* The accounts room (src/server/accounts/): accounts, sessions, the lobby's seeks, rating games,
 * player pages. Builds on service, store and base.
 *
 * schach serve: accounts, optional for players (docs/api.md "Accounts"). Sign up, log in, log out,
 * change the password, and who is logged in (GET /api/me).
 *
 * Passwords are hashed with Argon2id (account.h), which costs tens of milliseconds and 64 MiB on
 * purpose; so every request that touches a password or the database runs on a worker thread of its
 * own, one at a time (memory stays bounded, the event loop never waits), and comes back through the
 * wake function like the store's results. There are three such workers (lanes), each with its own
 * queue and connection: one hashes passwords (sign-up, login, password change), one reads players'
 * pages and PGN exports, one does the rest (GET /api/me, the lobby, ratings), so a read never waits
 * behind a hash or a long export. The queues are bounded: beyond one a request is answered 503 busy
 * at once; a request that waited in its queue over 4 s is answered 503 busy then; one whose client
 * left before it ran is dropped unrun. An address may have ACCOUNTS_HEAVY_PER_ADDRESS player pages
 * and exports under way; more are answered 429. Login attempts are limited per address and per name
 * and address (429 for that pair only: a guesser cannot lock the owner out, who logs in from another
 * address); a name tried more often than ACCOUNTS_LOGINS_PER_MINUTE a minute from all addresses
 * together is slowed down (each answer ACCOUNTS_LOGIN_SLOWDOWN_MS later), never refused. A failed
 * login takes as long as one with an unknown name (the hash is computed anyway), so the answer does
 * not tell which names exist.
 *
 * A session is a random token in a cookie (HttpOnly, SameSite=Lax, Secure over HTTPS), stored only as
 * its hash, valid for ACCOUNTS_SESSION_DAYS.
 *
 * Everything but the worker runs on the event loop's thread.
 */
#ifndef SCHACH_SERVER_ACCOUNTS_H
#define SCHACH_SERVER_ACCOUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "accounts/account.h"
#include "schach/types.h"
#include "service/service.h"
#include "store/store.h"

#define ACCOUNTS_COOKIE             "schach_session"
#define ACCOUNTS_SESSION_DAYS       30
#define ACCOUNTS_QUEUE_MAX          64   /* requests waiting for the worker */
#define ACCOUNTS_LOGINS_PER_MINUTE  10   /* failed or not, per name and address, and per address */
#define ACCOUNTS_LOGIN_SLOWDOWN_MS  2000 /* added to a login's answer while its name is tried more often */
#define ACCOUNTS_SIGNUPS_PER_MINUTE 5    /* per address */
#define ACCOUNTS_HEAVY_PER_ADDRESS  4    /* player pages and PGN exports under way at once, per address */
#define ACCOUNTS_SEEKS_PER_ACCOUNT  3    /* open seeks of one account (always) */
#define ACCOUNTS_SEEKS_PER_ADDRESS  3    /* open seeks of anonymous posters from one address (address limits) */

typedef struct Accounts Accounts;

typedef int64_t (*AccountsClock)(void *ctx);

typedef struct AccountsConfig {
    /* Login and sign-up attempts limited per address too (ACCOUNTS_*_PER_MINUTE); false as with
     * `schach serve --no-limits`. The limit per name and address, and the slowdown per name, always hold. */
    bool address_limits;
    /* Player pages and PGN exports (the heavy reads) one address may have under way at once (with
     * address_limits); more are answered 429. 0: ACCOUNTS_HEAVY_PER_ADDRESS. */
    int heavy_per_address;
    /* Tests only: the limits' clock stands still (client_limits.h, LimitsConfig.frozen). */
    bool frozen_limits;
    /* The cost of new password hashes (account.h): ACCOUNT_HASH_INTERACTIVE (0) but in tests. */
    AccountHashCost hash_cost;
    /* How much later a slowed login is answered; 0: ACCOUNTS_LOGIN_SLOWDOWN_MS (tests shorten it). */
    int login_slowdown_ms;
    /* The engine's analyses of finished games (0: the defaults below). */
    int analysis_workers;         /* threads, each with its engine (ACCOUNTS_ANALYSIS_WORKERS) */
    uint64_t analysis_nodes;      /* nodes per position (analysis.h ANALYSIS_DEFAULT_NODES) */
    int analysis_queue;           /* analyses waiting for a worker at most (ACCOUNTS_ANALYSIS_QUEUE) */
    int analysis_per_day_account; /* new analyses one account may ask for a day */
    int analysis_per_day_address; /* ... and one address (with address_limits) */
} AccountsConfig;

#define ACCOUNTS_ANALYSIS_WORKERS         1
#define ACCOUNTS_ANALYSIS_WORKERS_MAX     64
#define ACCOUNTS_ANALYSIS_QUEUE           100
#define ACCOUNTS_ANALYSIS_PER_DAY_ACCOUNT 30
#define ACCOUNTS_ANALYSIS_PER_DAY_ADDRESS 15

/* The list of common passwords that sign-up and password changes refuse (password_policy.h): Debian's
 * john-data unless the server names another (schach serve --common-passwords). Read once at start,
 * before accounts_create; false with err filled when it cannot be read or holds no password. */
#define ACCOUNTS_COMMON_PASSWORDS "/usr/share/john/password.lst"
bool accounts_load_common_passwords(const char *path, char *err, size_t err_size);

/* Opens the store's accounts connection and starts the worker. cfg NULL: the defaults above; now NULL:
 * real time. NULL with err filled on failure. */
Accounts *accounts_create(Store *store, const AccountsConfig *cfg, AccountsClock now, void *clock_ctx,
                          void (*wake)(void *), void *wake_ctx, char *err, size_t err_size);
/* The games' service: a seek accepted becomes one of its games (read from the store, its state in the
 * answer). Set before serving. */
void accounts_set_service(Accounts *a, Service *svc);
/* Stops the worker (the request it runs is finished; queued ones are dropped unanswered) and closes
 * the connection. */
void accounts_free(Accounts *a);

typedef enum {
    ACCOUNTS_SIGNUP,     /* POST /api/accounts {"username","password"} -> 201 + cookie */
    ACCOUNTS_LOGIN,      /* POST /api/session {"username","password"} -> 200 + cookie */
    ACCOUNTS_LOGOUT,     /* DELETE /api/session -> 200, the cookie cleared */
    ACCOUNTS_ME,         /* GET /api/me -> 200 {"username",...}, {"username": null} for nobody */
    ACCOUNTS_PASSWORD,   /* POST /api/account/password {"password","new_password"} -> 200 */
    ACCOUNTS_LOGOUT_ALL, /* DELETE /api/sessions -> 200 {"ended"}: every session and seat secret revoked */
    /* The engine's analysis of a finished game (docs/api.md "Analysis"; accounts_analysis.c): */
    ACCOUNTS_ANALYSIS,      /* GET /api/games/{id}/analysis -> 200 {"status",...} or 404 no_analysis */
    ACCOUNTS_ANALYSIS_POST, /* POST /api/games/{id}/analysis -> 202 queued, 200 when it exists */
    ACCOUNTS_ANALYSE,       /* internal: one analysis run on the analysis workers */
    /* The lobby (docs/api.md "Lobby"): */
    ACCOUNTS_SEEKS,       /* GET /api/seeks -> {"seeks":[...]} */
    ACCOUNTS_SEEK_POST,   /* POST /api/seeks {"time","color","rated","hold"} -> 201 {"id","secret"} */
    ACCOUNTS_SEEK_GET,    /* GET /api/seeks/{id} -> {"seek","game","color"} */
    ACCOUNTS_SEEK_CANCEL, /* DELETE /api/seeks/{id} {"secret"} -> 200 */
    ACCOUNTS_SEEK_ACCEPT, /* POST /api/seeks/{id}/accept -> 200 {"id","color","secret","state"} */
    ACCOUNTS_SEEK_HOLD,   /* internal: a WebSocket holds a seek (accounts_seek_hold) */
    ACCOUNTS_RATE,        /* internal: a rated game that ended (accounts_rate) */
    ACCOUNTS_PLAYER,      /* GET /api/players/{name}?page=N&result=won|lost|drawn -> the player's page */
    ACCOUNTS_LOBBY,       /* internal: the lobby read again for its watchers */
    ACCOUNTS_PLAYER_PGN,  /* GET /api/players/{name}/pgn -> all the player's games as one PGN file */
    /* POST /api/games and POST /api/games/{id}/join with a session cookie: the session's account is read
     * here, then the service creates or joins with the requester's side the account's (ServiceRequest
     * .account); its answer passes through unchanged. Without a valid session, as anonymous. */
    ACCOUNTS_GAME,
} AccountsAction;

typedef struct AccountsRequest {
    AccountsAction action;
    const char *body;    /* the JSON body (NUL-terminated), NULL for none */
    const char *seek;    /* the seek's id from the path, for the seek actions; the name for ACCOUNTS_PLAYER */
    int page;            /* ACCOUNTS_PLAYER: which page of games (0 first) */
    const char *filter;  /* ACCOUNTS_PLAYER: "won", "lost", "drawn" or NULL for all */
    const char *token;   /* the session token from the Cookie header (accounts_cookie_token), NULL for none */
    const char *address; /* the client's address key (client_limits.h), for the login limits */
    SchLang lang;
    bool secure; /* the page was served over HTTPS: the cookie gets Secure */
    /* ACCOUNTS_GAME: the service's action (ACTION_CREATE or ACTION_JOIN) and the game's id (join) */
    ServiceAction game_action;
    const char *game;
} AccountsRequest;

typedef struct AccountsAnswer {
    int status;
    const char *body; /* JSON */
    size_t len;
    const char *set_cookie;   /* a Set-Cookie value, or NULL */
    int retry_after;          /* seconds, for 429 and 503 busy; 0 otherwise */
    const char *content_type; /* NULL: application/json */
    const char *filename;     /* a download (Content-Disposition: attachment) under this name, or NULL */
} AccountsAnswer;

typedef void (*AccountsReply)(void *ctx, const AccountsAnswer *answer);

/* What /metrics shows of the analyses on this node. */
typedef struct AccountsAnalysisMetrics {
    uint64_t done; /* runs finished here (their result stored) */
    int waiting;   /* submitted here and not back yet (running or queued) */
} AccountsAnalysisMetrics;
void accounts_analysis_metrics(const Accounts *a, AccountsAnalysisMetrics *out);

/* Handles req: answers at once (a refusal) or after the worker ran it. Returns a ticket (never 0) for
 * accounts_cancel while the reply is outstanding. */
uint64_t accounts_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx);
/* The requester went away: the reply will not be called (what the request does still happens). */
void accounts_cancel(Accounts *a, uint64_t ticket);
/* The loop woke up: answers the requests the worker finished. */
void accounts_on_wake(Accounts *a);

/* A rated game ended (service.h ServiceGameOver): both players' ratings change on the worker, once
 * whichever node asks; the game's copy then shows the change (service_rated). Games whose node went
 * down before this are found by the worker itself: every minute it rates the rated games that ended in
 * the last week and were not rated. */
void accounts_rate(void *accounts, const GameRecord *rec);

/* The lobby live (WebSocket): fn(ctx, text, len) gets {"type":"lobby","seeks":[...]} (as GET /api/seeks)
 * at once when the list is known (else as soon as it is read) and again whenever it changed: after
 * every seek posted, withdrawn or accepted here, and, with watchers, every 2 s (other servers' seeks).
 * Returns an id (never 0) for accounts_lobby_unwatch, 0 when out of memory. */
typedef void (*AccountsLobbyEvent)(void *ctx, const char *json, size_t len);
uint64_t accounts_lobby_watch(Accounts *a, AccountsLobbyEvent fn, void *ctx);
void accounts_lobby_unwatch(Accounts *a, uint64_t id);
/* The poster of seek (who holds secret) left: the seek is withdrawn (if it is still open). */
void accounts_seek_abandon(Accounts *a, const char *seek, const char *secret);
/* The poster of seek (who holds secret) holds it over a WebSocket: a seek posted with "hold", which
 * waits only a short grace for this, now waits its full time (if it is still open). */
void accounts_seek_hold(Accounts *a, const char *seek, const char *secret);

/* The session token in a Cookie header (ACCOUNTS_COOKIE=...), copied into out; false when there is
 * none or it is malformed. */
bool accounts_cookie_token(const char *cookie, char *out, size_t size);

#endif
