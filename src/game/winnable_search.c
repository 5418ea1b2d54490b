/* The searches behind a verdict: helpmate searches that look for a proof of WINNABLE, and an
 * exhaustive search of every reachable position that proves UNWINNABLE where the reachable world
 * is small (locked structures, few pieces).
 *
 * Helpmate: the would-be winner (W) mates and the would-be loser (L) cooperates. The stages:
 *   1. short: every series of moves up to 2 plies (W's mating move tried only among checks);
 *   then saturation (winnable_saturate.c): the squares every man may ever reach leave no mate;
 *   2. dives: long greedy lines ordered by a plan — L's king walks to a corner, L's men gather round
 *      it, W's men close in — with limited discrepancy search: the k-th iteration may leave the plan
 *      k times; a mate in one is looked for at every W move and, once L's king stands on the edge,
 *      every L move is tried before it;
 *   3. exhaustive: every legal move of both sides, depth-first, each position once (transposition
 *      table), cut where the position is statically dead. If it finishes without a mate, none exists.
 * A helpmate found by any stage is the proof; saturation or stage 3 finishing is the proof of
 * UNWINNABLE.
 */
#include <stdlib.h>
#include <string.h>

#include "schach/movegen.h"
#include "winnable_internal.h"

/* Depth limit of the dives and of the exhaustive search (plies from the root). */
#define DIVE_DEPTH (SCH_WIN_LINE_MAX - 8)
/* The first dive iteration's depth limit and its growth per discrepancy allowed (measured on the
 * bench positions: 80 µs a position against 90 with every dive 248 plies deep). */
#define DIVE_DEPTH_FIRST 64
#define DIVE_DEPTH_STEP  32
/* Most discrepancies a dive iteration allows. */
#define DIVE_MAX_DISCREPANCIES 6

typedef struct Search {
    SchPosition pos;
    SchColor W;
    uint64_t nodes, budget;
    bool deep_mate; /* the exhaustive search met a mate too deep to shorten into a proof */
    bool abort;
    SchWinWork *work; /* transposition table, NULL in quick mode */
    int ply;
    SchMove path[SCH_WIN_LINE_MAX];
    SchSquare corner; /* where L's king is led */
    int dive_depth;   /* the dives' depth limit this iteration */
} Search;

/* ---- small helpers ----------------------------------------------------------------------------- */

static int distance(SchSquare a, SchSquare b) {
    int df = abs(sch_square_file(a) - sch_square_file(b)), dr = abs(sch_square_rank(a) - sch_square_rank(b));
    return df > dr ? df : dr;
}

static bool spend(Search *S) {
    if (++S->nodes > S->budget) {
        S->abort = true;
        return false;
    }
    return true;
}

static void next_generation(Search *S) {
    if (S->work)
        win_tt_new_stage(S->work);
}

static bool tt_seen(const Search *S, uint64_t key, int depth) { return S->work && win_tt_seen(S->work, key, depth); }

static void tt_mark(const Search *S, uint64_t key, int depth) {
    if (S->work)
        win_tt_store(S->work, key, depth);
}

/* ---- checks and mate in one -------------------------------------------------------------------- */

/* What a move needs to give check to the king on `king`: target squares per piece type and the
 * W men whose departure uncovers a W slider. */
typedef struct CheckInfo {
    SchBitboard squares[SCH_PIECE_TYPE_NB];
    SchBitboard blockers;
    SchSquare king;
} CheckInfo;

static void check_info(const SchPosition *pos, SchColor W, CheckInfo *ci) {
    SchSquare k = sch_pos_king(pos, (SchColor)!W);
    SchBitboard occ = sch_pos_occupied(pos);
    ci->king = k;
    ci->squares[SCH_PAWN] = sch_bb_pawn_attacks((SchColor)!W, k);
    ci->squares[SCH_KNIGHT] = sch_bb_knight_attacks(k);
    ci->squares[SCH_BISHOP] = sch_bb_bishop_attacks(k, occ);
    ci->squares[SCH_ROOK] = sch_bb_rook_attacks(k, occ);
    ci->squares[SCH_QUEEN] = ci->squares[SCH_BISHOP] | ci->squares[SCH_ROOK];
    ci->squares[SCH_KING] = 0;
    ci->blockers = 0;
    SchBitboard ours = pos->by_color[W];
    SchBitboard diag = ours & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]);
    SchBitboard line = ours & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]);
    SchBitboard snipers = (sch_bb_bishop_attacks(k, 0) & diag) | (sch_bb_rook_attacks(k, 0) & line);
    while (snipers) {
        SchBitboard between = sch_bb_between(sch_bb_pop(&snipers), k) & occ;
        if (between && !sch_bb_more_than_one(between) && (between & ours))
            ci->blockers |= between;
    }
}

