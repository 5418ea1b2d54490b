/* nnue_train: trains the engine's NNUE evaluation on self-play records (tools/nnue_data.h) and
 * writes the quantised net (docs/nnue.md has the file format and the steps).
 *
 *   nnue_train train [options] DATA... -o NET
 *       --hidden N (256; a multiple of 16 up to 1024)  --epochs N (20)  --batch N (16384)  --lr R (0.001)  --lr-drop E (after 75 %
 *       of the epochs the rate is a tenth)  --lambda L (0.75)  --scale-k K (400)  --threads N (1)
 *       --seed N (1)  --mirror 0|1 (0; 1: each epoch trains about half the records mirrored left to
 *       right, a different half each epoch)  --init FILE (start from a float checkpoint written by an
 *       earlier run, or from a quantised net such as nets/default.nnue; its held-out loss is printed
 *       first; --epochs 0 is allowed then)
 *   nnue_train check NET DATA...
 *       The quantised net's evaluation, in the integer arithmetic of the engine, on the held-out
 *       records: against the float model (NET.float, when there) and the search's scores.
 *
 * The network: per perspective p (the side to move's, the other's) an accumulator
 * acc_p = ft_bias + sum of ft_weight[feature] over the ~32 pieces; a = clamp(acc, 0, 1)^2 (SCReLU);
 * out = sum a_stm * out_weight[0..N) + sum a_other * out_weight[N..2N) + out_bias. The evaluation is
 * out * SCALE centipawns; the loss is the squared difference of sigmoid(out * SCALE / K) and the
 * target lambda * sigmoid(score / K) + (1 - lambda) * result, Adam over mini-batches. Only the
 * active features' rows of the feature transformer are read and written per position.
 *
 * The held-out tenth: the records whose game tag is 0 mod 10 (whole games, so no position of a
 * held-out game is learnt from a neighbour). Reproducible: the same data, seed, options and thread
 * count give the same bytes (every thread sums its share of a batch in record order, the shares are
 * added in thread order).
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pthread.h>

#include "nnue.h"
#include "nnue_data.h"

enum { INPUTS = 768, QA = 255, QB = 64, SCALE = 400, MAX_THREADS = 16 };
#define WEIGHT_CLIP 1.98f /* |float weight| bound: out weights * QB stay within int8, accumulators within int16 */

/* ---- data --------------------------------------------------------------------------------------- */

typedef struct Data {
    uint8_t *records; /* NNUE_RECORD_SIZE each, only valid ones */
    size_t count, capacity;
} Data;

static bool data_load(Data *d, const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "nnue_train: cannot read %s\n", path);
        return false;
    }
    uint8_t rec[NNUE_RECORD_SIZE];
    size_t bad = 0;
    NnueRecord r;
    while (fread(rec, 1, sizeof rec, f) == sizeof rec) {
        if (!nnue_record_decode(rec, &r)) {
            bad++;
            continue;
        }
        if (d->count == d->capacity) {
            size_t c = d->capacity ? d->capacity * 2 : 1 << 16;
            uint8_t *p = realloc(d->records, c * NNUE_RECORD_SIZE);
            if (!p) {
                fclose(f);
                fputs("nnue_train: out of memory\n", stderr);
                return false;
            }
            d->records = p;
            d->capacity = c;
        }
        memcpy(d->records + d->count++ * NNUE_RECORD_SIZE, rec, sizeof rec);
    }
    fclose(f);
    if (bad)
        fprintf(stderr, "nnue_train: %s: %zu invalid records skipped\n", path, bad);
    return true;
}

static bool is_held_out(const uint8_t *rec) { return rec[31] % 10 == 0; }

/* The active features of both perspectives (index 0: white's, 1: black's), the side to move, and the
 * target from the side to move's point of view. */
typedef struct Sample {
    int count;
    int feature[2][NNUE_MAX_PIECES];
    int stm;
    float score, result; /* centipawns; 1, 0.5, 0 */
} Sample;

