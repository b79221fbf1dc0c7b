/* The dependency closure: every object once, in the loader's breadth-first
 * order, each edge with the resolution that satisfied it (or the places
 * tried when nothing did), then symbol binding across the lookup scope.
 * Platform-neutral: the loader model decides where files are. */
#ifndef TD_GRAPH_GRAPH_H
#define TD_GRAPH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>

#include "base/finding.h"
#include "loader/loader.h"

/* One dependency of one object. */
struct td_edge {
    struct td_object *from;
    const char *name;     /* as the object names it (DT_NEEDED, import DLL, install name) */
    bool delay;           /* delay-load import, lazy dylib: a miss is a warning */
    bool weak;            /* weak dylib: a miss is not an error */
    struct td_object *to; /* NULL when not found */
    struct td_resolution res;
};

/* Undefined symbols an object needs that nothing in its scope defines. */
struct td_unbound {
    struct td_object *object;
    const char **symbols; /* the first few, "name@VERSION" */
    size_t shown, total;
};

struct td_graph_options {
    bool bind_symbols;       /* false: --no-symbols */
    bool versions_only;      /* with bind_symbols: check ELF version needs (GLIBCXX_3.4.30
                                not found), but do not bind every symbol: the cheap half,
                                for `check`, which must stay within a few MB */
    bool headers_only;       /* nobody reads the objects' symbols after the build (deps
                                --no-symbols): each file is unmapped once its headers are
                                parsed; implied by versions_only */
    const char *interpreter; /* host path of the Python interpreter whose symbols an
                                extension may use (python-extension profile), or NULL */
};

struct td_bind_session;

struct td_graph {
    struct td_loader_config cfg;
    struct td_loader loader;
    struct td_graph_options opts;
    struct td_object **objects; /* load order */
    size_t count, cap;
    size_t n_roots;
    struct td_edge *edges;
    size_t n_edges, edges_cap;
    struct td_unbound *unbound;
    size_t n_unbound;
    size_t symbols_checked; /* distinct undefined references looked up */
    struct td_object
        *interpreter; /* python-extension: the interpreter whose symbols are in scope */
    /* The interpreter and the libraries of its own closure that the graph
     * does not hold (libpython3.X.so.1.0 of a shared build): in the lookup
     * scope after the load order; scope_tail[0] is the interpreter. */
    struct td_object **scope_tail;
    size_t n_scope_tail;
    struct td_object **loaded_buf; /* td_graph_loaded's (Windows: the tail, then the load order) */
    size_t loaded_cap;
    struct td_findings findings;
    struct td_arena arena;
    struct td_arena bind_arena;   /* symbol binding's findings */
    struct td_bind_session *bind; /* ELF binding under way (bind_elf.c), or NULL */
    /* Told of every object td_graph_add_object appends (the ELF binder's
     * offer, set by td_graph_bind_elf_start), or NULL: the closure never
     * calls the binder by name. */
    void (*on_add)(struct td_graph *g, struct td_object *o);
};

/* The modules loaded when G's objects resolve their needs: the load order;
 * on Windows with a python.exe, its own modules first (valid until the
 * next call). */
struct td_loaded td_graph_loaded(struct td_graph *g);

/* Loads ROOTS (host paths) and everything they need under CFG, then binds
 * symbols. Findings land in G->findings. Returns -1 with ERR only when a
 * root cannot be read at all (exit status 2 territory). */
int td_graph_build(struct td_graph *g, const struct td_loader_config *cfg,
                   const struct td_graph_options *opts, const char *const *roots, size_t n_roots,
                   struct td_err *err);
void td_graph_free(struct td_graph *g);
/* td_graph_free for a process about to exit: file mappings are left to the
 * exit (see td_object_free_keep_mapping). */
void td_graph_free_at_exit(struct td_graph *g);

/* Whole-closure checks: RUNPATH not inherited, shadowed copies, duplicate
 * runtimes (analyze.c). */
void td_graph_analyze(struct td_graph *g);
/* Libraries the environment (LD_LIBRARY_PATH, LD_PRELOAD, PATH) puts
 * ahead of the copy the install ships: shadowed_library findings, errors
 * when binding then fails, with those failures folded in (env_shadow.c).
 * Runs after binding. */
