#include "probe/rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "probe/gpu/gpu_code.h"

static const struct td_gpu *first_gpu(const struct td_facts *x)
{
    return x->gpu && x->gpu->status == TD_GPU_OK && x->gpu->n_gpus ? &x->gpu->gpus[0] : NULL;
}

static const struct td_python *owner(const struct td_facts *x, const struct td_torch *t)
{
    return t->python < x->n_py ? &x->pythons[t->python] : NULL;
}

/* The driver version as a string: NVML's, else the kernel module's. */
static const char *driver_of(const struct td_facts *x)
{
    if (!x->gpu)
        return NULL;
    return x->gpu->driver_version ? x->gpu->driver_version : x->gpu->kernel_driver;
}

/* The newest CUDA the driver runs: what the driver says (cuDriverGetVersion),
 * else what the table says its version supports. */
static const char *driver_cuda(const struct td_facts *x, char *out, size_t cap)
{
    return td_gpu_driver_cuda(x->gpu, x->os, out, cap);
}

/* Whether NAME is installed beside TORCH (a fix names only those). */
static bool has_companion(const struct td_torch *torch, const char *name)
{
    for (size_t i = 0; torch && i < torch->n_companions; i++)
        if (torch->companions[i].name && !strcasecmp(torch->companions[i].name, name))
            return true;
    return false;
}

/* The pip command of the build td_kb_pick_build picks for this machine:
 * its GPU, and its driver when WITH_DRIVER. */
static const char *install_fix(const struct td_facts *x, const struct td_python *py,
                               const struct td_torch *torch, bool with_driver,
                               struct td_kb_build *b, char *out, size_t cap)
{
    const struct td_gpu *gpu = first_gpu(x);
    char pyver[TD_KB_STR] = "";
    if (py)
        snprintf(pyver, sizeof pyver, "%d.%d", py->major, py->minor);
    char line[TD_KB_STR] = "";
    if (torch && torch->base_version)
        td_version_trim(torch->base_version, 2, line, sizeof line);
    struct td_kb_query q = {
        .torch = line[0] ? line : NULL,
        .python = pyver[0] ? pyver : NULL,
        .driver = gpu && with_driver ? driver_of(x) : NULL,
        .cuda = gpu ? NULL : "cpu",
        .os = x->os,
        .cc_major = gpu ? gpu->cc_major : 0,
        .cc_minor = gpu ? gpu->cc_minor : 0,
    };
    /* The installed release line first (the smallest change), then any. */
    if (!td_kb_pick_build(&q, b)) {
        q.torch = NULL;
        if (!td_kb_pick_build(&q, b))
            return NULL;
    }
    return td_kb_pip_command_with(b, py ? py->exe : NULL, has_companion(torch, "torchvision"),
                                  has_companion(torch, "torchaudio"), out, cap);
}

const char *td_rules_install_fix(const struct td_facts *x, const struct td_python *py,
                                 const struct td_torch *torch, struct td_kb_build *b, char *out,
                                 size_t cap)
{
    return install_fix(x, py, torch, true, b, out, cap);
}

/* No build that serves the GPU runs on this driver: the driver update the
 * newest such build needs (the CUDA major's minor-version floor; its full
 * minimum where only PTX serves the GPU), then its install command. */
static const char *driver_then_install(const struct td_facts *x, const struct td_python *py,
                                       char *out, size_t cap)
{
    struct td_kb_build b;
    char cmd[700];
    if (!install_fix(x, py, NULL, false, &b, cmd, sizeof cmd))
        return NULL;
    const char *need =
        b.arch != TD_KB_ARCH_PTX && b.driver_floor[0] ? b.driver_floor : b.driver_min;
    snprintf(out, cap,
             "update the NVIDIA driver to %s or newer (no build with kernels for this GPU "
             "runs on driver %s), then: %s",
             need[0] ? need : "a newer one", driver_of(x) ? driver_of(x) : "?", cmd);
    return out;
}

