/* bench's own FP32 GEMM: a small blocked kernel in the Goto/BLIS shape
 * (pack a K-block of B into column strips, an M-block of A into row strips,
 * multiply strip by strip into an MR x NR register tile), one microkernel
 * per vector ISA, chosen at run time from cpuid. It exists to measure what
 * the FMA units deliver, not to rival a tuned BLAS. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "probe/probe.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define TD_X86 1
#endif

enum {
    MR = 6,      /* rows of the register tile */
    NR_MAX = 32, /* columns of the widest tile (2 x 16 floats) */
    KC = 256,    /* the K-block: a B strip (KC x NR) stays in L1 */
    MC = 96,     /* the M-block: packed A (MC x KC) stays in L2 */
    NC = 2048,   /* the N-block: packed B (KC x NC) in L2/L3 */
    ALIGN = 64,
};

typedef void (*microkernel)(size_t kc, const float *a, const float *b, float *tile);

/* The tile is always MR x NR floats, NR = 2 vectors. */
static void kern_scalar(size_t kc, const float *a, const float *b, float *t)
{
    float c[MR][8] = {{0}};
    for (size_t p = 0; p < kc; p++, a += MR, b += 8)
        for (int i = 0; i < MR; i++)
            for (int j = 0; j < 8; j++)
                c[i][j] += a[i] * b[j];
    memcpy(t, c, sizeof c);
}

#ifdef TD_X86
__attribute__((target("sse2"))) static void kern_sse(size_t kc, const float *a, const float *b,
                                                     float *t)
{
    __m128 c[MR][2];
    for (int i = 0; i < MR; i++)
        c[i][0] = c[i][1] = _mm_setzero_ps();
    for (size_t p = 0; p < kc; p++, a += MR, b += 8) {
        __m128 b0 = _mm_loadu_ps(b), b1 = _mm_loadu_ps(b + 4);
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            __m128 ai = _mm_set1_ps(a[i]);
            c[i][0] = _mm_add_ps(c[i][0], _mm_mul_ps(ai, b0));
            c[i][1] = _mm_add_ps(c[i][1], _mm_mul_ps(ai, b1));
        }
    }
    for (int i = 0; i < MR; i++) {
        _mm_storeu_ps(t + i * 8, c[i][0]);
        _mm_storeu_ps(t + i * 8 + 4, c[i][1]);
    }
}

__attribute__((target("avx2,fma"))) static void kern_avx2(size_t kc, const float *a, const float *b,
                                                          float *t)
{
    __m256 c[MR][2];
    for (int i = 0; i < MR; i++)
        c[i][0] = c[i][1] = _mm256_setzero_ps();
    for (size_t p = 0; p < kc; p++, a += MR, b += 16) {
        __m256 b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + 8);
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            __m256 ai = _mm256_broadcast_ss(a + i);
            c[i][0] = _mm256_fmadd_ps(ai, b0, c[i][0]);
            c[i][1] = _mm256_fmadd_ps(ai, b1, c[i][1]);
        }
    }
    for (int i = 0; i < MR; i++) {
        _mm256_storeu_ps(t + i * 16, c[i][0]);
        _mm256_storeu_ps(t + i * 16 + 8, c[i][1]);
    }
}

__attribute__((target("avx512f"))) static void kern_avx512(size_t kc, const float *a,
                                                           const float *b, float *t)
{
    __m512 c[MR][2];
    for (int i = 0; i < MR; i++)
        c[i][0] = c[i][1] = _mm512_setzero_ps();
    for (size_t p = 0; p < kc; p++, a += MR, b += 32) {
        __m512 b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + 16);
#pragma GCC unroll 6
        for (int i = 0; i < MR; i++) {
            __m512 ai = _mm512_set1_ps(a[i]);
            c[i][0] = _mm512_fmadd_ps(ai, b0, c[i][0]);
            c[i][1] = _mm512_fmadd_ps(ai, b1, c[i][1]);
        }
    }
    for (int i = 0; i < MR; i++) {
        _mm512_storeu_ps(t + i * 32, c[i][0]);
        _mm512_storeu_ps(t + i * 32 + 16, c[i][1]);
    }
}
#endif

static const struct {
    const char *name;
    int bits;
    int nr;
    enum td_cpu_feature needs[2]; /* TD_CPU_FEATURE_COUNT: nothing */
    microkernel kern;
} isas[TD_GEMM_ISA_COUNT] = {
    [TD_GEMM_SCALAR] = {"scalar", 32, 8, {TD_CPU_FEATURE_COUNT, TD_CPU_FEATURE_COUNT}, kern_scalar},
#ifdef TD_X86
    /* SSE2 is part of x86-64 itself. */
    [TD_GEMM_SSE] = {"sse", 128, 8, {TD_CPU_FEATURE_COUNT, TD_CPU_FEATURE_COUNT}, kern_sse},
    [TD_GEMM_AVX2] = {"avx2+fma", 256, 16, {TD_CPU_AVX2, TD_CPU_FMA}, kern_avx2},
    [TD_GEMM_AVX512] = {"avx512f", 512, 32, {TD_CPU_AVX512F, TD_CPU_FEATURE_COUNT}, kern_avx512},
#else
    [TD_GEMM_SSE] = {"sse", 128, 8, {TD_CPU_FEATURE_COUNT, TD_CPU_FEATURE_COUNT}, NULL},
    [TD_GEMM_AVX2] = {"avx2+fma", 256, 16, {TD_CPU_FEATURE_COUNT, TD_CPU_FEATURE_COUNT}, NULL},
    [TD_GEMM_AVX512] = {"avx512f", 512, 32, {TD_CPU_FEATURE_COUNT, TD_CPU_FEATURE_COUNT}, NULL},
#endif
};

