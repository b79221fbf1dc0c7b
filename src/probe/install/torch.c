/* src/probe/install/ answers "what is installed, and is it intact?": every
 * torch under every interpreter (torch.c), its RECORD and conda-meta
 * integrity (torch_integrity.c, conda_meta.c, digest_*.c), leftovers of
 * other installs (torch_leftovers.c), pins and constraints (pins.c), the
 * CUDA companion wheels (companions.c), which package provides a file
 * (provider.c) and Windows' path length limit (long_paths.c).
 *
 * torch installations, read without importing: every torch/ under every
 * interpreter's site dirs, its version.py, how it was installed, its CUDA
 * architectures, and installs that shadow each other. Integrity and
 * companions are in torch_integrity.c and companions.c. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/data.h"
#include "probe/gpu/gpu_code.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

enum { MAX_TORCHES = 64 };

static int cmp_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* Reads DIR's entries once (sorted); the listing is kept for every later
 * torch, companion and dist-info lookup in that directory. */
static const struct td_site_listing *site_listing(const struct td_probe_ctx *ctx,
                                                  struct td_site_listing *cache, size_t *n_cache,
                                                  size_t cap, const char *dir)
{
    for (size_t i = 0; i < *n_cache; i++)
        if (strcmp(cache[i].dir, dir) == 0)
            return &cache[i];
    if (*n_cache == cap)
        return NULL;
    struct td_site_listing *l = &cache[(*n_cache)++];
    memset(l, 0, sizeof *l);
    l->dir = dir;
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return l;
    size_t cap_names = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (l->n == cap_names) {
            size_t nc = cap_names ? cap_names * 2 : 64;
            char **grown = td_arena_array(ctx->arena, nc, sizeof *grown);
            if (!grown)
                break;
            if (l->n)
                memcpy(grown, l->names, l->n * sizeof *grown);
            l->names = grown;
            cap_names = nc;
        }
        l->names[l->n++] = td_arena_strdup(ctx->arena, e->d_name);
    }
    closedir(d);
    if (l->n)
        qsort(l->names, l->n, sizeof *l->names, cmp_name);
    return l;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* One assignment of torch/version.py, as setup.py / tools/generate_torch_version.py
 * writes it: "__version__ = '2.1.0+cu121'", "cuda: Optional[str] = '12.1'",
 * "hip = None". NULL for None or when absent. */
const char *td_version_py_value(struct td_arena *a, const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *line = text; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, key, kl) != 0 || (line[kl] != ' ' && line[kl] != '=' && line[kl] != ':'))
            continue;
        const char *eq = strchr(line, '=');
        const char *nl = strchr(line, '\n');
        if (!eq || (nl && eq > nl))
            continue;
        const char *p = eq + 1;
        while (*p == ' ')
            p++;
        if (*p != '\'' && *p != '"')
            return NULL; /* None */
        char quote = *p++;
        const char *end = strchr(p, quote);
        if (!end || (nl && end > nl))
            return NULL;
        return td_arena_strndup(a, p, (size_t)(end - p));
    }
    return NULL;
}

static void read_version(const struct td_probe_ctx *ctx, struct td_torch *t)
{
    struct td_arena *a = ctx->arena;
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/version.py", t->dir);
    char *text = td_pyfs_read(ctx, path, 64 << 10, &len);
    if (text) {
        t->version = td_version_py_value(a, text, "__version__");
        t->cuda = td_version_py_value(a, text, "cuda");
        t->hip = td_version_py_value(a, text, "hip");
        free(text);
    }
    if (t->version) {
        const char *plus = strchr(t->version, '+');
        t->base_version =
            plus ? td_arena_strndup(a, t->version, (size_t)(plus - t->version)) : t->version;
        t->local_tag = plus && plus[1] ? plus + 1 : NULL;
    }
    t->variant = t->hip ? "rocm" : t->cuda ? "cuda" : "cpu";
}

