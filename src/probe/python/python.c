/* src/probe/python/ answers "which Pythons are there, and what would each
 * one import?": the interpreters on PATH, in the usual prefixes and in the
 * PEP 514 registry (pyreg.h), each one's sys.prefix and sys.path computed
 * as CPython would (python_syspath.c), and the file system view that every
 * probe uses to read a site directory (pyfs.c). Nothing here runs Python.
 *
 * Python interpreters, found without running them: where each one lives,
 * which version it is, the sys.prefix it computes and the site directories
 * its sys.path will hold, in order (docs/probes-python-torch.md). */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/map.h"
#include "format/elf.h"
#include "probe/probe.h"
#include "probe/python/pyfs.h"
#include "probe/python/pyreg.h"
#include "probe/python/python_syspath.h"

enum { MAX_PYTHONS = 256 };

struct found {
    struct td_python *items;
    size_t n, cap;
    const struct td_probe_ctx *ctx;
};

static const char *const KIND_NAMES[] = {"system", "venv", "conda", "pyenv", "other", "embeddable"};

/* "python3.11" -> 3, 11. True when NAME is python<major>.<minor> exactly
 * (an optional ".exe" aside). */
static bool version_from_name(const char *name, int *major, int *minor)
{
    int a, b, used = 0;
    if (sscanf(name, "python%d.%d%n", &a, &b, &used) != 2)
        return false;
    if (name[used] && strcmp(name + used, ".exe") != 0)
        return false;
    *major = a;
    *minor = b;
    return true;
}

static void set_version(struct td_python *py, struct td_arena *a, const char *text)
{
    int major, minor, micro = -1;
    if (sscanf(text, "%d.%d.%d", &major, &minor, &micro) < 2)
        return;
    char v[32];
    if (micro >= 0)
        snprintf(v, sizeof v, "%d.%d.%d", major, minor, micro);
    else
        snprintf(v, sizeof v, "%d.%d", major, minor);
    py->version = td_arena_strdup(a, v);
    py->major = major;
    py->minor = minor;
}

/* One "key = value" of pyvenv.cfg (CPython Lib/site.py venv(): keys are
 * lower-cased, the value stripped). Copies the value into OUT. */
static bool cfg_value(const char *text, const char *key, char *out, size_t cap)
{
    size_t kl = strlen(key);
    for (const char *line = text; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncasecmp(p, key, kl) != 0)
            continue;
        p += kl;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '=')
            continue;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        size_t n = strcspn(p, "\r\n");
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
        if (n >= cap)
            return false;
        memcpy(out, p, n);
        out[n] = '\0';
        return true;
    }
    return false;
}

/* The single lib/python3.N under PREFIX, or false when none or several. */
static bool version_from_lib_dir(const struct td_probe_ctx *ctx, const char *prefix, int *major,
                                 int *minor)
{
    char path[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
    snprintf(path, sizeof path, "%s/lib", strcmp(prefix, "/") ? prefix : "");
    DIR *d = td_pyfs_host(ctx, path, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return false;
    int found = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (version_from_name(e->d_name, major, minor))
            found++;
    closedir(d);
    return found == 1; /* several (python3.9 and 3.11) say nothing */
}

/* python3XY.dll beside a Windows python.exe (the installers and the
 * embeddable distribution put the runtime there); false when none or several. */
static bool version_from_dll(const struct td_probe_ctx *ctx, const char *dir, int *major,
                             int *minor)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return false;
    int found = 0, a, b, used;
    struct dirent *e;
    while ((e = readdir(d))) {
        used = 0;
        if (sscanf(e->d_name, "python%1d%d%n", &a, &b, &used) == 2 && a == 3 &&
            strcasecmp(e->d_name + used, ".dll") == 0) {
            *major = a;
            *minor = b;
            found++;
        }
    }
    closedir(d);
    return found == 1;
}

/* libpython3.N.so.1.0 among the ELF's DT_NEEDED (a --enable-shared build). */
static bool version_from_elf(const struct td_probe_ctx *ctx, const char *exe, int *major,
                             int *minor)
{
    char host[TD_PYFS_PATH_MAX];
    struct td_map m;
    struct td_err err = {0};
    bool ok = false;
    if (!td_pyfs_host(ctx, exe, host, sizeof host) || td_map_open(host, &m, &err) != 0)
        return false;
    struct td_arena a = {.cap = 4 << 20};
    struct td_elf elf;
    if (td_elf_is_elf(m.data, m.size) && td_elf_parse(&elf, m.data, m.size, &a, &err) == 0) {
        for (uint32_t i = 0; i < elf.needed_count && !ok; i++)
            ok = sscanf(elf.needed[i], "libpython%d.%d", major, minor) == 2;
    }
    td_arena_free(&a);
    td_map_close(&m);
    return ok;
}

/* Reads the venv's pyvenv.cfg beside EXE, else one level up (CPython
 * Lib/site.py venv(); getpath.py looks in the other order for `home`, which
 * matters only when both exist). Returns sys.prefix: the folder above EXE's. */
static char *find_pyvenv(const struct td_probe_ctx *ctx, const char *exe, char **cfg_text)
{
    struct td_arena *a = ctx->arena;
    char *dir = td_pyfs_dirname(a, exe);
    char *up = dir ? td_pyfs_dirname(a, dir) : NULL;
    char *tries[] = {dir, up};
    for (int i = 0; up && i < 2; i++) {
        char *cfg = td_pyfs_join(a, tries[i], "pyvenv.cfg");
        size_t len;
        char *text = cfg ? td_pyfs_read(ctx, cfg, 64 << 10, &len) : NULL;
        if (text) {
            *cfg_text = text;
            return up;
        }
    }
    return NULL;
}

static bool ends_with_exe(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".exe") == 0;
}

