/* sys.path as `python -c` would compute it here, without running Python:
 * CPython's Modules/getpath.py (PYTHONPATH, the stdlib entries, a ._pth
 * file replacing them all) then Lib/site.py main() (the user site, each
 * prefix's site-packages, .pth files), each entry with why it is there. */
#include "probe/python/python_syspath.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "probe/python/pyfs.h"
#include "probe/python/pyreg.h"

enum { MAX_ENTRIES = 512, MAX_PTH_BYTES = 1 << 20, MAX_PTH_FILES = 256 };

static const char *const REASONS[] = {
    [TD_SP_CWD] = "cwd",         [TD_SP_PYTHONPATH] = "pythonpath",
    [TD_SP_PTH_LINE] = "_pth",   [TD_SP_STDLIB_ZIP] = "stdlib_zip",
    [TD_SP_STDLIB] = "stdlib",   [TD_SP_DYNLOAD] = "stdlib_dynload",
    [TD_SP_EXE_DIR] = "exe_dir", [TD_SP_USER_SITE] = "user_site",
    [TD_SP_SITE] = "site",       [TD_SP_DOT_PTH] = "pth_file",
};

struct builder {
    const struct td_probe_ctx *ctx;
    struct td_python *py;
    const struct td_syspath_layout *l;
    size_t cap, cap_imports, cap_sites;
};

static bool same_path(const struct builder *b, const char *x, const char *y)
{
    /* site.py makepath: os.path.normcase, which folds case on Windows. */
    return b->l->windows ? strcasecmp(x, y) == 0 : strcmp(x, y) == 0;
}

static bool known(const struct builder *b, const char *path)
{
    for (size_t i = 0; i < b->py->n_sys_path; i++)
        if (b->py->sys_path[i].why != TD_SP_CWD && same_path(b, b->py->sys_path[i].path, path))
            return true;
    return false;
}

/* Doubles an arena array of N used of *CAP items of SIZE bytes. */
static void *grow(struct td_arena *a, void *items, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return items;
    size_t nc = *cap ? *cap * 2 : 16;
    void *bigger = td_arena_array(a, nc, size);
    if (!bigger)
        return NULL;
    if (n)
        memcpy(bigger, items, n * size);
    *cap = nc;
    return bigger;
}

static void append(struct builder *b, const char *path, enum td_syspath_why why, const char *from,
                   const char *detail)
{
    struct td_python *py = b->py;
    if (!path || py->n_sys_path >= MAX_ENTRIES)
        return;
    struct td_syspath_entry *e =
        grow(b->ctx->arena, py->sys_path, py->n_sys_path, &b->cap, sizeof *e);
    if (!e)
        return;
    py->sys_path = e;
    struct stat st;
    py->sys_path[py->n_sys_path++] = (struct td_syspath_entry){
        .path = path,
        .why = why,
        .reason = REASONS[why],
        .detail = td_arena_strdup(b->ctx->arena, detail),
        .from = from,
        .exists = why != TD_SP_CWD && path[0] && td_pyfs_stat(b->ctx, path, &st),
    };
}

static bool absolute(const struct builder *b, const char *p)
{
    if (p[0] == '/')
        return true;
    return b->l->windows && p[0] && p[1] == ':' && (p[2] == '/' || p[2] == '\\');
}

/* Appends component C (LEN bytes) of a path being normalised in OUT: "."
 * is dropped, ".." removes the last component but never the root (the
 * first KEEP bytes: "/" or "C:/"). */
static void push_component(char *out, size_t *at, size_t keep, const char *c, size_t len)
{
    if (len == 0 || (len == 1 && c[0] == '.'))
        return;
    if (len == 2 && c[0] == '.' && c[1] == '.') {
        while (*at > keep && out[*at - 1] != '/')
            (*at)--;
        if (*at > keep)
            (*at)--;
        return;
    }
    if (*at > keep)
        out[(*at)++] = '/';
    memcpy(out + *at, c, len);
    *at += len;
}

/* os.path.abspath: joined to BASE (NULL: the current directory) when
 * relative, then normalised lexically ("a/./b/../c" -> "a/c"); '/'
 * separators (Windows paths: '\\' turned into '/'). */
