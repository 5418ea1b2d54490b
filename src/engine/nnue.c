/* Engine: the NNUE evaluation (see nnue.h): the net file, the accumulators and the output. */
#define _POSIX_C_SOURCE 200809L /* stat */
#include "nnue.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nnue_kernels.h"

/* The built-in net, generated at build time from nets/default.nnue (cmake/embed_net.cmake). */
extern const unsigned char nnue_default_net_data[];
extern const size_t nnue_default_net_size;
extern const char nnue_default_net_sha256[];

/* ---- the kernels ---- */

/* Chosen when the program is loaded, before any search; only tests and benchmarks change it later. */
static const NnueKernels *kernels = &nnue_kernels_portable;

static bool kernel_forced(const char *name) {
    const char *force = getenv("SCHACH_NNUE");
    return force && strcmp(force, name) == 0;
}

__attribute__((constructor)) static void choose_kernels(void) {
    kernels = nnue_cpu_has_avx2() && !kernel_forced("scalar") ? &nnue_kernels_avx2 : &nnue_kernels_portable;
}

const char *nnue_kernel_name(void) { return kernels->name; }

bool nnue_set_kernel(bool avx2) {
    if (avx2 && !nnue_cpu_has_avx2())
        return false;
    kernels = avx2 ? &nnue_kernels_avx2 : &nnue_kernels_portable;
    return true;
}

/* ---- the file ---- */

size_t nnue_file_size(int hidden) {
    size_t n = (size_t)hidden;
    return NNUE_HEADER_BYTES + 2 * (NNUE_INPUTS * n + n + 2 * n) + 4;
}

