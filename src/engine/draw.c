/* The computer's draw policy (engine.h): one rule for the terminal and the server. */
#include "engine.h"

bool engine_accepts_draw(int score) { return score <= ENGINE_DRAW_ACCEPT_SCORE; }

EngineDrawChoice engine_draw_choice(const Game *game, Move best, int score) {
    Color me = pos_turn(game_position(game));
    if (game->draw_offer == (int)!me && engine_accepts_draw(score))
        return ENGINE_DRAW_ACCEPT;
    if (score > 0 || game_over(game))
        return ENGINE_DRAW_NONE;
    if (game_claims(game))
        return ENGINE_DRAW_CLAIM;
    if (best != MOVE_NONE && game_claims_with_move(game, best))
        return ENGINE_DRAW_CLAIM_WITH_MOVE;
    return ENGINE_DRAW_NONE;
}
