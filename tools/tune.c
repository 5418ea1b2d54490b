/* schach_tune: fits the evaluation weights to the results of our own games (Texel's method).
 *
 *   schach_tune extract [--skip N] [--per-game N] [--seed N] GAMES.pgn... > positions.txt
 *       Quiet positions from finished games, one per line: FEN, then the game's result from white's
 *       point of view (1, 0.5 or 0). Skipped: the first N plies of each game (the opening lines the
 *       match runner gave, default 8), positions in check, positions where a capture or promotion
 *       wins material (static exchange), and basic mates the evaluation scores by rule. At most
 *       --per-game positions per game (default 12, picked at random) so no single game dominates.
 *   schach_tune tune [--epochs N] [--rate R] [--l2 L] positions.txt src/engine/eval_params.c
 *       Minimises the mean squared error between each result and sigmoid(K * eval / 400), K fitted
 *       first to the current weights, plus L * (weight - starting weight)^2 summed over the weights,
 *       by full-batch gradient descent (Adam), and rewrites the S(mg, eg) values of eval_params.c in
 *       place (everything else in the file stays). Every tenth position is held out: its error,
 *       before and after, shows whether the fit generalises or only learns the sample (weights of
 *       rarely seen terms, like a knight on the eighth rank, drift far without the L2 term).
 *
 *   schach_tune selfplay [--games N] [--nodes N] [--threads N] [--per-game N] [--seed N] > positions.txt
 *       Plays games of the engine against itself (each move a search of --nodes nodes, default 5000;
 *       a random opening of 8 plies, kept only when a short search finds it balanced) and writes
 *       their quiet positions with the result, as extract does. Wins are adjudicated once a side
 *       is 10 pawns ahead for 6 plies in a row, draws after 200 plies within half a pawn: the
 *       rules core decides everything else.
 *   schach_tune selfplay --out FILE [--first-game N] [...]
 *       The same games, written as training records of the NNUE evaluation (search score and
 *       result, 32 bytes each, tools/nnue_data.h and docs/nnue.md), appended to FILE; resumable
 *       (tools/selfplay.c says how).
 *
 * The evaluation is linear in its weights (see src/engine/eval.h), so eval_trace() gives, per
 * position, the coefficient of every weight once; an epoch is then a sparse dot product per position.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "engine.h"
#include "schach/bitboard.h"
#include "schach/fen.h"
#include "schach/movegen.h"
#include "schach/pgn.h"
#include "schach/schach.h"
#include "see.h"
#include "tune.h"

/* ---- extract ---------------------------------------------------------------------------------- */

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
void tune_seed(uint64_t seed) { rng_state ^= seed * 0x9E3779B97F4A7C15ULL + 1; }

static uint64_t rng_next(void) {
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ULL;
}

bool tune_is_quiet(const SchPosition *pos) {
    if (pos->checkers)
        return false;
    SchMove noisy[SCH_MAX_MOVES];
    int n = sch_gen_moves(pos, SCH_GEN_NOISY, noisy);
    for (int i = 0; i < n; i++)
        if (sch_move_kind(noisy[i]) == SCH_MOVE_PROMOTION || see_ge(pos, noisy[i], 1))
            return false;
    return true;
}

static const char *result_text(SchResult r) {
    return r == SCH_RESULT_WHITE_WINS ? "1" : r == SCH_RESULT_BLACK_WINS ? "0" : "0.5";
}

int tune_extract_game(const SchPgnGame *pg, int skip, int per_game) {
    SchResult r = pg->game.outcome.result != SCH_RESULT_NONE ? pg->game.outcome.result : pg->result;
    if (r == SCH_RESULT_NONE)
        return 0;
    /* Candidates: the quiet positions after the opening, then a random pick of per_game of them. */
    int plies = pg->game.ply_count, count = 0;
    char(*fens)[SCH_FEN_MAX] = malloc((size_t)(plies + 1) * sizeof *fens);
    if (!fens)
        return 0;
    SchPosition pos = pg->game.start;
    for (int i = 0; i < plies; i++) {
        SchUndo u;
        sch_game_make_ply(&pos, pg->game.plies[i].move, &u); /* a null move too */
        if (i + 1 < skip || !tune_is_quiet(&pos))
            continue;
        EvalTrace t;
        eval_trace(&pos, &t);
        if (!t.special)
            sch_fen_write(&pos, fens[count++], sizeof fens[0]);
    }
    int taken = 0;
    for (int k = 0; k < count && taken < per_game; k++) {
        int j = k + (int)(rng_next() % (uint64_t)(count - k));
        printf("%s;%s\n", fens[j], result_text(r));
        memcpy(fens[j], fens[k], sizeof fens[0]);
        taken++;
    }
    free(fens);
    return taken;
}

