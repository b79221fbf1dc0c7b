/* ELF symbol binding, its parts (bind_elf.c drives them): what the two
 * reading threads share, one reader's state, and the entry points of the
 * halves (bind_gather.c: an object's references; bind_provide.c: what an
 * object defines; bind_versions.c: version needs). Graph-internal. */
#ifndef TD_GRAPH_BIND_ELF_H
#define TD_GRAPH_BIND_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pages.h"
#include "graph/bind_refs.h"
#include "graph/graph.h"
#include "graph/symtab_reader.h"

enum {
    TD_BIND_SHOWN = 5,        /* missing symbols named per object */
    TD_BIND_SPAN = 48 * 1024, /* what one read of scattered entries or names covers */
};

enum { TD_BIND_MAX_MISSING_VERSIONS = 64 };

/* Versions an object needs that its library lacks (check_version_needs):
 * ld.so stops there, so symbols of those versions are not repeated. */
struct td_missing_versions {
    const char *names[TD_BIND_MAX_MISSING_VERSIONS];
    size_t count;
};

bool td_bind_version_is_missing(const struct td_missing_versions *mv, const char *version);

/* What binding knows of one object (by object index), written by one
 * thread at a time: the gathering thread, then, once it has ended, the
 * closure's (what it collected as a helper). */
struct td_bind_object {
    uint16_t *canon; /* per versym index, the version's number */
    uint32_t seen;   /* once PROVIDED: the references it was asked for, 0 .. SEEN-1 */
    bool provided;
    const uint8_t *hash; /* a copy of the file's [hash_off, + hash_len): its hash table */
    uint64_t hash_off, hash_len;
};

/* What the readers share. During the threads, everything here is read
 * only, except the found flags (td_refs_set_found) and each object's
 * symbol count, which only the reader that owns the object writes. */
struct td_binding {
    struct td_graph *g;
    struct td_refs refs;         /* gathered by reader 0 */
    struct td_versions versions; /* interned by reader 0 */
    struct td_bind_object *objs; /* per object index, grown by reader 0 */
    size_t objs_cap;
    struct td_unbound *results; /* per object index */
    struct td_missing_versions *mv;
    uint32_t *order; /* object indexes (the interpreter last) in the order providers are read */
    size_t n_order;
    size_t next;    /* the next of ORDER to read, taken atomically */
    bool *referrer; /* per object index: its references are bound (misses no dependency) */
    bool failed;    /* out of memory: binding is abandoned, nothing reported */
};

/* Symbols of the object at hand that may define a reference: items with
 * INDEX, the reference (AUX), and once read KEY st_name and EXTRA the
 * DT_VERSYM entry; START, for a GNU hash, where each one's chain starts. */
struct td_bind_candidates {
    struct td_symitem *v, *tmp;
    uint32_t *start;
    size_t n, cap;
};

/* One reader (a thread): its buffers, reused from one object to the next
 * so that their pages are faulted in once. */
struct td_bind_reader {
    struct td_binding *bd;
    unsigned char id;
    struct td_pages pages; /* all of this reader's memory */
    uint8_t *defaults;     /* the second half: default-version candidates, per reference */
    size_t defaults_cap;
    uint32_t from_ref;     /* the first reference the object at hand is asked for */
    struct td_image image; /* the object at hand's tables, when read whole */
    struct td_window syms, versym, strs, hash;
    struct td_symitem *items, *tmp; /* room for the largest object's symbols (heap) */
    size_t items_cap;
    struct td_bind_candidates cand;
    bool failed;
};

/* The file of O, open for reading: the loader's descriptor, else opened
 * now (a root, the interpreter) and *OWNED set. -1 when unreadable. The
 * windows are emptied: what they hold is another file's. */
int td_bind_object_fd(struct td_bind_reader *rd, const struct td_object *o, bool *owned);

/* The binding's record of O, grown to hold it (only the gathering thread
 * grows it); NULL when out of memory. */
struct td_bind_object *td_bind_object_record(struct td_bind_reader *rd, const struct td_object *o);

static inline uint64_t td_bind_entry_size(const struct td_elf *e)
{
    return e->is64 ? 24 : 16;
}

/* Counts E's dynamic symbols when the loader read only the hash tables'
 * headers (bind_gather.c). False when there is nothing to bind. */
bool td_bind_count_symbols(struct td_bind_reader *rd, struct td_elf *e, int fd);

/* Each symbol of E in [1, dynsym_count) that KEEP accepts (UNDEF_ONLY: a
 * defined one is skipped on its st_shndx alone), in index order, into
 * rd->items (key st_name, index); their count. */
typedef bool td_bind_keep_fn(const struct td_elf_symfields *f);
size_t td_bind_gather(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                      td_bind_keep_fn *keep, bool undef_only);

/* The DT_VERSYM entry of symbol INDEX (1 when there is none), read with
 * the entries up to symbol UPTO. */
uint16_t td_bind_versym_of(struct td_bind_reader *rd, const struct td_elf *e, int fd,
                           uint32_t index, uint32_t upto);

/* Items in string-table order for reading E's names, unless the reader's
 * string window holds them all; returns the key every read should reach
 * when one read covers them all, else 0. */
uint32_t td_bind_order_by_name(const struct td_bind_reader *rd, const struct td_elf *e,
                               struct td_symitem *v, struct td_symitem *tmp, size_t n);

/* O's undefined references into the shared table (TD_WALK_ADD, the
 * gathering thread), into OUT (TD_WALK_COLLECT, a helper), or the ones
 * found missing into the results (TD_WALK_REPORT, after binding). */
enum td_bind_walk { TD_WALK_ADD, TD_WALK_COLLECT, TD_WALK_REPORT };
/* An object's references collected by a helper (TD_WALK_COLLECT): keys
 * whose version is still the raw versym entry, in the helper's pages. */
struct td_bind_collected {
    struct td_ref *keys;
    size_t n;
};
void td_bind_walk_references(struct td_bind_reader *rd, struct td_object *o, int fd,
                             enum td_bind_walk mode, struct td_bind_collected *out);
/* Adds C, collected from O, to the table as TD_WALK_ADD would have (the
 * gathering thread's work: versions numbered, the shared table written);
 * false when out of memory. C's keys are rewritten in place. */
bool td_bind_add_collected(struct td_bind_reader *rd, struct td_object *o,
                           struct td_bind_collected *c);

/* Marks the references O (open as FD) defines, of those from
 * rd->from_ref on (bind_provide.c). */
void td_bind_provide(struct td_bind_reader *rd, struct td_object *o, int fd);

/* Checks every ELF object's version needs against the library each names
 * (missing_symbol_version findings); MV, when set, gets per object index
 * the versions found missing (bind_versions.c). */
void td_bind_check_versions(struct td_graph *g, struct td_missing_versions *mv);

/* Adds "NAME[@VERSION]", demangled, to U (the first few), counting all. */
void td_bind_note_unbound(struct td_arena *arena, struct td_unbound *u, const char *name,
                          const char *version);
#endif
