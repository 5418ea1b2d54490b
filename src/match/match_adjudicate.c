/* Rule and score adjudication (see match_adjudicate.h). */
#include "match_adjudicate.h"

#include <stdlib.h>

bool adjudicate_rules(SchGame *g) {
    if (sch_game_over(g))
        return true;
    if (sch_game_claims(g) == 0)
        return false;
    SchError err;
    sch_err_clear(&err);
    return sch_game_claim(g, 0, &err);
}

Adjudication adjudicate_scores(const MatchConfig *cfg, AdjudicationState *st, const SchGame *g, SchColor mover,
                               bool has_score, int score, SchColor *loser) {
    if (!has_score) {
        st->resign_streak[mover] = 0;
        st->draw_streak = 0;
        return ADJ_NONE;
    }
    if (cfg->resign_on) {
        st->resign_streak[mover] = score <= -cfg->resign_score ? st->resign_streak[mover] + 1 : 0;
        if (st->resign_streak[mover] >= cfg->resign_moves) {
            *loser = mover;
            return ADJ_RESIGN;
        }
    }
    if (cfg->draw_on) {
        bool quiet = abs(score) <= cfg->draw_score && sch_game_position(g)->fullmove >= cfg->draw_start;
        st->draw_streak = quiet ? st->draw_streak + 1 : 0;
        if (st->draw_streak >= 2 * cfg->draw_moves)
            return ADJ_DRAW;
    }
    return ADJ_NONE;
}

bool adjudicate_apply(SchGame *g, Adjudication a, SchColor loser) {
    SchError err;
    sch_err_clear(&err);
    if (a == ADJ_RESIGN)
        return sch_game_resign(g, loser, &err);
    if (a == ADJ_DRAW)
        return sch_game_offer_draw(g, SCH_WHITE, &err) && sch_game_accept_draw(g, SCH_BLACK, &err);
    return false;
}
