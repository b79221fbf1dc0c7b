/* The one builder of a target's graph (graph/target.h): platform and
 * profile picked from the file and its layout, the environment snapshot
 * turned into the loader's variables, the interpreter found, and a torch
 * built through the torch-import path. */
#include "graph/target.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <dirent.h>

#include "base/compat.h"

enum { MAX_ROOTS = 512 };

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcasecmp(s + n - m, tail) == 0;
}

static bool is_auto(const char *opt)
{
    return !opt || strcmp(opt, "auto") == 0;
}

/* The platform whose loader applies: the option, else the first file's
 * format, else (a torch directory alone) the format of this build. */
static enum td_platform pick_platform(const char *opt, const struct td_object *o)
{
    if (opt && strcmp(opt, "windows") == 0)
        return TD_PLATFORM_WINDOWS;
    if (opt && strcmp(opt, "macos") == 0)
        return TD_PLATFORM_MACOS;
    if (opt && strcmp(opt, "linux") == 0)
        return TD_PLATFORM_LINUX;
    if (o && o->kind == TD_FILE_PE)
        return TD_PLATFORM_WINDOWS;
    if (o && (o->kind == TD_FILE_MACHO || o->kind == TD_FILE_MACHO_FAT))
        return TD_PLATFORM_MACOS;
#ifdef _WIN32
    if (!o)
        return TD_PLATFORM_WINDOWS;
#endif
    return TD_PLATFORM_LINUX;
}

/* The profile a file gets from its own kind (DESIGN.md "--profile"). */
static enum td_profile profile_of_file(const struct td_object *o)
{
    const char *n = o->name;
    if (strstr(n, ".cpython-") || strstr(n, ".abi3.") || ends_with(n, ".pyd"))
        return TD_PROFILE_PYTHON_EXTENSION;
    if (o->kind == TD_FILE_ELF &&
        (o->u.elf.interp || o->u.elf.type == TD_ET_EXEC || (o->u.elf.dyn.flags_1 & TD_DF_1_PIE)))
        return TD_PROFILE_EXE; /* static-pie programs have DF_1_PIE but no interpreter */
    if (o->kind == TD_FILE_PE && !td_pe_is_dll(&o->u.pe))
        return TD_PROFILE_EXE;
    if ((o->kind == TD_FILE_MACHO || o->kind == TD_FILE_MACHO_FAT) &&
        o->u.macho.filetype == TD_MACHO_EXECUTE)
        return TD_PROFILE_EXE;
    return TD_PROFILE_DLOPEN;
}

/* The profile: the option; "auto" and none alike pick torch-import for a
 * file of a torch layout, else the file's own. */
static enum td_profile pick_profile(const char *opt, const struct td_object *o, bool in_torch)
{
    static const char *const names[] = {"auto", "exe", "dlopen", "python-extension",
                                        "torch-import"};
    for (int i = 1; !is_auto(opt) && i < 5; i++)
        if (strcmp(opt, names[i]) == 0)
            return (enum td_profile)i;
    if (in_torch || !o)
        return TD_PROFILE_TORCH_IMPORT;
    return profile_of_file(o);
}

/* The snapshot's "NAME=value" strings as the loader's pairs (ARENA). */
static struct td_env_var *env_of(const char *const *envp, size_t *n, struct td_arena *arena)
{
    size_t count = 0;
    for (const char *const *e = envp; e && *e; e++)
        count++;
    struct td_env_var *env = td_arena_array(arena, count + 1, sizeof *env);
    *n = 0;
    for (size_t i = 0; env && i < count; i++) {
        const char *eq = strchr(envp[i], '=');
        if (!eq || eq == envp[i])
            continue;
        env[(*n)++] =
            (struct td_env_var){td_arena_strndup(arena, envp[i], (size_t)(eq - envp[i])), eq + 1};
    }
    return env;
}

/* For a CPython extension "x.cpython-311-x86_64-linux-gnu.so", the
 * interpreter it was built for: python3.11 under the target root. */
