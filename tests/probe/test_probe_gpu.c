/* The GPU probe against stand-in drivers (tests/fixtures/fake_cuda.sh): the
 * embedded helper really runs in a child, really dlopens the libcuda.so.1
 * that LD_LIBRARY_PATH names, and each TD_FAKE_* setting plays one driver
 * behaviour: GPUs and versions, cuInit failures, a crash, a hang, no
 * driver, the toolkit's stub. The child inherits this process's
 * environment, so each test sets it before calling td_probe_gpu. */
#include <dlfcn.h>

#include "fakeroot.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

static char lib_dir[1024], stub_dir[1024];

static int setup(void **state)
{
    (void)state;
    snprintf(lib_dir, sizeof lib_dir, "%s", td_fixture("fake_cuda/lib"));
    snprintf(stub_dir, sizeof stub_dir, "%s", td_fixture("fake_cuda/cuda/lib64/stubs"));
    return 0;
}

static void fake_env(const char *ld_library_path)
{
    static const char *const vars[] = {"TD_FAKE_CUDA_VERSION", "TD_FAKE_GPUS",
                                       "TD_FAKE_CUDA_INIT",    "TD_FAKE_CUDA_MODE",
                                       "TD_FAKE_NVML_DRIVER",  "TD_FAKE_NVML_TOPO"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("LD_LIBRARY_PATH", ld_library_path, 1);
}

/* The helper's timeout is an event: time is up once it has said TIME_UP_AT
 * (NULL: never), so no test races the machine's speed. */
static void probe(struct td_arena *arena, const char *root, int timeout_ms, const char *time_up_at,
                  struct td_gpu_info *out)
{
    struct td_probe_ctx ctx = {.root = root,
                               .arena = arena,
                               .timeout_ms = timeout_ms,
                               .time_up = td_time_up_once_said(time_up_at)};
    assert_int_equal(td_probe_gpu(&ctx, out), 0);
}

static void test_gpus_as_the_driver_says(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_VERSION", "12080", 1);
    setenv("TD_FAKE_GPUS",
           "NVIDIA GeForce RTX 5090:12.0:34359738368;NVIDIA A100-SXM4-80GB:8.0:85899345920", 1);
    setenv("TD_FAKE_NVML_DRIVER", "570.86.10", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_OK);
    assert_null(g.status_detail);
    assert_int_equal(g.cuda_driver_version, 12080);
    assert_string_equal(g.driver_version, "570.86.10");
    assert_int_equal(g.n_gpus, 2);
    assert_int_equal(g.gpus[0].index, 0);
    assert_string_equal(g.gpus[0].name, "NVIDIA GeForce RTX 5090");
    assert_int_equal(g.gpus[0].cc_major, 12);
    assert_int_equal(g.gpus[0].cc_minor, 0);
    assert_int_equal(g.gpus[0].memory, UINT64_C(34359738368));
    assert_string_equal(g.gpus[0].pci_bus, "0000:01:00.0");
    assert_string_equal(g.gpus[0].uuid, "GPU-00010203-0405-0607-0809-0a0b0c0d0e0f");
    assert_int_equal(g.gpus[1].index, 1);
    assert_string_equal(g.gpus[1].name, "NVIDIA A100-SXM4-80GB");
    assert_int_equal(g.gpus[1].cc_major, 8);
    assert_int_equal(g.gpus[1].cc_minor, 0);
    assert_int_equal(g.gpus[1].memory, UINT64_C(85899345920));
    assert_string_equal(g.gpus[1].pci_bus, "0000:02:00.0");
    assert_string_equal(g.gpus[1].uuid, "GPU-10111213-1415-1617-1819-1a1b1c1d1e1f");
    /* The loader model takes the same file the real ld.so gave the helper. */
    char want[1100];
    snprintf(want, sizeof want, "%s/libcuda.so.1", lib_dir);
    assert_string_equal(g.libcuda, want);
    assert_string_equal(g.libcuda_via, "LD_LIBRARY_PATH");
    assert_false(g.libcuda_is_stub);
    assert_false(g.wsl_libcuda);
    assert_int_equal(g.n_links, 0); /* NVML counts one GPU: no pair, quietly */
    td_arena_free(&arena);
}

static void test_init_failure(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_INIT", "803", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_INIT_FAILED);
    assert_string_equal(g.status_detail, "cuInit returned 803 (CUDA_ERROR_SYSTEM_DRIVER_MISMATCH)");
    /* cuDriverGetVersion answers before cuInit. */
    assert_int_equal(g.cuda_driver_version, 12040);
    assert_int_equal(g.n_gpus, 0);
    assert_null(g.driver_version); /* no NVML answer, no kernel module */
    td_arena_free(&arena);
}

/* CUDA_ERROR_NO_DEVICE from cuInit, and a driver that counts no GPU. */
static void test_no_device(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_INIT", "100", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_NO_DEVICE);
    assert_string_equal(g.status_detail, "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)");

    fake_env(lib_dir);
    setenv("TD_FAKE_GPUS", "", 1);
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_NO_DEVICE);
    assert_string_equal(g.status_detail, "the driver sees no GPU (cuDeviceGetCount is 0)");
    assert_int_equal(g.n_gpus, 0);
    td_arena_free(&arena);
}

