/* Names what provides each missing library (probe/install/provider.h): RECORDs of
 * the site directory the needing file lies in, then the knowledge tables
 * (kb/provider.c), then the system's package search. The fix is a command
 * for the installer that put the package there (its INSTALLER file). */
#include "probe/install/provider.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "kb/change.h"
#include "kb/kb.h"
#include "kb/pep508.h"
#include "probe/install/conda_meta.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

enum { RECORD_MAX = 64 << 20, FIX_CAP = 2048 };

/* The site directory a file lies in, as pip and the torch wheels lay it out. */
struct site {
    const char *dir;   /* host path, or NULL: the file is no package's */
    char **dist_infos; /* "{name}-{version}.dist-info" entries */
    size_t n;
    const char *torch_di;      /* torch's .dist-info, or NULL */
    const char *torch_version; /* from torch/version.py */
    const char *cuda;          /* torch/version.py's cuda ("12.1"), or NULL */
    int cuda_major;            /* of CUDA; 0: none */
    const char *installer;     /* torch's INSTALLER ("pip", "uv", "conda"), or NULL */
};

struct ctx {
    const char *root;          /* the target's "/" (--root), or NULL */
    struct td_probe_ctx probe; /* host paths: the graph's files are host paths */
    const char *python_exe;
    bool windows;
    uint16_t machine; /* of the process (PE IMAGE_FILE_MACHINE_*), 0 when unknown */
};

