/* check's GPU-code rule for the CUDA libraries torch loads (cuBLAS, cuDNN,
 * NCCL, ...): a library whose fat binary holds neither SASS that runs on
 * the GPU nor PTX the driver can JIT for it (td_kb_arch_fit, NVIDIA's
 * binary and PTX compatibility rules) fails there with "no kernel image is
 * available", whatever torch itself was built for. One finding per wheel
 * (or per directory when no RECORD lists the file), naming its libraries. */
#include <stdio.h>
#include <string.h>

#include "probe/gpu_code.h"
#include "probe/pyfs.h"
#include "probe/rules.h"

enum { MAX_GROUPS = 32, MAX_IN_GROUP = 16 };

/* The libraries of one wheel (or one directory) that lack the GPU's code. */
struct lacking_group {
    char key[512]; /* the package, or the directory */
    bool is_package;
    const struct td_gpu_code *libs[MAX_IN_GROUP];
    size_t n;
};

/* The file torch's own rule reads (libtorch_cuda.so): not checked twice. */
static bool is_torch_own(const struct td_torch *t, const struct td_gpu_code *c)
{
    return t->archs_from && t->n_cuda_archs &&
           strcmp(td_pyfs_basename(t->archs_from), td_pyfs_basename(c->path)) == 0;
}

/* No SASS that runs on G and no PTX it can JIT. A list cut short by a
 * malformed header counts only when it holds something. */
static bool lacks(const struct td_gpu_code *c, const struct td_gpu *g)
{
    return c->n_archs &&
           td_kb_arch_fit(c->archs, c->n_archs, g->cc_major, g->cc_minor) == TD_KB_ARCH_NONE;
}

static bool lacking(const struct td_torch *t, const struct td_gpu_code *c, const struct td_gpu *g)
{
    return !is_torch_own(t, c) && lacks(c, g);
}

/* The group of C (added when new); NULL when the table is full. */
static struct lacking_group *group_of(struct lacking_group *groups, size_t *n,
                                      const struct td_gpu_code *c)
{
    char key[512];
    if (c->package)
        snprintf(key, sizeof key, "%s", c->package);
    else
        snprintf(key, sizeof key, "%.*s", (int)(td_pyfs_basename(c->path) - c->path), c->path);
    for (size_t i = 0; i < *n; i++)
        if (strcmp(groups[i].key, key) == 0)
            return &groups[i];
    if (*n == MAX_GROUPS)
        return NULL;
    struct lacking_group *g = &groups[(*n)++];
    memcpy(g->key, key, sizeof key);
    g->is_package = c->package != NULL;
    g->n = 0;
    return g;
}

static void append(char *out, size_t cap, const char *sep, const char *s)
{
    size_t at = strlen(out);
    snprintf(out + at, cap - at, "%s%s", at ? sep : "", s);
}

size_t td_rules_gpu_code_lacking(const struct td_torch *t, const struct td_gpu *g, char *list,
                                 size_t cap)
{
    size_t n = 0;
    list[0] = '\0';
    for (size_t i = 0; i < t->n_gpu_code; i++)
        if (lacking(t, &t->gpu_code[i], g)) {
            append(list, cap, ", ", td_pyfs_basename(t->gpu_code[i].path));
            n++;
        }
    return n;
}

static void add_finding(const struct td_torch *t, const struct td_gpu *g,
                        const struct lacking_group *grp, const char *fix, struct td_findings *f)
{
    char names[1024] = "", archs[512] = "", via[600] = "";
    for (size_t i = 0; i < grp->n; i++)
        append(names, sizeof names, ", ", td_pyfs_basename(grp->libs[i]->path));
    const struct td_gpu_code *first = grp->libs[0];
    for (size_t i = 0; i < first->n_archs; i++)
        append(archs, sizeof archs, " ", first->archs[i]);
    if (first->via)
        snprintf(via, sizeof via, " (loaded by %s)", td_pyfs_basename(first->via));
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, first->path, t->dir, NULL, fix,
                    "%s (sm_%d%d) has no code in %s%s%s%s: %s for %s, neither SASS for it nor "
                    "PTX to JIT, so their CUDA kernels fail with \"no kernel image is "
                    "available\" although torch %s itself runs on it",
                    g->name ? g->name : "the GPU", g->cc_major, g->cc_minor,
                    grp->is_package ? grp->key : "", grp->is_package ? "'s " : "", names, via,
                    grp->n > 1 ? "the first is built" : "built", archs, t->version);
}

void td_rules_gpu_code(const struct td_torch *t, const struct td_gpu *g, const char *fix,
                       struct td_findings *f)
{
    struct lacking_group groups[MAX_GROUPS];
    size_t n = 0;
    for (size_t i = 0; i < t->n_gpu_code; i++) {
        const struct td_gpu_code *c = &t->gpu_code[i];
        struct lacking_group *grp = lacking(t, c, g) ? group_of(groups, &n, c) : NULL;
        if (grp && grp->n < MAX_IN_GROUP)
            grp->libs[grp->n++] = c;
    }
    for (size_t i = 0; i < n; i++)
        add_finding(t, g, &groups[i], fix, f);
}
