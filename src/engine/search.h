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
#include "nnue.h"
#include "engine.h"
#include "timeman.h"
#include "tt.h"

#define SEARCH_INF          (ENGINE_MATE + 1)
#define SEARCH_HISTORY_KEYS 1024 /* game positions kept for repetition detection */

/* The search's margins and limits (centipawns, plies, move counts). Each one shapes the tree, so a
 * change of any shows in the node count of `schach bench`. */

/* Reverse futility pruning: near the leaves, a static evaluation this far above beta returns at once. */
#define SEARCH_RFP_DEPTH  7  /* at depth <= this */
#define SEARCH_RFP_MARGIN 65 /* per ply of depth (one ply less when improving) */

/* Null-move pruning: the null move is searched depth - 1 - R plies deep, with
 * R = SEARCH_NMP_REDUCTION + depth / SEARCH_NMP_DEPTH_DIVISOR + min(SEARCH_NMP_EVAL_REDUCTION_MAX,
 * (eval - beta) / SEARCH_NMP_EVAL_DIVISOR). */
#define SEARCH_NMP_DEPTH              3   /* tried from this depth on */
#define SEARCH_NMP_REDUCTION          3   /* plies R has at least */
#define SEARCH_NMP_DEPTH_DIVISOR      4   /* one ply more of R per this much depth */
#define SEARCH_NMP_EVAL_DIVISOR       200 /* one ply more of R per this much evaluation above beta... */
#define SEARCH_NMP_EVAL_REDUCTION_MAX 3   /* ...but at most this many */

/* Internal iterative reduction: a node without a table move was not searched before and is searched
 * one ply shallower. */
#define SEARCH_IIR_DEPTH 4 /* from this depth on */

/* Move pruning near the leaves (prune_move): late quiet moves, quiet moves far below alpha, and
 * moves that lose material by exchange are skipped. */
#define SEARCH_PRUNING_DEPTH 8 /* all of it only at depth <= this */
/* Late move pruning: the quiet moves after the first (SEARCH_LMP_BASE + depth^2) / SEARCH_LMP_DIVISOR
 * are skipped; an improving node divides by one less, so it searches about twice as many. */
#define SEARCH_LMP_BASE    3 /* added to depth^2 */
#define SEARCH_LMP_DIVISOR 2 /* not improving: the count is divided by this */
/* Futility pruning: quiet moves are skipped when eval + SEARCH_FUTILITY_BASE +
 * SEARCH_FUTILITY_PER_DEPTH * d stays at or below alpha, where d is the depth the move would be
 * searched to after its late move reduction: a late move gets a smaller margin. */
#define SEARCH_FUTILITY_BASE      100 /* margin at reduced depth 0 */
#define SEARCH_FUTILITY_PER_DEPTH 90  /* margin added per ply of reduced depth */
/* History pruning: a quiet move whose histories (by squares and after the last two moves) sum to less
 * than -SEARCH_HISTORY_PRUNING_MARGIN * depth is skipped; it rarely did any good here before. */
#define SEARCH_HISTORY_PRUNING_DEPTH  4    /* at depth <= this */
#define SEARCH_HISTORY_PRUNING_MARGIN 4000 /* per ply of depth */
/* SEE pruning: moves that lose more than this by exchange are skipped. */
#define SEARCH_SEE_QUIET_MARGIN 50 /* quiet moves: this much per ply of depth */
#define SEARCH_SEE_NOISY_MARGIN 20 /* captures and promotions: this much times depth^2 */

/* Late move reductions: quiet moves and losing captures after the first few are searched
 * SEARCH_LMR_BASE + log(depth) * log(move number) / SEARCH_LMR_DIVISOR plies shallower (see
 * reduction() for the adjustments), and again to full depth when they beat alpha (a ply deeper or
 * shallower by how far they beat it). */
#define SEARCH_LMR_DEPTH            3     /* reduced from this depth on */
#define SEARCH_LMR_MOVES            2     /* moves searched unreduced (one more at PV nodes) */
#define SEARCH_LMR_BASE             0.75  /* reduction before the log term */
#define SEARCH_LMR_DIVISOR          2.25  /* the log term is divided by this */
#define SEARCH_LMR_HISTORY_DIVISOR  10000 /* a quiet move's reduction shrinks one ply per this much history */
#define SEARCH_LMR_CUT_NODE         1     /* plies more at a node expected to fail high */
#define SEARCH_LMR_DEEPER_MARGIN    60    /* a reduced move that beat alpha by more is searched a ply deeper */
#define SEARCH_LMR_SHALLOWER_MARGIN 8     /* ...by less, a ply shallower */
/* At the root: late quiet moves that do not give check are searched one ply shallower first. */
#define SEARCH_ROOT_LMR_DEPTH 3 /* from this depth on */
#define SEARCH_ROOT_LMR_MOVES 4 /* moves of the line searched unreduced */

