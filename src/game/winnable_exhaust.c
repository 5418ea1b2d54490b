/* The exhaustive search: every position reachable from the root by legal moves of both sides,
 * each visited once (the transposition table remembers it). Finishing without meeting a checkmate
 * of the would-be loser proves that none exists: UNWINNABLE. It is practical where the reachable
 * world is small — locked pawn structures, few men — and a budget bounds it everywhere else.
 *
 * Depth-first with an explicit stack in the work area, so lines may run as deep as the reachable
 * world (tens of thousands of plies) without recursion. A position is not expanded further when
 * the game is over there (mate of the would-be winner, stalemate), when the would-be winner's
 * material can never mate, or, after a capture or pawn move, when the static analysis shows the
 * new structure locked for good: none of these can lead to the mate sought.
 *
 * The mate the search meets may lie deep. Its line is then shortened before it becomes the proof:
 * from each position of the line, the move that jumps furthest ahead along the line is taken. When
 * that still leaves more than SCH_WIN_LINE_MAX plies (a depth-first line wanders), a breadth-first
 * search from the root finds a shortest helpmate instead: the mate is known to exist, and the
 * reachable world is small enough to have been walked already.
 */
#include <stdlib.h>
#include <string.h>

#include "schach/movegen.h"
#include "winnable_internal.h"

static bool ensure_stack(SchWinWork *w) {
    if (!w->frames)
        w->frames = malloc(WIN_FRAMES * sizeof *w->frames);
    if (!w->moves)
        w->moves = malloc(WIN_MOVES * sizeof *w->moves);
    return w->frames && w->moves;
}

/* A capture, pawn move, promotion, castling or en passant: the kind of move after which the
 * structure may have locked (or cannot come back). */
static bool irreversible(const SchPosition *pos, SchMove m) {
    return sch_move_kind(m) != SCH_MOVE_NORMAL || sch_pos_piece_on(pos, sch_move_to(m)) != SCH_NO_PIECE ||
           sch_piece_type(sch_pos_piece_on(pos, sch_move_from(m))) == SCH_PAWN;
}

/* Whether nothing reachable from pos (just entered) can be the mate sought. */
static bool dead_end(const SchPosition *pos, SchColor W, bool after_irreversible) {
    if (sch_win_material_insufficient(pos, W))
        return true;
    if (after_irreversible) {
        SchWinReason why;
        bool blockade;
        if (sch_win_static(pos, W, &why, &blockade) == SCH_WIN_UNWINNABLE ||
            sch_win_saturate(pos, W, &why) == SCH_WIN_UNWINNABLE)
            return true;
    }
    return false;
}

/* Index of key among the line's position keys (sorted copy in order[]), or -1. */
typedef struct KeyIndex {
    uint64_t key;
    int index;
} KeyIndex;

static int key_compare(const void *a, const void *b) {
    uint64_t x = ((const KeyIndex *)a)->key, y = ((const KeyIndex *)b)->key;
    return x < y ? -1 : x > y;
}

static int find_index(const KeyIndex *order, int n, uint64_t key) {
    int lo = 0, hi = n - 1, best = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (order[mid].key < key) {
            lo = mid + 1;
        } else if (order[mid].key > key) {
            hi = mid - 1;
        } else {
            /* Keys along a line are distinct (each position is visited once). */
            best = order[mid].index;
            break;
        }
    }
    return best;
}

/* Writes a line from root to the mate at the end of the stack's line (depth plies) into r,
 * shortened by jumps ahead. The frames' keys are the positions before each move; the mate
 * position's key is mate_key. Reuses the move buffer beyond `used` as scratch. */
static bool shorten(const SchPosition *root, SchWinWork *w, int depth, uint64_t mate_key, uint32_t used,
                    SchWinResult *r) {
    if (depth <= SCH_WIN_LINE_MAX) {
        for (int i = 0; i < depth; i++)
            r->line[i] = w->moves[w->frames[i].first + w->frames[i].next - 1];
        r->line_len = depth;
        return true;
    }
    size_t need = (size_t)(depth + 1) * sizeof(KeyIndex);
    if ((size_t)(WIN_MOVES - used) * sizeof(SchMove) < need)
        return false;
    KeyIndex *order = (KeyIndex *)(void *)(w->moves + used + (8 - used % 8) % 8);
    if ((size_t)((SchMove *)(void *)(order + depth + 1) - w->moves) > WIN_MOVES)
        return false;
    for (int i = 0; i < depth; i++)
        order[i] = (KeyIndex){w->frames[i].key, i};
    order[depth] = (KeyIndex){mate_key, depth};
    qsort(order, (size_t)depth + 1, sizeof *order, key_compare);
    SchPosition pos = *root;
    int at = 0, len = 0;
    while (at < depth) {
        if (len == SCH_WIN_LINE_MAX)
            return false;
        SchMove moves[SCH_MAX_MOVES];
        int n = sch_gen_moves(&pos, SCH_GEN_ALL, moves);
        SchMove best = SCH_MOVE_NONE;
        int best_at = at;
        for (int i = 0; i < n; i++) {
            SchUndo u;
            sch_pos_make(&pos, moves[i], &u);
            int j = find_index(order, depth + 1, pos.key);
            sch_pos_unmake(&pos, moves[i], &u);
            if (j > best_at) {
                best_at = j;
                best = moves[i];
            }
        }
        if (best == SCH_MOVE_NONE)
            return false;
        SchUndo u;
        sch_pos_make(&pos, best, &u);
        r->line[len++] = best;
        at = best_at;
    }
    r->line_len = len;
    return true;
}

/* The position of BFS node i: the root with the moves of its ancestors replayed. Writes the line
 * into line (its length into *len); false when it is longer than max. */
