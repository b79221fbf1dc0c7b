/* What `import torch` does on Windows before anything imports torch._C:
 * torch/__init__.py _load_dll_libraries (pytorch-facts §3.1), computed for
 * a target install so the graph can replay it (windows.h). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "loader/windows.h"

static bool dir_exists(const struct td_loader_config *cfg, const char *target)
{
    char host[4096];
    struct stat st;
    return target && td_host_path(cfg, target, host, sizeof host) && stat(host, &st) == 0 &&
           S_ISDIR(st.st_mode);
}

static const char *join(struct td_arena *a, const char *dir, const char *name)
{
    if (!dir)
        return NULL;
    char sep = strchr(dir, '\\') || (dir[0] && dir[1] == ':') ? '\\' : '/';
    char *p = td_arena_alloc(a, strlen(dir) + strlen(name) + 2);
    if (p)
        sprintf(p, "%s%c%s", dir, sep, name);
    return p;
}

static int by_name_nocase(const void *x, const void *y)
{
    return strcasecmp(*(const char *const *)x, *(const char *const *)y);
}

/* glob.glob(th_dll_path\*.dll): os.scandir order, which on NTFS is the
 * directory index order (names compared without regard to case). */
static size_t glob_dlls(const struct td_loader_config *cfg, const char *dir, struct td_arena *a,
                        const char ***out)
{
    char host[4096];
    DIR *d = td_host_path(cfg, dir, host, sizeof host) ? opendir(host) : NULL;
    size_t n = 0, cap = 0;
    const char **names = NULL;
    const struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcasecmp(e->d_name + len - 4, ".dll") != 0)
            continue;
        if (n == cap) {
            const char **grown = td_arena_array(a, cap ? cap * 2 : 64, sizeof *grown);
            if (!grown)
                break;
            if (n)
                memcpy(grown, names, n * sizeof *grown);
            names = grown;
            cap = cap ? cap * 2 : 64;
        }
        names[n++] = td_arena_strdup(a, e->d_name);
    }
    if (d)
        closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name_nocase);
    *out = names;
    return n;
}

static bool any_file(const struct td_loader_config *cfg, const struct td_torch_plan *plan,
                     const char *prefix, const char *suffix, struct td_arena *a)
{
    for (size_t i = 0; i < plan->n_dll_dirs; i++) {
        const char **names;
        size_t n = glob_dlls(cfg, plan->dll_dirs[i], a, &names);
        for (size_t k = 0; k < n; k++)
            if (strncasecmp(names[k], prefix, strlen(prefix)) == 0 &&
                (!suffix || strcasecmp(names[k] + strlen(prefix), suffix) == 0))
                return true;
    }
    return false;
}

int td_windows_torch_plan(const struct td_loader_config *cfg, const struct td_torch_install *in,
                          struct td_arena *a, struct td_torch_plan *plan, struct td_err *err)
{
    memset(plan, 0, sizeof *plan);
    const char *base = in->base_exec_prefix ? in->base_exec_prefix : in->exec_prefix;
    const char *pfiles = td_config_env(cfg, "ProgramFiles");
    if (!pfiles)
        pfiles = "C:\\Program Files";
    plan->th_dll_path = join(a, in->torch_dir, "lib");
    const char *candidates[] = {
        plan->th_dll_path,
        join(a, join(a, in->exec_prefix, "Library"), "bin"),
        base && in->exec_prefix && strcmp(base, in->exec_prefix) != 0
            ? join(a, join(a, base, "Library"), "bin")
            : NULL,
        join(a, join(a, in->userbase, "Library"), "bin"),
        join(a, in->exec_prefix, "bin"),
        NULL, /* NVTX */
        NULL, /* CUDA toolkit */
    };
    plan->dll_dirs = td_arena_array(a, 8, sizeof *plan->dll_dirs);
    plan->loads = td_arena_array(a, 3, sizeof *plan->loads);
    if (!plan->dll_dirs || !plan->loads || !plan->th_dll_path) {
        td_err_set(err, "out of memory or no torch directory");
        return -1;
    }
    for (size_t i = 0; i < 5; i++)
        if (dir_exists(cfg, candidates[i]))
            plan->dll_dirs[plan->n_dll_dirs++] = candidates[i];
    /* NVTX and the CUDA toolkit are added only when dll_paths lack them. */
    if (!any_file(cfg, plan, "nvToolsExt64_1.dll", "", a)) {
        const char *nvtx = td_config_env(cfg, "NVTOOLSEXT_PATH");
        candidates[5] =
            join(a,
                 join(a, nvtx ? nvtx : join(a, join(a, pfiles, "NVIDIA Corporation"), "NvToolsExt"),
                      "bin"),
                 "x64");
    }
    if (in->cuda_version && !any_file(cfg, plan, "cudart64", NULL, a)) {
        char var[64], ver[64];
        snprintf(var, sizeof var, "CUDA_PATH_V%s", in->cuda_version);
        for (char *c = var; *c; c++)
            if (*c == '.')
                *c = '_';
        snprintf(ver, sizeof ver, "v%s", in->cuda_version);
        const char *cuda = td_config_env(cfg, var);
        if (!cuda)
            cuda = join(a, join(a, join(a, pfiles, "NVIDIA GPU Computing Toolkit"), "CUDA"), ver);
        candidates[6] = join(a, cuda, "bin");
    }
    for (size_t i = 5; i < 7; i++)
        if (dir_exists(cfg, candidates[i]))
            plan->dll_dirs[plan->n_dll_dirs++] = candidates[i];
    /* ctypes.CDLL(name): LoadLibraryExW with LOAD_LIBRARY_SEARCH_DEFAULT_DIRS
     * (CPython Lib/ctypes/__init__.py winmode default); failure only warns. */
    const char *runtimes[] = {"vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll"};
    const char **names;
    size_t n = glob_dlls(cfg, plan->th_dll_path, a, &names);
    struct td_torch_load *loads = td_arena_array(a, n + 3, sizeof *loads);
    if (!loads) {
        td_err_set(err, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < (in->arm64 ? 2u : 3u); i++)
        loads[plan->n_loads++] =
            (struct td_torch_load){runtimes[i], TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, true, false};
    for (size_t i = 0; i < n; i++)
        loads[plan->n_loads++] = (struct td_torch_load){
            join(a, plan->th_dll_path, names[i]),
            TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR, false, true};
    plan->loads = loads;
    return 0;
}
