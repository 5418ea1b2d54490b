/* Engine: the search (see search.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include <string.h>
#include <time.h>

#include "schach/game.h"
#include "endgame.h"
#include "search.h"
#include "see.h"
#include <math.h>

/* ---- lifetime ---- */

static void init_reductions(Search *s) {
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++)
            s->reductions[d][m] = (int8_t)(d && m ? SEARCH_LMR_BASE + log(d) * log(m) / SEARCH_LMR_DIVISOR : 0);
}

void search_init(Search *s, TT *tt) {
    init_reductions(s);
    s->tt = tt;
    atomic_init(&s->stop, false);
    atomic_init(&s->pondering, false);
    atomic_init(&s->published_nodes, 0);
}

void search_clear(Search *s) {
    memset(&s->heur, 0, sizeof s->heur);
    memset(&s->pawns, 0, sizeof s->pawns);
}

/* ---- small helpers ---- */

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

static inline bool is_mate_score(int score) { return score >= ENGINE_MATE_BOUND || score <= -ENGINE_MATE_BOUND; }

/* The key repetitions compare: an en passant square only counts when the capture is legal. */
static inline uint64_t repetition_key(const SchPosition *pos) {
    return pos->ep == SCH_SQ_NONE ? pos->key : sch_game_repetition_key(pos);
}

static inline bool has_non_pawn_material(const SchPosition *pos, SchColor c) {
    return (pos->by_color[c] & ~pos->by_type[SCH_PAWN] & ~pos->by_type[SCH_KING]) != 0;
}

/* The static evaluation of the position at ply of the current line (s->pos). The net's, except for
 * the basic mates (a bare king against mating material), where the endgame knowledge's score leads
 * the lone king to the edge and tells the search it is a known win (the net's is a mere material lead). */
static inline int evaluate(Search *s, int ply) {
    if (!s->net)
        return eval_position(&s->pos, &s->pawns);
    int white;
    if (endgame_basic_mate(&s->pos, &white))
        return sch_pos_turn(&s->pos) == SCH_WHITE ? white : -white;
    return nnue_evaluate(s->net, s->acc, ply, &s->pos);
}

static inline void make_move(Search *s, int ply, SchMove m, SchUndo *undo) {
    s->stack[ply].move = m;
    if (s->net)
        nnue_record_move(&s->acc[ply + 1], &s->pos, m);
    sch_pos_make(&s->pos, m, undo);
    tt_prefetch(s->tt, s->pos.key);
    s->keys[s->key_count++] = repetition_key(&s->pos);
}

static inline void unmake_move(Search *s, SchMove m, const SchUndo *undo) {
    s->key_count--;
    sch_pos_unmake(&s->pos, m, undo);
}

/* The helpers' nodes as they last published them. */
static uint64_t peer_nodes(const Search *s) {
    uint64_t nodes = 0;
    for (int i = 0; i < s->peer_count; i++)
        nodes += atomic_load_explicit(&s->peers[i].published_nodes, memory_order_relaxed);
    return nodes;
}

/* Ends the search when a limit is reached: the node limit on every node, the stop flag and the
 * clock every 1024 nodes. The node limit and the clock count only after the first iteration, so
 * there is always a move, and with MultiPV always lines to choose from: the weakest level's 300
 * nodes used to end its first iteration, so it never chose and played its best move instead,
 * stronger than the level above it. */
static void check_limits(Search *s) {
    /* The node limit counts every thread's nodes (others' as last published, at most 1024 behind
     * each), as the reports do: `go nodes N` searches about N nodes whatever Threads is. The main
     * thread looks on every node; a helper every 1024, so that the helpers stop too when the main
     * thread gets no processor for a while. */
    if (s->limits.nodes && !s->leader && s->completed_depth >= 1 &&
        (s->nodes >= s->limits.nodes || (s->peer_count && search_total_nodes(s) >= s->limits.nodes)))
        s->stopped = true;
    if (s->nodes & 1023)
        return;
    atomic_store_explicit(&s->published_nodes, s->nodes, memory_order_relaxed);
    if (s->limits.nodes && s->leader &&
        atomic_load_explicit(&s->leader->published_nodes, memory_order_relaxed) + peer_nodes(s->leader) >=
            s->limits.nodes)
        s->stopped = true;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed))
        s->stopped = true;
    bool clock = !s->limits.infinite && !atomic_load_explicit(&s->pondering, memory_order_relaxed);
    if (clock && s->completed_depth >= 1 && tm_hard_over(&s->tm, tm_elapsed(&s->tm)))
        s->stopped = true;
}

/* Draws inside the tree the way the rules count them: a position repeated since the last
 * irreversible move (the game's history included), 100 plies without capture or pawn move unless
 * the side to move is checkmated, and dead material. Sets *score. */
