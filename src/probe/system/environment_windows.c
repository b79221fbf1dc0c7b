/* Windows: no containers, WSL or cgroups to look at from this side; the
 * environment section stays unprobed (environment.h). */
#include <string.h>

#include "probe/system/environment.h"

void td_probe_environment(const struct td_probe_ctx *ctx, struct td_environment *out)
{
    (void)ctx;
    memset(out, 0, sizeof *out);
}