/* Does a conda-meta/NAME.json of PREFIX list torch's files? The pytorch package's
 * record is named "pytorch-VERSION-BUILD.json" (conda-forge and the pytorch
 * channel) and lists "lib/pythonX.Y/site-packages/torch/..." in "files". */
static const char *conda_record(const struct td_probe_ctx *ctx, const char *prefix)
{
    char meta[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
    snprintf(meta, sizeof meta, "%s/conda-meta", prefix);
    DIR *d = td_pyfs_host(ctx, meta, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return NULL;
    const char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        const char *n = e->d_name;
        const char *v = !strncmp(n, "pytorch-", 8) ? n + 8
                        : !strncmp(n, "torch-", 6) ? n + 6
                                                   : NULL;
        if (!v || *v < '0' || *v > '9' || !ends_with(n, ".json"))
            continue;
        char *path = td_pyfs_join(ctx->arena, meta, n);
        size_t len;
        char *text = path ? td_pyfs_read(ctx, path, 64 << 20, &len) : NULL;
        if (text && strstr(text, "site-packages/torch/"))
            found = path;
        free(text);
    }
    closedir(d);
    return found;
}

/* Which Debian package's file list holds DIR (data/torch_packages.tsv). */
static const char *dpkg_list(const struct td_probe_ctx *ctx, const char *dir)
{
    size_t tlen;
    const char *table = td_data_table("torch_packages", &tlen);
    struct td_tsv tsv;
    char line[1024];
    const char *cells[8];
    int nc = table
                 ? (td_tsv_open(&tsv, table, tlen), td_tsv_next(&tsv, line, sizeof line, cells, 8))
                 : -1;
    int c_name = td_tsv_column(cells, nc, "name"), c_role = td_tsv_column(cells, nc, "role");
    while (c_name >= 0 && c_role >= 0 &&
           (nc = td_tsv_next(&tsv, line, sizeof line, cells, 8)) >= 0) {
        if (nc <= c_role || strcmp(cells[c_role], "debian_package") != 0)
            continue;
        char path[TD_PYFS_PATH_MAX];
        size_t len;
        snprintf(path, sizeof path, "/var/lib/dpkg/info/%s.list", cells[c_name]);
        char *text = td_pyfs_read(ctx, path, 16 << 20, &len);
        if (!text)
            continue;
        /* One path per line, absolute. */
        size_t dl = strlen(dir);
        bool hit = false;
        for (const char *p = text; p && *p && !hit;
             p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
            hit = strncmp(p, dir, dl) == 0 && (p[dl] == '\n' || p[dl] == '\0');
        free(text);
        if (hit)
            return td_arena_strdup(ctx->arena, path);
    }
    return NULL;
}

static void find_installer(const struct td_probe_ctx *ctx, struct td_torch *t,
                           const struct td_site_listing *l)
{
    struct td_arena *a = ctx->arena;
    /* site-packages is PREFIX/lib/pythonX.Y/site-packages, or PREFIX/Lib/site-packages on Windows.
     */
    char *up1 = td_pyfs_dirname(a, t->site_dir), *up2 = up1 ? td_pyfs_dirname(a, up1) : NULL;
    char *up3 = up2 ? td_pyfs_dirname(a, up2) : NULL;
    const char *dist_info = td_site_dist_info(ctx, l, "torch", false, NULL);
    const char *conda = up3 ? conda_record(ctx, up3) : NULL;
    if (!conda && up2)
        conda = conda_record(ctx, up2);
    const char *via_pip = dist_info ? td_dist_info_installer(ctx, dist_info) : NULL;
    const char *deb = NULL;
    if (conda || (via_pip && strcmp(via_pip, "conda") == 0)) {
        t->installer = "conda";
        t->dist_info = conda ? conda : dist_info;
    } else if (via_pip) {
        t->installer = via_pip;
        t->dist_info = dist_info;
    } else if ((deb = dpkg_list(ctx, t->dir))) {
        t->installer = "debian";
        t->dist_info = deb;
    } else {
        t->installer = "unknown";
        t->dist_info = dist_info;
    }
}

/* The fat binaries of torch's CUDA library: lib/libtorch_cuda.so or
 * lib/torch_cuda.dll (probe/gpu/gpu_code.h reads either), every entry. */
static void read_archs(const struct td_probe_ctx *ctx, struct td_torch *t)
{
    static const char *const libs[] = {"lib/libtorch_cuda.so", "lib/torch_cuda.dll"};
    for (size_t i = 0; i < 2; i++) {
        char path[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", t->dir, libs[i]);
        if (!td_pyfs_is_file(ctx, path) || !td_pyfs_host(ctx, path, host, sizeof host))
            continue;
        struct td_gpu_code c;
        int rc = td_gpu_code_read(host, NULL, ctx->arena, &c);
        t->archs_from = td_arena_strdup(ctx->arena, path);
        t->archs_error = rc == 0 ? "no fat binary section" : c.error;
        if (rc == 1) {
            t->cuda_archs = c.archs;
            t->n_cuda_archs = c.n_archs;
        }
        return;
    }
}

/* The package name a removal command needs for T (Debian: from its list file). */
static const char *debian_package(struct td_arena *a, const struct td_torch *t)
{
    if (!t->dist_info || strcmp(t->installer, "debian") != 0)
        return NULL;
    const char *b = td_pyfs_basename(t->dist_info);
    return td_arena_strndup(a, b, strcspn(b, ".:"));
}

/* Entry I of interpreter PY's sys.path, in words. */
static void where(const struct td_python *py, size_t i, char *out, size_t cap)
{
    const struct td_syspath_entry *e = &py->sys_path[i];
    snprintf(out, cap, "sys.path[%zu] %s: %s", i, e->path, e->detail);
}

/* What the user runs to import LOSE instead: take WIN's entry off the
 * path when a variable or a .pth line put it there, else remove LOSE
 * (pip would uninstall the winner, the first on sys.path). */
static void shadow_fix(const struct td_probe_ctx *ctx, const struct td_python *py,
                       const struct td_syspath_entry *e, const struct td_torch *lose, char *fix,
                       size_t cap)
{
    fix[0] = '\0';
    if (e && e->why == TD_SP_PYTHONPATH) {
        td_install_cmd_add_raw(fix, cap, "unset PYTHONPATH");
        td_install_cmd_add_raw(fix, cap, " # or drop");
        td_install_cmd_add(fix, cap, e->path);
        td_install_cmd_add_raw(fix, cap, "from it");
    } else if (e && e->why == TD_SP_DOT_PTH) {
        td_remove_cmd(e->from, false, fix, cap);
        td_install_cmd_add_raw(fix, cap, " # the .pth file that adds");
        td_install_cmd_add(fix, cap, e->path);
    } else if (!strcmp(lose->installer, "debian") || !strcmp(lose->installer, "conda")) {
        td_install_cmd(lose->installer, py->exe, py->prefix, debian_package(ctx->arena, lose),
                       TD_REMOVE, "torch", fix, cap);
    } else {
        td_remove_cmd(lose->dir, true, fix, cap);
        if (lose->dist_info)
            td_install_cmd_add_path(fix, cap, lose->dist_info);
    }
}

/* Two or more torch dirs on one interpreter's sys.path: the first regular
 * package wins (importlib's PathFinder asks each entry in order; a torch/
 * without __init__.py is only a namespace portion and loses to a regular
 * package later on the path). */
static void report_shadowing(const struct td_probe_ctx *ctx, const struct td_python *py,
                             struct td_torch *ts, const size_t *idx, const size_t *entry,
                             size_t count, struct td_findings *f)
{
    if (count < 2)
        return;
    const struct td_torch *win = &ts[idx[0]];
    char win_at[TD_PYFS_PATH_MAX + 128], lose_at[TD_PYFS_PATH_MAX + 128];
    where(py, entry[0], win_at, sizeof win_at);
    for (size_t k = 1; k < count; k++) {
        const struct td_torch *lose = &ts[idx[k]];
        char fix[2048];
        shadow_fix(ctx, py, &py->sys_path[entry[0]], lose, fix, sizeof fix);
        where(py, entry[k], lose_at, sizeof lose_at);
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_MULTIPLE_INSTALLS, "torch", py->exe, NULL, fix,
                        "%s imports torch %s from %s (%s, %s); torch %s in %s (%s, %s) is "
                        "shadowed%s",
                        py->exe, win->version ? win->version : "(unknown version)", win->dir,
                        win->installer, win_at, lose->version ? lose->version : "(unknown version)",
                        lose->dir, lose->installer, lose_at,
                        lose->namespace_only ? ": it has no __init__.py, so it is only a "
                                               "namespace portion (a leftover of an uninstall?)"
                                             : ", being later on sys.path");
    }
}

/* What sys.path entry DIR holds as `torch` (importlib FileFinder): a
 * regular package (torch/__init__.py or a sourceless __init__.pyc), a
 * namespace portion (a torch/ folder without either), or nothing. */
static bool torch_in(const struct td_probe_ctx *ctx, const char *entry, char **dir, bool *ns)
{
    *dir = td_pyfs_join(ctx->arena, entry, "torch");
    if (!*dir || !td_pyfs_is_dir(ctx, *dir))
        return false;
    char *init = td_pyfs_join(ctx->arena, *dir, "__init__.py");
    char *initc = td_pyfs_join(ctx->arena, *dir, "__init__.pyc");
    *ns = !(init && td_pyfs_is_file(ctx, init)) && !(initc && td_pyfs_is_file(ctx, initc));
    return true;
}

/* direct_url.json of an editable install (PEP 610: "dir_info":
 * {"editable": true}) names its source folder's URL. */
static const char *editable_url(const struct td_probe_ctx *ctx, const char *dist_info)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/direct_url.json", dist_info);
    char *text = td_pyfs_read(ctx, path, 64 << 10, &len);
    const char *url = NULL;
    const char *ed = text ? strstr(text, "\"editable\"") : NULL;
    const char *u = text ? strstr(text, "\"url\"") : NULL;
    if (ed && strncmp(ed + 10 + strspn(ed + 10, " \t\r\n:"), "true", 4) == 0 && u) {
        u = strchr(u + 5, '"');
        const char *end = u ? strchr(u + 1, '"') : NULL;
        if (end)
            url = td_arena_strndup(ctx->arena, u + 1, (size_t)(end - u - 1));
    }
    free(text);
    return url;
}

struct scan;
static void editable_metadata(struct scan *s, const struct td_python *py, size_t e,
                              struct td_torch *t);

struct scan {
    const struct td_probe_ctx *ctx;
    struct td_torch *ts;
    size_t count;
    struct td_site_listing *cache;
    size_t n_cache, cache_cap;
    uint64_t hash_limit;
    bool integrity; /* checked as each install is found (else td_probe_torch_integrity) */
    struct td_findings *f;
};

/* The listings of PY's sys.path entries that exist, in order. */
static size_t path_listings(struct scan *s, const struct td_python *py,
                            const struct td_site_listing **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < py->n_sys_path && n < cap; i++) {
        const struct td_syspath_entry *e = &py->sys_path[i];
        const struct td_site_listing *l =
            e->why == TD_SP_CWD || !e->exists
                ? NULL
                : site_listing(s->ctx, s->cache, &s->n_cache, s->cache_cap, e->path);
        if (l)
            out[n++] = l;
    }
    return n;
}

