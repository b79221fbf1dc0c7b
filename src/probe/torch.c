/* torch installations, read without importing: every torch/ under every
 * interpreter's site dirs, its version.py, how it was installed, its CUDA
 * architectures, and installs that shadow each other. Integrity and
 * companions are in torch_integrity.c and companions.c. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/data.h"
#include "base/map.h"
#include "format/elf.h"
#include "format/fatbin.h"
#include "format/pe.h"
#include "probe/pyfs.h"
#include "probe/torch_internal.h"

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

const char *td_site_dist_info(const struct td_probe_ctx *ctx, const struct td_site_listing *l,
                              const char *name, bool prefix, size_t *from)
{
    size_t nl = strlen(name);
    for (size_t i = from ? *from : 0; i < l->n; i++) {
        const char *e = l->names[i];
        if (!ends_with(e, ".dist-info") || strncasecmp(e, name, nl) != 0)
            continue;
        /* "{name}-{version}.dist-info" (PEP 427): the name ends at the first '-'. */
        const char *dash = strchr(e, '-');
        if (!dash || (!prefix && (size_t)(dash - e) != nl))
            continue;
        if (from)
            *from = i + 1;
        return td_pyfs_join(ctx->arena, l->dir, e);
    }
    if (from)
        *from = l->n;
    return NULL;
}

const char *td_dist_info_installer(const struct td_probe_ctx *ctx, const char *dist_info)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/INSTALLER", dist_info);
    char *text = td_pyfs_read(ctx, path, 256, &len);
    if (!text)
        return NULL;
    size_t n = strcspn(text, "\r\n \t");
    const char *out = n ? td_arena_strndup(ctx->arena, text, n) : NULL;
    free(text);
    return out;
}

/* One assignment of torch/version.py, as setup.py / tools/generate_torch_version.py
 * writes it: "__version__ = '2.1.0+cu121'", "cuda: Optional[str] = '12.1'",
 * "hip = None". NULL for None or when absent. */
static const char *version_py_value(struct td_arena *a, const char *text, const char *key)
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
        t->version = version_py_value(a, text, "__version__");
        t->cuda = version_py_value(a, text, "cuda");
        t->hip = version_py_value(a, text, "hip");
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

/* The fat binaries of torch's CUDA library: lib/libtorch_cuda.so (ELF
 * section .nv_fatbin) or lib/torch_cuda.dll (PE section ".nv_fatb", the
 * name cut to 8 bytes as PE section names are). */
