/* Material that can or cannot checkmate: dead positions (5.2.2, 9.6) and flag falls (6.9). */
#include "schach/game.h"

/* All bishops on squares of one colour can never attack a square of the other colour. */
static bool bishops_one_colour(Bitboard bishops) {
    return !(bishops & BB_LIGHT_SQUARES) || !(bishops & BB_DARK_SQUARES);
}

bool pos_insufficient_material(const Position *pos) {
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    Bitboard knights = pos->by_type[KNIGHT], bishops = pos->by_type[BISHOP];
    if (!bishops)
        return bb_count(knights) <= 1;
    return !knights && bishops_one_colour(bishops);
}

bool pos_can_mate(const Position *pos, Color color) {
    Bitboard ours = pos->by_color[color], theirs = pos->by_color[!color];
    if (ours & (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN]))
        return true;
    if (ours & pos->by_type[KNIGHT]) {
        /* A lone knight mates only with an enemy piece blocking the king's flight. Like lichess,
         * we judge by material and do not count queens as such blockers. */
        bool lone_knight = bb_count(ours) <= 2;
        bool only_king_and_queens = !(theirs & ~pos->by_type[KING] & ~pos->by_type[QUEEN]);
        return !(lone_knight && only_king_and_queens);
    }
    if (ours & pos->by_type[BISHOP])
        return !(bishops_one_colour(pos->by_type[BISHOP]) && !pos->by_type[PAWN] && !pos->by_type[KNIGHT]);
    return false;
}