/* flip: the position mirrored left to right (files a <-> h), the same chess without castling rights,
 * which the records do not carry. */
static void sample_from(const uint8_t *raw, Sample *s, bool flip) {
    NnueRecord r;
    nnue_record_decode(raw, &r); /* validated when loaded */
    s->count = r.count;
    for (int i = 0; i < r.count; i++) {
        int colour = r.code[i] / 6, type = r.code[i] % 6, sq = r.square[i] ^ (flip ? 7 : 0);
        s->feature[0][i] = (colour == 0 ? 0 : 384) + type * 64 + sq;
        s->feature[1][i] = (colour == 1 ? 0 : 384) + type * 64 + (sq ^ 56);
    }
    s->stm = r.stm;
    s->score = r.score;
    float white = r.result / 2.0f;
    s->result = r.stm == 0 ? white : 1 - white;
}

/* ---- the float model ------------------------------------------------------------------------------ */

typedef struct Model {
    int hidden;
    size_t size;  /* floats in param */
    float *param; /* ft_weight[768][N], ft_bias[N], out_weight[2N], out_bias */
    float *ft_w, *ft_b, *out_w, *out_b;
} Model;

static bool model_init(Model *m, int hidden) {
    m->hidden = hidden;
    m->size = (size_t)INPUTS * hidden + hidden + 2 * (size_t)hidden + 1;
    m->param = calloc(m->size, sizeof *m->param);
    m->ft_w = m->param;
    m->ft_b = m->ft_w + (size_t)INPUTS * hidden;
    m->out_w = m->ft_b + hidden;
    m->out_b = m->out_w + 2 * hidden;
    return m->param != NULL;
}

static uint64_t xorshift(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ULL;
}

static uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

static float uniform(uint64_t *rng, float bound) {
    return (float)((double)(xorshift(rng) >> 11) / 9007199254740992.0 * 2 - 1) * bound;
}

static void model_randomise(Model *m, uint64_t seed) {
    uint64_t rng = seed * 0x9E3779B97F4A7C15ULL + 0x2545F4914F6CDD1DULL;
    for (size_t i = 0; i < (size_t)INPUTS * m->hidden; i++)
        m->ft_w[i] = uniform(&rng, 1.0f / sqrtf(INPUTS));
    for (int i = 0; i < 2 * m->hidden; i++)
        m->out_w[i] = uniform(&rng, 1.0f / sqrtf(2.0f * m->hidden));
}

static float screlu(float x) {
    x = x < 0 ? 0 : x > 1 ? 1 : x;
    return x * x;
}

/* out (in units of SCALE centipawns); acc receives both accumulators (2 * hidden floats). */
static float model_forward(const Model *m, const Sample *s, float *acc) {
    int n = m->hidden;
    for (int p = 0; p < 2; p++) {
        float *a = acc + p * n;
        memcpy(a, m->ft_b, (size_t)n * sizeof *a);
        for (int k = 0; k < s->count; k++) {
            const float *w = m->ft_w + (size_t)s->feature[p][k] * n;
            for (int i = 0; i < n; i++)
                a[i] += w[i];
        }
    }
    const float *us = acc + s->stm * n, *them = acc + (1 - s->stm) * n;
    float out = *m->out_b;
    for (int i = 0; i < n; i++)
        out += screlu(us[i]) * m->out_w[i] + screlu(them[i]) * m->out_w[n + i];
    return out;
}

static float sigmoidf(float x) { return 1.0f / (1.0f + expf(-x)); }

typedef struct Train {
    double lambda, scale_k;
} Train;

static float target_of(const Train *t, const Sample *s) {
    return (float)(t->lambda * sigmoidf((float)(s->score / t->scale_k)) + (1 - t->lambda) * s->result);
}