static const char *guess_python(const struct td_loader_config *cfg, const char *path,
                                struct td_arena *arena)
{
    const char *base = td_host_last_sep(path) ? td_host_last_sep(path) + 1 : path;
    const char *tag = strstr(base, ".cpython-3");
    if (!tag)
        return NULL;
    int minor = atoi(tag + 10);
    static const char *const dirs[] = {"/usr/bin", "/usr/local/bin"};
    for (size_t i = 0; i < 2; i++) {
        char target[256], host[4096];
        snprintf(target, sizeof target, "%s/python3.%d", dirs[i], minor);
        if (td_host_path(cfg, target, host, sizeof host) && access(host, R_OK) == 0)
            return td_arena_strdup(arena, host);
    }
    return NULL;
}

/* The torch directory of the target (host path, ARENA), or NULL. */
static const char *torch_of(const struct td_target_request *r, struct td_arena *arena)
{
    char dir[4096];
    if (r->n_files && td_torch_dir_of(r->files[0], dir, sizeof dir))
        return td_arena_strdup(arena, dir);
    return r->torch_dir;
}

/* A path inside TORCH that td_torch_import_roots recognises: "TORCH/lib/_",
 * with TORCH's own separator. */
static const char *inside_torch(const char *torch, struct td_arena *arena)
{
    char sep = strchr(torch, '\\') && !strchr(torch, '/') ? '\\' : '/';
    size_t len = strlen(torch) + 8;
    char *p = td_arena_alloc(arena, len);
    if (p)
        snprintf(p, len, "%s%clib%c_", torch, sep, sep);
    return p;
}

/* Whether `import torch` of TORCH loads anything (libtorch_global_deps.so,
 * an extension module; on Windows torch\lib's DLLs): a directory named
 * torch holding only some libraries is not an installation. */
static bool imports_something(const struct td_target_request *r, const struct td_object *first,
                              const char *torch, struct td_arena *arena)
{
    struct td_loader_config scratch = {.platform = pick_platform(r->platform, first),
                                       .root = r->root};
    const char *roots[MAX_ROOTS];
    const char *probe = inside_torch(torch, arena);
    return probe && td_torch_import_roots(&scratch, probe, roots, MAX_ROOTS, arena) > 0;
}

static bool same_torch(const char *file, const char *torch)
{
    char dir[4096];
    return torch && td_torch_dir_of(file, dir, sizeof dir) && strcmp(dir, torch) == 0;
}

/* The roots beside the import's: the files that are not part of that
 * torch (a file of the torch only says which torch; the import decides
 * when, and whether, it is loaded). */
static size_t extra_roots(const struct td_target_request *r, const char *torch, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n_files && n < MAX_ROOTS; i++)
        if (!same_torch(r->files[i], torch))
            out[n++] = r->files[i];
    return n;
}

/* The first extension module of ROOTS with a cpython tag decides the
 * interpreter when none was named (Linux: it is in the lookup scope). */
static const char *interpreter_of(const struct td_target_request *r,
                                  const struct td_loader_config *cfg, const char *const *roots,
                                  size_t n, struct td_arena *arena)
{
    if (r->python)
        return r->python;
    if (cfg->platform != TD_PLATFORM_LINUX ||
        (cfg->profile != TD_PROFILE_PYTHON_EXTENSION && cfg->profile != TD_PROFILE_TORCH_IMPORT))
        return NULL;
    const char *found = NULL;
    for (size_t i = 0; i < n && !found; i++)
        found = guess_python(cfg, roots[i], arena);
    return found;
}

/* The PE machine of host file PATH, 0 when it is not a PE image. */
static uint16_t machine_of(const char *path)
{
    struct td_err err = {0};
    struct td_object *o = path ? td_object_open(path, NULL, NULL, &err) : NULL;
    uint16_t m = o && o->kind == TD_FILE_PE ? o->u.pe.machine : 0;
    td_object_free(o);
    return m;
}