/* ".../site-packages" (or dist-packages) of PATH, host path, or NULL. */
static const char *site_dir_of(struct td_arena *a, const char *path)
{
    static const char *const names[] = {"site-packages", "dist-packages"};
    const char *best = NULL;
    for (size_t i = 0; i < 2; i++)
        for (const char *p = path; (p = strstr(p, names[i])) != NULL; p++) {
            char next = p[strlen(names[i])];
            if (p > path && (p[-1] == '/' || p[-1] == '\\') && (next == '/' || next == '\\'))
                best = p + strlen(names[i]);
        }
    return best ? td_arena_strndup(a, path, (size_t)(best - path)) : NULL;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* torch/version.py's version and CUDA major, torch's dist-info and installer. */
static void read_torch(struct ctx *c, struct site *s)
{
    struct td_arena *a = c->probe.arena;
    size_t len;
    char *text =
        td_pyfs_read(&c->probe, td_pyfs_join(a, s->dir, "torch/version.py"), 64 << 10, &len);
    if (text) {
        s->torch_version = td_version_py_value(a, text, "__version__");
        s->cuda = td_version_py_value(a, text, "cuda");
        s->cuda_major = s->cuda ? atoi(s->cuda) : 0;
        free(text);
    }
    for (size_t i = 0; i < s->n && !s->torch_di; i++)
        if (strncmp(s->dist_infos[i], "torch-", 6) == 0)
            s->torch_di = td_pyfs_join(a, s->dir, s->dist_infos[i]);
    s->installer = s->torch_di ? td_dist_info_installer(&c->probe, s->torch_di) : NULL;
}

static void open_site(struct ctx *c, const char *dir, struct site *s)
{
    memset(s, 0, sizeof *s);
    s->dir = dir;
    DIR *d = dir ? opendir(dir) : NULL;
    const struct dirent *e;
    size_t cap = 0;
    while (d && (e = readdir(d)) != NULL) {
        if (!ends_with(e->d_name, ".dist-info"))
            continue;
        if (s->n == cap) {
            char **grown = td_arena_array(c->probe.arena, cap ? cap * 2 : 32, sizeof *grown);
            if (!grown)
                break;
            if (s->n)
                memcpy(grown, s->dist_infos, s->n * sizeof *grown);
            s->dist_infos = grown, cap = cap ? cap * 2 : 32;
        }
        s->dist_infos[s->n++] = td_arena_strdup(c->probe.arena, e->d_name);
    }
    if (d)
        closedir(d);
    if (dir)
        read_torch(c, s);
}

/* An installed distribution, from its dist-info folder name (PEP 427). */
struct dist {
    char name[TD_REQ_NAME]; /* PEP 503 */
    char version[128];
    const char *dist_info; /* host path */
    char file[1024];       /* the RECORD row that names the library */
};

static void dist_of(const struct site *s, const char *entry, struct ctx *c, struct dist *d)
{
    const char *dash = strchr(entry, '-');
    size_t n = dash ? (size_t)(dash - entry) : strlen(entry);
    td_pep503_normalize(entry, n, d->name, sizeof d->name);
    snprintf(d->version, sizeof d->version, "%.*s", dash ? (int)(strlen(dash + 1) - 10) : 0,
             dash ? dash + 1 : "");
    d->dist_info = td_pyfs_join(c->probe.arena, s->dir, entry);
}

static bool same_file(const struct ctx *c, const char *a, const char *b)
{
    return c->windows ? strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

/* Does the RECORD of DIST_INFO list a file named NAME? Its row's path into FILE. */
static bool record_lists(struct ctx *c, const char *dist_info, const char *name, char *file,
                         size_t cap)
{
    size_t len;
    char *text = td_pyfs_read(&c->probe, td_pyfs_join(c->probe.arena, dist_info, "RECORD"),
                              RECORD_MAX, &len);
    bool found = false;
    for (char *line = text, *next; line && *line && !found; line = next) {
        next = line + strcspn(line, "\n");
        if (*next)
            *next++ = '\0';
        line[strcspn(line, ",\r")] = '\0';
        const char *slash = strrchr(line, '/');
        if ((found = same_file(c, slash ? slash + 1 : line, name)))
            snprintf(file, cap, "%s", line);
    }
    free(text);
    return found;
}

/* The installed distribution whose RECORD lists NAME. */
static bool owner_of(struct ctx *c, const struct site *s, const char *name, struct dist *d)
{
    for (size_t i = 0; i < s->n; i++) {
        dist_of(s, s->dist_infos[i], c, d);
        if (record_lists(c, d->dist_info, name, d->file, sizeof d->file))
            return true;
    }
    return false;
}

/* The prefix of an environment (conda -p, the venv), from the site
 * directory: PREFIX/lib/pythonX.Y/site-packages, PREFIX/Lib/site-packages. */
static const char *prefix_of(struct ctx *c, const struct site *s)
{
    char *dir = s->dir ? td_pyfs_dirname(c->probe.arena, s->dir) : NULL;
    if (dir && !c->windows)
        dir = td_pyfs_dirname(c->probe.arena, dir);
    return dir ? td_pyfs_dirname(c->probe.arena, dir) : NULL;
}

/* PATH as the target names it: under --root, without the root (and on
 * Windows as C:\...). */
static const char *target_path(struct ctx *c, const char *path)
{
    const char *root = c->root;
    size_t n = root ? strlen(root) : 0;
    while (n > 1 && root[n - 1] == '/')
        n--;
    if (!path || !root || strncmp(path, root, n) != 0 || (path[n] != '/' && path[n] != '\\'))
        return path;
    if (!c->windows)
        return path + n;
    size_t cap = strlen(path + n) + 3;
    char *out = td_arena_alloc(c->probe.arena, cap);
    if (!out)
        return path;
    snprintf(out, cap, "C:%s", path + n);
    for (char *p = out; *p; p++)
        if (*p == '/')
            *p = '\\';
    return out;
}

/* The interpreter of the site directory's environment, else a plain name
 * for the platform. */
static const char *python_of(struct ctx *c, const struct site *s)
{
    static const char *const linux_names[] = {"bin/python3", "bin/python"};
    static const char *const windows_names[] = {"Scripts/python.exe", "python.exe"};
    const char *prefix = prefix_of(c, s);
    if (c->python_exe)
        return c->python_exe;
    for (size_t i = 0; prefix && i < 2; i++) {
        const char *name = (c->windows ? windows_names : linux_names)[i];
        char *p = td_pyfs_join(c->probe.arena, prefix, name);
        if (p && access(p, F_OK) == 0)
            return target_path(c, p);
    }
    return c->windows ? "python" : "python3";
}

static const char *install(struct ctx *c, const struct site *s, const char *installer,
                           enum td_install_verb verb, const char *spec, char *out, size_t cap)
{
    return td_install_cmd(installer ? installer : "pip", python_of(c, s),
                          target_path(c, prefix_of(c, s)), NULL, verb, spec, out, cap);
}

/* The version torch's METADATA pins WHEEL to ("==8.9.2.26"), into OUT. */
static bool torch_pin(struct ctx *c, const struct site *s, const char *wheel, char *out, size_t cap)
{
    size_t len;
    char *text =
        s->torch_di ? td_pyfs_read(&c->probe, td_pyfs_join(c->probe.arena, s->torch_di, "METADATA"),
                                   1 << 20, &len)
                    : NULL;
    struct td_requirement *r = text ? malloc(sizeof *r) : NULL;
    bool found = false;
    for (const char *at = text; r && !found && td_metadata_next_requirement(&at, r);)
        if (strcmp(r->key, wheel) == 0 && strncmp(r->specifier, "==", 2) == 0) {
            snprintf(out, cap, "%s", r->specifier + 2);
            found = true;
        }
    free(r);
    free(text);
    return found;
}

/* " --index-url URL" for a version with a local tag ("2.1.2+cu121"): PyPI
 * has no such build, pip and uv need the index it is published on. */
static const char *variant_index(const char *installer, const char *version, char *out, size_t cap)
{
    const char *plus = strchr(version, '+');
    char url[400];
    out[0] = '\0';
    if (plus && (!installer || !strcmp(installer, "pip") || !strcmp(installer, "uv")) &&
        td_kb_variant_index(plus + 1, url, sizeof url))
        snprintf(out, cap, " --index-url %s", url);
    return out;
}

/* A file an installed distribution lists in its RECORD: it is that
 * distribution's, and reinstalling it at its version brings it back. */
static bool fix_from_record(struct ctx *c, const struct site *s, const char *lib, char *fix)
{
    struct dist *d = malloc(sizeof *d);
    bool found = d && owner_of(c, s, lib, d);
    char *there = found ? td_pyfs_join(c->probe.arena, s->dir, d->file) : NULL;
    if (there && access(there, F_OK) == 0) {
        /* Not gone: installed where the needing file's loader does not look. */
        char *dir = td_pyfs_dirname(c->probe.arena, there);
        snprintf(fix, FIX_CAP,
                 c->windows ? "os.add_dll_directory(r\"%s\") before the import  # %s of %s %s is "
                              "there, in a folder the loader does not search"
                            : "LD_LIBRARY_PATH=%s (one shell), or reinstall the package of the "
                              "file that needs it so that its RUNPATH reaches it  # %s of %s %s is "
                              "there, in a folder the loader does not search",
                 target_path(c, dir), d->file, d->name, d->version);
    } else if (found) {
        char spec[300], cmd[1024], index[512] = "";
        const char *inst = td_dist_info_installer(&c->probe, d->dist_info);
        snprintf(spec, sizeof spec, "%s==%s", d->name, d->version);
        install(c, s, inst, TD_REINSTALL, spec, cmd, sizeof cmd);
        snprintf(fix, FIX_CAP, "%s%s  # %s %s lists %.600s in its RECORD; the file is gone", cmd,
                 variant_index(inst, d->version, index, sizeof index), d->name, d->version,
                 d->file);
    }
    free(d);
    return found;
}

/* The record of PREFIX's conda-meta (probe/install/conda_meta.h) that lists a
 * file named LIB, into R; a text scan first, so that only a record naming
 * the file is parsed. */
static bool conda_owner(struct ctx *c, const char *prefix, const char *lib,
                        struct td_conda_record *r)
{
    char *meta = td_pyfs_join(c->probe.arena, prefix, "conda-meta");
    char needle[300];
    snprintf(needle, sizeof needle, "%s\"", lib);
    DIR *d = meta ? opendir(meta) : NULL;
    const struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d)) != NULL) {
        if (!ends_with(e->d_name, ".json"))
            continue;
        size_t len;
        char *text = td_pyfs_read(&c->probe, td_pyfs_join(c->probe.arena, meta, e->d_name),
                                  RECORD_MAX, &len);
        struct td_err err;
        if (text && strstr(text, needle) &&
            td_conda_record_read(text, len, r, c->probe.arena, &err) == 0)
            for (size_t i = 0; i < r->n_paths && !found; i++) {
                const char *slash = strrchr(r->paths[i].path, '/');
                found = strcmp(slash ? slash + 1 : r->paths[i].path, lib) == 0;
            }
        free(text);
    }
    if (d)
        closedir(d);
    return found;
}

