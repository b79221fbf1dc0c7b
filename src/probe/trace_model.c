/* The static prediction a trace is compared with: what `deps` says the
 * program and each library it dlopened would load, in the order it did,
 * with this process's environment. Shared by `trace` and `check --live`.
 * The traced program's format picks the loader model: a PE program (the
 * Windows tracer) gets the Windows one, with this machine as the target. */
#include <stdlib.h>

#include "probe/trace.h"

enum { MAX_ROOTS = 256 };

int td_trace_build_model(const struct td_trace *tr, struct td_graph *g, struct td_arena *arena,
                         struct td_err *err)
{
    const char **roots = td_arena_array(arena, MAX_ROOTS, sizeof *roots);
    struct td_env_var *env = td_arena_array(arena, 3, sizeof *env);
    struct td_loader_config *cfg = td_arena_alloc(arena, sizeof *cfg);
    if (!roots || !env || !cfg) {
        td_err_set(err, "out of memory");
        return -1;
    }
    size_t n = td_trace_roots(tr, roots, MAX_ROOTS), n_env = 0;
    if (n == 0) {
        td_err_set(err, "the trace loaded no program to compare with");
        return -1;
    }
    struct td_object *first = td_object_open(roots[0], NULL, NULL, err);
    if (!first)
        return -1;
    bool windows = first->kind == TD_FILE_PE;
    td_object_free(first);
    static const char *const linux_names[] = {"LD_LIBRARY_PATH", "LD_PRELOAD", NULL};
    static const char *const windows_names[] = {"PATH", NULL};
    for (const char *const *name = windows ? windows_names : linux_names; *name; name++)
        if (getenv(*name))
            env[n_env++] = (struct td_env_var){*name, getenv(*name)};
    *cfg = (struct td_loader_config){.platform = windows ? TD_PLATFORM_WINDOWS : TD_PLATFORM_LINUX,
                                     .profile = TD_PROFILE_EXE,
                                     .env = env,
                                     .n_env = n_env};
    struct td_graph_options opts = {.bind_symbols = false};
    return td_graph_build(g, cfg, &opts, roots, n, err);
}
