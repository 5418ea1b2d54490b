/* Engine: playing strength below the maximum (see strength.h). */
#include <stdlib.h>

#include "movepick.h"
#include "rng.h"
#include <math.h>
#include "strength.h"

static double clamp(double x, double lo, double hi) { return x < lo ? lo : x > hi ? hi : x; }

double strength_skill_for_elo(int elo) {
    int count;
    const EngineLevel *lv = engine_levels(&count);
    double lo_skill = lv[0].skill, lo_elo = lv[0].elo;
    if (elo <= lo_elo)
        return clamp(lo_skill - (lo_elo - elo) / 100.0, -2, 20);
    for (int i = 1; i < count; i++) {
        double hi_skill = lv[i].skill, hi_elo = lv[i].elo > 0 ? lv[i].elo : ENGINE_CLASSICAL_FULL_ELO;
        if (elo <= hi_elo)
            return lo_skill + (hi_skill - lo_skill) * (elo - lo_elo) / (hi_elo - lo_elo);
        lo_skill = hi_skill;
        lo_elo = hi_elo;
    }
    return 20;
}

void strength_plan(const EngineOptions *opt, StrengthPlan *plan) {
    double level = clamp(opt->skill, 0, 20);
    if (opt->limit_strength)
        level = clamp(strength_skill_for_elo(opt->elo), -2, level);
    double weakness = 20 - level; /* 0..22 */
    plan->active = level < 20;
    plan->classical = plan->active || opt->limit_strength;
    plan->level = level;
    /* Above skill 12 the levels used to bunch up far below full strength (skill 15 and 18 both
     * measured about 1,700 against Stockfish's UCI_Elo, full strength about 2,400): the depth limit
     * now rises twice as fast there, fewer candidates leave more of the search for each, and the
     * constant part of the temperature fades out, so the strongest levels seldom pick a worse move.
     * Up to skill 12 nothing changed (bench/levels.sh measured those). */
    plan->depth = (int)clamp(level <= 12 ? 1 + level / 2 : 7 + (level - 12), 1, 14);
    plan->nodes = (uint64_t)(300 * exp(clamp(level, 0, 20) * 0.6 * 0.6931471805599453));
    plan->candidates = level < 10 ? 5 : level <= 12 ? 4 : 3;
    plan->temperature = 15 * clamp(weakness / 8, 0, 1) + 0.6 * weakness * weakness;
    plan->max_loss = (int)(30 + 0.9 * weakness * weakness);
    plan->blind_spot = clamp(weakness * weakness / 1000.0, 0, 0.6);
}

void strength_limit(const StrengthPlan *plan, EngineLimits *limits) {
    if (!plan->active)
        return;
    if (limits->depth <= 0 || limits->depth > plan->depth)
        limits->depth = plan->depth;
    if (!limits->nodes || limits->nodes > plan->nodes)
        limits->nodes = plan->nodes;
    if (limits->multipv < plan->candidates)
        limits->multipv = plan->candidates;
    limits->mate = 0;
}

/* How likely the player overlooks capture m: distant and backward captures hide best. */
static double overlook_chance(const StrengthPlan *plan, const SchPosition *pos, SchMove m) {
    if (!move_is_noisy(pos, m) || sch_move_kind(m) == SCH_MOVE_PROMOTION)
        return 0;
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    int df = abs(sch_square_file(from) - sch_square_file(to)), dr = abs(sch_square_rank(from) - sch_square_rank(to));
    int forward = (sch_square_rank(to) - sch_square_rank(from)) * (sch_pos_turn(pos) == SCH_WHITE ? 1 : -1);
    double chance = plan->blind_spot;
    if ((df > dr ? df : dr) >= 4)
        chance *= 1.6;
    if (forward < 0)
        chance *= 1.6;
    return chance < 0.85 ? chance : 0.85;
}

int strength_choose(const StrengthPlan *plan, const SchPosition *pos, const RootMove *lines, int count, uint64_t *rng) {
    if (!plan->active || count <= 1)
        return 0;
    double weight[ENGINE_MAX_MULTIPV], total = 0;
    int best = lines[0].score;
    for (int i = 0; i < count; i++) {
        int loss = best - lines[i].score;
        bool mate_lost = lines[i].score <= -ENGINE_MATE_BOUND && best > -ENGINE_MATE_BOUND;
        bool seen = rng_unit(rng) >= overlook_chance(plan, pos, lines[i].move);
        weight[i] = loss > plan->max_loss || mate_lost || !seen ? 0 : exp(-loss / plan->temperature);
        total += weight[i];
    }
    if (total <= 0)
        return 0;
    double pick = rng_unit(rng) * total;
    for (int i = 0; i < count; i++) {
        if (pick < weight[i])
            return i;
        pick -= weight[i];
    }
    return 0;
}
