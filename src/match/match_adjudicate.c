/* Rule and score adjudication (see match_adjudicate.h). */
#include "match_adjudicate.h"

#include <stdlib.h>

bool adjudicate_rules(Game *g) {
    if (game_over(g))
        return true;
    if (game_claims(g) == 0)
        return false;
    SchError err;
    err_clear(&err);
    return game_claim(g, 0, &err);
}

Adjudication adjudicate_scores(const MatchConfig *cfg, AdjudicationState *st, const Game *g, Color mover,
                               bool has_score, int score, Color *loser) {
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
        bool quiet = abs(score) <= cfg->draw_score && game_position(g)->fullmove >= cfg->draw_start;
        st->draw_streak = quiet ? st->draw_streak + 1 : 0;
        if (st->draw_streak >= 2 * cfg->draw_moves)
            return ADJ_DRAW;
    }
    return ADJ_NONE;
}

bool adjudicate_apply(Game *g, Adjudication a, Color loser) {
    SchError err;
    err_clear(&err);
    if (a == ADJ_RESIGN)
        return game_resign(g, loser, &err);
    if (a == ADJ_DRAW)
        return game_offer_draw(g, WHITE, &err) && game_accept_draw(g, BLACK, &err);
    return false;
}
