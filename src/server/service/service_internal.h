/* schach serve: what the service's files share. Not for the transport: that one uses service.h only.
 *
 * The files, each along one seam:
 *   service.c                  the public entry points: create, free, handle (dispatch), cancel; replies
 *   service_registry.c         games in memory by id and by slot, the cache of finished games (LRU),
 *                              reading a game from the store, the recently finished list, the timer list
 *   service_change.c           changes: tried on the game, written through the store; subscriptions and
 *                              broadcasts
 *   service_body.c             request bodies: one JSON object with exactly the members an action names
 *   service_verbs.c            the game actions by name (ServiceVerb), for HTTP and the WebSocket alike
 *   service_actions.c          the requests that change a game (create, join, move, draw, claim, ...)
 *   service_read.c             the requests that only read (state, pgn, list, recent)
 *   service_commit.c           what comes back from the store: applied and answered, or refused (503);
 *                              the timers that end games
 *   service_computer.c         the computer player's plumbing: searches, results, its own changes
 *   service_computer_policy.c  how the computer player behaves (pure decisions)
 *   service_clock.c            clocks and deadlines
 *   service_json.c             the state object and summaries
 *   service_messages.c         errors in English and German
 *   secret.c                   secrets, ids, hashes
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

#include "computer.h"
#include "engine.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "service.h"
#include "secret.h"
#include "store/store.h"

#define SVC_BODY_MAX   (16 * 1024) /* bigger request bodies are refused (413) */
#define SVC_SECRET_LEN SECRET_LEN  /* base64url of 32 bytes without padding */
#define SVC_RECENT_MAX 20          /* finished games ACTION_RECENT lists */
#define SVC_LIST_MAX   100         /* ids one list request may name */
#define SVC_DAY_MS     86400000LL

#define SVC_MOVE_JSON_MAX 96 /* one {"uci","san","san_de"} entry, as jansson writes it */

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
    Game game;
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
    int64_t flag_retry_ms;                   /* a failed time-out write is retried from then on */
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
    uint8_t dead_reason[2]; /* WinReason per colour */
    uint64_t flag_job;      /* serial of the 6.9 analysis under way, 0 when none */
    bool flag_judged;       /* flag_verdict answers the flag fall at flag_ply */
    int flag_ply;
    uint8_t flag_verdict; /* Winnability of the side with time */
    uint8_t flag_reason;  /* its WinReason */
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
    CH_REMATCH, /* a finished game's rematch offer, refusal, or the new game (service_rematch.c) */
    CH_LEASE    /* not a change: the claim of the lease on the computer's thinking (service_cluster.c) */
} ChangeKind;
typedef enum { DRAW_OFFER, DRAW_ACCEPT, DRAW_DECLINE } DrawAction;

