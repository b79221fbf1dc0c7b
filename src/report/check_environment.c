/* check's "environment" JSON section (probe/system/environment.h): what the
 * system is and the evidence for it, the GPU passthrough, WSL2 and the
 * limits, as facts; the findings say what is wrong with them. */
#include "report/check.h"

static void json_lib(struct td_jsonw *w, const char *key, const struct td_env_lib *l)
{
    td_jw_key(w, key);
    td_jw_begin_object_inline(w);
    td_jw_kstr(w, "path", l->path);
    td_jw_kstr(w, "file", l->file);
    td_jw_kstr(w, "driver_version", l->version);
    td_jw_kstr(w, "package", l->package);
    td_jw_end_object(w);
}

static void json_passthrough(struct td_jsonw *w, const struct td_environment *e)
{
    td_jw_key(w, "passthrough");
    td_jw_begin_object(w);
    td_jw_key(w, "nodes");
    td_jw_begin_array(w);
    for (size_t i = 0; i < e->n_nodes; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", e->nodes[i].path);
        td_jw_kbool(w, "exists", e->nodes[i].exists);
        td_jw_kbool(w, "openable", e->nodes[i].openable);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_kstr(w, "kernel_module", e->kernel_module);
    td_jw_kstr(w, "gpu_name", e->gpu_name);
    json_lib(w, "libcuda", &e->libcuda);
    json_lib(w, "libnvidia_ml", &e->libnvml);
    td_jw_kstr(w, "nvidia_visible_devices", e->visible_devices);
    td_jw_kstr(w, "nvidia_driver_capabilities", e->capabilities);
    td_jw_kstr(w, "cuda_visible_devices", e->cuda_visible);
    td_jw_kstr(w, "image_cuda", e->image_cuda);
    td_jw_kstr(w, "image_cuda_from", e->image_cuda_from);
    td_jw_kstr(w, "cuda_compat_driver", e->compat_version);
    td_jw_end_object(w);
}

static void json_limits(struct td_jsonw *w, const struct td_environment *e)
{
    td_jw_key(w, "limits");
    td_jw_begin_object(w);
    td_jw_kuint(w, "shm_bytes", e->shm_size);
    td_jw_kstr(w, "shm_from", e->shm_from);
    td_jw_kint(w, "cgroup", e->cgroup);
    td_jw_kuint(w, "memory_limit", e->memory_limit);
    td_jw_key(w, "cpu_quota");
    if (e->cpu_quota > 0)
        td_jw_fixed(w, e->cpu_quota, 2);
    else
        td_jw_null(w);
    td_jw_kuint(w, "cpuset_cpus", e->cpuset_cpus);
    td_jw_kuint(w, "online_cpus", e->online_cpus);
    td_jw_kstr(w, "omp_num_threads", e->omp_threads);
    td_jw_key(w, "memlock");
    if (!e->memlock_known)
        td_jw_null(w);
    else if (e->memlock == UINT64_MAX)
        td_jw_string(w, "unlimited");
    else
        td_jw_uint(w, e->memlock);
    td_jw_kuint(w, "rdma_devices", e->rdma_devices);
    td_jw_end_object(w);
}

void td_check_json_environment(struct td_jsonw *w, const struct td_environment *e)
{
    if (!e->probed)
        return;
    td_jw_key(w, "environment");
    td_jw_begin_object(w);
    td_jw_kstr(w, "kind", e->kind);
    td_jw_kstr(w, "container", e->container);
    td_jw_kstr(w, "vm", e->vm);
    td_jw_kint(w, "wsl", e->wsl);
    td_jw_key(w, "evidence");
    td_jw_begin_array(w);
    for (size_t i = 0; i < e->n_evidence; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "probe", e->evidence[i].probe);
        td_jw_kstr(w, "value", e->evidence[i].value);
        td_jw_kstr(w, "evidence", e->evidence[i].evidence);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    json_passthrough(w, e);
    td_jw_key(w, "wsl2");
    td_jw_begin_object(w);
    td_jw_kstr(w, "distro", e->wsl_distro);
    td_jw_kbool(w, "libcuda", e->wsl_libcuda);
    td_jw_kbool(w, "libcuda_copies", e->wsl_libcuda_copy);
    td_jw_kbool(w, "dxg", e->dxg);
    td_jw_kstr(w, "windows_driver", e->windows_driver);
    td_jw_kstr(w, "windows_driver_from", e->windows_driver_from);
    td_jw_end_object(w);
    json_limits(w, e);
    td_jw_end_object(w);
}
