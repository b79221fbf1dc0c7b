/* The static prediction a trace is compared with: what `deps` says the
 * program and each library it dlopened would load, in the order it did,
 * with this process's environment. Shared by `trace` and `check --live`. */
#include <stdlib.h>

#include "probe/trace.h"

enum { MAX_ROOTS = 256 };

int td_trace_build_model(const struct td_trace *tr, struct td_graph *g, struct td_arena *arena,
                         struct td_err *err)
{
    const char **roots = td_arena_array(arena, MAX_ROOTS, sizeof *roots);
    struct td_env_var *env = td_arena_array(arena, 2, sizeof *env);
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
    static const char *const names[] = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
    for (size_t i = 0; i < 2; i++)
        if (getenv(names[i]))
            env[n_env++] = (struct td_env_var){names[i], getenv(names[i])};
    *cfg = (struct td_loader_config){
        .platform = TD_PLATFORM_LINUX, .profile = TD_PROFILE_EXE, .env = env, .n_env = n_env};
    struct td_graph_options opts = {.bind_symbols = false};
    return td_graph_build(g, cfg, &opts, roots, n, err);
}