static void read_archs(const struct td_probe_ctx *ctx, struct td_torch *t)
{
    static const char *const libs[] = {"lib/libtorch_cuda.so", "lib/torch_cuda.dll"};
    for (size_t i = 0; i < 2; i++) {
        char path[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", t->dir, libs[i]);
        struct td_map m;
        struct td_err err = {0};
        if (!td_pyfs_host(ctx, path, host, sizeof host) || td_map_open(host, &m, &err) != 0)
            continue;
        struct td_arena scratch = {0};
        uint64_t off = 0, size = 0;
        bool have = false;
        struct td_elf elf;
        struct td_pe pe;
        if (td_elf_is_elf(m.data, m.size)) {
            struct td_elf_section s;
            have = td_elf_parse(&elf, m.data, m.size, &scratch, &err) == 0 &&
                   td_elf_section_by_name(&elf, ".nv_fatbin", &s);
            off = s.offset;
            size = s.size;
        } else if (td_pe_parse(&pe, m.data, m.size, &scratch, &err) == 0) {
            for (uint16_t k = 0; k < pe.nsections && !have; k++) {
                const struct td_pe_section *s = &pe.sections[k];
                if (s->name && strcmp(s->name, ".nv_fatb") == 0 &&
                    (uint64_t)s->raw_offset + s->raw_size <= m.size) {
                    have = true;
                    off = s->raw_offset;
                    size = s->raw_size;
                }
            }
        }
        t->archs_from = td_arena_strdup(ctx->arena, path);
        if (have) {
            struct td_fatbin fb;
            struct td_err ferr = {0};
            if (td_fatbin_parse(&fb, m.data + off, (size_t)size, &scratch, &ferr) != 0)
                t->archs_error = td_arena_strdup(ctx->arena, ferr.msg);
            const char **names;
            size_t n = td_fatbin_archs(&fb, &scratch, &names);
            t->cuda_archs = td_arena_array(ctx->arena, n ? n : 1, sizeof *t->cuda_archs);
            for (size_t k = 0; t->cuda_archs && k < n; k++)
                t->cuda_archs[t->n_cuda_archs++] = td_arena_strdup(ctx->arena, names[k]);
        } else {
            t->archs_error =
                td_arena_strdup(ctx->arena, err.set ? err.msg : "no fat binary section");
        }
        td_arena_free(&scratch);
        td_map_close(&m);
        return;
    }
}

static bool is_shell_plain(const char *s)
{
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:@", *s))
            return false;
    return true;
}

/* Appends S to OUT after a space: RAW words as they are (the command's own
 * fixed words), values single-quoted when the shell would split or expand them. */
static void append(char *out, size_t cap, const char *s, bool raw)
{
    size_t at = strlen(out);
    if (at && at + 1 < cap)
        out[at++] = ' ', out[at] = '\0';
    snprintf(out + at, cap - at, raw || is_shell_plain(s) ? "%s" : "'%s'", s);
}

static void add_word(char *out, size_t cap, const char *s)
{
    append(out, cap, s, false);
}

static void add_words(char *out, size_t cap, const char *s)
{
    append(out, cap, s, true);
}

const char *td_install_cmd(const char *installer, const char *exe, const char *prefix,
                           const char *debian_package, enum td_install_verb verb, const char *spec,
                           char *out, size_t cap)
{
    out[0] = '\0';
    if (strcmp(installer, "debian") == 0 && debian_package) {
        add_words(out, cap, verb == TD_REMOVE ? "sudo apt-get remove" : "sudo apt-get install");
        if (verb == TD_REINSTALL)
            add_word(out, cap, "--reinstall");
        add_word(out, cap, debian_package);
        return out;
    }
    if (strcmp(installer, "conda") == 0 && prefix) {
        /* conda's spec: "pytorch=2.1.0", "torchvision=0.16" (conda docs, "Package match
         * specifications"). */
        char cspec[256];
        size_t n = strcspn(spec, "=<>");
        const char *op = spec + n;
        bool eq = strncmp(op, "==", 2) == 0;
        const char *name = n == 5 && strncmp(spec, "torch", 5) == 0 ? "pytorch" : NULL;
        snprintf(cspec, sizeof cspec, "%.*s%s%s", name ? 7 : (int)n, name ? name : spec,
                 eq ? "=" : "", eq ? op + 2 : op);
        size_t cl = strlen(cspec);
        if (cl > 2 && strcmp(cspec + cl - 2, ".*") == 0)
            cspec[cl - 2] = '\0';
        add_words(out, cap, verb == TD_REMOVE ? "conda remove" : "conda install");
        add_word(out, cap, "-p");
        add_word(out, cap, prefix);
        if (verb == TD_REINSTALL)
            add_word(out, cap, "--force-reinstall");
        add_word(out, cap, cspec);
        return out;
    }
    bool uv = strcmp(installer, "uv") == 0;
    if (uv) {
        add_words(out, cap, "uv pip");
    } else {
        add_word(out, cap, exe);
        add_words(out, cap, "-m pip");
    }
    add_word(out, cap, verb == TD_REMOVE ? "uninstall" : "install");
    if (verb == TD_REINSTALL)
        add_words(out, cap, uv ? "--reinstall --no-deps" : "--force-reinstall --no-deps");
    if (uv) {
        add_word(out, cap, "--python");
        add_word(out, cap, exe);
    }
    add_word(out, cap, spec);
    return out;
}

/* The package name a removal command needs for T (Debian: from its list file). */
static const char *debian_package(struct td_arena *a, const struct td_torch *t)
{
    if (!t->dist_info || strcmp(t->installer, "debian") != 0)
        return NULL;
    const char *b = td_pyfs_basename(t->dist_info);
    return td_arena_strndup(a, b, strcspn(b, ".:"));
}

/* Two or more torch dirs in one interpreter's sys.path: the first wins
 * (importlib's PathFinder takes the first sys.path entry holding "torch"). */
static void report_shadowing(const struct td_probe_ctx *ctx, const struct td_python *py,
                             struct td_torch *ts, const size_t *idx, size_t count,
                             struct td_findings *f)
{
    if (count < 2)
        return;
    const struct td_torch *win = &ts[idx[0]];
    for (size_t k = 1; k < count; k++) {
        const struct td_torch *lose = &ts[idx[k]];
        char fix[1024];
        if (!strcmp(lose->installer, "debian") || !strcmp(lose->installer, "conda"))
            td_install_cmd(lose->installer, py->exe, py->prefix, debian_package(ctx->arena, lose),
                           TD_REMOVE, "torch", fix, sizeof fix);
        else {
            /* pip would uninstall the winner (the first on sys.path): remove the files. */
            fix[0] = '\0';
            add_words(fix, sizeof fix, "rm -r");
            add_word(fix, sizeof fix, lose->dir);
            if (lose->dist_info)
                add_word(fix, sizeof fix, lose->dist_info);
        }
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_MULTIPLE_INSTALLS, "torch", py->exe, NULL, fix,
                        "%s imports torch %s from %s (%s); torch %s in %s (%s) is shadowed, being "
                        "later in sys.path",
                        py->exe, win->version ? win->version : "(unknown version)", win->dir,
                        win->installer, lose->version ? lose->version : "(unknown version)",
                        lose->dir, lose->installer);
    }
}

