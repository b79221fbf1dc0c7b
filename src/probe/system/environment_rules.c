/* The environment's findings (environment.h): what breaks training where
 * it really runs. Each fix names the layer that must change: the host (how
 * the container is started, the toolkit, the driver), the image, or WSL
 * and Windows. Fix lines come from data/container_fixes.tsv; nothing is
 * run. One root cause, one finding: a container started without its GPU
 * is one finding, not one per missing node and library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/data.h"
#include "base/version.h"
#include "kb/kb.h"
#include "probe/system/environment.h"

/* The fix line of data/container_fixes.tsv for RUNTIME and TOPIC, else
 * the "any" row's; "" when neither. */
static const char *fix_line(const char *runtime, const char *topic, char *out, size_t cap)
{
    static const char *const cols[] = {"runtime", "topic", "fix", NULL};
    out[0] = '\0';
    for (int pass = 0; pass < 2 && !out[0]; pass++) {
        const char *want = pass == 0 ? runtime : "any";
        struct td_table t;
        if (!want || !td_table_open(&t, "container_fixes", cols))
            continue;
        while (td_table_next(&t))
            if (strcmp(td_table_cell(&t, 0), want) == 0 &&
                strcmp(td_table_cell(&t, 1), topic) == 0) {
                snprintf(out, cap, "%s", td_table_cell(&t, 2));
                break;
            }
    }
    return out;
}

/* data/container_limits.tsv's bytes for FACT (the first row), 0 when absent. */
static uint64_t limit_fact(const char *fact)
{
    static const char *const cols[] = {"fact", "bytes", NULL};
    struct td_table t;
    if (td_table_open(&t, "container_limits", cols))
        while (td_table_next(&t))
            if (strcmp(td_table_cell(&t, 0), fact) == 0)
                return strtoull(td_table_cell(&t, 1), NULL, 10);
    return 0;
}

/* Whether SIZE is one of RUNTIME's default /dev/shm sizes. */
static bool is_runtime_default(const char *runtime, uint64_t size)
{
    static const char *const cols[] = {"fact", "bytes", NULL};
    char fact[64];
    struct td_table t;
    snprintf(fact, sizeof fact, "shm_default_%s", runtime ? runtime : "");
    if (runtime && td_table_open(&t, "container_limits", cols))
        while (td_table_next(&t))
            if (strcmp(td_table_cell(&t, 0), fact) == 0 &&
                strtoull(td_table_cell(&t, 1), NULL, 10) == size)
                return true;
    return false;
}

/* data/gpu_forward_compat.tsv: "yes", "no", "select" for GPU NAME, NULL unknown. */
static const char *forward_compat(const char *name, char *out, size_t cap)
{
    static const char *const cols[] = {"word", "supported", NULL};
    struct td_table t;
    if (!name || !td_table_open(&t, "gpu_forward_compat", cols))
        return NULL;
    while (td_table_next(&t)) {
        const char *w = td_table_cell(&t, 0);
        size_t n = strlen(w);
        for (const char *p = name; *p; p++) {
            bool start = p == name || p[-1] == ' ';
            if (!start || strlen(p) < n)
                continue;
            char next = p[n];
            if (strncasecmp(p, w, n) == 0 &&
                (next == '\0' || next == ' ' || next == '-' || (next >= 'A' && next <= 'Z') ||
                 (next >= 'a' && next <= 'z'))) {
                snprintf(out, cap, "%s", td_table_cell(&t, 1));
                return out;
            }
        }
    }
    return NULL;
}

/* Whether the comma-separated LIST has WORD. */
static bool list_has(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        p += strspn(p, " ,");
        size_t k = strcspn(p, ",");
        size_t t = k;
        while (t && p[t - 1] == ' ')
            t--;
        if (t == n && strncasecmp(p, word, n) == 0)
            return true;
        p += k;
    }
    return false;
}

static const struct td_env_node *node(const struct td_environment *e, const char *path)
{
    for (size_t i = 0; i < e->n_nodes; i++)
        if (strcmp(e->nodes[i].path, path) == 0)
            return &e->nodes[i];
    return NULL;
}