__attribute__((format(printf, 3, 4))) static bool fail(char *err, size_t err_size, const char *fmt, ...) {
    if (err && err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return false;
}

static int32_t read_i32(const unsigned char *p) {
    return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static int16_t read_i16(const unsigned char *p) { return (int16_t)((uint16_t)p[0] | (uint16_t)p[1] << 8); }

static uint64_t fnv1a64(const unsigned char *data, size_t size) {
    uint64_t h = 0xcbf29ce484222325u;
    for (size_t i = 0; i < size; i++)
        h = (h ^ data[i]) * 0x100000001b3u;
    return h;
}

static bool check_header(const unsigned char *data, size_t size, char *err, size_t err_size) {
    if (size < NNUE_HEADER_BYTES)
        return fail(err, err_size, "the file has %zu bytes, fewer than the header's %d", size, NNUE_HEADER_BYTES);
    if (memcmp(data, NNUE_MAGIC, 8) != 0)
        return fail(err, err_size, "not a schach net: the file does not begin with '%s'", NNUE_MAGIC);
    int32_t inputs = read_i32(data + 8), hidden = read_i32(data + 12);
    int32_t qa = read_i32(data + 16), qb = read_i32(data + 20), scale = read_i32(data + 24);
    if (inputs != NNUE_INPUTS)
        return fail(err, err_size, "%ld inputs; this engine reads nets of %d", (long)inputs, NNUE_INPUTS);
    if (hidden < 16 || hidden > NNUE_HIDDEN_MAX || hidden % 16 != 0)
        return fail(err, err_size, "%ld hidden neurons; a net has a multiple of 16 from 16 to %d", (long)hidden,
                    NNUE_HIDDEN_MAX);
    if (qa < 1 || qa > NNUE_QA_MAX || qb < 1 || scale < 1)
        return fail(err, err_size, "bad quantisation QA %ld, QB %ld, SCALE %ld (QA 1..%d, QB and SCALE positive)",
                    (long)qa, (long)qb, (long)scale, NNUE_QA_MAX);
    size_t want = nnue_file_size(hidden);
    if (size != want)
        return fail(err, err_size, "the file has %zu bytes; a net of %ld hidden neurons has %zu (%s)", size,
                    (long)hidden, want, size < want ? "cut short" : "bytes after the end");
    return true;
}

bool nnue_load_memory(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t err_size) {
    memset(net, 0, sizeof *net);
    if (!check_header(data, size, err, err_size))
        return false;
    int n = (int)read_i32(data + 12);
    size_t count = (size_t)NNUE_INPUTS * (size_t)n + (size_t)n + 2 * (size_t)n;
    int16_t *memory = malloc(count * sizeof(int16_t));
    if (!memory)
        return fail(err, err_size, "out of memory for a net of %d hidden neurons", n);
    const unsigned char *p = data + NNUE_HEADER_BYTES;
    for (size_t i = 0; i < count; i++, p += 2)
        memory[i] = read_i16(p);
    int16_t *out_weight = memory + (size_t)NNUE_INPUTS * (size_t)n + (size_t)n;
    for (int i = 0; i < 2 * n; i++)
        if (out_weight[i] > NNUE_OUT_WEIGHT_MAX || out_weight[i] < -NNUE_OUT_WEIGHT_MAX) {
            int bad = out_weight[i];
            free(memory);
            return fail(err, err_size, "output weight %d is %d; they must lie within +-%d", i, bad,
                        NNUE_OUT_WEIGHT_MAX);
        }
    *net = (NnueNet){.hidden = n,
                     .qa = (int)read_i32(data + 16),
                     .qb = (int)read_i32(data + 20),
                     .scale = (int)read_i32(data + 24),
                     .out_bias = read_i32(p),
                     .ft_weight = memory,
                     .ft_bias = memory + (size_t)NNUE_INPUTS * (size_t)n,
                     .out_weight = out_weight,
                     .checksum = fnv1a64(data, size),
                     .memory = memory};
    return true;
}

bool nnue_load_file(NnueNet *net, const char *path, char *err, size_t err_size) {
    memset(net, 0, sizeof *net);
    /* Only a plain file: a FIFO or a device (from a GUI's file chooser, or a typo) would block or
     * never end. */
    struct stat st;
    if (stat(path, &st) != 0)
        return fail(err, err_size, "cannot open '%s': %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode))
        return fail(err, err_size, "'%s' is not a plain file", path);
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, err_size, "cannot open '%s': %s", path, strerror(errno));
    /* One byte more than the largest net, so that a longer file is seen to be too long. */
    size_t cap = nnue_file_size(NNUE_HIDDEN_MAX) + 1;
    unsigned char *data = malloc(cap);
    if (!data) {
        fclose(f);
        return fail(err, err_size, "out of memory reading '%s'", path);
    }
    size_t size = fread(data, 1, cap, f);
    bool read_error = ferror(f) != 0;
    fclose(f);
    bool ok;
    if (read_error)
        ok = fail(err, err_size, "cannot read '%s'", path);
    else if (size == cap)
        ok = fail(err, err_size, "'%s' is larger than any net (%zu bytes at most)", path, cap - 1);
    else
        ok = nnue_load_memory(net, data, size, err, err_size);
    free(data);
    return ok;
}

void nnue_free(NnueNet *net) {
    free(net->memory);
    memset(net, 0, sizeof *net);
}

/* ---- the built-in net ---- */

static pthread_once_t default_once = PTHREAD_ONCE_INIT;
static NnueNet default_net;
static bool default_ok;

static void load_default(void) {
    char err[160];
    default_ok = nnue_load_memory(&default_net, nnue_default_net_data, nnue_default_net_size, err, sizeof err);
    if (!default_ok)
        fprintf(stderr, "schach: the built-in net is broken (%s); using the classical evaluation\n", err);
}

const NnueNet *nnue_default(void) {
    pthread_once(&default_once, load_default);
    return default_ok ? &default_net : NULL;
}

const char *nnue_default_sha256(void) { return nnue_default_net_sha256; }

/* ---- accumulators ---- */

void nnue_refresh(const NnueNet *net, NnueAccumulator *acc, const SchPosition *pos) {
    int n = net->hidden;
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        const int16_t *rows[64]; /* at most one per square */
        int count = 0;
        for (SchBitboard occ = sch_pos_occupied(pos); occ; occ &= occ - 1) {
            SchSquare s = (SchSquare)sch_bb_lsb(occ);
            rows[count++] = net->ft_weight + (size_t)nnue_feature((SchColor)c, sch_pos_piece_on(pos, s), s) * n;
        }
        /* Bias first, then the pieces' rows: the sums the incremental updates keep. */
        kernels->update(acc->values[c], net->ft_bias, rows, count, NULL, 0, n);
    }
    acc->computed = true;
}

void nnue_record_move(NnueAccumulator *next, const SchPosition *pos, SchMove m) {
    SchSquare from = sch_move_from(m), to = sch_move_to(m);
    SchPiece piece = sch_pos_piece_on(pos, from);
    SchColor us = sch_piece_color(piece);
    int kind = sch_move_kind(m);
    next->computed = false;
    next->add_count = next->remove_count = 0;
    if (kind == SCH_MOVE_CASTLING) {
        /* The king's move to its g- or c-file square, the rook from its corner to the f- or d-file;
         * in Chess960 a square may be both left and entered, which the sums do not mind. */
        int right = sch_castle_index(us, to);
        SchSquare rook_from = (SchSquare)pos->castle_rook[right];
        SchSquare rook_to = sch_square_relative(us, (right & 1) ? SCH_SQ_D1 : SCH_SQ_F1);
        SchPiece rook = sch_piece_make(us, SCH_ROOK);
        next->remove[next->remove_count++] = (NnueChange){(uint8_t)piece, (uint8_t)from};
        next->remove[next->remove_count++] = (NnueChange){(uint8_t)rook, (uint8_t)rook_from};
        next->add[next->add_count++] = (NnueChange){(uint8_t)piece, (uint8_t)to};
        next->add[next->add_count++] = (NnueChange){(uint8_t)rook, (uint8_t)rook_to};
        return;
    }
    SchSquare capture_square = kind == SCH_MOVE_EN_PASSANT ? (SchSquare)(to ^ 8) : to;
    SchPiece captured = sch_pos_piece_on(pos, capture_square);
    SchPiece landing = kind == SCH_MOVE_PROMOTION ? sch_piece_make(us, sch_move_promotion(m)) : piece;
    next->remove[next->remove_count++] = (NnueChange){(uint8_t)piece, (uint8_t)from};
    if (captured != SCH_NO_PIECE)
        next->remove[next->remove_count++] = (NnueChange){(uint8_t)captured, (uint8_t)capture_square};
    next->add[next->add_count++] = (NnueChange){(uint8_t)landing, (uint8_t)to};
}

void nnue_record_null(NnueAccumulator *next) {
    next->computed = false;
    next->add_count = next->remove_count = 0;
}

static void apply_changes(const NnueNet *net, const NnueAccumulator *prev, NnueAccumulator *acc) {
    int n = net->hidden;
    for (int c = SCH_WHITE; c <= SCH_BLACK; c++) {
        const int16_t *add[2], *remove[2];
        for (int k = 0; k < acc->add_count; k++)
            add[k] = net->ft_weight +
                     (size_t)nnue_feature((SchColor)c, (SchPiece)acc->add[k].piece, (SchSquare)acc->add[k].square) * n;
        for (int k = 0; k < acc->remove_count; k++)
            remove[k] =
                net->ft_weight +
                (size_t)nnue_feature((SchColor)c, (SchPiece)acc->remove[k].piece, (SchSquare)acc->remove[k].square) * n;
        kernels->update(acc->values[c], prev->values[c], add, acc->add_count, remove, acc->remove_count, n);
    }
    acc->computed = true;
}

void nnue_update(const NnueNet *net, NnueAccumulator *stack, int ply) {
    int first = ply;
    while (first > 0 && !stack[first].computed)
        first--;
    for (int i = first + 1; i <= ply; i++)
        apply_changes(net, &stack[i - 1], &stack[i]);
}

int nnue_output(const NnueNet *net, const NnueAccumulator *acc, SchColor stm) {
    int n = net->hidden;
    int64_t sum = kernels->screlu_dot(acc->values[stm], net->out_weight, n, net->qa) +
                  kernels->screlu_dot(acc->values[!stm], net->out_weight + n, n, net->qa);
    int64_t eval = (sum / net->qa + net->out_bias) * net->scale / ((int64_t)net->qa * net->qb);
    return eval > 1000000 ? 1000000 : eval < -1000000 ? -1000000 : (int)eval;
}

static int clamp_eval(int v) {
    return v > NNUE_EVAL_LIMIT ? NNUE_EVAL_LIMIT : v < -NNUE_EVAL_LIMIT ? -NNUE_EVAL_LIMIT : v;
}

int nnue_evaluate(const NnueNet *net, NnueAccumulator *stack, int ply, const SchPosition *pos) {
    nnue_update(net, stack, ply);
    return clamp_eval(nnue_output(net, &stack[ply], sch_pos_turn(pos)));
}

int nnue_evaluate_position(const NnueNet *net, const SchPosition *pos) {
    NnueAccumulator acc;
    nnue_refresh(net, &acc, pos);
    return clamp_eval(nnue_output(net, &acc, sch_pos_turn(pos)));
}
