/* check's GPU-code rule for the CUDA libraries torch loads (cuBLAS, cuDNN,
 * NCCL, ...): a library whose fat binary holds neither SASS that runs on
 * the GPU nor PTX the driver can JIT for it (td_kb_arch_fit, NVIDIA's
 * binary and PTX compatibility rules) fails there with "no kernel image is
 * available", whatever torch itself was built for; PTX only helps when
 * the driver loads its ISA (data/ptx_isa_cuda.tsv). One finding per wheel
 * (or per directory when no RECORD lists the file), naming its libraries. */
#include <stdio.h>
#include <string.h>

#include "base/version.h"

#include "probe/gpu/gpu_code.h"
#include "probe/python/pyfs.h"
#include "probe/rules.h"

enum { MAX_GROUPS = 32, MAX_IN_GROUP = 16 };

enum verdict {
    RUNS,
    NO_CODE,     /* neither SASS for the GPU nor PTX it can JIT */
    PTX_TOO_NEW, /* only PTX, of an ISA newer than the driver loads */
};

/* The libraries of one wheel (or one directory) that lack the GPU's code
 * for one reason. */
struct lacking_group {
    char key[512]; /* the package, or the directory */
    bool is_package;
    enum verdict why;
    char need[16]; /* PTX_TOO_NEW: the CUDA the lowest PTX ISA needs */
    const struct td_gpu_code *libs[MAX_IN_GROUP];
    size_t n;
};

/* The file torch's own rule reads (libtorch_cuda.so): not checked twice. */
static bool is_torch_own(const struct td_torch *t, const struct td_gpu_code *c)
{
    return t->archs_from && t->n_cuda_archs &&
           strcmp(td_pyfs_basename(t->archs_from), td_pyfs_basename(c->path)) == 0;
}

/* Only PTX runs on G: whether the driver (CUDA DRIVER_CUDA) loads the ISA
 * of one of those PTX arches; NEED gets the lowest CUDA they ask for. An
 * ISA the table does not know, or an unknown driver, is given the benefit
 * of the doubt. */
static enum verdict ptx_verdict(const struct td_gpu_code *c, const struct td_gpu *g,
                                const char *driver_cuda, char *need, size_t cap)
{
    need[0] = '\0';
    for (size_t i = 0; driver_cuda && c->ptx_isa && i < c->n_archs; i++) {
        char cuda[16];
        uint16_t isa = c->ptx_isa[i];
        if (!isa || td_kb_arch_fit(&c->archs[i], 1, g->cc_major, g->cc_minor) != TD_KB_ARCH_PTX)
            continue;
        if (!td_kb_ptx_isa_cuda(isa >> 8, isa & 0xff, cuda, sizeof cuda) ||
            td_version_cmp(driver_cuda, cuda) >= 0)
            return RUNS;
        if (!need[0] || td_version_cmp(cuda, need) < 0)
            snprintf(need, cap, "%s", cuda);
    }
    return need[0] ? PTX_TOO_NEW : RUNS;
}

/* SASS that runs on G, or PTX the driver can JIT (td_kb_arch_fit: NVIDIA's
 * binary and PTX compatibility rules). A list cut short by a malformed
 * header counts only when it holds something. */
static enum verdict judge(const struct td_torch *t, const struct td_gpu_code *c,
                          const struct td_gpu *g, const char *driver_cuda, char *need, size_t cap)
{
    if (is_torch_own(t, c) || !c->n_archs)
        return RUNS;
    switch (td_kb_arch_fit(c->archs, c->n_archs, g->cc_major, g->cc_minor)) {
    case TD_KB_ARCH_NONE:
        return NO_CODE;
    case TD_KB_ARCH_PTX:
        return ptx_verdict(c, g, driver_cuda, need, cap);
    default:
        return RUNS;
    }
}

