/* One model of a target: what `deps`, `check`, `explain` and `trace`'s
 * prediction analyse is described by one request and built by one
 * builder, so that the commands cannot disagree about how a file (or a
 * torch installation) is loaded. A torch is always built through the
 * torch-import path (torch_import.c). */
#ifndef TD_GRAPH_TARGET_H
#define TD_GRAPH_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "graph/graph.h"

/* How much of the symbol tables is checked. */
enum td_symbols {
    TD_SYMBOLS_ALL,      /* every undefined reference bound, names and versions */
    TD_SYMBOLS_VERSIONS, /* only the ELF version needs (GLIBCXX_3.4.30 not found) */
    TD_SYMBOLS_NONE,     /* nothing past the headers */
};

struct td_target_request {
    const char *const *files; /* host paths; files[0] decides platform and profile */
    size_t n_files;
    /* A torch package directory (host path): the target is its import, as
     * `import torch` does it. FILES may then be empty; with FILES, it is
     * taken from files[0] when files[0] lies in a torch layout. */
    const char *torch_dir;
    const char *platform, *profile; /* NULL or "auto": picked from files[0] and its layout */
    const char *root;               /* the target's "/" or "C:\\"; NULL: this machine */
    const char *const *search_dirs;
    size_t n_search_dirs;
    const char *python; /* host path of the interpreter; NULL: guessed from a cpython tag */
    int cpu_level;      /* glibc-hwcaps x86-64 level 1-4; 0: this CPU's */
    enum td_symbols symbols;
    /* The target's environment, taken once by cmd/: "NAME=value" strings,
     * NULL-terminated; a later entry of a name wins. NULL: empty. */
    const char *const *envp;
    /* The running system's API-set schema (Windows without --root), or NULL:
     * cmd/ (through probe/) passes it in, the graph never probes. */
    const struct td_apiset_map *live_apisets;
    /* sys.path entries (host paths) torch's CUDA fallback searches; NULL:
     * the site directory holding torch. */
    const char *const *sys_path;
    size_t n_sys_path;
};

/* Builds G for R; ARENA holds what the graph borrows from the request and
 * the torch-import plan (free G first, then ARENA). Returns -1 with ERR
 * when the target cannot be read at all (no file, no torch layout). */
int td_target_build(const struct td_target_request *r, struct td_graph *g, struct td_arena *arena,
                    struct td_err *err);

#endif