static char *abspath(const struct builder *b, const char *base, const char *p)
{
    char joined[TD_PYFS_PATH_MAX], cwd[TD_PYFS_PATH_MAX], out[TD_PYFS_PATH_MAX];
    if (!base && !absolute(b, p))
        base = getcwd(cwd, sizeof cwd) ? cwd : "/";
    int n = absolute(b, p) ? snprintf(joined, sizeof joined, "%s", p)
                           : snprintf(joined, sizeof joined, "%s/%s", base, p);
    if (n < 0 || (size_t)n >= sizeof joined)
        return NULL;
    for (char *c = joined; b->l->windows && *c; c++)
        if (*c == '\\')
            *c = '/';
    size_t at = 0;
    const char *r = joined;
    if (b->l->windows && r[0] && r[1] == ':') { /* the drive stays */
        memcpy(out, r, 2);
        at = 2;
        r += 2;
    }
    out[at++] = '/';
    size_t keep = at;
    while (*r) {
        r += strspn(r, "/");
        size_t len = strcspn(r, "/");
        push_component(out, &at, keep, r, len);
        r += len;
    }
    out[at] = '\0';
    return td_arena_strdup(b->ctx->arena, out);
}

static char *printf_path(struct td_arena *a, const char *fmt, const char *dir, int major, int minor)
{
    char tmp[TD_PYFS_PATH_MAX];
    int n = snprintf(tmp, sizeof tmp, fmt, strcmp(dir, "/") ? dir : "", major, minor);
    return n > 0 && (size_t)n < sizeof tmp ? td_arena_strdup(a, tmp) : NULL;
}

/* ---- .pth files (site.py addsitedir / addpackage) ---- */

static void add_import(struct builder *b, const char *file, unsigned line, const char *text)
{
    struct td_python *py = b->py;
    for (size_t i = 0; i < py->n_pth_imports; i++) /* a site dir read twice (venv()) */
        if (py->pth_imports[i].line == line && strcmp(py->pth_imports[i].file, file) == 0)
            return;
    struct td_pth_import *x =
        grow(b->ctx->arena, py->pth_imports, py->n_pth_imports, &b->cap_imports, sizeof *x);
    if (!x)
        return;
    py->pth_imports = x;
    py->pth_imports[py->n_pth_imports++] =
        (struct td_pth_import){file, line, td_arena_strdup(b->ctx->arena, text)};
}

/* One .pth file: "#" lines and blank lines skipped, lines starting
 * "import " or "import\t" run by site.py (here: reported), every other line
 * a path, relative to the site dir, right-stripped, added when it exists
 * and is not already on sys.path (addpackage). */