static void test_crash(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_MODE", "crash", 1);
    setenv("TD_FAKE_NVML_DRIVER", "550.54.14", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_CRASHED);
    assert_string_equal(g.status_detail, "killed by SIGSEGV");
    /* What was answered before the crash is kept. */
    assert_string_equal(g.driver_version, "550.54.14");
    assert_int_equal(g.cuda_driver_version, 12040);
    td_arena_free(&arena);
}

static void test_hang(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_MODE", "hang", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 300, "cuda_driver 12040\n", &g); /* then cuInit hangs */
    assert_int_equal(g.status, TD_GPU_TIMEOUT);
    assert_string_equal(g.status_detail, "no answer within 300 ms; the helper was killed");
    assert_int_equal(g.cuda_driver_version, 12040);
    td_arena_free(&arena);
}

static void test_no_driver(void **state)
{
    (void)state;
    /* The helper runs on this machine: where a real driver is installed,
     * there is no "no driver" to see. */
    void *real = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (real) {
        dlclose(real);
        skip();
    }
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_dir(&r, "empty");
    fake_env("/nonexistent-td-dir");
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, r.dir, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_NO_DRIVER);
    assert_non_null(g.status_detail);
    /* Nothing to ask a driver: the child is not even started. */
    assert_non_null(strstr(g.status_detail, "no libcuda.so.1 where the loader looks"));
    assert_null(g.libcuda);
    assert_null(g.kernel_driver);
    assert_null(g.driver_version);
    assert_int_equal(g.n_dev_nodes, 0);

    /* The kernel module is there but its user-space library is not. */
    fakeroot_write(&r, "proc/driver/nvidia/version",
                   "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 "
                   "01:15:15 UTC 2023\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n",
                   0);
    probe(&arena, r.dir, 0, NULL, &g);
    assert_int_equal(g.status, TD_GPU_NO_DRIVER);
    assert_string_equal(g.kernel_driver, "535.104.05");
    assert_string_equal(g.driver_version, "535.104.05");
    assert_non_null(strstr(g.status_detail, "(the kernel module 535.104.05 is loaded)"));
    td_arena_free(&arena);
    fakeroot_free(&r);
}

/* The toolkit's link stub first in LD_LIBRARY_PATH: flagged by where it
 * is, and it answers every call with CUDA_ERROR_STUB_LIBRARY (34). */
static void test_stub(void **state)
{
    (void)state;
    char path[2100];
    snprintf(path, sizeof path, "%s:%s", stub_dir, lib_dir);
    fake_env(path);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    char want[1100];
    snprintf(want, sizeof want, "%s/libcuda.so.1", stub_dir);
    assert_string_equal(g.libcuda, want);
    assert_true(g.libcuda_is_stub);
    assert_int_equal(g.status, TD_GPU_INIT_FAILED);
    assert_string_equal(g.status_detail, "cuInit returned 34");
    assert_int_equal(g.cuda_driver_version, 0);
    td_arena_free(&arena);
}

/* A WSL2-like root: libcuda.so.1 in /usr/lib/wsl/lib found through the
 * root's ld.so.cache (made by the real ldconfig), /dev/dxg; and the
 * device nodes and kernel module version of a native driver. */
static void test_root_files(void **state)
{
    (void)state;
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_link(&r, "etc/ld.so.cache", td_fixture("fake_cuda/wslroot/etc/ld.so.cache"));
    fakeroot_link(&r, "usr/lib/wsl/lib/libcuda.so.1",
                  td_fixture("fake_cuda/wslroot/usr/lib/wsl/lib/libcuda.so.1"));
    fakeroot_write(&r, "dev/dxg", "", 0);
    fakeroot_write(&r, "dev/nvidia0", "", 0);
    fakeroot_write(&r, "dev/nvidiactl", "", 0);
    fakeroot_write(&r, "dev/nvidia-uvm", "", 0);
    fakeroot_write(&r, "dev/tty", "", 0);
    fakeroot_dir(&r, "dev/nvidia-caps");
    fakeroot_write(&r, "proc/driver/nvidia/version",
                   "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  550.54.14  Release "
                   "Build  (dvs-builder@U16-I3-B03-4-3)  Thu Feb 22 01:25:25 UTC 2024\n",
                   0);
    fake_env(lib_dir);
    unsetenv("LD_LIBRARY_PATH");
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, r.dir, 0, NULL, &g);
    assert_string_equal(g.libcuda, "/usr/lib/wsl/lib/libcuda.so.1");
    assert_string_equal(g.libcuda_via, "ld.so.cache");
    assert_true(g.wsl_libcuda);
    assert_false(g.libcuda_is_stub);
    assert_string_equal(g.kernel_driver, "550.54.14");
    assert_int_equal(g.n_dev_nodes, 4);
    assert_string_equal(g.dev_nodes[0], "/dev/dxg");
    assert_string_equal(g.dev_nodes[1], "/dev/nvidia-uvm");
    assert_string_equal(g.dev_nodes[2], "/dev/nvidia0");
    assert_string_equal(g.dev_nodes[3], "/dev/nvidiactl");
    td_arena_free(&arena);
    fakeroot_free(&r);
}