/* Adds the gradient of one sample's loss to grad (laid out like param); returns the loss. */
static float model_backward(const Model *m, const Train *t, const Sample *s, float *acc, float *dacc, float *grad) {
    int n = m->hidden;
    float out = model_forward(m, s, acc);
    float k = (float)(SCALE / t->scale_k), pred = sigmoidf(out * k), diff = pred - target_of(t, s);
    float g = 2 * diff * pred * (1 - pred) * k;
    float *g_ft_w = grad, *g_ft_b = grad + (size_t)INPUTS * n, *g_out_w = g_ft_b + n, *g_out_b = g_out_w + 2 * n;
    *g_out_b += g;
    for (int side = 0; side < 2; side++) {
        int p = side == 0 ? s->stm : 1 - s->stm;
        const float *a = acc + p * n, *w = m->out_w + side * n;
        float *d = dacc + p * n, *gw = g_out_w + side * n;
        for (int i = 0; i < n; i++) {
            float x = a[i];
            bool live = x > 0 && x < 1;
            gw[i] += g * (live ? x * x : x >= 1 ? 1 : 0);
            d[i] = live ? g * w[i] * 2 * x : 0;
        }
    }
    for (int p = 0; p < 2; p++) {
        const float *d = dacc + p * n;
        for (int i = 0; i < n; i++)
            g_ft_b[i] += d[i];
        for (int c = 0; c < s->count; c++) {
            float *gw = g_ft_w + (size_t)s->feature[p][c] * n;
            for (int i = 0; i < n; i++)
                gw[i] += d[i];
        }
    }
    return diff * diff;
}

/* ---- batches over threads ---------------------------------------------------------------------- */

typedef struct Worker {
    const Model *model;
    const Train *train;
    const Data *data;
    const size_t *order; /* record indices of this worker's share */
    size_t count;
    bool backward;       /* else only the loss */
    uint64_t mirror_key; /* nonzero: mirror about half the records, chosen by a hash of the key and index */
    float *grad, *acc, *dacc;
    double loss;
} Worker;

static void *worker_run(void *arg) {
    Worker *w = arg;
    Sample s;
    w->loss = 0;
    if (w->backward)
        memset(w->grad, 0, w->model->size * sizeof *w->grad);
    for (size_t i = 0; i < w->count; i++) {
        sample_from(w->data->records + w->order[i] * NNUE_RECORD_SIZE, &s,
                    w->mirror_key && (splitmix64(w->mirror_key ^ w->order[i]) & 1));
        if (w->backward) {
            w->loss += model_backward(w->model, w->train, &s, w->acc, w->dacc, w->grad);
        } else {
            float out = model_forward(w->model, &s, w->acc);
            float diff = sigmoidf(out * (float)(SCALE / w->train->scale_k)) - target_of(w->train, &s);
            w->loss += diff * diff;
        }
    }
    return NULL;
}

/* Runs the workers over order[0..count) split in thread order; returns the summed loss. */
static double run_workers(Worker *workers, int threads, const size_t *order, size_t count, bool backward) {
    pthread_t tid[MAX_THREADS];
    size_t start = 0;
    for (int t = 0; t < threads; t++) {
        size_t share = count / threads + ((size_t)t < count % threads);
        workers[t].order = order + start;
        workers[t].count = share;
        workers[t].backward = backward;
        start += share;
        if (t > 0)
            pthread_create(&tid[t], NULL, worker_run, &workers[t]);
    }
    worker_run(&workers[0]);
    double loss = workers[0].loss;
    for (int t = 1; t < threads; t++) {
        pthread_join(tid[t], NULL);
        loss += workers[t].loss;
    }
    return loss;
}

/* ---- the quantised net --------------------------------------------------------------------------- */

static int16_t quantise(float x, float factor, int bound) {
    long v = lroundf(x * factor);
    return (int16_t)(v > bound ? bound : v < -bound ? -bound : v);
}

