/* Engine: staged move ordering (see movepick.h). */
#include <string.h>

#include "movepick.h"
#include "see.h"

enum {
    STAGE_TT,
    STAGE_GEN_NOISY,
    STAGE_GOOD_NOISY,
    STAGE_KILLER_1,
    STAGE_KILLER_2,
    STAGE_COUNTER,
    STAGE_GEN_QUIET,
    STAGE_QUIET,
    STAGE_BAD_NOISY,
    STAGE_DONE
};

bool move_is_noisy(const SchPosition *pos, SchMove m) {
    return sch_move_kind(m) == SCH_MOVE_PROMOTION || sch_move_kind(m) == SCH_MOVE_EN_PASSANT ||
           (sch_move_kind(m) != SCH_MOVE_CASTLING && sch_pos_piece_on(pos, sch_move_to(m)) != SCH_NO_PIECE);
}

void mp_init(MovePicker *mp, const SchPosition *pos, const Heuristics *heur, SchMove tt_move, int ply, SchMove prev,
             PieceToHistory *const cont[2], bool noisy_only) {
    mp->pos = pos;
    mp->heur = heur;
    mp->cont[0] = cont[0];
    mp->cont[1] = cont[1];
    mp->stage = STAGE_TT;
    mp->noisy_only = noisy_only && !sch_pos_in_check(pos);
    bool tt_usable = tt_move && sch_gen_is_legal(pos, tt_move) &&
                     (!mp->noisy_only || (move_is_noisy(pos, tt_move) && see_ge(pos, tt_move, 0)));
    mp->tt_move = tt_usable ? tt_move : SCH_MOVE_NONE;
    mp->killers[0] = heur->killers[ply][0];
    mp->killers[1] = heur->killers[ply][1];
    SchPiece prev_piece = prev ? sch_pos_piece_on(pos, sch_move_to(prev)) : SCH_NO_PIECE;
    mp->counter = prev_piece != SCH_NO_PIECE ? heur->counter[prev_piece][sch_move_to(prev)] : SCH_MOVE_NONE;
    mp->cur = mp->end = mp->bad_end = 0;
}

/* Index of the best-scored move in [cur, end) (the first of equals). */
static int best_index(const MovePicker *mp) {
    int best = mp->cur;
    for (int i = mp->cur + 1; i < mp->end; i++)
        if (mp->scores[i] > mp->scores[best])
            best = i;
    return best;
}

/* Index of the best-scored move in [cur, end), swapped to cur. */
static int select_best(MovePicker *mp) {
    int best = best_index(mp);
    SchMove m = mp->moves[best];
    int s = mp->scores[best];
    mp->moves[best] = mp->moves[mp->cur], mp->scores[best] = mp->scores[mp->cur];
    mp->moves[mp->cur] = m, mp->scores[mp->cur] = s;
    return mp->cur;
}

static void score_noisy(MovePicker *mp) {
    for (int i = mp->cur; i < mp->end; i++) {
        SchMove m = mp->moves[i];
        SchPieceType victim = see_captured(mp->pos, m);
        SchPieceType attacker = sch_piece_type(sch_pos_piece_on(mp->pos, sch_move_from(m)));
        int score = (victim == SCH_PIECE_TYPE_NB ? 0 : 16 * see_value[victim]) - attacker;
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION)
            score += sch_move_promotion(m) == SCH_QUEEN ? 16 * see_value[SCH_QUEEN] : -100000;
        mp->scores[i] = score;
    }
}

static void score_quiet(MovePicker *mp) {
    for (int i = mp->cur; i < mp->end; i++)
        mp->scores[i] = quiet_history(mp->heur, mp->cont, mp->pos, mp->moves[i]);
}

/* Sorts the quiet moves [cur, end) by their histories, best first, equal ones in the order they came
 * (insertion sort: short lists). */
static void sort_quiet(MovePicker *mp) {
    for (int i = mp->cur + 1; i < mp->end; i++) {
        SchMove m = mp->moves[i];
        int score = mp->scores[i], j = i;
        for (; j > mp->cur && mp->scores[j - 1] < score; j--)
            mp->moves[j] = mp->moves[j - 1], mp->scores[j] = mp->scores[j - 1];
        mp->moves[j] = m, mp->scores[j] = score;
    }
}

/* Brings the best quiet move of [cur, end) to cur (the first of equals), the ones before it one place
 * on: the order sort_quiet gives, without sorting the moves that a cutoff never reaches. */
