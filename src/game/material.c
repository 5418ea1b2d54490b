/* Dead position by material alone (5.2.2, 9.6): the rules the winnability analysis starts with, and
 * the engine's fast draw test and the game record's automatic draw built on them. Depends on the
 * position only; the winnability analysis (winnable*.c) calls in here, never the reverse. */
#include "schach/material.h"

static bool one_square_colour(Bitboard b) { return !(b & BB_LIGHT_SQUARES) || !(b & BB_DARK_SQUARES); }

bool win_material_insufficient(const Position *pos, Color color) {
    Bitboard ours = pos->by_color[color], theirs = pos->by_color[!color];
    Bitboard our_men = ours & ~pos->by_type[KING], their_men = theirs & ~pos->by_type[KING];
    if (!our_men)
        return true; /* a king never gives check */
    if (pos->by_type[PAWN])
        return false; /* a pawn may promote to anything, or block a flight square */
    Bitboard knights = pos->by_type[KNIGHT], bishops = pos->by_type[BISHOP];
    /* One knight mates only when an enemy man blocks a flight square. */
    if (our_men == (ours & knights) && !bb_more_than_one(our_men) && !their_men)
        return true;
    /* Bishops on one colour: the mated king stands on that colour, so its orthogonal neighbours are
     * of the other colour; a bishop never attacks them and one king cannot cover two of them
     * without standing next to the mated king, so enemy men would have to block them, and men
     * that stand only on the bishops' colour never can. */
    if (our_men == (ours & bishops)) {
        Bitboard all_bishops = our_men | (their_men & bishops);
        if (their_men == (their_men & bishops) && one_square_colour(all_bishops))
            return true;
    }
    /* A knight against a lone queen, or one bishop against rooks and queens only. The mate would
     * be a single check by that piece (nothing else of ours can check, pin or uncover), and our
     * king never covers two orthogonal neighbours of the mated king without standing next to it.
     * - Bishop: let d be the diagonal neighbour of the mated king on the checking line (or the
     *   bishop's own square). Both orthogonal neighbours next to d are of the other colour, so
     *   the bishop never covers them and our king covers at most one: an enemy man must stand on
     *   the other, and a rook or queen there takes the bishop on d or interposes on d.
     * - Knight against a queen: a checking knight attacks only squares of the mated king's colour,
     *   never its orthogonal neighbours; our king covers at most one of those and the queen
     *   blocks one more, which is enough only in a corner (seen from a1: a2 and b1, with b2 empty
     *   as a flight square our king or knight covers). Then the knight checks from b3 or c2 and
     *   the queen on a2 or b1 always reaches it (diagonally next to it, or through b2).
     * So no series of moves mates. */
    Bitboard heavy = pos->by_type[ROOK] | pos->by_type[QUEEN];
    if (their_men && !bb_more_than_one(our_men) && (our_men & bishops) && their_men == (their_men & heavy))
        return true;
    if (our_men == (our_men & knights) && !bb_more_than_one(our_men) && their_men && !bb_more_than_one(their_men) &&
        (their_men & pos->by_type[QUEEN]))
        return true;
    return false;
}

bool pos_insufficient_material(const Position *pos) {
    return win_material_insufficient(pos, WHITE) && win_material_insufficient(pos, BLACK);
}