/* A venv's pyvenv.cfg (CPython Lib/site.py venv(), getpath.py): the version
 * it records, `home` (the base interpreter's folder) and
 * include-system-site-packages. */
static void read_venv(const struct td_probe_ctx *ctx, struct td_python *py, const char *cfg,
                      struct td_syspath_layout *l)
{
    struct td_arena *a = ctx->arena;
    char value[512];
    py->kind = TD_PY_VENV;
    l->venv = true;
    /* "version" (venv module), "version_info" (virtualenv, uv). */
    if ((cfg_value(cfg, "version_info", value, sizeof value) ||
         cfg_value(cfg, "version", value, sizeof value)) &&
        (!py->version || strchr(py->version, '.') == strrchr(py->version, '.')))
        set_version(py, a, value);
    if (cfg_value(cfg, "home", value, sizeof value) && td_host_absolute(value)) {
        char *home = td_pyreg_slashes(a, value);
        size_t n = strlen(home);
        while (n > 1 && home[n - 1] == '/')
            home[--n] = '\0';
        const char *b = td_pyfs_basename(home);
        /* POSIX: home is PREFIX/bin; Windows: the installation's own folder. */
        l->base_dir = home;
        l->base_prefix = strcmp(b, "bin") == 0 ? td_pyfs_dirname(a, home) : home;
    }
    /* site.py venv(): system site packages unless the key says otherwise. */
    l->system_site = !cfg_value(cfg, "include-system-site-packages", value, sizeof value) ||
                     strcasecmp(value, "true") == 0;
}

/* The kind of an installation that is not a venv, from its prefix. */
static enum td_python_kind install_kind(const struct td_probe_ctx *ctx, const struct td_python *py)
{
    char *meta = td_pyfs_join(ctx->arena, py->prefix, "conda-meta");
    const char *home = td_pyfs_home(ctx);
    char pyenv[TD_PYFS_PATH_MAX];
    snprintf(pyenv, sizeof pyenv, "%s/.pyenv/versions/", home ? home : "\n");
    if (meta && td_pyfs_is_dir(ctx, meta))
        return TD_PY_CONDA;
    if (strncmp(py->real, pyenv, strlen(pyenv)) == 0)
        return TD_PY_PYENV;
    if (!strcmp(py->prefix, "/usr") || !strcmp(py->prefix, "/usr/local") ||
        !strcmp(py->prefix, "/"))
        return TD_PY_SYSTEM;
    return TD_PY_OTHER;
}

/* PYTHONHOME=PREFIX[:EXEC_PREFIX] names the installation (getpath.py
 * "CALCULATE (default) home"; it turns getpath's venv detection off, but
 * not site.py's). */
static const char *python_home(const struct td_probe_ctx *ctx, bool windows)
{
    const char *h = td_pyfs_env(ctx, "PYTHONHOME");
    if (!h || !*h)
        return NULL;
    char *p = td_pyreg_slashes(ctx->arena, h);
    if (p)
        p[strcspn(p, windows ? ";" : ":")] = '\0';
    return p && td_host_absolute(p) ? p : NULL;
}