static int cmd_extract(int argc, char **argv) {
    int skip = 8, per_game = 12, files = 0;
    long games = 0, positions = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--skip") && i + 1 < argc) {
            skip = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--per-game") && i + 1 < argc) {
            per_game = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
            rng_state ^= strtoull(argv[++i], NULL, 10) * 0x9E3779B97F4A7C15ULL;
        } else {
            FILE *f = fopen(argv[i], "r");
            if (!f) {
                fprintf(stderr, "schach_tune: cannot read %s\n", argv[i]);
                return 1;
            }
            files++;
            SchError err;
            SchPgnReader *r = sch_pgn_reader_from_file(f, &err);
            SchPgnGame g;
            int rc;
            while (r && (rc = sch_pgn_read_game(r, &g, &err)) != 0) {
                if (rc > 0) {
                    positions += tune_extract_game(&g, skip, per_game);
                    games++;
                }
                sch_pgn_game_free(&g);
            }
            sch_pgn_reader_close(r);
            fclose(f);
        }
    }
    if (!files) {
        fputs("schach_tune extract: no PGN file given\n", stderr);
        return 2;
    }
    fprintf(stderr, "schach_tune: %ld positions from %ld games\n", positions, games);
    return 0;
}

/* ---- tune ------------------------------------------------------------------------------------- */

typedef struct Entry {
    int start, count; /* its coefficients in the shared arrays */
    float result;     /* 1, 0.5, 0 for white */
    float mg_share;   /* phase / 24: the middlegame part of the blend */
    float eg_share;   /* (24 - phase) / 24 * scale / 64 */
} Entry;

typedef struct Data {
    Entry *entries;
    int count, capacity;
    uint16_t *index; /* weight index of each coefficient */
    int16_t *coeff;  /* white minus black */
    int ncoeff, coeff_capacity;
} Data;

static bool grow(void **p, int *capacity, int need, size_t size) {
    if (need <= *capacity)
        return true;
    int c = *capacity ? *capacity : 1024;
    while (c < need)
        c *= 2;
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return false;
    *p = q;
    *capacity = c;
    return true;
}

static bool data_add(Data *d, const SchPosition *pos, float result) {
    EvalTrace t;
    eval_trace(pos, &t);
    if (t.special)
        return true;
    int ci = d->coeff_capacity, need = d->ncoeff + EP_COUNT;
    if (!grow((void **)&d->index, &ci, need, sizeof *d->index))
        return false;
    ci = d->coeff_capacity;
    if (!grow((void **)&d->coeff, &ci, need, sizeof *d->coeff))
        return false;
    d->coeff_capacity = ci;
    if (!grow((void **)&d->entries, &d->capacity, d->count + 1, sizeof *d->entries))
        return false;
    Entry *e = &d->entries[d->count++];
    e->start = d->ncoeff;
    for (int i = 0; i < EP_COUNT; i++) {
        int c = t.coeff[i][SCH_WHITE] - t.coeff[i][SCH_BLACK];
        if (c) {
            d->index[d->ncoeff] = (uint16_t)i;
            d->coeff[d->ncoeff++] = (int16_t)c;
        }
    }
    e->count = d->ncoeff - e->start;
    e->result = result;
    e->mg_share = (float)t.phase / EVAL_PHASE_MAX;
    e->eg_share = (float)(EVAL_PHASE_MAX - t.phase) / EVAL_PHASE_MAX * (float)t.scale / 64.0f;
    return true;
}