/* A file a conda package of the environment lists: reinstall its exact
 * build from its channel. */
static bool fix_from_conda(struct ctx *c, const struct site *s, const char *lib, char *fix)
{
    const char *prefix = prefix_of(c, s);
    struct td_conda_record r;
    if (!prefix || !conda_owner(c, prefix, lib, &r))
        return false;
    char cmd[1024];
    td_conda_reinstall_cmd(&r, target_path(c, prefix), c->probe.arena, cmd, sizeof cmd);
    snprintf(fix, FIX_CAP, "%s  # %s %s (conda-meta) lists %s; the file is gone", cmd, r.name,
             r.version ? r.version : "", lib);
    return true;
}

/* A CUDA library of torch's CUDA major that no installed wheel lists: the
 * nvidia-* wheel that ships it, at the version torch pins. */
static bool fix_from_cuda_wheel(struct ctx *c, const struct site *s, const char *lib, char *fix)
{
    char wheel[128], pin[128], spec[300], cmd[1024];
    if (!s->cuda_major || !td_kb_cuda_wheel(lib, s->cuda_major, wheel, sizeof wheel))
        return false;
    bool pinned = torch_pin(c, s, wheel, pin, sizeof pin);
    snprintf(spec, sizeof spec, "%s%s%s", wheel, pinned ? "==" : "", pinned ? pin : "");
    install(c, s, s->installer, TD_INSTALL, spec, cmd, sizeof cmd);
    if (pinned)
        snprintf(fix, FIX_CAP, "%s  # %s comes from %s, which torch %s pins (CUDA %d)", cmd, lib,
                 wheel, s->torch_version ? s->torch_version : "", s->cuda_major);
    else
        snprintf(fix, FIX_CAP, "%s  # %s comes from the CUDA %d wheel %s", cmd, lib, s->cuda_major,
                 wheel);
    return true;
}

