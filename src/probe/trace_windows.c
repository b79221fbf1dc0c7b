/* `torchdoctor trace` on Windows: not written yet. The Linux tracer
 * (trace_linux.c) watches ld.so through LD_AUDIT; a Windows one needs the
 * loader's debug events instead and will fill the same struct td_trace. */
#include <string.h>

#include "probe/trace.h"

int td_trace_run(const char *const *argv, const struct td_trace_options *opts, struct td_trace *out,
                 struct td_err *err)
{
    memset(out, 0, sizeof *out);
    out->argv = argv;
    out->exit_status = -1;
    td_err_set(err, "not available on Windows yet (the Linux tracer uses LD_AUDIT)");
    return -1;
}
