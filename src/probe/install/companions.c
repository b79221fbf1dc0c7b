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
#include "kb/change.h"
#include "kb/kb.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

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
    td_remove_cmd(p->dist_info, true, fix, sizeof fix);
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

/* The build variant a version's local tag names ("cu124", "cpu", "rocm6.2",
 * "xpu") when the tables know an index for it, else NULL (no tag, or a
 * local build's own tag). */
static const char *variant_of(const char *version, char *out, size_t cap)
{
    const char *plus = version ? strchr(version, '+') : NULL;
    char index[200];
    if (!plus || !plus[1])
        return NULL;
    snprintf(out, cap, "%s", plus + 1);
    return td_kb_variant_index(out, index, sizeof index) ? out : NULL;
}

/* Torch's own variant: its local tag, else (PyPI's untagged wheels) the
 * CUDA it reports, "12.4" -> "cu124". */
static const char *torch_variant(const struct td_torch *t, char *out, size_t cap)
{
    if (variant_of(t->version, out, cap))
        return out;
    if (!t->cuda)
        return NULL;
    size_t n = snprintf(out, cap, "cu");
    for (const char *c = t->cuda; *c && n + 1 < cap; c++)
        if (*c != '.')
            out[n++] = *c, out[n] = '\0';
    char index[200];
    return td_kb_variant_index(out, index, sizeof index) ? out : NULL;
}

/* Whether companion P carries a variant tag other than torch's (TV). */
static bool variant_differs(const struct td_package *p, const char *tv)
{
    char pv[TD_KB_STR];
    return tv && variant_of(p->version, pv, sizeof pv) && strcmp(pv, tv) != 0;
}

/* The CUDA major an nvidia-* wheel names by its suffix ("nvidia-cudnn-cu13"
 * -> 13, NVIDIA's naming of the per-major wheels torch pins), 0 when none;
 * BASE gets the name without it (the whole name when there is none). */
static int suffix_major(const char *name, char *base, size_t cap)
{
    snprintf(base, cap, "%s", name ? name : "");
    if (!name || strncasecmp(name, "nvidia", 6) != 0)
        return 0;
    const char *cu = strrchr(name, '-');
    const char *us = strrchr(name, '_');
    if (!cu || (us && us > cu))
        cu = us;
    if (!cu || strncasecmp(cu + 1, "cu", 2) != 0 || !cu[3] ||
        strspn(cu + 3, "0123456789") != strlen(cu + 3))
        return 0;
    snprintf(base, cap, "%.*s", (int)(cu - name), name);
    return atoi(cu + 3);
}

/* The major of the first "nvidia/cuNN/" folder RECORD (text) installs
 * into, 0 when none. CUDA 13's wheels carry no -cuNN suffix and their
 * versions are the library's own (nvidia-cufft 12.0.0.61 is CUDA 13's);
 * they install into nvidia/cu13/ (their RECORD: nvidia/cu13/lib/
 * libcufft.so.12), where the CUDA 12 ones use nvidia/<library>/. */
static int record_major(const char *record)
{
    for (const char *line = record; line && *line; line = strchr(line, '\n')) {
        line += *line == '\n';
        if (strncmp(line, "nvidia/cu", 9) != 0)
            continue;
        size_t digits = strspn(line + 9, "0123456789");
        if (digits && digits < 4 && line[9 + digits] == '/')
            return atoi(line + 9);
    }
    return 0;
}

/* P's CUDA major when P is an nvidia-* wheel (td_package.cuda_major). */
static int nvidia_cuda_major(const struct td_probe_ctx *ctx, const struct td_package *p)
{
    char base[128], path[TD_PYFS_PATH_MAX];
    size_t len;
    int major = suffix_major(p->name, base, sizeof base);
    if (major || !p->dist_info || strncasecmp(base, "nvidia", 6) != 0)
        return major;
    snprintf(path, sizeof path, "%s/RECORD", p->dist_info);
    char *record = td_pyfs_read(ctx, path, 64 << 20, &len);
    major = record_major(record);
    free(record);
    return major;
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
    char tv_buf[TD_KB_STR];
    const char *tv = torch_variant(t, tv_buf, sizeof tv_buf);
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
                p->cuda_major = nvidia_cuda_major(ctx, p);
                const struct td_package *first = seen(t, p->name);
                if (first) {
                    report_shadowed(ctx, first, p, py, f);
                    t->n_companions--;
                } else if (t->version && !variant_differs(p, tv)) {
                    /* A companion of another variant is reported (with its
                     * pairing) by td_torch_variant_check. */
                    td_companion_check(t->version, p, py->exe, py->prefix, f);
                }
                if (!prefix)
                    break;
            }
        }
    }
    td_torch_variant_check(t, py->exe, py->prefix, f);
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