/* A change on its way through the store; op must stay first so a returned StoreOp leads back here. */
typedef struct SvcPending {
    StoreOp op;
    ChangeKind kind;
    SvcGame *game;
    Color color;                       /* who acts */
    Move move;                         /* CH_MOVE */
    int claim;                         /* CH_MOVE with a claim, CH_CLAIM: CLAIM_* bits (0: any), -1: none */
    DrawAction draw;                   /* CH_DRAW */
    bool claim_rejected;               /* CH_MOVE: the claim with the move was incorrect */
    bool by_computer;                  /* the computer player's own change */
    bool replayed;                     /* another node's committed move, replayed here from its note */
    int dead_ply;                      /* CH_DEAD: the ply count the position was found dead at */
    uint8_t dead_reason[2];            /* CH_DEAD: WinReason per colour */
    uint8_t flag_verdict, flag_reason; /* CH_TIMEOUT of a live game: the 6.9 verdict (winnable.h) */
    Lang lang;                         /* of the requester, for a storage error */
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
    SvcGame *timers;                  /* games whose clock or deadline runs */
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
    Lang lang;
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
    SVC_E_NOT_OVER,     /* a rematch of a game still in play */
    SVC_E_NO_REMATCH,   /* declining when no offer stands */
    SVC_E_REMATCH_MADE, /* declining once the new game exists */
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
json_t *svc_error_json(SvcError e, Lang lang, const char *arg);

/* --- service.c: time and replies --- */

int64_t svc_now(const Service *svc);
/* Milliseconds of CLOCK_MONOTONIC with their fraction, for the latencies of the metrics. */
double svc_monotonic_ms(void);
bool svc_is_over(const SvcGame *g);
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

/* --- service_registry.c: games in memory, the cache, the store's reads --- */

/* A zeroed game at the standard start (computer -1); NULL when out of memory. */
SvcGame *svc_game_new(void);
/* Frees a game that is not registered (or was just unregistered). NULL is fine. */
void svc_game_free(SvcGame *g);
/* Whether something holds g in memory: it is in play, watched, changing or thought about. */
bool svc_game_pinned(const SvcGame *g);
/* The game with this id in memory, or NULL (the store is not asked). */
SvcGame *svc_find(const Service *svc, const char *id);
/* The game with this id: from memory, else read from the store and kept (in play: for good; finished:
 * in the cache). NULL with *err (SVC_E_NOT_FOUND, SVC_E_READ, SVC_E_INTERNAL) when it cannot. */
SvcGame *svc_fetch(Service *svc, const char *id, SvcError *err);
/* The game registered in slot (a subscription's), or NULL. */
SvcGame *svc_slot_game(const Service *svc, uint32_t slot);
/* Adds a new game to memory; false when out of memory. */
bool svc_register(Service *svc, SvcGame *g);
/* After g was used or changed: a finished game nothing holds goes to the front of the cache, a held
 * one out of it. Frees nothing (see svc_leave). */
void svc_touch(Service *svc, SvcGame *g);
/* Every public entry point brackets its work with these: on leaving the outermost one, the cache is
 * trimmed to its size (least recently touched games freed first). */
void svc_enter(Service *svc);
void svc_leave(Service *svc);
/* Starts g's game from fen (game_init_fen_mode); a Chess960 start array other than the standard one
 * is marked Chess960 (pos->chess960) even where its castling looks standard. false with err set. */
bool svc_game_start(SvcGame *g, const char *fen, GameDeadMode mode, SchError *err);
/* g's variant: Chess960 when its start is (as svc_game_start marks it), else standard chess. */
Variant svc_game_variant(const SvcGame *g);
/* Builds a game from its stored record and moves; NULL with err filled when they cannot be replayed. */
SvcGame *svc_game_build(const GameRecord *record, const StoredMove *moves, int count, char *err, size_t err_size);
/* Reads every game in play and the recent list at start-up; false with err filled. */
bool svc_registry_load(Service *svc, char *err, size_t err_size);
/* Frees every game in memory and the registry's tables. */
void svc_registry_free(Service *svc);
/* Keeps g (which just finished) in the recent list when it is among the SVC_RECENT_MAX newest. */
void svc_recent_insert(Service *svc, const SvcGame *g);
/* Puts g into the timer list or takes it out, as its clock runs or not. */
void svc_timer_update(Service *svc, SvcGame *g);

/* --- service_change.c: changes through the store, subscriptions, broadcasts --- */

/* A change of g by color for the request r (NULL: the service's own); NULL when out of memory. */
SvcPending *svc_pending_new(Req *r, SvcGame *g, ChangeKind kind, Color color);
/* Performs p's action on the game; false with err when libschach refuses it. */
bool svc_change_run(SvcGame *g, SvcPending *p, SchError *err);
/* Tries p on its game at now and fills p->op with the write it needs; the game is left as it was.
 * false with err when the change is refused. */
bool svc_change_prepare(SvcPending *p, int64_t now, SchError *err);
/* Hands p's write to the store; p's game counts as changing until it comes back. */
void svc_pending_submit(Service *svc, SvcPending *p);
void svc_pending_unlink(Service *svc, SvcPending *p);
/* Prepares and submits a change for r; on refusal answers with the matching error. */
uint64_t svc_change_start(Req *r, SvcPending *p);
/* The side to move's flag fell (or its deadline passed) and no timer has ended the game yet. */
bool svc_time_is_up(const SvcGame *g, int64_t now);
/* Ends g by time (a change of the service's own). */
void svc_timeout_start(Service *svc, SvcGame *g, int64_t now);
/* Tells every subscriber of g its new state (text of the state object). */
void svc_broadcast(Service *svc, SvcGame *g, const char *state);

/* --- service_body.c: request bodies --- */

typedef struct Field {
    const char *name;
    char type; /* 's' string, 'i' integer, 'o' object, '*' anything */
    bool required;
} Field;

/* The WebSocket envelope, accepted (and ignored) in every body: put ENVELOPE_FMT at the end of a
 * json_unpack format and ENVELOPE_ARGS(e) at the end of its arguments. */
#define ENVELOPE_FMT     "s?s, s?s, s?o, s?s !}"
#define ENVELOPE_ARGS(e) "type", &(e).type, "game", &(e).game, "id", &(e).id, "lang", &(e).lang

typedef struct Envelope {
    const char *type, *game, *lang;
    json_t *id;
} Envelope;

/* Parses r's body as an object with fields; NULL after answering the error. Sets r->lang from a
 * "lang" member unless the query chose the language. */
json_t *svc_body_parse(Req *r, const Field *fields, size_t n);
/* Checks members of obj against fields (unknown, missing, wrong type); prefix ("time.") qualifies
 * nested names. true, or false after answering the error. */
bool svc_members_check(Req *r, json_t *obj, const Field *fields, size_t n, bool with_envelope, const char *prefix);
/* Answers the error of a strict unpack (out-of-range integers jansson refuses) and frees obj. */
bool svc_unpack_failed(Req *r, json_t *obj, const json_error_t *jerr);

/* The create body's "time" member (NULL: none): every member present only where its type allows and
 * within its range. true, or false after answering 400 naming the member. */
bool svc_time_parse(Req *r, json_t *time, TimeControl *t);

/* --- service_actions.c, service_read.c: the requests --- */

uint64_t svc_action_create(Req *r);
uint64_t svc_action_join(Req *r, SvcGame *g);
uint64_t svc_action_move(Req *r, SvcGame *g);
uint64_t svc_action_draw(Req *r, SvcGame *g);
uint64_t svc_action_claim(Req *r, SvcGame *g);
uint64_t svc_action_secret_only(Req *r, SvcGame *g, ChangeKind kind); /* resign, abort */
uint64_t svc_action_state(Req *r, SvcGame *g);
uint64_t svc_action_pgn(Req *r, SvcGame *g);
uint64_t svc_action_positions(Req *r, SvcGame *g);
uint64_t svc_action_list(Req *r);
uint64_t svc_action_recent(Req *r);
uint64_t svc_action_rematch(Req *r, SvcGame *g); /* service_rematch.c */
/* A rematch change came back committed: the new game registered, the old one's row taken, both told. */
void svc_rematch_committed(Service *svc, SvcPending *p);
/* The state's "rematch" member: null, or {"offered_by","declined_by","game"}. New reference. */
json_t *svc_rematch_json(const SvcGame *g);

/* --- service.c --- */

/* Handles r for game g (a game action) as service_handle does after finding the game. */
uint64_t svc_handle_game(Req *r, SvcGame *g);
/* Frees a change and what it holds. */
void svc_pending_free(SvcPending *p);

/* --- service_cluster.c: several servers on one store --- */

/* Whether the store is known to be ahead of g's copy in memory. */
bool svc_game_stale(const SvcGame *g);
/* Reads g again from the store and, when the store is ahead, replaces the copy in memory (clocks,
 * subscribers and the registry's links stay), tells the subscribers and pokes the computer and the
 * rules. false when the read failed (g stays as it was). Not while a change of g is in the store. */
bool svc_refresh(Service *svc, SvcGame *g);
/* Whether another node changed g since this copy was read: the store is asked for g's rev (one small
 * read) and, when it is ahead, g is read again. true when g changed. Not while a change of g is in
 * the store; false on a single node. */
bool svc_catch_up(Service *svc, SvcGame *g);
/* Before r is refused for what this node knows of g (no draw offer, not the player's turn, an unknown
 * secret, time up): when another node changed g meanwhile (svc_catch_up), r is handled once more on
 * the game read again and true returned (r is answered then); false: the refusal stands. Asks the
 * store once per request. */
bool svc_handled_again(Req *r, SvcGame *g);
/* The store refused p as made on an outdated copy: the game is refreshed and p's request handled once
 * more on it (a move already played by the same request answers as a duplicate), or answered 409
 * stale_ply. */
void svc_commit_conflict(Service *svc, SvcPending *p);
/* Announcements of other nodes' commits: copies behind the store are marked, watched ones refreshed. */
void svc_notices(Service *svc, StoreNotice *list);
/* The computer may think in g now: true when this node holds the lease for g's rev (or there is only
 * one node); otherwise a claim is started (or a retry scheduled) and false returned. */
bool svc_lease_held(Service *svc, SvcGame *g);
/* A claim came back from the store. */
void svc_lease_done(Service *svc, SvcPending *p);

/* --- service_commit.c: committed or failed writes --- */

/* Applies a committed change to the game in memory, answers and broadcasts it. */
void svc_commit_apply(Service *svc, SvcPending *p);
/* A write failed: the game stays as it was, the requester gets 503 storage. */
void svc_commit_failed(Service *svc, SvcPending *p);

/* --- service_computer.c: the computer player's plumbing --- */

/* Whatever the computer has to do in g now: answer a draw offer made on the opponent's turn, play a
 * search result that waited, or start thinking. Called after every change of a game against it. */
void svc_computer_poke(Service *svc, SvcGame *g);
/* A search came back: kept for its game when the game still waits for it, else dropped. */
void svc_computer_result(Service *svc, const ComputerJob *job);

/* service_rules.c: the rules' analyses off the event loop. */
/* Starts what g waits for: the full dead-position analysis of its position, or the change that ends
 * it as dead once that analysis came back. Call whenever g may have changed (like svc_computer_poke). */
void svc_rules_poke(Service *svc, SvcGame *g);
/* A game read from the store: from now on its dead positions are deferred to the workers; a game in
 * play whose position is dead by the rules (an older server let it go on) is ended at the next poke. */
void svc_rules_loaded(SvcGame *g);
/* A JOB_DEAD or JOB_FLAG came back. */
void svc_rules_result(Service *svc, const ComputerJob *job);
/* A live game's flag fell: true when the 6.9 verdict for its position is at hand (in g->flag_*);
 * otherwise the analysis is started (once) and svc_timeout_start is called again when it is done. */
bool svc_flag_judged(Service *svc, SvcGame *g, int64_t now);

/* --- service_clock.c: clocks and deadlines (docs/api.md "Clocks") --- */

/* Whether the game's time runs now: a time control, both sides have moved, the game goes on. */
bool svc_clock_running(const SvcGame *g);
/* Live: what color has left at now (never below 0); the stored value when its clock stands. */
int64_t svc_time_left(const SvcGame *g, Color color, int64_t now);
/* Correspondence: when the side to move loses, or 0 when no deadline runs. */
int64_t svc_deadline(const SvcGame *g);
/* Whether a clock or deadline runs; then *ms is the time from now until it expires (<= 0: expired). */
bool svc_expiry(const SvcGame *g, int64_t now, int64_t *ms);
/* Updates rec's clock fields for a move by the side to move of g (before the move) at now: the mover's
 * time is charged and the increment added while the clock runs; plies_after is g's ply count after it. */
void svc_clock_after_move(const SvcGame *g, GameRecord *rec, int plies_after, int64_t now);
/* Stops the clock in rec when the game ends at now: the side to move is charged its time. */
void svc_clock_stop(const SvcGame *g, GameRecord *rec, int64_t now);

/* --- service_json.c: the state object, summaries --- */

/* Makes room for one more entry in g->moves_text; false when out of memory. */
bool svc_moves_reserve(SvcGame *g);
/* Appends the entry of legal move m, to be played in pos, to g->moves_text (room reserved before). */
void svc_moves_append(SvcGame *g, const Position *pos, Move m);
/* The state object of docs/api.md at now as compact JSON text (malloc'd, *len bytes); NULL when out
 * of memory. */
char *svc_state_text(const SvcGame *g, int64_t now, size_t *len);
/* obj (consumed) as compact JSON text with one more member name (a plain key) whose value is the JSON
 * text raw, e.g. {"state": <state text>}. malloc'd, NULL when out of memory. */
char *svc_json_with(json_t *obj, const char *name, const char *raw, size_t *len);
/* The summary of docs/api.md. New reference. */
json_t *svc_summary_json(const SvcGame *g);
/* json_dumps compactly; NULL when out of memory. Caller frees. */
char *svc_dump(const json_t *j, size_t *len);

/* --- service_computer_policy.c: how the computer player behaves (docs/api.md) --- */

typedef enum { SVC_ACT_MOVE, SVC_ACT_CLAIM, SVC_ACT_ACCEPT_DRAW } SvcComputerAct;

/* The level named by a game record (NULL when the record has none or names an unknown one), and the
 * Color the computer plays in it: the side nobody holds (-1 when the game is not against it). */
const EngineLevel *svc_computer_level(const GameRecord *rec);
int svc_computer_color(const GameRecord *rec);
/* The limits of the computer's next search in g at now: from the clock and increment in live games,
 * else the level's thinking budget (or cfg->think_ms); cfg->depth caps every search. */
void svc_computer_limits(const SvcGame *g, const ServiceComputerConfig *cfg, int64_t now, EngineLimits *out);
/* What the computer does with its search result (best move, score from its side) on its turn in g
 * (the engine's draw policy, engine_draw_choice): accept the opponent's standing draw offer, claim a
 * draw, or play the move; *claim receives the claim to make with the move (0: any) or -1. */
SvcComputerAct svc_computer_choose(const SvcGame *g, Move best, int score, int *claim);
/* Whether the computer accepts the opponent's draw offer in g now, when it is the opponent's turn:
 * by its latest evaluation, else by the static evaluation of the position. */
bool svc_computer_accepts_offer(const SvcGame *g);
/* The state's "computer" member: null, or its color, level id, names and Elo. New reference. */
json_t *svc_computer_json(const SvcGame *g);
/* The computer's name in a PGN, e.g. "schach (Club player)", into out. */
void svc_computer_name(const EngineLevel *level, Lang lang, char *out, size_t size);
/* GET /api/levels: {"levels":[{id, name, name_de, elo}, ...]}. New reference. */
json_t *svc_levels_json(void);

/* --- secret.c: secret.h --- */

#endif
