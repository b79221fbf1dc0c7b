/* bench --workload's child on Windows: not written yet (the step program
 * needs a pipe reader like workload_posix.c's over CreateProcess). */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

void td_line_child_run(const char *const *argv, int stall_ms, struct td_time_up time_up,
                       bool (*line)(void *ctx, const char *line, size_t len), void *ctx,
                       struct td_line_child *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->why, sizeof out->why, "bench --workload does not run on Windows yet");
}