/* The NVIDIA driver, with the minimum the torch build's CUDA needs. */
static void driver_fix(const struct site *s, const char *lib, bool windows, char *fix)
{
    char cuda[16], min[64] = "";
    const char *src = NULL;
    const char *cuda_text = s->cuda;
    if (!cuda_text && s->torch_version && strstr(s->torch_version, "+cu")) {
        const char *v = strstr(s->torch_version, "+cu") + 3; /* "+cu121" -> "12.1" */
        size_t n = strspn(v, "0123456789");
        if (n >= 3) {
            snprintf(cuda, sizeof cuda, "%.*s.%.*s", (int)(n - 1), v, 1, v + n - 1);
            cuda_text = cuda;
        }
    }
    if (cuda_text)
        td_kb_cuda_min_driver(cuda_text, windows ? "windows" : "linux", min, sizeof min, &src);
    snprintf(fix, FIX_CAP,
             "install or update the NVIDIA driver%s%s%s%s%s: "
             "https://www.nvidia.com/Download/index.aspx  # %s comes with the driver, never "
             "with the CUDA toolkit or a wheel",
             min[0] ? " (" : "", min[0] ? min : "", min[0] ? " or newer for torch " : "",
             min[0] ? s->torch_version : "", min[0] ? ")" : "", lib);
}