static bool is_draw(Search *s, int ply, int *score) {
    const SchPosition *pos = &s->pos;
    if (pos->halfmove >= 100) {
        *score = sch_pos_in_check(pos) && !sch_gen_has_legal_move(pos) ? -ENGINE_MATE + ply : 0;
        return true;
    }
    *score = 0;
    int current = s->key_count - 1;
    int oldest = max_int(s->key_floor, current - pos->halfmove);
    for (int i = current - 2; i >= oldest; i -= 2)
        if (s->keys[i] == s->keys[current])
            return true;
    return sch_pos_insufficient_material(pos);
}

static void update_pv(Frame *frame, SchMove m, const Frame *child) {
    frame->pv[0] = m;
    memcpy(frame->pv + 1, child->pv, (size_t)child->pv_length * sizeof(SchMove));
    frame->pv_length = child->pv_length + 1;
}

/* ---- move ordering statistics ---- */

static void history_add(int16_t *entry, int bonus) {
    int v = *entry + bonus - *entry * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
    *entry = (int16_t)v;
}

/* A quiet move cut off: reward it, punish the quiet moves tried before it, by their squares and
 * after each of the last two moves. */
static void update_quiet_stats(Search *s, int ply, int depth, SchMove best, const SchMove *quiets, int quiet_count) {
    Heuristics *h = &s->heur;
    SchColor us = sch_pos_turn(&s->pos);
    int bonus = min_int(SEARCH_HISTORY_BONUS_SCALE * depth * depth, SEARCH_HISTORY_BONUS_MAX);
    history_add(&h->history[us][sch_move_from(best)][sch_move_to(best)], bonus);
    for (int i = 0; i < quiet_count; i++)
        history_add(&h->history[us][sch_move_from(quiets[i])][sch_move_to(quiets[i])], -bonus);
    for (int back = 1; back <= 2 && back <= ply; back++) {
        PieceToHistory *cont = s->stack[ply - back].cont;
        if (!cont)
            continue;
        history_add(&(*cont)[sch_pos_piece_on(&s->pos, sch_move_from(best))][sch_move_to(best)], bonus);
        for (int i = 0; i < quiet_count; i++)
            history_add(&(*cont)[sch_pos_piece_on(&s->pos, sch_move_from(quiets[i]))][sch_move_to(quiets[i])], -bonus);
    }
    if (h->killers[ply][0] != best) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = best;
    }
    SchMove prev = ply > 0 ? s->stack[ply - 1].move : SCH_MOVE_NONE;
    if (prev)
        h->counter[sch_pos_piece_on(&s->pos, sch_move_to(prev))][sch_move_to(prev)] = best;
}

/* Before move m is played from ply: where the continuation history after it lives. */
static inline void set_continuation(Search *s, int ply, SchMove m) {
    s->stack[ply].cont = &s->heur.continuation[sch_pos_piece_on(&s->pos, sch_move_from(m))][sch_move_to(m)];
}

/* ---- quiescence search ---- */

/* A stored result that decides this node without searching it. */
static bool tt_cutoff(const TTHit *hit, int alpha, int beta, int depth) {
    return hit->depth >= depth && (hit->bound == BOUND_EXACT || (hit->bound == BOUND_LOWER && hit->score >= beta) ||
                                   (hit->bound == BOUND_UPPER && hit->score <= alpha));
}

static int qsearch(Search *s, int alpha, int beta, int ply) {
    Frame *frame = &s->stack[ply];
    frame->pv_length = 0;
    s->nodes++;
    check_limits(s);
    if (s->stopped)
        return 0;
    s->seldepth = max_int(s->seldepth, ply);
    int score;
    if (is_draw(s, ply, &score))
        return score;
    const SchPosition *pos = &s->pos;
    bool in_check = sch_pos_in_check(pos);
    if (ply >= ENGINE_MAX_PLY)
        return in_check ? 0 : evaluate(s, ply);

    TTHit hit;
    bool tt_found = tt_probe(s->tt, pos->key, ply, &hit);
    if (tt_found && tt_cutoff(&hit, alpha, beta, 0))
        return hit.score;

    int best = -SEARCH_INF, eval = -SEARCH_INF;
    if (!in_check) {
        eval = tt_found ? hit.eval : evaluate(s, ply);
        if (eval >= beta)
            return eval;
        alpha = max_int(alpha, eval);
        best = eval;
    }
    int alpha_orig = alpha;
    SchMove best_move = SCH_MOVE_NONE;
    MovePicker mp;
    PieceToHistory *const no_cont[2] = {NULL, NULL};
    mp_init(&mp, pos, &s->heur, tt_found ? hit.move : SCH_MOVE_NONE, ply, SCH_MOVE_NONE, no_cont, true);
    int legal = 0;
    for (SchMove m; (m = mp_next(&mp, false));) {
        legal++;
        /* Delta pruning: even winning this piece cleanly cannot lift the score to alpha. */
        SchPieceType victim = see_captured(pos, m);
        if (!in_check && sch_move_kind(m) != SCH_MOVE_PROMOTION && victim != SCH_PIECE_TYPE_NB &&
            eval + see_value[victim] + SEARCH_DELTA_MARGIN <= alpha)
            continue;
        SchUndo undo;
        make_move(s, ply, m, &undo);
        score = -qsearch(s, -beta, -alpha, ply + 1);
        unmake_move(s, m, &undo);
        if (s->stopped)
            return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                update_pv(frame, m, &s->stack[ply + 1]);
                if (score >= beta)
                    break;
            }
        }
    }
    if (in_check && legal == 0)
        return -ENGINE_MATE + ply;
    int bound = best >= beta ? BOUND_LOWER : alpha > alpha_orig ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s->tt, pos->key, ply, best_move, best, in_check ? 0 : eval, 0, bound);
    return best;
}

