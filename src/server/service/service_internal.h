/* schach serve: the service's model, what every one of its files shares: a game in memory (SvcGame),
 * a change on its way through the store (SvcPending), the service itself, one request (Req), the
 * errors, and the replies. Not for the transport: that one uses service.h only.
 *
 * The files, each along one seam, and the header that declares what it offers the others:
 *   service.c                  the public entry points: create, free, handle (dispatch), cancel; replies
 *                              (here)
 *   service_registry.c         games in memory by id and by slot, the cache of finished games (LRU),
 *                              reading a game from the store, the recently finished list, the timer list
 *                              (service_registry.h)
 *   service_change.c           changes: tried on the game, written through the store; subscriptions and
 *                              broadcasts (service_change.h, with service_commit.c and service_cluster.c)
 *   service_commit.c           what comes back from the store: applied and answered, or refused (503);
 *                              the timers that end games
 *   service_cluster.c          several servers on one store: refreshes, retries, the computer's lease
 *   service_body.c             request bodies: one JSON object with exactly the members an action names
 *                              (service_requests.h, with the actions)
 *   service_verbs.c            the game actions by name (ServiceVerb), for HTTP and the WebSocket alike
 *   service_actions.c          the requests that change a game (create, join, move, draw, claim, ...)
 *   service_read.c             the requests that only read (state, pgn, list, recent)
 *   service_rematch.c          rematch offers and the new game
 *   service_clock.c            clocks and deadlines (service_state.h, with service_json.c)
 *   service_json.c             the state object and summaries
 *   service_messages.c         errors in English and German (here)
 *   secret.c                   secrets, ids, hashes (secret.h)
 *   computer/                  the computer player and the rules' analyses on worker threads
 *                              (computer/service_computer.h; the workers: computer/computer.h)
 *
 * Memory: games in play always live in memory; a finished game lives there only while something holds
 * it (a subscriber, a change in flight, a search) or, up to the cache's size, because it was touched
 * recently. Nothing is freed while a public entry point is on the stack (Service.depth): a game
 * pointer stays valid for the whole of one service call. */
#ifndef SCHACH_SERVER_SERVICE_INTERNAL_H
#define SCHACH_SERVER_SERVICE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "computer/computer.h"
#include "engine.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "secret.h"
#include "service.h"
#include "store/store.h"

#define SVC_BODY_MAX   (16 * 1024) /* bigger request bodies are refused (413) */
#define SVC_SECRET_LEN SECRET_LEN  /* base64url of 32 bytes without padding */
#define SVC_RECENT_MAX 20          /* finished games ACTION_RECENT lists */
#define SVC_LIST_MAX   100         /* ids one list request may name */
#define SVC_DAY_MS     86400000LL

#define SVC_MOVE_JSON_MAX 128 /* one {"uci","san","san_de","at"} entry, as jansson writes it */

#define SVC_UNSTARTED_LIVE 0  /* Service.unstarted_*: games with a live clock */
#define SVC_UNSTARTED_SLOW 1  /* correspondence games and games without a clock */
#define SVC_EXPIRY_BATCH   64 /* expiries in the store at once: a start with many due waits its turn */

typedef struct SvcSub {
    uint64_t id;
    ServiceEvent event; /* NULL once unsubscribed while a broadcast ran */
    void *ctx;
    int side; /* the Color whose secret the subscriber showed (presence), -1 for none */
} SvcSub;

struct SvcPending;

