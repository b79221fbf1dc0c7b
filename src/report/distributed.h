/* check's "distributed" section (probe/distributed/distributed.h) as JSON:
 * nccl {path, version, version_from, torch_pin, matches_pin}, backends
 * {nccl, gloo, mpi} (null: unknown), interfaces, infiniband, shm_bytes,
 * memlock_bytes, master_addr_resolves, topology [{a, b, path, nvlink}]. */
#ifndef TD_REPORT_DISTRIBUTED_H
#define TD_REPORT_DISTRIBUTED_H

#include "probe/distributed/distributed.h"
#include "report/jsonw.h"

/* An NVML topology level as a word: board, pcie_switch, pcie_switches,
 * host_bridge, numa_node, cross_numa. */
const char *td_gpu_link_path(int level);
void td_distributed_json(struct td_jsonw *w, const struct td_distributed *d);

#endif
