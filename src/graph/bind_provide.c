/* ELF binding, the providing half: each object's GNU hash chain, which
 * holds the hash of every symbol it exports, is scanned against the
 * references gathered; only the symbols whose hash one has are read and
 * checked the way glibc's do_lookup_x and check_match check them. An
 * object with DT_HASH alone is read whole. */
#include <string.h>

#include "graph/bind_elf.h"

static bool candidates_push(struct td_pages *pages, struct td_bind_candidates *c, uint32_t index,
                            uint32_t ref, uint32_t start)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 4096;
        struct td_symitem *v = td_pages_array(pages, cap, sizeof *v);
        uint32_t *st = td_pages_array(pages, cap, sizeof *st);
        struct td_symitem *tmp = td_pages_array(pages, cap, sizeof *tmp);
        if (!v || !st || !tmp)
            return false;
        if (c->n) {
            memcpy(v, c->v, c->n * sizeof *v);
            memcpy(st, c->start, c->n * sizeof *st);
        }
        c->v = v, c->start = st, c->tmp = tmp, c->cap = cap;
    }
    c->v[c->n] = (struct td_symitem){0, index, ref, 0};
    c->start[c->n++] = start;
    return true;
}

/* A chain word that passed the filter: its symbol and chain's start. */
struct chain_hit {
    uint32_t word, index, start;
};

/* The candidates among HITS: references not found yet, from
 * rd->from_ref on, with the word's hash. The hits' slots were fetched as
 * they were found (the table is larger than the caches). */
static bool match_hits(struct td_bind_reader *rd, const struct chain_hit *hits, size_t n,
                       struct td_bind_candidates *c)
{
    const struct td_refs *t = &rd->bd->refs;
    for (size_t k = 0; k < n; k++)
        for (size_t i = td_refs_slot(hits[k].word, t->mask); t->slots[i].index;
             i = (i + 1) & t->mask) {
            uint32_t r = t->slots[i].index - 1;
            if (((t->slots[i].gnu ^ hits[k].word) >> 1) == 0 && r >= rd->from_ref &&
                !td_refs_found(t, r) &&
                !candidates_push(&rd->pages, c, hits[k].index, r, hits[k].start))
                return false;
        }
    return true;
}

/* Every symbol of E whose GNU hash chain word carries the hash of a
 * reference not yet found, with the start of its chain. */
static bool scan_chain(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                       struct td_bind_candidates *c)
{
    const struct td_elf_gnu_hash *gh = &e->gnu;
    const struct td_refs *t = &rd->bd->refs;
    uint64_t words = e->dynsym_count - gh->symoffset;
    if (words > gh->chain_avail / 4)
        words = gh->chain_avail / 4; /* do_lookup_x's walk ends with the segment too */
    uint64_t end = gh->chain_off + 4 * words;
    uint32_t start = gh->symoffset;
    struct chain_hit hits[32];
    size_t n_hits = 0;
    for (uint64_t w = 0; w < words;) {
        uint64_t k = words - w < 16384 ? words - w : 16384;
        const uint8_t *p =
            td_window_at(&rd->hash, fd, gh->chain_off + 4 * w, (size_t)(4 * k), end, end);
        if (!p)
            break;
        for (uint64_t j = 0; j < k; j++, p += 4) {
            uint32_t word = td_elf_raw_u32(p, e->big_endian);
            uint32_t index = gh->symoffset + (uint32_t)(w + j);
            if (td_refs_may_hold(t, word)) {
                __builtin_prefetch(&t->slots[td_refs_slot(word, t->mask)]);
                hits[n_hits++] = (struct chain_hit){word, index, start};
                if (n_hits == sizeof hits / sizeof *hits) {
                    if (!match_hits(rd, hits, n_hits, c))
                        return false;
                    n_hits = 0;
                }
            }
            if (word & 1)
                start = index + 1;
        }
        w += k;
    }
    return match_hits(rd, hits, n_hits, c);
}

