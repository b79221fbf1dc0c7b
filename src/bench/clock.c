/* The clock every part of the bench reads (td_bench_now): below bench.c,
 * which runs the parts, and below each part (bench_cpu.c, bench_mem.c,
 * bench_disk_*.c), which time themselves. */
#include <time.h>

#include "base/clock.h"
#include "bench/bench.h"

double td_bench_now(void)
{
    return td_monotonic_s();
}