/* One game in memory: the rules (Game), its stored row (rec) and everything derived from them. */
typedef struct SvcGame {
    GameRecord rec;
    SchGame game;
    bool aborted; /* ended by abort, which libschach has no termination for */
    /* The state's "moves" array as JSON text without the brackets, one entry per ply, appended as the
     * game goes on: serialising a state costs the same at ply 300 as at ply 3. */
    char *moves_text;
    size_t moves_len, moves_capacity;
    struct SvcPending *pending; /* the one change being committed, or NULL */
    SvcSub *subs;
    int sub_count, sub_capacity;
    int broadcasting; /* >0 while events are being delivered: unsubscribe only marks */
    int online[2];    /* per Color: subscriptions holding that side's secret (this node's only) */
    /* The registry's links (service_registry.c): */
    uint32_t slot;                       /* index in Service.slots while registered */
    struct SvcGame *hash_next;           /* chain of its bucket */
    struct SvcGame *lru_prev, *lru_next; /* the cache list, while in it */
    bool in_lru;
    /* Games nobody has begun (not both sides moved) are aborted after a while (service_set_unstarted_expiry):
     * one of the service's two lists of them, ordered by unstarted_since (service_registry.c). */
    struct SvcGame *unstarted_prev, *unstarted_next;
    bool in_unstarted;
    bool forget;             /* expired: freed when the outermost service call ends, unless something holds it */
    int64_t unstarted_since; /* its key in that list: the record's updated_ms when it was put there */
    int64_t flag_retry_ms;   /* a failed time-out write is retried from then on */
    struct SvcGame *timer_prev, *timer_next; /* list of games whose clock or deadline runs */
    bool in_timer_list;
    /* Games against the computer (mode "computer"): */
    const EngineLevel *level; /* the computer's level; NULL in other games */
    int computer;             /* the Color the computer plays, -1 in other games */
    uint64_t job;             /* serial of its search under way, 0 when none */
    bool has_result;          /* a search result waiting until the game's pending change is committed */
    int result_ply;           /* the ply that result answers */
    EngineResult result;
    bool has_score; /* score: the computer's latest evaluation, from its point of view */
    int score;
    /* The rules' analyses on the workers (service_rules.c): a dead position (5.2.2) after a move
     * whose locked structure the quick pass could not settle, and the 6.9 verdict at a flag fall. */
    uint64_t dead_job;      /* serial of the dead-position analysis under way, 0 when none */
    bool dead_ready;        /* dead_verdict holds a dead position, waiting for the game's change */
    int dead_ply;           /* the ply count it was analysed at */
    uint8_t dead_reason[2]; /* SchWinReason per colour */
    uint64_t flag_job;      /* serial of the 6.9 analysis under way, 0 when none */
    bool flag_judged;       /* flag_verdict answers the flag fall at flag_ply */
    int flag_ply;
    uint8_t flag_verdict; /* Winnability of the side with time */
    uint8_t flag_reason;  /* its SchWinReason */
    /* The premove (service_premove.c): one move in UCI queued by a side for its next turn, played by the
     * service as soon as that turn comes. Kept on this node only (docs/api.md "Premoves"). */
    int premove_side;    /* 1 + the Color that queued it, 0: none */
    int premove_ply;     /* the ply count at which it is to be played */
    char premove_uci[8]; /* "e7e5", "e7e8q" */
    /* Several servers on one store (service_cluster.c): */
    int64_t store_rev;       /* the highest rev this node heard the store has (> rec.rev: the copy is behind) */
    int64_t lease_rev;       /* the rev at which this node holds the lease on the computer's thinking, 0: none */
    bool claiming;           /* a claim of that lease is in the store */
    int64_t claim_retry_ms;  /* another node held the lease: ask again from then on (0: no retry due) */
    int64_t claim_retry_rev; /* the rev claim_retry_ms waits at: on another rev, a claim goes out at once */
} SvcGame;

/* One finished game of the recent list: its summary, without the game. */
typedef struct SvcRecent {
    json_t *summary;
    int64_t updated_ms;
} SvcRecent;

typedef enum {
    CH_CREATE,
    CH_JOIN,
    CH_MOVE,
    CH_DRAW,
    CH_CLAIM,
    CH_RESIGN,
    CH_ABORT,
    CH_TIMEOUT,
    CH_DEAD,
    CH_REMATCH,  /* a finished game's rematch offer, refusal, or the new game (service_rematch.c) */
    CH_TAKEBACK, /* a takeback request, its refusal, or the plies taken back (service_takeback.c) */
    CH_LEASE     /* not a change: the claim of the lease on the computer's thinking (service_cluster.c) */
} ChangeKind;
typedef enum { DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE } DrawAction;