/* Whether m may give check (exact for normal moves; special moves are simply tried). */
static bool may_check(const SchPosition *pos, const CheckInfo *ci, SchMove m) {
    if (sch_move_kind(m) != SCH_MOVE_NORMAL)
        return true;
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    if (ci->squares[sch_piece_type(sch_pos_piece_on(pos, from))] & sch_bb_square(to))
        return true;
    return (ci->blockers & sch_bb_square(from)) && !(sch_bb_line(from, ci->king) & sch_bb_square(to));
}

/* W to move: whether any of W's moves may give check — a superset of the checking moves, found by
 * attack sets alone: a man that reaches one of its checking squares (off its own men; a pawn's push
 * onto an empty one, its capture onto an L man), a man that uncovers a slider, and every special move
 * (a promotion, castling, en passant). False means no move checks, so none mates. */
static bool any_check_possible(const SchPosition *pos, SchColor W, const CheckInfo *ci) {
    if (ci->blockers || pos->ep != SCH_SQ_NONE ||
        (pos->castling & (W == SCH_WHITE ? SCH_CASTLE_WK | SCH_CASTLE_WQ : SCH_CASTLE_BK | SCH_CASTLE_BQ)))
        return true;
    SchBitboard own = pos->by_color[W], occ = sch_pos_occupied(pos);
    SchBitboard pawns = own & pos->by_type[SCH_PAWN];
    if (pawns & (W == SCH_WHITE ? SCH_BB_RANK_7 : SCH_BB_RANK_2))
        return true;
    SchBitboard push = sch_bb_shift_forward(W, pawns) & ~occ;
    SchBitboard twice = sch_bb_shift_forward(W, push & (W == SCH_WHITE ? SCH_BB_RANK_3 : SCH_BB_RANK_6)) & ~occ;
    if ((push | twice) & ci->squares[SCH_PAWN])
        return true;
    SchBitboard takes = ci->squares[SCH_PAWN] & pos->by_color[!W];
    if (takes && (sch_bb_pawn_attacks_set(W, pawns) & takes))
        return true;
    for (SchPieceType t = SCH_KNIGHT; t <= SCH_QUEEN; t++) {
        SchBitboard aim = ci->squares[t] & ~own;
        if (!aim)
            continue;
        for (SchBitboard men = own & pos->by_type[t]; men;)
            if (sch_bb_attacks(t, sch_bb_pop(&men), occ) & aim)
                return true;
    }
    return false;
}

/* W to move, no man of W's shields a slider from the enemy king, no en passant and no promotion
 * possible: then the moves that give check are exactly the direct checks — a man moving onto one of
 * its checking squares — and castling (its rook may check). Writes them to out (pseudo-legal: the
 * caller tests legality) and returns how many; the same set as the legal moves may_check passes, for
 * a fraction of the cost of generating every move. */
