/* torch's pins checked as `pip check` checks them: every distribution in
 * torch's site dir that matters to torch (torch, its companions, the
 * nvidia-* wheels, anything whose Requires-Dist names torch) has each
 * requirement that applies here (PEP 508 markers, extras off) held against
 * the installed version (PEP 440). A violated pin explains the libraries
 * it leaves missing, which are folded into its finding (td_torch_absorb). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/pep508.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

enum { METADATA_HEAD = 64 << 10, MAX_PINS = 32, MAX_STEMS = 64 };

/* One installed distribution: "{name}-{version}.dist-info" (PEP 427). */
struct dist {
    char key[TD_REQ_NAME]; /* PEP 503 name */
    const char *version;
    const char *dist_info;
};

static int by_key(const void *x, const void *y)
{
    return strcmp(((const struct dist *)x)->key, ((const struct dist *)y)->key);
}

static struct dist *index_dists(const struct td_probe_ctx *ctx, const struct td_site_listing *l,
                                size_t *n)
{
    struct dist *d = td_arena_array(ctx->arena, l->n ? l->n : 1, sizeof *d);
    *n = 0;
    for (size_t i = 0; d && i < l->n; i++) {
        const char *e = l->names[i], *dash = strchr(e, '-');
        size_t len = strlen(e);
        if (!dash || len < 11 || strcmp(e + len - 10, ".dist-info") != 0)
            continue;
        struct dist *x = &d[(*n)++];
        td_pep503_normalize(e, (size_t)(dash - e), x->key, sizeof x->key);
        x->version = td_arena_strndup(ctx->arena, dash + 1, (size_t)(e + len - 10 - dash - 1));
        x->dist_info = td_pyfs_join(ctx->arena, l->dir, e);
    }
    if (d && *n)
        qsort(d, *n, sizeof *d, by_key);
    return d;
}

static const struct dist *find_dist(const struct dist *d, size_t n, const char *key)
{
    struct dist probe;
    snprintf(probe.key, sizeof probe.key, "%s", key);
    return n ? bsearch(&probe, d, n, sizeof *d, by_key) : NULL;
}

/* The distributions built for one torch or one CUDA (docs/check.md). */
static bool matters_by_name(const char *key)
{
    static const char *const names[] = {"torch",     "torchvision",   "torchaudio", "torchtext",
                                        "xformers",  "triton",        "flash-attn", "bitsandbytes",
                                        "deepspeed", "pytorch-triton"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(key, names[i]) == 0)
            return true;
    return strncmp(key, "nvidia-", 7) == 0;
}

/* The environment markers of PY on this machine. */
static void marker_env(const struct td_python *py, struct td_pep508_env *env, char *buf, size_t cap)
{
#if defined(_WIN32)
    const char *os = "windows";
#elif defined(__APPLE__)
    const char *os = "macos";
#else
    const char *os = "linux";
#endif
#if defined(__x86_64__) || defined(_M_X64)
    const char *machine = "x86_64";
#elif defined(__aarch64__) || defined(_M_ARM64)
    const char *machine = "aarch64";
#else
    const char *machine = "";
#endif
    td_pep508_env_for(env, os, machine, py && py->version ? py->version : "3", buf, cap);
}

/* Stems of the native libraries a RECORD lists ("libcudnn" for
 * nvidia/cudnn/lib/libcudnn.so.9, "cudnn64" for cudnn64_9.dll). */
static size_t record_stems(const struct td_probe_ctx *ctx, const char *dist_info,
                           const char **stems, size_t cap)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len, n = 0;
    snprintf(path, sizeof path, "%s/RECORD", dist_info);
    char *text = td_pyfs_read(ctx, path, 64 << 20, &len);
    for (char *line = text, *next; line && *line && n < cap; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        line[strcspn(line, ",")] = '\0';
        char stem[256];
        const char *b = td_pyfs_basename(line);
        if (td_library_stem(b, stem, sizeof stem))
            stems[n++] = td_arena_strdup(ctx->arena, stem);
    }
    free(text);
    return n;
}

bool td_library_stem(const char *name, char *out, size_t cap)
{
    const char *so = strstr(name, ".so");
    size_t n = strlen(name);
    if (so && (so[3] == '\0' || so[3] == '.'))
        n = (size_t)(so - name);
    else if (n > 4 && strcasecmp(name + n - 4, ".dll") == 0) {
        n -= 4;
        while (n && name[n - 1] >= '0' && name[n - 1] <= '9')
            n--;
        while (n && name[n - 1] == '_')
            n--;
    } else
        return false;
    if (!n || n >= cap)
        return false;
    snprintf(out, cap, "%.*s", (int)n, name);
    return true;
}

struct pins {
    const struct td_probe_ctx *ctx;
    struct td_torch *t;
    const struct td_python *py;
    const struct dist *dists;
    size_t n_dists;
    struct td_pep508_env env;
    struct td_findings *f;
};

/* A companion_mismatch the data-table pairing check already made for
 * this distribution: the same root cause, said once. */
static bool already_said(const struct td_findings *f, const char *dist_info)
{
    for (size_t i = 0; i < f->count; i++)
        if (!strcmp(f->items[i].kind, TD_KIND_COMPANION_MISMATCH) && f->items[i].needed_by &&
            !strcmp(f->items[i].needed_by, dist_info))
            return true;
    return false;
}

