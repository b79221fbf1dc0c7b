/* ELF symbol binding across the lookup scope, as ld.so does it: every
 * undefined, non-weak dynamic symbol of every object must be defined by
 * some object of the global scope (the program, then the libraries in
 * breadth-first load order), with the version its reference names; every
 * version an object needs from a library must be defined there
 * (glibc elf/dl-version.c, "version `X' not found (required by Y)").
 *
 * Only whether some object defines a reference matters here, not which
 * one ld.so would take first, so the work is arranged for the fewest bytes
 * read (docs/performance.md): first every object's undefined references,
 * read in pieces with pread, are gathered into one table of distinct
 * (name, version) pairs (bind_refs.h); then each object's GNU hash chain,
 * which holds the hash of every symbol it exports, is scanned once against
 * that table, and only the symbols whose hash some reference has are read
 * and checked the way glibc's do_lookup_x and check_match check them. Both
 * halves run on two threads, each with its own share of the objects. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/demangle.h"
#include "graph/bind_refs.h"
#include "graph/graph.h"
#include "graph/symtab_reader.h"

enum {
    SHOWN_PER_OBJECT = 5,
    SPAN = 48 * 1024, /* what one read of scattered entries or names covers */
    READERS = 2,      /* DESIGN.md: use both cores */
};

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

/* What the readers share. During the threads, everything here is read
 * only, except the found flags (td_refs_set_found) and each object's
 * symbol count, which only the reader that owns the object writes. */
struct binding {
    struct td_graph *g;
    struct td_refs refs;
    struct td_versions versions;
    uint16_t **canon; /* per object index (the interpreter last): per versym index, the number */
    struct td_unbound *results; /* per object index */
    const struct missing_versions *mv;
    unsigned char *owner; /* per object index (the interpreter last): which reader */
    bool *referrer;       /* per object index: its references are bound (misses no dependency) */
    bool failed;          /* out of memory: binding is abandoned, nothing reported */
};

/* Symbols of the object at hand that may define a reference: items with
 * INDEX, the reference (AUX), and once read KEY st_name and EXTRA the
 * DT_VERSYM entry; START, for a GNU hash, where each one's chain starts. */
struct candidates {
    struct td_symitem *v, *tmp;
    uint32_t *start;
    size_t n, cap;
};

/* One reader (a thread): its buffers, reused from one object to the next
 * so that their pages are faulted in once. */
struct reader {
    struct binding *bd;
    unsigned char id;
    struct td_pages pages; /* all of this reader's memory */
    struct td_refs refs;   /* the first half: the references of this reader's objects */
    uint8_t *defaults;     /* the second half: default-version candidates, per reference */
    struct td_window syms, versym, strs, hash;
    struct td_symitem *items, *tmp; /* room for the largest object's symbols */
    size_t items_cap;
    struct candidates cand;
    bool failed;
};

static bool reserve_items(struct reader *rd, size_t n)
{
    if (n <= rd->items_cap)
        return true;
    rd->items = td_pages_array(&rd->pages, n, sizeof *rd->items);
    rd->tmp = td_pages_array(&rd->pages, n, sizeof *rd->tmp);
    rd->items_cap = rd->items && rd->tmp ? n : 0;
    return rd->items_cap != 0;
}

/* The file of O, open for reading: the loader's descriptor, else opened
 * now (a root, the interpreter) and *OWNED set. -1 when unreadable. The
 * windows are emptied: what they hold is another file's. */
static int object_fd(struct reader *rd, const struct td_object *o, bool *owned)
{
    td_window_forget(&rd->syms);
    td_window_forget(&rd->versym);
    td_window_forget(&rd->strs);
    td_window_forget(&rd->hash);
    *owned = o->fd < 0;
    return o->fd >= 0 ? o->fd : open(o->host_path, O_RDONLY | O_CLOEXEC | O_BINARY);
}

static uint64_t entry_size(const struct td_elf *e)
{
    return e->is64 ? 24 : 16;
}

