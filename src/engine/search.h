/* Engine: the search: iterative deepening over a principal variation search with aspiration windows,
 * a transposition table, null-move pruning, late move reductions and pruning, check extensions and a
 * quiescence search of captures ordered and pruned by static exchange evaluation.
 *
 * One Search is one searching thread's complete state. The Engine owns them and the table they
 * share, so nothing is allocated while searching. With more than one thread (lazy SMP) the helper
 * threads search the same root to the same depth limit without reporting; what they find reaches
 * the main thread through the shared table (see pool.h).
 */
#ifndef SCHACH_ENGINE_SEARCH_H
#define SCHACH_ENGINE_SEARCH_H

#include <stdatomic.h>

#include "eval.h"
#include "movepick.h"
#include "engine.h"
#include "timeman.h"
#include "tt.h"

#define SEARCH_INF          (ENGINE_MATE + 1)
#define SEARCH_HISTORY_KEYS 1024 /* game positions kept for repetition detection */

typedef struct RootMove {
    Move move;
    int score;      /* in the current iteration; -SEARCH_INF until searched */
    int prev_score; /* in the last completed iteration */
    int pv_length;
    Move pv[ENGINE_MAX_PLY];
} RootMove;

/* One ply of the current line. */
typedef struct Frame {
    Move move; /* the move played from this ply (MOVE_NONE: a null move) */
    int eval;  /* static evaluation (meaningless when in check) */
    int pv_length;
    Move pv[ENGINE_MAX_PLY];
} Frame;

typedef struct Search {
    /* Kept between searches. */
    TT *tt; /* shared by all threads of an Engine */
    Heuristics heur;
    PawnCache pawns;
    int8_t reductions[64][64];            /* late move reduction by depth and move number */
    atomic_bool stop;                     /* set by another thread: end now */
    atomic_bool pondering;                /* cleared by another thread on ponderhit */
    atomic_uint_fast64_t published_nodes; /* nodes, stored every 1024 for other threads to read */
    const struct Search *peers;           /* the main thread's helpers, whose nodes count in reports */
    int peer_count;
    const struct Search *leader; /* a helper's main search: a node limit counts every thread's nodes */

    /* One search. */
    Position pos;
    EngineLimits limits;
    TimeManager tm;
    EngineInfoFn info;
    void *info_ctx;
    int report_lines;                                            /* principal variations the caller wants reported */
    uint64_t keys[SEARCH_HISTORY_KEYS + 2 * ENGINE_MAX_PLY + 2]; /* repetition keys, game then line */
    int key_count, key_floor; /* repetitions are looked for in keys[key_floor, key_count - 1) */
    Frame stack[ENGINE_MAX_PLY + 2];
    RootMove roots[SCHACH_MAX_MOVES];
    int root_count, pv_index, multipv, root_depth, completed_depth;
    RootMove lines[ENGINE_MAX_MULTIPV]; /* the lines of the last completed iteration, best first */
    int line_count;
    int root_alpha, root_beta; /* the window of the root search under way */
    uint64_t nodes;
    int seldepth;
    bool stopped;
} Search;

/* Prepares s (zeroed memory) to search with the table tt. */
void search_init(Search *s, TT *tt);
/* Forgets the move ordering statistics (the table is the owner's to clear). */
void search_clear(Search *s);

/* Searches the current position of game within limits; overhead is the move overhead (ms), lag the
 * measured time each move costs the clock beyond the search (ms), report_lines how many lines of the
 * multipv search go to info. Afterwards s->lines holds the s->line_count best lines of the last
 * completed iteration (none when it was stopped at once). */
EngineResult search_run(Search *s, const Game *game, const EngineLimits *limits, int overhead, int lag,
                        int report_lines, EngineInfoFn info, void *ctx);

/* A helper thread's search of the same root: no clock, no reports, one line, to limits' depth (if
 * any) or until s->stop is set; helper_index (1, 2, ...) varies the depths it starts at. */
void search_run_helper(Search *s, const Game *game, const EngineLimits *limits, int helper_index);

/* Nodes searched so far by s and its peers (exact for s, as last published for the peers). */
uint64_t search_total_nodes(const Search *s);

#endif
