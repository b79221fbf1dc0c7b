/* What `import torch` loads, as roots of a dependency graph: shared by
 * `deps` (torch-import profile) and `check` (every torch installation). */
#include <dirent.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "graph/graph.h"
#include "base/compat.h"
#include "base/data.h"
#include "loader/windows.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcasecmp(s + n - m, tail) == 0;
}

/* The torch package directory that PATH names lexically (".../torch" for
 * ".../torch/lib/x" or ".../torch/_C*", "torch" for "torch/lib/x"), in OUT. */
static const char *torch_dir_spelled(const char *path, char *out, size_t cap)
{
    snprintf(out, cap, "%s", path);
    char *slash = td_host_last_sep(out);
    if (!slash)
        return NULL;
    bool is_c = strncmp(slash + 1, "_C.", 3) == 0 || strncmp(slash + 1, "_C_", 3) == 0;
    *slash = '\0';
    char *up = td_host_last_sep(out);
    const char *dir = up ? up + 1 : out;
    if (!is_c && strcmp(dir, "lib") == 0) {
        if (!up)
            return NULL;
        *up = '\0';
        up = td_host_last_sep(out);
        dir = up ? up + 1 : out;
    } else if (!is_c) {
        return NULL;
    }
    return strcmp(dir, "torch") == 0 ? out : NULL;
}

/* The torch package directory FILE belongs to, written to OUT, or NULL:
 * by its spelling, else (a relative path such as "lib/x" or "../lib/x"
 * from inside torch) by its directory's real path. The file itself is
 * not resolved: torch/lib/libc10.so may be a link out of torch. */