static void read_pth(struct builder *b, const char *sitedir, const char *file)
{
    size_t len;
    char *text = td_pyfs_read(b->ctx, file, MAX_PTH_BYTES, &len);
    if (!text)
        return;
    unsigned lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        size_t n = strlen(line);
        while (n && strchr(" \t\r\f\v", line[n - 1]))
            line[--n] = '\0';
        bool blank = strspn(line, " \t\f\v") == n;
        if (line[0] == '#' || blank) {
        } else if (strncmp(line, "import ", 7) == 0 || strncmp(line, "import\t", 7) == 0) {
            add_import(b, file, lineno, line);
        } else {
            char *dir = abspath(b, sitedir, line);
            struct stat st;
            if (dir && !known(b, dir) && td_pyfs_stat(b->ctx, dir, &st)) {
                char detail[TD_PYFS_PATH_MAX + 64];
                snprintf(detail, sizeof detail, "line %u of %s", lineno, file);
                append(b, dir, TD_SP_DOT_PTH, file, detail);
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
}

static int cmp_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The *.pth names of DIR (not hidden), sorted as site.py sorts them. */
static size_t pth_names(const struct builder *b, const char *dir, char **names)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(b->ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return 0;
    size_t n = 0;
    struct dirent *e;
    while (n < MAX_PTH_FILES && (e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] != '.' && len > 4 && strcmp(e->d_name + len - 4, ".pth") == 0)
            names[n++] = td_arena_strdup(b->ctx->arena, e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, cmp_name);
    return n;
}

static void add_site_dir(struct builder *b, const char *dir)
{
    struct td_python *py = b->py;
    for (size_t i = 0; i < py->n_site_dirs; i++)
        if (same_path(b, py->site_dirs[i], dir))
            return;
    const char **s = grow(b->ctx->arena, py->site_dirs, py->n_site_dirs, &b->cap_sites, sizeof *s);
    if (!s)
        return;
    py->site_dirs = s;
    py->site_dirs[py->n_site_dirs++] = dir;
}

/* site.py addsitedir: the folder (unless already there), then its .pth
 * files in sorted order, even when the folder was already on sys.path. */
static void addsitedir(struct builder *b, const char *dir, enum td_syspath_why why,
                       const char *from, const char *detail)
{
    if (!dir || !td_pyfs_is_dir(b->ctx, dir))
        return; /* addsitepackages / addusersitepackages: only folders that exist */
    if (!known(b, dir))
        append(b, dir, why, from, detail);
    add_site_dir(b, dir);
    char *names[MAX_PTH_FILES];
    size_t n = pth_names(b, dir, names);
    for (size_t i = 0; i < n; i++)
        read_pth(b, dir, td_pyfs_join(b->ctx->arena, dir, names[i]));
}

/* ---- the user site and the prefixes' site-packages ---- */

static const char *env(const struct builder *b, const char *name)
{
    const char *v = td_pyfs_env(b->ctx, name);
    return v && *v ? v : NULL; /* CPython's _Py_GetEnv: an empty value is unset */
}

/* site.py _getuserbase / _get_path: PYTHONUSERBASE, else ~/.local (POSIX)
 * or %APPDATA%\Python (Windows); then lib/python3.X/site-packages or
 * Python3X\site-packages under it. */
static void user_site(struct builder *b)
{
    struct td_python *py = b->py;
    struct td_arena *a = b->ctx->arena;
    const char *base = env(b, "PYTHONUSERBASE"), *from = "PYTHONUSERBASE";
    char tmp[TD_PYFS_PATH_MAX];
    if (!base && b->l->windows && env(b, "APPDATA")) {
        snprintf(tmp, sizeof tmp, "%s/Python", env(b, "APPDATA"));
        base = tmp, from = "APPDATA";
    } else if (!base && !b->l->windows && td_pyfs_home(b->ctx)) {
        snprintf(tmp, sizeof tmp, "%s/.local", td_pyfs_home(b->ctx));
        base = tmp, from = "HOME";
    }
    if (!base)
        return;
    char *ub = abspath(b, NULL, base);
    if (ub && b->l->windows)
        py->user_site = td_pyreg_user_site(a, ub, py->major, py->minor);
    else if (ub)
        py->user_site =
            printf_path(a, "%s/lib/python%d.%d/site-packages", ub, py->major, py->minor);
    if (py->user_site_off || !py->user_site)
        return;
    char detail[TD_PYFS_PATH_MAX + 64];
    snprintf(detail, sizeof detail, "the user site (%s=%s)", from,
             strcmp(from, "HOME") == 0 ? td_pyfs_home(b->ctx) : env(b, from));
    addsitedir(b, py->user_site, TD_SP_USER_SITE, from, detail);
}

/* Debian's site.py lists dist-packages (debian/patches: the distutils
 * install layout); the stdlib's own site.py says which one this is. */
static bool debian_site(const struct builder *b, const char *stdlib)
{
    size_t len;
    char *site = td_pyfs_join(b->ctx->arena, stdlib, "site.py");
    char *text = site ? td_pyfs_read(b->ctx, site, 256 << 10, &len) : NULL;
    if (text) {
        bool deb = strstr(text, "dist-packages") != NULL;
        free(text);
        return deb;
    }
    /* No site.py to read (a fake root): Debian's layout when /usr has it. */
    return strcmp(b->l->base_prefix, "/usr") == 0 &&
           td_pyfs_is_dir(b->ctx, "/usr/lib/python3/dist-packages");
}

/* site.py getsitepackages for one prefix: Windows PREFIX and
 * PREFIX\Lib\site-packages; POSIX PREFIX/lib/python3.X/site-packages, or
 * with Debian's site.py local/lib/python3.X/dist-packages,
 * lib/python3/dist-packages, lib/python3.X/dist-packages (site-packages
 * first only in a virtual environment). */
static void prefix_sites(struct builder *b, const char *prefix, bool debian, bool virtual_env)
{
    struct td_arena *a = b->ctx->arena;
    int M = b->py->major, m = b->py->minor;
    char detail[TD_PYFS_PATH_MAX + 64];
    snprintf(detail, sizeof detail, "site-packages of %s %s (site.py getsitepackages)",
             strcmp(prefix, b->py->prefix) == 0 ? "sys.prefix" : "sys.base_prefix", prefix);
    if (b->l->windows) {
        addsitedir(b, td_arena_strdup(a, prefix), TD_SP_SITE, prefix, detail);
        addsitedir(b, td_pyfs_join(a, prefix, "Lib/site-packages"), TD_SP_SITE, prefix, detail);
        return;
    }
    if (!debian || virtual_env)
        addsitedir(b, printf_path(a, "%s/lib/python%d.%d/site-packages", prefix, M, m), TD_SP_SITE,
                   prefix, detail);
    if (!debian)
        return;
    addsitedir(b, printf_path(a, "%s/local/lib/python%d.%d/dist-packages", prefix, M, m),
               TD_SP_SITE, prefix, detail);
    addsitedir(b, td_pyfs_join(a, prefix, "lib/python3/dist-packages"), TD_SP_SITE, prefix, detail);
    addsitedir(b, printf_path(a, "%s/lib/python%d.%d/dist-packages", prefix, M, m), TD_SP_SITE,
               prefix, detail);
}

/* site.py main(): removeduppaths, venv, addusersitepackages, addsitepackages. */
static void run_site(struct builder *b, const char *stdlib)
{
    struct td_python *py = b->py;
    /* removeduppaths: every entry made absolute, later duplicates dropped. */
    size_t kept = 0;
    for (size_t i = 0; i < py->n_sys_path; i++) {
        struct td_syspath_entry e = py->sys_path[i];
        char *p = e.why == TD_SP_CWD ? NULL : abspath(b, NULL, e.path);
        if (p)
            e.path = p;
        size_t n = py->n_sys_path;
        py->n_sys_path = kept;
        bool dup = e.why != TD_SP_CWD && known(b, e.path);
        py->n_sys_path = n;
        if (!dup)
            py->sys_path[kept++] = e;
    }
    py->n_sys_path = kept;
    bool virtual_env = strcmp(py->prefix, b->l->base_prefix) != 0;
    bool debian = !b->l->windows && debian_site(b, stdlib);
    /* venv(): the venv's site-packages go first, "so venv takes precedence
     * over user-site"; PREFIXES then lists the venv before the base. */
    if (b->l->venv)
        prefix_sites(b, py->prefix, debian, virtual_env);
    user_site(b);
    prefix_sites(b, py->prefix, debian, virtual_env);
    if (!b->l->venv || b->l->system_site)
        if (virtual_env)
            prefix_sites(b, b->l->base_prefix, debian, virtual_env);
}

/* ---- getpath.py ---- */

/* The ._pth file getpath.py honours: beside the runtime library
 * (python3XY.dll on Windows), else beside the executable ("python._pth"
 * for python.exe; "python3.11._pth" on POSIX), else beside the real one. */
static char *find_pth(const struct builder *b, char **text)
{
    struct td_arena *a = b->ctx->arena;
    const struct td_python *py = b->py;
    char cand[3][TD_PYFS_PATH_MAX];
    size_t n = 0;
    if (b->l->windows && b->l->base_dir)
        snprintf(cand[n++], sizeof cand[0], "%s/python%d%d._pth", b->l->base_dir, py->major,
                 py->minor);
    const char *exes[] = {py->exe, py->real};
    for (size_t i = 0; i < 2; i++) {
        size_t len = strlen(exes[i]);
        if (b->l->windows && len > 4 && strcasecmp(exes[i] + len - 4, ".exe") == 0)
            len -= 4;
        snprintf(cand[n++], sizeof cand[0], "%.*s._pth", (int)len, exes[i]);
    }
    for (size_t i = 0; i < n; i++) {
        size_t len;
        if ((*text = td_pyfs_read(b->ctx, cand[i], MAX_PTH_BYTES, &len)))
            return td_arena_strdup(a, cand[i]);
    }
    return NULL;
}

/* getpath.py "SET pythonpath FROM _PTH FILE": each line up to '#',
 * stripped; "import site" turns site on, other imports are refused, every
 * other line is a path relative to the file's folder. Isolated mode:
 * no PYTHONPATH, no user site, no current directory. */
static void apply_pth(struct builder *b, const char *file, char *text)
{
    struct td_python *py = b->py;
    char *dir = td_pyfs_dirname(b->ctx->arena, file);
    unsigned lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        line[strcspn(line, "#")] = '\0';
        line += strspn(line, " \t\r\f\v");
        size_t n = strlen(line);
        while (n && strchr(" \t\r\f\v", line[n - 1]))
            line[--n] = '\0';
        char detail[TD_PYFS_PATH_MAX + 64];
        snprintf(detail, sizeof detail, "line %u of %s", lineno, file);
        if (!n) {
        } else if (strcmp(line, "import site") == 0) {
            py->site_imported = true;
        } else if (strncmp(line, "import ", 7) == 0) {
            add_import(b, file, lineno, line);
        } else {
            char joined[TD_PYFS_PATH_MAX];
            snprintf(joined, sizeof joined, "%s/%s", dir, line);
            append(b, td_arena_strdup(b->ctx->arena, absolute(b, line) ? line : joined),
                   TD_SP_PTH_LINE, file, detail);
        }
        line = nl ? nl + 1 : NULL;
    }
}

/* getpath.py "UPDATE pythonpath": PYTHONPATH, the zip, then the stdlib
 * folders (Windows: DLLs, Lib, the executable's folder). */
static const char *stdlib_entries(struct builder *b)
{
    struct td_python *py = b->py;
    struct td_arena *a = b->ctx->arena;
    const char *base = b->l->base_prefix;
    int M = py->major, m = py->minor;
    const char *pp = env(b, "PYTHONPATH");
    if (pp) {
        char *copy = td_arena_strdup(a, pp);
        const char *sep = b->l->windows ? ";" : ":";
        unsigned k = 0;
        for (char *p = copy; p;) {
            char *end = strpbrk(p, sep);
            if (end)
                *end = '\0';
            char detail[64];
            snprintf(detail, sizeof detail, "$PYTHONPATH entry %u", ++k);
            append(b, abspath(b, NULL, p), TD_SP_PYTHONPATH, "PYTHONPATH", detail);
            p = end ? end + 1 : NULL;
        }
    }
    if (b->l->windows) {
        const char *dir = b->l->base_dir ? b->l->base_dir : base;
        append(b, printf_path(a, "%s/python%d%d.zip", dir, M, m), TD_SP_STDLIB_ZIP, NULL,
               "the standard library's zip (getpath.py), listed whether or not it exists");
        char *dlls = td_pyfs_join(a, base, "DLLs");
        append(b, td_pyfs_is_dir(b->ctx, dlls) ? dlls : td_arena_strdup(a, base), TD_SP_DYNLOAD,
               NULL, "the extension modules of the standard library (getpath.py)");
        char *lib = td_pyfs_join(a, base, "Lib");
        append(b, lib, TD_SP_STDLIB, NULL, "the standard library (getpath.py)");
        if (!known(b, dir))
            append(b, td_arena_strdup(a, dir), TD_SP_EXE_DIR, NULL,
                   "the executable's folder (getpath.py, Windows)");
        return lib;
    }
    append(b, printf_path(a, "%s/lib/python%d%d.zip", base, M, m), TD_SP_STDLIB_ZIP, NULL,
           "the standard library's zip (getpath.py), listed whether or not it exists");
    char *lib = printf_path(a, "%s/lib/python%d.%d", base, M, m);
    append(b, lib, TD_SP_STDLIB, NULL, "the standard library (getpath.py)");
    append(b, printf_path(a, "%s/lib/python%d.%d/lib-dynload", base, M, m), TD_SP_DYNLOAD, NULL,
           "the extension modules of the standard library (getpath.py)");
    return lib;
}

void td_python_syspath(const struct td_probe_ctx *ctx, struct td_python *py,
                       const struct td_syspath_layout *l)
{
    struct builder b = {.ctx = ctx, .py = py, .l = l};
    py->n_sys_path = py->n_site_dirs = py->n_pth_imports = 0;
    py->site_imported = true;
    if (py->major <= 0)
        return; /* without a version no path can be named */
    char *text = NULL;
    char *pth = find_pth(&b, &text);
    const char *stdlib = NULL;
    struct td_syspath_layout embedded;
    if (pth) {
        /* getpath.py: the ._pth's folder becomes home, so sys.prefix. */
        embedded = *l;
        embedded.venv = false;
        embedded.base_prefix = py->prefix = td_pyfs_dirname(ctx->arena, pth);
        b.l = l = &embedded;
        py->pth_file = pth;
        py->site_imported = false;
        py->user_site_off = "._pth (isolated mode)";
        apply_pth(&b, pth, text);
        free(text);
        if (l->windows)
            stdlib = td_pyfs_join(ctx->arena, l->base_prefix, "Lib");
    } else {
        /* PYTHONSAFEPATH (3.11+): no current directory in front. */
        bool safe = env(&b, "PYTHONSAFEPATH") && (py->major > 3 || py->minor >= 11);
        if (!safe)
            append(&b, "", TD_SP_CWD, NULL,
                   "python -c and the prompt put the current directory first (a script: its "
                   "folder); not searched here");
        if (env(&b, "PYTHONNOUSERSITE"))
            py->user_site_off = "PYTHONNOUSERSITE";
        else if (l->venv && !l->system_site)
            py->user_site_off = "venv without include-system-site-packages";
        stdlib = stdlib_entries(&b);
    }
    if (py->site_imported)
        run_site(&b, stdlib ? stdlib : "/");
    else
        user_site(&b); /* named, not added */
}