/* ---- principal variation search ---- */

static int search(Search *s, int alpha, int beta, int depth, int ply, bool cut_node);

/* Null-move pruning: if passing the move still fails high, a real move will too (not in check,
 * and not without pieces, where zugzwang makes passing the best "move"). */
static bool null_move_cuts(Search *s, int beta, int depth, int ply, int eval, bool cut_node, int *score) {
    const SchPosition *pos = &s->pos;
    if (depth < SEARCH_NMP_DEPTH || eval < beta || !has_non_pawn_material(pos, sch_pos_turn(pos)) || ply == 0 ||
        s->stack[ply - 1].move == SCH_MOVE_NONE || is_mate_score(beta))
        return false;
    int r = SEARCH_NMP_REDUCTION + depth / SEARCH_NMP_DEPTH_DIVISOR +
            min_int(SEARCH_NMP_EVAL_REDUCTION_MAX, (eval - beta) / SEARCH_NMP_EVAL_DIVISOR);
    SchUndo undo;
    s->stack[ply].move = SCH_MOVE_NONE;
    s->stack[ply].cont = NULL;
    if (s->net)
        nnue_record_null(&s->acc[ply + 1]);
    sch_pos_make_null(&s->pos, &undo);
    s->keys[s->key_count++] = s->pos.key;
    int floor = s->key_floor;
    s->key_floor = s->key_count - 1; /* no repetition across a null move */
    *score = -search(s, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
    s->key_floor = floor;
    s->key_count--;
    sch_pos_unmake_null(&s->pos, &undo);
    if (*score >= beta && !s->stopped) {
        *score = is_mate_score(*score) ? beta : *score;
        return true;
    }
    return false;
}

/* What the move loop of one node needs to know about it. */
typedef struct Node {
    int alpha, beta, depth, ply;
    int eval;
    bool pv_node, in_check, improving;
    /* A null window expected to fail high: the first move of a node expected to fail low, a reduced
     * late move, or the null move of a node expected to fail low. */
    bool cut_node;
    PieceToHistory *cont[2]; /* after the last move and the one before it (NULL: none) */
} Node;

/* The late move reduction table's value for the searched-th move at depth (before the adjustments). */
static inline int table_reduction(const Search *s, int depth, int searched) {
    return s->reductions[min_int(depth, 63)][min_int(searched, 63)];
}

/* Moves not worth searching near the leaves, once a move has been searched (searched of them so
 * far, quiets_count of them quiet) and while the side to move has pieces: late quiet moves (late
 * move pruning), quiet moves far below alpha (futility, with the margin of the depth left after the
 * reduction the move would get), and moves losing material by exchange. Sets *skip_quiets when no
 * later quiet move can do better. */
static bool prune_move(const Search *s, const Node *n, SchMove m, bool quiet, int searched, int quiets_count,
                       bool *skip_quiets) {
    const SchPosition *pos = &s->pos;
    if (n->depth > SEARCH_PRUNING_DEPTH || !has_non_pawn_material(pos, sch_pos_turn(pos)))
        return false;
    int lmr_depth = max_int(0, n->depth - table_reduction(s, n->depth, searched));
    if (quiet &&
        (quiets_count >= (SEARCH_LMP_BASE + n->depth * n->depth) / (SEARCH_LMP_DIVISOR - n->improving) ||
         (!n->in_check && n->eval + SEARCH_FUTILITY_BASE + SEARCH_FUTILITY_PER_DEPTH * lmr_depth <= n->alpha))) {
        *skip_quiets = true;
        return true;
    }
    if (quiet && n->depth <= SEARCH_HISTORY_PRUNING_DEPTH &&
        quiet_history(&s->heur, n->cont, pos, m) < -SEARCH_HISTORY_PRUNING_MARGIN * n->depth)
        return true;
    return !see_ge(pos, m,
                   quiet ? -SEARCH_SEE_QUIET_MARGIN * n->depth : -SEARCH_SEE_NOISY_MARGIN * n->depth * n->depth);
}

/* Late move reduction of the move-th move (quiet, or a losing capture) searched to new_depth. */
static int reduction(const Search *s, const Node *n, int searched, bool quiet, bool killer, int history,
                     bool gives_check, int new_depth) {
    int r = table_reduction(s, n->depth, searched);
    r += !n->improving - n->pv_node - gives_check + n->cut_node * SEARCH_LMR_CUT_NODE;
    if (quiet)
        r -= killer + history / SEARCH_LMR_HISTORY_DIVISOR;
    return max_int(0, min_int(r, new_depth - 1));
}

/* Singular extension of the table move m of node n (found with the stored result hit): the plies it is
 * extended by (0, 1 or 2), or SEARCH_INF when the node cuts off without searching (multi-cut; its
 * score in *score). */
static int singular_extension(Search *s, const Node *n, const TTHit *hit, SchMove m, int *score) {
    if (n->ply == 0 || n->depth < SEARCH_SE_DEPTH || hit->depth < n->depth - SEARCH_SE_TT_DEPTH ||
        !(hit->bound & BOUND_LOWER) || is_mate_score(hit->score) || n->ply >= SEARCH_SE_PLY_LIMIT * s->root_depth)
        return 0;
    int singular_beta = hit->score - SEARCH_SE_MARGIN * n->depth;
    Frame *frame = &s->stack[n->ply];
    frame->excluded = m;
    int value = search(s, singular_beta - 1, singular_beta, (n->depth - 1) / 2, n->ply, n->cut_node);
    frame->excluded = SCH_MOVE_NONE;
    if (value < singular_beta) {
        int line = n->ply > 0 ? s->stack[n->ply - 1].double_extensions : 0;
        return 1 + (!n->pv_node && value < singular_beta - SEARCH_SE_DOUBLE_MARGIN && line < SEARCH_SE_DOUBLE_LIMIT);
    }
    if (singular_beta >= n->beta) {
        *score = singular_beta;
        return SEARCH_INF;
    }
    return 0;
}

/* Searches move m of node n (searched moves before it) extension plies deeper: the first with the
 * full window, the others with a null window, reduced when late, and again fully when they beat
 * alpha. */
static int search_move(Search *s, const Node *n, const MovePicker *mp, SchMove m, int searched, int extension) {
    const SchPosition *pos = &s->pos;
    bool quiet = !move_is_noisy(pos, m);
    bool reducible =
        n->depth >= SEARCH_LMR_DEPTH && searched >= SEARCH_LMR_MOVES + n->pv_node && (quiet || !see_ge(pos, m, 0));
    bool killer = m == mp->killers[0] || m == mp->killers[1];
    int history = quiet ? quiet_history(&s->heur, n->cont, pos, m) : 0;
    SchUndo undo;
    set_continuation(s, n->ply, m);
    make_move(s, n->ply, m, &undo);
    bool gives_check = sch_pos_in_check(&s->pos);
    /* Check extension, bounded so that perpetual checks cannot run the line away. */
    if (!extension)
        extension = gives_check && n->ply < SEARCH_CHECK_EXTENSION_LIMIT * s->root_depth;
    int new_depth = n->depth - 1 + extension;
    int alpha = n->alpha, beta = n->beta, ply = n->ply + 1, score;
    /* The first move of a node expected to fail low, and a reduced move, are expected to fail high. */
    if (searched == 0) {
        score = -search(s, -beta, -alpha, new_depth, ply, !n->pv_node && !n->cut_node);
    } else {
        int r = reducible ? reduction(s, n, searched, quiet, killer, history, gives_check, new_depth) : 0;
        int new_depth_reduced = new_depth - r;
        score = -search(s, -alpha - 1, -alpha, new_depth_reduced, ply, r > 0 || !n->cut_node);
        if (score > alpha && r > 0) {
            /* The reduced search beat alpha: by much, search deeper than planned; barely, shallower. */
            new_depth += (score > alpha + SEARCH_LMR_DEEPER_MARGIN) - (score < alpha + SEARCH_LMR_SHALLOWER_MARGIN);
            if (new_depth > new_depth_reduced)
                score = -search(s, -alpha - 1, -alpha, new_depth, ply, !n->cut_node);
        }
        if (score > alpha && score < beta)
            score = -search(s, -beta, -alpha, new_depth, ply, false);
    }
    unmake_move(s, m, &undo);
    return score;
}

static int search(Search *s, int alpha, int beta, int depth, int ply, bool cut_node) {
    if (depth <= 0)
        return qsearch(s, alpha, beta, ply);
    Frame *frame = &s->stack[ply];
    frame->pv_length = 0;
    s->nodes++;
    check_limits(s);
    if (s->stopped)
        return 0;
    s->seldepth = max_int(s->seldepth, ply);
    const SchPosition *pos = &s->pos;
    Node n = {.ply = ply,
              .depth = depth,
              .pv_node = beta - alpha > 1,
              .cut_node = cut_node && beta - alpha == 1,
              .in_check = sch_pos_in_check(pos)};
    int score;
    if (is_draw(s, ply, &score))
        return score;
    if (ply >= ENGINE_MAX_PLY)
        return n.in_check ? 0 : evaluate(s, ply);
    /* Mate distance pruning: a shorter mate is already known. */
    alpha = max_int(alpha, -ENGINE_MATE + ply);
    beta = min_int(beta, ENGINE_MATE - ply - 1);
    if (alpha >= beta)
        return alpha;

    TTHit hit;
    bool tt_found = tt_probe(s->tt, pos->key, ply, &hit);
    SchMove tt_move = tt_found ? hit.move : SCH_MOVE_NONE;
    SchMove excluded = frame->excluded; /* a singular extension's search of this node */
    if (tt_found && !n.pv_node && !excluded && tt_cutoff(&hit, alpha, beta, depth))
        return hit.score;

    n.eval = frame->eval = n.in_check ? -SEARCH_INF : tt_found ? hit.eval : evaluate(s, ply);
    n.improving = !n.in_check && ply >= 2 && n.eval > s->stack[ply - 2].eval;
    s->heur.killers[ply + 1][0] = s->heur.killers[ply + 1][1] = SCH_MOVE_NONE;
    if (!n.in_check && !n.pv_node && !excluded) {
        /* Reverse futility: far above beta near the leaves, assume it holds. */
        if (depth <= SEARCH_RFP_DEPTH && n.eval - SEARCH_RFP_MARGIN * (depth - n.improving) >= beta &&
            !is_mate_score(beta))
            return n.eval;
        if (null_move_cuts(s, beta, depth, ply, n.eval, n.cut_node, &score))
            return score;
    }
    /* Without a table move this node was not searched before: a shallower search does as well. */
    if (depth >= SEARCH_IIR_DEPTH && !tt_move)
        n.depth = --depth;

    int alpha_orig = alpha, best = -SEARCH_INF, searched = 0, quiets_count = 0;
    SchMove best_move = SCH_MOVE_NONE, quiets[64];
    bool skip_quiets = false;
    MovePicker mp;
    n.cont[0] = ply >= 1 ? s->stack[ply - 1].cont : NULL;
    n.cont[1] = ply >= 2 ? s->stack[ply - 2].cont : NULL;
    mp_init(&mp, pos, &s->heur, tt_move, ply, ply > 0 ? s->stack[ply - 1].move : SCH_MOVE_NONE, n.cont, false);
    int line_double_extensions = ply > 0 ? s->stack[ply - 1].double_extensions : 0;
    for (SchMove m; (m = mp_next(&mp, skip_quiets));) {
        if (m == excluded)
            continue;
        bool quiet = !move_is_noisy(pos, m);
        n.alpha = alpha, n.beta = beta;
        if (best > -ENGINE_MATE_BOUND && prune_move(s, &n, m, quiet, searched, quiets_count, &skip_quiets))
            continue;
        int extension = m == tt_move && !excluded ? singular_extension(s, &n, &hit, m, &score) : 0;
        if (s->stopped)
            return 0;
        if (extension == SEARCH_INF)
            return score;
        frame->double_extensions = line_double_extensions + (extension >= 2);
        score = search_move(s, &n, &mp, m, searched, extension);
        if (s->stopped)
            return 0;
        searched++;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                best_move = m;
                if (n.pv_node)
                    update_pv(frame, m, &s->stack[ply + 1]);
                if (score >= beta) {
                    if (quiet)
                        update_quiet_stats(s, ply, depth, m, quiets, quiets_count);
                    break;
                }
            }
        }
        if (quiet && quiets_count < 64)
            quiets[quiets_count++] = m;
    }
    if (searched == 0)
        return excluded ? alpha : n.in_check ? -ENGINE_MATE + ply : 0;
    if (excluded)
        return best; /* a partial search: nothing to store */
    int bound = best >= beta ? BOUND_LOWER : alpha > alpha_orig ? BOUND_EXACT : BOUND_UPPER;
    tt_store(s->tt, pos->key, ply, best_move, best, n.in_check ? 0 : n.eval, depth, bound);
    return best;
}

