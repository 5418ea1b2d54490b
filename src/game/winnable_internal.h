/* Inside the winnability analysis: the work area and the two analyses winnable.c runs in turn. */
#ifndef SCHACH_WINNABLE_INTERNAL_H
#define SCHACH_WINNABLE_INTERNAL_H

#include "schach/winnable.h"

/* Nodes of the quick mode's tiny search. */
#define WIN_QUICK_NODES 64

/* One transposition entry: the position's key and what is known about it (see winnable_search.c). */
typedef struct WinEntry {
    uint64_t key;
    uint32_t generation;
    int16_t depth;
    uint16_t flags;
} WinEntry;

struct WinWork {
    WinEntry *table;
    size_t mask;         /* entries - 1, a power of two minus one */
    uint32_t generation; /* bumped per analysis: entries of older analyses count as empty */
};

/* Static analysis of locked pawn structures: WIN_UNWINNABLE (with *why) when no piece of color can
 * ever give check to the enemy king; *blockade when the pawns are (nearly) locked. */
Winnability win_static(const Position *pos, Color color, WinReason *why, bool *blockade);

/* Helpmate search, then (for closed positions, when work is given) an exhaustive search of every
 * reachable position; at most budget nodes in all. Fills r->line/line_len and r->nodes. */
Winnability win_search(const Position *pos, Color color, uint64_t budget, WinWork *work, WinResult *r,
                       WinReason *why);

#endif
