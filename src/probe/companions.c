/* Packages installed beside torch that are built for one torch (or one
 * CUDA): torchvision, torchaudio, triton, xformers, flash-attn,
 * bitsandbytes, the nvidia-* wheels (data/torch_packages.tsv), and the
 * pairing check against data/torch_companions.tsv. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/data.h"
#include "base/version.h"
#include "format/zip.h"
#include "probe/pyfs.h"
#include "probe/torch_internal.h"

enum { MAX_COMPANIONS = 64 };

/* Name and Version from a .dist-info's METADATA headers (core metadata:
 * the headers end at the first blank line, so 16 KiB is plenty). */
static void read_metadata(const struct td_probe_ctx *ctx, const char *dist_info,
                          struct td_package *p)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/METADATA", dist_info);
    char *text = td_pyfs_read(ctx, path, 16 << 10, &len);
    if (text) {
        char *body = strstr(text, "\n\n");
        if (body)
            body[1] = '\0', len = (size_t)(body - text) + 1;
        struct td_zip_metadata m;
        struct td_err err = {0};
        if (td_zip_wheel_parse_metadata(&m, text, len, ctx->arena, &err) == 0 || m.name) {
            if (m.name)
                p->name = m.name;
            if (m.version)
                p->version = m.version;
        }
        free(text);
    }
    if (!p->version) { /* "{name}-{version}.dist-info" */
        const char *b = td_pyfs_basename(dist_info), *dash = strchr(b, '-');
        if (dash)
            p->version =
                td_arena_strndup(ctx->arena, dash + 1, strlen(dash + 1) - strlen(".dist-info"));
    }
    if (!p->name) {
        const char *b = td_pyfs_basename(dist_info);
        p->name = td_arena_strndup(ctx->arena, b, strcspn(b, "-"));
    }
}

/* Why DIR is on PY's sys.path, in words ("" when it is not). */
static const char *entry_detail(const struct td_python *py, const char *dir)
{
    for (size_t i = 0; i < py->n_sys_path; i++)
        if (strcmp(py->sys_path[i].path, dir) == 0)
            return py->sys_path[i].detail;
    return "";
}

/* A second copy of companion P, where the first one (WIN) is what Python
 * imports: a multiple_installs warning naming both. */
static void report_shadowed(const struct td_probe_ctx *ctx, const struct td_package *win,
                            const struct td_package *p, const struct td_python *py,
                            struct td_findings *f)
{
    char *win_dir = td_pyfs_dirname(ctx->arena, win->dist_info);
    char *dir = td_pyfs_dirname(ctx->arena, p->dist_info);
    bool same = win_dir && dir && strcmp(win_dir, dir) == 0;
    char fix[TD_PYFS_PATH_MAX + 16];
    snprintf(fix, sizeof fix, "rm -r '%s'", p->dist_info);
    td_findings_add(f, TD_SEV_WARNING, TD_KIND_MULTIPLE_INSTALLS, p->name, py->exe, NULL,
                    same ? fix : NULL,
                    "%s imports %s %s from %s (%s); %s %s in %s (%s) is shadowed%s", py->exe,
                    win->name, win->version ? win->version : "(unknown version)",
                    win_dir ? win_dir : "?", win_dir ? entry_detail(py, win_dir) : "", p->name,
                    p->version ? p->version : "(unknown version)", dir ? dir : "?",
                    dir ? entry_detail(py, dir) : "",
                    same ? ": two metadata folders of one distribution in one site folder "
                           "(the older one a leftover)"
                         : ", being later on sys.path");
}

/* An earlier copy of distribution NAME among T's companions, or NULL. */
static const struct td_package *seen(const struct td_torch *t, const char *name)
{
    for (size_t i = 0; name && i + 1 < t->n_companions; i++)
        if (t->companions[i].name && strcasecmp(t->companions[i].name, name) == 0)
            return &t->companions[i];
    return NULL;
}

void td_torch_companions(const struct td_probe_ctx *ctx, struct td_torch *t,
                         const struct td_site_listing *const *ls, size_t n_ls,
                         const struct td_python *py, struct td_findings *f)
{
    static const char *const cols[] = {"name", "match", "role", NULL};
    struct td_table tab;
    if (!td_table_open(&tab, "torch_packages", cols))
        return;
    t->companions = td_arena_array(ctx->arena, MAX_COMPANIONS, sizeof *t->companions);
    if (!t->companions)
        return;
    while (td_table_next(&tab)) {
        const char *name = td_table_cell(&tab, 0);
        if (strcmp(td_table_cell(&tab, 2), "companion") != 0)
            continue;
        bool prefix = strcmp(td_table_cell(&tab, 1), "prefix") == 0;
        /* Along the path in order: the first copy of each distribution is
         * the one `import` finds; later copies are shadowed. */
        for (size_t li = 0; li < n_ls; li++) {
            size_t from = 0;
            const char *di;
            while (t->n_companions < MAX_COMPANIONS &&
                   (di = td_site_dist_info(ctx, ls[li], name, prefix, &from))) {
                struct td_package *p = &t->companions[t->n_companions++];
                p->dist_info = di;
                const char *inst = td_dist_info_installer(ctx, di);
                p->installer = inst ? inst : "unknown";
                read_metadata(ctx, di, p);
                const struct td_package *first = seen(t, p->name);
                if (first) {
                    report_shadowed(ctx, first, p, py, f);
                    t->n_companions--;
                } else if (t->version) {
                    td_companion_check(t->version, p, py->exe, py->prefix, f);
                }
                if (!prefix)
                    break;
            }
        }
    }
}

