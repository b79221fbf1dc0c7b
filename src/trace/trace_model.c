/* The static prediction a trace is compared with: what `deps` says the
 * program and each library it dlopened would load, in the order it did,
 * with the traced program's environment. Shared by `trace` and `check
 * --live`. The traced program's format picks the loader model (a PE
 * program, the Windows tracer, gets the Windows one, with this machine as
 * the target), as it does for `deps`. */
#include "graph/target.h"
#include "probe/system/apiset.h"
#include "probe/install/provider.h"
#include "trace/trace.h"

enum { MAX_ROOTS = 256 };

int td_trace_build_model(const struct td_trace *tr, const char *const *envp, struct td_graph *g,
                         struct td_arena *arena, struct td_err *err)
{
    const char **roots = td_arena_array(arena, MAX_ROOTS, sizeof *roots);
    if (!roots) {
        td_err_set(err, "out of memory");
        return -1;
    }
    size_t n = td_trace_roots(tr, roots, MAX_ROOTS);
    if (n == 0) {
        td_err_set(err, "the trace loaded no program to compare with");
        return -1;
    }
    struct td_target_request r = {.files = roots,
                                  .n_files = n,
                                  .profile = "exe",
                                  .envp = envp,
                                  .symbols = TD_SYMBOLS_NONE,
                                  .live_apisets = td_probe_live_apisets()};
    if (td_target_build(&r, g, arena, err) != 0)
        return -1;
    td_name_providers(g, NULL);
    return 0;
}