/* Keeps the candidates glibc's walk reaches: the bucket of the
 * reference's hash must point into the candidate's chain, at or before it
 * (a well-formed table always does; a damaged one may not). */
static void keep_reachable(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                           struct td_bind_candidates *c)
{
    const struct td_elf_gnu_hash *gh = &e->gnu;
    uint64_t end = gh->buckets_off + 4ull * gh->nbuckets;
    const uint8_t *buckets =
        c->n ? td_window_at(&rd->hash, fd, gh->buckets_off, 4ull * gh->nbuckets, end, end) : NULL;
    size_t kept = 0;
    for (size_t k = 0; buckets && k < c->n; k++) {
        uint32_t hash = rd->bd->refs.v[c->v[k].aux].gnu;
        uint32_t first = td_elf_raw_u32(buckets + 4ull * (hash % gh->nbuckets), e->big_endian);
        if (first >= gh->symoffset && first >= c->start[k] && first <= c->v[k].index)
            c->v[kept++] = c->v[k];
    }
    c->n = kept;
}

/* Reads each candidate's entry and version (in index order) and keeps
 * those that can define a symbol (do_lookup_x's tests). */
static void read_entries(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                         struct td_bind_candidates *c)
{
    uint64_t ent = e->dyn.syment, end = e->symtab_off + (uint64_t)e->dynsym_count * ent;
    size_t kept = 0, reach = 0;
    for (size_t k = 0; k < c->n; k++) {
        struct td_symitem it = c->v[k];
        /* The entries up to TD_BIND_SPAN bytes on come with this one (one read). */
        while (reach + 1 < c->n && (c->v[reach + 1].index - it.index) * ent < TD_BIND_SPAN)
            reach++;
        uint64_t upto = reach > k ? c->v[reach].index : it.index;
        const uint8_t *p =
            td_window_at(&rd->syms, fd, e->symtab_off + it.index * ent,
                         (size_t)td_bind_entry_size(e), e->symtab_off + (upto + 1) * ent, end);
        struct td_elf_symfields f;
        if (!p)
            continue;
        td_elf_symfields_decode(e, p, &f);
        if (!td_elf_symfields_can_define(&f))
            continue;
        it.key = f.name;
        it.extra = td_bind_versym_of(rd, e, fd, it.index, (uint32_t)upto);
        c->v[kept++] = it;
    }
    c->n = kept;
}

/* Settles the candidates: each with the reference's name that passes
 * check_match's version rule marks the reference found. */
static void settle(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                   struct td_bind_candidates *c)
{
    struct td_refs *t = &rd->bd->refs;
    read_entries(rd, e, fd, c);
    uint32_t all = td_bind_order_by_name(rd, e, c->v, c->tmp, c->n);
    struct td_symname name = {0};
    size_t last = 0;
    bool read = false, have_name = false;
    uint32_t read_key = 0;
    for (size_t k = 0; k < c->n; k++) {
        const struct td_symitem *it = &c->v[k];
        const struct td_ref *r = &t->v[it->aux];
        if (!read || it->key != read_key) {
            uint32_t reach = all ? all : td_symitems_reach(c->v, c->n, k, &last, TD_BIND_SPAN);
            /* The GNU hash matched already: the chain word (31 bits) or,
             * for DT_HASH, the name's own (scan_sysv). */
            have_name = td_window_name_h2(&rd->strs, fd, e, it->key, reach, &name);
            read = true;
            read_key = it->key;
        }
        if (!have_name || (uint16_t)name.len != r->len || name.h2 != r->h2)
            continue;
        const char *want = r->version ? rd->bd->versions.names[r->version] : NULL;
        switch (td_elf_version_check(e, (uint16_t)it->extra, want)) {
        case TD_ELF_VERSION_ACCEPT:
            td_refs_set_found(t, it->aux);
            break;
        case TD_ELF_VERSION_ONLY_IF_SINGLE:
            if (rd->defaults[it->aux] < 2)
                rd->defaults[it->aux]++;
            break;
        default:
            break;
        }
    }
    /* do_lookup_x: one default-version definition seen for an unversioned
     * reference is taken, as there is no ambiguity. */
    for (size_t k = 0; k < c->n; k++) {
        uint32_t r = c->v[k].aux;
        if (rd->defaults[r] == 1)
            td_refs_set_found(t, r);
        rd->defaults[r] = 0;
    }
}