static bool node_exists(const struct td_environment *e, const char *path)
{
    const struct td_env_node *n = node(e, path);
    return n && n->exists;
}

struct ctx {
    const struct td_environment *e;
    const struct td_gpu_info *gpu;
    const char *torch_cuda;
    bool wants_gpu; /* a CUDA torch, a CUDA image, or the toolkit's variable says so */
    bool asks_gpus; /* NVIDIA_VISIBLE_DEVICES names GPUs: the image was made to get them */
    struct td_findings *f;
};

/* ---- the NVIDIA Container Toolkit ---- */

/* The capabilities torch needs or uses (data/nvidia_driver_capabilities.tsv)
 * that CAPS lacks: one finding, an error when one it needs is missing. */
static void missing_capabilities(const struct ctx *c, const char *caps, const char *gpu_fix)
{
    static const char *const cols[] = {"capability", "mounts", "torch", NULL};
    char lacks[200] = "", without[600] = "", want[200] = "";
    bool needed = false;
    struct td_table t;
    if (!td_table_open(&t, "nvidia_driver_capabilities", cols))
        return;
    while (td_table_next(&t)) {
        const char *cap = td_table_cell(&t, 0), *use = td_table_cell(&t, 2);
        if (strcmp(cap, "all") == 0 || (strcmp(use, "needs") != 0 && strcmp(use, "helps") != 0))
            continue;
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", want[0] ? "," : "", cap);
        if (list_has(caps, cap))
            continue;
        needed |= strcmp(use, "needs") == 0;
        snprintf(lacks + strlen(lacks), sizeof lacks - strlen(lacks), "%s%s", lacks[0] ? ", " : "",
                 cap);
        snprintf(without + strlen(without), sizeof without - strlen(without), "%s%s",
                 without[0] ? "; no " : "no ", td_table_cell(&t, 1));
    }
    if (!lacks[0])
        return;
    char fix[700];
    snprintf(fix, sizeof fix,
             "%s, with NVIDIA_DRIVER_CAPABILITIES=%s (image: ENV NVIDIA_DRIVER_CAPABILITIES=%s)",
             gpu_fix, want, want);
    td_findings_add(c->f, needed ? TD_SEV_ERROR : TD_SEV_WARNING, TD_KIND_ENV_VAR_INVALID,
                    "NVIDIA_DRIVER_CAPABILITIES", NULL, NULL, fix,
                    "NVIDIA_DRIVER_CAPABILITIES='%s' lacks %s: the toolkit mounts %s%s", caps,
                    lacks, without, needed ? ", so torch.cuda.is_available() is False" : "");
}

/* NVIDIA_VISIBLE_DEVICES / NVIDIA_DRIVER_CAPABILITIES (the toolkit reads
 * them when the container is created). True when the GPU was refused on
 * purpose: nothing else about passthrough is then worth saying. */
static bool toolkit_variables(const struct ctx *c)
{
    const struct td_environment *e = c->e;
    char fix[600], line[400];
    fix_line(e->container, "gpu", line, sizeof line);
    const char *v = e->visible_devices;
    if (v && (!v[0] || !strcmp(v, "void") || !strcmp(v, "none"))) {
        bool none = !strcmp(v, "none");
        snprintf(fix, sizeof fix,
                 "%s, with NVIDIA_VISIBLE_DEVICES=all (or the GPU indexes) "
                 "instead of '%s'",
                 line, v);
        td_findings_add(c->f, c->wants_gpu ? TD_SEV_ERROR : TD_SEV_WARNING, TD_KIND_GPU_NOT_VISIBLE,
                        "NVIDIA_VISIBLE_DEVICES", NULL, NULL, fix,
                        "NVIDIA_VISIBLE_DEVICES='%s': the NVIDIA Container Runtime %s", v,
                        none ? "mounts the driver but no GPU"
                             : "does nothing for this container (no GPU, no driver): it runs "
                               "as plain runc would");
        return true;
    }
    const char *caps = e->capabilities;
    if (caps && caps[0] && !list_has(caps, "all"))
        missing_capabilities(c, caps, line);
    return false;
}

