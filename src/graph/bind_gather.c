/* ELF binding, the gathering half: reading an object's dynamic symbol
 * table in pieces, counting its symbols from its hash table, and adding
 * its undefined references to the shared table (or, after binding, naming
 * the ones nothing defines). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/demangle.h"
#include "graph/bind_elf.h"

void td_bind_note_unbound(struct td_arena *arena, struct td_unbound *u, const char *name,
                          const char *version)
{
    if (u->shown < TD_BIND_SHOWN) {
        char buf[1024], plain[900];
        snprintf(buf, sizeof buf, version ? "%s@%s" : "%s", td_demangle(name, plain, sizeof plain),
                 version);
        u->symbols[u->shown++] = td_arena_strdup(arena, buf);
    }
    u->total++;
}

/* On the heap, not in the reader's pages: the arrays are sized for every
 * symbol of the largest object and grow with it, but a walk for
 * references fills the first few hundred entries, and only pages touched
 * count (a page of the reservation is 2 MiB). */
static bool reserve_items(struct td_bind_reader *rd, size_t n)
{
    if (n <= rd->items_cap)
        return true;
    free(rd->items);
    free(rd->tmp);
    rd->items = n <= SIZE_MAX / sizeof *rd->items ? malloc(n * sizeof *rd->items) : NULL;
    rd->tmp = n <= SIZE_MAX / sizeof *rd->tmp ? malloc(n * sizeof *rd->tmp) : NULL;
    rd->items_cap = rd->items && rd->tmp ? n : 0;
    return rd->items_cap != 0;
}

/* The file of O, open for reading: the loader's descriptor, else opened
 * now (a root, the interpreter) and *OWNED set. -1 when unreadable. The
 * windows are emptied: what they hold is another file's. */
int td_bind_object_fd(struct td_bind_reader *rd, const struct td_object *o, bool *owned)
{
    td_window_forget(&rd->syms);
    td_window_forget(&rd->versym);
    td_window_forget(&rd->strs);
    td_window_forget(&rd->hash);
    *owned = o->fd < 0;
    return o->fd >= 0 ? o->fd : open(o->host_path, O_RDONLY | O_CLOEXEC | O_BINARY);
}

/* Counts E's dynamic symbols, when the loader read only the hash tables'
 * headers: the highest index a GNU hash bucket's chain reaches (the
 * symbols past it cannot be found), else DT_HASH's nchain. False when
 * there is nothing to bind (no table, or a damaged one). */
bool td_bind_count_symbols(struct td_bind_reader *rd, struct td_elf *e, int fd)
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

