/* What `import torch` loads, as roots of a dependency graph: shared by
 * `deps` (torch-import profile) and `check` (every torch installation). */
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "graph/graph.h"
#include "loader/windows.h"

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), m = strlen(tail);
    return n >= m && strcasecmp(s + n - m, tail) == 0;
}

/* The torch package directory FILE belongs to (".../torch" for
 * ".../torch/lib/x" or ".../torch/_C*"), written to OUT, or NULL. */
const char *td_torch_dir_of(const char *file, char *out, size_t cap)
{
    snprintf(out, cap, "%s", file);
    char *slash = strrchr(out, '/');
    if (!slash)
        return NULL;
    bool is_c = strncmp(slash + 1, "_C.", 3) == 0 || strncmp(slash + 1, "_C_", 3) == 0;
    *slash = '\0';
    char *up = strrchr(out, '/');
    if (!is_c && up && strcmp(up + 1, "lib") == 0)
        *up = '\0', up = strrchr(out, '/');
    else if (!is_c)
        return NULL;
    return up && strcmp(up + 1, "torch") == 0 ? out : NULL;
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
            char *slash = strrchr(prefix, '/');
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
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s/_C.*", torch);
    glob_t gl;
    if (glob(pattern, 0, NULL, &gl) == 0) {
        for (size_t i = 0; i < gl.gl_pathc && n < cap; i++)
            if (ends_with(gl.gl_pathv[i], ".so") || ends_with(gl.gl_pathv[i], ".pyd"))
                roots[n++] = td_arena_strdup(arena, gl.gl_pathv[i]);
        globfree(&gl);
    }
    return n;
}