/* ---- nodes and libraries ---- */

static void passthrough(const struct ctx *c)
{
    const struct td_environment *e = c->e;
    char fix[900], line[400], kit[400];
    bool ctl = node_exists(e, "/dev/nvidiactl");
    if (e->container && !e->wsl && c->wants_gpu && !ctl && !e->libcuda.path) {
        fix_line(e->container, "gpu", line, sizeof line);
        fix_line(e->container, "toolkit", kit, sizeof kit);
        snprintf(fix, sizeof fix, "%s%s%s", line, kit[0] ? "; " : "", kit);
        /* An error when the image asks the toolkit for GPUs (NVIDIA's CUDA
         * images set NVIDIA_VISIBLE_DEVICES=all); else a warning, as on a
         * machine without a driver: pip's default Linux torch and a CUDA
         * toolkit are CUDA builds on CPU-only build machines too. */
        td_findings_add(c->f, c->asks_gpus ? TD_SEV_ERROR : TD_SEV_WARNING, TD_KIND_GPU_NOT_VISIBLE,
                        "/dev/nvidiactl", NULL, NULL, fix,
                        "this %s container was started without the GPU: no /dev/nvidia* device "
                        "node and no libcuda.so.1 (the NVIDIA Container Toolkit mounts both)",
                        e->container);
        return;
    }
    if (!ctl || e->wsl)
        return;
    if (!node_exists(e, "/dev/nvidia-uvm"))
        td_findings_add(c->f, c->wants_gpu ? TD_SEV_ERROR : TD_SEV_WARNING, TD_KIND_GPU_NOT_VISIBLE,
                        "/dev/nvidia-uvm", NULL, NULL,
                        e->container ? "on the host: sudo modprobe nvidia-uvm (or sudo "
                                       "nvidia-modprobe -u -c=0), then start the container again"
                                     : "sudo modprobe nvidia-uvm (or sudo nvidia-modprobe -u -c=0)",
                        "/dev/nvidiactl is there but /dev/nvidia-uvm is not: the nvidia-uvm "
                        "kernel module is not loaded, and cuInit fails (CUDA error 999, "
                        "\"unknown error\")");
    char denied[600] = "";
    for (size_t i = 0; i < e->n_nodes; i++)
        if (e->nodes[i].exists && !e->nodes[i].openable)
            snprintf(denied + strlen(denied), sizeof denied - strlen(denied), "%s%s",
                     denied[0] ? ", " : "", e->nodes[i].path);
    if (denied[0])
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_DEVICE_NOT_ACCESSIBLE, denied, NULL, NULL,
                        e->container
                            ? "start the container with --gpus all (the toolkit sets the nodes' "
                              "access), or add the group that owns them: --group-add $(stat -c "
                              "%g /dev/nvidiactl)"
                            : "add this user to the group that owns them (ls -l /dev/nvidia*; "
                              "sudo usermod -aG <group> $USER), then log in again",
                        "this user cannot open %s (read and write): CUDA sees no device", denied);
}

/* The driver's libraries against the kernel module: NVML's "Driver/library
 * version mismatch" (nvmlInit returns NVML_ERROR_LIB_RM_VERSION_MISMATCH). */