static int direct_checks(const SchPosition *pos, SchColor W, const CheckInfo *ci, SchMove *out) {
    SchBitboard own = pos->by_color[W], occ = sch_pos_occupied(pos);
    SchBitboard pawns = own & pos->by_type[SCH_PAWN];
    int n = 0, back = W == SCH_WHITE ? -8 : 8;
    SchBitboard push = sch_bb_shift_forward(W, pawns) & ~occ;
    SchBitboard twice = sch_bb_shift_forward(W, push & (W == SCH_WHITE ? SCH_BB_RANK_3 : SCH_BB_RANK_6)) & ~occ;
    for (SchBitboard to = push & ci->squares[SCH_PAWN]; to;) {
        SchSquare t = sch_bb_pop(&to);
        out[n++] = sch_move_make((SchSquare)(t + back), t);
    }
    for (SchBitboard to = twice & ci->squares[SCH_PAWN]; to;) {
        SchSquare t = sch_bb_pop(&to);
        out[n++] = sch_move_make((SchSquare)(t + 2 * back), t);
    }
    for (SchBitboard to = ci->squares[SCH_PAWN] & pos->by_color[!W]; to;) {
        SchSquare t = sch_bb_pop(&to);
        for (SchBitboard from = sch_bb_pawn_attacks((SchColor)!W, t) & pawns; from;)
            out[n++] = sch_move_make(sch_bb_pop(&from), t);
    }
    for (SchPieceType type = SCH_KNIGHT; type <= SCH_QUEEN; type++) {
        SchBitboard aim = ci->squares[type] & ~own;
        if (!aim)
            continue;
        for (SchBitboard men = own & pos->by_type[type]; men;) {
            SchSquare from = sch_bb_pop(&men);
            for (SchBitboard to = sch_bb_attacks(type, from, occ) & aim; to;)
                out[n++] = sch_move_make(from, sch_bb_pop(&to));
        }
    }
    /* Castling checks by its rook: on the f- or d-file, seen with king and rook on their new squares
     * (the square the king left may open the rook's way). */
    SchSquare king = sch_pos_king(pos, W);
    SchSquare base = W == SCH_WHITE ? SCH_SQ_A1 : SCH_SQ_A8;
    for (int side = 0; side < 2; side++) {
        int right = 2 * (int)W + side;
        if (!(pos->castling & (1 << right)))
            continue;
        SchSquare king_to = (SchSquare)(base + (side == 0 ? 6 : 2)), rook_to = (SchSquare)(base + (side == 0 ? 5 : 3));
        SchBitboard after = (occ & ~sch_bb_square(king) & ~sch_bb_square((SchSquare)pos->castle_rook[right])) |
                            sch_bb_square(king_to) | sch_bb_square(rook_to);
        if (sch_bb_rook_attacks(rook_to, after) & sch_bb_square(ci->king))
            out[n++] = sch_move_make_kind(king, king_to, SCH_MOVE_CASTLING);
    }
    return n;
}

/* W's men pinned to W's own king (standing alone between it and an enemy slider on its line). */
static SchBitboard pinned_men(const SchPosition *pos, SchColor W, SchSquare king) {
    SchBitboard occ = sch_pos_occupied(pos), theirs = pos->by_color[!W], pinned = 0;
    SchBitboard diag = theirs & (pos->by_type[SCH_BISHOP] | pos->by_type[SCH_QUEEN]);
    SchBitboard line = theirs & (pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]);
    SchBitboard snipers = (sch_bb_bishop_attacks(king, 0) & diag) | (sch_bb_rook_attacks(king, 0) & line);
    while (snipers) {
        SchBitboard between = sch_bb_between(sch_bb_pop(&snipers), king) & occ;
        if (between && !sch_bb_more_than_one(between))
            pinned |= between & pos->by_color[W];
    }
    return pinned;
}

/* W to move: a move that mates now. On success the move is on the path and made on the board. */
static bool mate_in_one(Search *S) {
    SchPosition *pos = &S->pos;
    CheckInfo ci;
    check_info(pos, S->W, &ci);
    if (!any_check_possible(pos, S->W, &ci))
        return false;
    SchMove moves[SCH_MAX_MOVES];
    /* The direct checks only where they are all the checking moves, and W is not in check (then a
     * move of a man other than the king is legal unless the man is pinned and leaves its line). */
    bool direct = !ci.blockers && pos->ep == SCH_SQ_NONE && !pos->checkers &&
                  !(pos->by_color[S->W] & pos->by_type[SCH_PAWN] & (S->W == SCH_WHITE ? SCH_BB_RANK_7 : SCH_BB_RANK_2));
    int n = direct ? direct_checks(pos, S->W, &ci, moves) : sch_gen_moves(pos, SCH_GEN_ALL, moves);
    SchSquare own_king = sch_pos_king(pos, S->W);
    SchBitboard pinned = direct ? pinned_men(pos, S->W, own_king) : 0;
    for (int i = 0; i < n; i++) {
        SchMove m = moves[i];
        if (!direct) {
            if (!may_check(pos, &ci, m))
                continue;
        } else if (sch_move_kind(m) == SCH_MOVE_CASTLING) {
            if (!sch_gen_is_legal(pos, m))
                continue;
        } else if ((pinned & sch_bb_square(sch_move_from(m))) &&
                   !(sch_bb_line(sch_move_from(m), own_king) & sch_bb_square(sch_move_to(m)))) {
            continue; /* a pinned man leaving its line */
        }
        if (!spend(S))
            return false;
        SchUndo u;
        sch_pos_make(pos, m, &u);
        if (pos->checkers && !sch_gen_has_legal_move(pos)) {
            S->path[S->ply++] = m;
            return true;
        }
        sch_pos_unmake(pos, m, &u);
    }
    return false;
}