static bool data_load(Data *d, const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "schach_tune: cannot read %s\n", path);
        return false;
    }
    char line[256];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        SchPosition pos;
        if (!sch_fen_parse(&pos, line, NULL)) {
            fprintf(stderr, "schach_tune: %s:%d: not a FEN\n", path, lineno);
            continue;
        }
        if (!data_add(d, &pos, strtof(semi + 1, NULL))) {
            fclose(f);
            fputs("schach_tune: out of memory\n", stderr);
            return false;
        }
    }
    fclose(f);
    return true;
}

static double entry_eval(const Data *d, const Entry *e, const double *mg, const double *eg) {
    double m = 0, g = 0;
    for (int k = e->start; k < e->start + e->count; k++) {
        m += d->coeff[k] * mg[d->index[k]];
        g += d->coeff[k] * eg[d->index[k]];
    }
    return m * e->mg_share + g * e->eg_share;
}

static double sigmoid(double k, double eval) { return 1.0 / (1.0 + pow(10.0, -k * eval / 400.0)); }

/* Held out from training: every tenth position. */
static bool held_out(int i) { return i % 10 == 9; }

/* Mean squared error over the training positions (held = false) or the held-out ones. */
static double data_error_part(const Data *d, double k, const double *mg, const double *eg, bool held) {
    double sum = 0;
    int n = 0;
    for (int i = 0; i < d->count; i++) {
        if (held_out(i) != held)
            continue;
        double diff = d->entries[i].result - sigmoid(k, entry_eval(d, &d->entries[i], mg, eg));
        sum += diff * diff;
        n++;
    }
    return n ? sum / n : 0;
}

static double data_error(const Data *d, double k, const double *mg, const double *eg) {
    return data_error_part(d, k, mg, eg, false);
}

/* The K that makes the current weights fit best: a scan, then refinements around the best. */
static double fit_k(const Data *d, const double *mg, const double *eg) {
    double best = 1.0, best_err = data_error(d, best, mg, eg), step = 0.5;
    for (int round = 0; round < 6; round++, step /= 5) {
        double centre = best;
        for (double k = centre - 5 * step; k <= centre + 5 * step; k += step) {
            if (k <= 0)
                continue;
            double err = data_error(d, k, mg, eg);
            if (err < best_err)
                best_err = err, best = k;
        }
    }
    return best;
}

static void tune(const Data *d, double k, double *mg, double *eg, int epochs, double rate, double l2) {
    double mg0[EP_COUNT], eg0[EP_COUNT];
    memcpy(mg0, mg, sizeof mg0);
    memcpy(eg0, eg, sizeof eg0);
    int training = 0;
    for (int i = 0; i < d->count; i++)
        training += !held_out(i);
    double *gm = calloc(EP_COUNT, sizeof *gm), *ge = calloc(EP_COUNT, sizeof *ge);
    double *m1 = calloc(4 * EP_COUNT, sizeof *m1);
    if (!gm || !ge || !m1)
        goto done;
    double *v1 = m1 + EP_COUNT, *m2 = m1 + 2 * EP_COUNT, *v2 = m1 + 3 * EP_COUNT;
    const double b1 = 0.9, b2 = 0.999, scale = log(10.0) * k / 400.0;
    for (int epoch = 1; epoch <= epochs; epoch++) {
        memset(gm, 0, EP_COUNT * sizeof *gm);
        memset(ge, 0, EP_COUNT * sizeof *ge);
        for (int i = 0; i < d->count; i++) {
            if (held_out(i))
                continue;
            const Entry *e = &d->entries[i];
            double s = sigmoid(k, entry_eval(d, e, mg, eg));
            double g = -2.0 * (e->result - s) * s * (1 - s) * scale;
            for (int c = e->start; c < e->start + e->count; c++) {
                gm[d->index[c]] += g * d->coeff[c] * e->mg_share;
                ge[d->index[c]] += g * d->coeff[c] * e->eg_share;
            }
        }
        for (int i = 0; i < EP_COUNT; i++) {
            double g1 = gm[i] / training + 2 * l2 * (mg[i] - mg0[i]);
            double g2 = ge[i] / training + 2 * l2 * (eg[i] - eg0[i]);
            m1[i] = b1 * m1[i] + (1 - b1) * g1;
            v1[i] = b2 * v1[i] + (1 - b2) * g1 * g1;
            m2[i] = b1 * m2[i] + (1 - b1) * g2;
            v2[i] = b2 * v2[i] + (1 - b2) * g2 * g2;
            double c1 = 1 - pow(b1, epoch), c2 = 1 - pow(b2, epoch);
            mg[i] -= rate * (m1[i] / c1) / (sqrt(v1[i] / c2) + 1e-8);
            eg[i] -= rate * (m2[i] / c1) / (sqrt(v2[i] / c2) + 1e-8);
        }
        if (epoch % 50 == 0 || epoch == epochs)
            fprintf(stderr, "epoch %d: error %.6f, held out %.6f\n", epoch, data_error(d, k, mg, eg),
                    data_error_part(d, k, mg, eg, true));
    }
done:
    free(gm);
    free(ge);
    free(m1);
}