/* The torch_companions row pairing package NAME with TORCH_VERSION: its
 * version ("0.20": a minor series; "2.5.1": exact), torch cell and match.
 * A "minor" or "exact" row names the pairing; a "min" row ("this torch or
 * later") applies only when no such row does. false when none. */
static bool paired_row(const char *torch_version, const char *name, char want[64],
                       char want_torch[64], char want_match[16])
{
    size_t tlen;
    const char *table = td_data_table("torch_companions", &tlen);
    want[0] = want_torch[0] = want_match[0] = '\0';
    if (!table || !name)
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
    bool specific = false;
    while ((nc = td_tsv_next(&tsv, line, sizeof line, cells, 12)) >= 0) {
        if (nc <= c_ver || strcasecmp(cells[c_pkg], name) != 0 ||
            !torch_matches(torch_version, cells[c_torch], cells[c_match]))
            continue;
        bool is_min = strcmp(cells[c_match], "min") == 0;
        if (specific && is_min)
            continue;
        if (!is_min || !want[0]) {
            snprintf(want, 64, "%s", cells[c_ver]);
            snprintf(want_torch, 64, "%s", cells[c_torch]);
            snprintf(want_match, 16, "%s", cells[c_match]);
        }
        specific |= !is_min;
    }
    return want[0] != '\0';
}

/* Whether VERSION is the paired release WANT under MATCH. */
static bool release_ok(const char *version, const char *want, const char *match)
{
    return strcmp(match, "min") == 0 ? td_version_cmp(version, want) >= 0
                                     : td_version_has_prefix(version, want);
}

/* The pip requirement for the paired release: torchvision's table pairs a
 * minor series (0.16 = 0.16.x), torchaudio's an exact release. */
static void paired_spec(const char *name, const char *want, const char *match, char *out,
                        size_t cap)
{
    bool series = strchr(want, '.') == strrchr(want, '.');
    snprintf(out, cap, "%s%s%s%s", name, strcmp(match, "min") == 0 ? ">=" : "==", want,
             series ? ".*" : "");
}

bool td_companion_check(const char *torch_version, const struct td_package *p,
                        const char *python_exe, const char *python_prefix, struct td_findings *f)
{
    char want[64], want_torch[64], want_match[16];
    if (!p->name || !p->version ||
        !paired_row(torch_version, p->name, want, want_torch, want_match))
        return false;
    if (release_ok(p->version, want, want_match))
        return true;
    char spec[128], fix[1024];
    paired_spec(p->name, want, want_match, spec, sizeof spec);
    bool min_row = strcmp(want_match, "min") == 0;
    td_install_cmd(p->installer ? p->installer : "pip", python_exe, python_prefix, NULL, TD_INSTALL,
                   spec, fix, sizeof fix);
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_COMPANION_MISMATCH, p->name, p->dist_info, NULL, fix,
                    "%s %s is not the release built for torch %s: torch %s pairs with %s %s%s "
                    "(data/torch_companions.tsv)",
                    p->name, p->version, torch_version, want_torch, p->name, want,
                    strchr(want, '.') == strrchr(want, '.') ? ".x"
                    : min_row                               ? " or later"
                                                            : "");
    return true;
}

/* ---- variant coherence ---- */

/* The requirement that gets companion P in torch's variant TV: the same
 * release with TV's tag when it is the paired one ("torchvision==0.20.1+cu124":
 * pip keeps an installed 0.20.1+cpu for a bare ==0.20.1, PEP 440 ignoring
 * the local tag, but not for an exact local pin), else the paired release. */
static void variant_spec(const char *torch_version, const struct td_package *p, const char *tv,
                         char *out, size_t cap)
{
    char want[64], want_torch[64], want_match[16], base[64];
    if (paired_row(torch_version, p->name, want, want_torch, want_match) &&
        !release_ok(p->version, want, want_match))
        paired_spec(p->name, want, want_match, out, cap);
    else
        snprintf(out, cap, "%s==%s+%s", p->name, td_version_trim(p->version, 3, base, sizeof base),
                 tv);
}

/* One command for the set: torch as installed and every companion of
 * another variant, from torch's own index, so that pip resolves them
 * together. Conda records are reinstalled one by one (conda has no index
 * per variant). */
