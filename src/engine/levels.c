/* The named levels for people. Their Elo figures are estimates until measured by matches
 * (bench/strength.sh); the skill each level sets is what the search obeys. */
#include <strings.h>

#include "schach/engine.h"

static const EngineLevel levels[] = {
    {"beginner", "Beginner", "Anfänger", 600, 0},
    {"novice", "Novice", "Einsteiger", 900, 3},
    {"casual", "Casual player", "Gelegenheitsspieler", 1200, 6},
    {"club", "Club player", "Vereinsspieler", 1500, 9},
    {"strong", "Strong club player", "Starker Vereinsspieler", 1800, 12},
    {"expert", "Expert", "Experte", 2100, 15},
    {"master", "Master", "Meister", 2400, 18},
    {"max", "Full strength", "Volle Stärke", 0, 20},
};

const EngineLevel *engine_levels(int *count) {
    *count = (int)(sizeof levels / sizeof levels[0]);
    return levels;
}

const EngineLevel *engine_level_find(const char *id) {
    if (!id)
        return 0;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcasecmp(levels[i].id, id) == 0)
            return &levels[i];
    return 0;
}
