/* libFuzzer target for the environment probe's parsers (probe/system/
 * environment_parse.c): mountinfo, /proc/self/cgroup, cgroup limit files,
 * CPU lists, /proc/self/limits, a driver .inf (ASCII or UTF-16), the GPU's
 * information file, the CUDA toolkit's version file, library file names. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/system/environment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char out[256];
    uint64_t v;
    bool found;
    td_parse_mount_size(text, size, "/dev/shm", &v, &found);
    td_parse_cgroup_path(text, size, "memory", out, sizeof out);
    td_parse_cgroup_path(text, size, NULL, out, sizeof out);
    td_parse_cgroup_path(text, size, "cpu", out, 4);
    (void)td_parse_cpu_max(text, size);
    (void)td_parse_limit_bytes(text, size);
    (void)td_parse_cpu_list(text, size);
    td_parse_memlock(text, size, &v);
    td_parse_inf_driver(text, size, out, sizeof out);
    td_parse_inf_driver(text, size, out, 3);
    td_parse_gpu_information(text, size, out, sizeof out);
    td_parse_cuda_version_file(text, size, out, sizeof out);
    char *name = malloc(size + 1);
    if (name) {
        memcpy(name, data, size);
        name[size] = '\0';
        td_parse_lib_driver_version(name, out, sizeof out);
        td_parse_lib_driver_version(name, out, 2);
        free(name);
    }
    return 0;
}
