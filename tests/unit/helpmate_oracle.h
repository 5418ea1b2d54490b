/* An independent check of the winnability analysis (include/schach/winnable.h) for the unit tests:
 * a plain exhaustive helpmate search and the replay of a helpmate proof. Written apart from
 * src/game/winnable*.c on purpose: it shares nothing with the analysis but the move generator, so a
 * mistake in the analysis cannot hide in it. Include after <cmocka.h>. */
#ifndef SCHACH_HELPMATE_ORACLE_H
#define SCHACH_HELPMATE_ORACLE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schach/movegen.h"
#include "schach/notation.h"
#include "schach/position.h"
#include "schach/winnable.h"

/* pos is checkmate against the side to move, and that side is not winner. */
static inline bool oracle_mated_by(const SchPosition *pos, SchColor winner) {
    return sch_pos_turn(pos) != winner && sch_pos_in_check(pos) && !sch_gen_has_legal_move(pos);
}

/* Depth-first search of every series of at most depth plies from pos (both sides' moves, no
 * pruning) for one that ends with winner checkmating the other side. On success the series is in
 * line[0..] (room for depth moves) and its length in *len. Exact shortcut: a move never leaves the
 * mover's own king in check, so with one ply left and the would-be loser to move nothing can
 * happen, and a mating move must give check. *nodes counts the positions visited. */
static bool oracle_dfs(SchPosition *pos, SchColor winner, int depth, int ply, SchMove *line, int *len,
                       uint64_t *nodes) {
    ++*nodes;
    SchMoveList list;
    if (sch_gen_legal(pos, &list) == 0) {
        if (sch_pos_turn(pos) != winner && sch_pos_in_check(pos)) {
            *len = ply;
            return true;
        }
        return false;
    }
    if (depth == 0 || (depth == 1 && sch_pos_turn(pos) != winner))
        return false;
    for (int i = 0; i < list.count; i++) {
        SchUndo undo;
        sch_pos_make(pos, list.moves[i], &undo);
        bool found;
        if (depth == 1) {
            ++*nodes;
            found = sch_pos_in_check(pos) && !sch_gen_has_legal_move(pos);
            if (found)
                *len = ply + 1;
        } else {
            found = oracle_dfs(pos, winner, depth - 1, ply + 1, line, len, nodes);
        }
        sch_pos_unmake(pos, list.moves[i], &undo);
        if (found) {
            line[ply] = list.moves[i];
            return true;
        }
    }
    return false;
}

/* The length of the shortest helpmate by winner of at most max_depth plies (iterative deepening,
 * so the line found is a shortest one), or -1 when there is none that short. */
static inline int oracle_helpmate(const SchPosition *start, SchColor winner, int max_depth, SchMove *line,
                                  uint64_t *nodes) {
    SchPosition pos = *start;
    for (int depth = 0; depth <= max_depth; depth++) {
        int len = 0;
        if (oracle_dfs(&pos, winner, depth, 0, line, &len, nodes))
            return len;
    }
    return -1;
}

/* Visits every position any series of legal moves reaches from start (breadth first, positions
 * told apart by their Zobrist keys), looking for checkmate by winner: 1 when one is reached, 0 when
 * every reachable position was visited and none is, -1 when there are more than limit of them.
 * *visited counts them. Proves a closed position (locked pawns, trapped pieces) dead. */
static inline int oracle_exhaust(const SchPosition *start, SchColor winner, size_t limit, size_t *visited) {
    size_t cap = 2;
    while (cap < 2 * limit)
        cap <<= 1;
    uint64_t *seen = calloc(cap, sizeof *seen);
    SchPosition *queue = malloc(limit * sizeof *queue);
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return -1;
    }
    size_t head = 0, tail = 0;
    int result = 0;
    queue[tail++] = *start;
    seen[(start->key | 1) & (cap - 1)] = start->key | 1;
    while (head < tail && result == 0) {
        SchPosition pos = queue[head++];
        SchMoveList list;
        if (sch_gen_legal(&pos, &list) == 0) {
            if (sch_pos_turn(&pos) != winner && sch_pos_in_check(&pos))
                result = 1;
            continue;
        }
        for (int i = 0; i < list.count && result == 0; i++) {
            SchPosition next = pos;
            SchUndo undo;
            sch_pos_make(&next, list.moves[i], &undo);
            uint64_t key = next.key | 1; /* 0 marks an empty slot */
            size_t slot = key & (cap - 1);
            while (seen[slot] && seen[slot] != key)
                slot = (slot + 1) & (cap - 1);
            if (seen[slot])
                continue;
            if (tail == limit)
                result = -1;
            else {
                seen[slot] = key;
                queue[tail++] = next;
            }
        }
    }
    *visited = tail;
    free(seen);
    free(queue);
    return result;
}

/* Replays a helpmate proof of the analysis from start with the rules core: every move must be legal
 * (sch_gen_is_legal) and the last position checkmate against the opponent of winner. Writes what went
 * wrong into why (and returns false) otherwise. */
static inline bool oracle_replay(const SchPosition *start, SchColor winner, const SchWinResult *r, char *why,
                                 size_t size) {
    if (r->line_len < 0 || r->line_len > SCH_WIN_LINE_MAX) {
        snprintf(why, size, "line_len %d out of range", r->line_len);
        return false;
    }
    SchPosition pos = *start;
    for (int i = 0; i < r->line_len; i++) {
        if (!sch_gen_is_legal(&pos, r->line[i])) {
            char uci[8];
            sch_uci_write(&pos, r->line[i], uci, sizeof uci);
            snprintf(why, size, "ply %d of %d (%s) is not legal", i + 1, r->line_len, uci);
            return false;
        }
        SchUndo undo;
        sch_pos_make(&pos, r->line[i], &undo);
    }
    if (!oracle_mated_by(&pos, winner)) {
        snprintf(why, size, "the %d-ply line does not end in checkmate by %s", r->line_len,
                 winner == SCH_WHITE ? "white" : "black");
        return false;
    }
    return true;
}

/* The line as UCI moves separated by spaces, for messages. */
static inline void oracle_line_text(const SchMove *line, int len, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    SchPosition standard; /* the squares of each move: enough for messages */
    sch_pos_set_start(&standard);
    for (int i = 0; i < len && used + 7 < size; i++) {
        char uci[8];
        sch_uci_write(&standard, line[i], uci, sizeof uci);
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? " " : "", uci);
    }
}

#endif
