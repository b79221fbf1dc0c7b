/* ELF symbol binding across the lookup scope, as ld.so does it: every
 * undefined, non-weak dynamic symbol of every object must be defined by
 * some object of the global scope (the program, then the libraries in
 * breadth-first load order), with the version its reference names; every
 * version an object needs from a library must be defined there
 * (glibc elf/dl-version.c, "version `X' not found (required by Y)"). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/demangle.h"
#include "graph/graph.h"

enum { SHOWN_PER_OBJECT = 5 };

/* A reference already decided: many objects import the same name. The
 * references are kept densely in the order first seen and the table holds
 * their indexes (4 bytes a slot): this set is the largest memory binding
 * writes, and every page of it is a page fault. */
struct seen {
    const char *name, *version;
    uint32_t key;
    bool found;
};

struct seen_set {
    uint32_t *table; /* index + 1 into refs, 0 when empty; cap slots, a power of two */
    size_t cap;
    struct seen *refs;
    size_t used, refs_cap;
};

static uint32_t mix(uint32_t h, const char *s)
{
    for (; s && *s; s++)
        h = h * 31 + (unsigned char)*s;
    return h;
}

static bool same_ref(const struct seen *s, uint32_t key, const char *name, const char *version)
{
    return s->key == key && strcmp(s->name, name) == 0 &&
           (s->version == version || (s->version && version && strcmp(s->version, version) == 0));
}

static bool seen_grow(struct seen_set *t)
{
    if (t->used == t->refs_cap) {
        size_t cap = t->refs_cap ? t->refs_cap * 2 : 4096;
        struct seen *refs = realloc(t->refs, cap * sizeof *refs);
        if (!refs)
            return false;
        t->refs = refs;
        t->refs_cap = cap;
    }
    if ((t->used + 1) * 2 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap * 2 : 8192;
    uint32_t *table = calloc(cap, sizeof *table);
    if (!table)
        return false;
    for (size_t k = 0; k < t->used; k++) { /* all distinct: no comparisons */
        size_t i = t->refs[k].key & (cap - 1);
        while (table[i])
            i = (i + 1) & (cap - 1);
        table[i] = (uint32_t)k + 1;
    }
    free(t->table);
    t->table = table;
    t->cap = cap;
    return true;
}

/* The reference (NAME, VERSION), whose KEY hashes both; added with FOUND
 * unset when new (*ADDED). NULL when out of memory. */
static struct seen *seen_find(struct seen_set *t, uint32_t key, const char *name,
                              const char *version, bool *added)
{
    *added = false;
    if (!seen_grow(t))
        return NULL;
    size_t mask = t->cap - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
        if (!t->table[i]) {
            t->refs[t->used] = (struct seen){name, version, key, false};
            t->table[i] = (uint32_t)++t->used;
            *added = true;
            return &t->refs[t->used - 1];
        }
        struct seen *s = &t->refs[t->table[i] - 1];
        if (same_ref(s, key, name, version))
            return s;
    }
}

static void seen_free(struct seen_set *t)
{
    free(t->table);
    free(t->refs);
}

enum { MRU = 8 };

/* Objects that recently defined a symbol: consecutive references of one
 * object mostly go to the same few libraries (libc10, protobuf, libc). */
struct providers {
    const struct td_object *recent[MRU];
};

static bool defines(const struct td_object *o, const char *name, uint32_t h, const char *version)
{
    struct td_elf_sym sym;
    return o && o->kind == TD_FILE_ELF && td_elf_lookup(&o->u.elf, name, h, version, &sym);
}

static void remember(struct providers *p, const struct td_object *o)
{
    int i = 0;
    while (i < MRU - 1 && p->recent[i] != o)
        i++;
    memmove(&p->recent[1], &p->recent[0], (size_t)i * sizeof p->recent[0]);
    p->recent[0] = o;
}

/* Does any ELF object of the scope define NAME with VERSION? Only whether
 * one does matters here (not which one ld.so would bind first), so the
 * likely providers are asked first: the library the version need names,
 * recent providers, the requester's own dependencies, then the scope in
 * load order, each through its GNU hash bloom filter. */
/* The objects each object's own needs resolved to, by object index:
 * computed once, so a lookup does not walk all edges of the graph. */
struct direct_deps {
    struct td_object **objects;
    size_t count;
};

static bool defined_in_scope(struct td_graph *g, const struct direct_deps *direct, const char *name,
                             uint32_t h, const char *version, const struct td_object *version_lib,
                             struct providers *p)
{
    if (version_lib && defines(version_lib, name, h, version))
        return true;
    for (int i = 0; i < MRU && p->recent[i]; i++)
        if (defines(p->recent[i], name, h, version)) {
            remember(p, p->recent[i]);
            return true;
        }
    for (size_t i = 0; i < direct->count; i++)
        if (defines(direct->objects[i], name, h, version)) {
            remember(p, direct->objects[i]);
            return true;
        }
    if (g->interpreter && defines(g->interpreter, name, h, version))
        return true;
    for (size_t i = 0; i < g->count; i++)
        if (defines(g->objects[i], name, h, version)) {
            remember(p, g->objects[i]);
            return true;
        }
    return false;
}

