/* The FMA kernel bench ships as PTX text (gpu_bench_ask.c) assembles with
 * the CUDA toolkit's ptxas for sm_80 (Ampere) and sm_90 (Hopper), as the
 * driver's JIT must. Skipped, and said so, where ptxas is absent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

#include "probe/gpu/gpu_ask.h"

static const char ptxas[] = "/usr/local/cuda/bin/ptxas";

static void assemble(const char *arch)
{
    char dir[] = "/tmp/td_ptx_XXXXXX", cmd[512], path[256];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/fma.ptx", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(td_gpu_fma_ptx, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s -arch=%s -o %s/fma.cubin %s 2>&1", ptxas, arch, dir, path);
    int rc = system(cmd);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        printf("could not remove %s\n", dir);
    if (rc != 0)
        fail_msg("ptxas -arch=%s rejected the kernel (status %d)", arch, rc);
    printf("ptxas -arch=%s: assembled\n", arch);
}

static void test_kernel_assembles_for_ampere_and_hopper(void **state)
{
    (void)state;
    if (access(ptxas, X_OK) != 0) {
        printf("skipped: %s is absent (no CUDA toolkit here)\n", ptxas);
        skip();
    }
    assemble("sm_80");
    assemble("sm_90");
}

static void test_kernel_is_the_one_bench_launches(void **state)
{
    (void)state;
    assert_non_null(strstr(td_gpu_fma_ptx, ".visible .entry td_fma("));
    assert_non_null(strstr(td_gpu_fma_ptx, "fma.rn.f32"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kernel_assembles_for_ampere_and_hopper),
        cmocka_unit_test(test_kernel_is_the_one_bench_launches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