/* A change on its way through the store; op must stay first so a returned StoreOp leads back here. */
typedef struct SvcPending {
    StoreOp op;
    ChangeKind kind;
    SvcGame *game;
    SchColor color;                    /* who acts */
    SchMove move;                      /* CH_MOVE */
    int claim;                         /* CH_MOVE with a claim, CH_CLAIM: CLAIM_* bits (0: any), -1: none */
    DrawAction draw;                   /* CH_DRAW, CH_TAKEBACK */
    int takeback_plies;                /* CH_TAKEBACK accepted: how many plies go (1 or 2), else 0 */
    bool claim_rejected;               /* CH_MOVE: the claim with the move was incorrect */
    bool by_computer;                  /* the computer player's own change */
    bool replayed;                     /* another node's committed move, replayed here from its note */
    bool expiry;                       /* CH_ABORT of a game nobody began, by the service's timer */
    int dead_ply;                      /* CH_DEAD: the ply count the position was found dead at */
    uint8_t dead_reason[2];            /* CH_DEAD: SchWinReason per colour */
    uint8_t flag_verdict, flag_reason; /* CH_TIMEOUT of a live game: the 6.9 verdict (winnable.h) */
    SchLang lang;                      /* of the requester, for a storage error */
    char secret[SVC_SECRET_LEN + 1];   /* CH_CREATE, CH_JOIN: the new secret of color */
    char secret2[SVC_SECRET_LEN + 1];  /* CH_CREATE local: the other side's */
    char invite[SVC_SECRET_LEN + 1];   /* CH_CREATE friend: the invitation */
    struct SvcGame *spawned;           /* CH_REMATCH: the new game, owned here until it is registered */
    ServiceReply reply;                /* NULL: nobody waits (cancelled, or a timer's change) */
    void *ctx;
    uint64_t ticket;
    /* Several servers: the request again, so a change another node got in first can be tried once
     * more on the refreshed game (service_cluster.c). NULL body and json: not kept. */
    ServiceAction action;
    char *body;
    json_t *json; /* a reference to the parsed body the request came with (ServiceRequest.json) */
    char account[STORE_ACCOUNT_LEN + 1]; /* ... and its ServiceRequest.account ("" for none) */
    int64_t seat_epoch;
    bool lang_explicit;
    int retries;
    double arrived_ms;              /* CH_MOVE asked for by a request: when it arrived (svc_monotonic_ms), else 0 */
    struct SvcPending *prev, *next; /* the service's list of changes in the store */
} SvcPending;

struct Service {
    Store *store;
    ServiceGameOver game_over; /* service_set_game_over */
    void *game_over_ctx;
    ServiceClock now_fn;
    void *now_ctx;
    int depth; /* public calls on the stack; the cache is trimmed only when it drops to 0 */
    /* The registry: games in memory by id (chained hash) and by slot (subscription ids name slots). */
    SvcGame **buckets;
    uint32_t bucket_count, game_count;
    SvcGame **slots;
    uint32_t slot_count, slot_capacity; /* slots used so far (high-water mark), allocated */
    uint32_t *free_slots;               /* slots given back, reused first */
    uint32_t free_count;
    /* Finished games nothing holds, most recently touched first; at most cache_max of them. */
    SvcGame *lru_head, *lru_tail;
    int lru_count, cache_max;
    SvcGame *timers; /* games whose clock or deadline runs */
    /* Games in play in which not both sides have moved, oldest change first: [SVC_UNSTARTED_LIVE] with a
     * live clock, [SVC_UNSTARTED_SLOW] the others (correspondence, no clock); each expires unstarted_ms
     * after its last change (service_commit.c). */
    SvcGame *unstarted_head[2], *unstarted_tail[2];
    int64_t unstarted_ms[2];
    int64_t unstarted_retry_ms;       /* a failed expiry write: no expiry is tried before then */
    int expiring;                     /* expiries in the store */
    bool loading;                     /* svc_registry_load runs: the lists are built once it is done */
    SvcRecent recent[SVC_RECENT_MAX]; /* the most recently finished games, newest first */
    int recent_count;
    SvcPending *pending; /* changes submitted and not yet back */
    uint64_t next_ticket;
    uint64_t next_sub;  /* serial of the last subscription, service-wide */
    Computer *computer; /* the computer player's workers; NULL until service_computer_start */
    ServiceComputerConfig computer_cfg;
    uint64_t next_job; /* serial of the last search handed to the workers */
    ServiceMetrics metrics;
    /* Several servers on one store (service_cluster.c): */
    bool cluster;                  /* other nodes may change the games: leases, refreshes, retries */
    char node[STORE_NODE_LEN + 1]; /* this node's name in leases */
    int retry_depth;               /* > 0 while a refused change's request is handled once more */
    int pending_count;             /* changes in the store (the list svc->pending) */
    /* The key the secrets of rematches and accounts' sides are derived from (service_set_site_key). */
    unsigned char site_key[32];
};

/* One request being answered. */
typedef struct Req {
    Service *svc;
    const ServiceRequest *in;
    SchLang lang;
    ServiceReply reply;
    void *ctx;
    uint64_t ticket;
    bool caught_up; /* the game was compared with the store for this request already (svc_handled_again) */
} Req;

