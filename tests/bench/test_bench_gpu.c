/* bench's GPU part against the stand-in driver (tests/fixtures/fake_cuda):
 * the embedded helper really runs in a child and really dlopens the fake
 * libcuda.so.1 and libnvidia-ml.so.1, whose copies and kernel launches
 * advance a virtual clock at the rates TD_FAKE_BENCH names, so every figure
 * bench derives is known. Also: the expected values from data/gpu_peaks.tsv,
 * the verdicts (a x8 link, a slow kernel), a PTX the driver refuses, and a
 * driver that crashes or hangs in cuLaunchKernel. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#include "bench/bench.h"

static void fake_env(const char *bench, const char *mode)
{
    static const char *const vars[] = {
        "TD_FAKE_CUDA_VERSION", "TD_FAKE_GPUS",       "TD_FAKE_CUDA_INIT", "TD_FAKE_CUDA_MODE",
        "TD_FAKE_BENCH",        "TD_FAKE_PTX_REJECT", "TD_FAKE_NVML_PCIE", "TD_FAKE_NVML_THROTTLE"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("LD_LIBRARY_PATH", td_fixture("fake_cuda/lib"), 1);
    setenv("TD_FAKE_NVML_DRIVER", "550.54.14", 1);
    if (bench)
        setenv("TD_FAKE_BENCH", bench, 1);
    if (mode)
        setenv("TD_FAKE_CUDA_MODE", mode, 1);
}

/* The helper's timeout is an event: time is up once it has said TIME_UP_AT
 * (NULL: never), so no test races the machine's speed. TIMEOUT_MS is only
 * what the report says. */
static void run(struct td_bench *b, struct td_arena *arena, int timeout_ms, const char *time_up_at)
{
    struct td_bench_options o = {.quick = true,
                                 .iterations = 5,
                                 .timeout_ms = timeout_ms,
                                 .time_up = td_time_up_once_said(time_up_at)};
    memset(b, 0, sizeof *b);
    b->gpu.probed = true;
    td_bench_gpu_run(&o, &b->gpu, arena);
    td_bench_verdicts(b);
}

static void assert_near(double got, double want)
{
    if (got < want * 0.999 || got > want * 1.001)
        fail_msg("got %g, want %g", got, want);
}

static size_t count_kind(const struct td_findings *f, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += strcmp(f->items[i].kind, kind) == 0;
    return n;
}

