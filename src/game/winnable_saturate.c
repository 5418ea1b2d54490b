/* Saturation: what can ever happen, computed to a fixpoint, and whether a mate fits in it.
 *
 * winnable_static.c proves a structure dead only while nothing can disturb its pawns; it gives up as
 * soon as a piece can reach a square an enemy pawn attacks. Here nothing is given up: every man gets
 * a set of squares it may ever stand on (its reach), and the sets grow together until nothing
 * changes. A piece that may step where an enemy pawn takes it simply lets that pawn capture there;
 * the pawn's new squares may free pushes, which may free more, and so on.
 *
 * The facts, each an over-approximation of what any series of legal moves can do:
 *   reach[i]      squares man i may stand on (its square to begin with);
 *   capturable[i] man i may be captured;
 *   promoted[i]   pawn i may promote (it may then stand anywhere, as anything).
 * Derived from them at every pass:
 *   steady        squares whose man never leaves and is never taken (reach = its square, not
 *                 capturable): always occupied, by that man;
 *   maybe_held    squares that may ever hold a man (the union of all reaches);
 *   offered[c]    squares where a man of c other than the king may stand: where c may be captured;
 *   guarded[c]    squares c attacks at every moment: attacked by a man of c that is never taken and
 *                 never promotes, from every square of its reach, with every square another man may
 *                 hold blocking its lines. An enemy king never steps there.
 * The rules: from every square of its reach a man may move as the piece moves with only the steady
 * squares blocking (pushes need a square not steady, pawn captures a square in the enemy's offered
 * set or an en passant victim's, king steps a square outside the enemy's guarded set); never onto a
 * steady square of its own side. Man j becomes capturable when an enemy's capture squares meet
 * reach[j]. Every fact only ever grows (guarded and steady only shrink), so the passes end.
 *
 * Why the result bounds every real game (induction over its moves): while every move so far stayed
 * within the facts, a steady man is still on its square (it never moved, was never taken), so every
 * real line is at most as open as the steady squares allow; every real occupant stands inside its
 * reach, so real lines are at least as blocked as maybe_held makes them, and a guarded square is
 * really attacked (its attacker is still there: never captured, never promoted); a real capture
 * takes a man standing inside its reach, on a square in the capturer's capture set. So the next
 * move stays within the facts too.
 *
 * The mate test: the would-be loser's king is mated on a square m of its reach only if (1) a man of
 * the winner may attack m (from a square of its reach, the steady squares blocking, the loser's
 * king not); (2) every square next to m is attacked by the winner — its men as in (1), its king from
 * the one square of its reach it stands on, not next to m — or holds a man of the loser; those men
 * are distinct, each on a square of its reach (a matching). No m passes: no mate, ever.
 */
#include <stdbool.h>
#include <string.h>

#include "winnable_internal.h"

#define SAT_MEN 32

typedef struct SatMan {
    SchBitboard reach;
    SchSquare home;
    SchColor color;
    SchPieceType type;
    bool capturable, promoted;
} SatMan;

typedef struct Sat {
    SatMan man[SAT_MEN];
    int count;
    int king[2];
    SchBitboard steady, own_steady[2], maybe_held, offered[2], guarded[2], pawn_reach[2];
    int obstacles; /* men never taken, never promoted, that move among a few squares */
    int obstacle[SAT_MEN];
} Sat;

/* Obstacles with more squares than this are not looked at (they rarely stand in one way). */
#define SAT_OBSTACLE_SQUARES 6

static SchBitboard relative_rank(SchColor c, int rank) {
    return SCH_BB_RANK_1 << (8 * (c == SCH_WHITE ? rank : 7 - rank));
}