/* Does torch version TORCH match a table row's torch cell under MATCH? */
static bool torch_matches(const char *torch, const char *cell, const char *match)
{
    if (strcmp(match, "minor") == 0)
        return td_version_has_prefix(torch, cell);
    if (strcmp(match, "exact") == 0)
        return td_version_cmp(torch, cell) == 0;
    if (strcmp(match, "min") == 0)
        return td_version_cmp(torch, cell) >= 0;
    return false;
}

/* The CUDA local tag of a version ("cu121"), or NULL. */
static const char *cuda_tag(const char *v, char *out, size_t cap)
{
    const char *plus = v ? strchr(v, '+') : NULL;
    if (!plus || strncmp(plus + 1, "cu", 2) != 0)
        return NULL;
    snprintf(out, cap, "%s", plus + 1);
    return out;
}

bool td_companion_check(const char *torch_version, const struct td_package *p,
                        const char *python_exe, const char *python_prefix, struct td_findings *f)
{
    size_t tlen;
    const char *table = td_data_table("torch_companions", &tlen);
    if (!table || !p->name || !p->version)
        return false;
    struct td_tsv tsv;
    char line[2048];
    const char *cells[12];
    td_tsv_open(&tsv, table, tlen);
    int nc = td_tsv_next(&tsv, line, sizeof line, cells, 12);
    int c_torch = td_tsv_column(cells, nc, "torch"), c_match = td_tsv_column(cells, nc, "match"),
        c_pkg = td_tsv_column(cells, nc, "package"), c_ver = td_tsv_column(cells, nc, "version");
    if (c_torch < 0 || c_match < 0 || c_pkg < 0 || c_ver < 0)
        return false;
    /* A "minor" or "exact" row names the pairing; a "min" row ("this torch
     * or later") applies only when no such row does. */
    char want[64] = "", want_torch[64] = "", want_match[16] = "";
    bool specific = false;
    while ((nc = td_tsv_next(&tsv, line, sizeof line, cells, 12)) >= 0) {
        if (nc <= c_ver || strcasecmp(cells[c_pkg], p->name) != 0 ||
            !torch_matches(torch_version, cells[c_torch], cells[c_match]))
            continue;
        bool is_min = strcmp(cells[c_match], "min") == 0;
        if (specific && is_min)
            continue;
        if (!is_min || !want[0]) {
            snprintf(want, sizeof want, "%s", cells[c_ver]);
            snprintf(want_torch, sizeof want_torch, "%s", cells[c_torch]);
            snprintf(want_match, sizeof want_match, "%s", cells[c_match]);
        }
        specific |= !is_min;
    }
    char tag_t[32], tag_p[32];
    const char *ct = cuda_tag(torch_version, tag_t, sizeof tag_t);
    const char *cp = cuda_tag(p->version, tag_p, sizeof tag_p);
    bool cuda_differs = ct && cp && strcmp(ct, cp) != 0;
    if (!want[0] && !cuda_differs)
        return false;
    bool min_row = strcmp(want_match, "min") == 0;
    bool ok = !want[0] || (min_row ? td_version_cmp(p->version, want) >= 0
                                   : td_version_has_prefix(p->version, want));
    if (ok && !cuda_differs)
        return true;
    /* Torchvision's table pairs a minor series (0.16 = 0.16.x); torchaudio's an exact release. */
    char spec[128];
    bool series = want[0] && strchr(want, '.') == strrchr(want, '.');
    if (ok) { /* right release, wrong CUDA build: the same release built for torch's CUDA */
        char base[64];
        snprintf(spec, sizeof spec, "%s==%s+%s", p->name,
                 td_version_trim(p->version, 3, base, sizeof base), ct);
    } else
        snprintf(spec, sizeof spec, "%s%s%s%s", p->name, min_row ? ">=" : "==", want,
                 series ? ".*" : "");
    char fix[1024];
    td_install_cmd(p->installer ? p->installer : "pip", python_exe, python_prefix, NULL,
                   ok ? TD_REINSTALL : TD_INSTALL, spec, fix, sizeof fix);
    if (!ok)
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_COMPANION_MISMATCH, p->name, p->dist_info, NULL,
                        fix,
                        "%s %s is not the release built for torch %s: torch %s pairs with %s %s%s "
                        "(data/torch_companions.tsv)",
                        p->name, p->version, torch_version, want_torch, p->name, want,
                        series    ? ".x"
                        : min_row ? " or later"
                                  : "");
    else
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_COMPANION_MISMATCH, p->name, p->dist_info, NULL,
                        fix, "%s %s is built for CUDA %s but torch %s is built for CUDA %s",
                        p->name, p->version, cp, torch_version, ct);
    return true;
}