/* ---- root ---- */

static void sort_roots(RootMove *roots, int count) {
    for (int i = 1; i < count; i++) {
        RootMove rm = roots[i];
        int j = i;
        for (; j > 0 && roots[j - 1].score < rm.score; j--)
            roots[j] = roots[j - 1];
        roots[j] = rm;
    }
}

/* Searches the root moves from pv_index on (the earlier ones are the better lines of MultiPV),
 * scores them (-SEARCH_INF for those that fail low) and sorts them, best first. */
static int search_root(Search *s, int alpha, int beta, int depth) {
    int best = -SEARCH_INF;
    for (int i = s->pv_index; i < s->root_count; i++)
        s->roots[i].score = -SEARCH_INF;
    for (int i = s->pv_index; i < s->root_count; i++) {
        RootMove *rm = &s->roots[i];
        bool quiet = !move_is_noisy(&s->pos, rm->move);
        SchUndo undo;
        uint64_t nodes_before = s->nodes;
        s->nodes++;
        set_continuation(s, 0, rm->move);
        make_move(s, 0, rm->move, &undo);
        int new_depth = depth - 1 + sch_pos_in_check(&s->pos);
        int score;
        if (i == s->pv_index) {
            score = -search(s, -beta, -alpha, new_depth, 1, false);
        } else {
            int r = depth >= SEARCH_ROOT_LMR_DEPTH && quiet && i - s->pv_index >= SEARCH_ROOT_LMR_MOVES &&
                    !sch_pos_in_check(&s->pos);
            score = -search(s, -alpha - 1, -alpha, new_depth - r, 1, true);
            if (score > alpha && r)
                score = -search(s, -alpha - 1, -alpha, new_depth, 1, true);
            if (score > alpha && score < beta)
                score = -search(s, -beta, -alpha, new_depth, 1, false);
        }
        unmake_move(s, rm->move, &undo);
        rm->nodes += s->nodes - nodes_before;
        if (s->stopped)
            break;
        if (i == s->pv_index || score > alpha) {
            rm->score = score;
            update_pv(&s->stack[0], rm->move, &s->stack[1]);
            rm->pv_length = s->stack[0].pv_length;
            memcpy(rm->pv, s->stack[0].pv, (size_t)rm->pv_length * sizeof(SchMove));
        }
        best = max_int(best, score);
        if (score > alpha) {
            alpha = score;
            if (score >= beta)
                break;
        }
    }
    sort_roots(s->roots + s->pv_index, s->root_count - s->pv_index);
    return best;
}

