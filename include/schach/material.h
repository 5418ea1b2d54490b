/** @file
 * libschach: dead positions by material alone (FIDE 5.2.2, 6.9, 9.6).
 *
 * The material rules the game record (game.h: the automatic draw by insufficient material), the
 * engine's draw test and the winnability analysis (winnable.h: its first and cheapest rule) share.
 * This module depends on the position only; winnable.h and game.h include this header, so their
 * users see these functions as before.
 *
 * Memory: nothing declared here allocates, so nothing here can fail for want of memory.
 */
#ifndef SCH_MATERIAL_H
#define SCH_MATERIAL_H

#include "position.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Material alone shows that color can never checkmate: a bare king; K+N against a bare king;
 * bishops all on one square colour (and no other piece) against a king with at most bishops on that
 * same colour; one bishop against rooks and queens only; one knight against a lone queen. No pawns
 * of either side in all but the first case. */
bool sch_win_material_insufficient(const SchPosition *pos, SchColor color);

/** Dead position by material alone: K v K, K+N v K, K+B v K, kings with bishops all on one square
 * colour. Thin wrapper: sch_win_material_insufficient for both colours. */
bool sch_pos_insufficient_material(const SchPosition *pos);

#ifdef __cplusplus
}
#endif

#endif