static void violated(struct pins *p, const char *who, const char *who_version,
                     const struct dist *from, const struct td_requirement *r,
                     const struct dist *have)
{
    struct td_torch *t = p->t;
    if (already_said(p->f, from->dist_info) || t->n_pins >= MAX_PINS)
        return;
    char spec[TD_REQ_NAME + TD_REQ_SPEC], fix[1024];
    snprintf(spec, sizeof spec, "%s%s", r->key, r->specifier);
    const char *inst = td_dist_info_installer(p->ctx, have->dist_info);
    td_install_cmd(inst ? inst : "pip", p->py ? p->py->exe : "python3",
                   p->py ? p->py->prefix : NULL, NULL, TD_INSTALL, spec, fix, sizeof fix);
    struct td_finding *x = td_findings_add(
        p->f, TD_SEV_ERROR, TD_KIND_COMPANION_MISMATCH, r->key, from->dist_info, NULL, fix,
        "%s %s requires %s%s (Requires-Dist in its METADATA) but %s %s is installed in %s, as "
        "`pip check` would report",
        who, who_version, r->key, r->specifier, have->key, have->version, t->site_dir);
    if (!x)
        return;
    struct td_pin *pin = &t->pins[t->n_pins++];
    pin->finding = p->f->count - 1;
    pin->package = td_arena_strdup(p->ctx->arena, r->key);
    pin->stems = td_arena_array(p->ctx->arena, MAX_STEMS, sizeof *pin->stems);
    pin->n_stems = pin->stems ? record_stems(p->ctx, have->dist_info, pin->stems, MAX_STEMS) : 0;
}

/* A cheap first look (strcasestr is not in every C library): can TEXT
 * name torch at all? */
static bool names_torch(const char *text)
{
    for (const char *p = text; *p; p++)
        if ((*p == 't' || *p == 'T') && strncasecmp(p, "torch", 5) == 0)
            return true;
    return false;
}

/* Each Requires-Dist of one distribution's METADATA. ALWAYS: it matters by
 * name; otherwise only when one of its requirements names torch. */
static void check_dist(struct pins *p, const struct dist *d, bool always)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/METADATA", d->dist_info);
    char *text = td_pyfs_read(p->ctx, path, METADATA_HEAD, &len);
    if (!text)
        return;
    char *end = strstr(text, "\n\n"); /* the headers end at the first blank line */
    if (end)
        *end = '\0';
    struct td_requirement *r = always || names_torch(text) ? malloc(sizeof *r) : NULL;
    bool torch = false;
    for (int pass = always ? 1 : 0; r && pass < 2; pass++) {
        for (const char *at = text; td_metadata_next_requirement(&at, r);) {
            torch |= !strcmp(r->key, "torch");
            const struct dist *have = pass ? find_dist(p->dists, p->n_dists, r->key) : NULL;
            bool applies = !r->marker[0] || td_pep508_marker(r->marker, &p->env, "") == 1;
            if (have && applies && !r->url && td_pep440_contains(r->specifier, have->version) == 0)
                violated(p, d->key, d->version, d, r, have);
        }
        if (!pass && !torch)
            break;
    }
    free(r);
    free(text);
}

void td_torch_pins(const struct td_probe_ctx *ctx, struct td_torch *t,
                   const struct td_site_listing *l, const struct td_python *py,
                   struct td_findings *f)
{
    struct pins p = {.ctx = ctx, .t = t, .py = py, .f = f};
    char buf[64];
    marker_env(py, &p.env, buf, sizeof buf);
    struct dist *d = index_dists(ctx, l, &p.n_dists);
    t->pins = td_arena_array(ctx->arena, MAX_PINS, sizeof *t->pins);
    if (!d || !t->pins)
        return;
    p.dists = d;
    for (size_t i = 0; i < p.n_dists; i++)
        check_dist(&p, &d[i], matters_by_name(d[i].key));
}

/* The pin whose installed package ships another version of LIBRARY. */
static const struct td_pin *explaining_pin(const struct td_torch *t, const char *library)
{
    char stem[256];
    if (!library || !td_library_stem(td_pyfs_basename(library), stem, sizeof stem))
        return NULL;
    for (size_t i = 0; i < t->n_pins; i++)
        for (size_t k = 0; k < t->pins[i].n_stems; k++)
            if (!strcmp(t->pins[i].stems[k], stem))
                return &t->pins[i];
    return NULL;
}

void td_torch_absorb(const struct td_torch *t, const struct td_findings *from,
                     struct td_findings *to)
{
    for (size_t i = 0; i < from->count; i++) {
        const struct td_finding *x = &from->items[i];
        const struct td_pin *pin =
            t && !strcmp(x->kind, TD_KIND_MISSING_LIBRARY) ? explaining_pin(t, x->library) : NULL;
        if (!pin) {
            td_findings_add(to, x->severity, x->kind, x->library, x->needed_by, x->symbol, x->fix,
                            "%s", x->detail);
            continue;
        }
        struct td_finding *root = &to->items[pin->finding];
        const char *lib = td_pyfs_basename(x->library);
        if (strstr(root->detail, lib))
            continue; /* already named: one more library that needs it */
        size_t n = strlen(root->detail) + strlen(lib) + 400;
        char *detail = td_arena_alloc(&to->arena, n);
        if (!detail)
            continue;
        snprintf(detail, n, "%s; this leaves %s missing, needed by %s (%s ships another version)",
                 root->detail, lib, x->needed_by ? td_pyfs_basename(x->needed_by) : "torch",
                 pin->package);
        root->detail = detail;
    }
}
