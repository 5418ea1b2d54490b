/* Ratings per category of game (issue 13): a rated game's effect on both players' Glicko-2 ratings
 * (glicko2.h). Which category a time control belongs to is timecontrol.h's (rating_category). */
#ifndef SCHACH_SERVER_RATING_H
#define SCHACH_SERVER_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include "glicko2.h"
#include "timecontrol.h"

/* One player's rating in a category, as stored. */
typedef struct RatingRow {
    Glicko2 g;
    int games;          /* rated games played in the category */
    int64_t updated_ms; /* when the last one ended (0: never) */
} RatingRow;

/* The ratings after a rated game with this result ("1-0", "0-1", "1/2-1/2") that ended at now_ms:
 * both are rated against the other's rating before the game, after the days each sat out since their
 * previous game in the category (each day a Glicko-2 period without games). false for a result that
 * is not one of the three, or ratings that are not numbers. */
bool rating_apply(RatingRow *white, RatingRow *black, const char *result, int64_t now_ms);

#endif