/* ---- move ordering: the plan ------------------------------------------------------------------- */

static const int piece_value[SCH_PIECE_TYPE_NB] = {1, 3, 3, 5, 9, 0};

/* Whether men (W's non-king units) can mate a bare king with help: anything with a pawn, rook or
 * queen, or two minor pieces other than two bishops on one colour. */
static bool mates_bare_king(const SchPosition *pos, SchBitboard men) {
    if (men & (pos->by_type[SCH_PAWN] | pos->by_type[SCH_ROOK] | pos->by_type[SCH_QUEEN]))
        return true;
    if (!sch_bb_more_than_one(men))
        return false;
    SchBitboard bishops = men & pos->by_type[SCH_BISHOP];
    if (men == bishops)
        return (bishops & SCH_BB_LIGHT_SQUARES) && (bishops & SCH_BB_DARK_SQUARES);
    return true;
}

static int score_w(const Search *S, const CheckInfo *ci, SchMove m) {
    const SchPosition *pos = &S->pos;
    SchSquare from = sch_move_from(m), to = sch_move_to(m), k = ci->king;
    SchPieceType t = sch_piece_type(sch_pos_piece_on(pos, from));
    int s = 0;
    if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
        static const int promo[SCH_PIECE_TYPE_NB] = {0, 150, 80, 100, 400, 0};
        s += promo[sch_move_promotion(m)];
    }
    SchPiece victim = sch_pos_piece_on(pos, to);
    if (victim != SCH_NO_PIECE && sch_move_kind(m) != SCH_MOVE_CASTLING) {
        SchBitboard their_men = pos->by_color[!S->W] & ~pos->by_type[SCH_KING];
        /* Taking L's last man leaves a bare king, which W's men may not be able to mate. */
        if (!sch_bb_more_than_one(their_men) && !mates_bare_king(pos, pos->by_color[S->W] & ~pos->by_type[SCH_KING]))
            return -10000;
        s += 10 + 2 * piece_value[sch_piece_type(victim)];
    }
    /* Every W man closes in to two squares from L's king: near enough to take its flight squares,
     * not so near that it must be taken or stands in the way. Checks are no bonus: they chase
     * the king off its corner (the mating move itself is found by mate_in_one). */
    int d0 = abs(distance(from, k) - 2), d1 = abs(distance(to, k) - 2);
    if (t == SCH_KING)
        s += 20 * (d0 - d1);
    else if (t == SCH_PAWN)
        s += 12;
    else
        s += 12 * (d0 - d1);
    return s;
}

static int score_l(const Search *S, SchMove m) {
    const SchPosition *pos = &S->pos;
    SchSquare from = sch_move_from(m), to = sch_move_to(m), k = sch_pos_king(pos, (SchColor)!S->W);
    SchPieceType t = sch_piece_type(sch_pos_piece_on(pos, from));
    int s = 0;
    if (t == SCH_KING) {
        s += 20 * (distance(from, S->corner) - distance(to, S->corner));
    } else if (t == SCH_PAWN) {
        s += 6;
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION) {
            /* A blocker that cannot take much is the most helpful. */
            static const int promo[SCH_PIECE_TYPE_NB] = {0, 30, 30, 20, 10, 0};
            s += promo[sch_move_promotion(m)];
        }
    } else {
        s += 8 * (distance(from, k) - distance(to, k));
        if (distance(to, k) == 1)
            s += 15;
    }
    SchPiece victim = sch_pos_piece_on(pos, to);
    if (victim != SCH_NO_PIECE && sch_move_kind(m) != SCH_MOVE_CASTLING)
        s -= sch_piece_type(victim) == SCH_PAWN ? 60 : 200;
    return s;
}