/* --- service_messages.c: errors in English and German --- */

typedef enum {
    SVC_E_BAD_JSON,
    SVC_E_MISSING,     /* %s: member */
    SVC_E_NOT_STRING,  /* %s: member */
    SVC_E_NOT_INTEGER, /* %s: member */
    SVC_E_NOT_OBJECT,  /* %s: member */
    SVC_E_UNKNOWN,     /* %s: member */
    SVC_E_VALUE,       /* %s: member */
    SVC_E_FEN,         /* %s: libschach's reason */
    SVC_E_FEN_OVER,
    SVC_E_BAD_SECRET,
    SVC_E_BAD_INVITE,
    SVC_E_NOT_FOUND,
    SVC_E_NO_PATH,
    SVC_E_METHOD,
    SVC_E_NOT_YOUR_TURN,
    SVC_E_STALE,
    SVC_E_GAME_OVER,
    SVC_E_BUSY,
    SVC_E_NO_CLAIM,
    SVC_E_NO_OFFER,
    SVC_E_CANNOT_ABORT,
    SVC_E_NOT_OVER,          /* a rematch of a game still in play */
    SVC_E_NO_REMATCH,        /* declining when no offer stands */
    SVC_E_REMATCH_MADE,      /* declining once the new game exists */
    SVC_E_TAKEBACK_RATED,    /* a takeback asked for in a rated game */
    SVC_E_TAKEBACK_COMPUTER, /* a takeback asked for in a game against the computer */
    SVC_E_NO_TAKEBACK,       /* the asker has no move to take back */
    SVC_E_NO_TAKEBACK_OFFER, /* answering when no takeback request of the opponent stands */
    SVC_E_NO_PREMOVE,        /* a premove in a game without a live clock */
    SVC_E_TOO_LARGE,
    SVC_E_ILLEGAL,   /* %s: libschach's explanation */
    SVC_E_BAD_LEVEL, /* %s: the level asked for */
    SVC_E_STORAGE,   /* a write failed (503): nothing changed, try again later */
    SVC_E_READ,      /* a game could not be read from the store (503) */
    SVC_E_INTERNAL,  /* out of memory (500) */
    SVC_E_COUNT
} SvcError;

/* HTTP status of an error. */
int svc_error_status(SvcError e);
/* Machine code of an error ("bad_json", "bad_request", ...). */
const char *svc_error_code(SvcError e);
/* {"error":{"code","message"}} with the message in lang; arg fills the template's %s (may be NULL).
 * New reference. */
json_t *svc_error_json(SvcError e, SchLang lang, const char *arg);

/* --- service.c: time and replies --- */

int64_t svc_now(const Service *svc);
/* Milliseconds of CLOCK_MONOTONIC with their fraction, for the latencies of the metrics. */
double svc_monotonic_ms(void);
bool svc_is_over(const SvcGame *g);
/* Which side of g secret is the secret of, or -1 (also for NULL). A side an account plays is checked
 * against the secret derived with its current seat epoch (secret_side), so one revoked by a password
 * change or "log out everywhere" no longer matches; any other side against its stored hash. */
int svc_side_of(const Service *svc, const SvcGame *g, const char *secret);
/* Calls reply, when somebody waits for it, with the answer's parts. */
void svc_deliver(ServiceReply reply, void *ctx, int status, const char *type, const char *body, size_t len, int ply,
                 bool duplicate, bool claim_rejected);
/* Sends j (consumed) as the JSON reply; NULL j means out of memory. */
void svc_send_json(ServiceReply reply, void *ctx, int status, json_t *j);
/* Sends text (freed here; NULL means out of memory) as the JSON reply about a game at ply. */
void svc_send_text(ServiceReply reply, void *ctx, int status, char *text, size_t len, int ply, bool duplicate,
                   bool claim_rejected);
/* Answers r with error e; returns r's ticket. */
uint64_t svc_reply_error(Req *r, SvcError e, const char *arg);
/* obj (consumed) with "state": the game's state, as text. */
char *svc_with_state(const Service *svc, const SvcGame *g, json_t *obj, size_t *len);

/* --- service.c --- */

/* Handles r for game g (a game action) as service_handle does after finding the game. */
uint64_t svc_handle_game(Req *r, SvcGame *g);
/* Frees a change and what it holds. */
void svc_pending_free(SvcPending *p);

#endif