/* The fix line for replacing a torch build: pip keeps an installed
 * 2.5.1+cpu when asked for torch==2.5.* (PEP 440 ignores the local tag),
 * so the old build is uninstalled first. Debian's package is left to apt. */
static const char *replace_fix(const struct td_facts *x, const struct td_torch *t, char *out,
                               size_t cap)
{
    const struct td_python *py = owner(x, t);
    struct td_kb_build b;
    char install[512];
    if (!td_rules_install_fix(x, py, t, &b, install, sizeof install))
        return NULL;
    if (t->installer && strcmp(t->installer, "debian") == 0)
        snprintf(out, cap,
                 "Debian's python3-torch is built without CUDA; install a CUDA build in a venv: "
                 "python3 -m venv ~/torch-venv && ~/torch-venv/bin/%s",
                 strstr(install, "pip install") ? strstr(install, "pip install") : install);
    else
        snprintf(out, cap, "%s -m pip uninstall -y torch torchvision torchaudio && %s",
                 py ? py->exe : "python", install);
    return out;
}

/* A CPU torch on a GPU machine explains its torchvision / torchaudio of a
 * GPU variant (torch was replaced, the companions kept): the variant
 * finding of each is folded into torch's, whose fix reinstalls all three.
 * Says in NOTE which companion showed the intended build. */
static void fold_companion_variants(const struct td_torch *t, struct td_findings *f, char *note,
                                    size_t cap)
{
    note[0] = '\0';
    for (size_t i = 0; i < t->n_companions; i++) {
        const struct td_package *p = &t->companions[i];
        const char *plus = p->version ? strchr(p->version, '+') : NULL;
        if (!plus || strcmp(plus + 1, "cpu") == 0 || !p->dist_info ||
            (strcasecmp(p->name, "torchvision") != 0 && strcasecmp(p->name, "torchaudio") != 0))
            continue;
        for (size_t k = f->count; k-- > 0;)
            if (strcmp(f->items[k].kind, TD_KIND_COMPANION_MISMATCH) == 0 &&
                f->items[k].needed_by && strcmp(f->items[k].needed_by, p->dist_info) == 0)
                td_findings_remove(f, k);
        if (!note[0])
            snprintf(note, cap,
                     " (%s %s beside it is a %s build: torch was replaced, its companions kept)",
                     p->name, p->version, plus + 1);
    }
}

static void rule_variant(const struct td_facts *x, const struct td_torch *t, struct td_findings *f)
{
    const struct td_gpu *gpu = first_gpu(x);
    char fix[1024], note[256];
    if (gpu && t->variant && strcmp(t->variant, "cpu") == 0) {
        fold_companion_variants(t, f, note, sizeof note);
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_TORCH_VARIANT_MISMATCH, t->dir, NULL, NULL,
                        replace_fix(x, t, fix, sizeof fix),
                        "torch %s is a CPU-only build, but this machine has %s: "
                        "torch.cuda.is_available() will be False%s",
                        t->version, gpu->name ? gpu->name : "an NVIDIA GPU", note);
        return;
    }
    if (!t->cuda || !x->gpu)
        return;
    const struct td_gpu_info *g = x->gpu;
    switch (g->status) {
    case TD_GPU_OK:
        return;
    case TD_GPU_NO_DRIVER:
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_GPU_NOT_VISIBLE, "libcuda.so.1", t->dir, NULL,
                        "install the NVIDIA driver for this GPU (e.g. Debian: apt install "
                        "nvidia-driver; in a container: run it with --gpus all and the NVIDIA "
                        "Container Toolkit)",
                        "torch %s is a CUDA %s build, but no NVIDIA driver is installed "
                        "(no libcuda.so.1 loads): it will run on the CPU only",
                        t->version, t->cuda);
        return;
    case TD_GPU_NO_DEVICE: {
        const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, NULL, t->dir, NULL,
                        cvd ? "unset CUDA_VISIBLE_DEVICES (or set it to the GPU indexes to use)"
                            : "check that the GPU is passed through (containers: --gpus all) "
                              "and that nvidia-smi lists it",
                        "the NVIDIA driver answers but sees no GPU%s%s%s",
                        cvd ? " (CUDA_VISIBLE_DEVICES=" : "", cvd ? cvd : "", cvd ? ")" : "");
        return;
    }
    default:
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, g->libcuda, t->dir, NULL,
                        "run nvidia-smi: if it fails too, reinstall the NVIDIA driver (and "
                        "reboot after a driver update: the kernel module and libcuda must match)",
                        "the NVIDIA driver does not work: %s",
                        g->status_detail ? g->status_detail : "it did not answer");
    }
}