int td_probe_torch(const struct td_probe_ctx *ctx, const struct td_python *pythons, size_t n_py,
                   uint64_t hash_limit, struct td_torch **out, size_t *n, struct td_findings *f)
{
    struct td_arena *a = ctx->arena;
    *out = NULL;
    *n = 0;
    struct td_torch *ts = td_arena_array(a, MAX_TORCHES, sizeof *ts);
    size_t cache_cap = 64, n_cache = 0;
    struct td_site_listing *cache = td_arena_array(a, cache_cap, sizeof *cache);
    if (!ts || !cache)
        return -1;
    size_t count = 0;
    for (size_t p = 0; p < n_py; p++) {
        const struct td_python *py = &pythons[p];
        size_t seen[MAX_TORCHES], n_seen = 0;
        for (size_t s = 0; s < py->n_site_dirs; s++) {
            char *dir = td_pyfs_join(a, py->site_dirs[s], "torch");
            if (!dir || !td_pyfs_is_dir(ctx, dir))
                continue;
            size_t k = 0;
            while (k < count && strcmp(ts[k].dir, dir) != 0)
                k++;
            if (k == count) {
                if (count == MAX_TORCHES)
                    break;
                struct td_torch *t = &ts[count++];
                const struct td_site_listing *l =
                    site_listing(ctx, cache, &n_cache, cache_cap, py->site_dirs[s]);
                t->dir = dir;
                t->site_dir = py->site_dirs[s];
                t->python = p;
                read_version(ctx, t);
                if (l) {
                    find_installer(ctx, t, l);
                    td_torch_companions(ctx, t, l, py->exe, py->prefix, f);
                    td_torch_pins(ctx, t, l, py, f);
                } else {
                    t->installer = "unknown";
                }
                td_torch_integrity(ctx, t, py->exe, py->prefix, hash_limit, f);
                read_archs(ctx, t);
            }
            if (n_seen < MAX_TORCHES)
                seen[n_seen++] = k;
        }
        report_shadowing(ctx, py, ts, seen, n_seen, f);
    }
    *out = ts;
    *n = count;
    return 0;
}
