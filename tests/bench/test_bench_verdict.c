/* bench's arithmetic and verdicts without measuring anything: the FP32
 * peak from the FMA table (data/cpu_fma_units.tsv) and a frequency, no
 * peak (so no verdict) where the frequency or the unit count is unknown,
 * the 80% / 50% thresholds, and the BLAS finding with its fix. */
#include <string.h>

#include "testutil.h"

#include "kb/bench.h"
#include "bench/bench.h"

static void test_fma_table_knows_zen4_and_not_every_xeon(void **state)
{
    (void)state;
    struct td_kb_cpu_fma row;
    assert_true(td_kb_cpu_fma("AuthenticAMD", 25, 17, &row)); /* EPYC 9004, family 19h model 11h */
    assert_string_equal(row.uarch, "Zen 4");
    assert_int_equal(row.units, 2);
    assert_int_equal(row.bits, 256);
    assert_non_null(strstr(row.source, "57647"));
    assert_true(td_kb_cpu_fma("GenuineIntel", 6, 85, &row)); /* Skylake-SP: 1 or 2 units */
    assert_int_equal(row.units, 0);
    assert_false(td_kb_cpu_fma("GenuineIntel", 6, 1, &row));
}

static void test_gpu_rows_by_the_drivers_name(void **state)
{
    (void)state;
    struct td_kb_gpu_peak g;
    assert_true(td_kb_gpu_peak("NVIDIA H100 PCIe", &g));
    assert_string_equal(g.name, "H100 PCIe");
    assert_int_equal(g.sms, 114);
    assert_true(td_kb_gpu_peak("NVIDIA H100 80GB HBM3", &g));
    assert_int_equal(g.sms, 132);
    assert_true(g.mem_gbs == 3350);
    assert_true(td_kb_gpu_peak("NVIDIA H200 NVL", &g)); /* longest name wins over "H200" */
    assert_string_equal(g.name, "H200 NVL");
    assert_true(td_kb_gpu_peak("NVIDIA A100-SXM4-80GB", &g));
    assert_true(g.mem_gbs == 2039 && g.pcie_gen == 4);
    assert_false(td_kb_gpu_peak("NVIDIA Imaginary 9999", &g));
    /* PCIe after line encoding: Gen3 x16 15.75 GB/s, Gen2 x8 4 GB/s. */
    assert_true(td_kb_pcie_gbs(3, 16) > 15.75 && td_kb_pcie_gbs(3, 16) < 15.76);
    assert_true(td_kb_pcie_gbs(2, 8) > 3.999 && td_kb_pcie_gbs(2, 8) < 4.001);
    assert_true(td_kb_pcie_gbs(0, 16) == 0 && td_kb_pcie_gbs(4, 0) == 0);
}

static void test_peak_is_cores_clock_units_lanes_two(void **state)
{
    (void)state;
    struct td_cpu_peak p = {.mhz = 2600, .fma_units = 2, .fma_bits = 256};
    /* Zen 4 runs AVX-512 on 256-bit units: the same 32 FLOP per cycle as AVX2. */
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_AVX512, 1) > 83.19);
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_AVX512, 1) < 83.21);
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_AVX2, 2) > 166.39);
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_SSE, 1) > 20.79); /* no FMA: mul + add */
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_SSE, 1) < 20.81);
    p.fma_bits = 512; /* two full 512-bit units (Xeon Gold 6xxx) */
    assert_true(td_cpu_peak_gflops(&p, TD_GEMM_AVX512, 1) > 166.39);
    struct td_cpu_peak vm = {.mhz = 0, .fma_units = 2, .fma_bits = 256};
    assert_true(td_cpu_peak_gflops(&vm, TD_GEMM_AVX512, 2) == 0);
    struct td_cpu_peak sku = {.mhz = 3000, .fma_units = 0, .fma_bits = 512};
    assert_true(td_cpu_peak_gflops(&sku, TD_GEMM_AVX512, 2) == 0);
}

static void test_thresholds_and_unknown_peaks(void **state)
{
    (void)state;
    struct td_bench_figure f = {.measured = true,
                                .value = 79,
                                .unit = "GB/s",
                                .expected = 100,
                                .source = "s",
                                .threshold = 0.8};
    assert_true(td_bench_below(&f));
    f.value = 80;
    assert_false(td_bench_below(&f));
    struct td_bench_figure disk = {
        .measured = true, .value = 51, .expected = 100, .threshold = 0.5};
    assert_false(td_bench_below(&disk));
    disk.value = 49;
    assert_true(td_bench_below(&disk));
    struct td_bench_figure vm = {.measured = true, .value = 1, .expected = 0, .threshold = 0.8};
    assert_false(td_bench_below(&vm)); /* no expected value, no verdict */
    struct td_findings out = {0};
    td_bench_verdict(&out, &vm, "x", NULL, "cause", "fix");
    assert_int_equal(out.count, 0);
    f.value = 40;
    td_bench_verdict(&out, &f, "memory read", NULL, "the cause", "the fix");
    assert_int_equal(out.count, 1);
    assert_string_equal(out.items[0].kind, "performance_below_expected");
    assert_int_equal(out.items[0].severity, TD_SEV_WARNING);
    assert_non_null(strstr(out.items[0].detail, "memory read: 40 GB/s is 40% of the expected 100"));
    assert_non_null(strstr(out.items[0].detail, "the cause"));
    td_findings_free(&out);
}

static void test_netlib_blas_is_named_with_its_replacement(void **state)
{
    (void)state;
    struct td_bench b;
    memset(&b, 0, sizeof b);
    b.import.blas = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3.11.0";
    b.import.blas_kind = "netlib reference";
    b.import.installer = "debian";
    b.import.matmul_size = 1024;
    b.import.matmul_fp32 = (struct td_bench_figure){.measured = true,
                                                    .value = 3.7,
                                                    .unit = "GFLOP/s",
                                                    .expected = 72,
                                                    .source = "ours",
                                                    .threshold = 0.5};
    td_bench_verdicts(&b);
    assert_int_equal(b.findings.count, 1);
    const struct td_finding *f = &b.findings.items[0];
    assert_string_equal(f->library, b.import.blas);
    assert_non_null(strstr(f->detail, "netlib reference implementation"));
    assert_non_null(strstr(f->fix, "libopenblas0-pthread"));
    td_bench_free(&b);
    memset(&b, 0, sizeof b);
    b.import.installer = "conda";
    b.import.blas = "/opt/conda/lib/libblas.so.3";
    b.import.blas_kind = "netlib reference";
    b.import.matmul_fp32 = (struct td_bench_figure){.measured = true,
                                                    .value = 3.7,
                                                    .unit = "GFLOP/s",
                                                    .expected = 72,
                                                    .source = "ours",
                                                    .threshold = 0.5};
    td_bench_verdicts(&b);
    assert_int_equal(b.findings.count, 1);
    assert_non_null(strstr(b.findings.items[0].fix, "conda install"));
    td_bench_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fma_table_knows_zen4_and_not_every_xeon),
        cmocka_unit_test(test_gpu_rows_by_the_drivers_name),
        cmocka_unit_test(test_peak_is_cores_clock_units_lanes_two),
        cmocka_unit_test(test_thresholds_and_unknown_peaks),
        cmocka_unit_test(test_netlib_blas_is_named_with_its_replacement),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