/* Counts E's dynamic symbols, when the loader read only the hash tables'
 * headers: the highest index a GNU hash bucket's chain reaches (the
 * symbols past it cannot be found), else DT_HASH's nchain. False when
 * there is nothing to bind (no table, or a damaged one). */
static bool count_symbols(struct reader *rd, struct td_elf *e, int fd)
{
    if (e->symcount_source != TD_ELF_SYMCOUNT_NOT_PARSED)
        return e->dynsym_count > 1;
    struct td_err ignore = {0};
    if (e->has_sysv_hash)
        return e->sysv.nchain <= UINT32_MAX &&
               td_elf_set_symbol_count(e, (uint32_t)e->sysv.nchain, TD_ELF_SYMCOUNT_HASH,
                                       &ignore) == 0;
    const struct td_elf_gnu_hash *gh = &e->gnu;
    if (!e->has_gnu_hash)
        return false;
    uint64_t bytes = 4ull * gh->nbuckets;
    const uint8_t *p = td_window_at(&rd->hash, fd, gh->buckets_off, (size_t)bytes,
                                    gh->buckets_off + bytes, gh->buckets_off + bytes);
    uint32_t top = 0;
    for (uint32_t i = 0; p && i < gh->nbuckets; i++) {
        uint32_t v = td_elf_raw_u32(p + 4ull * i, e->big_endian);
        top = v > top ? v : top;
    }
    if (!p || (top != 0 && top < gh->symoffset))
        return false;
    uint64_t count = gh->symoffset, end = gh->chain_off + gh->chain_avail;
    if (top) {
        bool ended = false;
        for (uint64_t i = top - gh->symoffset; !ended && (i + 1) * 4 <= gh->chain_avail; i++) {
            uint64_t at = gh->chain_off + 4 * i;
            p = td_window_at(&rd->hash, fd, at, 4, at + 512, end);
            if (!p)
                return false;
            ended = td_elf_raw_u32(p, e->big_endian) & 1;
            count = gh->symoffset + i + 1;
        }
        if (!ended)
            return false; /* the chain never ends */
    }
    return count <= UINT32_MAX &&
           td_elf_set_symbol_count(e, (uint32_t)count, TD_ELF_SYMCOUNT_GNU_HASH, &ignore) == 0 &&
           e->dynsym_count > 1;
}

/* Each symbol of E in [1, dynsym_count) that KEEP accepts, in index
 * order, into rd->items (key st_name, index). */
typedef bool keep_fn(const struct td_elf_symfields *f);

static size_t gather(struct reader *rd, const struct td_elf *e, int fd, keep_fn *keep,
                     bool undef_only)
{
    size_t shndx_at = e->is64 ? 6 : 14;
    uint64_t ent = e->dyn.syment, end = e->symtab_off + (uint64_t)e->dynsym_count * ent;
    if (ent < entry_size(e) || e->dynsym_count < 2 || !reserve_items(rd, e->dynsym_count))
        return 0;
    size_t n = 0, per = 65536 / ent ? 65536 / ent : 1;
    for (uint32_t i = 1; i < e->dynsym_count;) {
        size_t k = e->dynsym_count - i < per ? e->dynsym_count - i : per;
        const uint8_t *p = td_window_at(&rd->syms, fd, e->symtab_off + i * ent, k * ent, end, end);
        if (!p)
            break; /* the rest of the table is not in the file */
        for (size_t j = 0; j < k; j++, p += ent) {
            struct td_elf_symfields f;
            /* st_shndx first: most entries are definitions, which a walk
             * for references (UNDEF_ONLY) skips at once. */
            if (undef_only && (p[shndx_at] | p[shndx_at + 1]) != 0)
                continue;
            td_elf_symfields_decode(e, p, &f);
            if (keep(&f))
                rd->items[n++] = (struct td_symitem){f.name, i + (uint32_t)j, 0, 0};
        }
        i += (uint32_t)k;
    }
    return n;
}

