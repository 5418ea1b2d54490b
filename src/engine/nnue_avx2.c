/* Engine: the NNUE kernels with AVX2 (nnue_kernels.h), compiled with the target attribute so that the
 * portable build (x86-64-v2) has them too; nnue.c calls them only where cpuid says the CPU and the
 * operating system support AVX2. Elsewhere (other CPUs, WebAssembly) this file is empty but for the
 * answer "no". */
#include "nnue_kernels.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

bool nnue_cpu_has_avx2(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)) || !(c & (1u << 28))) /* OSXSAVE, AVX */
        return false;
    unsigned lo, hi;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6u) != 6u) /* the operating system saves the XMM and YMM registers */
        return false;
    return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 5)); /* AVX2 */
}

#define AVX2        __attribute__((target("avx2")))
#define AVX2_INLINE __attribute__((target("avx2"), always_inline)) static inline

/* Called with constant counts and width (below), the compiler unrolls the loops: half the
 * instructions of the update. */
AVX2_INLINE void update_rows(int16_t *out, const int16_t *in, const int16_t *const *add, int add_count,
                             const int16_t *const *remove, int remove_count, int n) {
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(in + i));
        for (int k = 0; k < add_count; k++)
            v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(add[k] + i)));
        for (int k = 0; k < remove_count; k++)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(remove[k] + i)));
        _mm256_storeu_si256((__m256i *)(out + i), v);
    }
}

/* The width of the built-in net: its quiet moves and captures get unrolled loops. */
#define COMMON_WIDTH 256

AVX2 static void update_avx2(int16_t *out, const int16_t *in, const int16_t *const *add, int add_count,
                             const int16_t *const *remove, int remove_count, int n) {
    bool quiet = add_count == 1 && remove_count == 1, capture = add_count == 1 && remove_count == 2;
    if (quiet && n == COMMON_WIDTH)
        update_rows(out, in, add, 1, remove, 1, COMMON_WIDTH);
    else if (capture && n == COMMON_WIDTH)
        update_rows(out, in, add, 1, remove, 2, COMMON_WIDTH);
    else if (quiet)
        update_rows(out, in, add, 1, remove, 1, n);
    else if (capture)
        update_rows(out, in, add, 1, remove, 2, n);
    else /* castling, a null move, a refresh */
        update_rows(out, in, add, add_count, remove, remove_count, n);
}

/* The Lizard trick: v * w fits an int16 (|w| <= 127, v <= 255), so mullo gives it exactly and madd
 * with v sums two products v * w * v into an int32 lane. One lane sums n / 8 products of at most
 * 255 * 255 * 127: below 2^31 for n <= 1024. */
AVX2_INLINE int64_t screlu_dot_rows(const int16_t *acc, const int16_t *w, int n, int qa) {
    __m256i zero = _mm256_setzero_si256(), top = _mm256_set1_epi16((short)qa), sum = _mm256_setzero_si256();
    for (int i = 0; i < n; i += 16) {
        __m256i v = _mm256_min_epi16(_mm256_max_epi16(_mm256_loadu_si256((const __m256i *)(acc + i)), zero), top);
        __m256i vw = _mm256_mullo_epi16(v, _mm256_loadu_si256((const __m256i *)(w + i)));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
    }
    int32_t lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, sum);
    int64_t total = 0;
    for (int i = 0; i < 8; i++)
        total += lanes[i];
    return total;
}

AVX2 static int64_t screlu_dot_avx2(const int16_t *acc, const int16_t *w, int n, int qa) {
    return n == COMMON_WIDTH ? screlu_dot_rows(acc, w, COMMON_WIDTH, qa) : screlu_dot_rows(acc, w, n, qa);
}

const NnueKernels nnue_kernels_avx2 = {"avx2", update_avx2, screlu_dot_avx2};

#else

bool nnue_cpu_has_avx2(void) { return false; }
const NnueKernels nnue_kernels_avx2 = {"avx2", 0, 0};

#endif
