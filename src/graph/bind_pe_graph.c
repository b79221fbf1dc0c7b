/* PE import binding over the whole closure: each import of each DLL is
 * matched to an export of the DLL its descriptor names, forwarders
 * followed (bind_pe.c); Windows fails the load with WinError 127 for a
 * missing name and STATUS_ORDINAL_NOT_FOUND for a missing ordinal. */
#include <stdio.h>
#include <string.h>

#include "graph/bind_pe.h"
#include "graph/graph.h"

/* A forwarder's target DLL is loaded like any dependency of the exporter. */
static int load_forward_target(void *ctx, struct td_object *requester, const char *dll,
                               struct td_resolution *res, struct td_object **loaded,
                               struct td_err *err)
{
    struct td_graph *g = ctx;
    struct td_loaded set = td_graph_loaded(g);
    memset(res, 0, sizeof *res);
    if (g->loader.ops->resolve(&g->loader, requester, dll, false, &set, res, err) != 0)
        return -1;
    *loaded = res->object;
    if (res->object && res->newly_opened) {
        size_t start = g->count;
        res->object->loader = requester;
        res->object->depth = requester->depth + 1;
        res->object->found_via = res->rule;
        res->object->found_origin = res->origin;
        if (td_graph_add_object(g, res->object) != 0) {
            td_object_free(res->object);
            *loaded = NULL;
            return 0;
        }
        td_graph_resolve_from(g, start);
    }
    return 0;
}

/* The edge of O for import descriptor NAME (delay or not). */
static const struct td_edge *edge_for(const struct td_graph *g, const struct td_object *o,
                                      const char *name, bool delay)
{
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (e->from == o && e->delay == delay && strcmp(e->name, name) == 0)
            return e;
    }
    return NULL;
}

struct pair_tally {
    size_t missing;
    const char *first;
    enum td_bind_status status;
};

static void report(struct td_graph *g, const struct td_object *importer,
                   const struct td_object *exporter, const struct td_pe_import_dll *dll,
                   const struct pair_tally *t)
{
    char first[256];
    snprintf(first, sizeof first, "%s", t->first ? t->first : "?");
    bool ordinal = t->status == TD_BIND_MISSING_ORDINAL;
    td_findings_add(&g->findings, dll->delay ? TD_SEV_WARNING : TD_SEV_ERROR,
                    ordinal ? TD_KIND_MISSING_ORDINAL : TD_KIND_MISSING_SYMBOL, exporter->path,
                    importer->path, first,
                    "the DLL found first is another build than the one this was linked "
                    "against: make the matching copy the one found (same package version), "
                    "or remove the stray copy",
                    "%zu import%s of %s from %s %s not exported there (first: %s): Windows "
                    "fails the load with %s",
                    t->missing, t->missing == 1 ? "" : "s", importer->name, dll->name,
                    t->missing == 1 ? "is" : "are", first,
                    ordinal ? "STATUS_ORDINAL_NOT_FOUND (0xC0000138)"
                            : "WinError 127, \"The specified procedure could not be found\"");
}

static void bind_import_dll(struct td_graph *g, struct td_object *o,
                            const struct td_pe_import_dll *dll)
{
    const struct td_edge *e = edge_for(g, o, dll->name, dll->delay);
    if (!e || !e->to || e->to->kind != TD_FILE_PE || e->to->refused)
        return; /* a missing or refused DLL is reported already */
    struct pair_tally t = {0, NULL, TD_BIND_OK};
    for (size_t i = 0; i < dll->count; i++) {
        struct td_pe_import_func fn;
        struct td_err err = {0};
        if (td_pe_import_func(&o->u.pe, dll, i, &fn, &err) != 0)
            break;
        struct td_bind_pe_result r;
        if (td_bind_pe(&fn, e->to, load_forward_target, g, &r, &err) != 0)
            continue;
        if (r.status == TD_BIND_OK)
            continue;
        if (r.status == TD_BIND_BAD_FORWARDER) {
            td_findings_add(&g->findings, dll->delay ? TD_SEV_WARNING : TD_SEV_ERROR,
                            TD_KIND_BAD_FORWARDER, e->to->path, o->path, fn.name,
                            "install the DLL the export forwards to, in the version the "
                            "forwarding DLL expects",
                            "%s imports %s from %s, which forwards it (%s): %s%s%s", o->name,
                            fn.name ? fn.name : "an ordinal", dll->name,
                            r.n_chain ? r.chain[r.n_chain - 1] : "?",
                            td_forward_problem_name(r.problem), r.missing_dll ? ": " : "",
                            r.missing_dll ? r.missing_dll : "");
            continue;
        }
        if (t.missing++ == 0) {
            char ord[32];
            snprintf(ord, sizeof ord, "#%u", fn.ordinal);
            t.first = fn.by_ordinal ? td_arena_strdup(&g->arena, ord) : fn.name;
            t.status = r.status;
        }
    }
    if (t.missing)
        report(g, o, e->to, dll, &t);
}

void td_graph_bind_pe(struct td_graph *g)
{
    for (size_t i = 0; i < g->count; i++) {
        struct td_object *o = g->objects[i];
        if (o->kind != TD_FILE_PE)
            continue;
        for (int delay = 0; delay < 2; delay++) {
            struct td_pe_import_dll *dlls = NULL;
            size_t n = 0;
            struct td_err err = {0};
            if (td_pe_imports(&o->u.pe, delay, &dlls, &n, &err) != 0)
                continue;
            for (size_t k = 0; k < n; k++)
                bind_import_dll(g, o, &dlls[k]);
        }
    }
}