size_t td_bind_gather(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                      td_bind_keep_fn *keep, bool undef_only)
{
    size_t shndx_at = e->is64 ? 6 : 14;
    uint64_t ent = e->dyn.syment, end = e->symtab_off + (uint64_t)e->dynsym_count * ent;
    if (ent < td_bind_entry_size(e) || e->dynsym_count < 2 || !reserve_items(rd, e->dynsym_count))
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
uint16_t td_bind_versym_of(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                           uint32_t index, uint32_t upto)
{
    if (!e->has_versym)
        return 1;
    uint64_t end = e->versym_off + 2ull * e->dynsym_count;
    const uint8_t *p = td_window_at(&rd->versym, fd, e->versym_off + 2ull * index, 2,
                                    e->versym_off + 2ull * upto + 2, end);
    if (!p)
        return 0xffff; /* unreadable: names no version */
    return td_elf_raw_u16(p, e->big_endian);
}

/* Puts items in string-table order, for reading their names: sorted,
 * unless the string window holds the whole table already (an image) or
 * all the names lie within one TD_BIND_SPAN (then one read holds them
 * all): the order does not matter then. Returns where the reads of names
 * should reach in those cases, else 0 (td_symitems_reach then). */
uint32_t td_bind_order_by_name(const struct td_bind_reader *rd, const struct td_elf *e,
                               struct td_symitem *v, struct td_symitem *tmp, size_t n)
{
    if (td_window_holds(&rd->strs, e->strtab_off, e->strtab_size))
        return e->strtab_size < UINT32_MAX ? (uint32_t)e->strtab_size + 1 : UINT32_MAX;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (size_t k = 0; k < n; k++) {
        lo = v[k].key < lo ? v[k].key : lo;
        hi = v[k].key > hi ? v[k].key : hi;
    }
    if (n && hi - lo < TD_BIND_SPAN)
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
static bool reference_version(const struct td_binding *bd, const struct td_object *o,
                              uint16_t versym, uint16_t *version)
{
    uint16_t index = versym & 0x7fff;
    *version = 0;
    if (index < 2)
        return true;
    const struct td_elf *e = &o->u.elf;
    if (index >= e->version_slots || !e->versions[index].name)
        return false;
    *version = bd->objs[o->index].canon[index];
    return true;
}

static bool is_python_api(const struct td_symname *n)
{
    return strncmp(n->text, "Py", 2) == 0 || strncmp(n->text, "_Py", 3) == 0;
}

/* Notes NAME, a reference of O that nothing defines, in the results. */
static void note_missing(struct td_binding *bd, struct td_object *o, const char *name,
                         uint16_t version)
{
    struct td_unbound *u = &bd->results[o->index];
    if (!u->symbols &&
        !(u->symbols = td_arena_array(&bd->g->bind_arena, TD_BIND_SHOWN, sizeof(char *)))) {
        bd->failed = true;
        return;
    }
    u->object = o;
    td_bind_note_unbound(&bd->g->bind_arena, u, name, version ? bd->versions.names[version] : NULL);
}

struct td_bind_object *td_bind_object_record(struct td_bind_reader *rd, const struct td_object *o)
{
    struct td_binding *bd = rd->bd;
    if (o->index >= bd->objs_cap) {
        size_t cap = bd->objs_cap ? bd->objs_cap * 2 : 512;
        while (cap <= o->index)
            cap *= 2;
        struct td_bind_object *grown = td_pages_array(&rd->pages, cap, sizeof *grown);
        if (!grown)
            return NULL;
        if (bd->objs_cap)
            memcpy(grown, bd->objs, bd->objs_cap * sizeof *grown);
        bd->objs = grown;
        bd->objs_cap = cap;
    }
    return &bd->objs[o->index];
}

/* O's versym indexes as interned version numbers, into its record. False
 * when out of memory. */
static bool number_versions(struct td_bind_reader *rd, const struct td_object *o)
{
    struct td_binding *bd = rd->bd;
    struct td_bind_object *rec = td_bind_object_record(rd, o);
    const struct td_elf *e = &o->u.elf;
    uint16_t *v = rec ? td_pages_array(&rd->pages, e->version_slots + 1, sizeof *v) : NULL;
    if (!v)
        return false;
    for (uint32_t k = 2; k < e->version_slots; k++)
        if (e->versions[k].name && !(v[k] = td_versions_intern(&bd->versions, e->versions[k].name)))
            return false;
    rec->canon = v;
    return true;
}

/* Adds O's undefined references to the table (TD_WALK_ADD), collects
 * them without writing anything shared (TD_WALK_COLLECT: their versions
 * left as versym entries, for td_bind_add_collected), or notes those the
 * table holds as not found (TD_WALK_REPORT: a second pass, only when
 * something is missing, in symbol order). Gathering runs while the
 * closure is still being built, so what needs the whole graph (versions a
 * library lacks, the interpreter's symbols) is sorted out in the report. */
void td_bind_walk_references(struct td_bind_reader *rd, struct td_object *o, int fd,
                             enum td_bind_walk mode, struct td_bind_collected *out)
{
    struct td_binding *bd = rd->bd;
    const struct td_elf *e = &o->u.elf;
    bool report = mode == TD_WALK_REPORT, collect = mode == TD_WALK_COLLECT;
    size_t n = td_bind_gather(rd, e, fd, is_reference, true);
    if (!n)
        return;
    if (collect && !(out->keys = td_pages_array(&rd->pages, n, sizeof *out->keys))) {
        rd->failed = true;
        return;
    }
    if (mode == TD_WALK_ADD && !number_versions(rd, o)) {
        rd->failed = true;
        return;
    }
    for (size_t k = 0; k < n; k++)
        rd->items[k].aux = td_bind_versym_of(rd, e, fd, rd->items[k].index, rd->items[n - 1].index);
    uint32_t all = report ? 0 : td_bind_order_by_name(rd, e, rd->items, rd->tmp, n);
    bool py_assumed =
        report && !bd->g->interpreter && bd->g->cfg.profile == TD_PROFILE_PYTHON_EXTENSION;
    struct td_symname name = {0};
    size_t last = 0, batched = 0;
    bool read = false, have_name = false;
    uint32_t read_key = 0;
    struct td_ref batch[64]; /* added together: td_refs_add_batch */
    for (size_t k = 0; k < n && !rd->failed; k++) {
        const struct td_symitem *it = &rd->items[k];
        uint16_t version = (uint16_t)it->aux; /* collected as the versym entry */
        if ((!collect && !reference_version(bd, o, (uint16_t)it->aux, &version)) ||
            (report && version &&
             td_bind_version_is_missing(&bd->mv[o->index], bd->versions.names[version])))
            continue;
        if (!read || it->key != read_key) { /* the same name, other versions: read once */
            uint32_t reach = report ? it->key
                             : all  ? all
                                    : td_symitems_reach(rd->items, n, k, &last, TD_BIND_SPAN);
            have_name = td_window_name(&rd->strs, fd, e, it->key, reach, &name);
            read = true;
            read_key = it->key;
        }
        if (!have_name || name.len == 0 || (py_assumed && is_python_api(&name)))
            continue;
        if (collect) {
            out->keys[out->n++] = td_refs_key(&name, version);
            continue;
        }
        if (!report) {
            batch[batched++] = td_refs_key(&name, version);
            if (batched == sizeof batch / sizeof *batch) {
                rd->failed = !td_refs_add_batch(&bd->refs, batch, batched);
                batched = 0;
            }
            continue;
        }
        long r = td_refs_find(&bd->refs, &name, version);
        if (r >= 0 && !td_refs_found(&bd->refs, (size_t)r))
            note_missing(bd, o, name.text, version);
    }
    if (batched && !rd->failed)
        rd->failed = !td_refs_add_batch(&bd->refs, batch, batched);
}

bool td_bind_add_collected(struct td_bind_reader *rd, struct td_object *o,
                           struct td_bind_collected *c)
{
    if (!c->n)
        return true;
    if (!number_versions(rd, o))
        return false;
    size_t kept = 0;
    for (size_t k = 0; k < c->n; k++) {
        struct td_ref key = c->keys[k];
        if (reference_version(rd->bd, o, key.version, &key.version))
            c->keys[kept++] = key;
    }
    return td_refs_add_batch(&rd->bd->refs, c->keys, kept);
}
