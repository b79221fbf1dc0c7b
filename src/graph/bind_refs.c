/* The distinct references of a closure (bind_refs.h). */
#include "graph/bind_refs.h"

#include <stdlib.h>
#include <string.h>

/* ---- Version names. ---- */

static uint32_t string_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static bool grow_versions(struct td_versions *t)
{
    size_t cap = t->cap ? t->cap * 2 : 256;
    if (cap > UINT16_MAX)
        return false;
    const char **names = realloc(t->names, cap * sizeof *names);
    if (names)
        t->names = names;
    uint32_t *slots = calloc(cap * 2, sizeof *slots);
    if (!names || !slots) {
        free(slots);
        return false;
    }
    for (size_t k = 1; k < t->n; k++) {
        size_t i = string_hash(names[k]) & (cap * 2 - 1);
        while (slots[i])
            i = (i + 1) & (cap * 2 - 1);
        slots[i] = (uint32_t)k;
    }
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
    t->mask = cap * 2 - 1;
    if (t->n == 0)
        t->n = 1; /* number 0 stays "unversioned" */
    return true;
}

uint16_t td_versions_intern(struct td_versions *t, const char *name)
{
    if (t->n + 1 >= t->cap && !grow_versions(t))
        return 0;
    size_t i = string_hash(name) & t->mask;
    for (; t->slots[i]; i = (i + 1) & t->mask)
        if (strcmp(t->names[t->slots[i]], name) == 0)
            return (uint16_t)t->slots[i];
    t->names[t->n] = name;
    t->slots[i] = (uint32_t)t->n;
    return (uint16_t)t->n++;
}

void td_versions_free(struct td_versions *t)
{
    free(t->names);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* ---- References. ---- */

static bool rehash(struct td_refs *t, size_t slots)
{
    struct td_refs_slot *table = td_pages_array(t->pages, slots, sizeof *table);
    if (!table)
        return false;
    for (size_t k = 0; k < t->n; k++) { /* all distinct: no comparisons */
        size_t i = td_refs_slot(t->v[k].gnu, slots - 1);
        while (table[i].index)
            i = (i + 1) & (slots - 1);
        table[i] = (struct td_refs_slot){(uint32_t)k + 1, t->v[k].gnu};
    }
    t->slots = table; /* the old slots stay with the pages */
    t->mask = slots - 1;
    return true;
}

static void filter_set(struct td_refs *t, uint32_t gnu)
{
    uint32_t bit = (gnu >> 1) & (TD_REFS_FILTER_BITS - 1);
    t->filter[bit / 64] |= (uint64_t)1 << (bit % 64);
}

static bool same(const struct td_ref *r, const struct td_ref *want)
{
    return r->h2 == want->h2 && r->len == want->len && r->version == want->version;
}

/* The slot holding WANT, or the empty slot where it would go. */
static struct td_refs_slot *probe(const struct td_refs *t, const struct td_ref *want)
{
    size_t i = td_refs_slot(want->gnu, t->mask);
    for (; t->slots[i].index; i = (i + 1) & t->mask)
        if (t->slots[i].gnu == want->gnu && same(&t->v[t->slots[i].index - 1], want))
            break;
    return &t->slots[i];
}

long td_refs_find(const struct td_refs *t, const struct td_symname *name, uint16_t version)
{
    struct td_ref want = td_refs_key(name, version);
    return (long)probe(t, &want)->index - 1;
}

/* Kept at most half full: a binder probes it once for every symbol an
 * object exports that passes the filter, and most such probes miss. A
 * reference is added not found; only the thread that adds references
 * (the gathering one) may grow the table. */
static bool add(struct td_refs *t, struct td_ref ref)
{
    struct td_refs_slot *slot = probe(t, &ref);
    if (slot->index)
        return true;
    if ((t->n + 1) * 2 > t->mask + 1) {
        if (!rehash(t, (t->mask + 1) * 2))
            return false;
        slot = probe(t, &ref);
    }
    if (t->n >= UINT32_MAX - 1)
        return false;
    if (t->n == t->cap) { /* more than the caller reckoned with */
        struct td_ref *v = td_pages_array(t->pages, t->cap * 2, sizeof *v);
        uint8_t *found = td_pages_alloc(t->pages, t->cap * 2);
        if (!v || !found)
            return false;
        memcpy(v, t->v, t->n * sizeof *v);
        memcpy(found, t->found, t->n);
        t->v = v;
        t->found = found;
        t->cap *= 2;
    }
    t->v[t->n] = ref;
    __atomic_fetch_add(&t->unfound, 1, __ATOMIC_RELAXED);
    *slot = (struct td_refs_slot){(uint32_t)++t->n, ref.gnu};
    filter_set(t, ref.gnu);
    return true;
}

bool td_refs_add(struct td_refs *t, const struct td_symname *name, uint16_t version)
{
    struct td_ref ref = td_refs_key(name, version);
    return td_refs_add_batch(t, &ref, 1);
}

/* The table is larger than the caches and a probe's slot is anywhere in
 * it: the slots of a batch are fetched together first, then the
 * references those already hold (the comparisons), then the batch is
 * added. */
bool td_refs_add_batch(struct td_refs *t, const struct td_ref *refs, size_t n)
{
    for (size_t k = 0; k < n; k++)
        __builtin_prefetch(&t->slots[td_refs_slot(refs[k].gnu, t->mask)]);
    for (size_t k = 0; k < n; k++) {
        const struct td_refs_slot *slot = &t->slots[td_refs_slot(refs[k].gnu, t->mask)];
        if (slot->index && slot->gnu == refs[k].gnu)
            __builtin_prefetch(&t->v[slot->index - 1]);
    }
    for (size_t k = 0; k < n; k++)
        if (!add(t, refs[k]))
            return false;
    return true;
}

void td_refs_filter_unfound(struct td_refs *t)
{
    memset(t->filter, 0, TD_REFS_FILTER_BITS / 8);
    for (size_t r = 0; r < t->n; r++)
        if (!td_refs_found(t, r))
            filter_set(t, t->v[r].gnu);
}

bool td_refs_init(struct td_refs *t, size_t cap, struct td_pages *pages)
{
    memset(t, 0, sizeof *t);
    t->pages = pages;
    t->cap = cap ? cap : 1;
    t->v = td_pages_array(pages, t->cap, sizeof *t->v);
    t->found = td_pages_alloc(pages, t->cap);
    t->filter = td_pages_array(pages, TD_REFS_FILTER_BITS / 64, sizeof *t->filter);
    return t->v && t->found && t->filter && rehash(t, 8192);
}
