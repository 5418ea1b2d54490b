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
static Bitboard king_spread(Bitboard b) {
    Bitboard west = (b >> 1) & ~BB_FILE_H, east = (b << 1) & ~BB_FILE_A;
    Bitboard row = b | west | east;
    return row | (row << 8) | (row >> 8);
}

/* Squares of b filled southwards (each square and every square below it on its file). */
static Bitboard fill_south(Bitboard b) {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
    return b;
}
static Bitboard fill_north(Bitboard b) {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
    return b;
}

/* The pawns of colour c that can never push: the square ahead holds an enemy pawn, or an own pawn
 * that can never push (the enemy pawns in front are assumed frozen too; checked later). */
static Bitboard blocked_pawns(Bitboard own, Bitboard enemy, Color c) {
    Bitboard blocked = own & bb_shift_forward((Color)!c, enemy);
    for (;;) {
        Bitboard more = own & bb_shift_forward((Color)!c, blocked) & ~blocked;
        if (!more)
            return blocked;
        blocked |= more;
    }
}

/* Flood-fill of a king from its square through `allowed`. */
static Bitboard king_region(Square from, Bitboard allowed) {
    Bitboard region = bb_square(from), prev = 0;
    while (region != prev) {
        prev = region;
        region |= king_spread(region) & allowed;
    }
    return region;
}

/* Every square a piece of type t (not a pawn or king) on `from` can ever stand on when only pawns
 * block it and it never steps on `forbidden` squares (those would disturb the pawns). Sets *broken
 * when it can reach a forbidden square. */
static Bitboard piece_region(PieceType t, Square from, Bitboard pawns, Bitboard own_pawns, Bitboard forbidden,
                             bool *broken) {
    Bitboard region = bb_square(from), frontier = region;
    if (region & forbidden)
        *broken = true;
    while (frontier && !*broken) {
        Bitboard next = 0;
        while (frontier) {
            Square s = bb_pop(&frontier);
            next |= bb_attacks(t, s, pawns);
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
static Bitboard region_attacks(PieceType t, Bitboard region, Bitboard pawns) {
    Bitboard att = 0;
    while (region) {
        Square s = bb_pop(&region);
        att |= bb_attacks(t, s, pawns);
    }
    return att;
}

Winnability win_static(const Position *pos, Color color, WinReason *why, bool *blockade) {
    *blockade = false;
    Bitboard pawns = pos->by_type[PAWN];
    if (!pawns)
        return WIN_UNDETERMINED;
    Bitboard pw[2] = {pawns & pos->by_color[WHITE], pawns & pos->by_color[BLACK]};

    /* A blockade: no pawn can run to promotion without a capture (an enemy pawn stands somewhere
     * ahead on its file), no pawn can capture now, and at most two pawns can still push. Only
     * such positions with pawns can be dead, so only then is the full analysis worth its price
     * after a move in a game. */
    Bitboard free_w = pw[WHITE] & ~fill_south(pw[BLACK] >> 8);
    Bitboard free_b = pw[BLACK] & ~fill_north(pw[WHITE] << 8);
    if (free_w | free_b)
        return WIN_UNDETERMINED;
    Bitboard blocked[2] = {blocked_pawns(pw[WHITE], pw[BLACK], WHITE), blocked_pawns(pw[BLACK], pw[WHITE], BLACK)};
    Bitboard pushable = (pw[WHITE] & ~blocked[WHITE]) | (pw[BLACK] & ~blocked[BLACK]);
    if (bb_count(pushable) > 2)
        return WIN_UNDETERMINED;
    Bitboard attacks[2] = {bb_pawn_attacks_set(WHITE, pw[WHITE]), bb_pawn_attacks_set(BLACK, pw[BLACK])};
    /* A pawn that can capture right now. */
    if ((attacks[WHITE] & pos->by_color[BLACK]) | (attacks[BLACK] & pos->by_color[WHITE]))
        return WIN_UNDETERMINED;
    *blockade = true;

    /* A pawn giving check, or an en passant capture on offer, moves a pawn at once. */
    if ((pos->checkers & pawns) || pos->ep != SQ_NONE || pushable)
        return WIN_UNDETERMINED;
    Bitboard king_area[2];
    Bitboard piece_areas[2] = {0, 0};
    Bitboard check_reach[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        Bitboard own_pawns = pw[c], enemy_pawns = pw[!c];
        /* A king never stands on a square an enemy pawn attacks; it may take an enemy pawn only
         * where no enemy pawn defends it, and that would break the structure. */
        king_area[c] = king_region(pos_king(pos, (Color)c), ~own_pawns & ~attacks[!c]);
        if (king_area[c] & enemy_pawns)
            return WIN_UNDETERMINED;
        /* A piece that reaches an enemy pawn could take it; one on a square an enemy pawn attacks
         * could be taken by it. Either breaks the structure. */
        Bitboard forbidden = enemy_pawns | attacks[!c];
        Bitboard men = pos->by_color[c] & ~pos->by_type[PAWN] & ~pos->by_type[KING];
        while (men) {
            Square s = bb_pop(&men);
            PieceType t = piece_type(pos_piece_on(pos, s));
            bool broken = false;
            Bitboard region = piece_region(t, s, pawns, own_pawns, forbidden, &broken);
            if (broken)
                return WIN_UNDETERMINED;
            piece_areas[c] |= region;
            check_reach[c] |= region_attacks(t, region, pawns);
        }
    }
    /* The pawns are frozen for ever. Checkmate needs a check; pawns never attack the enemy king's
     * area (it avoids their squares by construction), so a piece must. */
    if (check_reach[color] & king_area[!color])
        return WIN_UNDETERMINED;
    Bitboard our_men = pos->by_color[color] & ~pos->by_type[PAWN] & ~pos->by_type[KING];
    /* Trapped: pieces there are, but their areas are small; locked: the pawns wall the king off. */
    *why =
        our_men && bb_count(piece_areas[color]) <= 2 * bb_count(our_men) + 4 ? WIN_REASON_TRAPPED : WIN_REASON_LOCKED;
    return WIN_UNWINNABLE;
}
