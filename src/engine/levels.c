/* The named levels for people. Their Elo is measured (bench/levels.sh, 10 s + 0.1 s, 60-120 games a
 * pairing) on the scale of Stockfish 15.1's UCI_Elo; the last full run (2026-12-01, the search of
 * issue 25; the levels keep the classical evaluation) played master, expert, strong, club and
 * casual against Stockfish at 2200, 2000, 1600, 1400 and 1320, novice against casual and beginner
 * against novice, as Stockfish goes no lower. A figure changes only when a run's 95% margin
 * excludes it: strong (1677 ± 92, was 1540) and expert (1866 ± 94, was 1970) did then; the others
 * were inside (master 2136 ± 77, club 1317 ± 93, casual 995 ± 151, novice 735 ± 195, beginner
 * 615 ± 218). UCI_Elo between two levels plays the skill between them (strength.c), so these
 * figures also calibrate "UCI_Elo" and computer:ELO. */
#include <strings.h>

#include "engine.h"

static const EngineLevel levels[] = {
    {"beginner", "Beginner", "Anfänger", 580, 0},
    {"novice", "Novice", "Einsteiger", 780, 3},
    {"casual", "Casual player", "Gelegenheitsspieler", 980, 6},
    {"club", "Club player", "Vereinsspieler", 1310, 9},
    {"strong", "Strong club player", "Starker Vereinsspieler", 1680, 12},
    {"expert", "Expert", "Experte", 1870, 15},
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