const char *td_torch_dir_of(const char *file, char *out, size_t cap)
{
    if (torch_dir_spelled(file, out, cap))
        return out;
    char dir[4096], real[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = td_host_last_sep(dir);
    if (slash)
        *slash = '\0';
    if (!realpath(slash ? (slash == dir ? "/" : dir) : ".", real))
        return NULL;
    char joined[4096 + PATH_MAX];
    snprintf(joined, sizeof joined, "%s/%s", real, slash ? slash + 1 : file);
    return torch_dir_spelled(joined, out, cap);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The names in DIR matching PATTERN (fnmatch), sorted as glob sorts them
 * in the C locale, as full paths into OUT (ARENA). Listed by hand: Windows
 * has no glob. */
static size_t list_matching(const char *dir, const char *pattern, const char **out, size_t cap,
                            struct td_arena *arena)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    const struct dirent *e;
    while (d && n < cap && (e = readdir(d)) != NULL) {
        if (fnmatch(pattern, e->d_name, 0) != 0)
            continue;
        size_t len = strlen(dir) + 1 + strlen(e->d_name) + 1;
        char *path = td_arena_alloc(arena, len);
        if (path)
            snprintf(path, len, "%s/%s", dir, e->d_name), out[n++] = path;
    }
    if (d)
        closedir(d);
    qsort(out, n, sizeof *out, by_name);
    return n;
}

/* torch's extension modules, TORCH/_C.*.so or .pyd, in name order (glob
 * "_C.*" of torch/__init__.py). */
static size_t extension_modules(const char *torch, const char **out, size_t cap,
                                struct td_arena *arena)
{
    size_t n = list_matching(torch, "_C.*", out, cap, arena), kept = 0;
    for (size_t i = 0; i < n; i++)
        if (ends_with(out[i], ".so") || ends_with(out[i], ".pyd"))
            out[kept++] = out[i];
    return kept;
}

/* What `import torch` loads, in order, as roots of the graph.
 * Linux (torch/__init__.py _load_global_deps, then `from torch._C import *`):
 * lib/libtorch_global_deps.so, then _C*.so.
 * Windows (_load_dll_libraries, pytorch-facts.md section 3.1): every
 * torch\lib\*.dll in glob order with the dll_paths added by
 * os.add_dll_directory, then _C*.pyd. */
size_t td_torch_import_roots(struct td_loader_config *cfg, const char *file, const char **roots,
                             size_t cap, struct td_arena *arena)
{
    char torch[4096];
    size_t n = 0;
    if (!td_torch_dir_of(file, torch, sizeof torch))
        return 0;
    if (cfg->platform == TD_PLATFORM_WINDOWS) {
        /* ...\<prefix>\Lib\site-packages\torch: the prefix is three levels up. */
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%s", torch);
        for (int up = 0; up < 3; up++) {
            char *slash = td_host_last_sep(prefix);
            if (slash)
                *slash = '\0';
        }
        struct td_torch_install install = {.torch_dir = td_arena_strdup(arena, torch),
                                           .exec_prefix = td_arena_strdup(arena, prefix)};
        struct td_torch_plan plan;
        struct td_err err = {0};
        if (td_windows_torch_plan(cfg, &install, arena, &plan, &err) != 0)
            return 0;
        cfg->dll_dirs = plan.dll_dirs;
        cfg->n_dll_dirs = plan.n_dll_dirs;
        for (size_t i = 0; i < plan.n_loads && n < cap; i++) {
            const char *f = plan.loads[i].file;
            if (!strchr(f, '\\') && !strchr(f, '/'))
                continue; /* the VC++ runtime probes: they come in as dependencies */
            char host[4096];
            if (td_host_path(cfg, f, host, sizeof host))
                roots[n++] = td_arena_strdup(arena, host);
        }
    } else {
        char path[4200];
        snprintf(path, sizeof path, "%s/lib/libtorch_global_deps.so", torch);
        if (access(path, R_OK) == 0 && n < cap)
            roots[n++] = td_arena_strdup(arena, path);
    }
    n += extension_modules(torch, roots + n, cap - n, arena);
    return n;
}

/* ---- _load_global_deps' fallback on Linux (pytorch-facts.md 4.2) ---- */

/* The root FILE of the closure that loaded O (its first ancestor). */
static const struct td_object *root_of(const struct td_object *o)
{
    for (int guard = 0; o && o->loader && guard < 4096; guard++)
        o = o->loader;
    return o;
}

/* "libcublasLt.so.*[0-9]" -> "libcublasLt": torch matches the OSError text
 * against lib.split(".", 1)[0]. */
static void pattern_stem(const char *pattern, char *out, size_t cap)
{
    snprintf(out, cap, "%.*s", (int)strcspn(pattern, "."), pattern);
}

/* Whether ctypes.CDLL(libtorch_global_deps.so) fails with an error that
 * names one of the table's libraries: a dependency missing within its
 * closure (the first root). */
static bool global_deps_fail_on_cuda(const struct td_graph *g)
{
    const struct td_object *global = g->count ? g->objects[0] : NULL;
    if (!global || strcmp(global->name, "libtorch_global_deps.so") != 0)
        return false;
    static const char *const cols[] = {"pattern", NULL};
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (e->to || e->delay || root_of(e->from) != global)
            continue;
        struct td_table t;
        if (!td_table_open(&t, "torch_cuda_preloads", cols))
            return false;
        while (td_table_next(&t)) {
            char stem[128];
            pattern_stem(td_table_cell(&t, 0), stem, sizeof stem);
            if (strstr(e->name, stem))
                return true;
        }
    }
    return false;
}

/* The first match of DIR/PATTERN (glob.glob order), into OUT. */
static bool glob_first(const char *dir, const char *pattern, char *out, size_t cap)
{
    struct td_arena scratch = {0};
    const char *found[64];
    size_t n = list_matching(dir, pattern, found, 64, &scratch);
    if (n)
        snprintf(out, cap, "%s", found[0]);
    td_arena_free(&scratch);
    return n > 0;
}

/* _get_cuda_dep_paths for one sys.path entry. */
static bool cuda_dep_path(const char *entry, const char *folder, const char *pattern,
                          int cuda_major, char *out, size_t cap)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/nvidia/%s/lib", entry, folder);
    if (glob_first(dir, pattern, out, cap))
        return true;
    if (cuda_major >= 13) {
        snprintf(dir, sizeof dir, "%s/nvidia/cu%d/lib", entry, cuda_major);
        if (glob_first(dir, pattern, out, cap))
            return true;
    }
    snprintf(dir, sizeof dir, "%s/%s/lib", entry, folder);
    return glob_first(dir, pattern, out, cap);
}

/* What _preload_cuda_deps(err) loads, in order, into PATHS (ARENA);
 * required libraries no entry holds become findings in MISSES. */
