/* A library the environment puts ahead of the copy the install ships
 * (LD_LIBRARY_PATH, LD_PRELOAD; PATH on Windows): each need the variable
 * answered is resolved once more without the environment, and a different
 * file there is a shadowed_library finding. After binding, so that the
 * symbols and versions the shadowing copy lacks are folded into it: one
 * root cause, one finding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "graph/graph.h"

/* The variable whose entry answered E, or NULL. ld.so(8): LD_LIBRARY_PATH
 * is searched after DT_RPATH and before DT_RUNPATH, so a DT_RPATH copy
 * cannot be shadowed and a DT_RUNPATH one can. */
static const char *answering_variable(const struct td_edge *e)
{
    if (!e->to || !e->res.n_probes)
        return NULL;
    if (e->res.newly_opened && e->res.rule == TD_RULE_LD_LIBRARY_PATH)
        return "LD_LIBRARY_PATH";
    if (e->res.newly_opened && e->res.rule == TD_RULE_PATH_ENV)
        return "PATH";
    if (!e->res.newly_opened && e->to->found_via == TD_RULE_PRELOAD)
        return "LD_PRELOAD"; /* a preloaded library answers to the name */
    return NULL;
}

/* The entry of VAR that holds O: its directory, or for LD_PRELOAD the path. */
static void entry_of(const char *var, const struct td_object *o, char *out, size_t cap)
{
    snprintf(out, cap, "%s", o->path);
    char *sep = strcmp(var, "LD_PRELOAD") ? td_host_last_sep(out) : NULL;
    if (sep)
        *sep = '\0';
}

/* The copy the loader takes for E without the environment (BARE), as
 * "path" into OUT; false when it finds none or the same file. */
static bool install_copy(struct td_loader *bare, const struct td_edge *e, char *out, size_t cap)
{
    struct td_loaded none = {NULL, 0};
    struct td_resolution res = {0};
    struct td_err err = {0};
    if (bare->ops->resolve(bare, e->from, e->name, e->delay, &none, &res, &err) || !res.object)
        return false;
    bool other = res.object->dev != e->to->dev || res.object->ino != e->to->ino;
    snprintf(out, cap, "%s", res.object->path);
    if (res.newly_opened)
        td_object_free(res.object);
    return other;
}

static bool needs(const struct td_graph *g, const struct td_object *o, const struct td_object *lib)
{
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].from == o && g->edges[i].to == lib)
            return true;
    return false;
}

/* Folds the binding failures LIB explains (missing symbols of objects
 * that need it, versions it lacks) into SUMMARY; removes those findings.
 * Returns the object that lacks the most symbols, or NULL when all bind. */
static const struct td_object *fold_failures(struct td_graph *g, const struct td_object *lib,
                                             char *summary, size_t cap)
{
    const struct td_object *worst = NULL;
    size_t most = 0, used = 0;
    summary[0] = '\0';
    for (size_t i = 0; i < g->n_unbound; i++) {
        const struct td_unbound *u = &g->unbound[i];
        if (!needs(g, u->object, lib))
            continue;
        if (u->total > most)
            most = u->total, worst = u->object;
        if (used < cap)
            used += (size_t)snprintf(summary + used, cap - used, "; %s lacks %zu symbol%s (%s%s)",
                                     u->object->name, u->total, u->total == 1 ? "" : "s",
                                     u->shown ? u->symbols[0] : "", u->total > 1 ? ", ..." : "");
        for (size_t k = g->findings.count; k-- > 0;) {
            const struct td_finding *f = &g->findings.items[k];
            if (!strcmp(f->kind, TD_KIND_MISSING_SYMBOL) && f->needed_by &&
                !strcmp(f->needed_by, u->object->path))
                td_findings_remove(&g->findings, k);
        }
    }
    for (size_t k = g->findings.count; k-- > 0;) {
        const struct td_finding *f = &g->findings.items[k];
        if (strcmp(f->kind, TD_KIND_MISSING_SYMBOL_VERSION) || !f->library ||
            strcmp(f->library, lib->path))
            continue;
        if (used < cap)
            used += (size_t)snprintf(summary + used, cap - used, "; it lacks version %s",
                                     f->symbol ? f->symbol : "?");
        if (!worst)
            worst = lib; /* replaced below by the requester */
        td_findings_remove(&g->findings, k);
    }
    return worst;
}

static void report(struct td_graph *g, const struct td_edge *e, const char *var, const char *hidden)
{
    char entry[4096], summary[1024], fix[3 * 4096 + 128];
    entry_of(var, e->to, entry, sizeof entry);
    const struct td_object *worst = fold_failures(g, e->to, summary, sizeof summary);
    const struct td_object *by = worst && worst != e->to ? worst : e->from;
    bool preload = strcmp(var, "LD_PRELOAD") == 0; /* no directory order to change there */
    snprintf(fix, sizeof fix, "remove %s from %s for this program%s%s%s, so that %s is loaded",
             entry, var, preload ? "" : " (or put the directory of ", preload ? "" : hidden,
             preload ? "" : " first)", hidden);
    char file[4096 + 4] = ""; /* an LD_PRELOAD entry is the file itself */
    if (strcmp(entry, e->to->path))
        snprintf(file, sizeof file, " (%s)", e->to->path);
    td_findings_add(&g->findings, worst ? TD_SEV_ERROR : TD_SEV_WARNING, TD_KIND_SHADOWED_LIBRARY,
                    e->to->path, by->path, NULL, fix,
                    "%s comes from %s entry %s%s and hides %s, the copy the install ships%s%s",
                    e->name, var, entry, file, hidden,
                    worst ? ": binding then fails"
                    : g->opts.bind_symbols && !g->opts.versions_only
                        ? "; everything still binds"
                        : "; its symbols were not bound",
                    summary);
}

/* Whether an edge before I was already answered by the same library: a
 * preloaded one answers every need of its name, and is one finding. */
static bool answered_before(const struct td_graph *g, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (g->edges[k].to == g->edges[i].to && answering_variable(&g->edges[k]))
            return true;
    return false;
}

void td_graph_env_shadows(struct td_graph *g)
{
    struct td_loader_config bare_cfg = g->cfg;
    struct td_loader bare;
    struct td_err err = {0};
    bool started = false;
    bare_cfg.env = NULL, bare_cfg.n_env = 0; /* the install alone */
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        const char *var = answering_variable(e);
        if (!var ||
            (e->from == g->objects[0] && e->to->found_via == TD_RULE_PRELOAD &&
             e->res.newly_opened) ||
            answered_before(g, i))
            continue;
        if (!started && td_loader_init(&bare, &bare_cfg, &err) != 0)
            return;
        started = true;
        char hidden[4096];
        if (install_copy(&bare, e, hidden, sizeof hidden))
            report(g, e, var, hidden);
    }
    if (started)
        td_loader_fini(&bare);
}
