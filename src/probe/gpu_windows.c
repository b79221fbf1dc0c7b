/* The NVIDIA driver probe on Windows (probe.h). */
#include <string.h>

#include "probe/probe.h"

int td_probe_gpu(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    memset(out, 0, sizeof *out);
    out->status = TD_GPU_NO_DRIVER;
    out->status_detail = "the Windows driver probe is not written yet";
    return 0;
}