static size_t cuda_preloads(const char *const *sys_path, size_t n_sys, int cuda_major,
                            const char **paths, size_t cap, struct td_arena *arena,
                            struct td_findings *misses)
{
    static const char *const cols[] = {"folder", "pattern", "required", NULL};
    size_t n_paths = 0;
    struct td_table t;
    if (!td_table_open(&t, "torch_cuda_preloads", cols))
        return 0;
    while (td_table_next(&t)) {
        const char *folder = td_table_cell(&t, 0), *pattern = td_table_cell(&t, 1);
        char found[4200];
        bool hit = false;
        for (size_t i = 0; i < n_sys && !hit; i++)
            hit = cuda_dep_path(sys_path[i], folder, pattern, cuda_major, found, sizeof found);
        if (hit && n_paths < cap)
            paths[n_paths++] = td_arena_strdup(arena, found);
        else if (!hit && strcmp(td_table_cell(&t, 2), "yes") == 0)
            td_findings_add(misses, TD_SEV_ERROR, TD_KIND_MISSING_LIBRARY, pattern,
                            "torch/__init__.py", NULL,
                            "install the nvidia-* wheels torch requires into the same "
                            "environment (pip install --force-reinstall torch pulls them in)",
                            "libtorch_global_deps.so failed on a CUDA library, and torch's "
                            "fallback finds no %s under nvidia/%s/lib in any sys.path entry: "
                            "import torch raises ValueError",
                            pattern, folder);
    }
    return n_paths;
}

/* torch.version.cuda's major from torch/version.py, 0 when not a CUDA build. */
static int torch_cuda_major(const char *torch_dir)
{
    char path[4200], text[4096];
    snprintf(path, sizeof path, "%s/version.py", torch_dir);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *cuda = strstr(text, "\ncuda");
    /* "cuda = '11.3'", "cuda: Optional[str] = '12.1'", or None: the value
     * is quoted on the same line or absent. */
    const char *q = cuda ? strpbrk(cuda + 1, "'\"\n") : NULL;
    return q && (*q == '\'' || *q == '"') ? atoi(q + 1) : 0;
}

int td_torch_import_build(struct td_graph *g, struct td_loader_config *cfg,
                          const struct td_graph_options *opts, const char *file,
                          const char *const *extra, size_t n_extra, const char *const *sys_path,
                          size_t n_sys_path, struct td_arena *arena, struct td_err *err)
{
    enum { CAP = 512 };
    const char **roots = td_arena_array(arena, CAP, sizeof *roots);
    if (!roots) {
        td_err_set(err, "out of memory");
        return -1;
    }
    size_t n = td_torch_import_roots(cfg, file, roots, CAP, arena);
    for (size_t i = 0; i < n_extra && n < CAP; i++) {
        bool dup = false;
        for (size_t k = 0; k < n && !dup; k++)
            dup = strcmp(roots[k], extra[i]) == 0;
        if (!dup)
            roots[n++] = extra[i];
    }
    if (td_graph_build(g, cfg, opts, roots, n, err) != 0)
        return -1;
    if (cfg->platform != TD_PLATFORM_LINUX || n_sys_path == 0 || !global_deps_fail_on_cuda(g))
        return 0;

    /* The failed dlopen left nothing loaded; torch preloads, then loads
     * libtorch_global_deps.so again and imports _C. */
    char torch[4096];
    struct td_findings misses = {0};
    const char **again = td_arena_array(arena, CAP, sizeof *again);
    size_t np = again && td_torch_dir_of(file, torch, sizeof torch)
                    ? cuda_preloads(sys_path, n_sys_path, torch_cuda_major(torch), again, CAP,
                                    arena, &misses)
                    : 0;
    if (np == 0 && misses.count == 0) {
        td_findings_free(&misses);
        return 0;
    }
    for (size_t i = 0; i < n && np + i < CAP; i++)
        again[np + i] = roots[i];
    td_graph_free(g);
    if (td_graph_build(g, cfg, opts, again, np + n < CAP ? np + n : CAP, err) != 0) {
        td_findings_free(&misses);
        return -1;
    }
    for (size_t i = 0; i < np && i < g->count; i++)
        g->objects[i]->found_via = TD_RULE_TORCH_SYS_PATH;
    for (size_t i = 0; i < misses.count; i++) {
        const struct td_finding *x = &misses.items[i];
        td_findings_add(&g->findings, x->severity, x->kind, x->library, x->needed_by, x->symbol,
                        x->fix, "%s", x->detail);
    }
    td_findings_free(&misses);
    return 0;
}