static void note_unbound(struct td_arena *arena, struct td_unbound *u, const char *name,
                         const char *version)
{
    if (u->shown < SHOWN_PER_OBJECT) {
        char buf[1024], plain[900];
        snprintf(buf, sizeof buf, version ? "%s@%s" : "%s", td_demangle(name, plain, sizeof plain),
                 version);
        u->symbols[u->shown++] = td_arena_strdup(arena, buf);
    }
    u->total++;
}

/* True when one of O's own required dependencies was not found: its
 * unbound symbols then only repeat that finding (ldd -r buries the cause in
 * hundreds of such lines), so they are not reported. */
static bool misses_a_dependency(const struct td_graph *g, const struct td_object *o)
{
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].from == o && !g->edges[i].to && !g->edges[i].delay && !g->edges[i].weak)
            return true;
    return false;
}

enum { MAX_MISSING_VERSIONS = 64 };

/* Versions an object needs that its library lacks (check_version_needs):
 * ld.so stops there, so symbols of those versions are not repeated. */
struct missing_versions {
    const char *names[MAX_MISSING_VERSIONS];
    size_t count;
};

static bool version_is_missing(const struct missing_versions *mv, const char *version)
{
    for (size_t i = 0; version && i < mv->count; i++)
        if (strcmp(mv->names[i], version) == 0)
            return true;
    return false;
}

/* One binding worker's state: objects are shared read-only; everything a
 * worker writes is its own (seen set, providers, arena, results). */
struct worker {
    struct td_graph *g;
    const struct missing_versions *mv; /* per object index */
    struct td_unbound *results;        /* per object index */
    const unsigned char *owner;        /* per object index: which worker binds it */
    const struct direct_deps *direct;  /* per object index */
    unsigned char id;
    struct td_arena *arena;
    size_t checked;
};

/* Where the walk for undefined symbols can stop (td_elf.undefined_below). */
static uint32_t undefined_end(const struct td_elf *e)
{
    return e->undefined_below && e->undefined_below < e->dynsym_count ? e->undefined_below
                                                                      : e->dynsym_count;
}

/* What each versym index of the object being bound stands for, computed
 * once per object: its name's hash (for the seen set) and the object its
 * version need's file resolved to (asked first). */
struct slot_facts {
    uint32_t hash;
    const struct td_object *lib;
};

static struct slot_facts *slot_facts_of(struct td_graph *g, const struct td_elf *e)
{
    struct slot_facts *f = calloc(e->version_slots + 1, sizeof *f);
    for (uint32_t i = 2; f && i < e->version_slots; i++) { /* 0 and 1: unversioned */
        const struct td_elf_version *v = &e->versions[i];
        f[i].hash = v->name ? mix(2166136261u, v->name) : 0;
        f[i].lib = v->file ? td_graph_find(g, v->file) : NULL;
    }
    return f;
}

static void bind_object(struct worker *w, struct td_object *o, struct seen_set *seen,
                        struct providers *p)
{
    struct td_graph *g = w->g;
    const struct missing_versions *mv = &w->mv[o->index];
    if (misses_a_dependency(g, o))
        return;
    const struct td_elf *e = &o->u.elf;
    struct td_unbound u = {o, td_arena_array(w->arena, SHOWN_PER_OBJECT, sizeof(char *)), 0, 0};
    struct slot_facts *facts = slot_facts_of(g, e);
    if (!u.symbols || !facts)
        goto out;
    bool py_assumed = !g->interpreter && g->cfg.profile == TD_PROFILE_PYTHON_EXTENSION;
    uint32_t end = undefined_end(e);
    for (uint32_t i = 1; i < end; i++) {
        struct td_elf_sym s;
        /* The entry first: the names of defined symbols are never read. */
        if (!td_elf_dynsym_fields(e, i, &s) || s.defined || s.bind == TD_STB_WEAK ||
            !td_elf_dynsym_finish(e, i, &s) || !s.name[0] || version_is_missing(mv, s.version))
            continue;
        /* With a python-extension profile but no interpreter to read, its
         * C API is assumed present rather than reported missing. */
        if (py_assumed && (strncmp(s.name, "Py", 2) == 0 || strncmp(s.name, "_Py", 3) == 0))
            continue;
        uint32_t h = td_elf_gnu_hash(s.name);
        const struct slot_facts *sf =
            s.version_index < e->version_slots ? &facts[s.version_index] : &facts[e->version_slots];
        uint32_t key = h ^ (sf->hash * 0x9e3779b1u);
        bool added;
        struct seen *slot = seen_find(seen, key, s.name, s.version, &added);
        if (!slot)
            goto out;
        if (added) {
            slot->found = defined_in_scope(g, &w->direct[o->index], s.name, h, s.version,
                                           s.version ? sf->lib : NULL, p);
            w->checked++;
        }
        if (!slot->found)
            note_unbound(w->arena, &u, s.name, s.version);
    }
    w->results[o->index] = u;
out:
    free(facts);
}

