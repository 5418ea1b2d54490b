/* libschach engine: a computer opponent over the rules core.
 *
 * An Engine owns its transposition table and search heuristics; it searches one game position at a
 * time. engine_search() runs on the caller's thread and returns when a limit is reached or
 * engine_stop() is called from another thread (the only functions safe to call while a search runs
 * are engine_stop() and engine_ponderhit()). Nothing is allocated during a search: the table is
 * allocated by engine_new() / engine_set_hash(), everything else lives in the Engine.
 *
 * Repetitions and the 50-move rule are scored as draws inside the search the way the rules core
 * counts them (a position repeated since the last irreversible move, the game's history included;
 * 100 plies without capture or pawn move unless it is checkmate), so the engine never misjudges a
 * draw that a player could claim or that ends the game by itself.
 *
 * Scores are centipawns from the side to move's point of view; mate scores are ENGINE_MATE - plies
 * (winning) or -(ENGINE_MATE - plies) (losing).
 */
#ifndef SCHACH_ENGINE_H
#define SCHACH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schach/game.h"
#include "schach/schach.h"

#define ENGINE_MAX_PLY      128   /* deepest search ply, also the longest principal variation */
#define ENGINE_MATE         32000 /* score of mate on the board; mate in n plies scores ENGINE_MATE - n */
#define ENGINE_MATE_BOUND   (ENGINE_MATE - ENGINE_MAX_PLY) /* |score| >= this means a forced mate */
#define ENGINE_MAX_MULTIPV  16
#define ENGINE_NET_NAME_MAX 1024 /* longest EvalFile path, with its terminating NUL */

typedef struct Engine Engine;

/* What to search for. Zero means "no limit" for every member; with no limit at all the search runs
 * until engine_stop() (as "go infinite"). Times are milliseconds. */
typedef struct EngineLimits {
    int depth;                  /* iterations to complete */
    uint64_t nodes;             /* nodes to visit (approximately: checked every few thousand nodes) */
    int movetime;               /* exactly this long */
    int time[2];                /* clock of WHITE and BLACK (0: no clock for that side) */
    int inc[2];                 /* increment per move of WHITE and BLACK */
    int movestogo;              /* moves to the next time control (0: sudden death) */
    int mate;                   /* look for a mate in this many moves; stops when found */
    bool infinite;              /* ignore the clock until engine_stop() ("go infinite") */
    bool ponder;                /* pondering: ignore the clock until engine_ponderhit() or engine_stop() */
    int multipv;                /* principal variations to report (1 when 0) */
    const SchMove *searchmoves; /* only these root moves (NULL: all) */
    int searchmoves_count;
} EngineLimits;

/* One report of the search, after each completed iteration (and on aspiration fail-high/low). */
typedef struct EngineInfo {
    int depth, seldepth;
    int multipv;                 /* 1-based index of this line */
    int score;                   /* centipawns, or a mate score (see above) */
    bool lowerbound, upperbound; /* the score is only a bound (aspiration window failed) */
    uint64_t nodes;
    uint64_t nps;
    int64_t time_ms; /* since the search started */
    int hashfull;    /* permille of the table in use */
    int pv_length;
    SchMove pv[ENGINE_MAX_PLY];
} EngineInfo;

/* Called from the searching thread; must not call back into the Engine except engine_stop(). */
typedef void (*EngineInfoFn)(const EngineInfo *info, void *ctx);

typedef struct EngineResult {
    SchMove best;   /* SCH_MOVE_NONE only when the position has no legal move */
    SchMove ponder; /* expected reply, SCH_MOVE_NONE when unknown */
    int score;
    int depth; /* last completed iteration */
    uint64_t nodes;
    int64_t time_ms;
} EngineResult;

/* Options a UCI GUI or a player can set between searches. */
typedef struct EngineOptions {
    size_t hash_mb;      /* transposition table size (1..65536) */
    int threads;         /* search threads, 1..ENGINE_THREADS_MAX (lazy SMP; weaker levels use one) */
    int move_overhead;   /* ms kept back per move for communication delays */
    int skill;           /* 0..20, 20 = full strength ("Skill Level") */
    bool limit_strength; /* play at about `elo` ("UCI_LimitStrength") */
    int elo;             /* ENGINE_ELO_MIN..ENGINE_ELO_MAX ("UCI_Elo") */
    bool use_nnue;       /* the NNUE evaluation at full strength ("UseNNUE"); the levels for people
                          * (skill < 20 or limit_strength) always use the classical one */
} EngineOptions;

#define ENGINE_THREADS_MAX 256
#define ENGINE_ELO_MIN     400
#define ENGINE_ELO_MAX     2400
/* The classical evaluation at full strength, one thread, on the scale of the levels' Elo (Stockfish
 * 15.1's UCI_Elo at 10 s + 0.1 s, bench/levels.sh). The levels for people are the classical engine
 * weakened, so the interpolation from master runs to this figure, and UCI_Elo at or above it (up to
 * ENGINE_ELO_MAX) plays the classical engine unweakened. Full strength with the net is beyond the
 * scale's top (40 - 0 against UCI_Elo 3190, 2026-12-01): only Skill Level 20 without
 * UCI_LimitStrength plays it. */
