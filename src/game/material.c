/* Dead position by material alone (5.2.2, 9.6): the rules the winnability analysis starts with, and
 * the engine's fast draw test and the game record's automatic draw built on them. Depends on the
 * position only; the winnability analysis (winnable*.c) calls in here, never the reverse. */
#include "schach/material.h"

static bool one_square_colour(SchBitboard b) { return !(b & SCH_BB_LIGHT_SQUARES) || !(b & SCH_BB_DARK_SQUARES); }

bool sch_win_material_insufficient(const SchPosition *pos, SchColor color) {
    SchBitboard ours = pos->by_color[color], theirs = pos->by_color[!color];
    SchBitboard our_men = ours & ~pos->by_type[SCH_KING], their_men = theirs & ~pos->by_type[SCH_KING];
    if (!our_men)
        return true; /* a king never gives check */
    if (pos->by_type[SCH_PAWN])
        return false; /* a pawn may promote to anything, or block a flight square */
    SchBitboard knights = pos->by_type[SCH_KNIGHT], bishops = pos->by_type[SCH_BISHOP];
    /* One knight mates only when an enemy man blocks a flight square. */
    if (our_men == (ours & knights) && !sch_bb_more_than_one(our_men) && !their_men)
        return true;
    /* Bishops on one colour: the mated king stands on that colour, so its orthogonal neighbours are
     * of the other colour; a bishop never attacks them and one king cannot cover two of them
     * without standing next to the mated king, so enemy men would have to block them, and men
     * that stand only on the bishops' colour never can. */
    if (our_men == (ours & bishops)) {
        SchBitboard all_bishops = our_men | (their_men & bishops);
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
    SchBitboard heavy = pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN];
    if (their_men && !sch_bb_more_than_one(our_men) && (our_men & bishops) && their_men == (their_men & heavy))
        return true;
    if (our_men == (our_men & knights) && !sch_bb_more_than_one(our_men) && their_men &&
        !sch_bb_more_than_one(their_men) && (their_men & pos->by_type[SCH_QUEEN]))
        return true;
    return false;
}

bool sch_pos_insufficient_material(const SchPosition *pos) {
    return sch_win_material_insufficient(pos, SCH_WHITE) && sch_win_material_insufficient(pos, SCH_BLACK);
}
