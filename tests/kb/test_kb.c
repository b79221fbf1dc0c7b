/* The knowledge layer's answers, each checked against the row of data/ it
 * comes from (the values below are copied from those rows). */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "kb/kb.h"

static void driver_minimums(void **state)
{
    char out[TD_KB_STR];
    const char *src = NULL;
    assert_string_equal(td_kb_cuda_min_driver("12.1", "linux", out, sizeof out, &src), "530.30.02");
    assert_non_null(strstr(src, "Table 3"));
    /* 12.4 GA 550.54.14, Update 1 550.54.15: the series needs the newest. */
    assert_string_equal(td_kb_cuda_min_driver("12.4", "linux", out, sizeof out, NULL), "550.54.15");
    assert_string_equal(td_kb_cuda_min_driver("12.4.0", "linux", out, sizeof out, NULL),
                        "550.54.14");
    assert_string_equal(td_kb_cuda_min_driver("11.8", "windows", out, sizeof out, NULL), "520.06");
    /* Windows 13.x prints N/A: the family floor (branch 580). */
    assert_string_equal(td_kb_cuda_min_driver("13.0", "windows", out, sizeof out, NULL), "580");
    assert_null(td_kb_cuda_min_driver("99.1", "linux", out, sizeof out, NULL));
    assert_null(td_kb_cuda_min_driver(NULL, "linux", out, sizeof out, NULL));
}

static void minor_compat_floors(void **state)
{
    char out[TD_KB_STR];
    assert_string_equal(td_kb_cuda_compat_floor("12.8", "linux", out, sizeof out, NULL),
                        "525.60.13");
    assert_string_equal(td_kb_cuda_compat_floor("12.1", "windows", out, sizeof out, NULL),
                        "527.41");
    assert_string_equal(td_kb_cuda_compat_floor("11.8", "linux", out, sizeof out, NULL),
                        "450.80.02");
    assert_string_equal(td_kb_cuda_compat_floor("11.0", "linux", out, sizeof out, NULL),
                        "450.36.06");
    assert_string_equal(td_kb_cuda_compat_floor("13.2", "linux", out, sizeof out, NULL),
                        "580.65.06");
    assert_string_equal(td_kb_cuda_compat_floor("13.0", "windows", out, sizeof out, NULL), "580");
    assert_null(td_kb_cuda_compat_floor("10.2", "linux", out, sizeof out, NULL)); /* no MVC */
}

static void driver_max_cuda(void **state)
{
    char out[TD_KB_STR];
    assert_string_equal(td_kb_driver_max_cuda("550.54.14", "linux", out, sizeof out), "12.4");
    assert_string_equal(td_kb_driver_max_cuda("550.54.13", "linux", out, sizeof out), "12.3");
    assert_string_equal(td_kb_driver_max_cuda("595.71.05", "linux", out, sizeof out), "13.2");
    assert_string_equal(td_kb_driver_max_cuda("576.02", "windows", out, sizeof out), "12.9");
    assert_null(td_kb_driver_max_cuda("300.1", "linux", out, sizeof out));
    assert_string_equal(td_kb_cuda_from_int(12040, out, sizeof out), "12.4");
    assert_string_equal(td_kb_cuda_from_int(11080, out, sizeof out), "11.8");
    assert_null(td_kb_cuda_from_int(0, out, sizeof out));
}

static void python_ranges(void **state)
{
    char lo[TD_KB_STR], hi[TD_KB_STR];
    assert_true(td_kb_torch_python_range("2.5.1", lo, hi));
    assert_string_equal(lo, "3.9");
    assert_string_equal(hi, "3.12");
    assert_false(td_kb_torch_python_range("0.4", lo, hi));
    assert_true(td_kb_torch_python_ok("2.5", "3.12.3"));
    assert_true(td_kb_torch_python_ok("2.5", "3.13")); /* "3.13 experimental" */
    assert_false(td_kb_torch_python_ok("2.5", "3.8"));
    assert_true(td_kb_torch_python_ok("2.6", "3.13t"));
    assert_false(td_kb_torch_python_ok("2.9", "3.13t"));
    assert_false(td_kb_torch_python_ok("2.4", "3.13"));
    assert_true(td_kb_torch_python_ok("2.10", "3.10"));
}