/* Scores every move for the side to move; returns the count. */
static int order_moves(const Search *S, SchMove *moves, int *scores) {
    const SchPosition *pos = &S->pos;
    int n = sch_gen_moves(pos, SCH_GEN_ALL, moves);
    if (sch_pos_turn(pos) == S->W) {
        CheckInfo ci;
        check_info(pos, S->W, &ci);
        for (int i = 0; i < n; i++)
            scores[i] = score_w(S, &ci, moves[i]);
    } else {
        for (int i = 0; i < n; i++)
            scores[i] = score_l(S, moves[i]);
    }
    return n;
}

/* Moves the best-scored move among moves[i..n) to index i. */
static void pick(SchMove *moves, int *scores, int i, int n) {
    int best = i;
    for (int j = i + 1; j < n; j++)
        if (scores[j] > scores[best])
            best = j;
    SchMove m = moves[i];
    moves[i] = moves[best];
    moves[best] = m;
    int s = scores[i];
    scores[i] = scores[best];
    scores[best] = s;
}

/* The corner L's king is led to: the nearest of the right colour. A bishop checks a corner king
 * only on its own colour, so when W's men are bishops of one colour the corner is of that colour;
 * L's own bishops block flight squares only of their colour, which are the orthogonal neighbours
 * of a corner of the other colour. */
static SchSquare pick_corner(const SchPosition *pos, SchColor W) {
    SchSquare k = sch_pos_king(pos, (SchColor)!W);
    SchBitboard corners =
        sch_bb_square(SCH_SQ_A1) | sch_bb_square(SCH_SQ_H1) | sch_bb_square(SCH_SQ_A8) | sch_bb_square(SCH_SQ_H8);
    SchBitboard ours = pos->by_color[W] & ~pos->by_type[SCH_KING], theirs = pos->by_color[!W] & ~pos->by_type[SCH_KING];
    SchBitboard wanted = corners;
    if (ours && ours == (ours & pos->by_type[SCH_BISHOP])) {
        if (!(ours & SCH_BB_DARK_SQUARES))
            wanted &= SCH_BB_LIGHT_SQUARES;
        else if (!(ours & SCH_BB_LIGHT_SQUARES))
            wanted &= SCH_BB_DARK_SQUARES;
    } else if (theirs && theirs == (theirs & pos->by_type[SCH_BISHOP])) {
        if (!(theirs & SCH_BB_DARK_SQUARES))
            wanted &= SCH_BB_DARK_SQUARES;
        else if (!(theirs & SCH_BB_LIGHT_SQUARES))
            wanted &= SCH_BB_LIGHT_SQUARES;
    }
    if (!wanted)
        wanted = corners;
    SchSquare best = SCH_SQ_A1;
    int best_d = 99;
    while (wanted) {
        SchSquare c = sch_bb_pop(&wanted);
        if (distance(c, k) < best_d) {
            best_d = distance(c, k);
            best = c;
        }
    }
    return best;
}

/* ---- stage 1: short full-width helpmates ------------------------------------------------------- */

/* W moves tried at depth 3 of the short stage (the best by the plan); L's are all tried. */
#define SHORT_W_WIDTH 10
/* Plies of the short stage in full mode. Three plies find a few more short proofs but cost about
 * as much as all the dives on real-game positions (measured: 68 against 39 µs a position). */
#define SHORT_DEPTH 2

