/* bench's GPU part on Windows: not measured yet. The `__gpu` child
 * (gpu_windows.c) answers the probe's questions only; giving it the bench
 * mode of gpu_bench_ask.c is the next step (docs/bench.md). */
#include "probe/bench.h"

void td_bench_gpu_run(const struct td_bench_options *o, struct td_bench_gpus *g,
                      struct td_arena *arena)
{
    (void)o;
    (void)arena;
    g->status = "not measured: the Windows build does not run the GPU measurements yet";
}
