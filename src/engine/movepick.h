/* Engine: staged move ordering.
 *
 * Moves come in the order most likely to cut the search off early: the transposition table's move,
 * captures and promotions that do not lose material (most valuable victim first, least valuable
 * attacker second), the two killer moves of this ply, the counter move to the opponent's last move,
 * the other quiet moves by history, and last the captures that lose material by exchange.
 * Every move returned is legal; moves are generated only when a stage needs them.
 */
#ifndef SCHACH_ENGINE_MOVEPICK_H
#define SCHACH_ENGINE_MOVEPICK_H

#include "engine.h"
#include "schach/movegen.h"

#define MP_QUIET_PICKS 12    /* quiet moves picked one at a time before the rest are sorted */
#define HISTORY_MAX    16384 /* every history entry stays within +-this */

/* Statistics of a move by its piece and target square. */
typedef int16_t PieceToHistory[12][64];

/* What the search learns about quiet moves; lives as long as the Engine (cleared by a new game). */
typedef struct Heuristics {
    int16_t history[2][64][64]; /* colour, from, to: how often the move cut off */
    /* The opponent's last move (piece, target), or our own move before it: how often this quiet move
     * (piece, target) cut off after it. Orders quiet moves by the line that leads to them. */
    PieceToHistory continuation[12][64];
    SchMove killers[ENGINE_MAX_PLY + 1][2]; /* quiet moves that cut off at this ply */
    SchMove counter[12][64];                /* a good answer to the last move (its piece and target) */
} Heuristics;

typedef struct MovePicker {
    const SchPosition *pos;
    const Heuristics *heur;
    PieceToHistory *cont[2]; /* continuation histories of the last two moves (NULL: none) */
    int stage;
    bool noisy_only; /* quiescence: captures and queen promotions, losing exchanges skipped */
    SchMove tt_move, killers[2], counter;
    int cur, end, bad_end; /* [0, bad_end): losing captures, [cur, end): moves of the current stage */
    int quiet_picks;       /* quiet moves taken so far (see MP_QUIET_PICKS) */
    SchMove moves[SCH_MAX_MOVES];
    int scores[SCH_MAX_MOVES];
} MovePicker;

/* Prepares the picker for pos at ply. prev is the opponent's last move (SCH_MOVE_NONE after a null move
 * or at the root), cont the continuation histories after the last move and the one before it (either
 * NULL where there is none). A noisy_only picker yields captures and queen promotions with SEE >= 0, unless
 * pos is in check: then it yields every move. */
void mp_init(MovePicker *mp, const SchPosition *pos, const Heuristics *heur, SchMove tt_move, int ply, SchMove prev,
             PieceToHistory *const cont[2], bool noisy_only);

/* The history of quiet move m in pos (the move not yet made): by its squares and by the last two
 * moves (cont as for mp_init). */
static inline int quiet_history(const Heuristics *h, PieceToHistory *const cont[2], const SchPosition *pos, SchMove m) {
    int piece = sch_pos_piece_on(pos, sch_move_from(m)), to = sch_move_to(m);
    return h->history[sch_pos_turn(pos)][sch_move_from(m)][to] + (cont[0] ? (*cont[0])[piece][to] : 0) +
           (cont[1] ? (*cont[1])[piece][to] : 0);
}

/* The next move, or SCH_MOVE_NONE when all are done. With skip_quiets, quiet moves not yet returned are
 * skipped (late move pruning). */
SchMove mp_next(MovePicker *mp, bool skip_quiets);

/* True for captures (en passant included) and promotions. */
bool move_is_noisy(const SchPosition *pos, SchMove m);

#endif