/* A helpmate in at most depth plies (depth counts W's mating move). */
static bool short_mate(Search *S, int depth) {
    SchPosition *pos = &S->pos;
    bool w_moves = sch_pos_turn(pos) == S->W;
    if (w_moves && depth == 1)
        return mate_in_one(S);
    if (depth < 2 || !spend(S) || S->ply >= SCH_WIN_LINE_MAX - depth)
        return false;
    if (tt_seen(S, pos->key, depth))
        return false;
    SchMove moves[SCH_MAX_MOVES];
    int scores[SCH_MAX_MOVES];
    int n = order_moves(S, moves, scores);
    int width = w_moves && n > SHORT_W_WIDTH ? SHORT_W_WIDTH : n;
    for (int i = 0; i < width; i++) {
        pick(moves, scores, i, n);
        SchUndo u;
        sch_pos_make(pos, moves[i], &u);
        S->path[S->ply++] = moves[i];
        if (short_mate(S, depth - 1))
            return true;
        S->ply--;
        sch_pos_unmake(pos, moves[i], &u);
        if (S->abort)
            return false;
    }
    tt_mark(S, pos->key, depth);
    return false;
}

/* ---- stage 2: dives ---------------------------------------------------------------------------- */

static bool on_edge(SchSquare s) {
    int f = sch_square_file(s), r = sch_square_rank(s);
    return f == 0 || f == 7 || r == 0 || r == 7;
}

/* L to move, and a mate may be one L move away: L's king on the edge with a W man near it. Only
 * then does a dive try every L move before W's mate in one. */
static bool near_mate(const SchPosition *pos, SchColor W) {
    SchSquare k = sch_pos_king(pos, (SchColor)!W);
    if (!on_edge(k))
        return false;
    SchBitboard men = pos->by_color[W] & ~pos->by_type[SCH_KING] & ~pos->by_type[SCH_PAWN];
    while (men)
        if (distance(sch_bb_pop(&men), k) <= 2)
            return true;
    return false;
}

static bool dive(Search *S, int discrepancies) {
    SchPosition *pos = &S->pos;
    bool w_moves = sch_pos_turn(pos) == S->W;
    if (!spend(S))
        return false;
    if (w_moves) {
        if (mate_in_one(S))
            return true;
    } else if (near_mate(pos, S->W) && short_mate(S, 2)) {
        return true;
    }
    if (S->abort || S->ply >= S->dive_depth)
        return false;
    if (sch_win_material_insufficient(pos, S->W))
        return false;
    SchMove moves[SCH_MAX_MOVES];
    int scores[SCH_MAX_MOVES];
    int n = order_moves(S, moves, scores);
    int tried = 0;
    for (int i = 0; i < n && tried <= discrepancies; i++) {
        pick(moves, scores, i, n);
        if (scores[i] <= -10000)
            break;
        SchUndo u;
        sch_pos_make(pos, moves[i], &u);
        /* A position this iteration has seen is no new way: it costs no discrepancy. */
        if (tt_seen(S, pos->key, 0)) {
            sch_pos_unmake(pos, moves[i], &u);
            continue;
        }
        tt_mark(S, pos->key, 0);
        S->path[S->ply++] = moves[i];
        if (dive(S, discrepancies - tried))
            return true;
        S->ply--;
        sch_pos_unmake(pos, moves[i], &u);
        if (S->abort)
            return false;
        tried++;
    }
    return false;
}

/* ---- the stages together ----------------------------------------------------------------------- */

static bool found(Search *S, SchWinResult *r) {
    r->line_len = S->ply;
    memcpy(r->line, S->path, (size_t)S->ply * sizeof *S->path);
    return true;
}

/* Runs the short stage up to max_depth plies; true with the line in r when a helpmate is found. */
static bool run_short(Search *S, const SchPosition *root, int max_depth, SchWinResult *r) {
    bool w_moves = sch_pos_turn(root) == S->W;
    for (int depth = w_moves ? 1 : 2; depth <= max_depth && !S->abort; depth += 2) {
        next_generation(S);
        S->pos = *root;
        S->ply = 0;
        if (short_mate(S, depth))
            return found(S, r);
    }
    return false;
}

static bool run_dives(Search *S, const SchPosition *root, SchWinResult *r) {
    for (int k = 0; k <= DIVE_MAX_DISCREPANCIES && !S->abort; k++) {
        /* Few discrepancies, short dives: a line that wanders is cut before it costs much, and
         * longer ones get their turn with more freedom. */
        S->dive_depth = DIVE_DEPTH_FIRST + DIVE_DEPTH_STEP * k;
        if (S->dive_depth > DIVE_DEPTH)
            S->dive_depth = DIVE_DEPTH;
        next_generation(S);
        S->pos = *root;
        S->ply = 0;
        tt_mark(S, root->key, 0);
        if (dive(S, k))
            return found(S, r);
    }
    return false;
}

