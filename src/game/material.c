/* Dead position by material alone (5.2.2, 9.6), for the engine's fast draw test and the game record. */
#include "schach/game.h"
#include "schach/winnable.h"

bool pos_insufficient_material(const Position *pos) {
    return win_material_insufficient(pos, WHITE) && win_material_insufficient(pos, BLACK);
}