/* os-release's ID and ID_LIKE under the target's root: "debian", "fedora"
 * or NULL (unknown). */
static const char *distro_family(struct ctx *c)
{
    static const char *const files[] = {"/etc/os-release", "/usr/lib/os-release"};
    struct td_probe_ctx p = {.root = c->root, .arena = c->probe.arena};
    for (size_t i = 0; i < 2; i++) {
        size_t len;
        char *text = td_pyfs_read(&p, files[i], 64 << 10, &len);
        if (!text)
            continue;
        const char *family = NULL;
        for (char *line = text, *next; *line && !family; line = next) {
            next = line + strcspn(line, "\n");
            if (*next)
                *next++ = '\0';
            if (!strncmp(line, "ID=", 3) || !strncmp(line, "ID_LIKE=", 8)) {
                if (strstr(line, "debian") || strstr(line, "ubuntu"))
                    family = "debian";
                else if (strstr(line, "fedora") || strstr(line, "rhel") || strstr(line, "centos"))
                    family = "fedora";
            }
        }
        free(text);
        if (family)
            return family;
    }
    return NULL;
}

/* Linux: a library of the system (its package or the driver), else the
 * distribution's search for the file. */
static void fix_linux_system(struct ctx *c, const struct site *s, const char *lib, char *fix)
{
    struct td_kb_provider p;
    const char *family = distro_family(c);
    bool known = td_kb_linux_system_library(lib, &p);
    if (known && p.driver) {
        driver_fix(s, lib, false, fix);
        return;
    }
    char apt[512], dnf[512];
    if (known)
        snprintf(apt, sizeof apt, "sudo apt-get install %s", p.provider);
    else
        snprintf(apt, sizeof apt,
                 "apt-file search %s, then sudo apt-get install the package it names", lib);
    /* rpm's automatic Provides name a 64-bit soname "libX.so.N()(64bit)". */
    snprintf(dnf, sizeof dnf,
             known ? "sudo dnf install '%s()(64bit)'"
                   : "dnf provides '*/%s', then sudo dnf install the package it names",
             lib);
    char why[512];
    snprintf(why, sizeof why,
             known ? "%s is a library of the system, not of a Python package"
                   : "no installed Python package lists %s in its RECORD",
             lib);
    if (family && !strcmp(family, "debian"))
        snprintf(fix, FIX_CAP, "%s  # %s", apt, why);
    else if (family && !strcmp(family, "fedora"))
        snprintf(fix, FIX_CAP, "%s  # %s", dnf, why);
    else
        snprintf(fix, FIX_CAP, "%s  (Debian/Ubuntu), or %s  (Fedora/RHEL)  # %s", apt, dnf, why);
}

/* The machine of the process, as the VC++ Redistributable names it. */
static const char *process_arch(const struct ctx *c)
{
    uint16_t m = c->machine;
    return m == 0x14c ? "x86" : m == 0xaa64 ? "arm64" : "x64"; /* IMAGE_FILE_MACHINE_* */
}

/* Windows: a runtime of the system (the VC++ Redistributable, the UCRT,
 * the driver), else the distribution that ships the DLL that needs it. */
