/* Engine: the NNUE's two hot loops (nnue.h), in a portable build and, on x86-64, an AVX2 build that
 * nnue.c chooses at run time. Both compute exactly the same integers. */
#ifndef SCHACH_ENGINE_NNUE_KERNELS_H
#define SCHACH_ENGINE_NNUE_KERNELS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct NnueKernels {
    const char *name;
    /* out[i] = in[i] + the add rows' [i] - the remove rows' [i], for i < n (a multiple of 16), with
     * int16 wrap-around (a trained net stays far from it). out may be in. */
    void (*update)(int16_t *out, const int16_t *in, const int16_t *const *add, int add_count,
                   const int16_t *const *remove, int remove_count, int n);
    /* Exactly the sum over i < n of clamp(acc[i], 0, qa)^2 * w[i], for n <= 1024 (a multiple of 16),
     * qa <= 255 and |w[i]| <= 127. */
    int64_t (*screlu_dot)(const int16_t *acc, const int16_t *w, int n, int qa);
} NnueKernels;

/* Plain C; with WebAssembly SIMD128 (clang -msimd128) its output loop uses that. */
extern const NnueKernels nnue_kernels_portable;
/* Whether this build has the AVX2 kernels and this CPU (and its operating system) runs them. */
bool nnue_cpu_has_avx2(void);
/* Only where nnue_cpu_has_avx2() says so. */
extern const NnueKernels nnue_kernels_avx2;

#endif