static void library_versions(const struct ctx *c)
{
    const struct td_environment *e = c->e;
    const char *km = e->kernel_module;
    const struct td_env_lib *bad = NULL;
    char names[600] = "";
    const struct td_env_lib *libs[] = {&e->libcuda, &e->libnvml};
    for (size_t i = 0; km && i < 2; i++) {
        const struct td_env_lib *l = libs[i];
        if (!l->version || strcmp(l->version, km) == 0)
            continue;
        bad = bad ? bad : l;
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s is driver %s (%s)",
                 names[0] ? "; " : "", l->soname, l->version, l->file ? l->file : l->path);
    }
    if (!bad)
        return;
    char fix[700];
    if (bad->package && e->container)
        snprintf(fix, sizeof fix,
                 "in the image: apt-get remove --purge %s (the toolkit mounts the host's own "
                 "driver libraries; an image must not carry them)",
                 bad->package);
    else if (e->container)
        snprintf(fix, sizeof fix,
                 "on the host: reboot (or reload the nvidia modules) so that the kernel module "
                 "matches the installed driver, then start the container again");
    else
        snprintf(fix, sizeof fix,
                 "reboot so that the kernel module of the installed driver loads; if it stays, "
                 "reinstall one driver: sudo apt-get install --reinstall %s",
                 bad->package ? bad->package : "nvidia-driver");
    td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_DRIVER_LIBRARY_MISMATCH,
                    bad->file ? bad->file : bad->path, NULL, NULL, fix,
                    "%s, but the kernel module is %s (/proc/driver/nvidia/version): nvidia-smi "
                    "says \"Failed to initialize NVML: Driver/library version mismatch\" and "
                    "cuInit fails",
                    names, km);
}

/* ---- the image's CUDA, or torch's under WSL, against the driver ---- */

/* CUDA (the image's toolkit when IMAGE, else torch's build) against DRIVER
 * on OS ("linux", or "windows" for WSL's Windows driver); LAYER says where
 * the driver is updated. */
static void cuda_vs_driver(const struct ctx *c, const char *cuda, bool image, const char *driver,
                           const char *os, const char *layer)
{
    const struct td_environment *e = c->e;
    char have[TD_KB_STR], need[TD_KB_STR], floor[TD_KB_STR], cls[16], mm[TD_KB_STR];
    if (!cuda || !driver || !td_kb_driver_max_cuda(driver, os, have, sizeof have))
        return;
    td_version_trim(cuda, 2, mm, sizeof mm);
    if (td_version_cmp(have, mm) >= 0)
        return;
    const char *min = td_kb_cuda_min_driver(mm, os, need, sizeof need, NULL);
    const char *fl = td_kb_cuda_compat_floor(mm, os, floor, sizeof floor, NULL);
    const char *gpu_name = e->gpu_name;
    if (!gpu_name && c->gpu && c->gpu->n_gpus)
        gpu_name = c->gpu->gpus[0].name;
    const char *fc = forward_compat(gpu_name, cls, sizeof cls);
    char fix[700], note[600] = "";
    snprintf(fix, sizeof fix, "%s: update the NVIDIA driver to %s or newer; or use %s for CUDA %s",
             layer, min ? min : "a newer one", image ? "an image" : "a torch build", have);
    enum td_severity sev = TD_SEV_ERROR;
    bool same_major = atoi(have) == atoi(mm);
    if (e->compat_version && strcmp(os, "linux") == 0) {
        if (fc && !strcmp(fc, "yes"))
            return; /* forward compatibility bridges it (the section says so) */
        snprintf(note, sizeof note,
                 "; the image's cuda-compat (driver %s, /usr/local/cuda/compat) bridges that only "
                 "on data-center GPUs, and %s %s: cuInit fails with "
                 "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE (804)",
                 e->compat_version, gpu_name ? gpu_name : "this GPU",
                 fc && !strcmp(fc, "select") ? "is one only in select NGC-Ready SKUs"
                 : fc                        ? "is not one"
                                             : "is not known to be one");
        sev = fc && !strcmp(fc, "no") ? TD_SEV_ERROR : TD_SEV_WARNING;
    } else if (fl && same_major && td_version_cmp(driver, fl) >= 0) {
        sev = TD_SEV_WARNING;
        snprintf(note, sizeof note,
                 ": it runs through minor-version compatibility, without PTX "
                 "JIT of newer code");
    }
    td_findings_add(c->f, sev, TD_KIND_CUDA_DRIVER_TOO_OLD, "libcuda.so.1", NULL, NULL, fix,
                    "%s is CUDA %s (driver %s or newer); the driver is %s, which runs CUDA %s%s",
                    image ? "the image's toolkit" : "torch", cuda, min ? min : "?", driver, have,
                    note);
}