/* An editable install (pip install -e, PEP 660) keeps its torch-X.dist-info
 * in the site folder whose __editable__*.pth (or any .pth) put the source
 * folder on sys.path; its direct_url.json names the source. */
static void editable_metadata(struct scan *s, const struct td_python *py, size_t e,
                              struct td_torch *t)
{
    const struct td_syspath_entry *x = &py->sys_path[e];
    if (!t->dist_info && x->why == TD_SP_DOT_PTH && x->from) {
        char *site = td_pyfs_dirname(s->ctx->arena, x->from);
        const struct td_site_listing *l =
            site ? site_listing(s->ctx, s->cache, &s->n_cache, s->cache_cap, site) : NULL;
        const char *di = l ? td_site_dist_info(s->ctx, l, "torch", false, NULL) : NULL;
        const char *inst = di ? td_dist_info_installer(s->ctx, di) : NULL;
        if (di) {
            t->dist_info = di;
            t->installer = inst ? inst : "unknown";
        }
    }
    if (t->dist_info && strcmp(t->installer, "debian") && strcmp(t->installer, "conda"))
        t->editable = editable_url(s->ctx, t->dist_info);
}

/* The install at DIR (sys.path entry E of interpreter P), read once. */
static size_t add_install(struct scan *s, const struct td_python *pythons, size_t p, size_t e,
                          char *dir, bool ns, bool imported)
{
    const struct td_python *py = &pythons[p];
    size_t k = 0;
    while (k < s->count && strcmp(s->ts[k].dir, dir) != 0)
        k++;
    if (k < s->count || s->count == MAX_TORCHES)
        return k;
    struct td_torch *t = &s->ts[s->count++];
    const char *site = py->sys_path[e].path;
    const struct td_site_listing *l =
        site_listing(s->ctx, s->cache, &s->n_cache, s->cache_cap, site);
    t->dir = dir;
    t->site_dir = site;
    t->python = p;
    t->namespace_only = ns;
    read_version(s->ctx, t);
    if (l) {
        find_installer(s->ctx, t, l);
        editable_metadata(s, py, e, t);
        /* Companions of the copy Python imports are those it would import
         * along the same path; a shadowed copy's are those beside it. */
        const struct td_site_listing *ls[64] = {l};
        size_t n_ls = imported ? path_listings(s, py, ls, 64) : 1;
        td_torch_companions(s->ctx, t, ls, n_ls, py, s->f);
        td_torch_pins(s->ctx, t, l, py, s->f);
    } else {
        t->installer = "unknown";
    }
    t->found_by = p;
    if (s->integrity)
        td_torch_integrity(s->ctx, t, py->exe, py->prefix, s->hash_limit, s->f);
    read_archs(s->ctx, t);
    return k;
}

