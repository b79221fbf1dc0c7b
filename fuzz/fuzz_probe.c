/* libFuzzer target for the machine probes' parsers: the GPU helper's answer
 * (bytes from a child that loaded a driver we do not trust), os-release,
 * /proc/meminfo, /proc/cpuinfo and /proc/driver/nvidia/version. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe/probe_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct td_arena arena = {.cap = 16 << 20};
    struct td_gpu_info g;
    memset(&g, 0, sizeof g);
    td_gpu_parse_answer(text, size, &arena, &g);
    for (size_t i = 0; i < g.n_gpus; i++)
        if (g.gpus[i].name)
            (void)strlen(g.gpus[i].name);
    if (g.status_detail)
        (void)strlen(g.status_detail);
    td_arena_free(&arena);

    char out[64];
    uint64_t v;
    static const char *const keys[] = {"ID", "PRETTY_NAME", "VERSION_ID"};
    for (size_t i = 0; i < 3; i++)
        td_parse_os_release(text, size, keys[i], out, sizeof out);
    td_parse_meminfo(text, size, "MemTotal", &v);
    td_parse_cpuinfo_field(text, size, "Features", out, sizeof out);
    td_parse_nvidia_version(text, size, out, sizeof out);
    return 0;
}