/* ---- WSL ---- */

static void wsl(const struct ctx *c)
{
    const struct td_environment *e = c->e;
    char fix[700];
    const char *distro = e->wsl_distro ? e->wsl_distro : "<distro>";
    if (e->wsl == 1) {
        if (!c->wants_gpu)
            return;
        snprintf(fix, sizeof fix, "in Windows (PowerShell): wsl --set-version %s 2", distro);
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, NULL, NULL, NULL, fix,
                        "this is WSL1, which has no GPU access: CUDA runs only under WSL2");
        return;
    }
    if (e->wsl != 2)
        return;
    if (!e->dxg && c->wants_gpu)
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, "/dev/dxg", NULL, NULL,
                        "in Windows (PowerShell): wsl --update, then wsl --shutdown",
                        "WSL2 without /dev/dxg: the GPU paravirtualisation device is missing "
                        "(an old WSL kernel or WSL from the Windows inbox component)");
    if (!e->wsl_libcuda && c->wants_gpu)
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE,
                        "/usr/lib/wsl/lib/libcuda.so.1", NULL, NULL,
                        "in Windows: install the NVIDIA Windows driver for this GPU (it brings "
                        "CUDA into WSL2), then in PowerShell: wsl --update; wsl --shutdown",
                        "WSL2 without /usr/lib/wsl/lib/libcuda.so.1: the Windows NVIDIA driver "
                        "is not installed or not mapped into WSL");
    const struct td_env_lib *l = &e->libcuda;
    if (l->path && strncmp(l->path, "/usr/lib/wsl/", 13) != 0) {
        if (l->package)
            snprintf(fix, sizeof fix,
                     "inside WSL: sudo apt-get remove --purge %s && sudo ldconfig (never install "
                     "a Linux NVIDIA driver inside WSL: the Windows driver provides libcuda)",
                     l->package);
        else
            snprintf(fix, sizeof fix,
                     "inside WSL: remove %s (no package owns it) and run sudo ldconfig; the "
                     "Windows driver provides libcuda",
                     l->file ? l->file : l->path);
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_SHADOWED_LIBRARY, l->file ? l->file : l->path,
                        NULL, NULL, fix,
                        "libcuda.so.1 resolves to %s%s%s%s, a Linux NVIDIA driver, ahead of "
                        "/usr/lib/wsl/lib/libcuda.so.1: inside WSL2 it cannot reach the GPU "
                        "(NVIDIA CUDA on WSL User Guide: install no Linux driver in WSL)",
                        l->path, l->package ? " (package " : "", l->package ? l->package : "",
                        l->package ? ")" : "");
    }
    if (e->wsl_libcuda_copy)
        td_findings_add(c->f, TD_SEV_INFO, TD_KIND_LDCONFIG_WARNING,
                        "/usr/lib/wsl/lib/libcuda.so.1", NULL, NULL,
                        "in Windows, an administrator cmd: cd C:\\Windows\\System32\\lxss\\lib && "
                        "del libcuda.so libcuda.so.1 && mklink libcuda.so libcuda.so.1.1 && mklink "
                        "libcuda.so.1 libcuda.so.1.1; then wsl --shutdown",
                        "ldconfig warns \"/usr/lib/wsl/lib/libcuda.so.1 is not a symbolic link\": "
                        "WSL maps libcuda.so, .so.1 and .so.1.1 as copies, so ldconfig's cache "
                        "lists no libcuda.so (tools that look it up there, such as Triton, miss "
                        "it)");
    /* The image's CUDA against the Windows driver; torch's too when the
     * driver probe did not answer (when it did, the torch rules compare them). */
    cuda_vs_driver(c, e->image_cuda, true, e->windows_driver, "windows", "in Windows");
    if (!(c->gpu && c->gpu->status == TD_GPU_OK))
        cuda_vs_driver(c, c->torch_cuda, false, e->windows_driver, "windows", "in Windows");
}