/* Records for T which copy interpreter P imports (the first interpreter
 * that imports T wins the record; else the first that sees it). */
static void mark(struct td_torch *t, const struct td_python *pythons, size_t p, size_t e,
                 const struct td_torch *win)
{
    bool imported = t == win;
    if (t->python != p && (t->imported || !imported))
        return;
    t->python = p;
    t->imported = imported;
    t->shadowed_by = imported ? NULL : win->dir;
    t->sys_path_index = e;
    t->sys_path_entry = pythons[p].sys_path[e].path;
    t->reason = pythons[p].sys_path[e].detail;
}

/* `import torch` finds only a namespace package: T has no __init__.py and
 * no regular torch follows on the path. Without a manifest that already
 * reports the missing file, it is what an uninstall leaves behind when
 * files it did not install remain (a warning: the import "works", but
 * torch has no __version__ and no C extension). */
static void report_namespace_only(const struct td_python *py, const struct td_torch *t,
                                  struct td_findings *f)
{
    if (!t->namespace_only || t->dist_info)
        return;
    char init[TD_PYFS_PATH_MAX + 16], fix[2 * TD_PYFS_PATH_MAX + 64];
    snprintf(init, sizeof init, "%s/__init__.py", t->dir);
    td_remove_cmd(t->dir, true, fix, sizeof fix);
    td_install_cmd_add_raw(fix, sizeof fix, "&&");
    td_install_cmd_add_path(fix, sizeof fix, py->exe);
    td_install_cmd_add_raw(fix, sizeof fix, "-m pip install torch");
    td_findings_add(f, TD_SEV_WARNING, TD_KIND_CORRUPTED_FILE, init, py->exe, NULL, fix,
                    "%s imports torch as an empty namespace package: %s has no __init__.py and "
                    "no metadata (a leftover of an uninstall?), so torch.__version__ and "
                    "torch._C are missing",
                    py->exe, t->dir);
}