static bool bfs_line(const WinBfsNode *nodes, uint32_t i, SchMove *line, int max, int *len) {
    int n = 0;
    for (uint32_t at = i; at != 0; at = nodes[at].parent) {
        if (n == max)
            return false;
        line[n++] = nodes[at].move;
    }
    for (int a = 0, b = n - 1; a < b; a++, b--) {
        SchMove m = line[a];
        line[a] = line[b];
        line[b] = m;
    }
    *len = n;
    return true;
}

bool sch_win_shortest(const SchPosition *root, SchColor W, uint64_t budget, SchWinWork *w, SchWinResult *r,
                      uint64_t *nodes) {
    if (!w->bfs)
        w->bfs = malloc(WIN_BFS_NODES * sizeof *w->bfs);
    if (!w->bfs)
        return false;
    win_tt_new_stage(w);
    win_tt_store(w, root->key, 0);
    WinBfsNode *tree = w->bfs;
    tree[0] = (WinBfsNode){0, SCH_MOVE_NONE};
    uint32_t head = 0, tail = 1;
    uint64_t spent = 0;
    bool out_of_room = false; /* the budget or the tree is full */
    SchMove line[SCH_WIN_LINE_MAX];
    while (head < tail && !out_of_room) {
        uint32_t at = head++;
        int len;
        if (!bfs_line(tree, at, line, SCH_WIN_LINE_MAX - 1, &len))
            continue; /* a mate from here would be too long for a proof */
        SchPosition pos = *root;
        for (int i = 0; i < len; i++) {
            SchUndo u;
            sch_pos_make(&pos, line[i], &u);
        }
        SchMove moves[SCH_MAX_MOVES];
        int n = sch_gen_moves(&pos, SCH_GEN_ALL, moves);
        for (int i = 0; i < n; i++) {
            bool changes = irreversible(&pos, moves[i]);
            SchUndo u;
            sch_pos_make(&pos, moves[i], &u);
            if (!win_tt_seen(w, pos.key, 0)) {
                win_tt_store(w, pos.key, 0);
                out_of_room = ++spent > budget || tail == WIN_BFS_NODES;
                if (out_of_room)
                    break;
                bool can_move = sch_gen_has_legal_move(&pos);
                if (!can_move && pos.checkers && sch_pos_turn(&pos) != W) {
                    memcpy(r->line, line, (size_t)len * sizeof *line);
                    r->line[len] = moves[i];
                    r->line_len = len + 1;
                    *nodes += spent;
                    return true;
                }
                if (can_move && !dead_end(&pos, W, changes))
                    tree[tail++] = (WinBfsNode){at, moves[i]};
            }
            sch_pos_unmake(&pos, moves[i], &u);
        }
    }
    *nodes += spent;
    return false;
}

SchWinnability sch_win_exhaust(const SchPosition *root, SchColor W, uint64_t budget, SchWinWork *w, SchWinResult *r,
                               uint64_t *nodes, bool *deep_mate) {
    if (!ensure_stack(w))
        return SCH_WIN_UNDETERMINED;
    win_tt_new_stage(w);
    SchPosition pos = *root;
    win_tt_store(w, pos.key, 0);
    uint64_t spent = 0;
    int depth = 0;
    uint32_t used = 0;
    bool complete = true;
    SchWinnability verdict = SCH_WIN_UNDETERMINED;

    /* Enter the root. */
    if (dead_end(&pos, W, true)) {
        *nodes += 1;
        return SCH_WIN_UNWINNABLE;
    }
    WinFrame *f = &w->frames[0];
    f->key = pos.key;
    f->first = 0;
    f->count = (uint16_t)sch_gen_moves(&pos, SCH_GEN_ALL, w->moves);
    f->next = 0;
    used = f->count;

    while (depth >= 0) {
        f = &w->frames[depth];
        if (f->next == f->count) {
            /* Every move of this position tried: back up. */
            used = f->first;
            if (--depth >= 0) {
                WinFrame *up = &w->frames[depth];
                sch_pos_unmake(&pos, w->moves[up->first + up->next - 1], &up->undo);
            }
            continue;
        }
        SchMove m = w->moves[f->first + f->next++];
        bool changes = irreversible(&pos, m);
        sch_pos_make(&pos, m, &f->undo);
        if (win_tt_seen(w, pos.key, 0)) {
            sch_pos_unmake(&pos, m, &f->undo);
            continue;
        }
        win_tt_store(w, pos.key, 0);
        if (++spent > budget) {
            complete = false;
            break;
        }
        if (depth + 1 >= (int)WIN_FRAMES || used + SCH_MAX_MOVES > WIN_MOVES) {
            complete = false; /* too deep for the stack: this line stays unexplored */
            sch_pos_unmake(&pos, m, &f->undo);
            continue;
        }
        int n = sch_gen_moves(&pos, SCH_GEN_ALL, w->moves + used);
        bool stop = false;
        if (n == 0) {
            if (pos.checkers && sch_pos_turn(&pos) != W) {
                if (shorten(root, w, depth + 1, pos.key, used, r))
                    verdict = SCH_WIN_WINNABLE;
                else
                    *deep_mate = true;
                complete = false;
                break;
            }
            stop = true; /* the game is over here */
        } else {
            stop = dead_end(&pos, W, changes);
        }
        if (stop) {
            sch_pos_unmake(&pos, m, &f->undo);
            continue;
        }
        WinFrame *down = &w->frames[++depth];
        down->key = pos.key;
        down->first = used;
        down->count = (uint16_t)n;
        down->next = 0;
        used += (uint32_t)n;
    }
    *nodes += spent;
    if (verdict == SCH_WIN_WINNABLE)
        return verdict;
    return complete ? SCH_WIN_UNWINNABLE : SCH_WIN_UNDETERMINED;
}
