/* Distributed readiness on Windows: torch's Windows builds have Gloo only
 * and no NCCL, and multi-node training there is out of scope; the section
 * says it was not probed. */
#include <string.h>

#include "probe/distributed/distributed.h"

void td_probe_distributed(const struct td_probe_ctx *ctx, const struct td_torch *t,
                          const struct td_graph *g, const char *const *envp,
                          const struct td_environment *e, const struct td_gpu_link *links,
                          size_t n_links, struct td_distributed *d, struct td_findings *f)
{
    (void)ctx, (void)t, (void)g, (void)envp, (void)e, (void)links, (void)n_links, (void)f;
    memset(d, 0, sizeof *d);
    d->nccl = d->gloo = d->mpi = -1;
    d->nccl_pin_matches = -1;
    d->master_addr_resolves = -1;
}
