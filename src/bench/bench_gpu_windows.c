/* bench's GPU part on Windows: torchdoctor.exe's hidden `__gpu` child
 * (gpu_windows.c, child.h) runs gpu_bench_ask.c's measurements through
 * nvcuda.dll and nvml.dll, told so on its stdin, with a timeout; a driver
 * that faults or hangs ends only the child, and the step it died in is
 * said. The kernel log's XIDs have no Windows counterpart here (null). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "probe/system/child.h"
#include "probe/probe_util.h"

#define ANSWER_CAP ((size_t)64 << 10)

/* How the child ended, in words; NULL when it finished normally. */
static const char *ending(const struct td_child_outcome *o, int timeout_ms, bool done, char *out,
                          size_t cap)
{
    char words[160];
    if (!o->started)
        snprintf(out, cap, "the GPU child could not be started: %s", o->why);
    else if (o->timed_out)
        td_gpu_timeout_detail(timeout_ms, "GPU child", out, cap);
    else if (!done || (o->exited && o->exit_code != 0))
        snprintf(out, cap, "the GPU child ended with %s%s",
                 td_child_exit_words(o->exit_code, words, sizeof words),
                 done ? "" : " before answering");
    else
        return NULL;
    return out;
}

void td_bench_gpu_run(const struct td_bench_options *o, struct td_bench_gpus *g,
                      struct td_arena *arena)
{
    int iterations = o->iterations > 0 ? o->iterations : o->quick ? 10 : 100;
    int timeout = o->timeout_ms > 0 ? o->timeout_ms : o->quick ? 20000 : 60000;
    char input[64];
    int len = snprintf(input, sizeof input, "bench %d %d\n", iterations, o->quick ? 1 : 0);
    char *buf = malloc(ANSWER_CAP);
    struct td_child_outcome out = {0};
    if (!buf) {
        g->status = "not measured: out of memory";
        return;
    }
    if (o->progress)
        o->progress(o->progress_ctx, "GPU: copies, FMA kernel, stability loop");
    size_t n = td_child_run("__gpu", input, (size_t)len, timeout, buf, ANSWER_CAP, &out);
    g->last_gpu = -1;
    td_bench_gpu_parse(buf, n, g, arena);
    bool done = n >= 5 && memcmp(buf + n - 5, "done\n", 5) == 0;
    free(buf);
    char why[700];
    const char *end = ending(&out, timeout, done, why, sizeof why);
    if (!end)
        return;
    td_bench_gpu_ended(g, end, arena);
}
