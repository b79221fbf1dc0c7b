/* ELF binding, the version needs: every version an object needs from a
 * library must be defined there (glibc elf/dl-version.c, "version `X' not
 * found (required by Y)"); ld.so stops at the first one missing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/bind_elf.h"

bool td_bind_version_is_missing(const struct td_missing_versions *mv, const char *version)
{
    for (size_t i = 0; version && i < mv->count; i++)
        if (strcmp(mv->names[i], version) == 0)
            return true;
    return false;
}

/* Compares the numeric parts of two version names ("GLIBCXX_3.4.9" < "GLIBCXX_3.4.30"). */
static int version_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            unsigned long x = strtoul(a, (char **)&a, 10), y = strtoul(b, (char **)&b, 10);
            if (x != y)
                return x < y ? -1 : 1;
        } else {
            if (*a != *b)
                return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
            a++, b++;
        }
    }
    return *a ? 1 : *b ? -1 : 0;
}

/* The newest version LIB defines that shares WANT's prefix ("GLIBCXX_"). */
static const char *newest_like(const struct td_elf *lib, const char *want)
{
    size_t prefix = strcspn(want, "0123456789");
    const char *best = NULL;
    for (uint32_t i = 0; i < lib->verdef_count; i++) {
        const char *n = lib->verdef[i].name;
        if (!n || (lib->verdef[i].flags & TD_VER_FLG_BASE) || strncmp(n, want, prefix) != 0)
            continue;
        if (!best || version_cmp(n, best) > 0)
            best = n;
    }
    return best;
}

/* The edges from each object, by object index (built once: a verneed's
 * file is nearly always one of the object's own needs). */
struct edges_of {
    size_t *first; /* count + 1 offsets into EDGES */
    const struct td_edge **edges;
};

static bool edges_of_init(struct edges_of *x, const struct td_graph *g)
{
    x->first = calloc(g->count + 2, sizeof *x->first);
    x->edges = malloc((g->n_edges + 1) * sizeof *x->edges);
    if (!x->first || !x->edges)
        return false;
    for (size_t i = 0; i < g->n_edges; i++)
        x->first[g->edges[i].from->index + 2]++;
    for (size_t i = 2; i <= g->count + 1; i++)
        x->first[i] += x->first[i - 1];
    for (size_t i = 0; i < g->n_edges; i++)
        x->edges[x->first[g->edges[i].from->index + 1]++] = &g->edges[i];
    return true;
}

static void edges_of_free(struct edges_of *x)
{
    free(x->first);
    free(x->edges);
}

/* The object FILE names for O: the one its own need of that name
 * resolved to, else any object of the graph that answers to it. */
static struct td_object *library_of(const struct td_graph *g, const struct edges_of *x,
                                    const struct td_object *o, const char *file)
{
    for (size_t k = x ? x->first[o->index] : 0; x && k < x->first[o->index + 1]; k++)
        if (x->edges[k]->to && strcmp(x->edges[k]->name, file) == 0)
            return x->edges[k]->to;
    return td_graph_find(g, file);
}

static void check_version_needs(struct td_graph *g, const struct edges_of *x, struct td_object *o,
                                struct td_missing_versions *mv)
{
    const struct td_elf *e = &o->u.elf;
    for (uint32_t i = 0; i < e->verneed_count; i++) {
        const struct td_elf_verneed *vn = &e->verneed[i];
        struct td_object *lib = library_of(g, x, o, vn->file);
        if (!lib || lib->kind != TD_FILE_ELF || lib->u.elf.verdef_count == 0)
            continue; /* missing (reported already) or unversioned: glibc accepts it */
        for (uint32_t k = 0; k < vn->version_count; k++) {
            const struct td_elf_vernaux *want = &vn->versions[k];
            bool have = false;
            for (uint32_t d = 0; d < lib->u.elf.verdef_count && !have; d++)
                have =
                    lib->u.elf.verdef[d].name && strcmp(lib->u.elf.verdef[d].name, want->name) == 0;
            if (have)
                continue;
            if (mv->count < TD_BIND_MAX_MISSING_VERSIONS)
                mv->names[mv->count++] = want->name;
            const char *newest = newest_like(&lib->u.elf, want->name);
            char detail[512];
            snprintf(detail, sizeof detail, "; %s offers up to %s", lib->path,
                     newest ? newest : "no version of that family");
            td_findings_add(&g->findings,
                            (want->flags & TD_VER_FLG_WEAK) ? TD_SEV_WARNING : TD_SEV_ERROR,
                            TD_KIND_MISSING_SYMBOL_VERSION, lib->path, o->path, want->name,
                            "the library found first is older than the one this was built "
                            "against: put the newer copy first (or remove the older one from "
                            "the library path)",
                            "version `%s' not found in %s (required by %s)%s", want->name, vn->file,
                            o->name, detail);
        }
    }
}

void td_bind_check_versions(struct td_graph *g, struct td_missing_versions *mv)
{
    struct edges_of x;
    bool indexed = edges_of_init(&x, g);
    for (size_t i = 0; i < g->count; i++)
        if (g->objects[i]->kind == TD_FILE_ELF) {
            struct td_missing_versions none = {.count = 0};
            check_version_needs(g, indexed ? &x : NULL, g->objects[i], mv ? &mv[i] : &none);
        }
    edges_of_free(&x);
}
