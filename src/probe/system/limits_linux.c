/* The limits a container (or the host) sets that break training: the size
 * of /dev/shm (DataLoader workers hand batches over through it), the cgroup
 * (v1 or v2) memory limit, CPU quota and cpuset against the CPUs
 * os.cpu_count() reports, RLIMIT_MEMLOCK (RDMA registers pinned memory). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "probe/probe_util.h"
#include "probe/python/pyfs.h"
#include "probe/system/env_internal.h"

static void shm(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    struct statvfs st;
    bool live = !ctx->root || strcmp(ctx->root, "/") == 0;
    if (live && statvfs("/dev/shm", &st) == 0 && st.f_blocks) {
        e->shm_size = (uint64_t)st.f_blocks * st.f_frsize;
        e->shm_from = "statvfs /dev/shm";
        return;
    }
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/self/mountinfo", TD_PROBE_READ_CAP, &len);
    bool found = false;
    uint64_t bytes = 0;
    if (text && td_parse_mount_size(text, len, "/dev/shm", &bytes, &found)) {
        e->shm_size = bytes;
        e->shm_from = "/proc/self/mountinfo size=";
    }
    free(text);
    /* tmpfs(5): "size ... The default is half of the memory." */
    text = found && !e->shm_size ? td_probe_slurp(ctx, "/proc/meminfo", 65536, &len) : NULL;
    if (text && td_parse_meminfo(text, len, "MemTotal", &bytes)) {
        e->shm_size = bytes / 2;
        e->shm_from = "tmpfs default (half of RAM)";
    }
    free(text);
}

/* FILE of the cgroup at PATH under MOUNT, else of MOUNT itself (a cgroup
 * namespace shows the container's own cgroup there). */
static bool cgroup_file(const struct td_probe_ctx *ctx, const char *mount, const char *path,
                        const char *file, char *out, size_t cap)
{
    char full[4200];
    snprintf(full, sizeof full, "%s%s/%s", mount, strcmp(path, "/") == 0 ? "" : path, file);
    if (td_env_read(ctx, full, out, cap))
        return true;
    snprintf(full, sizeof full, "%s/%s", mount, file);
    return td_env_read(ctx, full, out, cap);
}

/* cgroups(7), and the kernel's Documentation/admin-guide/cgroup-v2.rst
 * (memory.max, cpu.max "$MAX $PERIOD", cpuset.cpus.effective) and
 * cgroup-v1/ (memory.limit_in_bytes, cpu.cfs_quota_us / cpu.cfs_period_us,
 * cpuset.cpus). */
static void cgroups(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/self/cgroup", 65536, &len);
    char path[4096], v[4096];
    if (!text)
        return;
    if (td_parse_cgroup_path(text, len, "memory", path, sizeof path)) {
        e->cgroup = 1;
        if (cgroup_file(ctx, "/sys/fs/cgroup/memory", path, "memory.limit_in_bytes", v, sizeof v))
            e->memory_limit = td_parse_limit_bytes(v, strlen(v));
        char q[64], p[64];
        if (td_parse_cgroup_path(text, len, "cpu", path, sizeof path) &&
            cgroup_file(ctx, "/sys/fs/cgroup/cpu", path, "cpu.cfs_quota_us", q, sizeof q) &&
            cgroup_file(ctx, "/sys/fs/cgroup/cpu", path, "cpu.cfs_period_us", p, sizeof p) &&
            q[0] != '-') {
            char both[160];
            snprintf(both, sizeof both, "%s %s", q, p);
            e->cpu_quota = td_parse_cpu_max(both, strlen(both));
        }
        if (td_parse_cgroup_path(text, len, "cpuset", path, sizeof path) &&
            cgroup_file(ctx, "/sys/fs/cgroup/cpuset", path, "cpuset.cpus", v, sizeof v))
            e->cpuset_cpus = td_parse_cpu_list(v, strlen(v));
    } else if (td_parse_cgroup_path(text, len, NULL, path, sizeof path)) {
        e->cgroup = 2;
        if (cgroup_file(ctx, "/sys/fs/cgroup", path, "memory.max", v, sizeof v))
            e->memory_limit = td_parse_limit_bytes(v, strlen(v));
        if (cgroup_file(ctx, "/sys/fs/cgroup", path, "cpu.max", v, sizeof v))
            e->cpu_quota = td_parse_cpu_max(v, strlen(v));
        if (cgroup_file(ctx, "/sys/fs/cgroup", path, "cpuset.cpus.effective", v, sizeof v))
            e->cpuset_cpus = td_parse_cpu_list(v, strlen(v));
    }
    free(text);
}

static bool count_entry(void *cookie, const char *name)
{
    (void)cookie, (void)name;
    return true;
}

void td_probe_limits(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    shm(ctx, e);
    cgroups(ctx, e);
    char v[4096];
    /* What os.cpu_count() reports: the CPUs online in the system
     * (sysconf(_SC_NPROCESSORS_ONLN)), whatever the cgroup allows. */
    if (td_env_read(ctx, "/sys/devices/system/cpu/online", v, sizeof v))
        e->online_cpus = td_parse_cpu_list(v, strlen(v));
    const char *omp = td_pyfs_env(ctx, "OMP_NUM_THREADS");
    e->omp_threads = omp ? td_arena_strdup(ctx->arena, omp) : NULL;
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/self/limits", 65536, &len);
    e->memlock_known = text && td_parse_memlock(text, len, &e->memlock);
    free(text);
    e->rdma_devices = (unsigned)td_env_each_entry(ctx, "/sys/class/infiniband", count_entry, NULL);
}