/* The DT_VERSYM entry of symbol INDEX (1, global, when there is none),
 * reading up to the entry of symbol UPTO with it. */
static uint16_t versym_of(struct reader *rd, const struct td_elf *e, int fd, uint32_t index,
                          uint32_t upto)
{
    if (!e->has_versym)
        return 1;
    uint64_t end = e->versym_off + 2ull * e->dynsym_count;
    const uint8_t *p = td_window_at(&rd->versym, fd, e->versym_off + 2ull * index, 2,
                                    e->versym_off + 2ull * upto + 2, end);
    if (!p)
        return 0xffff; /* unreadable: names no version */
    return (uint16_t)(e->big_endian ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
}

/* Puts items in string-table order, for reading their names: sorted,
 * unless all the names lie within one SPAN (then one read holds them all
 * and the order does not matter). Returns where the reads of names should
 * reach: the furthest key in that case, else 0 (td_symitems_reach then). */
static uint32_t order_by_name(struct td_symitem *v, struct td_symitem *tmp, size_t n)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t k = 0; k < n; k++) {
        lo = v[k].key < lo ? v[k].key : lo;
        hi = v[k].key > hi ? v[k].key : hi;
    }
    if (n && hi - lo < SPAN)
        return hi ? hi : 1;
    td_symitems_sort(v, tmp, n);
    return 0;
}

/* ---- Gathering the references. ---- */

static bool is_reference(const struct td_elf_symfields *f)
{
    return f->shndx == TD_SHN_UNDEF && f->bind != TD_STB_WEAK && f->name != 0;
}

/* The version a reference names through VERSYM (0: none); false when the
 * entry names no version the object has (a corrupt table: the reference
 * is skipped, as td_elf_dynsym refuses it). */
static bool reference_version(const struct binding *bd, const struct td_object *o, uint16_t versym,
                              uint16_t *version)
{
    uint16_t index = versym & 0x7fff;
    *version = 0;
    if (index < 2)
        return true;
    const struct td_elf *e = &o->u.elf;
    if (index >= e->version_slots || !e->versions[index].name)
        return false;
    *version = bd->canon[o->index][index];
    return true;
}

static bool is_python_api(const struct td_symname *n)
{
    return strncmp(n->text, "Py", 2) == 0 || strncmp(n->text, "_Py", 3) == 0;
}

/* Notes NAME, a reference of O that nothing defines, in the results. */
static void note_missing(struct binding *bd, struct td_object *o, const char *name,
                         uint16_t version)
{
    struct td_unbound *u = &bd->results[o->index];
    if (!u->symbols &&
        !(u->symbols = td_arena_array(&bd->g->bind_arena, SHOWN_PER_OBJECT, sizeof(char *)))) {
        bd->failed = true;
        return;
    }
    u->object = o;
    note_unbound(&bd->g->bind_arena, u, name, version ? bd->versions.names[version] : NULL);
}

/* Adds O's undefined references to the reader's table (REPORT false), or
 * notes those the shared table holds as not found (REPORT true: a second
 * pass, only when something is missing, in symbol order). */