/* Reads one DT_HASH word (4 bytes, 8 on 64-bit s390 and Alpha) at OFF. */
static bool sysv_word(struct td_bind_reader *rd, const struct td_elf *e, int fd, uint64_t off,
                      uint64_t limit, uint64_t *out)
{
    const uint8_t *p = td_window_at(&rd->hash, fd, off, e->sysv.width, limit, limit);
    *out = 0;
    for (unsigned k = 0; p && k < e->sysv.width; k++)
        *out = e->big_endian ? *out << 8 | p[k] : *out | (uint64_t)p[k] << (8 * k);
    return p != NULL;
}

/* Whether DT_HASH bucket HASH's chain holds INDEX (at most nchain steps:
 * a chain that loops is cut off, as td_elf_lookup does). */
static bool sysv_reaches(struct td_bind_reader *rd, const struct td_elf *e, int fd, uint32_t hash,
                         uint32_t index)
{
    const struct td_elf_sysv_hash *t = &e->sysv;
    uint64_t i;
    if (!sysv_word(rd, e, fd, t->buckets_off + (hash % t->nbucket) * t->width,
                   t->buckets_off + t->nbucket * t->width, &i))
        return false;
    for (uint64_t steps = 0; i != 0 && i < t->nchain && steps < t->nchain; steps++) {
        if (i == index)
            return true;
        if (!sysv_word(rd, e, fd, t->chain_off + i * t->width, t->chain_off + t->nchain * t->width,
                       &i))
            return false;
    }
    return false;
}

/* Every symbol of E (DT_HASH only: its chains hold no hashes to route by)
 * whose name a reference not yet found has, and that its bucket reaches. */
static bool scan_sysv(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                      struct td_bind_candidates *c)
{
    size_t n = td_bind_gather(rd, e, fd, td_elf_symfields_can_define, false);
    td_symitems_sort(rd->items, rd->tmp, n);
    const struct td_refs *t = &rd->bd->refs;
    size_t last = 0;
    for (size_t k = 0; k < n; k++) {
        struct td_symname name;
        uint32_t index = rd->items[k].index;
        uint32_t reach = td_symitems_reach(rd->items, n, k, &last, TD_BIND_SPAN);
        if (!td_window_name(&rd->strs, fd, e, rd->items[k].key, reach, &name) ||
            !td_refs_may_hold(t, name.gnu))
            continue;
        bool reached = false, asked = false;
        for (size_t i = td_refs_slot(name.gnu, t->mask); t->slots[i].index; i = (i + 1) & t->mask) {
            uint32_t r = t->slots[i].index - 1;
            if (t->slots[i].gnu != name.gnu || t->v[r].h2 != name.h2 || r < rd->from_ref ||
                td_refs_found(t, r))
                continue;
            if (!asked) {
                reached = sysv_reaches(rd, e, fd, td_elf_sysv_hash(name.text), index);
                asked = true;
            }
            if (reached && !candidates_push(&rd->pages, c, index, r, 0))
                return false;
        }
    }
    return true;
}

/* Marks the references O (open as FD) defines. */
void td_bind_provide(struct td_bind_reader *rd, struct td_object *o, int fd)
{
    struct td_elf *e = &o->u.elf;
    struct td_bind_candidates *c = &rd->cand;
    c->n = 0;
    if (!(e->has_gnu_hash ? scan_chain(rd, e, fd, c) : scan_sysv(rd, e, fd, c))) {
        rd->failed = true;
        return;
    }
    if (e->has_gnu_hash)
        keep_reachable(rd, e, fd, c);
    settle(rd, e, fd, c);
}
