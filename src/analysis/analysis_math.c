/* Game analysis: winning chances, judgements, accuracy and average centipawn loss (see analysis.h).
 * The formulas are lichess's (lila: WinPercent, AccuracyPercent, Advice), written anew. */
#include <math.h>
#include <stdlib.h>

#include "analysis.h"

int analysis_clamp_cp(int score) {
    if (score >= ENGINE_MATE_BOUND || score > ANALYSIS_CP_CLAMP)
        return ANALYSIS_CP_CLAMP;
    if (score <= -ENGINE_MATE_BOUND || score < -ANALYSIS_CP_CLAMP)
        return -ANALYSIS_CP_CLAMP;
    return score;
}

double analysis_winning_chances(int score) {
    double cp = analysis_clamp_cp(score);
    double w = 2.0 / (1.0 + exp(-0.00368208 * cp)) - 1.0;
    return w < -1.0 ? -1.0 : w > 1.0 ? 1.0 : w;
}

double analysis_win_percent(int score) { return 50.0 + 50.0 * analysis_winning_chances(score); }

AnalysisJudgement analysis_judge(double drop) {
    if (drop >= 0.3)
        return ANALYSIS_BLUNDER;
    if (drop >= 0.2)
        return ANALYSIS_MISTAKE;
    if (drop >= 0.1)
        return ANALYSIS_INACCURACY;
    return ANALYSIS_GOOD;
}

double analysis_move_accuracy(double win_before, double win_after) {
    if (win_after >= win_before)
        return 100.0;
    double raw = 103.1668100711649 * exp(-0.04354415386753951 * (win_before - win_after)) - 3.166924740191411;
    raw += 1.0; /* lichess's bonus for the uncertainty of an imperfect analysis */
    return raw < 0.0 ? 0.0 : raw > 100.0 ? 100.0 : raw;
}

/* Population standard deviation of n values. */
static double deviation(const double *v, int n) {
    double mean = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++)
        mean += v[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        sum += (v[i] - mean) * (v[i] - mean);
    return sqrt(sum / n);
}

/* The weight of move i (0-based) of count moves, from the count + 1 win percents: the deviation in
 * its window, 0.5..12. lichess's windows: window - 2 copies of the first one, then every window of
 * the sliding run, so that each move has one. */
static double move_weight(const double *win, int count, int window, int i) {
    int start = i < window - 2 ? 0 : i - (window - 2);
    int n = window <= count + 1 ? window : count + 1;
    if (start + n > count + 1)
        start = count + 1 - n;
    double w = deviation(win + start, n);
    return w < 0.5 ? 0.5 : w > 12.0 ? 12.0 : w;
}

void analysis_game_accuracy(const int *scores, int count, SchColor first, double out[2]) {
    out[SCH_WHITE] = out[SCH_BLACK] = -1.0;
    if (count <= 0)
        return;
    double *win = malloc((size_t)(count + 1) * sizeof *win);
    if (!win)
        return;
    for (int i = 0; i <= count; i++)
        win[i] = analysis_win_percent(scores[i]);
    int window = count / 10;
    window = window < 2 ? 2 : window > 8 ? 8 : window;
    double weighted[2] = {0, 0}, weights[2] = {0, 0}, reciprocal[2] = {0, 0};
    int moves[2] = {0, 0};
    for (int i = 0; i < count; i++) {
        int side = (i % 2 == 0) ? (int)first : (int)first ^ 1;
        double acc = side == SCH_WHITE ? analysis_move_accuracy(win[i], win[i + 1])
                                       : analysis_move_accuracy(100.0 - win[i], 100.0 - win[i + 1]);
        double w = move_weight(win, count, window, i);
        weighted[side] += acc * w;
        weights[side] += w;
        reciprocal[side] += 1.0 / (acc < 1.0 ? 1.0 : acc);
        moves[side]++;
    }
    for (int side = 0; side < 2; side++)
        if (moves[side] > 0)
            out[side] = (weighted[side] / weights[side] + moves[side] / reciprocal[side]) / 2.0;
    free(win);
}

int analysis_mate_moves(int score, bool *is_mate) {
    int a = score < 0 ? -score : score;
    *is_mate = a >= ENGINE_MATE_BOUND;
    if (!*is_mate)
        return 0;
    int moves = (ENGINE_MATE - a + 1) / 2;
    return score < 0 ? -moves : moves;
}

const char *analysis_judgement_name(AnalysisJudgement j) {
    switch (j) {
        case ANALYSIS_INACCURACY: return "inaccuracy";
        case ANALYSIS_MISTAKE: return "mistake";
        case ANALYSIS_BLUNDER: return "blunder";
        default: return NULL;
    }
}

void analysis_summarise(AnalysisResult *r) {
    int n = r->ply_count;
    long loss[2] = {0, 0};
    for (int side = 0; side < 2; side++)
        r->side[side] = (AnalysisSide){0, 0, 0, 0, 0, -1.0};
    for (int i = 0; i < n; i++) {
        AnalysisMove *m = &r->moves[i];
        const AnalysisPosition *before = &r->positions[i], *after = &r->positions[i + 1];
        int side = (i % 2 == 0) ? (int)r->first_mover : (int)r->first_mover ^ 1;
        int sign = side == SCH_WHITE ? 1 : -1;
        m->ply = i + 1;
        m->eval = after->score;
        m->best_played = before->best != SCH_MOVE_NONE && m->move == before->best;
        m->drop = analysis_winning_chances(sign * before->score) - analysis_winning_chances(sign * after->score);
        int lost = sign * (analysis_clamp_cp(before->score) - analysis_clamp_cp(after->score));
        m->cp_loss = m->best_played || lost < 0 ? 0 : lost;
        m->judgement = m->best_played ? ANALYSIS_GOOD : analysis_judge(m->drop);
        AnalysisSide *s = &r->side[side];
        s->moves++;
        loss[side] += m->cp_loss;
        s->inaccuracy += m->judgement == ANALYSIS_INACCURACY;
        s->mistake += m->judgement == ANALYSIS_MISTAKE;
        s->blunder += m->judgement == ANALYSIS_BLUNDER;
        double wb = analysis_win_percent(sign * before->score), wa = analysis_win_percent(sign * after->score);
        m->accuracy = analysis_move_accuracy(wb, wa);
    }
    for (int side = 0; side < 2; side++)
        if (r->side[side].moves > 0)
            r->side[side].acpl = (int)((loss[side] + r->side[side].moves / 2) / r->side[side].moves);
    int *scores = malloc((size_t)(n + 1) * sizeof *scores);
    if (!scores)
        return;
    for (int i = 0; i <= n; i++)
        scores[i] = r->positions[i].score;
    double acc[2];
    analysis_game_accuracy(scores, n, r->first_mover, acc);
    r->side[SCH_WHITE].accuracy = acc[SCH_WHITE];
    r->side[SCH_BLACK].accuracy = acc[SCH_BLACK];
    free(scores);
}