static void rule_driver(const struct td_facts *x, const struct td_torch *t, struct td_findings *f)
{
    char have[TD_KB_STR], need[TD_KB_STR], floor[TD_KB_STR], fix[1200], alt[600];
    const char *drv = driver_of(x);
    if (!t->cuda || !x->gpu || x->gpu->status != TD_GPU_OK || !driver_cuda(x, have, sizeof have))
        return;
    if (td_version_cmp(have, t->cuda) >= 0)
        return;
    const char *src = NULL;
    const char *min = td_kb_cuda_min_driver(t->cuda, x->os, need, sizeof need, &src);
    const char *fl = td_kb_cuda_compat_floor(t->cuda, x->os, floor, sizeof floor, NULL);
    struct td_kb_build b;
    const char *other = td_rules_install_fix(x, owner(x, t), t, &b, alt, sizeof alt);
    snprintf(fix, sizeof fix, "update the NVIDIA driver to %s or newer%s%s",
             min ? min : "a newer one",
             other ? ", or install a build for CUDA this driver runs: " : "", other ? other : "");
    /* Minor-version compatibility (NVIDIA CUDA Compatibility guide, the
     * cuda_minor_compat table): same major, driver at or above its floor. */
    bool minor_ok = fl && drv && atoi(have) == atoi(t->cuda) && td_version_cmp(drv, fl) >= 0;
    td_findings_add(f, minor_ok ? TD_SEV_WARNING : TD_SEV_ERROR, TD_KIND_CUDA_DRIVER_TOO_OLD,
                    "libcuda.so.1", t->dir, NULL, fix,
                    "torch %s needs CUDA %s (driver %s or newer); driver %s supports CUDA %s%s",
                    t->version, t->cuda, min ? min : "?", drv ? drv : "?", have,
                    minor_ok ? ": it still runs through minor-version compatibility, without "
                               "PTX JIT of newer code"
                             : "");
}

