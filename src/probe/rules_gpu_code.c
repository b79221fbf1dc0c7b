/* check's GPU-code rule for the CUDA libraries torch loads (cuBLAS, cuDNN,
 * cuFFT, NCCL, ...), from the verdict probe/gpu_code.c gave each library
 * for each GPU (data/gpu_code_rules.tsv, NVIDIA's binary and PTX
 * compatibility rules, over every fat binary container of the file): a
 * library with neither SASS that runs on the GPU nor PTX the driver can
 * JIT for it fails there with "no kernel image is available", whatever
 * torch itself was built for; PTX only helps when the driver loads its
 * ISA (data/ptx_isa_cuda.tsv). A library that runs only through PTX JIT is
 * a note: it works, at a first-launch cost. One finding per wheel (or per
 * directory when no RECORD lists the file) and reason, naming its
 * libraries. */
#include <stdio.h>
#include <string.h>

#include "probe/gpu/gpu_code.h"
#include "probe/python/pyfs.h"
#include "probe/rules.h"

enum { MAX_GROUPS = 32, MAX_IN_GROUP = 16 };

/* The libraries of one wheel (or one directory) with one verdict. */
struct verdict_group {
    char key[512]; /* the package, or the directory */
    bool is_package;
    enum td_gpu_code_verdict why;
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

/* C's verdict for GPU number GPU (NATIVE for torch's own file and for a
 * library not judged); NEED gets PTX_TOO_NEW's CUDA. */
static enum td_gpu_code_verdict verdict_of(const struct td_torch *t, const struct td_gpu_code *c,
                                           size_t gpu, const char **need)
{
    *need = "";
    if (is_torch_own(t, c) || !c->verdicts)
        return TD_GPU_CODE_NATIVE;
    if (c->need && c->need[gpu])
        *need = c->need[gpu];
    return (enum td_gpu_code_verdict)c->verdicts[gpu];
}

static bool fails(enum td_gpu_code_verdict v)
{
    return v == TD_GPU_CODE_NONE || v == TD_GPU_CODE_PTX_TOO_NEW;
}

/* The group of C for WHY (added when new); NULL when the table is full. */
static struct verdict_group *group_of(struct verdict_group *groups, size_t *n,
                                      const struct td_gpu_code *c, enum td_gpu_code_verdict why,
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
    struct verdict_group *g = &groups[(*n)++];
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

size_t td_rules_gpu_code_lacking(const struct td_torch *t, size_t gpu, char *list, size_t cap)
{
    size_t n = 0;
    list[0] = '\0';
    for (size_t i = 0; i < t->n_gpu_code; i++) {
        const char *need;
        if (fails(verdict_of(t, &t->gpu_code[i], gpu, &need))) {
            append(list, cap, ", ", td_pyfs_basename(t->gpu_code[i].path));
            n++;
        }
    }
    return n;
}

/* The parts every finding of GRP names: its libraries, the first one's
 * architectures, who loads it, whose wheel it is. */
struct group_words {
    char names[1024], archs[512], via[600], owner[600];
};

static void group_words(const struct verdict_group *grp, struct group_words *w)
{
    memset(w, 0, sizeof *w);
    for (size_t i = 0; i < grp->n; i++)
        append(w->names, sizeof w->names, ", ", td_pyfs_basename(grp->libs[i]->path));
    const struct td_gpu_code *first = grp->libs[0];
    for (size_t i = 0; i < first->n_archs; i++)
        append(w->archs, sizeof w->archs, " ", first->archs[i]);
    if (first->via)
        snprintf(w->via, sizeof w->via, " (loaded by %s)", td_pyfs_basename(first->via));
    if (grp->is_package)
        snprintf(w->owner, sizeof w->owner, "%.500s's ", grp->key);
}

static void add_finding(const struct td_torch *t, const struct td_gpu *g,
                        const struct td_gpu_code_rule *r, const struct verdict_group *grp,
                        struct td_findings *f)
{
    struct group_words w;
    group_words(grp, &w);
    const char *lib = grp->libs[0]->path, *gpu = g->name ? g->name : "the GPU";
    if (grp->why == TD_GPU_CODE_PTX_JIT) {
        td_findings_add(
            f, TD_SEV_INFO, TD_KIND_PTX_JIT_ONLY, lib, t->dir, NULL,
            "nothing to fix; keep the JIT cache large enough to hold it (CUDA_CACHE_MAXSIZE) and "
            "on a disk that persists, or install a build with SASS for this GPU",
            "%s (sm_%d%d) has no SASS in %s%s%s, only PTX (%s): the driver JIT-compiles each "
            "kernel at its first launch (seconds to minutes, once, then from the JIT cache), "
            "so it runs, more slowly at first",
            gpu, g->cc_major, g->cc_minor, w.owner, w.names, w.via, w.archs);
        return;
    }
    if (grp->why == TD_GPU_CODE_PTX_TOO_NEW) {
        char drv[64], fix[600];
        const char *min = td_kb_cuda_min_driver(grp->need, r->os, drv, sizeof drv, NULL);
        snprintf(fix, sizeof fix, "update the NVIDIA driver to %s%s or newer (CUDA %s)",
                 min ? "" : "one for CUDA ", min ? min : grp->need, grp->need);
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, lib, t->dir, NULL, fix,
                        "%s (sm_%d%d) has no SASS in %s%s%s, only PTX (%s) whose ISA needs a "
                        "driver for CUDA %s; this one supports CUDA %s, so it cannot JIT-compile "
                        "it (CUDA_ERROR_UNSUPPORTED_PTX_VERSION) and their CUDA kernels fail",
                        gpu, g->cc_major, g->cc_minor, w.owner, w.names, w.via, w.archs, grp->need,
                        r->driver_cuda);
        return;
    }
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, lib, t->dir, NULL, r->fix,
                    "%s (sm_%d%d) has no code in %s%s%s: %s for %s, neither SASS for it nor PTX "
                    "to JIT, so their CUDA kernels fail with \"no kernel image is available\" "
                    "although torch %s itself runs on it",
                    gpu, g->cc_major, g->cc_minor, w.owner, w.names, w.via,
                    grp->n > 1 ? "the first is built" : "built", w.archs, t->version);
}

void td_rules_gpu_code(const struct td_torch *t, const struct td_gpu *g, size_t gpu,
                       const struct td_gpu_code_rule *r, struct td_findings *f)
{
    struct verdict_group groups[MAX_GROUPS];
    size_t n = 0;
    for (size_t i = 0; i < t->n_gpu_code; i++) {
        const struct td_gpu_code *c = &t->gpu_code[i];
        const char *need;
        enum td_gpu_code_verdict why = verdict_of(t, c, gpu, &need);
        struct verdict_group *grp =
            why != TD_GPU_CODE_NATIVE ? group_of(groups, &n, c, why, need) : NULL;
        if (grp && grp->n < MAX_IN_GROUP)
            grp->libs[grp->n++] = c;
    }
    for (size_t i = 0; i < n; i++)
        add_finding(t, g, r, &groups[i], f);
}
