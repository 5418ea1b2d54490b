/* schach serve: what the service's files share (service.c, service_json.c, service_clock.c,
 * service_messages.c, secret.c). Not for the transport: that one uses service.h only. */
#ifndef SCHACH_SERVER_SERVICE_INTERNAL_H
#define SCHACH_SERVER_SERVICE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "schach/engine.h"
#include "schach/game.h"
#include "schach/notation.h"
#include "service.h"
#include "store.h"

#define SVC_BODY_MAX   (16 * 1024) /* bigger request bodies are refused (413) */
#define SVC_SECRET_LEN 43          /* base64url of 32 bytes without padding */
#define SVC_RECENT_MAX 20          /* finished games ACTION_RECENT lists */
#define SVC_DAY_MS     86400000LL

#define SVC_MOVE_JSON_MAX 96 /* one {"uci","san","san_de"} entry, as jansson writes it */

typedef struct SvcSub {
    uint64_t id;
    ServiceEvent event; /* NULL once unsubscribed while a broadcast ran */
    void *ctx;
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
    uint32_t index;   /* position in the registry, stable for the service's life */
    uint32_t sub_serial;
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
} SvcGame;

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

/* --- service_computer.c: how the computer player behaves (docs/api.md) --- */

/* A draw the computer accepts when its evaluation is at most this (centipawns, its point of view). */
#define SVC_COMPUTER_ACCEPT_DRAW (-50)

typedef enum { SVC_ACT_MOVE, SVC_ACT_CLAIM, SVC_ACT_ACCEPT_DRAW } SvcComputerAct;

/* The level named by a game record (NULL when the record has none or names an unknown one), and the
 * Color the computer plays in it: the side nobody holds (-1 when the game is not against it). */
const EngineLevel *svc_computer_level(const GameRecord *rec);
int svc_computer_color(const GameRecord *rec);
/* The limits of the computer's next search in g at now: from the clock and increment in live games,
 * else the level's thinking budget (or cfg->think_ms); cfg->depth caps every search. */
void svc_computer_limits(const SvcGame *g, const ServiceComputerConfig *cfg, int64_t now, EngineLimits *out);
/* What the computer does with its search result (best move, score from its side) on its turn in g:
 * accept the opponent's standing draw offer, claim a draw, or play the move; *claim receives the claim
 * to make with the move (0: any) or -1. */
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
    SVC_E_TOO_LARGE,
    SVC_E_ILLEGAL,   /* %s: libschach's explanation */
    SVC_E_BAD_LEVEL, /* %s: the level asked for */
    SVC_E_STORAGE,
    SVC_E_INTERNAL,
    SVC_E_COUNT
} SvcError;

/* HTTP status of an error. */
int svc_error_status(SvcError e);
/* Machine code of an error ("bad_json", "bad_request", ...). */
const char *svc_error_code(SvcError e);
/* {"error":{"code","message"}} with the message in lang; arg fills the template's %s (may be NULL).
 * New reference. */
json_t *svc_error_json(SvcError e, Lang lang, const char *arg);

/* --- secret.c: random secrets, ids and their hashes (libsodium) --- */

/* Initialises libsodium once; false when it cannot. */
bool secret_init(void);
/* A new secret (SVC_SECRET_LEN characters + NUL) and its hash. */
void secret_new(char out[SVC_SECRET_LEN + 1], unsigned char hash[STORE_HASH_LEN]);
/* The hash a secret text is stored as. */
void secret_hash(const char *text, unsigned char hash[STORE_HASH_LEN]);
/* Whether text hashes to stored, in constant time; false for an all-zero (unused) stored hash. */
bool secret_matches(const char *text, const unsigned char stored[STORE_HASH_LEN]);
/* Whether a stored hash is in use (someone holds that side / an invitation is open). */
bool secret_is_set(const unsigned char hash[STORE_HASH_LEN]);
/* len random URL-safe characters plus NUL into out. */
void secret_random_id(char *out, size_t len);
/* A uniformly random integer below bound. */
uint32_t secret_random_below(uint32_t bound);

#endif