/* The parser alone: malformed and cut-short answers are ignored. */
static void test_parse_answer(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_gpu_info g = {0};
    const char text[] = "cuda_driver 12040\ndevice_count 2\n"
                        "gpu 0 cc=9.0 mem=85 pci=0000:41:00.0 name=NVIDIA H100 80GB HBM3\n"
                        "gpu x cc=1.1\ngpu 1 cc=abc mem=-5 name=\n"
                        "gpu 2 name=one too many\nbogus line\n\ndone\ngpu 3 cut";
    assert_true(td_gpu_parse_answer(text, sizeof text - 1, &arena, &g));
    assert_int_equal(g.status, TD_GPU_OK);
    assert_int_equal(g.n_gpus, 2);
    assert_string_equal(g.gpus[0].name, "NVIDIA H100 80GB HBM3");
    assert_int_equal(g.gpus[0].cc_major, 9);
    assert_int_equal(g.gpus[0].memory, 85);
    assert_string_equal(g.gpus[0].pci_bus, "0000:41:00.0");
    assert_null(g.gpus[0].uuid);
    assert_int_equal(g.gpus[1].cc_major, 0);
    assert_int_equal(g.gpus[1].memory, 0);
    assert_string_equal(g.gpus[1].name, "");
    const char partial[] = "nvml_driver 550.1\ncuda_driver 12040\ndevice_count 1\ngpu 0 name=X";
    memset(&g, 0, sizeof g);
    assert_false(td_gpu_parse_answer(partial, sizeof partial - 1, &arena, &g));
    assert_string_equal(g.driver_version, "550.1");
    assert_int_equal(g.n_gpus, 0);
    td_arena_free(&arena);
}

static void test_nvidia_version_parse(void **state)
{
    (void)state;
    char v[32];
    const char a[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19\n";
    const char b[] = "GCC version: 12\nNVRM version: NVIDIA UNIX Open Kernel Module for x86_64  "
                     "550.54.14  Release Build\n";
    const char c[] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  unknown\n";
    assert_true(td_parse_nvidia_version(a, sizeof a - 1, v, sizeof v));
    assert_string_equal(v, "535.104.05");
    assert_true(td_parse_nvidia_version(b, sizeof b - 1, v, sizeof v));
    assert_string_equal(v, "550.54.14");
    assert_false(td_parse_nvidia_version(c, sizeof c - 1, v, sizeof v));
}

/* NVML's topology: every pair of three GPUs, through several PCIe
 * switches (level 20), without NVLink; then all joined by NVLink. */
static void test_topology(void **state)
{
    (void)state;
    fake_env(lib_dir);
    setenv("TD_FAKE_CUDA_VERSION", "12040", 1);
    setenv("TD_FAKE_GPUS",
           "NVIDIA H100:9.0:85899345920;NVIDIA H100:9.0:85899345920;"
           "NVIDIA H100:9.0:85899345920",
           1);
    setenv("TD_FAKE_NVML_DRIVER", "550.54.15", 1);
    setenv("TD_FAKE_NVML_TOPO", "3 20 0", 1);
    struct td_arena arena = {0};
    struct td_gpu_info g;
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.n_links, 3);
    assert_int_equal(g.links[0].a, 0);
    assert_int_equal(g.links[0].b, 1);
    assert_int_equal(g.links[2].a, 1);
    assert_int_equal(g.links[2].b, 2);
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(g.links[i].level, 20);
        assert_int_equal(g.links[i].nvlink, 0);
    }
    setenv("TD_FAKE_NVML_TOPO", "3 10 1", 1);
    probe(&arena, NULL, 0, NULL, &g);
    assert_int_equal(g.n_links, 3);
    assert_int_equal(g.links[1].nvlink, 1);
    assert_int_equal(g.links[1].level, 10);
    td_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpus_as_the_driver_says),
        cmocka_unit_test(test_topology),
        cmocka_unit_test(test_init_failure),
        cmocka_unit_test(test_no_device),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_hang),
        cmocka_unit_test(test_no_driver),
        cmocka_unit_test(test_stub),
        cmocka_unit_test(test_root_files),
        cmocka_unit_test(test_parse_answer),
        cmocka_unit_test(test_nvidia_version_parse),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
