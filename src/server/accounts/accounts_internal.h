/* The accounts' parts, shared by accounts.c (the event loop's side) and accounts_worker.c (the worker
 * thread). Not for the rest of the server: accounts.h is the interface. */
#ifndef SCHACH_SERVER_ACCOUNTS_INTERNAL_H
#define SCHACH_SERVER_ACCOUNTS_INTERNAL_H

#include <jansson.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "account.h"
#include "accounts.h"
#include "base/base.h"
#include "service/service.h"
#include "store/store.h"

#define ACC_TOKEN_LEN SECRET_LEN

typedef enum {
    ACC_E_BAD_JSON,
    ACC_E_BAD_REQUEST,
    ACC_E_BAD_NAME,
    ACC_E_BAD_PASSWORD,
    ACC_E_BAD_LOGIN,
    ACC_E_BAD_PASSWORD_NOW,
    ACC_E_NOT_LOGGED_IN,
    ACC_E_TAKEN,
    ACC_E_NO_ANALYSIS,    /* 404: nobody asked for an analysis of the game */
    ACC_E_NO_GAME,        /* 404: no game with this id */
    ACC_E_NOT_FINISHED,   /* 409: an analysis of a game in play (or aborted) */
    ACC_E_ANALYSIS_LIMIT, /* 429: the requester's analyses of the day are spent */
    ACC_E_CONFUSABLE,
    ACC_E_RATE,
    ACC_E_BUSY,
    ACC_E_STORAGE,
    ACC_E_INTERNAL,
    ACC_E_NO_SEEK,         /* 404: no open seek with this id (accepted, cancelled, expired) */
    ACC_E_OWN_SEEK,        /* 409: accepting one's own seek */
    ACC_E_RATED_LOGIN,     /* 401: rated seeks need an account */
    ACC_E_BAD_SECRET,      /* 403: cancel without the poster's secret */
    ACC_E_BAD_MEMBER,      /* 400: a member missing or with a value not allowed */
    ACC_E_UNKNOWN,         /* 400: a member not known here */
    ACC_E_NO_PLAYER,       /* 404: no account with this name */
    ACC_E_HEAVY,           /* 429: too many player pages or PGN exports of one address under way */
    ACC_E_MANY_SEEKS,      /* 409: the poster (account, or anonymous address) has its share of open seeks */
    ACC_E_WEAK_PASSWORD,   /* 400: a new password of only white space or one character repeated */
    ACC_E_COMMON_PASSWORD, /* 400: a new password on the list of common passwords */
    ACC_E_COUNT            /* none */
} AccError;

/* The workers (lanes), each a thread with its own queue and its own connection to the store, so that
 * no request waits behind another kind: passwords are hashed on one (tens of milliseconds each, on
 * purpose), a player's page and PGN export read on another, and everything else (who is logged in,
 * the lobby, ratings) on the third, which also hands back what all three finished. A fourth runs
 * nothing: it holds the answers of logins to a name under many attempts until their time
 * (ACCOUNTS_LOGIN_SLOWDOWN_MS after the hash), in order, each as long as its own delay, so a slowed
 * answer never holds up another lane. It has no connection. */
typedef enum { LANE_READ, LANE_HASH, LANE_HEAVY, LANE_DELAY, LANE_COUNT } AccLane;

typedef struct AccAnalysis AccAnalysis; /* accounts_analysis.c */

typedef struct AccLaneState {
    struct Accounts *a;
    StoreAccounts *db; /* the lane's thread's alone once it runs */
    Worker *worker;
} AccLaneState;

