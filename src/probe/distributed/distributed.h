/* Distributed-training readiness (check's "distributed" section): the
 * NCCL library torch's closure loads and whether it is the one torch pins,
 * the process-group backends torch was built with (from its libraries'
 * dynamic symbol names), the torch.distributed / NCCL / Gloo environment.
 * /dev/shm's size and the memlock limit are the environment probe's facts
 * (probe/system/limits_linux.c), shown here, judged there. All static: no
 * process started, every file read through the probe root. */
#ifndef TD_PROBE_DISTRIBUTED_H
#define TD_PROBE_DISTRIBUTED_H

#include <stdbool.h>
#include <stdint.h>

#include "base/finding.h"
#include "graph/graph.h"
#include "probe/probe.h"
#include "probe/system/environment.h"

enum { TD_DIST_MAX_IFACES = 64 };

struct td_distributed {
    bool probed;
    /* NCCL as torch's import closure loads it (NULL path: not in it). */
    const char *nccl_path, *nccl_version, *nccl_version_from;
    const char *nccl_pin; /* torch's Requires-Dist on nvidia-nccl-*: "nvidia-nccl-cu12==2.20.5" */
    int nccl_pin_matches; /* 1, 0; -1 when either side is unknown */
    /* Backends compiled into torch: 1 yes, 0 no, -1 unknown (no closure). */
    int nccl, gloo, mpi;
    /* The network interfaces under /sys/class/net. */
    const char *ifaces[TD_DIST_MAX_IFACES];
    size_t n_ifaces;
    bool ifaces_known;
    /* From the environment probe: /dev/shm's size (0 when unknown), the
     * memlock limit, InfiniBand devices. */
    uint64_t shm_bytes;
    const char *shm_from;
    bool memlock_known, memlock_unlimited;
    uint64_t memlock_bytes;
    bool infiniband;
    /* NVML's topology between each pair of GPUs (the GPU probe's). */
    const struct td_gpu_link *links;
    size_t n_links;
    /* MASTER_ADDR: -1 unset or unknown, 0 does not resolve, 1 resolves;
     * what the lookup found or why it cannot tell (NULL: unset). */
    int master_addr_resolves;
    const char *master_addr_lookup;
};

/* Fills D for torch T (NULL: none) and its closure G (NULL: not built),
 * the environment ENVP, the environment probe's facts E and NVML's
 * topology LINKS[0..N_LINKS) (NULL: no GPU probed), adding findings to F. */
void td_probe_distributed(const struct td_probe_ctx *ctx, const struct td_torch *t,
                          const struct td_graph *g, const char *const *envp,
                          const struct td_environment *e, const struct td_gpu_link *links,
                          size_t n_links, struct td_distributed *d, struct td_findings *f);

/* NCCL_SOCKET_IFNAME's rule (NCCL's docs, "NCCL_SOCKET_IFNAME"): a comma
 * list of prefixes, '^' before the list to exclude them, '=' to match
 * exactly. True when some interface of IFACES[0..N) is selected; else
 * false, and WHY says what the value asks for. */
bool td_nccl_ifname_selects(const char *value, const char *const *ifaces, size_t n, char *why,
                            size_t cap);

#endif
