/* Engine: static evaluation.
 *
 * A tapered evaluation: every term (eval_params.h) has a middlegame and an endgame weight; the two
 * sums are blended by the game phase (24 = all pieces on the board, 0 = only kings and pawns), and
 * the endgame part is scaled down in drawish material (endgame.h). Basic mates (lone king against
 * mating material) are scored by endgame knowledge instead of the terms.
 *
 * For the Texel tuner, eval_trace() reports how often each weight was counted for each colour, so
 * that the evaluation of a position under any weight vector w is, from white's point of view,
 *
 *     lin   = sum over i of (coeff[i][WHITE] - coeff[i][BLACK]) * w[i]        (a Score: mg and eg)
 *     white = (mg(lin) * phase + eg(lin) * (24 - phase) * scale / 64) / 24
 *
 * up to integer rounding (and exactly the engine's value when w is eval_params). Positions with
 * `special` set are scored by endgame rules and carry no information about the weights.
 */
#ifndef SCHACH_ENGINE_EVAL_H
#define SCHACH_ENGINE_EVAL_H

#include <stdbool.h>

#include "eval_params.h"
#include "schach/position.h"

#define EVAL_PHASE_MAX 24
#define EVAL_KNOWN_WIN 10000 /* basic mates score above this (but below any mate score) */

/* A small cache of pawn-structure terms, owned by one searching thread. */
#define PAWN_CACHE_SIZE 16384 /* entries, a power of two */
typedef struct PawnEntry {
    uint64_t key;
    Score score;           /* pawn structure, white minus black */
    SchBitboard passed[2]; /* passed pawns of each colour */
} PawnEntry;
typedef struct PawnCache {
    PawnEntry entries[PAWN_CACHE_SIZE];
} PawnCache;

typedef struct EvalTrace {
    int coeff[EP_COUNT][2]; /* times weight i was counted for colour c */
    int phase;              /* 0..EVAL_PHASE_MAX */
    int scale;              /* endgame scale, 0..64 */
    bool special;           /* scored by endgame rules (the terms do not apply) */
} EvalTrace;

/* Evaluation of pos in centipawns from the side to move's point of view. cache (may be NULL) keeps
 * pawn-structure terms between calls; it must be zeroed before first use. */
int eval_position(const SchPosition *pos, PawnCache *cache);

/* The same evaluation, filling *trace (zeroed by the call) for the tuner; returns eval_position(). */
int eval_trace(const SchPosition *pos, EvalTrace *trace);

#endif