static const char *set_fix(const struct td_torch *t, const struct td_package *p, const char *tv,
                           const char *exe, const char *prefix, char *out, size_t cap)
{
    const char *installer = p->installer ? p->installer : "pip";
    char spec[160], index[200], torch_spec[128];
    if (strcmp(installer, "conda") == 0 || !td_kb_variant_index(tv, index, sizeof index)) {
        variant_spec(t->version, p, tv, spec, sizeof spec);
        return td_install_cmd(installer, exe, prefix, NULL, TD_REINSTALL, spec, out, cap);
    }
    snprintf(torch_spec, sizeof torch_spec, "torch==%s", t->version);
    td_install_cmd(installer, exe, prefix, NULL, TD_INSTALL, torch_spec, out, cap);
    for (size_t i = 0; i < t->n_companions; i++)
        if (variant_differs(&t->companions[i], tv)) {
            variant_spec(t->version, &t->companions[i], tv, spec, sizeof spec);
            td_install_cmd_add(out, cap, spec);
        }
    td_install_cmd_add(out, cap, "--index-url");
    td_install_cmd_add(out, cap, index);
    return out;
}

/* P's CUDA major, its suffix's or else the one read at collection. */
static int package_major(const struct td_package *p, char *base, size_t cap)
{
    int major = suffix_major(p->name, base, cap);
    return major ? major : p->cuda_major;
}

/* Whether T has the wheel BASE built for CUDA MAJOR installed. */
static bool has_nvidia(const struct td_torch *t, const char *base, int major)
{
    char b[128];
    for (size_t i = 0; i < t->n_companions; i++)
        if (package_major(&t->companions[i], b, sizeof b) == major && strcasecmp(b, base) == 0)
            return true;
    return false;
}

/* An nvidia-* wheel for another CUDA major than torch's: torch loads its own
 * major's libraries (libcudnn.so.9 of nvidia-cudnn-cu12 for a cu12 build),
 * so the other wheel is unused when torch's own is there too, and torch's is
 * missing otherwise. */
static void nvidia_check(const struct td_torch *t, const struct td_package *p, const char *exe,
                         const char *prefix, struct td_findings *f)
{
    char base[128], fix[1024], tv[TD_KB_STR], index[200];
    int major = package_major(p, base, sizeof base);
    int want = t->cuda ? atoi(t->cuda) : 0;
    if (!major || !want || major == want)
        return;
    const char *installer = p->installer ? p->installer : "pip";
    bool leftover = has_nvidia(t, base, want);
    if (leftover || !torch_variant(t, tv, sizeof tv) ||
        !td_kb_variant_index(tv, index, sizeof index)) {
        td_install_cmd(installer, exe, prefix, NULL, TD_REMOVE, p->name, fix, sizeof fix);
    } else { /* pip installs the missing pinned wheels of a torch it keeps */
        char spec[128];
        snprintf(spec, sizeof spec, "torch==%s", t->version);
        td_install_cmd(installer, exe, prefix, NULL, TD_INSTALL, spec, fix, sizeof fix);
        td_install_cmd_add(fix, sizeof fix, "--index-url");
        td_install_cmd_add(fix, sizeof fix, index);
    }
    td_findings_add(f, leftover ? TD_SEV_WARNING : TD_SEV_ERROR, TD_KIND_CUDA_RUNTIME_MISMATCH,
                    p->name, p->dist_info, NULL, fix,
                    "%s %s is built for CUDA %d but torch %s is built for CUDA %s: %s", p->name,
                    p->version ? p->version : "?", major, t->version, t->cuda,
                    leftover ? "torch loads its own CUDA major's copy, this one is unused"
                             : "torch's own CUDA major's copy is not installed");
}

void td_torch_variant_check(const struct td_torch *t, const char *exe, const char *prefix,
                            struct td_findings *f)
{
    char tv[TD_KB_STR], pv[TD_KB_STR], fix[1024];
    if (!t->version || !torch_variant(t, tv, sizeof tv))
        return;
    for (size_t i = 0; i < t->n_companions; i++) {
        const struct td_package *p = &t->companions[i];
        nvidia_check(t, p, exe, prefix, f);
        if (!variant_differs(p, tv))
            continue;
        variant_of(p->version, pv, sizeof pv);
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_COMPANION_MISMATCH, p->name, p->dist_info, NULL,
                        set_fix(t, p, tv, exe, prefix, fix, sizeof fix),
                        "%s %s is the %s build but torch %s is the %s build: the two must come "
                        "from one index (their extensions link torch's libraries of that variant)",
                        p->name, p->version, pv, t->version, tv);
    }
}
