/* Engine: the NNUE kernels in plain C (nnue_kernels.h), for x86-64-v2 and every other CPU. The loops
 * are simple enough for the compiler to vectorise them with what the target has (SSE4.2 on
 * x86-64-v2). In the WebAssembly build with SIMD128 the output loop is written with its intrinsics:
 * i32x4.dot_i16x8_s is the madd the AVX2 kernel uses. */
#include "nnue_kernels.h"

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

/* Any number of rows: one pass each. */
static void update_passes(int16_t *out, const int16_t *in, const int16_t *const *add, int add_count,
                          const int16_t *const *remove, int remove_count, int n) {
    if (out != in)
        for (int i = 0; i < n; i++)
            out[i] = in[i];
    for (int k = 0; k < add_count; k++) {
        const int16_t *row = add[k];
        for (int i = 0; i < n; i++)
            out[i] = (int16_t)(out[i] + row[i]);
    }
    for (int k = 0; k < remove_count; k++) {
        const int16_t *row = remove[k];
        for (int i = 0; i < n; i++)
            out[i] = (int16_t)(out[i] - row[i]);
    }
}

/* A quiet move (one row in, one out) and a capture (one in, two out) in one pass over the neurons,
 * which the compiler vectorises. */
static void update_portable(int16_t *out, const int16_t *in, const int16_t *const *add, int add_count,
                            const int16_t *const *remove, int remove_count, int n) {
    if (add_count == 1 && remove_count == 1)
        for (int i = 0; i < n; i++)
            out[i] = (int16_t)(in[i] + add[0][i] - remove[0][i]);
    else if (add_count == 1 && remove_count == 2)
        for (int i = 0; i < n; i++)
            out[i] = (int16_t)(in[i] + add[0][i] - remove[0][i] - remove[1][i]);
    else /* castling, a null move, a refresh */
        update_passes(out, in, add, add_count, remove, remove_count, n);
}

#if defined(__wasm_simd128__)
/* One int32 lane sums n / 4 products of at most 255 * 255 * 127: below 2^31 for n <= 1024. */
static int64_t screlu_dot_portable(const int16_t *acc, const int16_t *w, int n, int qa) {
    v128_t zero = wasm_i16x8_splat(0), top = wasm_i16x8_splat((int16_t)qa), sum = wasm_i32x4_splat(0);
    for (int i = 0; i < n; i += 8) {
        v128_t v = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(acc + i), zero), top);
        v128_t vw = wasm_i16x8_mul(v, wasm_v128_load(w + i)); /* |v * w| <= 255 * 127: fits */
        sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(vw, v));
    }
    return (int64_t)wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) +
           wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
}
#else
static int64_t screlu_dot_portable(const int16_t *acc, const int16_t *w, int n, int qa) {
    /* Sixteen int32 sums side by side, as a vector unit holds them (the compiler makes it one); each
     * sums n / 16 products of at most 255 * 255 * 127: below 2^31 for n <= 1024. */
    int32_t lanes[16] = {0};
    for (int block = 0; block < n; block += 16)
        for (int i = 0; i < 16; i++) {
            int a = acc[block + i], v = a < 0 ? 0 : a > qa ? qa : a;
            lanes[i] += v * v * w[block + i];
        }
    int64_t total = 0;
    for (int i = 0; i < 16; i++)
        total += lanes[i];
    return total;
}
#endif

const NnueKernels nnue_kernels_portable = {
#if defined(__wasm_simd128__)
    "simd128",
#else
    "scalar",
#endif
    update_portable, screlu_dot_portable};