static void *bind_worker(void *arg)
{
    struct worker *w = arg;
    struct seen_set seen = {0};
    struct providers p = {{0}};
    /* Room for every undefined symbol of this worker's objects at once:
     * pages not used are never touched, and growing would copy. */
    size_t most = 0;
    for (size_t i = 0; i < w->g->count; i++)
        if (w->owner[i] == w->id && w->g->objects[i]->kind == TD_FILE_ELF)
            most += undefined_end(&w->g->objects[i]->u.elf);
    if (most && (seen.refs = malloc(most * sizeof *seen.refs)) != NULL)
        seen.refs_cap = most;
    for (size_t i = 0; i < w->g->count; i++)
        if (w->owner[i] == w->id && w->g->objects[i]->kind == TD_FILE_ELF)
            bind_object(w, w->g->objects[i], &seen, &p);
    seen_free(&seen);
    return NULL;
}

static void report_unbound(struct td_graph *g, const struct td_unbound *u)
{
    struct td_unbound *grown = realloc(g->unbound, (g->n_unbound + 1) * sizeof *grown);
    if (!grown)
        return;
    g->unbound = grown;
    g->unbound[g->n_unbound++] = *u;
    char list[2048] = "";
    for (size_t k = 0; k < u->shown; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                 u->symbols[k]);
    td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_MISSING_SYMBOL, NULL, u->object->path,
                    u->symbols[0],
                    "a library the loader finds first is an older or different build than the one "
                    "this was linked against: install matching versions",
                    "%zu undefined symbol%s of %s %s defined by nothing in the lookup scope: %s%s",
                    u->total, u->total == 1 ? "" : "s", u->object->name,
                    u->total == 1 ? "is" : "are", list, u->total > u->shown ? ", ..." : "");
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

static void check_version_needs(struct td_graph *g, struct td_object *o,
                                struct missing_versions *mv)
{
    const struct td_elf *e = &o->u.elf;
    for (uint32_t i = 0; i < e->verneed_count; i++) {
        const struct td_elf_verneed *vn = &e->verneed[i];
        struct td_object *lib = td_graph_find(g, vn->file);
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
            if (mv->count < MAX_MISSING_VERSIONS)
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

/* Splits the objects between the workers by their dynamic symbol counts
 * (largest first, each to the lighter side), so both cores finish together. */
static uint64_t weight(const struct td_object *o)
{
    return o->kind == TD_FILE_ELF ? o->u.elf.dynsym_count : 0;
}

static void assign(const struct td_graph *g, unsigned char *owner, int workers)
{
    uint64_t load[2] = {0, 0};
    for (size_t done = 0; done < g->count; done++) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < g->count; i++)
            if (owner[i] == 0xff &&
                (best == SIZE_MAX || weight(g->objects[i]) > weight(g->objects[best])))
                best = i;
        int side = workers > 1 && load[1] < load[0];
        owner[best] = (unsigned char)side;
        load[side] += weight(g->objects[best]);
    }
}

void td_graph_bind_elf(struct td_graph *g)
{
    enum { WORKERS = 2 }; /* DESIGN.md: use both cores */
    struct missing_versions *mv = calloc(g->count, sizeof *mv);
    struct td_unbound *results = calloc(g->count, sizeof *results);
    unsigned char *owner = malloc(g->count);
    struct direct_deps *direct = calloc(g->count, sizeof *direct);
    struct td_object **targets = calloc(g->n_edges + 1, sizeof *targets);
    if (!mv || !results || !owner || !direct || !targets)
        goto out;
    /* Edges are grouped by requester (the closure adds them object by
     * object), so each object's direct needs are one run of TARGETS. */
    for (size_t i = 0, n = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (!e->to)
            continue;
        struct direct_deps *d = &direct[e->from->index];
        if (!d->objects)
            d->objects = &targets[n];
        if (d->objects + d->count == &targets[n])
            targets[n++] = e->to, d->count++;
    }
    memset(owner, 0xff, g->count);
    for (size_t i = 0; i < g->count; i++)
        if (g->objects[i]->kind == TD_FILE_ELF)
            check_version_needs(g, g->objects[i], &mv[i]);
    if (g->opts.versions_only)
        goto out;
    assign(g, owner, WORKERS);

    struct worker w[WORKERS];
    pthread_t thread;
    for (int k = 0; k < WORKERS; k++)
        w[k] =
            (struct worker){g, mv, results, owner, direct, (unsigned char)k, &g->bind_arenas[k], 0};
    bool threaded = pthread_create(&thread, NULL, bind_worker, &w[1]) == 0;
    bind_worker(&w[0]);
    if (threaded)
        pthread_join(thread, NULL);
    else
        bind_worker(&w[1]);
    g->symbols_checked = w[0].checked + w[1].checked;
    for (size_t i = 0; i < g->count; i++)
        if (results[i].total)
            report_unbound(g, &results[i]);
out:
    free(mv);
    free(results);
    free(owner);
    free(direct);
    free(targets);
}