static void put32(uint8_t *p, int32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)((uint32_t)v >> (8 * i));
}

/* Writes the quantised net (docs/nnue.md) to path through a temporary file. */
static bool net_write(const Model *m, const char *path) {
    int n = m->hidden;
    size_t size = nnue_file_size(n);
    uint8_t *buf = malloc(size), *p = buf;
    if (!buf)
        return false;
    memcpy(p, "SCHNNUE1", 8);
    p += 8;
    const int32_t header[5] = {INPUTS, n, QA, QB, SCALE};
    for (int i = 0; i < 5; i++, p += 4)
        put32(p, header[i]);
    for (size_t i = 0; i < (size_t)INPUTS * n + n; i++, p += 2) /* ft_weight then ft_bias: adjacent in param */
        nnue_put_u16(p, (uint16_t)quantise(m->ft_w[i], QA, 32767));
    for (int i = 0; i < 2 * n; i++, p += 2)
        nnue_put_u16(p, (uint16_t)quantise(m->out_w[i], QB, 127));
    put32(p, (int32_t)lround((double)*m->out_b * QA * QB));
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, size, f) == size;
    if (f && fclose(f) != 0)
        ok = false;
    free(buf);
    return ok && rename(tmp, path) == 0;
}

/* Reads a net file with the engine's own loader, so that what is checked is what the engine plays
 * with; false (and the loader's reason) for anything else. */
static bool net_read(NnueNet *net, const char *path) {
    char err[256];
    if (!nnue_load_file(net, path, err, sizeof err)) {
        fprintf(stderr, "nnue_train: %s: %s\n", path, err);
        return false;
    }
    return true;
}

/* The engine's evaluation of a record's position (from scratch, side to move's point of view, not
 * clamped). The weights' bound (WEIGHT_CLIP) keeps every accumulator within int16 by construction. */
static int net_eval(const NnueNet *net, const uint8_t *raw) {
    NnueRecord r;
    nnue_record_decode(raw, &r); /* validated when loaded */
    SchPosition pos;
    sch_pos_clear(&pos);
    for (int i = 0; i < r.count; i++)
        sch_pos_put(&pos, sch_piece_make((SchColor)(r.code[i] / 6), (SchPieceType)(r.code[i] % 6)), r.square[i]);
    pos.turn = r.stm;
    sch_pos_finish(&pos);
    NnueAccumulator acc;
    nnue_refresh(net, &acc, &pos);
    return nnue_output(net, &acc, (SchColor)r.stm);
}

/* ---- float checkpoints (NET.float): the model before quantisation, to compare and to go on from -- */

static bool model_save(const Model *m, const char *path) {
    FILE *f = fopen(path, "wb");
    int32_t n = m->hidden;
    bool ok = f && fwrite("SCHFLT01", 1, 8, f) == 8 && fwrite(&n, sizeof n, 1, f) == 1 &&
              fwrite(m->param, sizeof *m->param, m->size, f) == m->size;
    if (f && fclose(f) != 0)
        ok = false;
    return ok;
}

static bool model_load(Model *m, const char *path) {
    FILE *f = fopen(path, "rb");
    char magic[8];
    int32_t n = 0;
    bool ok = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, "SCHFLT01", 8) && fread(&n, sizeof n, 1, f) == 1 &&
              n >= 1 && n <= 4096 && model_init(m, n) && fread(m->param, sizeof *m->param, m->size, f) == m->size;
    if (f)
        fclose(f);
    return ok;
}

/* A quantised net (the engine's file) as the float model it came from, up to rounding: each weight
 * divided by its scale. Quantising the result gives the same file back, so training can go on from
 * a net in the repository whose float checkpoint is gone — from one session's data to the next. */