static void walk_references(struct reader *rd, struct td_object *o, int fd, bool report)
{
    struct binding *bd = rd->bd;
    const struct td_elf *e = &o->u.elf;
    const struct missing_versions *mv = &bd->mv[o->index];
    bool py_assumed = !bd->g->interpreter && bd->g->cfg.profile == TD_PROFILE_PYTHON_EXTENSION;
    size_t n = gather(rd, e, fd, is_reference, true);
    if (!n)
        return;
    for (size_t k = 0; k < n; k++)
        rd->items[k].aux = versym_of(rd, e, fd, rd->items[k].index, rd->items[n - 1].index);
    uint32_t all = report ? 0 : order_by_name(rd->items, rd->tmp, n);
    struct td_symname name = {0};
    size_t last = 0;
    bool read = false, have_name = false;
    uint32_t read_key = 0;
    for (size_t k = 0; k < n && !rd->failed; k++) {
        const struct td_symitem *it = &rd->items[k];
        uint16_t version;
        if (!reference_version(bd, o, (uint16_t)it->aux, &version) ||
            (version && version_is_missing(mv, bd->versions.names[version])))
            continue;
        if (!read || it->key != read_key) { /* the same name, other versions: read once */
            uint32_t reach = report ? it->key
                             : all  ? all
                                    : td_symitems_reach(rd->items, n, k, &last, SPAN);
            have_name = td_window_name(&rd->strs, fd, e, it->key, reach, true, &name);
            read = true;
            read_key = it->key;
        }
        if (!have_name || name.len == 0 || (py_assumed && is_python_api(&name)))
            continue;
        if (!report) {
            rd->failed = !td_refs_add(&rd->refs, &name, version);
            continue;
        }
        long r = td_refs_find(&bd->refs, &name, version);
        if (r >= 0 && !td_refs_found(&bd->refs, (size_t)r))
            note_missing(bd, o, name.text, version);
    }
}