static void report_line(Search *s, int depth, int index, const RootMove *rm, bool lower, bool upper) {
    if (!s->info)
        return;
    int64_t ms = tm_elapsed(&s->tm);
    uint64_t nodes = search_total_nodes(s);
    EngineInfo info = {.depth = depth,
                       .seldepth = s->seldepth,
                       .multipv = index + 1,
                       .score = rm->score,
                       .lowerbound = lower,
                       .upperbound = upper,
                       .nodes = nodes,
                       .nps = nodes * 1000 / (uint64_t)(ms > 0 ? ms : 1),
                       .time_ms = ms,
                       .hashfull = tt_hashfull(s->tt),
                       .pv_length = rm->pv_length};
    memcpy(info.pv, rm->pv, (size_t)rm->pv_length * sizeof(SchMove));
    s->info(&info, s->info_ctx);
}

/* One line of MultiPV at this depth, in a window around the last score that widens on failure. */
static void aspiration(Search *s, int depth) {
    int prev = s->roots[s->pv_index].prev_score;
    int delta = SEARCH_ASPIRATION_WINDOW, alpha = -SEARCH_INF, beta = SEARCH_INF;
    if (depth >= SEARCH_ASPIRATION_DEPTH && !is_mate_score(prev)) {
        alpha = max_int(prev - delta, -SEARCH_INF);
        beta = min_int(prev + delta, SEARCH_INF);
    }
    for (;;) {
        s->root_alpha = alpha;
        s->root_beta = beta;
        int score = search_root(s, alpha, beta, depth);
        if (s->stopped)
            return;
        bool low = score <= alpha, high = score >= beta;
        if (!low && !high)
            return;
        if (tm_elapsed(&s->tm) >= SEARCH_ASPIRATION_REPORT_MS)
            report_line(s, depth, s->pv_index, &s->roots[s->pv_index], high, low);
        if (low) {
            beta = (alpha + beta) / 2;
            alpha = max_int(score - delta, -SEARCH_INF);
        } else {
            beta = min_int(score + delta, SEARCH_INF);
        }
        delta += delta / SEARCH_ASPIRATION_GROWTH;
    }
}

