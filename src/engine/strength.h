/* Engine: playing strength below the maximum, meant to feel like a weaker human player.
 *
 * A weaker level searches shallower and fewer nodes, considers a few candidate moves (MultiPV) and
 * picks among them at random with a probability that falls with the candidate's loss against the
 * best move (exp(-loss / temperature)); the temperature rises as the level falls. Moves losing more
 * than the level's tolerance are never picked. Like a person, a weak level sometimes overlooks a
 * capture it could make ("blind spot"), more often a long-range or a backward one.
 *
 * The level is a real number: skill 0..20 (EngineOptions.skill), or from UCI_Elo (limit_strength)
 * by the Elo the named levels measured (levels.c): linear between two levels, 100 Elo a skill step
 * below the weakest (down to -2). When both are set the weaker applies. Randomness comes from the
 * Engine's own generator.
 */
#ifndef SCHACH_ENGINE_STRENGTH_H
#define SCHACH_ENGINE_STRENGTH_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "search.h"

typedef struct StrengthPlan {
    bool active;        /* false: full strength, none of the below applies */
    bool classical;     /* a level for people (also UCI_LimitStrength at the top of UCI_Elo): the
                         * classical evaluation and one thread, as their Elo was measured */
    double level;       /* -2..20 */
    int depth;          /* deepest iteration */
    uint64_t nodes;     /* node budget */
    int candidates;     /* lines searched (MultiPV) to choose from */
    double temperature; /* centipawns: the loss at which a move is e times less likely */
    int max_loss;       /* centipawns: worse candidates are never chosen */
    double blind_spot;  /* chance (0..1) to overlook a plain capture */
} StrengthPlan;

/* The skill (-2..20) that plays at about elo, interpolated between the measured levels (levels.c)
 * and the classical engine unweakened (ENGINE_CLASSICAL_FULL_ELO); 20 at and above that. */
double strength_skill_for_elo(int elo);

/* The plan for these options. */
void strength_plan(const EngineOptions *opt, StrengthPlan *plan);

/* Restricts limits (a copy the search will use) to the plan. */
void strength_limit(const StrengthPlan *plan, EngineLimits *limits);

/* Picks the move to play from the lines of a finished search of pos (best first); rng is the
 * Engine's generator state. Returns the index of the chosen line. */
int strength_choose(const StrengthPlan *plan, const SchPosition *pos, const RootMove *lines, int count, uint64_t *rng);

#endif
