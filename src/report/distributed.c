/* check's "distributed" section as JSON (report/distributed.h). */
#include "report/distributed.h"

const char *td_gpu_link_path(int level)
{
    /* nvmlGpuTopologyLevel_t (nvml.h), as nvidia-smi topo -m names them. */
    return level == 0    ? "board"
           : level <= 10 ? "pcie_switch"
           : level <= 20 ? "pcie_switches"
           : level <= 30 ? "host_bridge"
           : level <= 40 ? "numa_node"
                         : "cross_numa";
}

static void tri(struct td_jsonw *w, const char *key, int v)
{
    td_jw_key(w, key);
    if (v < 0)
        td_jw_null(w);
    else
        td_jw_bool(w, v == 1);
}

void td_distributed_json(struct td_jsonw *w, const struct td_distributed *d)
{
    if (!d->probed)
        return;
    td_jw_key(w, "distributed");
    td_jw_begin_object(w);
    td_jw_key(w, "nccl");
    td_jw_begin_object(w);
    td_jw_kstr(w, "path", d->nccl_path);
    td_jw_kstr(w, "version", d->nccl_version);
    td_jw_kstr(w, "version_from", d->nccl_version_from);
    td_jw_kstr(w, "torch_pin", d->nccl_pin);
    tri(w, "matches_pin", d->nccl_pin_matches);
    td_jw_end_object(w);
    td_jw_key(w, "backends");
    td_jw_begin_object_inline(w);
    tri(w, "nccl", d->nccl);
    tri(w, "gloo", d->gloo);
    tri(w, "mpi", d->mpi);
    td_jw_end_object(w);
    td_jw_key(w, "interfaces");
    if (d->ifaces_known) {
        td_jw_begin_array(w);
        for (size_t i = 0; i < d->n_ifaces; i++)
            td_jw_string(w, d->ifaces[i]);
        td_jw_end_array(w);
    } else {
        td_jw_null(w);
    }
    td_jw_kbool(w, "infiniband", d->infiniband);
    td_jw_key(w, "shm_bytes");
    if (d->shm_bytes)
        td_jw_uint(w, d->shm_bytes);
    else
        td_jw_null(w);
    td_jw_kstr(w, "shm_from", d->shm_from);
    td_jw_key(w, "memlock_bytes");
    if (d->memlock_known && !d->memlock_unlimited)
        td_jw_uint(w, d->memlock_bytes);
    else
        td_jw_null(w);
    td_jw_kbool(w, "memlock_unlimited", d->memlock_known && d->memlock_unlimited);
    tri(w, "master_addr_resolves", d->master_addr_resolves);
    td_jw_kstr(w, "master_addr_lookup", d->master_addr_lookup);
    td_jw_key(w, "topology");
    td_jw_begin_array(w);
    for (size_t i = 0; i < d->n_links; i++) {
        const struct td_gpu_link *l = &d->links[i];
        td_jw_begin_object_inline(w);
        td_jw_kuint(w, "a", l->a);
        td_jw_kuint(w, "b", l->b);
        td_jw_kstr(w, "path", td_gpu_link_path(l->level));
        tri(w, "nvlink", l->nvlink);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_end_object(w);
}