/* python.exe of the install TORCH belongs to (...\<prefix>\Lib\site-packages
 * \torch): pyvenv.cfg's home (a venv), else the prefix's own, as a host
 * path in OUT; NULL when the layout names none. */
static const char *python_of_layout(const struct td_loader_config *cfg, const char *torch,
                                    char *out, size_t cap)
{
    char prefix[4096], line[4096], target[4200];
    snprintf(prefix, sizeof prefix, "%s", torch);
    for (int up = 0; up < 3; up++)
        if (td_host_last_sep(prefix))
            *td_host_last_sep(prefix) = '\0';
    snprintf(target, sizeof target, "%s/pyvenv.cfg", prefix);
    FILE *f = fopen(target, "r");
    while (f && fgets(line, sizeof line, f)) {
        const char *eq = strchr(line, '=');
        if (strncmp(line, "home", 4) != 0 || !eq)
            continue;
        const char *v = eq + 1 + strspn(eq + 1, " \t");
        snprintf(target, sizeof target, "%.*s\\python.exe", (int)strcspn(v, "\r\n"), v);
        if (td_host_path(cfg, target, out, cap) && access(out, R_OK) == 0) {
            fclose(f);
            return out;
        }
    }
    if (f)
        fclose(f);
    static const char *const names[] = {"python.exe", "Scripts/python.exe"};
    for (size_t i = 0; i < 2; i++) {
        int n = snprintf(out, cap, "%s/%s", prefix, names[i]);
        if (n > 0 && (size_t)n < cap && access(out, R_OK) == 0)
            return out;
    }
    return NULL;
}

/* Windows, torch-import and python-extension: the process is python.exe's
 * (--python, or the install's layout), else the extension module's
 * (FALLBACK, _C.pyd) -- never the first DLL found. */
static uint16_t process_machine(const struct td_target_request *r,
                                const struct td_loader_config *cfg, const char *torch,
                                const char *fallback)
{
    char exe[4096];
    uint16_t m = machine_of(r->python);
    if (!m && torch)
        m = machine_of(python_of_layout(cfg, torch, exe, sizeof exe));
    return m ? m : machine_of(fallback);
}

/* torch's _C*.pyd (host path, ARENA), or NULL. */
static const char *torch_extension(const char *torch, struct td_arena *arena)
{
    char dir[4200];
    snprintf(dir, sizeof dir, "%s", torch);
    DIR *d = opendir(dir);
    const struct dirent *e;
    const char *found = NULL;
    while (d && !found && (e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "_C", 2) == 0 && ends_with(e->d_name, ".pyd")) {
            size_t len = strlen(dir) + strlen(e->d_name) + 2;
            char *p = td_arena_alloc(arena, len);
            if (p)
                snprintf(p, len, "%s/%s", dir, e->d_name), found = p;
        }
    if (d)
        closedir(d);
    return found;
}

static struct td_graph_options options_of(const struct td_target_request *r, const char *python)
{
    return (struct td_graph_options){.bind_symbols = r->symbols != TD_SYMBOLS_NONE,
                                     .versions_only = r->symbols == TD_SYMBOLS_VERSIONS,
                                     .headers_only = r->symbols == TD_SYMBOLS_NONE,
                                     .interpreter = python};
}

/* `import torch` for TORCH: its roots, then EXTRA, with sys.path as far as
 * the CUDA fallback needs it (by default the site dir holding torch, where
 * pip puts the nvidia-* wheels too). */