static bool model_from_net(Model *m, const char *path) {
    NnueNet net;
    char err[256];
    if (!nnue_load_file(&net, path, err, sizeof err))
        return false;
    bool ok = net.qa == QA && net.qb == QB && net.scale == SCALE && model_init(m, net.hidden);
    if (!ok) {
        fprintf(stderr, "nnue_train: %s: quantised with QA %d, QB %d, SCALE %d, not %d, %d, %d\n", path, net.qa, net.qb,
                net.scale, QA, QB, SCALE);
    } else {
        for (size_t i = 0; i < (size_t)INPUTS * net.hidden; i++)
            m->ft_w[i] = (float)net.ft_weight[i] / QA;
        for (int i = 0; i < net.hidden; i++)
            m->ft_b[i] = (float)net.ft_bias[i] / QA;
        for (int i = 0; i < 2 * net.hidden; i++)
            m->out_w[i] = (float)net.out_weight[i] / QB;
        *m->out_b = (float)((double)net.out_bias / ((double)QA * QB));
    }
    nnue_free(&net);
    return ok;
}

/* ---- check ----------------------------------------------------------------------------------------- */

/* Mean |quantised - float| and |quantised - search score| in centipawns over up to 100,000 held-out
 * records (all records when none is held out). */
static void compare(const NnueNet *net, const Model *model, const Data *d, const Train *t) {
    Sample s;
    float *acc = malloc(2 * (size_t)net->hidden * sizeof *acc);
    double diff_float = 0, diff_score = 0, loss = 0;
    size_t n = 0;
    bool any_held = false;
    for (size_t i = 0; i < d->count && !any_held; i++)
        any_held = is_held_out(d->records + i * NNUE_RECORD_SIZE);
    for (size_t i = 0; i < d->count && n < 100000 && acc; i++) {
        const uint8_t *raw = d->records + i * NNUE_RECORD_SIZE;
        if (any_held && !is_held_out(raw))
            continue;
        sample_from(raw, &s, false);
        int q = net_eval(net, raw);
        if (model)
            diff_float += fabs(q - model_forward(model, &s, acc) * SCALE);
        diff_score += fabs((double)q - s.score);
        double e = sigmoidf((float)(q / t->scale_k)) - target_of(t, &s);
        loss += e * e;
        n++;
    }
    free(acc);
    if (!n)
        return;
    if (model)
        printf("check: %zu records, quantised vs float model: mean |difference| %.3f cp\n", n, diff_float / n);
    printf("check: quantised vs search score: mean |difference| %.1f cp, loss %.6f\n", diff_score / n, loss / n);
}

/* ---- commands -------------------------------------------------------------------------------------- */

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void adam_step(Model *m, float *grad, float *mom, float *vel, size_t batch, double lr, long step) {
    const double b1 = 0.9, b2 = 0.999;
    float c1 = (float)(1 - pow(b1, (double)step)), c2 = (float)(1 - pow(b2, (double)step));
    float scale = 1.0f / (float)batch, rate = (float)lr;
    size_t clipped = m->size - 1; /* everything but the output bias */
    for (size_t i = 0; i < m->size; i++) {
        float g = grad[i] * scale;
        mom[i] = (float)b1 * mom[i] + (float)(1 - b1) * g;
        vel[i] = (float)b2 * vel[i] + (float)(1 - b2) * g * g;
        float x = m->param[i] - rate * (mom[i] / c1) / (sqrtf(vel[i] / c2) + 1e-8f);
        if (i < clipped)
            x = x > WEIGHT_CLIP ? WEIGHT_CLIP : x < -WEIGHT_CLIP ? -WEIGHT_CLIP : x;
        m->param[i] = x;
    }
}

