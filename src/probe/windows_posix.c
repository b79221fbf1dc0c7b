/* The Windows-only facts (probe.h, struct td_windows) elsewhere: none. */
#include <string.h>

#include "probe/probe.h"

int td_probe_windows(const struct td_probe_ctx *ctx, struct td_windows *out)
{
    (void)ctx;
    memset(out, 0, sizeof *out);
    out->long_paths_enabled = -1;
    return -1;
}