static void fix_windows_system(struct ctx *c, const struct site *s, const char *lib,
                               const char *needer, char *fix)
{
    struct td_kb_provider p;
    if (td_kb_windows_runtime(lib, process_arch(c), &p)) {
        if (p.driver)
            driver_fix(s, lib, true, fix);
        else
            snprintf(fix, FIX_CAP, "%s  # %s comes with %s; never take it from a DLL-download site",
                     p.fix, lib, p.provider);
        return;
    }
    struct dist *d = malloc(sizeof *d);
    const char *base = needer ? td_pyfs_basename(needer) : NULL;
    if (d && base && owner_of(c, s, base, d)) {
        char spec[300], cmd[1024];
        snprintf(spec, sizeof spec, "%s==%s", d->name, d->version);
        snprintf(fix, FIX_CAP,
                 "%s  # no installed package lists %s in its RECORD and it is no Windows runtime; "
                 "%s ships %s, which imports it: its vendor's install brings it, next to %s or "
                 "in a folder given to os.add_dll_directory()",
                 install(c, s, td_dist_info_installer(&c->probe, d->dist_info), TD_REINSTALL, spec,
                         cmd, sizeof cmd),
                 lib, d->name, base, base);
    } else
        snprintf(
            fix, FIX_CAP,
            "no installed package lists %s in its RECORD and it is no Windows runtime: install "
            "what %s comes from as its vendor documents it, then put %s next to it or add its "
            "folder with os.add_dll_directory()",
            lib, base ? base : "the program", lib);
    free(d);
}

/* The fix for LIB, needed by NEEDER, in site S (S->dir NULL: in none). */
static void name_one(struct ctx *c, struct site *s, const char *lib, const char *needer, char *fix)
{
    if (s->dir && fix_from_record(c, s, lib, fix))
        return;
    if (s->dir && fix_from_conda(c, s, lib, fix))
        return;
    if (s->dir && fix_from_cuda_wheel(c, s, lib, fix))
        return;
    if (c->windows)
        fix_windows_system(c, s, lib, needer, fix);
    else
        fix_linux_system(c, s, lib, fix);
}

/* The machine of the process that loads NEEDER: the graph's, else NEEDER's own. */
static uint16_t machine_of(const struct td_graph *g, const char *needer)
{
    uint16_t m = g->cfg.process_machine;
    for (size_t i = 0; !m && needer && i < g->count; i++)
        if (g->objects[i]->kind == TD_FILE_PE && !strcmp(g->objects[i]->path, needer))
            m = g->objects[i]->u.pe.machine;
    return m;
}

void td_name_providers(struct td_graph *g, const char *python_exe)
{
    struct td_arena arena = {0};
    struct ctx c = {.root = g->cfg.root,
                    .probe = {.arena = &arena},
                    .python_exe = python_exe,
                    .windows = g->cfg.platform == TD_PLATFORM_WINDOWS};
    struct site s = {0};
    char *fix = malloc(FIX_CAP);
    for (size_t i = 0; fix && g->cfg.platform != TD_PLATFORM_MACOS && i < g->findings.count; i++) {
        struct td_finding *x = &g->findings.items[i];
        if (strcmp(x->kind, TD_KIND_MISSING_LIBRARY) != 0 || !x->library || !x->needed_by)
            continue;
        const char *dir = site_dir_of(&arena, x->needed_by);
        if (!s.dir || !dir || strcmp(s.dir, dir) != 0)
            open_site(&c, dir, &s);
        c.machine = machine_of(g, x->needed_by);
        name_one(&c, &s, td_pyfs_basename(x->library), x->needed_by, fix);
        x->fix = td_arena_strdup(&g->findings.arena, fix);
    }
    free(fix);
    td_arena_free(&arena);
}

const char *td_provider_fix(const char *library, const char *needed_by, bool windows, char *out,
                            size_t cap)
{
    struct td_arena arena = {0};
    struct ctx c = {.probe = {.arena = &arena}, .windows = windows};
    struct site s;
    char *fix = malloc(FIX_CAP);
    out[0] = '\0';
    if (fix) {
        open_site(&c, needed_by ? site_dir_of(&arena, needed_by) : NULL, &s);
        name_one(&c, &s, td_pyfs_basename(library), needed_by, fix);
        snprintf(out, cap, "%s", fix);
    }
    free(fix);
    td_arena_free(&arena);
    return out;
}
