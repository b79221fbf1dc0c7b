/* What `deps` and `check` build for a target: the closure found
 * (closure.c), the symbols bound while and after it is found (bind_elf.c,
 * bind_pe_graph.c), the environment's shadows (env_shadow.c). The one file
 * of src/graph/ that calls both the closure and the binders; the binders
 * use the closure, and the closure hears of new objects only through
 * g->on_add, which the ELF binder sets. */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"

int td_graph_build(struct td_graph *g, const struct td_loader_config *cfg,
                   const struct td_graph_options *opts, const char *const *roots, size_t n_roots,
                   struct td_err *err)
{
    if (td_graph_open(g, cfg, opts, roots, n_roots, err) != 0)
        return -1;
    /* References are read while the closure is found (bind_elf.c). */
    if (g->opts.bind_symbols && !g->opts.versions_only && g->objects[0]->kind == TD_FILE_ELF) {
        td_graph_bind_elf_start(g);
        for (size_t i = 0; i < g->count; i++)
            td_graph_bind_elf_offer(g, g->objects[i]);
    }
    td_graph_load(g);
    if (g->opts.bind_symbols && g->objects[0]->kind == TD_FILE_ELF)
        td_graph_bind_elf(g);
    if (g->opts.bind_symbols && g->objects[0]->kind == TD_FILE_PE)
        td_graph_bind_pe(g);
    td_graph_env_shadows(g);
    return 0;
}

static void graph_free(struct td_graph *g, void (*free_object)(struct td_object *))
{
    td_graph_bind_elf_end(g); /* a build that failed before binding */
    for (size_t i = 0; i < g->count; i++)
        free_object(g->objects[i]);
    for (size_t i = 0; i < g->n_scope_tail; i++)
        free_object(g->scope_tail[i]); /* [0] is the interpreter */
    if (g->interpreter && !g->n_scope_tail)
        free_object(g->interpreter);
    free(g->scope_tail);
    free(g->loaded_buf);
    free(g->objects);
    free(g->edges);
    free(g->unbound);
    td_findings_free(&g->findings);
    td_loader_fini(&g->loader);
    td_arena_free(&g->arena);
    td_arena_free(&g->bind_arena);
    memset(g, 0, sizeof *g);
}

void td_graph_free(struct td_graph *g)
{
    graph_free(g, td_object_free);
}

void td_graph_free_at_exit(struct td_graph *g)
{
    graph_free(g, td_object_free_keep_mapping);
}