/* The derived sets from the facts. */
static void derive(Sat *S) {
    S->steady = S->own_steady[0] = S->own_steady[1] = 0;
    S->maybe_held = 0;
    S->offered[0] = S->offered[1] = S->pawn_reach[0] = S->pawn_reach[1] = 0;
    for (int i = 0; i < S->count; i++) {
        const SatMan *m = &S->man[i];
        S->maybe_held |= m->reach;
        if (m->reach == sch_bb_square(m->home) && !m->capturable) {
            S->steady |= m->reach;
            S->own_steady[m->color] |= m->reach;
        }
        if (m->type != SCH_KING)
            S->offered[m->color] |= m->reach;
        if (m->type == SCH_PAWN)
            S->pawn_reach[m->color] |= m->reach;
    }
    /* before[i]: the reaches of men 0..i-1; after[i]: of men i.. */
    SchBitboard before[SAT_MEN + 1], after[SAT_MEN + 1];
    before[0] = after[S->count] = 0;
    for (int i = 0; i < S->count; i++)
        before[i + 1] = before[i] | S->man[i].reach;
    for (int i = S->count; i > 0; i--)
        after[i - 1] = after[i] | S->man[i - 1].reach;
    S->guarded[0] = S->guarded[1] = 0;
    S->obstacles = 0;
    for (int i = 0; i < S->count; i++) {
        const SatMan *m = &S->man[i];
        if (m->capturable || m->promoted)
            continue;
        if (m->reach != sch_bb_square(m->home) && sch_bb_count(m->reach) <= SAT_OBSTACLE_SQUARES)
            S->obstacle[S->obstacles++] = i;
        /* Its lines are blocked by whatever else may stand on them, not by its own other squares. */
        SchBitboard others = before[i] | after[i + 1];
        SchBitboard always = ~0ULL, r = m->reach;
        while (r && always) {
            SchSquare s = sch_bb_pop(&r);
            always &= m->type == SCH_PAWN ? sch_bb_pawn_attacks(m->color, s) : sch_bb_attacks(m->type, s, others);
        }
        S->guarded[m->color] |= always;
    }
}

/* Whether man i, standing on s, finds its way to t (the squares between, and t itself) always
 * blocked by another man that is never taken: that man is somewhere in its reach at every moment,
 * never on s (man i stands there), so when its reach lies within s, the way and t, it stands in the
 * way — or on t, where only a man of i's own side blocks (an enemy there would be taken). */
static bool way_blocked(const Sat *S, int i, SchSquare s, SchBitboard way, SchBitboard target) {
    SchColor own = S->man[i].color;
    SchBitboard from = sch_bb_square(s);
    for (int k = 0; k < S->obstacles; k++) {
        const SatMan *o = &S->man[S->obstacle[k]];
        if (S->obstacle[k] == i)
            continue;
        SchBitboard room = from | way | (o->color == own ? target : 0);
        if (!(o->reach & ~room))
            return true;
    }
    return false;
}

/* The squares of `to` that man i (a piece or king, on s) may move to past the obstacles. */
static SchBitboard unblocked(const Sat *S, int i, SchSquare s, SchBitboard to) {
    /* An obstacle that blocks the way to a t in `to` lies within s, the squares between and t, all
     * of them in s and `to` (a slider's squares between are in its attack set): one that does not
     * lie within them blocks none of them, and most positions have no other kind. */
    SchBitboard room = sch_bb_square(s) | to;
    int k = 0;
    while (k < S->obstacles && (S->obstacle[k] == i || (S->man[S->obstacle[k]].reach & ~room)))
        k++;
    if (k == S->obstacles)
        return to;
    SchBitboard each = to;
    while (each) {
        SchSquare t = sch_bb_pop(&each);
        if (way_blocked(S, i, s, sch_bb_between(s, t), sch_bb_square(t)))
            to &= ~sch_bb_square(t);
    }
    return to;
}

/* One pass of the rules over man i: true when its reach grew; the squares it may capture on are
 * added to *captures. */