static void companions(void **state)
{
    char out[TD_KB_STR];
    assert_string_equal(td_kb_companion_version("2.5", "torchvision", out, sizeof out), "0.20");
    assert_string_equal(td_kb_companion_version("2.10.1", "torchvision", out, sizeof out), "0.25");
    assert_string_equal(td_kb_companion_version("2.4", "torchaudio", out, sizeof out), "2.4.1");
    assert_string_equal(td_kb_companion_version("2.4.0", "torchaudio", out, sizeof out), "2.4.0");
    assert_string_equal(td_kb_companion_version("2.0.0", "torchaudio", out, sizeof out), "2.0.1");
    assert_string_equal(td_kb_companion_version("2.13", "torchaudio", out, sizeof out), "2.11.0");
    assert_null(td_kb_companion_version("2.14", "torchvision", out, sizeof out));
    assert_string_equal(td_kb_companion_spec("2.5", "torchvision", out, sizeof out), "==0.20.*");
    assert_string_equal(td_kb_companion_spec("2.7", "torchaudio", out, sizeof out), "==2.7.1");
    assert_string_equal(td_kb_companion_spec("2.12", "torchaudio", out, sizeof out), ">=2.11.0");
}

static void builds_and_pip(void **state)
{
    struct td_kb_build b[64];
    struct td_kb_query q = {.torch = "2.5"};
    assert_int_equal(td_kb_builds(&q, b, 64), 3);
    assert_string_equal(b[0].variant, "cu124");
    assert_string_equal(b[2].variant, "cu118");
    assert_string_equal(b[0].index_url, "https://download.pytorch.org/whl/cu124");
    assert_string_equal(b[0].torchvision, "0.20");
    char pip[512];
    assert_string_equal(td_kb_pip_command(&b[1], "3.11", pip, sizeof pip),
                        "python3.11 -m pip install \"torch==2.5.*\" \"torchvision==0.20.*\" "
                        "\"torchaudio==2.5.*\" --index-url https://download.pytorch.org/whl/cu121");
    /* check's fixes name only the companions that are installed. */
    assert_string_equal(td_kb_pip_command_with(&b[1], "3.11", true, false, pip, sizeof pip),
                        "python3.11 -m pip install \"torch==2.5.*\" \"torchvision==0.20.*\" "
                        "--index-url https://download.pytorch.org/whl/cu121");
    assert_string_equal(td_kb_pip_command_with(&b[1], "3.11", false, false, pip, sizeof pip),
                        "python3.11 -m pip install \"torch==2.5.*\" "
                        "--index-url https://download.pytorch.org/whl/cu121");

    /* 535 runs cu121 fully, cu124 only above the 12.x floor. */
    q = (struct td_kb_query){.torch = "2.5", .driver = "535.104.05"};
    assert_int_equal(td_kb_builds(&q, b, 64), 2);
    assert_string_equal(b[0].variant, "cu121");
    q.allow_minor_compat = true;
    assert_int_equal(td_kb_builds(&q, b, 64), 3);
    assert_true(b[0].minor_compat);
    assert_false(b[1].minor_compat);
    assert_string_equal(b[0].driver_floor, "525.60.13");

    /* An RTX 5090 (12.0): 2.14's cu126 has no 12.0 kernels, cu130/132 do. */
    q = (struct td_kb_query){.torch = "2.14", .cc_major = 12, .cc_minor = 0};
    assert_int_equal(td_kb_builds(&q, b, 64), 2);
    assert_string_equal(b[0].variant, "cu132");
    assert_int_equal(b[0].arch, TD_KB_ARCH_SASS);

    q = (struct td_kb_query){.cuda = "cpu", .torch = "2.9"};
    assert_int_equal(td_kb_builds(&q, b, 64), 1);
    assert_string_equal(b[0].index_url, "https://download.pytorch.org/whl/cpu");
    q = (struct td_kb_query){.torch = "2.5", .python = "3.8"};
    assert_int_equal(td_kb_builds(&q, NULL, 0), 0);
}

/* The one CUDA-line pick: the newest line whose arch list has the GPU and
 * whose driver minimum (the major's floor, cubins serving the GPU) the
 * driver meets. */