/* One request on its way to the worker and back. */
typedef struct AccJob {
    AccountsAction action;
    SchLang lang;
    bool secure;
    AccountsReply reply;
    void *ctx;
    uint64_t ticket;
    bool cancelled;                   /* the requester went away (set on the loop, read on the loop) */
    StoreAccounts *db;                /* the connection of the lane that runs it (set there) */
    int64_t queued_ms;                /* monotonic: when it was queued (one waiting too long is answered busy) */
    bool heavy;                       /* counted among its address's heavy reads in flight */
    char address[LIMITS_ADDRESS_MAX]; /* heavy: whose */
    int slow_ms;                      /* login: the answer is held this long after the hash (0: not) */
    int64_t release_ms;               /* login: monotonic, when the delay lane answers it (0: not held) */
    /* In: */
    char username[ACCOUNT_NAME_MAX + 1]; /* signup, login: as typed */
    /* password change, log out everywhere: the account (its name as shown) whose seat secrets were
     * revoked, for the loop to read its games in memory again (service_seats_revoked); "" otherwise */
    char revoked[ACCOUNT_NAME_MAX + 1];
    char key[ACCOUNT_NAME_MAX + 1]; /* login: the name's key ("" when it cannot be a name) */
    char password[ACCOUNT_PASSWORD_MAX];
    size_t password_len;
    bool never_matches; /* login: a password longer than any account's */
    char new_password[ACCOUNT_PASSWORD_MAX];
    size_t new_password_len;
    SeekRow seek;                              /* seek post: the new seek; get, cancel, accept: seek.id */
    char seek_secret[SECRET_LEN + 1];          /* post: the poster's new secret; accept: the accepter's */
    unsigned char cancel_hash[STORE_HASH_LEN]; /* cancel: the hash of the secret given; accept: withdraw's */
    char withdraw[STORE_ID_LEN + 1];           /* accept: the accepter's own seek to withdraw ("" none) */
    int color;                                 /* accept: the accepter's Color */
    char game_id[STORE_ID_LEN + 1];            /* accept: the game made; analysis: the game */
    AnalysisRow analysis;                      /* analysis: the stored row */
    char *analysis_result;                     /* analysis: its stored result (malloc'd), when done */
    bool analysis_run;                         /* analysis: run it here (asked for now, or left behind) */
    uint64_t service_ticket;                   /* accept: the state request to the service, while it is out */
    struct Accounts *owner;                    /* accept: while the service is asked */
    bool asking;                               /* accept: inside service_handle (it may answer at once) */
    bool answered;                             /* accept: answered while asking: freed when service_handle returns */
    bool pool;                                 /* seek post: quick pairing (take a matching seek when there is one) */
    char bad_member[40];                       /* ACC_E_UNKNOWN: which member */
    UnratedGame rate;                          /* rate: the game */
    int rated_before[2], rated_diff[2];        /* rate: what it came to */
    int page;                                  /* player: the page of games */
    PlayedFilter filter;                       /* player: which games */
    int64_t rated_rev;                         /* ... and the game's rev after it (0: not rated now) */
    bool has_session;
    unsigned char session_hash[STORE_HASH_LEN];
    /* game (ACCOUNTS_GAME, accounts_games.c): the service's request, asked as the session's account
     * (username its name as shown, "" for nobody; game_id the game to join) */
    ServiceAction game_action;
    char *game_body; /* malloc'd, NULL for none */
    int64_t seat_epoch;
    /* Out (the worker's): */
    AccError error;   /* ACC_E_COUNT: success, status and body say what */
    AccountCheck why; /* ACC_E_BAD_PASSWORD, _WEAK_PASSWORD, _COMMON_PASSWORD: which rule */
    int status;
    char *body;               /* JSON, malloc'd */
    size_t body_len;          /* its length when content_type is set (else strlen) */
    const char *content_type; /* NULL: JSON */
    char filename[64];        /* a download's file name (Content-Disposition), "" for none */
    char cookie[200];         /* a Set-Cookie value, "" for none */
    struct AccJob *next;
} AccJob;

struct Accounts {
    AccountsClock now;
    void *clock_ctx;
    void (*wake)(void *);
    void *wake_ctx;
    uint64_t next_ticket;
    AccountsConfig cfg;
    Limits *login_limits, *signup_limits;
    int64_t last_sweep_ms;
    Service *service;
    AccJob *in_service; /* accepted seeks whose game's state the service has not answered yet */
    /* The lobby's watchers (the loop's), the last list sent to them, and whether a read is on its way. */
    struct LobbyWatcher *watchers;
    int nwatchers, watchers_cap;
    uint64_t next_watch;
    char *lobby_text;
    size_t lobby_len;
    bool lobby_reading;

    AccLaneState lanes[LANE_COUNT];
    struct HeavyCount *heavy; /* the loop's: heavy reads in flight per address */
    int nheavy, heavy_cap;
    char dummy_hash[ACCOUNT_HASH_LEN]; /* the worker's: what an unknown name's password is checked against */
    int64_t swept_ms;                  /* the worker's: when it last looked for unrated games */
    atomic_bool watching;              /* the lobby has watchers (the worker reads it every 2 s) */
    unsigned char site_key[32];        /* the worker's: store_accounts.h site_key, once read */
    bool have_site_key;
    AccAnalysis *analysis; /* the analyses' workers and what the loop knows of them */
};