/* Stage 3 with the budget up to `limit` nodes in all. */
static SchWinnability run_exhaustive(Search *S, const SchPosition *root, uint64_t limit, SchWinResult *r,
                                     SchWinReason *why) {
    if (S->nodes >= limit)
        return SCH_WIN_UNDETERMINED;
    SchWinnability v = sch_win_exhaust(root, S->W, limit - S->nodes, S->work, r, &S->nodes, &S->deep_mate);
    if (v == SCH_WIN_UNWINNABLE)
        *why = r->blockade ? SCH_WIN_REASON_LOCKED : SCH_WIN_REASON_EXHAUSTED;
    return v;
}

/* The node count up to which a stage may run: num/den of what is left of budget (never below what
 * was spent: a search that went over by its last node leaves nothing, not a wrapped-around count). */
static uint64_t share(const Search *S, uint64_t budget, uint64_t num, uint64_t den) {
    uint64_t left = S->nodes < budget ? budget - S->nodes : 0;
    return S->nodes + left / den * num + left % den * num / den;
}

SchWinnability sch_win_search(const SchPosition *pos, SchColor color, uint64_t budget, SchWinWork *work,
                              SchWinResult *r, SchWinReason *why) {
    Search S;
    S.W = color;
    S.nodes = 0;
    S.budget = budget;
    S.deep_mate = false;
    S.abort = false;
    S.work = work;
    S.corner = pick_corner(pos, color);
    SchWinnability v = SCH_WIN_UNDETERMINED;

    if (!work) {
        /* Quick: a mate in one when W is to move. */
        if (sch_pos_turn(pos) == color && run_short(&S, pos, 1, r))
            v = SCH_WIN_WINNABLE;
        r->nodes = S.nodes;
        return v;
    }
    /* Saturation right after the short stage where the pawns are (nearly) locked, the likeliest
     * place for a proof; elsewhere only after the first dives, which settle nearly every open
     * position for less. */
    bool closed = r->blockade || sch_win_nearly_locked(pos);
    if (run_short(&S, pos, SHORT_DEPTH, r)) {
        v = SCH_WIN_WINNABLE;
    } else if (closed && sch_win_saturate(pos, color, why) == SCH_WIN_UNWINNABLE) {
        v = SCH_WIN_UNWINNABLE;
    } else {
        /* Dives with a share of the budget first — a tenth where the pawns are locked (there the
         * exhaustive search is the likelier proof, but a king that can take a pawn opens the
         * position, and then a dive finds the mate at once), a quarter elsewhere (most such
         * positions are winnable, and a dive finds the mate) — then half of what is left for the
         * exhaustive search, which proves UNWINNABLE wherever the reachable world is small, and the
         * rest for dives again. */
        S.budget = share(&S, budget, 1, r->blockade ? 10 : 4);
        S.abort = false;
        if (run_dives(&S, pos, r))
            v = SCH_WIN_WINNABLE;
        if (v == SCH_WIN_UNDETERMINED && !closed && sch_win_saturate(pos, color, why) == SCH_WIN_UNWINNABLE)
            v = SCH_WIN_UNWINNABLE;
        if (v == SCH_WIN_UNDETERMINED)
            v = run_exhaustive(&S, pos, share(&S, budget, 1, 2), r, why);
        if (v == SCH_WIN_UNDETERMINED && S.nodes < budget) {
            S.budget = budget;
            S.abort = false;
            if (run_dives(&S, pos, r))
                v = SCH_WIN_WINNABLE;
        }
        /* A mate exists, met too deep to shorten, and the dives did not find one: a shortest helpmate
         * breadth first with what is left. */
        if (v == SCH_WIN_UNDETERMINED && S.deep_mate && S.nodes < budget &&
            sch_win_shortest(pos, color, budget - S.nodes, work, r, &S.nodes))
            v = SCH_WIN_WINNABLE;
    }
    r->nodes = S.nodes;
    return v;
}