static bool spread(Sat *S, int i, SchBitboard *captures_out) {
    SatMan *m = &S->man[i];
    SchColor c = m->color, e = (SchColor)!c;
    SchBitboard add = 0, captures = 0;
    if (m->promoted) {
        add = ~S->own_steady[c];
        captures = ~0ULL;
    } else {
        SchBitboard r = m->reach;
        while (r) {
            SchSquare s = sch_bb_pop(&r);
            SchBitboard from = sch_bb_square(s);
            if (m->type == SCH_PAWN) {
                /* A push captures nothing: any man in the way blocks it, of either side. */
                SchBitboard push = sch_bb_shift_forward(c, from) & ~S->steady;
                if (push && way_blocked(S, i, s, push, 0))
                    push = 0;
                add |= push;
                SchBitboard twice = (from & relative_rank(c, 1)) ? sch_bb_shift_forward(c, push) & ~S->steady : 0;
                if (twice && !way_blocked(S, i, s, push | twice, 0))
                    add |= twice;
                SchBitboard diag = sch_bb_pawn_attacks(c, s);
                /* En passant: from the fifth rank onto a square whose victim (beside the pawn, on the
                 * fifth rank) may be an enemy pawn that passed over the target. */
                SchBitboard victims = 0;
                if (from & relative_rank(c, 4)) {
                    SchBitboard beside = ((from << 1) & ~SCH_BB_FILE_A) | ((from >> 1) & ~SCH_BB_FILE_H);
                    victims = beside & S->pawn_reach[e];
                }
                add |= diag & (S->offered[e] | sch_bb_shift_forward(c, victims));
                captures |= diag | victims;
            } else if (m->type == SCH_KING) {
                SchBitboard to = unblocked(S, i, s, sch_bb_king_attacks(s) & ~S->own_steady[c] & ~S->guarded[e]);
                add |= to;
                captures |= to;
            } else {
                SchBitboard to = unblocked(S, i, s, sch_bb_attacks(m->type, s, S->steady) & ~S->own_steady[c]);
                add |= to;
                captures |= to;
            }
        }
        if (m->type == SCH_PAWN && (add & relative_rank(c, 7))) {
            m->promoted = true;
            add |= ~S->own_steady[c];
            captures = ~0ULL;
        }
    }
    *captures_out |= captures;
    SchBitboard before = m->reach;
    m->reach |= add;
    return m->reach != before;
}

static void sat_init(Sat *S, const SchPosition *pos) {
    memset(S, 0, sizeof *S);
    SchBitboard occ = sch_pos_occupied(pos);
    while (occ && S->count < SAT_MEN) {
        SchSquare s = sch_bb_pop(&occ);
        SchPiece p = sch_pos_piece_on(pos, s);
        SatMan *m = &S->man[S->count];
        m->home = s;
        m->reach = sch_bb_square(s);
        m->color = sch_piece_color(p);
        m->type = sch_piece_type(p);
        if (m->type == SCH_KING)
            S->king[m->color] = S->count;
        S->count++;
    }
    /* Castling: the king lands on the c- or g-file, the rook on the d- or f-file of its first rank
     * (also in Chess960); the squares between are a king's steps the rules find anyway. */
    for (int right = 0; right < 4; right++) {
        if (!(pos->castling & (1 << right)))
            continue;
        SchColor c = right < 2 ? SCH_WHITE : SCH_BLACK;
        bool king_side = right % 2 == 0;
        int rank = c == SCH_WHITE ? 0 : 7;
        SchSquare king_to = (SchSquare)(rank * 8 + (king_side ? 6 : 2));
        SchSquare rook_to = (SchSquare)(rank * 8 + (king_side ? 5 : 3));
        S->man[S->king[c]].reach |= sch_bb_square(king_to);
        for (int i = 0; i < S->count; i++)
            if (S->man[i].home == pos->castle_rook[right] && S->man[i].type == SCH_ROOK && S->man[i].color == c)
                S->man[i].reach |= sch_bb_square(rook_to);
    }
}

/* Kuhn's augmenting path from square index s: true when s gets a man, reassigning others. */
static bool augment(int s, const SchSquare *sq, const SchBitboard *men, int n, int *owner, bool *tried) {
    for (int j = 0; j < n; j++) {
        if (tried[j] || !(men[j] & sch_bb_square(sq[s])))
            continue;
        tried[j] = true;
        if (owner[j] < 0 || augment(owner[j], sq, men, n, owner, tried)) {
            owner[j] = s;
            return true;
        }
    }
    return false;
}

/* Whether distinct men (their reaches in men[0..n)) can stand on every square of `squares` (at most
 * the 8 squares around a king). */
static bool fill_all(SchBitboard squares, const SchBitboard *men, int n) {
    SchSquare sq[8];
    int k = 0;
    while (squares && k < 8)
        sq[k++] = sch_bb_pop(&squares);
    if (k > n)
        return false;
    int owner[SAT_MEN];
    for (int j = 0; j < n; j++)
        owner[j] = -1;
    for (int s = 0; s < k; s++) {
        bool tried[SAT_MEN] = {false};
        if (!augment(s, sq, men, n, owner, tried))
            return false;
    }
    return true;
}