/* A sys.path folder that is there but cannot be listed (no permission):
 * said once, so that "no torch found" never stands for "not looked". */
static void report_unreadable_entry(const struct td_probe_ctx *ctx, const struct td_python *py,
                                    const char *dir, struct td_findings *f)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    int e = d ? 0 : errno;
    if (d)
        closedir(d);
    if (!e || e == ENOENT || e == ENOTDIR)
        return;
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].kind, TD_KIND_UNREADABLE_FILE) == 0 && f->items[i].library &&
            strcmp(f->items[i].library, dir) == 0)
            return;
    td_findings_add(f, TD_SEV_WARNING, TD_KIND_UNREADABLE_FILE, dir, py->exe, NULL, NULL,
                    "%s is on the sys.path of %s but cannot be read (%s): a torch there is not "
                    "seen here, and Python running as this user would not import it either",
                    dir, py->exe, strerror(e));
}

/* One interpreter: every torch on its sys.path, the winner first; how many
 * there are. */
static size_t scan_python(struct scan *s, const struct td_python *pythons, size_t p)
{
    const struct td_python *py = &pythons[p];
    size_t entry[MAX_TORCHES], n = 0, win = MAX_TORCHES;
    char *dirs[MAX_TORCHES];
    bool ns[MAX_TORCHES];
    for (size_t i = 0; i < py->n_sys_path && n < MAX_TORCHES; i++) {
        const struct td_syspath_entry *e = &py->sys_path[i];
        if (e->why != TD_SP_CWD && e->exists)
            report_unreadable_entry(s->ctx, py, e->path, s->f);
        if (e->why == TD_SP_CWD || !e->exists || !torch_in(s->ctx, e->path, &dirs[n], &ns[n]))
            continue;
        bool dup = false; /* one folder reached twice (a symlinked entry) counts once */
        for (size_t j = 0; j < n && !dup; j++)
            dup = strcmp(dirs[j], dirs[n]) == 0;
        if (dup)
            continue;
        entry[n] = i;
        if (win == MAX_TORCHES && !ns[n])
            win = n;
        n++;
    }
    if (n == 0)
        return 0;
    if (win == MAX_TORCHES)
        win = 0; /* only namespace portions: Python imports the namespace */
    size_t order[MAX_TORCHES], m = 0, idx[MAX_TORCHES], at[MAX_TORCHES], kept = 0;
    order[m++] = win;
    for (size_t i = 0; i < n; i++)
        if (i != win)
            order[m++] = i;
    for (size_t i = 0; i < m; i++) {
        size_t c = order[i];
        size_t k = add_install(s, pythons, p, entry[c], dirs[c], ns[c], i == 0);
        if (k < s->count) /* else: MAX_TORCHES reached */
            idx[kept] = k, at[kept++] = entry[c];
    }
    for (size_t i = 0; kept && i < kept; i++)
        mark(&s->ts[idx[i]], pythons, p, at[i], &s->ts[idx[0]]);
    report_shadowing(s->ctx, py, s->ts, idx, at, kept, s->f);
    if (kept)
        report_namespace_only(py, &s->ts[idx[0]], s->f);
    return n;
}

