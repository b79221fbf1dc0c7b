/* The environment probe's parsers (probe/system/environment_parse.c) on
 * the shapes the kernel, the runtimes and the driver write, and on the
 * edges: a later mount over /dev/shm, a cgroup v1 line listing several
 * controllers, quota "max", absurd v1 limits, CPU lists, "unlimited"
 * memlock, WSL's soname file names that carry no driver release, a
 * UTF-16 .inf, the two CUDA version files. */
#include <string.h>

#include "probe/system/environment.h"
#include "testutil.h"

#define LEN(s) (sizeof(s) - 1)

static void test_mount_size(void **state)
{
    (void)state;
    static const char docker[] =
        "500 400 0:52 / / rw - overlay overlay rw,lowerdir=/x\n"
        "510 500 0:55 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=65536k\n";
    uint64_t b = 0;
    bool found;
    assert_true(td_parse_mount_size(docker, LEN(docker), "/dev/shm", &b, &found));
    assert_true(found);
    assert_int_equal(b, UINT64_C(65536) * 1024);
    /* No size= (tmpfs's default), and a later mount over the same point
     * hides an earlier one that had a size. */
    static const char later[] = "30 26 0:25 / /dev/shm rw - tmpfs tmpfs rw,size=1g\n"
                                "31 30 0:26 / /dev/shm rw - tmpfs tmpfs rw,mode=1777\n";
    assert_false(td_parse_mount_size(later, LEN(later), "/dev/shm", &b, &found));
    assert_true(found);
    /* "/dev/shmx" is not /dev/shm; the mount point must be whole. */
    static const char other[] = "30 26 0:25 / /dev/shmx rw - tmpfs tmpfs rw,size=1g\n";
    assert_false(td_parse_mount_size(other, LEN(other), "/dev/shm", &b, &found));
    assert_false(found);
}

static void test_cgroup(void **state)
{
    (void)state;
    char path[64];
    static const char v1[] = "12:pids:/docker/abc\n4:cpu,cpuacct:/docker/abc\n3:memory:/docker/m\n"
                             "0::/init.scope\n";
    assert_true(td_parse_cgroup_path(v1, LEN(v1), "cpu", path, sizeof path));
    assert_string_equal(path, "/docker/abc");
    assert_true(td_parse_cgroup_path(v1, LEN(v1), "memory", path, sizeof path));
    assert_string_equal(path, "/docker/m");
    assert_false(td_parse_cgroup_path(v1, LEN(v1), "cpuset", path, sizeof path));
    assert_true(td_parse_cgroup_path(v1, LEN(v1), NULL, path, sizeof path));
    assert_string_equal(path, "/init.scope");
    assert_false(td_parse_cgroup_path(v1, LEN(v1), "cpu", path, 4)); /* does not fit */

    assert_true(td_parse_cpu_max("400000 100000\n", 14) == 4.0);
    assert_true(td_parse_cpu_max("150000 100000", 13) == 1.5);
    assert_true(td_parse_cpu_max("max 100000\n", 11) == 0);
    assert_int_equal(td_parse_limit_bytes("8589934592\n", 11), UINT64_C(8589934592));
    assert_int_equal(td_parse_limit_bytes("max\n", 4), 0);
    assert_int_equal(td_parse_limit_bytes("9223372036854771712\n", 20), 0); /* v1: no limit */
    assert_int_equal(td_parse_cpu_list("0-3,8,10-11\n", 12), 7);
    assert_int_equal(td_parse_cpu_list("0\n", 2), 1);
    assert_int_equal(td_parse_cpu_list("", 0), 0);
    assert_int_equal(td_parse_cpu_list("5-2", 3), 0);
}

static void test_limits_file(void **state)
{
    (void)state;
    uint64_t v;
    static const char limits[] =
        "Limit                     Soft Limit           Hard Limit           Units\n"
        "Max locked memory         65536                unlimited            bytes\n";
    assert_true(td_parse_memlock(limits, LEN(limits), &v));
    assert_int_equal(v, 65536);
    static const char unl[] =
        "Max locked memory         unlimited            unlimited            bytes\n";
    assert_true(td_parse_memlock(unl, LEN(unl), &v));
    assert_true(v == UINT64_MAX);
    assert_false(td_parse_memlock("Max open files 1024 1024 files\n", 31, &v));
}

static void test_names_and_files(void **state)
{
    (void)state;
    char out[32];
    assert_true(td_parse_lib_driver_version("libcuda.so.550.54.15", out, sizeof out));
    assert_string_equal(out, "550.54.15");
    assert_true(td_parse_lib_driver_version("libnvidia-ml.so.535.104.05", out, sizeof out));
    assert_string_equal(out, "535.104.05");
    assert_false(td_parse_lib_driver_version("libcuda.so.1", out, sizeof out));
    assert_false(td_parse_lib_driver_version("libcuda.so.1.1", out, sizeof out)); /* WSL's */
    assert_false(td_parse_lib_driver_version("libcuda.so", out, sizeof out));
    assert_false(td_parse_lib_driver_version("libcuda.so.550.54.15.bak", out, sizeof out));

    static const char inf[] = "[Version]\r\nDriverVer = 12/05/2023,31.0.15.4633\r\n";
    assert_true(td_parse_inf_driver(inf, LEN(inf), out, sizeof out));
    assert_string_equal(out, "546.33");
    char wide[2 * sizeof inf];
    for (size_t i = 0; i < LEN(inf); i++)
        wide[2 * i] = inf[i], wide[2 * i + 1] = '\0';
    assert_true(td_parse_inf_driver(wide, 2 * LEN(inf), out, sizeof out));
    assert_string_equal(out, "546.33");
    static const char old[] = "DriverVer=06/10/2021, 30.0.14.7212\n";
    assert_true(td_parse_inf_driver(old, LEN(old), out, sizeof out));
    assert_string_equal(out, "472.12");

    static const char info[] = "Model: \t\t NVIDIA A100-SXM4-80GB\nIRQ:   \t\t 140\n";
    assert_true(td_parse_gpu_information(info, LEN(info), out, sizeof out));
    assert_string_equal(out, "NVIDIA A100-SXM4-80GB");
    static const char json[] =
        "{\n \"cuda\" : {\n  \"name\" : \"CUDA SDK\",\n  \"version\" : "
        "\"12.4.1\"\n },\n \"cuda_cudart\" : {\"version\" : \"12.4.127\"}\n}\n";
    assert_true(td_parse_cuda_version_file(json, LEN(json), out, sizeof out));
    assert_string_equal(out, "12.4.1");
    static const char txt[] = "CUDA Version 11.2.152\n";
    assert_true(td_parse_cuda_version_file(txt, LEN(txt), out, sizeof out));
    assert_string_equal(out, "11.2.152");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mount_size),
        cmocka_unit_test(test_cgroup),
        cmocka_unit_test(test_limits_file),
        cmocka_unit_test(test_names_and_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
