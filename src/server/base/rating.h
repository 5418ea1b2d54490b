/* Ratings per category of game (issue 13): which category a time control belongs to, and a rated
 * game's effect on both players' Glicko-2 ratings (glicko2.h). */
#ifndef SCHACH_SERVER_RATING_H
#define SCHACH_SERVER_RATING_H

#include <stdbool.h>
#include <stdint.h>

#include "glicko2.h"

typedef enum {
    RATING_BULLET,
    RATING_BLITZ,
    RATING_RAPID,
    RATING_CLASSICAL,
    RATING_CORRESPONDENCE,
    RATING_COUNT
} RatingCategory;

/* A live game by its estimated duration, minutes × 60 + 40 × increment seconds (lichess's rule):
 * bullet below 3 minutes, blitz below 8, rapid below 25, classical from there; correspondence games
 * are their own category. -1 for a game without a time control (never rated). */
int rating_category(const char *time_type, int minutes, int increment);
/* "bullet", "blitz", "rapid", "classical", "correspondence"; NULL for anything else. */
const char *rating_category_name(int category);
/* The category of a name, or -1. */
int rating_category_of(const char *name);

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
