/* The clock every part of the bench reads (td_bench_now): below bench.c,
 * which runs the parts, and below each part (bench_cpu.c, bench_mem.c,
 * bench_disk_*.c), which time themselves. */
#include <time.h>

#include "bench/bench.h"

double td_bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}
