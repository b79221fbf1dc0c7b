/* Where training really runs (issue 29): bare metal, a VM, a container
 * (Docker, Podman, containerd/Kubernetes, Apptainer, LXC) or WSL, each
 * from its evidence; whether the GPU is passed through (device nodes, the
 * driver's user-space libraries against the kernel module, the NVIDIA
 * Container Toolkit's variables, the image's CUDA and cuda-compat); WSL2's
 * own libcuda; and the limits a container sets (/dev/shm, cgroup memory
 * and CPU, memlock). Every file is read under the probe root, so tests
 * build whole fake systems; the facts are one value, the findings come
 * from it (environment_rules.c), report/check.c renders it. */
#ifndef TD_PROBE_SYSTEM_ENVIRONMENT_H
#define TD_PROBE_SYSTEM_ENVIRONMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe.h"

/* One marker that matched: what it says ("docker", "wsl2", "kvm") and the
 * evidence in words ("/.dockerenv exists"). */
struct td_env_evidence {
    const char *probe; /* "container", "wsl", "vm" (data/machine_markers.tsv) */
    const char *value;
    const char *evidence;
};

/* A device node the CUDA driver opens. */
struct td_env_node {
    const char *path; /* "/dev/nvidiactl" */
    bool exists;
    bool openable; /* read and write for this user (faccessat AT_EACCESS) */
};

/* A driver library as the loader would take it. */
struct td_env_lib {
    const char *soname;  /* "libcuda.so.1" */
    const char *path;    /* the file the loader takes (target path), NULL: none */
    const char *file;    /* its symlinks resolved: ".../libcuda.so.550.54.15" */
    const char *version; /* the driver version its file name carries, NULL: none */
    const char *package; /* the dpkg package whose .list names it, NULL: none */
};

enum { TD_ENV_MAX_EVIDENCE = 24, TD_ENV_MAX_NODES = 8 };

struct td_environment {
    bool probed;
    const char *kind;       /* "bare_metal", "vm", "docker", "podman", "kubernetes", "containerd",
                               "apptainer", "lxc", "wsl1", "wsl2" (or PID 1's container= value) */
    const char *container;  /* the container runtime, NULL outside one */
    const char *vm;         /* the hypervisor, NULL when none was seen */
    int wsl;                /* 0, 1, 2 */
    const char *wsl_distro; /* WSL_DISTRO_NAME, NULL unset */
    struct td_env_evidence evidence[TD_ENV_MAX_EVIDENCE];
    size_t n_evidence;

    /* GPU passthrough */
    struct td_env_node nodes[TD_ENV_MAX_NODES]; /* nvidiactl, nvidia-uvm, nvidia0.. */
    size_t n_nodes;
    const char *kernel_module; /* /proc/driver/nvidia/version's driver version */
    const char *gpu_name;      /* /proc/driver/nvidia/gpus/<bus>/information Model */
    struct td_env_lib libcuda, libnvml;
    const char *visible_devices; /* NVIDIA_VISIBLE_DEVICES; NULL unset ("" set, empty) */
    const char *capabilities;    /* NVIDIA_DRIVER_CAPABILITIES; NULL unset */
    const char *cuda_visible;    /* CUDA_VISIBLE_DEVICES; NULL unset */
    const char *image_cuda;      /* the image's CUDA toolkit: "12.4.1" */
    const char *image_cuda_from; /* "/usr/local/cuda/version.json", "CUDA_VERSION" */
    const char *compat_version;  /* /usr/local/cuda/compat/libcuda.so.<driver>: that driver */

    /* WSL2 */
    bool wsl_libcuda;           /* /usr/lib/wsl/lib/libcuda.so.1 exists */
    bool wsl_libcuda_copy;      /* ... as a regular file (ldconfig: "is not a symbolic link") */
    bool dxg;                   /* /dev/dxg */
    const char *windows_driver; /* the Windows NVIDIA driver: "546.33" */
    const char *windows_driver_from; /* the .inf its DriverVer was read from */