static bool mate_found(const Search *s) {
    int score = s->roots[0].score;
    return s->limits.mate > 0 && score >= ENGINE_MATE_BOUND && ENGINE_MATE - score <= 2 * s->limits.mate - 1;
}

/* Iterative deepening from first_depth (1 for the main thread, so it always has a move). */
static void iterate(Search *s, int first_depth) {
    int max_depth = s->limits.depth > 0 ? min_int(s->limits.depth, ENGINE_MAX_PLY - 1) : ENGINE_MAX_PLY - 1;
    int stability = 0;
    SchMove last_best = SCH_MOVE_NONE;
    int scores[ENGINE_MAX_PLY + 1]; /* the best score of each completed depth */
    for (int depth = min_int(first_depth, max_depth); depth <= max_depth; depth++) {
        s->root_depth = depth;
        s->seldepth = 0;
        for (int i = 0; i < s->root_count; i++)
            s->roots[i].prev_score = s->roots[i].score;
        for (s->pv_index = 0; s->pv_index < s->multipv && !s->stopped; s->pv_index++)
            aspiration(s, depth);
        if (s->stopped)
            break;
        s->completed_depth = depth;
        /* Each line was searched in its own window: make the reported order agree with the scores. */
        sort_roots(s->roots, s->multipv);
        s->line_count = s->multipv;
        memcpy(s->lines, s->roots, (size_t)s->multipv * sizeof(RootMove));
        for (int i = 0; i < s->report_lines; i++)
            report_line(s, depth, i, &s->roots[i], false, false);

        stability = s->roots[0].move == last_best ? stability + 1 : 0;
        last_best = s->roots[0].move;
        scores[depth] = s->roots[0].score;
        TmSignals signals = {.stability = stability, .best_effort = -1};
        if (depth >= SEARCH_TM_EFFORT_DEPTH) {
            uint64_t total = 0;
            for (int i = 0; i < s->root_count; i++)
                total += s->roots[i].nodes;
            if (total)
                signals.best_effort = (int)(s->roots[0].nodes * 1000 / total);
        }
        if (depth - 2 >= first_depth && !is_mate_score(scores[depth]) && !is_mate_score(scores[depth - 2]))
            signals.score_drop = max_int(0, scores[depth - 2] - scores[depth]);
        bool clock = !s->limits.infinite && !atomic_load(&s->pondering);
        if (mate_found(s) || (clock && tm_soft_over(&s->tm, tm_elapsed(&s->tm), &signals)))
            break;
        if (clock && s->root_count == 1 && s->tm.soft_ms)
            break; /* the only move: no need to think */
    }
}

