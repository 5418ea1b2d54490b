/* Engine: the NNUE evaluation, a (768 -> N) x 2 -> 1 network (docs/engine.md#nnue).
 *
 * Features ("chess768"), one set per perspective p (white, black): a piece of colour c and type t
 * (pawn 0 ... king 5) on square s (a1 = 0 ... h8 = 63) is input
 *
 *     (c == p ? 0 : 384) + t * 64 + (p == white ? s : s ^ 56)
 *
 * Each perspective's accumulator is ft_bias plus the ft_weight rows of its active inputs (int16).
 * The output, for the side to move (stm) and the other side, with SCReLU v = clamp(acc, 0, QA)^2:
 *
 *     sum  = sum_i screlu(acc_stm[i]) * out_weight[i] + sum_i screlu(acc_other[i]) * out_weight[N + i]
 *     eval = (sum / QA + out_bias) * SCALE / (QA * QB)          (centipawns, side to move)
 *
 * The accumulators follow the search incrementally: the search records each move's changed pieces in
 * the next ply's entry of its accumulator stack (nnue_record_move, before the move is made), and
 * nnue_evaluate brings the entries up to date lazily from the nearest computed one, so a node cut off
 * before its evaluation costs no update. A null move records no change (the accumulators are per
 * colour, not per side to move). Nothing here allocates except loading a net.
 *
 * The kernels (accumulator update and output) come in a plain C version and, on x86-64, an AVX2
 * version chosen at run time from the CPU (cpuid), like the PEXT sliders; SCHACH_NNUE=scalar or
 * =avx2 forces one (to test or time either path). Both give bit-identical results: the output
 * layer's weights are limited to +-127, so that v * w fits an int16 (v <= QA <= 255) and the AVX2
 * kernel's v * w * v (madd) is exact.
 */
#ifndef SCHACH_ENGINE_NNUE_H
#define SCHACH_ENGINE_NNUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schach/position.h"

#define NNUE_INPUTS         768
#define NNUE_HIDDEN_MAX     1024 /* the largest hidden layer a net file may have (a multiple of 16) */
#define NNUE_OUT_WEIGHT_MAX 127  /* |out_weight| at most this (the exact int16 product, see above) */
#define NNUE_QA_MAX         255
#define NNUE_EVAL_LIMIT     9999 /* the output is clamped to +-this, below every known win and mate */
#define NNUE_HEADER_BYTES   28   /* magic (8) and five int32 */
#define NNUE_MAGIC          "SCHNNUE1"
#define NNUE_EMBEDDED_NAME  "<embedded>"

typedef struct NnueNet {
    int hidden;        /* N */
    int qa, qb, scale; /* quantisation: QA, QB, SCALE */
    int32_t out_bias;
    int16_t *ft_weight;  /* [NNUE_INPUTS][hidden], feature-major */
    int16_t *ft_bias;    /* [hidden] */
    int16_t *out_weight; /* [2 * hidden]: side to move's half, then the other side's */
    uint64_t checksum;   /* FNV-1a 64 of the whole file */
    void *memory;        /* the allocation behind the arrays */
} NnueNet;

/* One changed piece of a move: piece (SchPiece) on square, added or removed. */
typedef struct NnueChange {
    uint8_t piece, square;
} NnueChange;

/* One ply's accumulators, white's perspective first. While computed is false, values is stale and
 * the changes lead from the entry before it to this one. */
typedef struct NnueAccumulator {
    int16_t values[2][NNUE_HIDDEN_MAX];
    bool computed;
    uint8_t add_count, remove_count;
    NnueChange add[2], remove[2];
} NnueAccumulator;

/* Parses a net file's bytes into *net (allocated; free with nnue_free). On failure returns false,
 * writes why to err and leaves *net empty. */
bool nnue_load_memory(NnueNet *net, const unsigned char *data, size_t size, char *err, size_t err_size);
/* The same from the file at path (at most a net of NNUE_HIDDEN_MAX neurons is read). */
bool nnue_load_file(NnueNet *net, const char *path, char *err, size_t err_size);
void nnue_free(NnueNet *net);
/* The size in bytes of a net file with this many hidden neurons. */
size_t nnue_file_size(int hidden);

/* The net built into the program (nets/default.nnue at build time), parsed on first use; NULL only
 * when that file is broken, which the tests rule out. */
const NnueNet *nnue_default(void);
/* SHA-256 (64 hex digits) of the built-in net's file, computed by CMake when it was embedded. */
const char *nnue_default_sha256(void);

/* The input of piece p on square s for perspective c. */
static inline int nnue_feature(SchColor perspective, SchPiece p, SchSquare s) {
    SchColor c = sch_piece_color(p);
    return (c == perspective ? 0 : 384) + (int)sch_piece_type(p) * 64 + (perspective == SCH_WHITE ? s : s ^ 56);
}

/* acc = the accumulators of pos computed from scratch. */
void nnue_refresh(const NnueNet *net, NnueAccumulator *acc, const SchPosition *pos);
/* Records in next the changes of legal move m, to be made in pos (call before sch_pos_make). */
void nnue_record_move(NnueAccumulator *next, const SchPosition *pos, SchMove m);
/* Records a null move in next: no change. */
void nnue_record_null(NnueAccumulator *next);
/* Brings stack[ply] up to date from the nearest computed entry below it (stack[0] must be computed). */
void nnue_update(const NnueNet *net, NnueAccumulator *stack, int ply);
/* The net's output for the accumulators acc (up to date) and side to move stm, not clamped. */
int nnue_output(const NnueNet *net, const NnueAccumulator *acc, SchColor stm);
/* The evaluation of pos (the position of stack[ply]) in centipawns for the side to move, clamped to
 * +-NNUE_EVAL_LIMIT; updates the stack as nnue_update. */
int nnue_evaluate(const NnueNet *net, NnueAccumulator *stack, int ply, const SchPosition *pos);
/* The same evaluation from scratch (a temporary accumulator of about 4 KB on the stack). */
int nnue_evaluate_position(const NnueNet *net, const SchPosition *pos);

/* The kernels in use: "avx2" or "scalar" (chosen on first use of a net). */
const char *nnue_kernel_name(void);
/* Tests and benchmarks: use the AVX2 kernels (false: the plain C ones); returns false, changing nothing,
 * when this CPU or build has no AVX2. */
bool nnue_set_kernel(bool avx2);

#endif