#define ENGINE_CLASSICAL_FULL_ELO 2320

/* A named level for people: from a true beginner to full strength. elo is measured by matches. */
typedef struct EngineLevel {
    const char *id;      /* for command lines and the API: "beginner", ... "max" */
    const char *name_en; /* for people */
    const char *name_de;
    int elo;   /* approximate strength; 0 for "max" (full strength) */
    int skill; /* EngineOptions.skill this level sets */
} EngineLevel;

/* The levels, weakest first; *count receives how many. The array is static and immutable. */
const EngineLevel *engine_levels(int *count);
/* The level with this id (case-insensitive), or NULL. */
const EngineLevel *engine_level_find(const char *id);

/* Default options: 16 MB, 1 thread, 10 ms overhead, skill 20, no strength limit, elo 1500, NNUE. */
void engine_options_default(EngineOptions *opt);

/* A new engine with these options (NULL: defaults), or NULL when out of memory. Free with
 * engine_free(). */
Engine *engine_new(const EngineOptions *opt);
void engine_free(Engine *e);

/* Applies new options (between searches). Returns false when the hash table cannot be allocated
 * (the engine keeps its old table then). */
bool engine_set_options(Engine *e, const EngineOptions *opt);
void engine_get_options(const Engine *e, EngineOptions *opt);

/* Forgets everything learnt (transposition table, history): a new game ("ucinewgame"). */
void engine_clear(Engine *e);

/* Searches the current position of game (its history gives the repetitions) within limits and
 * returns the move to play. info (may be NULL) receives progress reports. Blocks until done. */
EngineResult engine_search(Engine *e, const SchGame *game, const EngineLimits *limits, EngineInfoFn info, void *ctx);

/* Thread-safe: ends the running search as soon as possible (its result is still a legal move). */
void engine_stop(Engine *e);
/* Thread-safe: the pondered move was played; from now on the clock limits count. */
void engine_ponderhit(Engine *e);

/* The computer's draw policy, one for every program that lets the engine play (schach play and
 * schach serve). It never resigns: a person should see the mate. It claims a threefold repetition or
 * a 50-move draw (now, or together with its move) when it does not stand better (score <= 0), and it
 * accepts a draw offer only when it stands clearly worse: at ENGINE_DRAW_ACCEPT_SCORE or below. Half a
 * pawn is well outside the noise of a quick search's evaluation, so an equal position is played on
 * (people offer draws to end a game they find dull; the computer should want a reason to agree). */
#define ENGINE_DRAW_ACCEPT_SCORE (-50)

typedef enum {
    ENGINE_DRAW_NONE,            /* play the move */
    ENGINE_DRAW_ACCEPT,          /* accept the opponent's standing draw offer */
    ENGINE_DRAW_CLAIM,           /* claim the draw the position on the board allows, instead of moving */
    ENGINE_DRAW_CLAIM_WITH_MOVE, /* play the move and claim the draw it produces */
} EngineDrawChoice;

/* Whether the engine accepts a draw offer standing at score (centipawns, its own point of view). */
bool engine_accepts_draw(int score);
/* What the side to move in game does about draws, given its search's best move and score (its own
 * point of view): accept the opponent's standing offer, claim, or play on. */
EngineDrawChoice engine_draw_choice(const SchGame *game, SchMove best, int score);

/* Static evaluation of pos from the side to move's point of view, in centipawns: the classical one
 * (hand-written terms and endgame knowledge), whatever an engine's options say. */
int engine_evaluate(const SchPosition *pos);

/* The NNUE evaluation of pos with e's net (from the side to move's point of view, centipawns), or the
 * classical one when e has no net (UseNNUE off, or the built-in net broken). */
int engine_evaluate_nnue(const Engine *e, const SchPosition *pos);

/* Loads the net file at path for e's NNUE evaluation ("EvalFile"; NNUE_EMBEDDED_NAME "<embedded>":
 * the built-in net again). On failure returns false, writes why to err and keeps the current net. */
bool engine_load_net(Engine *e, const char *path, char *err, size_t err_size);
/* One line about e's net for people: its name (the file or "<embedded>"), size and checksum. */
void engine_describe_net(const Engine *e, char *buf, size_t size);

/* The fixed benchmark: each built-in position searched to depth (0: the default depth) with a
 * fresh 16 MB table, one thread, the built-in net (classical: the classical evaluation instead).
 * Returns the total node count (the same on every machine and run: a signature of the search) and
 * the time taken in *time_ms. per_position (may be NULL) is called after each position. */
uint64_t engine_bench(int depth, bool classical, int64_t *time_ms,
                      void (*per_position)(int index, const char *fen, uint64_t nodes, void *ctx), void *ctx);

#endif
