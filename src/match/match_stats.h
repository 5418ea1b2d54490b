/* Match statistics: Elo difference with its 95% error margin, likelihood of superiority and the
 * sequential probability ratio test (GSPRT, normal approximation), all from the first engine's view.
 *
 * Elo is the logistic model: expected score s = 1 / (1 + 10^(-elo/400)).
 * Trinomial: games are independent observations scoring 1, 1/2 or 0.
 * Pentanomial: the two games of one opening (colours swapped) form a pair scoring 0, 1/4, 1/2, 3/4
 * or 1 (the pair's points divided by 2); pairs are the independent observations, which removes
 * the variance the openings add.
 * Pure functions, no state: usable from any thread.
 */
#ifndef SCHACH_MATCH_STATS_H
#define SCHACH_MATCH_STATS_H

#include <stdbool.h>

/* Points of the first engine in a pair of games, in half points: index 0 = 0 points ... 4 = 2. */
enum { STATS_PENTA = 5 };

typedef struct EloEstimate {
    double score;     /* mean score per game, 0..1 */
    double elo;       /* may be -INFINITY / +INFINITY at a score of 0 or 1 */
    double margin;    /* half width of the 95% interval in Elo; INFINITY when unbounded */
    int observations; /* games (trinomial) or pairs (pentanomial) */
} EloEstimate;

/* Elo difference of a mean score s (0..1): -400 log10(1/s - 1); +-INFINITY at 1 and 0. */
double stats_elo_from_score(double s);
/* Expected score for an Elo difference. */
double stats_score_from_elo(double elo);

/* Elo and 95% margin from wins, losses and draws (trinomial). No games: score 0.5, elo 0,
 * margin INFINITY. */
EloEstimate stats_elo_trinomial(int wins, int losses, int draws);
/* Elo and 95% margin from pair counts (pentanomial, see above). */
EloEstimate stats_elo_pentanomial(const int pairs[STATS_PENTA]);

/* Likelihood of superiority in 0..1: Phi((W - L) / sqrt(W + L)); 0.5 without decisive games. */
double stats_los(int wins, int losses);

/* Log-likelihood ratio of H1 (elo1) against H0 (elo0) by the GSPRT normal approximation:
 * LLR = N (s1 - s0) (2 mean - s0 - s1) / (2 var), with mean and var of the N observations and
 * s0, s1 the expected scores of elo0, elo1. Counts of zero are replaced by 0.001 first (as
 * fishtest does), so a one-sided start does not divide by a zero variance. 0 without observations. */
double stats_llr_trinomial(int wins, int losses, int draws, double elo0, double elo1);
double stats_llr_pentanomial(const int pairs[STATS_PENTA], double elo0, double elo1);

/* Wald's bounds: *lower = ln(beta / (1 - alpha)) (accept H0 at or below), *upper =
 * ln((1 - beta) / alpha) (accept H1 at or above). */
void stats_sprt_bounds(double alpha, double beta, double *lower, double *upper);

#endif
