/* Static analysis of locked pawn structures.
 *
 * The idea: suppose every pawn stays where it is for ever. Then each piece can only move inside a
 * region bounded by the pawns, and a king never enters a square an enemy pawn attacks. Flood-fill
 * those regions (over-approximating: other pieces are treated as if they could always step aside).
 * If no unit can ever disturb a pawn — no pawn can push (each is blocked head-on, directly or behind
 * its own blocked pawn), no pawn ever finds an enemy on a square it attacks, no piece can ever reach
 * an enemy pawn or a square an enemy pawn attacks, no king can capture an unprotected pawn — the
 * supposition holds, the regions are exact upper bounds, and checkmate needs a check: when no piece
 * of the would-be winner can ever attack a square of the enemy king's region, no series of moves
 * mates. Everything here errs on the side of "could happen", so an UNWINNABLE is always sound.
 */
#include "winnable_internal.h"

/* King steps from every square of b, inside the board. */
static SchBitboard king_spread(SchBitboard b) {
    SchBitboard west = (b >> 1) & ~SCH_BB_FILE_H, east = (b << 1) & ~SCH_BB_FILE_A;
    SchBitboard row = b | west | east;
    return row | (row << 8) | (row >> 8);
}

/* Squares of b filled southwards (each square and every square below it on its file). */
static SchBitboard fill_south(SchBitboard b) {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    return b;
}
static SchBitboard fill_north(SchBitboard b) {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
    return b;
}

/* The pawns of colour c that can never push: the square ahead holds an enemy pawn, or an own pawn
 * that can never push (the enemy pawns in front are assumed frozen too; checked later). */
static SchBitboard blocked_pawns(SchBitboard own, SchBitboard enemy, SchColor c) {
    SchBitboard blocked = own & sch_bb_shift_forward((SchColor)!c, enemy);
    for (;;) {
        SchBitboard more = own & sch_bb_shift_forward((SchColor)!c, blocked) & ~blocked;
        if (!more)
            return blocked;
        blocked |= more;
    }
}

/* Flood-fill of a king from its square through `allowed`. */
static SchBitboard king_region(SchSquare from, SchBitboard allowed) {
    SchBitboard region = sch_bb_square(from), prev = 0;
    while (region != prev) {
        prev = region;
        region |= king_spread(region) & allowed;
    }
    return region;
}

/* Every square a piece of type t (not a pawn or king) on `from` can ever stand on when only pawns
 * block it and it never steps on `forbidden` squares (those would disturb the pawns). Sets *broken
 * when it can reach a forbidden square. */
static SchBitboard piece_region(SchPieceType t, SchSquare from, SchBitboard pawns, SchBitboard own_pawns,
                                SchBitboard forbidden, bool *broken) {
    SchBitboard region = sch_bb_square(from), frontier = region;
    if (region & forbidden)
        *broken = true;
    while (frontier && !*broken) {
        SchBitboard next = 0;
        while (frontier) {
            SchSquare s = sch_bb_pop(&frontier);
            next |= sch_bb_attacks(t, s, pawns);
        }
        next &= ~own_pawns & ~region;
        if (next & forbidden)
            *broken = true;
        region |= next;
        frontier = next;
    }
    return region;
}

/* Squares a piece of type t attacks from anywhere in region (pawns block slides). */
static SchBitboard region_attacks(SchPieceType t, SchBitboard region, SchBitboard pawns) {
    SchBitboard att = 0;
    while (region) {
        SchSquare s = sch_bb_pop(&region);
        att |= sch_bb_attacks(t, s, pawns);
    }
    return att;
}

/* The squares around a mated king that the winner may take from it, with the pawns frozen: a square
 * of the loser's own pawns; one the winner attacks (its pawns, any of its pieces from anywhere in
 * that piece's region, its king from anywhere in its region). Everything over-approximates. */
static SchBitboard winner_cover(SchColor winner, const SchBitboard pw[2], const SchBitboard attacks[2],
                                const SchBitboard check_reach[2], const SchBitboard king_area[2]) {
    SchColor loser = (SchColor)!winner;
    return pw[loser] | attacks[winner] | check_reach[winner] | king_spread(king_area[winner]);
}

/* Whether a king may be mated on one of the squares of `checked` (those a piece of the winner may
 * check it on). Mate needs a check and no flight: every square around the king is taken by the
 * winner (`taken`), or holds a man of the loser. A square outside `taken` holds nothing else in a
 * mate: not the winner's king (kings never stand side by side), not an undefended man of the
 * winner (the king would take it; defended, the square is attacked, so in `taken`). The loser's
 * men on the others are distinct, one a square, each within its region (`blockers`, n of them):
 * each such square must lie in some blocker's region, and at least as many blockers as squares must
 * reach one of them. */
static bool mating_square(SchBitboard checked, SchBitboard taken, const SchBitboard *blockers, int n) {
    while (checked) {
        SchSquare k = sch_bb_pop(&checked);
        SchBitboard open = king_spread(sch_bb_square(k)) & ~sch_bb_square(k) & ~taken;
        if (!open)
            return true;
        SchBitboard reachable = 0;
        int helpers = 0;
        for (int i = 0; i < n; i++) {
            reachable |= blockers[i] & open;
            helpers += (blockers[i] & open) != 0;
        }
        if (reachable == open && helpers >= sch_bb_count(open))
            return true;
    }
    return false;
}