/* The interpreter a shell runs as python3 (the active venv or conda env,
 * else PATH's first) sees no torch while another interpreter imports one:
 * `python3 -c 'import torch'` fails with "No module named 'torch'". */
/* pip refuses to install into an interpreter its distribution manages
 * (PEP 668: EXTERNALLY-MANAGED in the standard library, as Debian 12
 * ships it), except inside a venv. */
static bool externally_managed(const struct td_probe_ctx *ctx, const struct td_python *py)
{
    if (py->kind == TD_PY_VENV)
        return false;
    for (size_t i = 0; i < py->n_sys_path; i++)
        if (py->sys_path[i].why == TD_SP_STDLIB) {
            char *marker = td_pyfs_join(ctx->arena, py->sys_path[i].path, "EXTERNALLY-MANAGED");
            return marker && td_pyfs_is_file(ctx, marker);
        }
    return false;
}

static void report_active_without_torch(const struct td_probe_ctx *ctx, const struct td_python *py,
                                        const struct td_python *pythons, const struct td_torch *ts,
                                        size_t n, struct td_findings *f)
{
    const struct td_torch *t = NULL;
    for (size_t i = 0; i < n && !t; i++)
        if (ts[i].imported)
            t = &ts[i];
    if (!t)
        return;
    const struct td_python *other = &pythons[t->python];
    char fix[2048] = "";
    if (externally_managed(ctx, py)) {
        td_install_cmd_add_path(fix, sizeof fix, other->exe);
        td_install_cmd_add_raw(fix, sizeof fix,
                               "-c 'import torch'  # run this interpreter instead; pip does not "
                               "install into");
        td_install_cmd_add_path(fix, sizeof fix, py->exe);
        td_install_cmd_add_raw(fix, sizeof fix, "(EXTERNALLY-MANAGED, PEP 668): make a venv");
    } else {
        td_install_cmd("pip", py->exe, py->prefix, NULL, TD_INSTALL, "torch", fix, sizeof fix);
        td_install_cmd_add_raw(fix, sizeof fix, " # or run");
        td_install_cmd_add_path(fix, sizeof fix, other->exe);
        td_install_cmd_add_raw(fix, sizeof fix, "instead, which imports it");
    }
    td_findings_add(
        f, TD_SEV_WARNING, TD_KIND_TORCH_NOT_ON_PATH, "torch", py->exe, NULL, fix,
        "%s (the python3 a shell runs here, found by %s) has no torch on its sys.path, so `import "
        "torch` fails there with \"No module named 'torch'\"; torch %s is installed for "
        "%s (%s)",
        py->exe, py->found_by ? py->found_by : "active", t->version ? t->version : "", other->exe,
        t->dir);
}

