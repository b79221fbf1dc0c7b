/* bench's GEMM against a naive triple loop, for every vector ISA this CPU
 * can run (the others print that they are skipped), on sizes that are and
 * are not multiples of the register tile and of the cache blocks. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "testutil.h"

#include "bench/bench.h"

static void naive(size_t m, size_t n, size_t k, const float *a, const float *b, double *c)
{
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double s = 0;
            for (size_t p = 0; p < k; p++)
                s += (double)a[i * k + p] * b[p * n + j];
            c[i * n + j] = s;
        }
}

/* Small integers scaled by 1/8: products and sums stay well inside float precision. */
static void fill(float *x, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        x[i] = (float)((int)(seed >> 16 & 15) - 7) / 8.0f;
    }
}

static void check_size(enum td_gemm_isa isa, size_t m, size_t n, size_t k)
{
    float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b);
    float *c = malloc(m * n * sizeof *c);
    double *want = malloc(m * n * sizeof *want);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    assert_non_null(want);
    fill(a, m * k, 1);
    fill(b, k * n, 2);
    for (size_t i = 0; i < m * n; i++)
        c[i] = 1e30f; /* the GEMM overwrites C, it does not add to it */
    naive(m, n, k, a, b, want);
    assert_true(td_gemm_f32(isa, m, n, k, a, b, c));
    for (size_t i = 0; i < m * n; i++)
        if (fabs(c[i] - want[i]) > 1e-4 * (1 + fabs(want[i])))
            fail_msg("%s %zux%zux%zu: C[%zu][%zu] = %g, want %g", td_gemm_isa_name(isa), m, n, k,
                     i / n, i % n, (double)c[i], want[i]);
    free(a);
    free(b);
    free(c);
    free(want);
}

static void test_every_isa_matches_the_naive_loop(void **state)
{
    (void)state;
    static const size_t sizes[][3] = {
        {1, 1, 1}, {6, 16, 8}, {7, 33, 5}, {96, 96, 96}, {100, 70, 300}, {13, 2100, 257},
    };
    int run = 0;
    for (int isa = 0; isa < TD_GEMM_ISA_COUNT; isa++) {
        if (!td_gemm_isa_usable((enum td_gemm_isa)isa)) {
            printf("skipped: %s (this CPU or build cannot run it)\n",
                   td_gemm_isa_name((enum td_gemm_isa)isa));
            continue;
        }
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            check_size((enum td_gemm_isa)isa, sizes[s][0], sizes[s][1], sizes[s][2]);
        printf("%s: %zu sizes match the naive loop\n", td_gemm_isa_name((enum td_gemm_isa)isa),
               sizeof sizes / sizeof sizes[0]);
        run++;
    }
    assert_true(run >= 1); /* the scalar kernel always runs */
}

static void test_best_isa_is_usable(void **state)
{
    (void)state;
    enum td_gemm_isa best = td_gemm_best_isa();
    assert_true(td_gemm_isa_usable(best));
    for (int isa = best + 1; isa < TD_GEMM_ISA_COUNT; isa++)
        assert_false(td_gemm_isa_usable((enum td_gemm_isa)isa));
    printf("best ISA here: %s\n", td_gemm_isa_name(best));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_isa_matches_the_naive_loop),
        cmocka_unit_test(test_best_isa_is_usable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