/* Whether the loser's king may ever be mated (see the top). */
static bool mate_possible(const Sat *S, SchColor W) {
    SchColor L = (SchColor)!W;
    const SatMan *lk = &S->man[S->king[L]], *wk = &S->man[S->king[W]];
    /* The winner's attacks, its king apart: through the steady squares only, the loser's king
     * seen through (a square behind it on the checking line is attacked as well). */
    SchBitboard blockers = S->steady & ~lk->reach;
    SchBitboard attack = 0;
    for (int i = 0; i < S->count; i++) {
        const SatMan *m = &S->man[i];
        if (m->color != W || m->type == SCH_KING)
            continue;
        if (m->promoted) {
            attack = ~0ULL;
            break;
        }
        SchBitboard r = m->reach;
        while (r) {
            SchSquare s = sch_bb_pop(&r);
            attack |= m->type == SCH_PAWN ? sch_bb_pawn_attacks(W, s) : sch_bb_attacks(m->type, s, blockers);
        }
    }
    SchBitboard helpers[SAT_MEN];
    int n = 0;
    for (int i = 0; i < S->count; i++)
        if (S->man[i].color == L && S->man[i].type != SCH_KING)
            helpers[n++] = S->man[i].reach;
    SchBitboard reached = 0;
    for (int j = 0; j < n; j++)
        reached |= helpers[j];
    SchBitboard checked = lk->reach & attack;
    while (checked) {
        SchSquare k = sch_bb_pop(&checked);
        SchBitboard ring = sch_bb_king_attacks(k), open = ring & ~attack;
        if (!open || ((open & ~reached) == 0 && fill_all(open, helpers, n)))
            return true;
        /* The winner's king covers some of them from one square, never next to k, next to an open
         * square (else it covers none). */
        SchBitboard ring_of_open = 0, each = open;
        while (each)
            ring_of_open |= sch_bb_king_attacks(sch_bb_pop(&each));
        SchBitboard stands = wk->reach & ~ring & ~sch_bb_square(k) & ring_of_open;
        while (stands) {
            SchSquare s = sch_bb_pop(&stands);
            SchBitboard left = open & ~sch_bb_king_attacks(s);
            if ((left & ~reached) == 0 && fill_all(left, helpers, n))
                return true;
        }
    }
    return false;
}

/* Runs the rules until nothing changes; false then when the enemy of W can never be mated. True as
 * soon as a mate fits (the facts only grow, and with them the room for a mate: an open position
 * stops after a pass or two). */
static bool saturate(Sat *S, SchColor W) {
    for (;;) {
        derive(S);
        bool changed = false;
        SchBitboard captures[2] = {0, 0};
        for (int i = 0; i < S->count; i++)
            changed |= spread(S, i, &captures[S->man[i].color]);
        for (int i = 0; i < S->count; i++) {
            SatMan *m = &S->man[i];
            if (m->type != SCH_KING && !m->capturable && (m->reach & captures[!m->color])) {
                m->capturable = true;
                changed = true;
            }
        }
        if (!changed)
            return mate_possible(S, W);
        if (mate_possible(S, W))
            return true;
    }
}

/* White pawns with a black pawn right in front. */
static SchBitboard rams(const SchPosition *pos) {
    return sch_bb_shift_north(sch_pos_pieces(pos, SCH_WHITE, SCH_PAWN)) & sch_pos_pieces(pos, SCH_BLACK, SCH_PAWN);
}

bool sch_win_nearly_locked(const SchPosition *pos) {
    int n = sch_bb_count(rams(pos));
    return n > 0 && 2 * n + 4 >= sch_bb_count(pos->by_type[SCH_PAWN]);
}

SchWinnability sch_win_saturate(const SchPosition *pos, SchColor color, SchWinReason *why) {
    /* Without two pawns standing head to head every pawn may advance, and nothing stays shut: the
     * analysis would only find every square open (a cheap answer first, for open positions). */
    if (!rams(pos))
        return SCH_WIN_UNDETERMINED;
    Sat S;
    sat_init(&S, pos);
    if (saturate(&S, color))
        return SCH_WIN_UNDETERMINED;
    *why = SCH_WIN_REASON_LOCKED;
    return SCH_WIN_UNWINNABLE;
}
