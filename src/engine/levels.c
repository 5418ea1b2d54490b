/* The named levels for people. Their Elo is measured (bench/levels.sh, 2026-11-22, 10 s + 0.1 s,
 * 60-120 games a pairing) on the scale of Stockfish 15.1's UCI_Elo: club, strong, expert, master
 * and casual against Stockfish at 1500, 1800, 1800, 2100 and 1320; novice against casual and
 * beginner against novice, as Stockfish goes no lower. 95% margins: master ±81, expert ±102,
 * strong ±124, club ±104, casual ±101, novice ±126, beginner ±165. UCI_Elo between two levels plays
 * the skill between them (strength.c), so these figures also calibrate "UCI_Elo" and computer:ELO. */
#include <strings.h>

#include "engine.h"

static const EngineLevel levels[] = {
    {"beginner", "Beginner", "Anfänger", 580, 0},
    {"novice", "Novice", "Einsteiger", 780, 3},
    {"casual", "Casual player", "Gelegenheitsspieler", 980, 6},
    {"club", "Club player", "Vereinsspieler", 1310, 9},
    {"strong", "Strong club player", "Starker Vereinsspieler", 1540, 12},
    {"expert", "Expert", "Experte", 1970, 15},
    {"master", "Master", "Meister", 2130, 18},
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