/* ---- setup and result ---- */

/* The repetition keys of the game positions since the last irreversible move, the root last. */
static void load_history(Search *s, const SchGame *game) {
    int n = game->ply_count;
    int first = max_int(0, n - min_int(game->pos.halfmove, SEARCH_HISTORY_KEYS - 1));
    s->key_count = 0;
    for (int i = first; i <= n; i++)
        s->keys[s->key_count++] = sch_game_key_at(game, i);
    s->key_floor = 0;
}

static bool in_searchmoves(const EngineLimits *limits, SchMove m) {
    for (int i = 0; i < limits->searchmoves_count; i++)
        if (limits->searchmoves[i] == m)
            return true;
    return false;
}

/* The root moves in the move picker's order (table move first), restricted to searchmoves. */
static void load_roots(Search *s) {
    TTHit hit;
    SchMove tt_move = tt_probe(s->tt, s->pos.key, 0, &hit) ? hit.move : SCH_MOVE_NONE;
    MovePicker mp;
    PieceToHistory *const no_cont[2] = {NULL, NULL};
    mp_init(&mp, &s->pos, &s->heur, tt_move, 0, SCH_MOVE_NONE, no_cont, false);
    bool restrict_moves = false;
    if (s->limits.searchmoves)
        for (int i = 0; i < s->limits.searchmoves_count; i++)
            restrict_moves |= sch_gen_is_legal(&s->pos, s->limits.searchmoves[i]);
    s->root_count = 0;
    for (SchMove m; (m = mp_next(&mp, false));) {
        if (restrict_moves && !in_searchmoves(&s->limits, m))
            continue;
        s->roots[s->root_count++] =
            (RootMove){.move = m, .score = -SEARCH_INF, .prev_score = -SEARCH_INF, .pv_length = 1, .pv = {m}};
    }
}

/* A search without any limit ("go infinite", or no limit given) ends only by engine_stop(). */
static bool unbounded(const Search *s) {
    const EngineLimits *l = &s->limits;
    return l->infinite || !(l->depth || l->nodes || l->movetime || l->mate || l->time[sch_pos_turn(&s->pos)]);
}