/* Fills everything about one interpreter from its path. False when EXE does not exist. */
static bool describe(const struct td_probe_ctx *ctx, const char *exe, const char *found_by,
                     const char *version_hint, struct td_python *py)
{
    struct td_arena *a = ctx->arena;
    memset(py, 0, sizeof *py);
    char *real = td_pyfs_realpath(ctx, exe);
    if (!real || !td_pyfs_is_file(ctx, real))
        return false;
    py->exe = td_arena_strdup(a, exe);
    py->real = real;
    py->found_by = found_by;

    struct td_syspath_layout l = {.windows = ends_with_exe(real) || ends_with_exe(exe)};
    const char *home = python_home(ctx, l.windows);
    char *cfg = NULL;
    char *venv = find_pyvenv(ctx, exe, &cfg);
    int major = 0, minor = 0;
    if (version_from_name(td_pyfs_basename(real), &major, &minor) ||
        version_from_name(td_pyfs_basename(exe), &major, &minor)) {
        char v[16];
        snprintf(v, sizeof v, "%d.%d", major, minor);
        set_version(py, a, v);
    }
    char *dir = td_pyfs_dirname(a, real);
    if (venv) {
        py->prefix = venv;
        read_venv(ctx, py, cfg, &l);
        free(cfg);
        if (home) /* getpath.py: PYTHONHOME overrides `home`; site.py still sees the venv */
            l.base_prefix = l.base_dir = td_arena_strdup(a, home);
    } else {
        py->prefix = home                                        ? td_arena_strdup(a, home)
                     : strcmp(td_pyfs_basename(dir), "bin") == 0 ? td_pyfs_dirname(a, dir)
                                                                 : dir;
        py->kind = install_kind(ctx, py);
    }
    if (!l.base_prefix)
        l.base_prefix = py->prefix;
    if (!l.base_dir)
        l.base_dir = venv ? l.base_prefix : dir;
    if (!py->version && version_hint)
        set_version(py, a, version_hint);
    if (!py->version && (version_from_lib_dir(ctx, py->prefix, &major, &minor) ||
                         version_from_lib_dir(ctx, l.base_prefix, &major, &minor) ||
                         (l.windows && version_from_dll(ctx, l.base_dir, &major, &minor)) ||
                         version_from_elf(ctx, real, &major, &minor))) {
        char v[16];
        snprintf(v, sizeof v, "%d.%d", major, minor);
        set_version(py, a, v);
    }
    td_python_syspath(ctx, py, &l);
    if (py->pth_file)
        py->kind = TD_PY_EMBEDDABLE;
    py->kind_name = KIND_NAMES[py->kind];
    return true;
}

/* A pyenv shim (~/.pyenv/shims/python3, a shell script) runs the
 * interpreter of the selected version: $PYENV_VERSION, else the first word
 * of ~/.pyenv/version (pyenv's README, "Choosing the Python version"; a
 * .python-version file in the working directory is not consulted). Returns
 * that interpreter, EXE when it is not a shim, NULL when none is selected. */
static const char *through_pyenv_shim(const struct td_probe_ctx *ctx, const char *exe)
{
    const char *home = td_pyfs_home(ctx);
    char shims[TD_PYFS_PATH_MAX];
    snprintf(shims, sizeof shims, "%s/.pyenv/shims/", home ? home : "\n");
    if (strncmp(exe, shims, strlen(shims)) != 0)
        return exe;
    char version[256] = "";
    const char *env = td_pyfs_env(ctx, "PYENV_VERSION");
    if (env && *env) {
        snprintf(version, sizeof version, "%s", env);
    } else {
        char path[TD_PYFS_PATH_MAX];
        size_t len;
        snprintf(path, sizeof path, "%s/.pyenv/version", home);
        char *text = td_pyfs_read(ctx, path, sizeof version - 1, &len);
        if (text)
            sscanf(text, "%255s", version);
        free(text);
    }
    if (!version[0] || strcmp(version, "system") == 0 || strchr(version, '/'))
        return NULL;
    char target[TD_PYFS_PATH_MAX];
    snprintf(target, sizeof target, "%s/.pyenv/versions/%s/bin/%s", home, version,
             td_pyfs_basename(exe));
    return td_arena_strdup(ctx->arena, target);
}