static int probe_installs(const struct td_probe_ctx *ctx, const struct td_python *pythons,
                          size_t n_py, bool integrity, uint64_t hash_limit, struct td_torch **out,
                          size_t *n, struct td_findings *f)
{
    struct td_arena *a = ctx->arena;
    *out = NULL;
    *n = 0;
    struct scan s = {
        .ctx = ctx, .cache_cap = 256, .hash_limit = hash_limit, .integrity = integrity, .f = f};
    s.ts = td_arena_array(a, MAX_TORCHES, sizeof *s.ts);
    s.cache = td_arena_array(a, s.cache_cap, sizeof *s.cache);
    if (!s.ts || !s.cache)
        return -1;
    size_t active_without = n_py;
    for (size_t p = 0; p < n_py; p++)
        if (scan_python(&s, pythons, p) == 0 && pythons[p].active && active_without == n_py)
            active_without = p;
    if (active_without < n_py)
        report_active_without_torch(ctx, &pythons[active_without], pythons, s.ts, s.count, f);
    *out = s.ts;
    *n = s.count;
    return 0;
}

int td_probe_torch(const struct td_probe_ctx *ctx, const struct td_python *pythons, size_t n_py,
                   uint64_t hash_limit, struct td_torch **out, size_t *n, struct td_findings *f)
{
    return probe_installs(ctx, pythons, n_py, true, hash_limit, out, n, f);
}

int td_probe_torch_installs(const struct td_probe_ctx *ctx, const struct td_python *pythons,
                            size_t n_py, struct td_torch **out, size_t *n, struct td_findings *f)
{
    return probe_installs(ctx, pythons, n_py, false, 0, out, n, f);
}

void td_probe_torch_integrity(const struct td_probe_ctx *ctx, const struct td_python *pythons,
                              struct td_torch *ts, size_t n, uint64_t hash_limit,
                              struct td_findings *f)
{
    for (size_t i = 0; i < n; i++) {
        const struct td_python *py = &pythons[ts[i].found_by];
        td_torch_integrity(ctx, &ts[i], py->exe, py->prefix, hash_limit, f);
    }
}
