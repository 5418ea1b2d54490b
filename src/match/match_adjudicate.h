/* Adjudication: how the runner ends games beyond the endings the rules core decides itself.
 *
 * Rules: a draw that the player to move could claim (threefold repetition, 50-move rule) is claimed
 * at once, so engines never play on in a drawn position waiting for fivefold or 75 moves.
 * Scores (optional, off by default): resign when an engine's own score stayed at or below
 * -resign_score for resign_moves of its moves in a row; draw when, from move number draw_start on,
 * both engines' scores stayed within +-draw_score for draw_moves moves each in a row (2 * draw_moves
 * plies). Scores are centipawns from the mover's view; mate scores count as +-100000.
 * Pure functions over a Game and a small state: no I/O.
 */
#ifndef SCHACH_MATCH_ADJUDICATE_H
#define SCHACH_MATCH_ADJUDICATE_H

#include "match.h"
#include "schach/game.h"

#define ADJ_MATE_SCORE 100000

typedef enum { ADJ_NONE = 0, ADJ_RESIGN, ADJ_DRAW } Adjudication;

typedef struct AdjudicationState {
    int resign_streak[2]; /* per colour: own moves in a row at or below -resign_score */
    int draw_streak;      /* plies in a row within +-draw_score */
} AdjudicationState;

/* Ends g with a claimable draw (threefold first, then 50 moves) when one holds. Returns true when
 * the game is over afterwards (by that claim or already before). */
bool adjudicate_rules(SchGame *g);

/* Updates st with the score of the move just played by mover (has_score false when the engine
 * reported none: the streaks restart) and returns the decision under cfg's settings; *loser is
 * set for ADJ_RESIGN. The move number is the one of the position after the move. */
Adjudication adjudicate_scores(const MatchConfig *cfg, AdjudicationState *st, const SchGame *g, SchColor mover,
                               bool has_score, int score, SchColor *loser);

/* Applies a decision to g: ADJ_RESIGN makes loser resign, ADJ_DRAW is a draw by agreement. */
bool adjudicate_apply(SchGame *g, Adjudication a, SchColor loser);

#endif