/* The group of C for WHY (added when new); NULL when the table is full. */
static struct lacking_group *group_of(struct lacking_group *groups, size_t *n,
                                      const struct td_gpu_code *c, enum verdict why,
                                      const char *need)
{
    char key[512];
    if (c->package)
        snprintf(key, sizeof key, "%s", c->package);
    else
        snprintf(key, sizeof key, "%.*s", (int)(td_pyfs_basename(c->path) - c->path), c->path);
    for (size_t i = 0; i < *n; i++)
        if (strcmp(groups[i].key, key) == 0 && groups[i].why == why &&
            strcmp(groups[i].need, need) == 0)
            return &groups[i];
    if (*n == MAX_GROUPS)
        return NULL;
    struct lacking_group *g = &groups[(*n)++];
    memcpy(g->key, key, sizeof key);
    snprintf(g->need, sizeof g->need, "%s", need);
    g->is_package = c->package != NULL;
    g->why = why;
    g->n = 0;
    return g;
}

static void append(char *out, size_t cap, const char *sep, const char *s)
{
    size_t at = strlen(out);
    snprintf(out + at, cap - at, "%s%s", at ? sep : "", s);
}

size_t td_rules_gpu_code_lacking(const struct td_torch *t, const struct td_gpu *g,
                                 const char *driver_cuda, char *list, size_t cap)
{
    size_t n = 0;
    char need[16];
    list[0] = '\0';
    for (size_t i = 0; i < t->n_gpu_code; i++)
        if (judge(t, &t->gpu_code[i], g, driver_cuda, need, sizeof need) != RUNS) {
            append(list, cap, ", ", td_pyfs_basename(t->gpu_code[i].path));
            n++;
        }
    return n;
}

static void add_finding(const struct td_torch *t, const struct td_gpu *g,
                        const struct td_gpu_code_rule *r, const struct lacking_group *grp,
                        struct td_findings *f)
{
    char names[1024] = "", archs[512] = "", via[600] = "", owner[600] = "", fix[600];
    for (size_t i = 0; i < grp->n; i++)
        append(names, sizeof names, ", ", td_pyfs_basename(grp->libs[i]->path));
    const struct td_gpu_code *first = grp->libs[0];
    for (size_t i = 0; i < first->n_archs; i++)
        append(archs, sizeof archs, " ", first->archs[i]);
    if (first->via)
        snprintf(via, sizeof via, " (loaded by %s)", td_pyfs_basename(first->via));
    if (grp->is_package)
        snprintf(owner, sizeof owner, "%.500s's ", grp->key);
    const char *gpu = g->name ? g->name : "the GPU";
    if (grp->why == PTX_TOO_NEW) {
        char drv[64];
        const char *min = td_kb_cuda_min_driver(grp->need, r->os, drv, sizeof drv, NULL);
        snprintf(fix, sizeof fix, "update the NVIDIA driver to %s%s or newer (CUDA %s)",
                 min ? "" : "one for CUDA ", min ? min : grp->need, grp->need);
        td_findings_add(
            f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, first->path, t->dir, NULL, fix,
            "%s (sm_%d%d) has no SASS in %s%s%s, only PTX (%s) whose ISA needs a "
            "driver for CUDA %s; this one supports CUDA %s, so it cannot JIT-compile "
            "it (CUDA_ERROR_UNSUPPORTED_PTX_VERSION) and their CUDA kernels fail",
            gpu, g->cc_major, g->cc_minor, owner, names, via, archs, grp->need, r->driver_cuda);
        return;
    }
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, first->path, t->dir, NULL,
                    r->fix,
                    "%s (sm_%d%d) has no code in %s%s%s: %s for %s, neither SASS for it nor PTX "
                    "to JIT, so their CUDA kernels fail with \"no kernel image is available\" "
                    "although torch %s itself runs on it",
                    gpu, g->cc_major, g->cc_minor, owner, names, via,
                    grp->n > 1 ? "the first is built" : "built", archs, t->version);
}

void td_rules_gpu_code(const struct td_torch *t, const struct td_gpu *g,
                       const struct td_gpu_code_rule *r, struct td_findings *f)
{
    struct lacking_group groups[MAX_GROUPS];
    size_t n = 0;
    for (size_t i = 0; i < t->n_gpu_code; i++) {
        const struct td_gpu_code *c = &t->gpu_code[i];
        char need[16];
        enum verdict why = judge(t, c, g, r->driver_cuda, need, sizeof need);
        struct lacking_group *grp = why != RUNS ? group_of(groups, &n, c, why, need) : NULL;
        if (grp && grp->n < MAX_IN_GROUP)
            grp->libs[grp->n++] = c;
    }
    for (size_t i = 0; i < n; i++)
        add_finding(t, g, r, &groups[i], f);
}
