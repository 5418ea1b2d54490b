/* Elo, error margins, LOS and the GSPRT log-likelihood ratio (see match_stats.h). */
#include "match_stats.h"

#include <math.h>

/* Two-sided 95% quantile of the standard normal distribution. */
#define LN10 2.30258509299404568402
#define Z95  1.959963984540054

double stats_elo_from_score(double s) {
    if (s <= 0.0)
        return -INFINITY;
    if (s >= 1.0)
        return INFINITY;
    return -400.0 * log(1.0 / s - 1.0) / LN10 + 0.0; /* + 0.0: no "-0.0" at s = 0.5 */
}

double stats_score_from_elo(double elo) { return 1.0 / (1.0 + exp(-elo / 400.0 * LN10)); }

/* Mean and per-observation variance of a discrete distribution: values[i] seen weights[i] times. */
static void mean_var(const double *values, const double *weights, int k, double *mean, double *var) {
    double n = 0, sum = 0;
    for (int i = 0; i < k; i++) {
        n += weights[i];
        sum += weights[i] * values[i];
    }
    *mean = n > 0 ? sum / n : 0.5;
    double sq = 0;
    for (int i = 0; i < k; i++)
        sq += weights[i] * (values[i] - *mean) * (values[i] - *mean);
    *var = n > 0 ? sq / n : 0.0;
}

static EloEstimate estimate(const double *values, const double *weights, int k, int n) {
    EloEstimate e = {.score = 0.5, .elo = 0.0, .margin = INFINITY, .observations = n};
    if (n == 0)
        return e;
    double var;
    mean_var(values, weights, k, &e.score, &var);
    e.elo = stats_elo_from_score(e.score);
    double delta = Z95 * sqrt(var / n);
    double lo = e.score - delta, hi = e.score + delta;
    if (lo > 0.0 && hi < 1.0)
        e.margin = (stats_elo_from_score(hi) - stats_elo_from_score(lo)) / 2.0;
    return e;
}

EloEstimate stats_elo_trinomial(int wins, int losses, int draws) {
    static const double values[3] = {0.0, 0.5, 1.0};
    double weights[3] = {losses, draws, wins};
    return estimate(values, weights, 3, wins + losses + draws);
}

EloEstimate stats_elo_pentanomial(const int pairs[STATS_PENTA]) {
    static const double values[STATS_PENTA] = {0.0, 0.25, 0.5, 0.75, 1.0};
    double weights[STATS_PENTA];
    int n = 0;
    for (int i = 0; i < STATS_PENTA; i++) {
        weights[i] = pairs[i];
        n += pairs[i];
    }
    return estimate(values, weights, STATS_PENTA, n);
}

double stats_los(int wins, int losses) {
    if (wins + losses == 0)
        return 0.5;
    return 0.5 * (1.0 + erf((wins - losses) / sqrt(2.0 * (wins + losses))));
}

static double llr(const double *values, const int *counts, int k, double elo0, double elo1) {
    double weights[STATS_PENTA];
    int n = 0;
    for (int i = 0; i < k; i++)
        n += counts[i];
    if (n == 0)
        return 0.0;
    for (int i = 0; i < k; i++)
        weights[i] = counts[i] > 0 ? counts[i] : 1e-3;
    double mean, var;
    mean_var(values, weights, k, &mean, &var);
    if (var <= 0.0)
        return 0.0;
    double s0 = stats_score_from_elo(elo0), s1 = stats_score_from_elo(elo1);
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
}

double stats_llr_trinomial(int wins, int losses, int draws, double elo0, double elo1) {
    static const double values[3] = {0.0, 0.5, 1.0};
    const int counts[3] = {losses, draws, wins};
    return llr(values, counts, 3, elo0, elo1);
}

double stats_llr_pentanomial(const int pairs[STATS_PENTA], double elo0, double elo1) {
    static const double values[STATS_PENTA] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return llr(values, pairs, STATS_PENTA, elo0, elo1);
}

void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper) {
    *lower = log(beta / (1.0 - alpha));
    *upper = log((1.0 - beta) / alpha);
}
