/* Engine: static exchange evaluation. */
#ifndef SCHACH_ENGINE_SEE_H
#define SCHACH_ENGINE_SEE_H

#include <stdbool.h>

#include "schach/position.h"

/* Piece values for exchanges and move ordering (not the evaluation's weights). */
extern const int see_value[SCH_PIECE_TYPE_NB];

/* True when the exchange that legal move m starts on its target square wins at least threshold
 * centipawns for the mover, both sides capturing with their least valuable attacker each time and
 * stopping when it no longer pays. Castling counts as 0. */
bool see_ge(const SchPosition *pos, SchMove m, int threshold);

/* The piece type m captures (PAWN for en passant), or SCH_PIECE_TYPE_NB for a quiet move. */
SchPieceType see_captured(const SchPosition *pos, SchMove m);

#endif
