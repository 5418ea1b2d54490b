/* Glicko-2 ratings (Mark E. Glickman, "Example of the Glicko-2 system", Boston University, 2013).
 *
 * A rating is (r, RD, sigma) on the familiar scale (1500 and 350 for a newcomer). Every rated game is
 * a rating period of its own for both players, as on lichess: the player is rated against one opponent
 * with a score of 1, 0.5 or 0, and a player who has not played for a while first gets the periods he
 * sat out (RD grows, to at most the newcomer's). Pure arithmetic: no allocation, no state. */
#ifndef SCHACH_SERVER_GLICKO2_H
#define SCHACH_SERVER_GLICKO2_H

#include <stdbool.h>

#define GLICKO2_DEFAULT_RATING     1500.0
#define GLICKO2_DEFAULT_RD         350.0
#define GLICKO2_DEFAULT_VOLATILITY 0.06
/* The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2). */
#define GLICKO2_TAU 0.5
/* Bounds kept after every update: a deviation never falls below the minimum (a rating can always still
 * move), never exceeds the newcomer's; the volatility stays below the maximum (a stray result cannot
 * make a rating jump for ever after). */
#define GLICKO2_MIN_RD         45.0
#define GLICKO2_MAX_VOLATILITY 0.1
/* A rating whose deviation is above this is provisional (shown with a "?"). */
#define GLICKO2_PROVISIONAL_RD 110.0

typedef struct Glicko2 {
    double rating;     /* r */
    double rd;         /* RD, the rating deviation */
    double volatility; /* sigma */
} Glicko2;

/* One game of the period: the opponent's rating before it and the score (1 win, 0.5 draw, 0 loss). */
typedef struct Glicko2Result {
    double rating, rd;
    double score;
} Glicko2Result;

/* A newcomer's rating: 1500, 350, 0.06. */
Glicko2 glicko2_new(void);

/* The rating after a rating period with n games (n may be 0: the deviation grows only) with system
 * constant tau, exactly as the paper's eight steps (no bounds applied; the paper's worked example gives
 * 1464.06, 151.52, 0.05999). Returns false (and leaves *out untouched) for a result that is not a
 * finite rating, a deviation that is not positive, or a score outside [0, 1]. */
bool glicko2_rate_period(const Glicko2 *player, const Glicko2Result *games, int n, double tau, Glicko2 *out);

/* The rating after one rated game, after `idle_periods` periods without games (each makes the deviation
 * grow as a period with no games does), with GLICKO2_TAU and the bounds above applied. */
bool glicko2_rate_game(const Glicko2 *player, const Glicko2Result *game, int idle_periods, Glicko2 *out);

/* True while the rating is provisional (RD above GLICKO2_PROVISIONAL_RD). */
bool glicko2_provisional(const Glicko2 *g);

#endif
