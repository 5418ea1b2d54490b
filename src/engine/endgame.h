/* Engine: endgame knowledge that the weighted terms cannot express. */
#ifndef SCHACH_ENGINE_ENDGAME_H
#define SCHACH_ENGINE_ENDGAME_H

#include <stdbool.h>

#include "schach/position.h"

/* Basic mates: when one side has a bare king and the other enough to mate (KQK, KRK, KBBK, KBNK and
 * anything more), sets *white_score (white's point of view: above EVAL_KNOWN_WIN for a win) to drive
 * the lone king to the edge, or for KBNK to a corner of the bishop's colour, and returns true. */
bool endgame_basic_mate(const SchPosition *pos, int *white_score);

/* How much of the endgame score side `strong` (the side ahead) keeps, 0..64: low when it cannot or
 * can hardly win (a lone minor piece, no pawns and little extra material, opposite bishops). */
int endgame_scale(const SchPosition *pos, SchColor strong);

#endif