const char *td_gemm_isa_name(enum td_gemm_isa isa)
{
    return (unsigned)isa < TD_GEMM_ISA_COUNT ? isas[isa].name : "unknown";
}

int td_gemm_isa_bits(enum td_gemm_isa isa)
{
    return (unsigned)isa < TD_GEMM_ISA_COUNT ? isas[isa].bits : 0;
}

/* The features the CPU probe reads (cpuid, with the OS's XCR0 state). */
static uint64_t cpu_features(void)
{
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena};
    struct td_cpu cpu;
    td_probe_cpu(&ctx, &cpu);
    td_arena_free(&arena);
    return cpu.features;
}

bool td_gemm_isa_usable(enum td_gemm_isa isa)
{
    if ((unsigned)isa >= TD_GEMM_ISA_COUNT || !isas[isa].kern)
        return false;
    uint64_t have = cpu_features();
    for (int i = 0; i < 2; i++) {
        enum td_cpu_feature f = isas[isa].needs[i];
        if (f != TD_CPU_FEATURE_COUNT && !(have >> f & 1))
            return false;
    }
    return true;
}

enum td_gemm_isa td_gemm_best_isa(void)
{
    for (int isa = TD_GEMM_ISA_COUNT - 1; isa > TD_GEMM_SCALAR; isa--)
        if (td_gemm_isa_usable((enum td_gemm_isa)isa))
            return (enum td_gemm_isa)isa;
    return TD_GEMM_SCALAR;
}

/* A 64-byte aligned block; *RAW is what free() takes. */
static float *aligned_floats(size_t n, void **raw)
{
    *raw = malloc(n * sizeof(float) + ALIGN);
    if (!*raw)
        return NULL;
    uintptr_t p = ((uintptr_t)*raw + ALIGN - 1) & ~(uintptr_t)(ALIGN - 1);
    return (float *)p;
}

/* Rows I0.. (MC at most) x columns P0.. (KC at most) of A as MR-row strips,
 * column by column, zero-padded past the matrix. */
static void pack_a(const float *a, size_t lda, size_t m, size_t i0, size_t mc, size_t p0, size_t kc,
                   float *out)
{
    for (size_t s = 0; s < mc; s += MR)
        for (size_t p = 0; p < kc; p++)
            for (size_t r = 0; r < MR; r++) {
                size_t row = i0 + s + r;
                *out++ = row < m && s + r < mc ? a[row * lda + p0 + p] : 0.0f;
            }
}

/* Rows P0.. x columns J0.. (NC at most) of B as NR-column strips. */
static void pack_b(const float *b, size_t ldb, size_t n, size_t p0, size_t kc, size_t j0, size_t nc,
                   size_t nr, float *out)
{
    for (size_t t = 0; t < nc; t += nr)
        for (size_t p = 0; p < kc; p++)
            for (size_t c = 0; c < nr; c++) {
                size_t col = j0 + t + c;
                *out++ = col < n && t + c < nc ? b[(p0 + p) * ldb + col] : 0.0f;
            }
}

/* Adds the valid ROWS x COLS corner of TILE (MR x NR) into C. */
static void add_tile(const float *tile, size_t nr, float *c, size_t ldc, size_t rows, size_t cols)
{
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < cols; j++)
            c[i * ldc + j] += tile[i * nr + j];
}

static size_t min_size(size_t a, size_t b)
{
    return a < b ? a : b;
}

static size_t round_up(size_t v, size_t to)
{
    return (v + to - 1) / to * to;
}

bool td_gemm_f32(enum td_gemm_isa isa, size_t m, size_t n, size_t k, const float *a, const float *b,
                 float *c)
{
    if (!td_gemm_isa_usable(isa) && isa != TD_GEMM_SCALAR)
        return false;
    microkernel kern = isas[isa].kern;
    size_t nr = (size_t)isas[isa].nr;
    void *raw_a, *raw_b;
    float *pa = aligned_floats((size_t)MC * KC, &raw_a);
    float *pb = aligned_floats((size_t)KC * round_up(NC, nr), &raw_b);
    float tile[MR * NR_MAX];
    bool ok = pa && pb;
    memset(c, 0, m * n * sizeof *c);
    for (size_t j0 = 0; ok && j0 < n; j0 += NC) {
        size_t nc = min_size(NC, n - j0);
        for (size_t p0 = 0; p0 < k; p0 += KC) {
            size_t kc = min_size(KC, k - p0);
            pack_b(b, n, n, p0, kc, j0, nc, nr, pb);
            for (size_t i0 = 0; i0 < m; i0 += MC) {
                size_t mc = min_size(MC, m - i0);
                pack_a(a, k, m, i0, mc, p0, kc, pa);
                for (size_t t = 0; t < nc; t += nr)
                    for (size_t s = 0; s < mc; s += MR) {
                        kern(kc, pa + s * kc, pb + t * kc, tile);
                        add_tile(tile, nr, c + (i0 + s) * n + j0 + t, n, min_size(MR, mc - s),
                                 min_size(nr, nc - t));
                    }
            }
        }
    }
    free(raw_a);
    free(raw_b);
    return ok;
}