static void test_figures_are_what_the_driver_delivers(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env(NULL, NULL);
    run(&b, &arena, 20000, NULL);
    assert_null(b.gpu.status);
    assert_int_equal(b.gpu.n_gpus, 1);
    const struct td_bench_gpu *g = &b.gpu.gpus[0];
    assert_string_equal(g->name, "NVIDIA GeForce RTX 4090");
    assert_null(g->error);
    assert_near(g->h2d_pinned.value, 26);
    assert_near(g->d2h_pinned.value, 26.5);
    assert_near(g->h2d_pageable.value, 10);
    assert_near(g->d2h_pageable.value, 9);
    assert_near(g->d2d.value, 900);
    assert_near(g->fp32_fma.value, 80000);
    /* Expected: PCIe Gen4 x16 after 128b/130b, the data sheet's 1008 GB/s and 82.6 TFLOP/s. */
    assert_near(g->h2d_pinned.expected, 16 * 16 * 128.0 / 130 / 8);
    assert_near(g->d2d.expected, 1008);
    assert_near(g->fp32_fma.expected, 82600);
    assert_true(g->h2d_pageable.expected <= 0);
    assert_non_null(strstr(g->fp32_fma.source, "Ada GPU Architecture whitepaper"));
    assert_int_equal(g->pcie_gen, 4);
    assert_int_equal(g->pcie_max_width, 16);
    assert_int_equal(g->sm_mhz, 2520);
    assert_int_equal(g->temperature_c, 61);
    assert_true(g->power_limit_w > 449.9 && g->power_limit_w < 450.1);
    assert_true(g->throttle_known);
    assert_int_equal(g->ecc_errors, 0);
    assert_int_equal(g->retired_pages, 0);
    assert_string_equal(g->pci, "00000000:01:00.0");
    assert_int_equal(g->stability_iterations, 5);
    assert_int_equal(g->stability_errors, 0);
    assert_int_equal(b.findings.count, 0); /* every figure above 80% of its peak */
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_a_x8_link_and_a_slow_kernel_are_named(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env("h2d=12,d2h=12.5,fma=30000", NULL);
    setenv("TD_FAKE_NVML_PCIE", "4 8 4 16", 1);
    setenv("TD_FAKE_NVML_THROTTLE", "4", 1); /* SW power cap */
    run(&b, &arena, 20000, NULL);
    assert_int_equal(count_kind(&b.findings, "performance_below_expected"), 3);
    bool link = false, power = false;
    for (size_t i = 0; i < b.findings.count; i++) {
        const struct td_finding *f = &b.findings.items[i];
        link |= strstr(f->detail, "host to device copy (pinned)") &&
                strstr(f->detail, "Gen4 x8 under load, the GPU supports Gen4 x16");
        power |= strstr(f->detail, "FP32 FMA throughput") && strstr(f->detail, "throttling");
        assert_string_equal(f->library, "NVIDIA GeForce RTX 4090");
    }
    assert_true(link);
    assert_true(power);
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_refused_ptx_is_reported(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env(NULL, NULL);
    setenv("TD_FAKE_PTX_REJECT", "1", 1);
    run(&b, &arena, 20000, NULL);
    assert_int_equal(b.gpu.n_gpus, 1);
    assert_string_equal(b.gpu.gpus[0].error, "cuModuleLoadData returned 218");
    assert_false(b.gpu.gpus[0].fp32_fma.measured);
    assert_true(b.gpu.gpus[0].d2d.measured); /* the copies came first */
    assert_int_equal(count_kind(&b.findings, "gpu_error"), 1);
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_crash_in_launch_is_isolated(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env(NULL, "launch_crash");
    run(&b, &arena, 20000, NULL);
    assert_true(b.gpu.failed);
    assert_non_null(strstr(b.gpu.status, "SIGSEGV"));
    assert_string_equal(b.gpu.gpus[0].error,
                        "the GPU helper was killed by SIGSEGV during fp32_fma");
    assert_true(b.gpu.gpus[0].h2d_pinned.measured); /* what came before the crash is kept */
    assert_int_equal(count_kind(&b.findings, "gpu_error"), 1);
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_hang_in_launch_is_killed(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env(NULL, "launch_hang");
    /* "step 0 fp32_fma" comes just before cuLaunchKernel, which hangs. */
    run(&b, &arena, 1500, "step 0 fp32_fma\n");
    assert_true(b.gpu.failed);
    assert_non_null(strstr(b.gpu.gpus[0].error, "no answer within 1500 ms"));
    assert_non_null(strstr(b.gpu.gpus[0].error, "during fp32_fma"));
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_no_driver_is_no_error(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_bench b;
    fake_env(NULL, NULL);
    setenv("LD_LIBRARY_PATH", td_fixture("fake_cuda/cuda"), 1); /* no libcuda.so.1 there */
    run(&b, &arena, 20000, NULL);
    if (b.gpu.n_gpus) { /* this machine has a real driver on ld.so's path */
        printf("skipped: a real libcuda.so.1 answered\n");
        td_bench_free(&b);
        td_arena_free(&arena);
        skip();
    }
    assert_false(b.gpu.failed);
    assert_non_null(strstr(b.gpu.status, "not measured: no NVIDIA driver (libcuda.so.1"));
    assert_int_equal(b.findings.count, 0); /* a machine without a GPU is not a faulty one */
    td_bench_free(&b);
    td_arena_free(&arena);
}

static void test_xids_are_counted_per_gpu(void **state)
{
    (void)state;
    static const char log[] =
        "6,1234,5678,-;NVRM: Xid (PCI:0000:01:00): 79, pid=1, GPU has fallen off the bus.\n"
        "6,1235,5679,-;NVRM: Xid (PCI:0000:02:00): 13, pid=2, Graphics Exception\n"
        "6,1236,5680,-;usb 1-1: new device\n"
        "6,1237,5681,-;NVRM: Xid (PCI:0000:01:00): 31, pid=3, MMU Fault\n";
    assert_int_equal(td_bench_count_xids(log, sizeof log - 1, "00000000:01:00.0"), 2);
    assert_int_equal(td_bench_count_xids(log, sizeof log - 1, "00000000:02:00.0"), 1);
    assert_int_equal(td_bench_count_xids(log, sizeof log - 1, "00000000:03:00.0"), 0);
    assert_int_equal(td_bench_count_xids(log, sizeof log - 1, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figures_are_what_the_driver_delivers),
        cmocka_unit_test(test_a_x8_link_and_a_slow_kernel_are_named),
        cmocka_unit_test(test_refused_ptx_is_reported),
        cmocka_unit_test(test_crash_in_launch_is_isolated),
        cmocka_unit_test(test_hang_in_launch_is_killed),
        cmocka_unit_test(test_no_driver_is_no_error),
        cmocka_unit_test(test_xids_are_counted_per_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