/* ---- limits ---- */

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

static void limits(const struct ctx *c)
{
    const struct td_environment *e = c->e;
    char line[400], fix[600];
    uint64_t min = limit_fact("shm_min");
    if (e->shm_size && min && e->shm_size < min) {
        fix_line(e->container, "shm", line, sizeof line);
        char share[160] = "";
        if (e->online_cpus)
            snprintf(share, sizeof share,
                     " (%.1f MiB each for the %u workers os.cpu_count() suggests)",
                     mib(e->shm_size) / e->online_cpus, e->online_cpus);
        td_findings_add(
            c->f, TD_SEV_WARNING, TD_KIND_CONTAINER_LIMIT, "/dev/shm", NULL, NULL, line,
            "/dev/shm is %.0f MiB%s: DataLoader workers hand every batch over through "
            "it%s, and die with \"Bus error\" or \"unable to write to file "
            "</torch_...>\" once it is full; NVIDIA's own PyTorch containers ask for at "
            "least %.0f MiB",
            mib(e->shm_size),
            is_runtime_default(e->container, e->shm_size) ? " (the runtime's default)" : "", share,
            mib(min));
    }
    unsigned allowed = 0;
    if (e->cpu_quota > 0)
        allowed = (unsigned)(e->cpu_quota + 0.999); /* 1.5 CPUs keep 2 threads busy */
    if (e->cpuset_cpus && (!allowed || e->cpuset_cpus < allowed))
        allowed = e->cpuset_cpus;
    if (allowed && e->online_cpus > allowed && !e->omp_threads) {
        snprintf(fix, sizeof fix,
                 "export OMP_NUM_THREADS=%u (image: ENV OMP_NUM_THREADS=%u), and "
                 "DataLoader(num_workers=%u) at most",
                 allowed, allowed, allowed > 1 ? allowed - 1 : 1);
        td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_CONTAINER_LIMIT, "cgroup cpu", NULL, NULL,
                        fix,
                        "os.cpu_count() reports %u CPUs but the cgroup allows %u (%s): torch's "
                        "intra-op threads and DataLoader(num_workers=os.cpu_count()) "
                        "oversubscribe them",
                        e->online_cpus, allowed, e->cpu_quota > 0 ? "its CPU quota" : "its cpuset");
    }
    if (e->rdma_devices && e->memlock_known && e->memlock != UINT64_MAX) {
        fix_line(e->container, "memlock", line, sizeof line);
        td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_CONTAINER_LIMIT, "RLIMIT_MEMLOCK", NULL, NULL,
                        line,
                        "ulimit -l is %llu KiB with %u RDMA device%s: NCCL's InfiniBand/RoCE "
                        "transport registers (pins) its buffers and fails or falls back to "
                        "sockets; it wants memlock unlimited",
                        (unsigned long long)(e->memlock / 1024), e->rdma_devices,
                        e->rdma_devices == 1 ? "" : "s");
    }
}

void td_rules_environment(const struct td_environment *e, const struct td_gpu_info *gpu,
                          const char *torch_cuda, struct td_findings *f)
{
    if (!e->probed)
        return;
    const char *v = e->visible_devices;
    struct ctx c = {
        .e = e,
        .gpu = gpu,
        .torch_cuda = torch_cuda,
        .wants_gpu = torch_cuda || e->image_cuda || (v && v[0] && strcmp(v, "void") != 0),
        .asks_gpus = v && v[0] && strcmp(v, "void") != 0 && strcmp(v, "none") != 0,
        .f = f,
    };
    bool refused = e->container && toolkit_variables(&c);
    if (!refused) {
        passthrough(&c);
        library_versions(&c);
        if (!e->wsl)
            cuda_vs_driver(&c, e->image_cuda, true, e->kernel_module, "linux",
                           e->container ? "on the host" : "on this machine");
    }
    wsl(&c);
    limits(&c);
}