static int build_torch(const struct td_target_request *r, struct td_loader_config *cfg,
                       const char *torch, const char *const *extra, size_t n_extra,
                       struct td_graph *g, struct td_arena *arena, struct td_err *err)
{
    const char *probe = inside_torch(torch, arena);
    const char **roots = td_arena_array(arena, MAX_ROOTS, sizeof *roots);
    if (!probe || !roots) {
        td_err_set(err, "out of memory");
        return -1;
    }
    /* The interpreter is guessed from the roots' names (Linux only): the
     * roots listed once more, on a copy, as the build will list them. */
    size_t n = 0;
    if (!r->python && cfg->platform == TD_PLATFORM_LINUX) {
        struct td_loader_config scratch = *cfg;
        n = td_torch_import_roots(&scratch, probe, roots, MAX_ROOTS, arena);
    }
    const char *python = interpreter_of(r, cfg, (const char *const *)roots, n, arena);
    char exe[4096]; /* Windows: the install's python.exe, whose own DLLs load before torch's */
    if (!python && cfg->platform == TD_PLATFORM_WINDOWS &&
        python_of_layout(cfg, torch, exe, sizeof exe))
        python = td_arena_strdup(arena, exe);
    struct td_graph_options opts = options_of(r, python);
    char *site = td_arena_strdup(arena, torch);
    const char *one[1] = {site};
    const char *const *sys_path = r->sys_path;
    size_t n_sys = r->n_sys_path;
    if (!sys_path && site && td_host_last_sep(site)) {
        *td_host_last_sep(site) = '\0';
        sys_path = one, n_sys = 1;
    }
    return td_torch_import_build(g, cfg, &opts, probe, extra, n_extra, sys_path, n_sys, arena, err);
}

int td_target_build(const struct td_target_request *r, struct td_graph *g, struct td_arena *arena,
                    struct td_err *err)
{
    memset(g, 0, sizeof *g);
    struct td_object *first = r->n_files ? td_object_open(r->files[0], NULL, NULL, err) : NULL;
    if (r->n_files && !first)
        return -1;
    const char *torch = torch_of(r, arena);
    if (first && torch && !imports_something(r, first, torch, arena))
        torch = NULL; /* a torch directory without _C: the file is analysed as itself */
    if (!first && !torch) {
        td_err_set(err, "no file to analyse");
        return -1;
    }
    struct td_loader_config *cfg = td_arena_alloc(arena, sizeof *cfg);
    const char **extra = td_arena_array(arena, MAX_ROOTS, sizeof *extra);
    if (!cfg || !extra) {
        td_object_free(first);
        td_err_set(err, "out of memory");
        return -1;
    }
    *cfg = (struct td_loader_config){
        .platform = pick_platform(r->platform, first),
        .profile = pick_profile(r->profile, first, torch != NULL),
        .root = r->root,
        .search_dirs = r->search_dirs,
        .n_search_dirs = r->n_search_dirs,
        .x86_level = r->cpu_level,
        .live_apisets = r->live_apisets,
    };
    cfg->env = env_of(r->envp, &cfg->n_env, arena);
    if (cfg->platform == TD_PLATFORM_WINDOWS && cfg->profile == TD_PROFILE_PYTHON_EXTENSION)
        cfg->load_flags = 0x1100; /* CPython dynload_win.c: DEFAULT_DIRS | DLL_LOAD_DIR */
    td_object_free(first);
    if (cfg->platform == TD_PLATFORM_WINDOWS && cfg->profile == TD_PROFILE_TORCH_IMPORT && torch)
        cfg->process_machine = process_machine(r, cfg, torch, torch_extension(torch, arena));
    if (cfg->platform == TD_PLATFORM_WINDOWS && cfg->profile == TD_PROFILE_PYTHON_EXTENSION)
        cfg->process_machine = process_machine(r, cfg, torch, r->n_files ? r->files[0] : NULL);
    if (cfg->profile == TD_PROFILE_TORCH_IMPORT && torch)
        return build_torch(r, cfg, torch, extra, extra_roots(r, torch, extra), g, arena, err);
    size_t n = r->n_files < MAX_ROOTS ? r->n_files : MAX_ROOTS;
    memcpy(extra, r->files, n * sizeof *extra);
    struct td_graph_options opts =
        options_of(r, interpreter_of(r, cfg, (const char *const *)extra, n, arena));
    return td_graph_build(g, cfg, &opts, extra, n, err);
}
