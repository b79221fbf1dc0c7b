/* The dependency graph `deps` builds for its files (platform and profile
 * picked from the files and their layout, torch-import roots, the host's
 * environment without --root), shared with `explain`, which runs the same
 * analysis on the file an error message names. */
#ifndef TD_CMD_DEPS_GRAPH_H
#define TD_CMD_DEPS_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"

struct td_deps_request {
    const char *const *files; /* host paths; files[0] decides platform and profile */
    size_t n_files;
    const char *const *search_dirs;
    size_t n_search_dirs;
    const struct td_env_var *env; /* --env entries */
    size_t n_env;
    const char *platform, *profile, *root, *python; /* NULL: auto, as `deps` picks them */
    int cpu_level;
    bool no_symbols;
};

/* Builds G for R (PLAN_ARENA holds the torch-import plan; free both after).
 * Returns -1 with ERR when the first file cannot be read. */
int td_deps_build(const struct td_deps_request *r, struct td_graph *g, struct td_arena *plan_arena,
                  struct td_err *err);

#endif