/* Replaces the i-th "S(a, b)" of the file (after the table's opening brace) by the i-th weight. */
static bool rewrite_params(const char *path, const double *mg, const double *eg) {
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int ch;
    while ((ch = fgetc(f)) != EOF)
        fputc(ch, mem);
    fclose(f);
    fclose(mem);
    const char *table = strstr(text, "eval_params[EP_COUNT] = {");
    if (!table) {
        free(text);
        return false;
    }
    FILE *out = fopen(path, "w");
    if (!out) {
        free(text);
        return false;
    }
    const char *p = text;
    fwrite(p, 1, (size_t)(table - p), out);
    p = table;
    int i = 0;
    for (const char *s; i < EP_COUNT && (s = strstr(p, "S(")) != NULL; i++) {
        const char *end = strchr(s, ')');
        fwrite(p, 1, (size_t)(s - p), out);
        fprintf(out, "S(%ld, %ld)", lround(mg[i]), lround(eg[i]));
        p = end + 1;
    }
    fputs(p, out);
    fclose(out);
    free(text);
    return i == EP_COUNT;
}

static int cmd_tune(int argc, char **argv) {
    int epochs = 2000;
    double rate = 1.0, l2 = 0;
    const char *data_path = NULL, *params_path = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--epochs") && i + 1 < argc)
            epochs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rate") && i + 1 < argc)
            rate = atof(argv[++i]);
        else if (!strcmp(argv[i], "--l2") && i + 1 < argc)
            l2 = atof(argv[++i]);
        else if (!data_path)
            data_path = argv[i];
        else
            params_path = argv[i];
    }
    if (!data_path || !params_path) {
        fputs("usage: schach_tune tune [--epochs N] [--rate R] [--l2 L] positions.txt eval_params.c\n", stderr);
        return 2;
    }
    Data d = {0};
    if (!data_load(&d, data_path) || d.count == 0) {
        fputs("schach_tune: no positions\n", stderr);
        return 1;
    }
    static double mg[EP_COUNT], eg[EP_COUNT];
    for (int i = 0; i < EP_COUNT; i++) {
        mg[i] = score_mg(eval_params[i]);
        eg[i] = score_eg(eval_params[i]);
    }
    double k = fit_k(&d, mg, eg);
    fprintf(stderr, "schach_tune: %d positions, %d coefficients, K = %.4f, error %.6f, held out %.6f\n", d.count,
            d.ncoeff, k, data_error(&d, k, mg, eg), data_error_part(&d, k, mg, eg, true));
    tune(&d, k, mg, eg, epochs, rate, l2);
    if (!rewrite_params(params_path, mg, eg)) {
        fprintf(stderr, "schach_tune: could not rewrite %s\n", params_path);
        return 1;
    }
    fprintf(stderr, "schach_tune: wrote %s\n", params_path);
    free(d.entries);
    free(d.index);
    free(d.coeff);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "extract"))
        return cmd_extract(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "selfplay"))
        return tune_cmd_selfplay(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "tune"))
        return cmd_tune(argc - 2, argv + 2);
    fputs("usage: schach_tune selfplay|extract|tune ... (see tools/tune.c)\n", stderr);
    return 2;
}