/* An unbounded search, or one still pondering, waits with its answer for engine_stop() or
 * engine_ponderhit(). */
static void wait_for_release(Search *s) {
    while (!atomic_load(&s->stop) && (unbounded(s) || atomic_load(&s->pondering))) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

/* The reply the line expects, from the PV or else from the table. */
static SchMove ponder_move(Search *s, const RootMove *rm) {
    if (rm->pv_length > 1)
        return rm->pv[1];
    SchUndo undo;
    TTHit hit;
    SchMove reply = SCH_MOVE_NONE;
    sch_pos_make(&s->pos, rm->move, &undo);
    if (tt_probe(s->tt, s->pos.key, 1, &hit) && hit.move && sch_gen_is_legal(&s->pos, hit.move))
        reply = hit.move;
    sch_pos_unmake(&s->pos, rm->move, &undo);
    return reply;
}

/* What the main thread and the helpers do alike before they iterate. */
static void prepare(Search *s, const SchGame *game, const EngineLimits *limits, EngineInfoFn info, void *ctx) {
    s->pos = game->pos;
    s->limits = *limits;
    s->info = info;
    s->info_ctx = ctx;
    s->nodes = 0;
    atomic_store_explicit(&s->published_nodes, 0, memory_order_relaxed);
    s->seldepth = 0;
    s->stopped = false;
    s->completed_depth = 0;
    s->line_count = 0;
    atomic_store(&s->pondering, limits->ponder);
    load_history(s, game);
    load_roots(s);
    if (s->net)
        nnue_refresh(s->net, &s->acc[0], &s->pos);
}

uint64_t search_total_nodes(const Search *s) { return s->nodes + peer_nodes(s); }

/* A search stopped inside an iteration may have proved a mate there: the best line's first move was
 * searched to the end with a mate score (the move is played: s->roots[0] holds it). The lines of the
 * last completed iteration still say centipawns, and GUIs show the last line, so that proof is
 * reported as one more line of the interrupted depth (a bound when it came from outside the window). */
static void report_proven_mate(Search *s) {
    const RootMove *rm = &s->roots[0];
    if (!s->stopped || s->multipv != 1 || rm->score == -SEARCH_INF || !is_mate_score(rm->score))
        return;
    if (s->line_count > 0 && s->lines[0].move == rm->move && s->lines[0].score == rm->score)
        return;
    report_line(s, s->root_depth, 0, rm, rm->score >= s->root_beta, rm->score <= s->root_alpha);
}

EngineResult search_run(Search *s, const SchGame *game, const EngineLimits *limits, int overhead, int lag,
                        int report_lines, EngineInfoFn info, void *ctx) {
    prepare(s, game, limits, info, ctx);
    tm_init(&s->tm, limits, sch_pos_turn(&s->pos), overhead, lag);

    EngineResult result = {0};
    if (s->root_count == 0) {
        result.score = sch_pos_in_check(&s->pos) ? -ENGINE_MATE : 0;
        wait_for_release(s);
        return result;
    }
    int wanted = limits->multipv > 0 ? limits->multipv : 1;
    s->multipv = min_int(min_int(wanted, ENGINE_MAX_MULTIPV), s->root_count);
    s->report_lines = min_int(max_int(report_lines, 1), s->multipv);
    iterate(s, 1);
    report_proven_mate(s);
    wait_for_release(s);

    const RootMove *best = &s->roots[0];
    result.best = best->move;
    result.ponder = ponder_move(s, best);
    result.score = best->score != -SEARCH_INF ? best->score : best->prev_score;
    if (result.score == -SEARCH_INF)
        result.score = evaluate(s, 0);
    result.depth = s->completed_depth;
    result.nodes = search_total_nodes(s);
    result.time_ms = tm_elapsed(&s->tm);
    return result;
}

void search_run_helper(Search *s, const SchGame *game, const EngineLimits *limits, int helper_index) {
    /* No clock of its own, but the node limit: it counts every thread's nodes (check_limits), so a
     * helper stops by it also while the main thread, past the limit, waits for a processor. */
    EngineLimits own = {.depth = limits->depth,
                        .nodes = limits->nodes,
                        .infinite = true,
                        .searchmoves = limits->searchmoves,
                        .searchmoves_count = limits->searchmoves_count};
    prepare(s, game, &own, NULL, NULL);
    tm_init(&s->tm, &own, sch_pos_turn(&s->pos), 0, 0);
    if (s->root_count > 0) {
        s->multipv = 1;
        s->report_lines = 0;
        /* Every second helper starts one iteration deeper, so the threads are rarely all on one depth. */
        iterate(s, 1 + (helper_index & 1));
    }
    atomic_store_explicit(&s->published_nodes, s->nodes, memory_order_relaxed);
}
