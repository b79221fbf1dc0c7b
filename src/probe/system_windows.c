/* The system probe on Windows (probe.h). */
#include <string.h>

#include "probe/probe.h"

int td_probe_system(const struct td_probe_ctx *ctx, struct td_system *out)
{
    memset(out, 0, sizeof *out);
    out->os = "windows";
    return 0;
}