void td_graph_env_shadows(struct td_graph *g);
/* For a dependency not found on Linux: true (and a runpath_not_inherited
 * finding) when an ancestor's DT_RUNPATH holds it. */
bool td_graph_runpath_not_inherited(struct td_graph *g, const struct td_edge *e);

/* ELF symbol binding (bind_elf.c) starts with the closure: after
 * td_graph_bind_elf_start, every object the graph adds is offered, and a
 * thread reads its undefined references while the loader model finds the
 * next objects; td_graph_bind_elf, once the closure is complete, binds
 * them across the lookup scope (or, with versions_only, only checks the
 * version needs); td_graph_bind_elf_end releases what is left (graph
 * free, or a build that failed before binding). */
void td_graph_bind_elf_start(struct td_graph *g);
void td_graph_bind_elf_offer(struct td_graph *g, struct td_object *o);
void td_graph_bind_elf(struct td_graph *g);
void td_graph_bind_elf_end(struct td_graph *g);
/* Binds every PE import to an export, following forwarders (bind_pe_graph.c). */
void td_graph_bind_pe(struct td_graph *g);

/* The steps of td_graph_build (build.c) that find the closure (closure.c):
 * G set up for CFG and OPTS with ROOTS opened (-1 with ERR as
 * td_graph_build), then the preloads, the interpreter and every need
 * resolved, and the whole-closure checks. */
int td_graph_open(struct td_graph *g, const struct td_loader_config *cfg,
                  const struct td_graph_options *opts, const char *const *roots, size_t n_roots,
                  struct td_err *err);
void td_graph_load(struct td_graph *g);

/* Appends O to the load order (index set) and tells g->on_add; -1 when out
 * of memory. */
int td_graph_add_object(struct td_graph *g, struct td_object *o);
/* Resolves the dependencies of objects START.. (and of all they add). */
void td_graph_resolve_from(struct td_graph *g, size_t start);

/* The size of G's lookup scope: the load order, then the scope tail. */
static inline size_t td_graph_scope_size(const struct td_graph *g)
{
    return g->count + g->n_scope_tail;
}

/* The object in G whose identity or name is NAME, or NULL. */
struct td_object *td_graph_find(const struct td_graph *g, const char *name);

/* The torch package directory FILE belongs to (".../torch" for
 * ".../torch/lib/x" or ".../torch/_C*"), written to OUT, or NULL. */
const char *td_torch_dir_of(const char *file, char *out, size_t cap);

/* What `import torch` loads, in order, for the torch that FILE belongs to
 * (a file in torch/ or torch/lib, or the torch directory's _C module):
 * Linux, lib/libtorch_global_deps.so then _C*.so; Windows, every
 * torch\lib\*.dll in glob order, then _C*.pyd, with the directories torch
 * adds set in CFG->dll_dirs. Root paths go into ROOTS (ARENA); returns the
 * count, 0 when FILE is not in a torch layout. */
size_t td_torch_import_roots(struct td_loader_config *cfg, const char *file, const char **roots,
                             size_t cap, struct td_arena *arena);

/* `import torch` for the torch FILE belongs to, as a graph (roots from
 * td_torch_import_roots, then EXTRA). On Linux it also models
 * _load_global_deps' fallback (data/torch_cuda_preloads.tsv): when
 * libtorch_global_deps.so's closure misses a CUDA library that the table
 * names, torch loads every listed library from the first SYS_PATH entry
 * holding it (host paths, in sys.path order) and loads libtorch_global_deps.so
 * again; the graph is then built that way, the preloaded files found via
 * TD_RULE_TORCH_SYS_PATH, and a required one that no entry holds is an
 * error (torch raises ValueError). Returns as td_graph_build. */
int td_torch_import_build(struct td_graph *g, struct td_loader_config *cfg,
                          const struct td_graph_options *opts, const char *file,
                          const char *const *extra, size_t n_extra, const char *const *sys_path,
                          size_t n_sys_path, struct td_arena *arena, struct td_err *err);
#endif