static void add_versioned(struct found *f, const char *exe, const char *found_by,
                          const char *version_hint, bool active)
{
    if (f->n >= MAX_PYTHONS || !(exe = through_pyenv_shim(f->ctx, exe)))
        return;
    struct td_python py;
    if (!describe(f->ctx, exe, found_by, version_hint, &py))
        return;
    for (size_t i = 0; i < f->n; i++) {
        if (strcmp(f->items[i].real, py.real) == 0 && strcmp(f->items[i].prefix, py.prefix) == 0) {
            f->items[i].active |= active;
            return;
        }
    }
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 8;
        struct td_python *items = td_arena_array(f->ctx->arena, cap, sizeof *items);
        if (!items)
            return;
        if (f->n)
            memcpy(items, f->items, f->n * sizeof *items);
        f->items = items;
        f->cap = cap;
    }
    py.active = active;
    f->items[f->n++] = py;
}

static void add(struct found *f, const char *exe, const char *found_by, bool active)
{
    add_versioned(f, exe, found_by, NULL, active);
}

/* An environment's interpreter: bin/python (POSIX), Scripts\python.exe (a
 * Windows venv) or python.exe (a Windows conda env or installation). */
static void add_env(struct found *f, const char *prefix, const char *found_by, bool active)
{
    struct td_arena *a = f->ctx->arena;
    char *exe = td_pyfs_join(a, prefix, "bin/python");
    if (exe && td_pyfs_is_file(f->ctx, exe))
        add(f, exe, found_by, active);
    /* Some tools (uv, virtualenv --without-pip variants) make only python3. */
    else if ((exe = td_pyfs_join(a, prefix, "bin/python3")) && td_pyfs_is_file(f->ctx, exe))
        add(f, exe, found_by, active);
    else if ((exe = td_pyfs_join(a, prefix, "Scripts/python.exe")) && td_pyfs_is_file(f->ctx, exe))
        add(f, exe, found_by, active);
    else if ((exe = td_pyfs_join(a, prefix, "python.exe")))
        add(f, exe, found_by, active);
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* Entries of DIR (target path) matching KEEP, sorted; arena array. */
static size_t list_dir(const struct td_probe_ctx *ctx, const char *dir,
                       bool (*keep)(const char *name), char ***out)
{
    char host[TD_PYFS_PATH_MAX];
    *out = NULL;
    DIR *d = td_pyfs_host(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return 0;
    size_t n = 0, cap = 0;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !keep(e->d_name))
            continue;
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 16;
            char **grown = td_arena_array(ctx->arena, nc, sizeof *grown);
            if (!grown)
                break;
            if (n)
                memcpy(grown, names, n * sizeof *names);
            names = grown;
            cap = nc;
        }
        names[n++] = td_arena_strdup(ctx->arena, e->d_name);
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    return n;
}

static bool any_name(const char *name)
{
    (void)name;
    return true;
}

static bool versioned_python(const char *name)
{
    int a, b;
    return version_from_name(name, &a, &b);
}

/* True when DIR is a directory met before in SEEN (N of them, up to CAP
 * kept): /bin and /usr/bin are one directory where /usr is merged (Debian
 * 12), and listing /usr/bin's two thousand entries again would find the
 * same interpreters. */
static bool seen_dir(const struct td_probe_ctx *ctx, const char *dir, struct stat *seen, size_t *n,
                     size_t cap)
{
    struct stat st;
    if (!td_pyfs_stat(ctx, dir, &st) || !S_ISDIR(st.st_mode))
        return false;
    for (size_t i = 0; i < *n; i++)
        if (seen[i].st_dev == st.st_dev && seen[i].st_ino == st.st_ino && st.st_ino != 0)
            return true;
    if (*n < cap)
        seen[(*n)++] = st;
    return false;
}

/* python3, python, then python3.X in each PATH directory, in PATH order.
 * The first python3 or python is what a shell runs. */