/* accounts.c */
int64_t accounts_now(Accounts *a);
int accounts_error_status(AccError e);
char *accounts_error_json(AccError e, SchLang lang, const char *arg);
void accounts_set_cookie(const char *token, bool secure, char *out, size_t size);
void accounts_clear_cookie(bool secure, char *out, size_t size);
void accounts_job_free(AccJob *j);
/* A job for req (its session's hash taken), or NULL when out of memory. */
AccJob *accounts_job_new(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx);
/* Answers e at once; returns a ticket. */
uint64_t accounts_answer_error(Accounts *a, AccountsReply reply, void *ctx, AccError e, SchLang lang, const char *arg,
                               int retry_after);

/* accounts_analysis.c: the engine's analyses of finished games. The loop's side: a GET or POST checked
 * and sent to the reads' lane; a job back from a worker answered (true when j was an analysis job: it
 * is freed); the watchers told of runs' progress. The reads' lane's part of a request. The analysis
 * workers started (after the lanes) and stopped (before them). */
uint64_t accounts_analysis_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx);
bool accounts_analysis_finish(Accounts *a, AccJob *j);
void accounts_analysis_on_wake(Accounts *a);
void accounts_analysis_request(Accounts *a, AccJob *j);
bool accounts_analysis_start(Accounts *a, Store *store, char *err, size_t err_size);
void accounts_analysis_stop(Accounts *a);

/* accounts_lobby.c: the loop's checks of a seek request (true when the job may go to the worker; else
 * *e says why), the worker's part, and the loop's last step of an accept (the game's state). */
bool accounts_lobby_check(Accounts *a, const AccountsRequest *req, AccJob *j, AccError *e, const char **arg);
void accounts_lobby_run(Accounts *a, AccJob *j);
/* Tells the store this server process is alive (its seeks stay in a cluster's lobby: store_accounts.h
 * seek_beat), when the last time is accounts_lobby_beat_ms() ago or more; on any thread with its db. */
void accounts_lobby_beat(Accounts *a, StoreAccounts *db);
int64_t accounts_lobby_beat_ms(void);
bool accounts_session_account(Accounts *a, AccJob *j, AccountRow *row, bool required);
void accounts_lobby_finish(Accounts *a, AccJob *j);

/* The secret of the side color of game id played by an account: derived from the site's key, so that
 * GET /api/me can hand it to any browser of the account without the database holding it. false
 * (with the job's error set) when the key cannot be read. Worker only. */
bool accounts_side_secret(Accounts *a, AccJob *j, const char *game_id, int color, int64_t epoch,
                          char out[SECRET_LEN + 1]);

/* accounts_games.c: a game created or joined as the session's account (ACCOUNTS_GAME): the loop's
 * check, the worker's part (who is logged in) and the loop's last step (the service's create or join,
 * answered as the service answers). */
uint64_t accounts_game_handle(Accounts *a, const AccountsRequest *req, AccountsReply reply, void *ctx);
void accounts_game_run(Accounts *a, AccJob *j);
void accounts_game_finish(Accounts *a, AccJob *j);

/* accounts_player.c: a player's page and all their games as PGN (ACCOUNTS_PLAYER, _PLAYER_PGN). */
void accounts_player_run(Accounts *a, AccJob *j);

/* accounts_time.c: a time control as the API writes it ({"type", "minutes", "increment"} and so on),
 * and the rating categories with their rule (docs/api.md "Rating categories"), for the web page. */
json_t *accounts_time_json(const TimeControl *time);
json_t *accounts_categories_json(void);

/* accounts_worker.c */
bool accounts_worker_start(Accounts *a, char *err, size_t err_size);
/* The worker's answers: an error (logged when it is the storage's), or a status with a JSON body. */
void accounts_fail(AccJob *j, AccError e, const char *why);
/* The error of a password rule broken (account_password_check): bad_password, weak_password or
 * common_password. */
AccError accounts_password_error(AccountCheck c);
void accounts_set_body(AccJob *j, int status, json_t *o);
/* The account's ratings as GET /api/me shows them; NULL with err filled when the store failed. */
json_t *accounts_ratings_json(StoreAccounts *db, const char *key, char *err, size_t err_size);
void accounts_worker_stop(Accounts *a);
/* Tests only: waits while the file the environment variable env names exists (at most a minute). */
void accounts_test_hold(Worker *w, int thread, const char *env);
/* Queues j on its action's lane; false when that queue is full (the job stays the caller's). */
bool accounts_worker_submit(Accounts *a, AccJob *j);
void accounts_worker_cancel(Accounts *a, uint64_t ticket);
AccJob *accounts_worker_take_done(Accounts *a);
/* The lobby has watchers (or none any more): the worker reads it every 2 s while it has. */
void accounts_worker_watch(Accounts *a, bool watching);

#endif