SchWinnability sch_win_static(const SchPosition *pos, SchColor color, SchWinReason *why, bool *blockade) {
    *blockade = false;
    SchBitboard pawns = pos->by_type[SCH_PAWN];
    if (!pawns)
        return SCH_WIN_UNDETERMINED;
    SchBitboard pw[2] = {pawns & pos->by_color[SCH_WHITE], pawns & pos->by_color[SCH_BLACK]};

    /* A blockade: no pawn can run to promotion without a capture (an enemy pawn stands somewhere
     * ahead on its file), no pawn can capture now, and at most two pawns can still push. Only
     * such positions with pawns can be dead, so only then is the full analysis worth its price
     * after a move in a game. */
    SchBitboard free_w = pw[SCH_WHITE] & ~fill_south(pw[SCH_BLACK] >> 8);
    SchBitboard free_b = pw[SCH_BLACK] & ~fill_north(pw[SCH_WHITE] << 8);
    if (free_w | free_b)
        return SCH_WIN_UNDETERMINED;
    SchBitboard blocked[2] = {blocked_pawns(pw[SCH_WHITE], pw[SCH_BLACK], SCH_WHITE),
                              blocked_pawns(pw[SCH_BLACK], pw[SCH_WHITE], SCH_BLACK)};
    SchBitboard pushable = (pw[SCH_WHITE] & ~blocked[SCH_WHITE]) | (pw[SCH_BLACK] & ~blocked[SCH_BLACK]);
    if (sch_bb_count(pushable) > 2)
        return SCH_WIN_UNDETERMINED;
    SchBitboard attacks[2] = {sch_bb_pawn_attacks_set(SCH_WHITE, pw[SCH_WHITE]),
                              sch_bb_pawn_attacks_set(SCH_BLACK, pw[SCH_BLACK])};
    /* A pawn that can capture right now. A king is never captured: a pawn that attacks one gives
     * check, and the king steps away (or takes it, which the king's region below shows). */
    SchBitboard units[2] = {pos->by_color[SCH_WHITE] & ~pos->by_type[SCH_KING],
                            pos->by_color[SCH_BLACK] & ~pos->by_type[SCH_KING]};
    if ((attacks[SCH_WHITE] & units[SCH_BLACK]) | (attacks[SCH_BLACK] & units[SCH_WHITE]))
        return SCH_WIN_UNDETERMINED;
    *blockade = true;

    /* An en passant capture on offer moves a pawn at once. (A pawn giving check does not: the king
     * in check starts on a square the pawn attacks, steps off it, and its region below never
     * comes back to such a square; a piece that could take the checking pawn reaches an enemy
     * pawn, which the regions below catch.) */
    if (pos->ep != SCH_SQ_NONE || pushable)
        return SCH_WIN_UNDETERMINED;
    SchBitboard king_area[2];
    SchBitboard piece_areas[2] = {0, 0};
    SchBitboard check_reach[2] = {0, 0};
    SchBitboard regions[2][16]; /* each piece's region, at most 16 a side are counted */
    int region_count[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        SchBitboard own_pawns = pw[c], enemy_pawns = pw[!c];
        /* A king never stands on a square an enemy pawn attacks; it may take an enemy pawn only
         * where no enemy pawn defends it, and that would break the structure. */
        king_area[c] = king_region(sch_pos_king(pos, (SchColor)c), ~own_pawns & ~attacks[!c]);
        if (king_area[c] & enemy_pawns)
            return SCH_WIN_UNDETERMINED;
        /* A piece that reaches an enemy pawn could take it; one on a square an enemy pawn attacks
         * could be taken by it. Either breaks the structure. */
        SchBitboard forbidden = enemy_pawns | attacks[!c];
        SchBitboard men = pos->by_color[c] & ~pos->by_type[SCH_PAWN] & ~pos->by_type[SCH_KING];
        while (men) {
            SchSquare s = sch_bb_pop(&men);
            SchPieceType t = sch_piece_type(sch_pos_piece_on(pos, s));
            bool broken = false;
            SchBitboard region = piece_region(t, s, pawns, own_pawns, forbidden, &broken);
            if (broken)
                return SCH_WIN_UNDETERMINED;
            piece_areas[c] |= region;
            if (region_count[c] < 16)
                regions[c][region_count[c]++] = region;
            else
                regions[c][15] |= region; /* (never with legal material: 15 pieces at most) */
            check_reach[c] |= region_attacks(t, region, pawns);
        }
    }
    /* The pawns are frozen for ever. Checkmate needs a check; pawns never attack the enemy king's
     * area (it avoids their squares by construction), so a piece must; and it needs every square
     * around the king taken (mating_square). */
    SchBitboard checked = check_reach[color] & king_area[!color];
    if (checked && mating_square(checked, winner_cover(color, pw, attacks, check_reach, king_area), regions[!color],
                                 region_count[!color]))
        return SCH_WIN_UNDETERMINED;
    SchBitboard our_men = pos->by_color[color] & ~pos->by_type[SCH_PAWN] & ~pos->by_type[SCH_KING];
    /* Trapped: pieces there are, but their areas are small; locked: the pawns wall the king off. */
    *why = our_men && sch_bb_count(piece_areas[color]) <= 2 * sch_bb_count(our_men) + 4 ? SCH_WIN_REASON_TRAPPED
                                                                                        : SCH_WIN_REASON_LOCKED;
    return SCH_WIN_UNWINNABLE;
}