static void pick(void **state)
{
    struct td_kb_build b;
    struct td_kb_query t4 = {.torch = "2.14", .driver = "580.65.06", .cc_major = 7, .cc_minor = 5};
    assert_true(td_kb_pick_build(&t4, &b));
    assert_string_equal(b.variant, "cu132"); /* not cu126, whose full minimum 580 also meets */
    assert_true(b.minor_compat);
    t4.driver = "570.86.10"; /* under the 13.x floor */
    assert_true(td_kb_pick_build(&t4, &b));
    assert_string_equal(b.variant, "cu126");
    /* sm_120 on 570.86.10 (under 12.8.1's 570.124.06): 2.11's cu128 cubins. */
    struct td_kb_query blackwell = {.driver = "570.86.10", .cc_major = 12, .cc_minor = 0};
    assert_true(td_kb_pick_build(&blackwell, &b));
    assert_string_equal(b.torch, "2.11");
    assert_string_equal(b.variant, "cu128");
    blackwell.torch = "2.5"; /* no 2.5 build lists 12.0 */
    assert_false(td_kb_pick_build(&blackwell, &b));
}

static void gpus(void **state)
{
    int ma = 0, mi = 0;
    assert_true(td_kb_gpu_cc("NVIDIA GeForce RTX 4070 Ti SUPER", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 89);
    assert_true(td_kb_gpu_cc("Tesla T4", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 75);
    assert_true(td_kb_gpu_cc("RTX 5090", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 120);
    assert_true(td_kb_gpu_cc("NVIDIA A100-SXM4-40GB", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 80);
    assert_true(td_kb_gpu_cc("NVIDIA H100 80GB HBM3", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 90);
    assert_false(td_kb_gpu_cc("Voodoo 3", &ma, &mi));
    assert_true(td_kb_parse_cc("sm_120", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 120);
    assert_true(td_kb_parse_cc("8.6", &ma, &mi));
    assert_int_equal(ma * 10 + mi, 86);
    assert_false(td_kb_parse_cc("RTX", &ma, &mi));
}

static void arches(void **state)
{
    const char *sm86[] = {"sm_86"}, *sm80[] = {"sm_80"}, *ptx90[] = {"compute_90"};
    const char *sm90a[] = {"sm_90a"}, *plus[] = {"8.0+PTX"};
    assert_int_equal(td_kb_arch_fit(sm86, 1, 8, 9), TD_KB_ARCH_SASS);
    assert_int_equal(td_kb_arch_fit(sm86, 1, 8, 0), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(sm80, 1, 9, 0), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(ptx90, 1, 12, 0), TD_KB_ARCH_PTX);
    assert_int_equal(td_kb_arch_fit(ptx90, 1, 8, 9), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(sm90a, 1, 9, 0), TD_KB_ARCH_SASS);
    assert_int_equal(td_kb_arch_fit(sm90a, 1, 10, 0), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(plus, 1, 9, 0), TD_KB_ARCH_PTX);
    assert_true(td_kb_arch_runs(plus, 1, 8, 6));
    assert_false(td_kb_arch_runs(sm80, 1, 7, 5));
    /* Family-specific: the same major, a minor not below (10.0 and 10.3). */
    const char *sm100f[] = {"sm_100f"}, *ptx100a[] = {"compute_100a"},
               *ptx100f[] = {"compute_100f"};
    assert_int_equal(td_kb_arch_fit(sm100f, 1, 10, 3), TD_KB_ARCH_SASS);
    assert_int_equal(td_kb_arch_fit(sm100f, 1, 12, 0), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(ptx100f, 1, 10, 3), TD_KB_ARCH_PTX);
    assert_int_equal(td_kb_arch_fit(ptx100f, 1, 12, 0), TD_KB_ARCH_NONE);
    assert_int_equal(td_kb_arch_fit(ptx100a, 1, 10, 0), TD_KB_ARCH_PTX);
    assert_int_equal(td_kb_arch_fit(ptx100a, 1, 10, 3), TD_KB_ARCH_NONE);
    char cuda[16];
    assert_string_equal(td_kb_ptx_isa_cuda(9, 1, cuda, sizeof cuda), "13.1");
    assert_string_equal(td_kb_ptx_isa_cuda(8, 6, cuda, sizeof cuda), "12.7");
    assert_null(td_kb_ptx_isa_cuda(99, 0, cuda, sizeof cuda));

    char list[32][8], ptx[8];
    size_t n = td_kb_torch_arches("2.14", "12.6", "windows", list, 32, ptx);
    assert_int_equal(n, 7);
    assert_string_equal(list[6], "9.0");
    assert_string_equal(ptx, "");
    n = td_kb_torch_arches("2.14", "13.0", "linux", list, 32, ptx);
    assert_string_equal(ptx, "12.0");
    /* Snapshot rows of 12.8 (linux): only what both have, no PTX. */
    n = td_kb_torch_arches("2.8", "12.8", "linux", list, 32, ptx);
    assert_int_equal(n, 7);
    assert_string_equal(list[0], "7.0");
    assert_string_equal(list[6], "12.0");
    assert_string_equal(ptx, "");
    assert_int_equal(td_kb_torch_arches("2.8", "12.8", "windows", list, 32, ptx), 0);
}

static void manylinux(void **state)
{
    char out[TD_KB_STR];
    assert_string_equal(td_kb_manylinux_glibc("manylinux2014_x86_64", out, sizeof out), "2.17");
    assert_string_equal(td_kb_manylinux_glibc("manylinux1_i686", out, sizeof out), "2.5");
    assert_string_equal(td_kb_manylinux_glibc("manylinux_2_28_aarch64", out, sizeof out), "2.28");
    assert_string_equal(td_kb_manylinux_glibc("manylinux_2_31_x86_64", out, sizeof out), "2.31");
    assert_string_equal(
        td_kb_manylinux_glibc("manylinux_2_28_x86_64.manylinux2014_x86_64", out, sizeof out),
        "2.17");
    assert_null(td_kb_manylinux_glibc("musllinux_1_2_x86_64", out, sizeof out));
    assert_null(td_kb_manylinux_glibc("win_amd64", out, sizeof out));
}

static void workloads(void **state)
{
    struct td_kb_workload w, all[16];
    assert_true(td_kb_workload("flux-lora", &w));
    assert_true(w.vram_min_gb == 24.0);
    assert_non_null(strstr(w.source, "ostris/ai-toolkit"));
    assert_true(td_kb_workload("sdxl-lora", &w));
    assert_true(w.vram_min_gb == 8.0 && w.vram_rec_gb == 10.0);
    assert_true(td_kb_workload("flux-lora-lowvram", &w));
    assert_true(w.ram_min_gb == 50.0);
    assert_false(td_kb_workload("sd15-lora", &w)); /* no sourced number */
    assert_int_equal(td_kb_workloads(all, 16), 5);
    assert_string_equal(all[0].slug, "flux-lora");
}

/* Runs the env check and returns the findings' count; *KIND_SEV gets the
 * first one's severity. */
static size_t env(const char *name, const char *value, const char *os, const char *cuda,
                  enum td_severity *sev, char *fix, size_t cap)
{
    struct td_findings f = {0};
    td_kb_check_env(name, value, os, cuda, &f);
    size_t n = f.count;
    if (n) {
        assert_string_equal(f.items[0].kind, "env_var_invalid");
        *sev = f.items[0].severity;
        snprintf(fix, cap, "%s", f.items[0].fix ? f.items[0].fix : "");
    }
    td_findings_free(&f);
    return n;
}

static void environment(void **state)
{
    enum td_severity s;
    char fix[512];
    assert_int_equal(env("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:True", "linux", NULL, &s,
                         fix, sizeof fix),
                     0);
    assert_int_equal(env("PYTORCH_CUDA_ALLOC_CONF",
                         "max_split_size_mb:128, garbage_collection_threshold:0.6,"
                         "roundup_power2_divisions:[256:1,512:2,>:4],backend:native",
                         "linux", NULL, &s, fix, sizeof fix),
                     0);
    assert_int_equal(env("PYTORCH_CUDA_ALLOC_CONF", "expandable_segments:true", "linux", NULL, &s,
                         fix, sizeof fix),
                     1);
    assert_int_equal(s, TD_SEV_ERROR);
    assert_string_equal(fix, "export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True   (keep "
                             "only keys the allocator knows)");
    assert_int_equal(
        env("PYTORCH_CUDA_ALLOC_CONF", "max_split_size_mb:20", "linux", NULL, &s, fix, sizeof fix),
        1);
    assert_int_equal(
        env("PYTORCH_ALLOC_CONF", "garbage_collection:0.5", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("CUDA_VISIBLE_DEVICES", "0,1", "linux", NULL, &s, fix, sizeof fix), 0);
    assert_int_equal(env("CUDA_VISIBLE_DEVICES", "GPU-8932f937-d72c-4106-c12f-20bd9faed9f6",
                         "linux", NULL, &s, fix, sizeof fix),
                     0);
    assert_int_equal(env("CUDA_VISIBLE_DEVICES", "-1", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("CUDA_VISIBLE_DEVICES", "", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_string_equal(fix, "unset CUDA_VISIBLE_DEVICES   (or list the GPUs to use: export "
                             "CUDA_VISIBLE_DEVICES=0)");
    assert_int_equal(env("OMP_NUM_THREADS", "4", "linux", NULL, &s, fix, sizeof fix), 0);
    assert_int_equal(env("OMP_NUM_THREADS", "0", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("OMP_NUM_THREADS", "auto", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("PYTORCH_ENABLE_MPS_FALLBACK", "1", "windows", NULL, &s, fix, sizeof fix),
                     1);
    assert_string_equal(fix, "set PYTORCH_ENABLE_MPS_FALLBACK=");
    assert_int_equal(env("PYTORCH_ENABLE_MPS_FALLBACK", "1", "macos", NULL, &s, fix, sizeof fix),
                     0);
    assert_int_equal(env("KMP_DUPLICATE_LIB_OK", "TRUE", "windows", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(s, TD_SEV_WARNING);
    assert_int_equal(env("KMP_DUPLICATE_LIB_OK", "FALSE", "windows", NULL, &s, fix, sizeof fix), 0);
    assert_int_equal(env("CUDA_LAUNCH_BLOCKING", "1", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("LD_LIBRARY_PATH", "/opt/x/lib:/usr/local/cuda-11.8/lib64", "linux",
                         "12.1", &s, fix, sizeof fix),
                     1);
    assert_string_equal(fix, "remove /usr/local/cuda-11.8/lib64 from LD_LIBRARY_PATH (export "
                             "LD_LIBRARY_PATH=<the other entries>)");
    assert_int_equal(
        env("LD_LIBRARY_PATH", "/usr/local/cuda-12.1/lib64", "linux", "12.1", &s, fix, sizeof fix),
        0);
    assert_int_equal(
        env("LD_LIBRARY_PATH", "/usr/local/cuda-11.8/lib64", "linux", NULL, &s, fix, sizeof fix),
        0);
    assert_int_equal(env("CUDA_PATH",
                         "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8", "windows",
                         "12.4", &s, fix, sizeof fix),
                     1);
    assert_int_equal(env("CUDA_HOME", "/usr/local/cuda-12.8", "linux", "12.4", &s, fix, sizeof fix),
                     0); /* same major */
    assert_int_equal(
        env("TORCH_CUDA_ARCH_LIST", "8.6;8.9+PTX Ampere", "linux", NULL, &s, fix, sizeof fix), 0);
    assert_int_equal(env("TORCH_CUDA_ARCH_LIST", "sm_86", "linux", NULL, &s, fix, sizeof fix), 1);
    assert_int_equal(env("HOME", "/root", "linux", NULL, &s, fix, sizeof fix), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(driver_minimums),
        cmocka_unit_test(minor_compat_floors),
        cmocka_unit_test(driver_max_cuda),
        cmocka_unit_test(python_ranges),
        cmocka_unit_test(companions),
        cmocka_unit_test(builds_and_pip),
        cmocka_unit_test(pick),
        cmocka_unit_test(gpus),
        cmocka_unit_test(arches),
        cmocka_unit_test(manylinux),
        cmocka_unit_test(workloads),
        cmocka_unit_test(environment),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