    /* Limits */
    uint64_t shm_size;       /* bytes; 0 unknown */
    const char *shm_from;    /* "mountinfo size=65536k", "tmpfs default: half of RAM", "statvfs" */
    int cgroup;              /* 1, 2; 0 none found */
    uint64_t memory_limit;   /* bytes; 0 none */
    double cpu_quota;        /* CPUs the CFS quota allows; 0 none */
    unsigned cpuset_cpus;    /* CPUs in the cgroup's cpuset; 0 unknown */
    unsigned online_cpus;    /* /sys/devices/system/cpu/online: what os.cpu_count() says */
    const char *omp_threads; /* OMP_NUM_THREADS, NULL unset */
    bool memlock_known;
    uint64_t memlock;      /* RLIMIT_MEMLOCK soft limit, bytes; UINT64_MAX unlimited */
    unsigned rdma_devices; /* /sys/class/infiniband entries */
};

/* Linux: fills OUT (probed true); elsewhere OUT stays empty. */
void td_probe_environment(const struct td_probe_ctx *ctx, struct td_environment *out);

/* The findings (environment_rules.c): GPU not passed through, device nodes
 * this user cannot open, driver libraries of another version than the
 * kernel module, the toolkit's variables, the image's CUDA against the
 * driver (cuda-compat on data-center GPUs only), WSL2's libcuda shadowed
 * or missing, /dev/shm, CPU quota and memlock limits. GPU is the driver
 * probe's answer (NULL: not probed), TORCH_CUDA the newest CUDA build of
 * torch found (NULL: none), each fix for the layer that must change. */
void td_rules_environment(const struct td_environment *e, const struct td_gpu_info *gpu,
                          const char *torch_cuda, struct td_findings *f);

/* ---- the markers of data/machine_markers.tsv (markers_linux.c) ---- */

/* Every row for PROBE that matches, in the table's order: SEEN gets its
 * value and the evidence in words. Returns the first match's value (in
 * the arena), or NULL. */
typedef void (*td_marker_seen)(void *cookie, const char *probe, const char *value,
                               const char *evidence);
const char *td_probe_markers(const struct td_probe_ctx *ctx, const char *probe, td_marker_seen seen,
                             void *cookie);

/* ---- pure parsers (environment_parse.c), over bytes that may be anything ---- */

/* The size= option of the tmpfs mounted on MOUNT_POINT in mountinfo TEXT,
 * in bytes ("size=65536k"); false when that mount or its option is absent
 * (tmpfs then has its default: half of RAM, tmpfs(5)). *FOUND says whether
 * the mount itself was there. */
bool td_parse_mount_size(const char *text, size_t len, const char *mount_point, uint64_t *bytes,
                         bool *found);
/* A cgroup v2 path of /proc/self/cgroup ("0::/docker/abc" -> "/docker/abc"),
 * or the v1 path of CONTROLLER ("4:memory:/x" -> "/x"), into OUT. */
bool td_parse_cgroup_path(const char *text, size_t len, const char *controller, char *out,
                          size_t cap);
/* "max 100000" / "400000 100000" (cpu.max): CPUs allowed; 0 for "max". */
double td_parse_cpu_max(const char *text, size_t len);
/* A number of bytes ("8589934592\n"); "max" and absurd v1 values (more
 * than 2^62) are no limit: 0. */
uint64_t td_parse_limit_bytes(const char *text, size_t len);
/* CPUs in a list "0-3,8,10-11" (/sys/devices/system/cpu/online, cpuset). */
unsigned td_parse_cpu_list(const char *text, size_t len);
/* "Max locked memory  65536  65536  bytes" of /proc/self/limits: the soft
 * limit (UINT64_MAX for "unlimited"). */
bool td_parse_memlock(const char *text, size_t len, uint64_t *soft);
/* The driver version a library's file name carries: "libcuda.so.550.54.15"
 * -> "550.54.15" (at least two numeric parts after ".so."); false for
 * "libcuda.so.1" and "libcuda.so.1.1". */
bool td_parse_lib_driver_version(const char *name, char *out, size_t cap);
/* "DriverVer = 12/05/2023,31.0.15.4633" of an .inf (ASCII or UTF-16LE):
 * the NVIDIA release it is, "546.33" (the last five digits). */
bool td_parse_inf_driver(const char *text, size_t len, char *out, size_t cap);
/* "Model: \t NVIDIA A100-SXM4-80GB" of /proc/driver/nvidia/gpus/x/information. */
bool td_parse_gpu_information(const char *text, size_t len, char *out, size_t cap);
/* "cuda" : { "name" : ..., "version" : "12.4.1" } of /usr/local/cuda/version.json,
 * or "CUDA Version 11.2.152" of version.txt. */
bool td_parse_cuda_version_file(const char *text, size_t len, char *out, size_t cap);

#endif
