/* Glicko-2, step by step as in Glickman's "Example of the Glicko-2 system" (glicko2.h). The step
 * numbers in the comments are the paper's. */
#include "glicko2.h"

#include <math.h>
#include <stddef.h>

/* The factor between the Glicko scale and the Glicko-2 scale (step 2). */
#define SCALE 173.7178
/* The convergence tolerance of step 5. */
#define EPSILON 0.000001
/* Step 5's iteration converges in a handful of rounds; this only bounds a pathological input. */
#define MAX_ITERATIONS 200

static const double PI = 3.14159265358979323846;

Glicko2 glicko2_new(void) { return (Glicko2){GLICKO2_DEFAULT_RATING, GLICKO2_DEFAULT_RD, GLICKO2_DEFAULT_VOLATILITY}; }

bool glicko2_provisional(const Glicko2 *g) { return g->rd > GLICKO2_PROVISIONAL_RD; }

static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

static double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j))); }

static bool valid(double rating, double rd) { return isfinite(rating) && isfinite(rd) && rd > 0 && rd < 1e6; }

/* Step 5's f(x). */
static double f_of(double x, double delta, double phi, double v, double a, double tau) {
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double sigma, double delta, double phi, double v, double tau) {
    double a = log(sigma * sigma);
    double A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * tau, delta, phi, v, a, tau) < 0 && k < MAX_ITERATIONS)
            k++;
        B = a - k * tau;
    }
    double fA = f_of(A, delta, phi, v, a, tau), fB = f_of(B, delta, phi, v, a, tau);
    for (int i = 0; fabs(B - A) > EPSILON && i < MAX_ITERATIONS; i++) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = f_of(C, delta, phi, v, a, tau);
        if (fC * fB <= 0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    return exp(A / 2.0);
}

bool glicko2_rate_period(const Glicko2 *player, const Glicko2Result *games, int n, double tau, Glicko2 *out) {
    if (!valid(player->rating, player->rd) || !(player->volatility > 0) || !isfinite(player->volatility) ||
        !(tau > 0) || n < 0)
        return false;
    for (int j = 0; j < n; j++)
        if (!valid(games[j].rating, games[j].rd) || !(games[j].score >= 0 && games[j].score <= 1))
            return false;
    /* Step 2. */
    double mu = (player->rating - GLICKO2_DEFAULT_RATING) / SCALE, phi = player->rd / SCALE;
    double sigma = player->volatility;
    if (n == 0) { /* a period without games: only the deviation grows (step 6) */
        *out = (Glicko2){player->rating, sqrt(phi * phi + sigma * sigma) * SCALE, sigma};
        return true;
    }
    /* Steps 3 and 4. */
    double v_inv = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double mu_j = (games[j].rating - GLICKO2_DEFAULT_RATING) / SCALE, phi_j = games[j].rd / SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        v_inv += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / v_inv, delta = v * sum;
    /* Steps 5 to 8. */
    double sigma_new = new_volatility(sigma, delta, phi, v, tau);
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    Glicko2 r = {mu_new * SCALE + GLICKO2_DEFAULT_RATING, phi_new * SCALE, sigma_new};
    if (!isfinite(r.rating) || !isfinite(r.rd) || !isfinite(r.volatility))
        return false;
    *out = r;
    return true;
}

static Glicko2 bounded(Glicko2 g) {
    if (g.rd < GLICKO2_MIN_RD)
        g.rd = GLICKO2_MIN_RD;
    if (g.rd > GLICKO2_DEFAULT_RD)
        g.rd = GLICKO2_DEFAULT_RD;
    if (g.volatility > GLICKO2_MAX_VOLATILITY)
        g.volatility = GLICKO2_MAX_VOLATILITY;
    return g;
}

bool glicko2_rate_game(const Glicko2 *player, const Glicko2Result *game, int idle_periods, Glicko2 *out) {
    Glicko2 g = *player;
    /* Sitting out periods only widens the deviation; past the newcomer's it stops mattering. */
    for (int i = 0; i < idle_periods && g.rd < GLICKO2_DEFAULT_RD; i++)
        if (!glicko2_rate_period(&g, NULL, 0, GLICKO2_TAU, &g))
            return false;
    g = bounded(g);
    if (!glicko2_rate_period(&g, game, 1, GLICKO2_TAU, &g))
        return false;
    *out = bounded(g);
    return true;
}
