/* Opening sets: start positions for the games of a match, from a PGN file (each game's moves from
 * its start position, standard or FEN tag) or an EPD file (one position per line).
 * An OpeningSet owns heap memory: release it with openings_free().
 */
#ifndef SCHACH_MATCH_OPENINGS_H
#define SCHACH_MATCH_OPENINGS_H

#include <stddef.h>
#include <stdint.h>

#include "schach/game.h"

typedef struct Opening {
    char fen[SCH_FEN_MAX]; /* where the line starts */
    SchMove *moves;        /* then these moves (UCI to the engines, SAN in the PGN) */
    int ply_count;
} Opening;

typedef struct OpeningSet {
    Opening *items;
    int count;
} OpeningSet;

/* Reads PGN text (a buffer of len bytes, NUL-terminated). false with a message in why (English
 * or German by lang) naming game, line and column on the first bad game, or when a line ends the
 * game already or no game is found. */
bool openings_parse_pgn(OpeningSet *set, const char *text, size_t len, SchLang lang, char *why, size_t why_size);
/* Reads EPD text: per line a FEN's first four fields, optionally the two clocks, then operations
 * ("bm e4; id \"x\";") that are ignored; blank lines and lines starting with '#' are skipped. */
bool openings_parse_epd(OpeningSet *set, const char *text, SchLang lang, char *why, size_t why_size);
/* Reads a file: EPD when the name ends in .epd or .fen, else PGN. */
bool openings_load(OpeningSet *set, const char *path, SchLang lang, char *why, size_t why_size);
/* One opening: the standard position with no moves. */
bool openings_standard(OpeningSet *set);
/* Chess960 start positions: the count numbers given (0-959), or, when numbers is NULL, count random
 * ones drawn from seed. */
bool openings_chess960(OpeningSet *set, const int *numbers, int count, uint64_t seed);
/* Shuffles the order (Fisher-Yates with a fixed generator, so a seed repeats the order). */
void openings_shuffle(OpeningSet *set, uint64_t seed);
/* Starts g at opening o with its moves played; false (g is freed) if a move does not apply. */
bool openings_start_game(const Opening *o, SchGame *g);
void openings_free(OpeningSet *set);

#endif