static void rule_arch(const struct td_facts *x, const struct td_torch *t, struct td_findings *f)
{
    if (!t->cuda || !x->gpu || x->gpu->status != TD_GPU_OK)
        return;
    const char *arch[64];
    size_t n = 0;
    char table[32][8], ptx[8] = "", ptxname[16];
    for (size_t i = 0; i < t->n_cuda_archs && n < 64; i++)
        arch[n++] = t->cuda_archs[i];
    if (n == 0) { /* not read from the binary: the release table says */
        char line[TD_KB_STR];
        td_version_trim(t->base_version ? t->base_version : t->version, 2, line, sizeof line);
        size_t k = td_kb_torch_arches(line, t->cuda, x->os, table, 32, ptx);
        for (size_t i = 0; i < k; i++)
            arch[n++] = table[i];
        if (ptx[0] && n < 64) {
            snprintf(ptxname, sizeof ptxname, "compute_%c%s", ptx[0], ptx + 2);
            arch[n++] = ptxname;
        }
    }
    for (size_t i = 0; i < x->gpu->n_gpus; i++) {
        const struct td_gpu *g = &x->gpu->gpus[i];
        if (g->cc_major == 0)
            continue;
        char fix[1024], list[512] = "", libs[1024], have[TD_KB_STR];
        const char *drv = driver_cuda(x, have, sizeof have);
        bool torch_runs = n == 0 || td_kb_arch_runs(arch, n, g->cc_major, g->cc_minor);
        size_t lacking = td_rules_gpu_code_lacking(t, i, libs, sizeof libs);
        struct td_kb_build b;
        const char *cmd = NULL;
        if (!torch_runs || lacking) {
            cmd = td_rules_install_fix(x, owner(x, t), NULL, &b, fix, sizeof fix);
            if (!cmd)
                cmd = driver_then_install(x, owner(x, t), fix, sizeof fix);
        }
        if (torch_runs) {
            struct td_gpu_code_rule r = {
                .driver_cuda = drv,
                .os = x->os,
                .fix = cmd ? cmd : "no published torch build supports this GPU yet"};
            td_rules_gpu_code(t, g, i, &r, f);
            continue;
        }
        for (size_t k = 0; k < n; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? " " : "",
                     arch[k]);
        /* One cause, one finding: the CUDA libraries lacking it too are named here. */
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, t->dir, NULL, NULL,
                        cmd ? cmd : "no published torch build supports this GPU yet",
                        "%s (sm_%d%d) is not among the architectures torch %s was built for (%s): "
                        "CUDA kernels will fail with \"no kernel image is available\"%s%s",
                        g->name ? g->name : "the GPU", g->cc_major, g->cc_minor, t->version, list,
                        lacking ? "; the CUDA libraries it loads lack it too: " : "",
                        lacking ? libs : "");
    }
}

static void rule_python(const struct td_facts *x, const struct td_torch *t, struct td_findings *f)
{
    const struct td_python *py = owner(x, t);
    char min[TD_KB_STR], max[TD_KB_STR], line[TD_KB_STR], have[TD_KB_STR];
    if (!py || py->major == 0 || !t->base_version)
        return;
    /* The release table describes the PyPI wheels; a distribution (Debian,
     * conda) builds torch for its own Python: Debian's 1.13 runs on 3.11. */
    if (t->installer && (strcmp(t->installer, "debian") == 0 || strcmp(t->installer, "conda") == 0))
        return;
    td_version_trim(t->base_version, 2, line, sizeof line);
    if (!td_kb_torch_python_range(line, min, max))
        return;
    snprintf(have, sizeof have, "%d.%d", py->major, py->minor);
    if (td_version_cmp(have, min) >= 0 && td_version_cmp(have, max) <= 0)
        return;
    char fix[1024];
    struct td_kb_build b;
    const char *cmd = td_rules_install_fix(x, py, NULL, &b, fix, sizeof fix);
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_PYTHON_VERSION_UNSUPPORTED, t->dir, py->exe, NULL,
                    cmd ? cmd : "use a Python the release supports",
                    "torch %s supports Python %s to %s; %s is Python %s", line, min, max, py->exe,
                    have);
}

/* The libcuda.so.1 a process would load is the CUDA toolkit's link stub
 * (stubs/ on LD_LIBRARY_PATH): every CUDA call fails with
 * CUDA_ERROR_STUB_LIBRARY (34). */
static void rule_libcuda(const struct td_facts *x, struct td_findings *f)
{
    const struct td_gpu_info *g = x->gpu;
    if (!g || !g->libcuda || !g->libcuda_is_stub)
        return;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", g->libcuda);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    char fix[1200];
    snprintf(fix, sizeof fix,
             "remove %s from LD_LIBRARY_PATH: the stub is for linking only; the driver "
             "installs the real libcuda.so.1",
             dir);
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_STUB_LIBRARY, g->libcuda, NULL, NULL, fix,
                    "the libcuda.so.1 found first (%s) is the CUDA toolkit's link stub, not the "
                    "driver: CUDA calls fail with CUDA_ERROR_STUB_LIBRARY",
                    g->libcuda_via ? g->libcuda_via : "?");
}