static bool candidates_push(struct td_pages *pages, struct candidates *c, uint32_t index,
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

/* Every symbol of E whose GNU hash chain word carries the hash of a
 * reference not yet found, with the start of its chain. */
static bool scan_chain(struct reader *rd, const struct td_elf *e, int fd, struct candidates *c)
{
    const struct td_elf_gnu_hash *gh = &e->gnu;
    const struct td_refs *t = &rd->bd->refs;
    uint64_t words = e->dynsym_count - gh->symoffset;
    if (words > gh->chain_avail / 4)
        words = gh->chain_avail / 4; /* do_lookup_x's walk ends with the segment too */
    uint64_t end = gh->chain_off + 4 * words;
    uint32_t start = gh->symoffset;
    for (uint64_t w = 0; w < words;) {
        uint64_t k = words - w < 16384 ? words - w : 16384;
        const uint8_t *p =
            td_window_at(&rd->hash, fd, gh->chain_off + 4 * w, (size_t)(4 * k), end, end);
        if (!p)
            break;
        for (uint64_t j = 0; j < k; j++, p += 4) {
            uint32_t word = td_elf_raw_u32(p, e->big_endian);
            uint32_t index = gh->symoffset + (uint32_t)(w + j);
            if (td_refs_may_hold(t, word))
                for (size_t i = td_refs_slot(word, t->mask); t->slots[i]; i = (i + 1) & t->mask) {
                    uint32_t r = t->slots[i] - 1;
                    if (((t->v[r].gnu ^ word) >> 1) == 0 && !td_refs_found(t, r) &&
                        !candidates_push(&rd->pages, c, index, r, start))
                        return false;
                }
            if (word & 1)
                start = index + 1;
        }
        w += k;
    }
    return true;
}

/* Keeps the candidates glibc's walk reaches: the bucket of the
 * reference's hash must point into the candidate's chain, at or before it
 * (a well-formed table always does; a damaged one may not). */
static void keep_reachable(struct reader *rd, const struct td_elf *e, int fd, struct candidates *c)
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
static void read_entries(struct reader *rd, const struct td_elf *e, int fd, struct candidates *c)
{
    uint64_t ent = e->dyn.syment, end = e->symtab_off + (uint64_t)e->dynsym_count * ent;
    size_t kept = 0, reach = 0;
    for (size_t k = 0; k < c->n; k++) {
        struct td_symitem it = c->v[k];
        /* The entries up to SPAN bytes on come with this one (one read). */
        while (reach + 1 < c->n && (c->v[reach + 1].index - it.index) * ent < SPAN)
            reach++;
        uint64_t upto = reach > k ? c->v[reach].index : it.index;
        const uint8_t *p =
            td_window_at(&rd->syms, fd, e->symtab_off + it.index * ent, (size_t)entry_size(e),
                         e->symtab_off + (upto + 1) * ent, end);
        struct td_elf_symfields f;
        if (!p)
            continue;
        td_elf_symfields_decode(e, p, &f);
        if (!td_elf_symfields_can_define(&f))
            continue;
        it.key = f.name;
        it.extra = versym_of(rd, e, fd, it.index, (uint32_t)upto);
        c->v[kept++] = it;
    }
    c->n = kept;
}

/* Settles the candidates: each with the reference's name that passes
 * check_match's version rule marks the reference found. */
static void settle(struct reader *rd, const struct td_elf *e, int fd, struct candidates *c)
{
    struct td_refs *t = &rd->bd->refs;
    read_entries(rd, e, fd, c);
    uint32_t all = order_by_name(c->v, c->tmp, c->n);
    struct td_symname name = {0};
    size_t last = 0;
    bool read = false, have_name = false;
    uint32_t read_key = 0;
    for (size_t k = 0; k < c->n; k++) {
        const struct td_symitem *it = &c->v[k];
        const struct td_ref *r = &t->v[it->aux];
        if (!read || it->key != read_key) {
            uint32_t reach = all ? all : td_symitems_reach(c->v, c->n, k, &last, SPAN);
            have_name = td_window_name(&rd->strs, fd, e, it->key, reach, false, &name);
            read = true;
            read_key = it->key;
        }
        /* The chain word matched the hash already. */
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
static bool sysv_word(struct reader *rd, const struct td_elf *e, int fd, uint64_t off,
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
static bool sysv_reaches(struct reader *rd, const struct td_elf *e, int fd, uint32_t hash,
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
static bool scan_sysv(struct reader *rd, const struct td_elf *e, int fd, struct candidates *c)
{
    size_t n = gather(rd, e, fd, td_elf_symfields_can_define, false);
    td_symitems_sort(rd->items, rd->tmp, n);
    const struct td_refs *t = &rd->bd->refs;
    size_t last = 0;
    for (size_t k = 0; k < n; k++) {
        struct td_symname name;
        uint32_t index = rd->items[k].index;
        uint32_t reach = td_symitems_reach(rd->items, n, k, &last, SPAN);
        if (!td_window_name(&rd->strs, fd, e, rd->items[k].key, reach, true, &name) ||
            !td_refs_may_hold(t, name.gnu))
            continue;
        bool reached = false, asked = false;
        for (size_t i = td_refs_slot(name.gnu, t->mask); t->slots[i]; i = (i + 1) & t->mask) {
            uint32_t r = t->slots[i] - 1;
            if (t->v[r].gnu != name.gnu || t->v[r].h2 != name.h2 || td_refs_found(t, r))
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
static void provide(struct reader *rd, struct td_object *o, int fd)
{
    struct td_elf *e = &o->u.elf;
    struct candidates *c = &rd->cand;
    c->n = 0;
    if (!(e->has_gnu_hash ? scan_chain(rd, e, fd, c) : scan_sysv(rd, e, fd, c))) {
        rd->failed = true;
        return;
    }
    if (e->has_gnu_hash)
        keep_reachable(rd, e, fd, c);
    settle(rd, e, fd, c);
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

/* ---- The whole closure, on two threads. ---- */

/* Object I of the scope: the load order, then the interpreter (NULL when
 * there is none). */
static struct td_object *nth(const struct td_graph *g, size_t i)
{
    return i < g->count ? g->objects[i] : g->interpreter;
}

/* The objects whose undefined references are bound: every ELF object of
 * the load order except one that misses a dependency of its own. */
static bool is_referrer(const struct binding *bd, size_t i)
{
    return i < bd->g->count && bd->referrer[i];
}

enum half { GATHER, PROVIDE, REPORT };

/* One half for the objects of reader RD (REPORT: for all, on one thread). */
static void run_half(struct reader *rd, enum half half)
{
    struct td_graph *g = rd->bd->g;
    for (size_t i = 0; i <= g->count && !rd->failed && !rd->bd->failed; i++) {
        struct td_object *o = nth(g, i);
        if (!o || o->kind != TD_FILE_ELF || (half != REPORT && rd->bd->owner[i] != rd->id) ||
            (half != PROVIDE && !is_referrer(rd->bd, i)))
            continue;
        bool owned;
        int fd = object_fd(rd, o, &owned);
        if (fd < 0)
            continue;
        if (o->u.elf.dyn.syment >= entry_size(&o->u.elf) && count_symbols(rd, &o->u.elf, fd)) {
            if (half == PROVIDE)
                provide(rd, o, fd);
            else
                walk_references(rd, o, fd, half == REPORT);
        }
        if (owned)
            close(fd);
    }
}

struct job {
    struct reader *rd;
    enum half half;
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    run_half(j->rd, j->half);
    return NULL;
}

/* HALF on both readers at once (one after the other when no thread can
 * be made). */
static void run_both(struct reader *rd, enum half half)
{
    struct job second = {&rd[1], half};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, run_job, &second) == 0;
    run_half(&rd[0], half);
    if (threaded)
        pthread_join(thread, NULL);
    else
        run_half(&rd[1], half);
    for (int k = 0; k < READERS; k++)
        rd->bd->failed |= rd[k].failed;
}

/* How much reading object O takes, roughly: its symbol count, or for one
 * not yet counted what its hash table's header tells. */
static uint64_t weight(const struct td_object *o)
{
    if (!o || o->kind != TD_FILE_ELF)
        return 0;
    const struct td_elf *e = &o->u.elf;
    return e->symcount_source != TD_ELF_SYMCOUNT_NOT_PARSED ? e->dynsym_count
           : e->has_gnu_hash  ? e->gnu.symoffset + 4ull * e->gnu.nbuckets
           : e->has_sysv_hash ? e->sysv.nchain
                              : 0;
}

/* Splits the objects between the readers (each to the lighter side, in
 * load order: a sort would cost more than the imbalance). */
static void assign(struct binding *bd)
{
    uint64_t load[READERS] = {0};
    for (size_t i = 0; i <= bd->g->count; i++) {
        unsigned char side = load[1] < load[0];
        bd->owner[i] = side;
        load[side] += weight(nth(bd->g, i));
    }
}

/* Each object's versym indexes as interned version numbers, made before
 * the threads start so that they only read the table. */
static bool number_versions(struct binding *bd)
{
    size_t total = 0;
    for (size_t i = 0; i <= bd->g->count; i++) {
        const struct td_object *o = nth(bd->g, i);
        total += o && o->kind == TD_FILE_ELF ? o->u.elf.version_slots : 0;
    }
    uint16_t *all = calloc(total + 1, sizeof *all);
    if (!all)
        return false;
    for (size_t i = 0, used = 0; i <= bd->g->count; i++) {
        const struct td_object *o = nth(bd->g, i);
        bd->canon[i] = all + used;
        if (!o || o->kind != TD_FILE_ELF)
            continue;
        const struct td_elf *e = &o->u.elf;
        for (uint32_t k = 2; k < e->version_slots; k++)
            if (e->versions[k].name &&
                !(bd->canon[i][k] = td_versions_intern(&bd->versions, e->versions[k].name)))
                return false;
        used += e->version_slots;
    }
    return true;
}

/* Room for the undefined symbols of reader RD's objects: the most
 * references there can be (objects not yet counted: their unhashed part;
 * the table grows if a hashed part holds some too). */
static size_t references_bound(const struct reader *rd)
{
    size_t most = 0;
    for (size_t i = 0; i < rd->bd->g->count; i++)
        if (rd->bd->owner[i] == rd->id) {
            const struct td_object *o = rd->bd->g->objects[i];
            const struct td_elf *e = &o->u.elf;
            most += o->kind != TD_FILE_ELF                             ? 0
                    : e->symcount_source != TD_ELF_SYMCOUNT_NOT_PARSED ? e->dynsym_count
                    : e->has_gnu_hash                                  ? e->gnu.symoffset
                                                                       : weight(o);
        }
    return most;
}

/* A reader of the binding BD whose memory is a reservation of its own
 * (no locking between the threads; its pages are faulted in by one). */
static void reader_init(struct reader *rd, struct binding *bd, unsigned char id)
{
    enum { RESERVE = 64 * 1024 * 1024 };
    memset(rd, 0, sizeof *rd);
    rd->bd = bd;
    rd->id = id;
    td_pages_init(&rd->pages, RESERVE);
    rd->syms.pages = rd->versym.pages = rd->strs.pages = rd->hash.pages = &rd->pages;
}

/* Binds every reference: true when all were found. */
static bool bind_all(struct binding *bd, struct reader *rd)
{
    for (int k = 0; k < READERS; k++)
        if (!td_refs_init(&rd[k].refs, references_bound(&rd[k]), &rd[k].pages))
            return bd->failed = true, false;
    run_both(rd, GATHER);
    if (bd->failed || !td_refs_merge(&rd[0].refs, &rd[1].refs))
        return bd->failed = true, false;
    bd->refs = rd[0].refs; /* its memory stays reader 0's */
    if (!td_refs_start_binding(&bd->refs))
        return bd->failed = true, false;
    for (int k = 0; k < READERS; k++)
        if (!(rd[k].defaults = td_pages_alloc(&rd[k].pages, bd->refs.n + 1)))
            return bd->failed = true, false;
    run_both(rd, PROVIDE);
    for (size_t r = 0; r < bd->refs.n && !bd->failed; r++)
        if (!td_refs_found(&bd->refs, r))
            return false;
    return true;
}

void td_graph_bind_elf(struct td_graph *g)
{
    struct missing_versions *mv = calloc(g->count, sizeof *mv);
    struct binding bd = {.g = g, .mv = mv};
    struct reader rd[READERS];
    for (int k = 0; k < READERS; k++)
        reader_init(&rd[k], &bd, (unsigned char)k);
    bd.results = calloc(g->count, sizeof *bd.results);
    bd.canon = calloc(g->count + 1, sizeof *bd.canon);
    bd.owner = calloc(g->count + 1, 1);
    bd.referrer = calloc(g->count + 1, sizeof *bd.referrer);
    if (!mv || !bd.results || !bd.canon || !bd.owner || !bd.referrer)
        goto out;
    /* An object that misses one of its own required dependencies is not
     * bound: its unbound symbols would only repeat that finding (ldd -r
     * buries the cause in hundreds of such lines). */
    for (size_t i = 0; i < g->count; i++)
        bd.referrer[i] = true;
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (!e->to && !e->delay && !e->weak)
            bd.referrer[e->from->index] = false;
    }
    for (size_t i = 0; i < g->count; i++)
        if (g->objects[i]->kind == TD_FILE_ELF)
            check_version_needs(g, g->objects[i], &mv[i]);
    if (g->opts.versions_only || !number_versions(&bd))
        goto out;
    assign(&bd);
    if (!bind_all(&bd, rd) && !bd.failed)
        run_half(&rd[0], REPORT); /* names, in symbol order, of what is missing */
    g->symbols_checked = bd.refs.n;
    for (size_t i = 0; i < g->count && !bd.failed; i++)
        if (bd.results[i].total)
            report_unbound(g, &bd.results[i]);
out:
    for (int k = 0; k < READERS; k++)
        td_pages_free(&rd[k].pages); /* bd.refs's too: it is reader 0's table */
    td_versions_free(&bd.versions);
    free(bd.canon ? bd.canon[0] : NULL);
    free(bd.canon);
    free(bd.owner);
    free(bd.referrer);
    free(bd.results);
    free(mv);
}