/* Check extension: a move giving check is searched one ply deeper, bounded so that perpetual checks
 * cannot run the line away. */
#define SEARCH_CHECK_EXTENSION_LIMIT 2 /* only while the ply is below this times the root depth */

/* Singular extensions: the table's move of a node whose stored lower bound is deep enough is searched
 * one ply deeper when a shallower search of all the other moves stays below that bound minus a margin
 * (the move is singular: the only good one), two plies when far below it. When the other moves beat
 * the lowered bound and it is above beta, several moves cut off and the node does (multi-cut). */
#define SEARCH_SE_DEPTH         7  /* tried from this depth on */
#define SEARCH_SE_TT_DEPTH      3  /* the stored bound is at most this much shallower than the node */
#define SEARCH_SE_MARGIN        2  /* centipawns below the stored bound, per ply of depth */
#define SEARCH_SE_DOUBLE_MARGIN 20 /* this much further below it: two plies (not at PV nodes) */
#define SEARCH_SE_DOUBLE_LIMIT  6  /* at most this many double extensions in a line */
#define SEARCH_SE_PLY_LIMIT     2  /* only while the ply is below this times the root depth */

/* Delta pruning in the quiescence search: a capture is skipped when even winning the captured piece
 * cleanly leaves the score at or below alpha. */
#define SEARCH_DELTA_MARGIN 200 /* added to the captured piece's value */

/* History: a quiet move that cuts off gains SEARCH_HISTORY_BONUS_SCALE * depth^2 in its histories (by
 * squares and after each of the last two moves), the quiet moves tried before it lose as much. */
#define SEARCH_HISTORY_BONUS_SCALE 16   /* times depth^2 */
#define SEARCH_HISTORY_BONUS_MAX   1600 /* the bonus (and the malus) is at most this */

/* Aspiration windows: the root is searched in a window around the last iteration's score, widened on
 * each failure. */
#define SEARCH_ASPIRATION_DEPTH     5    /* from this depth on (before: the full window) */
#define SEARCH_ASPIRATION_WINDOW    15   /* first half-width of the window */
#define SEARCH_ASPIRATION_GROWTH    2    /* after a failure the half-width grows by 1 / this of itself */
#define SEARCH_ASPIRATION_REPORT_MS 1000 /* a failure is reported as a bound once the search has run this long */

/* Time management weighs the best move's share of the root's nodes from this depth on (before, the
 * shares say little). */
#define SEARCH_TM_EFFORT_DEPTH 6

typedef struct RootMove {
    SchMove move;
    int score;      /* in the current iteration; -SEARCH_INF until searched */
    int prev_score; /* in the last completed iteration */
    uint64_t nodes; /* searched under this move in all iterations (time management weighs them) */
    int pv_length;
    SchMove pv[ENGINE_MAX_PLY];
} RootMove;

/* One ply of the current line. */
typedef struct Frame {
    SchMove move;          /* the move played from this ply (SCH_MOVE_NONE: a null move) */
    int eval;              /* static evaluation (meaningless when in check) */
    PieceToHistory *cont;  /* the continuation history after that move (NULL after a null move) */
    SchMove excluded;      /* the move a singular extension's search leaves out (SCH_MOVE_NONE: none) */
    int double_extensions; /* double extensions in the line up to and including that move */
    int pv_length;
    SchMove pv[ENGINE_MAX_PLY];
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
    const NnueNet *net; /* the NNUE evaluation's net; NULL: the classical evaluation */
    SchPosition pos;
    EngineLimits limits;
    TimeManager tm;
    EngineInfoFn info;
    void *info_ctx;
    int report_lines;                                            /* principal variations the caller wants reported */
    uint64_t keys[SEARCH_HISTORY_KEYS + 2 * ENGINE_MAX_PLY + 2]; /* repetition keys, game then line */
    int key_count, key_floor; /* repetitions are looked for in keys[key_floor, key_count - 1) */
    Frame stack[ENGINE_MAX_PLY + 2];
    NnueAccumulator acc[ENGINE_MAX_PLY + 2]; /* the accumulators of the current line's positions, by ply */
    RootMove roots[SCH_MAX_MOVES];
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
EngineResult search_run(Search *s, const SchGame *game, const EngineLimits *limits, int overhead, int lag,
                        int report_lines, EngineInfoFn info, void *ctx);

/* A helper thread's search of the same root: no clock, no reports, one line, to limits' depth (if
 * any) or until s->stop is set; helper_index (1, 2, ...) varies the depths it starts at. */
void search_run_helper(Search *s, const SchGame *game, const EngineLimits *limits, int helper_index);

/* Nodes searched so far by s and its peers (exact for s, as last published for the peers). */
uint64_t search_total_nodes(const Search *s);

#endif
