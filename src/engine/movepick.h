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

#define HISTORY_MAX 16384

/* What the search learns about quiet moves; lives as long as the Engine (cleared by a new game). */
typedef struct Heuristics {
    int16_t history[2][64][64];             /* colour, from, to: how often the move cut off */
    SchMove killers[ENGINE_MAX_PLY + 1][2]; /* quiet moves that cut off at this ply */
    SchMove counter[12][64];                /* a good answer to the last move (its piece and target) */
} Heuristics;

typedef struct MovePicker {
    const SchPosition *pos;
    const Heuristics *heur;
    int stage;
    bool noisy_only; /* quiescence: captures and queen promotions, losing exchanges skipped */
    SchMove tt_move, killers[2], counter;
    int cur, end, bad_end; /* [0, bad_end): losing captures, [cur, end): moves of the current stage */
    SchMove moves[SCH_MAX_MOVES];
    int scores[SCH_MAX_MOVES];
} MovePicker;

/* Prepares the picker for pos at ply. prev is the opponent's last move (SCH_MOVE_NONE after a null move
 * or at the root). A noisy_only picker yields captures and queen promotions with SEE >= 0, unless
 * pos is in check: then it yields every move. */
void mp_init(MovePicker *mp, const SchPosition *pos, const Heuristics *heur, SchMove tt_move, int ply, SchMove prev,
             bool noisy_only);

/* The next move, or SCH_MOVE_NONE when all are done. With skip_quiets, quiet moves not yet returned are
 * skipped (late move pruning). */
SchMove mp_next(MovePicker *mp, bool skip_quiets);

/* True for captures (en passant included) and promotions. */
bool move_is_noisy(const SchPosition *pos, SchMove m);

#endif
