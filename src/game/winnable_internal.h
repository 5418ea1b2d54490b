/* Inside the winnability analysis: the work area and the two analyses winnable.c runs in turn. */
#ifndef SCHACH_WINNABLE_INTERNAL_H
#define SCHACH_WINNABLE_INTERNAL_H

#include "schach/winnable.h"

/* Nodes of the quick mode's tiny search. */
#define WIN_QUICK_NODES 64
/* The quick pass asks for the full analysis where nothing is settled and the side to move has at most
 * WIN_FEW_MOVES legal moves (not in check), or the other side at most WIN_FEW_REPLIES were it to move. */
#define WIN_FEW_MOVES   8
#define WIN_FEW_REPLIES 3

/* One transposition entry: the position's key and what is known about it (see winnable_search.c). */
typedef struct WinEntry {
    uint64_t key;
    uint32_t generation;
    int16_t depth;
    uint16_t flags;
} WinEntry;

/* One frame of the exhaustive search's explicit stack (winnable_exhaust.c). */
typedef struct WinFrame {
    SchUndo undo;
    uint64_t key;   /* key of the position the frame's moves start from */
    uint32_t first; /* index of its first move in SchWinWork.moves */
    uint16_t count; /* its moves */
    uint16_t next;  /* the next move to try */
} WinFrame;

/* Frames and moves of the exhaustive search's stack. */
#define WIN_FRAMES (1u << 16)
#define WIN_MOVES  (1u << 20)

/* One position of the breadth-first search for a shortest helpmate (winnable_exhaust.c): the
 * position it came from and the move from there. */
typedef struct WinBfsNode {
    uint32_t parent;
    SchMove move;
} WinBfsNode;

/* Positions the breadth-first search may hold. */
#define WIN_BFS_NODES (1u << 19)

struct SchWinWork {
    WinEntry *table;
    size_t mask;         /* entries - 1, a power of two minus one */
    uint32_t generation; /* bumped per search stage: entries of older stages count as empty */
    WinFrame *frames;    /* made on the first exhaustive search */
    SchMove *moves;
    WinBfsNode *bfs; /* made on the first helpmate too long to shorten */
};

/* Starts a new stage: every entry stored before counts as empty. */
static inline void win_tt_new_stage(SchWinWork *w) {
    if (++w->generation == 0) {
        for (size_t i = 0; i <= w->mask; i++)
            w->table[i].generation = 0;
        w->generation = 1;
    }
}
/* Whether key was stored in this stage with at least depth. */
static inline bool win_tt_seen(const SchWinWork *w, uint64_t key, int depth) {
    const WinEntry *e = &w->table[key & w->mask];
    return e->key == key && e->generation == w->generation && e->depth >= depth;
}
static inline void win_tt_store(SchWinWork *w, uint64_t key, int depth) {
    WinEntry *e = &w->table[key & w->mask];
    e->key = key;
    e->generation = w->generation;
    e->depth = (int16_t)depth;
}

/* Static analysis of locked pawn structures: SCH_WIN_UNWINNABLE (with *why) when no piece of color can
 * ever give check to the enemy king; *blockade when the pawns are (nearly) locked. */
SchWinnability sch_win_static(const SchPosition *pos, SchColor color, SchWinReason *why, bool *blockade);

/* Saturation (winnable_saturate.c): SCH_WIN_UNWINNABLE (with *why) when the squares every man may
 * ever reach, computed to a fixpoint, leave no square where the enemy king could be mated. */
SchWinnability sch_win_saturate(const SchPosition *pos, SchColor color, SchWinReason *why);
/* Most pawns stand head to head (at most four do not), one pair at least: the structures where
 * saturation is likeliest to prove something, and rare in open play. */
bool sch_win_nearly_locked(const SchPosition *pos);

/* The exhaustive search: every position reachable from pos, each once, up to budget nodes (added
 * to *nodes). SCH_WIN_WINNABLE with the line in r when one is checkmate of !color, SCH_WIN_UNWINNABLE when
 * it finished without, else SCH_WIN_UNDETERMINED; *deep_mate when it met a mate too deep to shorten
 * into a proof (sch_win_shortest may find one). */
SchWinnability sch_win_exhaust(const SchPosition *pos, SchColor color, uint64_t budget, SchWinWork *work,
                               SchWinResult *r, uint64_t *nodes, bool *deep_mate);

/* Breadth first from pos: a shortest helpmate by color of at most SCH_WIN_LINE_MAX plies into r,
 * within budget nodes (added to *nodes). */
bool sch_win_shortest(const SchPosition *pos, SchColor color, uint64_t budget, SchWinWork *work, SchWinResult *r,
                      uint64_t *nodes);

/* Helpmate search, then (for closed positions, when work is given) an exhaustive search of every
 * reachable position; at most budget nodes in all. Fills r->line/line_len and r->nodes. */
SchWinnability sch_win_search(const SchPosition *pos, SchColor color, uint64_t budget, SchWinWork *work,
                              SchWinResult *r, SchWinReason *why);

#endif
