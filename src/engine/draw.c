/* The computer's draw policy (engine.h): one rule for the terminal and the server. */
#include "engine.h"

bool engine_accepts_draw(int score) { return score <= ENGINE_DRAW_ACCEPT_SCORE; }

EngineDrawChoice engine_draw_choice(const SchGame *game, SchMove best, int score) {
    SchColor me = sch_pos_turn(sch_game_position(game));
    if (game->draw_offer == (int)!me && engine_accepts_draw(score))
        return ENGINE_DRAW_ACCEPT;
    if (score > 0 || sch_game_over(game))
        return ENGINE_DRAW_NONE;
    if (sch_game_claims(game))
        return ENGINE_DRAW_CLAIM;
    if (best != SCH_MOVE_NONE && sch_game_claims_with_move(game, best))
        return ENGINE_DRAW_CLAIM_WITH_MOVE;
    return ENGINE_DRAW_NONE;
}