void td_rules_torch(const struct td_facts *x, struct td_findings *f)
{
    rule_libcuda(x, f);
    for (size_t i = 0; i < x->n_torch; i++) {
        const struct td_torch *t = &x->torch[i];
        rule_variant(x, t, f);
        rule_driver(x, t, f);
        rule_arch(x, t, f);
        rule_python(x, t, f);
    }
}

void td_rules_env(const struct td_facts *x, char *const *env, struct td_findings *f)
{
    const char *cuda = x->n_torch ? x->torch[0].cuda : NULL;
    for (char *const *e = env; e && *e; e++) {
        const char *eq = strchr(*e, '=');
        char name[128];
        size_t len = eq ? (size_t)(eq - *e) : 0;
        if (!eq || len == 0 || len >= sizeof name)
            continue;
        memcpy(name, *e, len);
        name[len] = '\0';
        td_kb_check_env(name, eq + 1, x->os, cuda, f);
    }
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

bool td_rules_workload(const struct td_facts *x, const struct td_kb_workload *w,
                       struct td_findings *f)
{
    size_t before = td_findings_count(f, TD_SEV_ERROR);
    const struct td_gpu *gpu = first_gpu(x);
    char src[600];
    snprintf(src, sizeof src, "(needs from %s)", w->source);
    if (!gpu) {
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, NULL, w->slug, NULL,
                        "train on a machine with an NVIDIA GPU of at least the VRAM below",
                        "%s needs an NVIDIA GPU with %.0f GB (%.0f GB recommended); none is "
                        "usable here %s",
                        w->name, w->vram_min_gb, w->vram_rec_gb, src);
    } else {
        /* Marketing "24 GB" cards report a little less than 24 GiB. */
        double vram = gib(gpu->memory) * 1.0737;
        if (w->vram_min_gb > 0 && vram + 0.5 < w->vram_min_gb)
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_INSUFFICIENT_MEMORY, gpu->name, w->slug, NULL,
                            w->notes[0] ? w->notes : NULL,
                            "%s needs at least %.0f GB of GPU memory; %s has %.1f GB %s", w->name,
                            w->vram_min_gb, gpu->name, vram, src);
        else if (w->vram_rec_gb > 0 && vram + 0.5 < w->vram_rec_gb)
            td_findings_add(f, TD_SEV_WARNING, TD_KIND_INSUFFICIENT_MEMORY, gpu->name, w->slug,
                            NULL, w->notes[0] ? w->notes : NULL,
                            "%s runs in %.1f GB only with its memory-saving options (%.0f GB "
                            "recommended) %s",
                            w->name, vram, w->vram_rec_gb, src);
        if (w->cc_major && (gpu->cc_major < w->cc_major ||
                            (gpu->cc_major == w->cc_major && gpu->cc_minor < w->cc_minor)))
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, gpu->name, w->slug, NULL,
                            NULL, "%s needs compute capability %d.%d or newer; %s is %d.%d %s",
                            w->name, w->cc_major, w->cc_minor, gpu->name, gpu->cc_major,
                            gpu->cc_minor, src);
    }
    if (x->sys && w->ram_min_gb > 0 && x->sys->ram_total &&
        gib(x->sys->ram_total) * 1.0737 + 0.5 < w->ram_min_gb)
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_INSUFFICIENT_MEMORY, "RAM", w->slug, NULL, NULL,
                        "%s needs %.0f GB of RAM; this machine has %.1f GB %s", w->name,
                        w->ram_min_gb, gib(x->sys->ram_total) * 1.0737, src);
    if (x->sys && w->disk_gb > 0 && x->sys->disk_free &&
        gib(x->sys->disk_free) * 1.0737 < w->disk_gb)
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_INSUFFICIENT_MEMORY, "disk", w->slug, NULL,
                        "free disk space where the models are cached (HF_HOME) or point HF_HOME "
                        "at a larger disk",
                        "%s needs about %.0f GB of disk for models and outputs; %.1f GB free %s",
                        w->name, w->disk_gb, gib(x->sys->disk_free) * 1.0737, src);
    return td_findings_count(f, TD_SEV_ERROR) == before;
}