static void pick_quiet(MovePicker *mp) {
    int best = best_index(mp);
    SchMove m = mp->moves[best];
    int score = mp->scores[best];
    memmove(mp->moves + mp->cur + 1, mp->moves + mp->cur, (size_t)(best - mp->cur) * sizeof *mp->moves);
    memmove(mp->scores + mp->cur + 1, mp->scores + mp->cur, (size_t)(best - mp->cur) * sizeof *mp->scores);
    mp->moves[mp->cur] = m, mp->scores[mp->cur] = score;
}

static bool is_special(const MovePicker *mp, SchMove m) {
    return m == mp->tt_move || m == mp->killers[0] || m == mp->killers[1] || m == mp->counter;
}

/* A killer or counter move is tried early only when it is a legal quiet move here. */
static bool quiet_candidate(const MovePicker *mp, SchMove m) {
    return m && m != mp->tt_move && !move_is_noisy(mp->pos, m) && sch_gen_is_legal(mp->pos, m);
}

static SchMove next_good_noisy(MovePicker *mp) {
    while (mp->cur < mp->end) {
        int i = select_best(mp);
        SchMove m = mp->moves[i];
        mp->cur++;
        if (m == mp->tt_move)
            continue;
        if (sch_move_kind(m) == SCH_MOVE_PROMOTION && sch_move_promotion(m) != SCH_QUEEN && mp->noisy_only)
            continue;
        if (!see_ge(mp->pos, m, 0)) {
            mp->moves[i] = mp->moves[mp->bad_end];
            mp->moves[mp->bad_end++] = m;
            continue;
        }
        return m;
    }
    return SCH_MOVE_NONE;
}

SchMove mp_next(MovePicker *mp, bool skip_quiets) {
    SchMove m;
    switch (mp->stage) {
        case STAGE_TT:
            mp->stage = STAGE_GEN_NOISY;
            if (mp->tt_move)
                return mp->tt_move;
            /* fall through */
        case STAGE_GEN_NOISY:
            mp->cur = mp->bad_end = 0;
            mp->end = sch_gen_moves(mp->pos, SCH_GEN_NOISY, mp->moves);
            score_noisy(mp);
            mp->stage = STAGE_GOOD_NOISY;
            /* fall through */
        case STAGE_GOOD_NOISY:
            if ((m = next_good_noisy(mp)))
                return m;
            if (mp->noisy_only) {
                mp->stage = STAGE_DONE;
                return SCH_MOVE_NONE;
            }
            mp->stage = STAGE_KILLER_1;
            /* fall through */
        case STAGE_KILLER_1:
            mp->stage = STAGE_KILLER_2;
            if (!skip_quiets && quiet_candidate(mp, mp->killers[0]))
                return mp->killers[0];
            /* fall through */
        case STAGE_KILLER_2:
            mp->stage = STAGE_COUNTER;
            if (!skip_quiets && mp->killers[1] != mp->killers[0] && quiet_candidate(mp, mp->killers[1]))
                return mp->killers[1];
            /* fall through */
        case STAGE_COUNTER:
            mp->stage = STAGE_GEN_QUIET;
            if (!skip_quiets && mp->counter != mp->killers[0] && mp->counter != mp->killers[1] &&
                quiet_candidate(mp, mp->counter))
                return mp->counter;
            /* fall through */
        case STAGE_GEN_QUIET:
            mp->cur = mp->end;
            if (!skip_quiets) {
                mp->end = mp->cur + sch_gen_moves(mp->pos, SCH_GEN_QUIET, mp->moves + mp->cur);
                score_quiet(mp);
            }
            mp->quiet_picks = 0;
            mp->stage = STAGE_QUIET;
            /* fall through */
        case STAGE_QUIET:
            while (!skip_quiets && mp->cur < mp->end) {
                /* Most nodes that get here cut off after a few quiet moves: pick the first few, sort
                 * the rest only when the node goes on. */
                if (mp->quiet_picks < MP_QUIET_PICKS)
                    pick_quiet(mp);
                else if (mp->quiet_picks == MP_QUIET_PICKS)
                    sort_quiet(mp);
                mp->quiet_picks++;
                m = mp->moves[mp->cur++];
                if (!is_special(mp, m))
                    return m;
            }
            mp->cur = 0;
            mp->stage = STAGE_BAD_NOISY;
            /* fall through */
        case STAGE_BAD_NOISY:
            while (mp->cur < mp->bad_end) {
                m = mp->moves[mp->cur++];
                if (m != mp->tt_move)
                    return m;
            }
            mp->stage = STAGE_DONE;
            /* fall through */
        default: return SCH_MOVE_NONE;
    }
}
