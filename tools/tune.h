/* What the parts of schach_tune share: the quiet-position filter and the text extraction of a game. */
#ifndef SCHACH_TUNE_H
#define SCHACH_TUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "schach/pgn.h"
#include "schach/position.h"

/* Not in check, and no capture or promotion that wins material outright (static exchange). */
bool tune_is_quiet(const SchPosition *pos);

/* Writes up to per_game quiet positions of a finished game after its first skip plies to stdout as
 * "FEN;result" lines (result from white's point of view); returns how many. */
int tune_extract_game(const SchPgnGame *pg, int skip, int per_game);

/* Mixes seed into the generator that picks extract's positions. */
void tune_seed(uint64_t seed);

/* schach_tune selfplay (tools/selfplay.c). */
int tune_cmd_selfplay(int argc, char **argv);

#endif