static int cmd_train(int argc, char **argv) {
    int hidden = 256, epochs = 20, threads = 1, lr_drop = -1, mirror = 0;
    long batch = 16384;
    double lr = 0.001;
    uint64_t seed = 1;
    Train t = {.lambda = 0.75, .scale_k = 400};
    const char *out = NULL, *init = NULL;
    Data d = {0};
    int files = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (a[0] == '-' && !v) {
            fprintf(stderr, "nnue_train: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--hidden"))
            hidden = atoi(v), i++;
        else if (!strcmp(a, "--epochs"))
            epochs = atoi(v), i++;
        else if (!strcmp(a, "--batch"))
            batch = atol(v), i++;
        else if (!strcmp(a, "--lr"))
            lr = atof(v), i++;
        else if (!strcmp(a, "--lr-drop"))
            lr_drop = atoi(v), i++;
        else if (!strcmp(a, "--lambda"))
            t.lambda = atof(v), i++;
        else if (!strcmp(a, "--scale-k"))
            t.scale_k = atof(v), i++;
        else if (!strcmp(a, "--threads"))
            threads = atoi(v), i++;
        else if (!strcmp(a, "--seed"))
            seed = strtoull(v, NULL, 10), i++;
        else if (!strcmp(a, "--mirror"))
            mirror = atoi(v), i++;
        else if (!strcmp(a, "--init"))
            init = v, i++;
        else if (!strcmp(a, "-o"))
            out = v, i++;
        else if (a[0] == '-') {
            fprintf(stderr, "nnue_train: unknown option %s\n", a);
            return 2;
        } else if (!data_load(&d, a))
            return 1;
        else
            files++;
    }
    /* The engine reads hidden layers of a multiple of 16 (its kernels' width) up to NNUE_HIDDEN_MAX. */
    if (!out || !files || hidden < 16 || hidden > NNUE_HIDDEN_MAX || hidden % 16 || epochs < (init ? 0 : 1) ||
        batch < 1 || threads < 1 || threads > MAX_THREADS || !(lr > 0) || !(t.lambda >= 0 && t.lambda <= 1) ||
        !(t.scale_k > 0)) {
        fputs("usage: nnue_train train [options] DATA... -o NET (see tools/nnue_train.c)\n", stderr);
        return 2;
    }
    if (lr_drop < 0)
        lr_drop = epochs * 3 / 4;
    Model m;
    if (init) {
        if (!model_load(&m, init) && !model_from_net(&m, init)) {
            fprintf(stderr, "nnue_train: %s is neither a float checkpoint nor a net this trainer quantises\n", init);
            return 1;
        }
        hidden = m.hidden;
    } else if (!model_init(&m, hidden)) {
        return 1;
    } else {
        model_randomise(&m, seed);
    }
    size_t *train_idx = malloc((d.count + 1) * sizeof *train_idx), *held_idx = malloc((d.count + 1) * sizeof *held_idx);
    size_t ntrain = 0, nheld = 0;
    for (size_t i = 0; train_idx && held_idx && i < d.count; i++) {
        if (is_held_out(d.records + i * NNUE_RECORD_SIZE))
            held_idx[nheld++] = i;
        else
            train_idx[ntrain++] = i;
    }
    float *grad = calloc((size_t)threads * m.size + 2 * m.size, sizeof *grad);
    float *acc = calloc((size_t)threads * 4 * hidden, sizeof *acc);
    if (!train_idx || !held_idx || !grad || !acc || !ntrain) {
        fputs(ntrain ? "nnue_train: out of memory\n" : "nnue_train: no training records\n", stderr);
        return 1;
    }
    float *mom = grad + (size_t)threads * m.size, *vel = mom + m.size;
    Worker workers[MAX_THREADS];
    for (int k = 0; k < threads; k++)
        workers[k] = (Worker){.model = &m,
                              .train = &t,
                              .data = &d,
                              .grad = grad + (size_t)k * m.size,
                              .acc = acc + (size_t)k * 4 * hidden,
                              .dacc = acc + (size_t)k * 4 * hidden + 2 * hidden};
    printf("nnue_train: %zu training records, %zu held out; hidden %d, %d epochs, batch %ld, lr %g (a tenth from "
           "epoch %d), lambda %g, K %g, seed %llu, %d threads, mirror %d\n",
           ntrain, nheld, hidden, epochs, batch, lr, lr_drop + 1, t.lambda, t.scale_k, (unsigned long long)seed,
           threads, mirror);
    fflush(stdout);
    uint64_t rng = seed * 0xD1B54A32D192ED03ULL + 1;
    long step = 0;
    double started = now_seconds();
    if (init && nheld) {
        printf("start (%s): held-out loss %.6f\n", init, run_workers(workers, threads, held_idx, nheld, false) / nheld);
        fflush(stdout);
    }
    for (int epoch = 1; epoch <= epochs; epoch++) {
        for (size_t i = ntrain - 1; i > 0; i--) { /* Fisher-Yates, from the seed */
            size_t j = (size_t)(xorshift(&rng) % (i + 1)), tmp = train_idx[i];
            train_idx[i] = train_idx[j];
            train_idx[j] = tmp;
        }
        double loss = 0, rate = epoch > lr_drop ? lr / 10 : lr;
        for (int k = 0; k < threads; k++)
            workers[k].mirror_key = mirror ? splitmix64(seed ^ (uint64_t)epoch << 32) | 1 : 0;
        for (size_t start = 0; start < ntrain; start += (size_t)batch) {
            size_t count = ntrain - start < (size_t)batch ? ntrain - start : (size_t)batch;
            loss += run_workers(workers, threads, train_idx + start, count, true);
            for (int k = 1; k < threads; k++) /* in thread order: the same sums every run */
                for (size_t i = 0; i < m.size; i++)
                    grad[i] += workers[k].grad[i];
            adam_step(&m, grad, mom, vel, count, rate, ++step);
        }
        for (int k = 0; k < threads; k++)
            workers[k].mirror_key = 0;
        double held = nheld ? run_workers(workers, threads, held_idx, nheld, false) / nheld : 0;
        printf("epoch %d: train loss %.6f, held-out loss %.6f, %.0f s\n", epoch, loss / ntrain, held,
               now_seconds() - started);
        fflush(stdout);
    }
    char float_path[4096];
    snprintf(float_path, sizeof float_path, "%s.float", out);
    if (!net_write(&m, out) || !model_save(&m, float_path)) {
        fprintf(stderr, "nnue_train: cannot write %s\n", out);
        return 1;
    }
    printf("nnue_train: wrote %s (%zu bytes) and %s\n", out, nnue_file_size(hidden), float_path);
    NnueNet net;
    if (net_read(&net, out)) {
        compare(&net, &m, &d, &t);
        nnue_free(&net);
    }
    free(train_idx);
    free(held_idx);
    free(grad);
    free(acc);
    free(m.param);
    free(d.records);
    return 0;
}

static int cmd_check(int argc, char **argv) {
    if (argc < 2) {
        fputs("usage: nnue_train check NET DATA...\n", stderr);
        return 2;
    }
    NnueNet net;
    if (!net_read(&net, argv[0]))
        return 1;
    Data d = {0};
    for (int i = 1; i < argc; i++)
        if (!data_load(&d, argv[i]))
            return 1;
    char float_path[4096];
    snprintf(float_path, sizeof float_path, "%s.float", argv[0]);
    Model m;
    bool have_float = model_load(&m, float_path) && m.hidden == net.hidden;
    Train t = {.lambda = 0.75, .scale_k = 400};
    printf("check: %s, hidden %d%s\n", argv[0], net.hidden, have_float ? "" : " (no float checkpoint beside it)");
    compare(&net, have_float ? &m : NULL, &d, &t);
    nnue_free(&net);
    free(d.records);
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "train"))
        return cmd_train(argc - 2, argv + 2);
    if (argc >= 2 && !strcmp(argv[1], "check"))
        return cmd_check(argc - 2, argv + 2);
    fputs("usage: nnue_train train|check ... (see tools/nnue_train.c)\n", stderr);
    return 2;
}
