/* The running tally and the statistics block (see match_internal.h). */
#include <math.h> /* INFINITY and isinf only (no libm functions) */
#include <string.h>

#include "match_internal.h"

enum { PAIR_NONE = 0, PAIR_DONE = 9 }; /* else half points of the pair's first game + 1 */

static ProtocolError error_kind(EndReason r, bool *is_error) {
    *is_error = true;
    switch (r) {
        case END_ILLEGAL: return PERR_ILLEGAL;
        case END_TIME:
        case END_NO_ANSWER: return PERR_TIME;
        case END_CRASH: return PERR_CRASH;
        case END_STARTUP: return PERR_STARTUP;
        default: *is_error = false; return PERR_ILLEGAL;
    }
}

void tally_add(Tally *t, const GameRecord *rec) {
    SchResult r = rec->game.outcome.result;
    int half; /* the first engine's points, in half points */
    if (r == SCH_RESULT_DRAW)
        half = 1;
    else
        half = (r == SCH_RESULT_WHITE_WINS) == (rec->first_color == SCH_WHITE) ? 2 : 0;
    if (half == 2)
        t->wins++;
    else if (half == 0)
        t->losses++;
    else
        t->draws++;
    signed char *pair = &t->pair_first[rec->index / 2];
    if (*pair == PAIR_NONE) {
        *pair = (signed char)(half + 1);
    } else if (*pair != PAIR_DONE) {
        t->penta[*pair - 1 + half]++;
        *pair = PAIR_DONE;
    }
    bool is_error;
    ProtocolError k = error_kind(rec->reason, &is_error);
    if (is_error && rec->culprit >= 0)
        t->errors[rec->culprit][k]++;
}

int match_sprt_decision(const MatchConfig *cfg, const Tally *t, double *llr) {
    *llr = 0.0;
    if (!cfg->sprt_on)
        return 0;
    double lower, upper;
    *llr = stats_llr_pentanomial(t->penta, cfg->elo0, cfg->elo1);
    stats_sprt_bounds(cfg->alpha, cfg->beta, &lower, &upper);
    int pairs = 0;
    for (int i = 0; i < STATS_PENTA; i++)
        pairs += t->penta[i];
    if (pairs < MATCH_SPRT_MIN_PAIRS)
        return 0; /* the LLR is reported, but it is no evidence yet */
    return *llr >= upper ? 1 : *llr <= lower ? -1 : 0;
}

static void elo_text(double v, char *buf, size_t size) {
    if (isinf(v))
        snprintf(buf, size, "%sinf", v < 0 ? "-" : "+");
    else
        snprintf(buf, size, "%+.1f", v);
}

static void margin_text(double v, char *buf, size_t size) {
    if (isinf(v))
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%.1f", v);
}

static void print_errors(FILE *out, const MatchShared *sh, const Tally *t, bool de) {
    int total = 0;
    for (int e = 0; e < 2; e++)
        for (int k = 0; k < PERR_NB; k++)
            total += t->errors[e][k];
    fprintf(out, de ? "Protokollfehler: %d\n" : "Protocol errors: %d\n", total);
    fprintf(out, "  %-24s %8s %8s %8s %8s\n", "", de ? "Zug" : "illegal", de ? "Zeit" : "time",
            de ? "Absturz" : "crash", de ? "Start" : "startup");
    for (int e = 0; e < 2; e++)
        fprintf(out, "  %-24.24s %8d %8d %8d %8d\n", sh->names[e], t->errors[e][PERR_ILLEGAL], t->errors[e][PERR_TIME],
                t->errors[e][PERR_CRASH], t->errors[e][PERR_STARTUP]);
}

static void print_sprt(FILE *out, const MatchConfig *cfg, const Tally *t, bool de) {
    double llr, lower, upper;
    int d = match_sprt_decision(cfg, t, &llr);
    stats_sprt_bounds(cfg->alpha, cfg->beta, &lower, &upper);
    const char *verdict = d > 0   ? (de ? "H1 angenommen" : "H1 accepted")
                          : d < 0 ? (de ? "H0 angenommen" : "H0 accepted")
                                  : (de ? "weiter" : "continue");
    fprintf(out, "SPRT elo0=%g elo1=%g alpha=%g beta=%g (%s): LLR %.2f [%.2f, %.2f] %s\n", cfg->elo0, cfg->elo1,
            cfg->alpha, cfg->beta, de ? "pentanomial, logistische Elo" : "pentanomial, logistic Elo", llr, lower, upper,
            verdict);
}

void match_print_stats(FILE *out, const MatchShared *sh, const Tally *t) {
    bool de = sh->cfg->lang == SCH_LANG_DE;
    int games = t->wins + t->losses + t->draws;
    EloEstimate tri = stats_elo_trinomial(t->wins, t->losses, t->draws);
    EloEstimate penta = stats_elo_pentanomial(t->penta);
    char elo[16], margin[16];
    fprintf(out,
            de ? "Stand %s gegen %s: %d - %d - %d (S - N - R)  [%.3f] %d Partien\n"
               : "Score of %s vs %s: %d - %d - %d (W - L - D)  [%.3f] %d games\n",
            sh->names[0], sh->names[1], t->wins, t->losses, t->draws, tri.score, games);
    elo_text(tri.elo, elo, sizeof elo);
    margin_text(tri.margin, margin, sizeof margin);
    fprintf(out, de ? "Elo-Differenz: %s +/- %s (95 %%, trinomial)\n" : "Elo difference: %s +/- %s (95%%, trinomial)\n",
            elo, margin);
    elo_text(penta.elo, elo, sizeof elo);
    margin_text(penta.margin, margin, sizeof margin);
    fprintf(
        out,
        de ? "Pentanomial [0, 1/2, 1, 3/2, 2 Punkte je Paar]: [%d, %d, %d, %d, %d]  Elo %s +/- %s (95 %%, %d Paare)\n"
           : "Pentanomial [0, 1/2, 1, 3/2, 2 points per pair]: [%d, %d, %d, %d, %d]  Elo %s +/- %s (95%%, %d pairs)\n",
        t->penta[0], t->penta[1], t->penta[2], t->penta[3], t->penta[4], elo, margin, penta.observations);
    fprintf(out, "LOS: %.1f%%\n", 100.0 * stats_los(t->wins, t->losses));
    if (sh->cfg->sprt_on)
        print_sprt(out, sh->cfg, t, de);
    print_errors(out, sh, t, de);
    fflush(out);
}