static void add_path(struct found *f, bool mark_active)
{
    const char *path = td_pyfs_env(f->ctx, "PATH");
    if (!path)
        return;
    char *copy = strdup(path);
    bool first = mark_active;
    struct stat seen[64];
    size_t n_seen = 0;
    for (char *save = NULL, *dir = copy ? strtok_r(copy, TD_HOST_PATH_LIST_SEP, &save) : NULL; dir;
         dir = strtok_r(NULL, TD_HOST_PATH_LIST_SEP, &save)) {
        if (!td_host_absolute(dir) ||
            seen_dir(f->ctx, dir, seen, &n_seen, sizeof seen / sizeof *seen))
            continue;
        static const char *const plain[] = {"python3" TD_HOST_EXE_SUFFIX,
                                            "python" TD_HOST_EXE_SUFFIX};
        for (size_t i = 0; i < 2; i++) {
            char *exe = td_pyfs_join(f->ctx->arena, dir, plain[i]);
            if (exe && td_pyfs_is_file(f->ctx, exe)) {
                add(f, exe, "PATH", first);
                first = false;
            }
        }
        char **names;
        size_t n = list_dir(f->ctx, dir, versioned_python, &names);
        for (size_t i = 0; i < n; i++)
            add(f, td_pyfs_join(f->ctx->arena, dir, names[i]), "PATH", false);
    }
    free(copy);
}

/* Conda installations in their default places, the base and each env. */
static void add_conda(struct found *f)
{
    const char *home = td_pyfs_home(f->ctx);
    if (!home)
        return;
    static const char *const bases[] = {"miniconda3", "anaconda3", "miniforge3"};
    for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
        char *base = td_pyfs_join(f->ctx->arena, home, bases[i]);
        if (!base || !td_pyfs_is_dir(f->ctx, base))
            continue;
        add_env(f, base, "conda env", false);
        char *envs = td_pyfs_join(f->ctx->arena, base, "envs");
        char **names;
        size_t n = envs ? list_dir(f->ctx, envs, any_name, &names) : 0;
        for (size_t j = 0; j < n; j++)
            add_env(f, td_pyfs_join(f->ctx->arena, envs, names[j]), "conda env", false);
    }
}

/* Installations registered for the py launcher (PEP 514; pyreg.h). */
static void add_registry(struct found *f)
{
    struct td_pyreg_entry *e;
    size_t n = td_pyreg_list(f->ctx->arena, &e);
    for (size_t i = 0; i < n; i++) {
        char *exe = td_pyreg_exe(f->ctx->arena, &e[i]);
        if (exe)
            add_versioned(f, exe, "py launcher (registry)", td_pyreg_version(&e[i]), false);
    }
}

static void add_pyenv(struct found *f)
{
    const char *home = td_pyfs_home(f->ctx);
    char *versions = home ? td_pyfs_join(f->ctx->arena, home, ".pyenv/versions") : NULL;
    char **names;
    size_t n = versions ? list_dir(f->ctx, versions, any_name, &names) : 0;
    for (size_t i = 0; i < n; i++)
        add_env(f, td_pyfs_join(f->ctx->arena, versions, names[i]), "pyenv", false);
}

int td_probe_pythons(const struct td_probe_ctx *ctx, const char *explicit_python,
                     struct td_python **out, size_t *n)
{
    struct found f = {.ctx = ctx};
    *out = NULL;
    *n = 0;
    if (explicit_python) {
        char abs[TD_PYFS_PATH_MAX];
        const char *exe = explicit_python;
        if (!td_host_absolute(exe) && getcwd(abs, sizeof abs) &&
            strlen(abs) + strlen(exe) + 2 < sizeof abs) {
            strcat(abs, "/");
            strcat(abs, exe);
            exe = abs;
        }
        add(&f, td_pyfs_from_host(ctx->arena, exe), "--python", true);
        *out = f.items;
        *n = f.n;
        return f.n ? 0 : -1;
    }
    const char *venv = td_pyfs_env(ctx, "VIRTUAL_ENV");
    const char *conda = td_pyfs_env(ctx, "CONDA_PREFIX");
    bool env_active = false;
    if (venv && td_host_absolute(venv)) {
        size_t before = f.n;
        add_env(&f, venv, "VIRTUAL_ENV", true);
        env_active = f.n > before;
    }
    if (conda && td_host_absolute(conda)) {
        size_t before = f.n;
        add_env(&f, conda, "CONDA_PREFIX", !env_active);
        env_active |= f.n > before;
    }
    add_path(&f, !env_active);
    add_registry(&f);
    add_conda(&f);
    add_pyenv(&f);
    *out = f.items;
    *n = f.n;
    return 0;
}
