/* Rated games' effects (rating.h). */
#include "rating.h"

#include <string.h>

/* Days sat out since the last game (none for a first game: a newcomer's deviation is the largest). */
static int idle_days(const RatingRow *r, int64_t now_ms) {
    if (r->updated_ms <= 0 || now_ms <= r->updated_ms)
        return 0;
    int64_t days = (now_ms - r->updated_ms) / 86400000;
    return days > 100000 ? 100000 : (int)days;
}

bool rating_apply(RatingRow *white, RatingRow *black, const char *result, int64_t now_ms) {
    double score;
    if (!result)
        return false;
    if (!strcmp(result, "1-0"))
        score = 1;
    else if (!strcmp(result, "0-1"))
        score = 0;
    else if (!strcmp(result, "1/2-1/2"))
        score = 0.5;
    else
        return false;
    Glicko2Result vs_black = {black->g.rating, black->g.rd, score},
                  vs_white = {white->g.rating, white->g.rd, 1 - score};
    Glicko2 w, b;
    if (!glicko2_rate_game(&white->g, &vs_black, idle_days(white, now_ms), &w) ||
        !glicko2_rate_game(&black->g, &vs_white, idle_days(black, now_ms), &b))
        return false;
    white->g = w;
    black->g = b;
    white->games++;
    black->games++;
    white->updated_ms = black->updated_ms = now_ms;
    return true;
}
