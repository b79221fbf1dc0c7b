/* The distinct symbol references of a closure, for ELF binding
 * (bind_elf.c): each a name, kept as its length and two hashes rather
 * than its text, and a version, kept as a number. Graph-internal. */
#ifndef TD_GRAPH_BIND_REFS_H
#define TD_GRAPH_BIND_REFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pages.h"
#include "graph/symtab_reader.h"

/* Version names, interned: number 0 is "unversioned". */
struct td_versions {
    const char **names; /* by number */
    uint32_t *slots;    /* number, 0 when empty; a power of two of them */
    size_t n, cap, mask;
};

/* The number of version NAME (kept by pointer); 0 when out of numbers
 * (65,535) or memory. */
uint16_t td_versions_intern(struct td_versions *t, const char *name);
void td_versions_free(struct td_versions *t);

/* One distinct reference: its name's second hash, GNU hash and length (to
 * 16 bits: the second hash covers all of it), its version's number. */
struct td_ref {
    uint64_t h2;
    uint32_t gnu;
    uint16_t len;
    uint16_t version;
};

enum { TD_REFS_FILTER_BITS = 1 << 20 }; /* 128 KiB: stays in the second-level cache */

/* The references, found by their GNU hash without its low bit (the bit a
 * GNU hash chain word uses to mark the end of a chain). */
/* A slot of the open-addressing table: the reference's GNU hash beside
 * its index, so that a probe reads the table alone until a hash matches
 * (the table and the references do not fit the caches together). */
struct td_refs_slot {
    uint32_t index; /* index + 1, 0 when empty */
    uint32_t gnu;
};

struct td_refs {
    struct td_pages *pages; /* where its memory comes from */
    struct td_ref *v;
    size_t n, cap;
    struct td_refs_slot *slots; /* a power of two of them */
    size_t mask;
    uint64_t *filter; /* one bit per (gnu >> 1) modulo TD_REFS_FILTER_BITS */
    uint8_t *found;   /* per reference */
    size_t unfound;   /* references not found yet */
};

/* The reference (NAME, VERSION) as the table keeps it. */
static inline struct td_ref td_refs_key(const struct td_symname *name, uint16_t version)
{
    return (struct td_ref){name->h2, name->gnu, (uint16_t)name->len, version};
}

/* Room for about CAP references, reserved and not touched (pages never
 * used are never faulted in), in PAGES, which keeps all the table's
 * memory (td_refs has no free of its own). */
bool td_refs_init(struct td_refs *t, size_t cap, struct td_pages *pages);
/* Adds (NAME, VERSION) unless it is there (td_refs_add_batch of one);
 * false when out of memory. */
bool td_refs_add(struct td_refs *t, const struct td_symname *name, uint16_t version);
/* Adds the N references REFS (td_refs_add of each, faster). */
bool td_refs_add_batch(struct td_refs *t, const struct td_ref *refs, size_t n);
/* Leaves in the filter only the references not found yet (no reference
 * may be added after). */
void td_refs_filter_unfound(struct td_refs *t);
/* The reference (NAME, VERSION), or -1. */
long td_refs_find(const struct td_refs *t, const struct td_symname *name, uint16_t version);

static inline size_t td_refs_slot(uint32_t gnu, size_t mask)
{
    return ((gnu >> 1) * 0x9e3779b1u) & mask;
}

static inline bool td_refs_may_hold(const struct td_refs *t, uint32_t gnu)
{
    uint32_t bit = (gnu >> 1) & (TD_REFS_FILTER_BITS - 1);
    return (t->filter[bit / 64] >> (bit % 64)) & 1;
}

/* Found flags are set by two binding threads at once: relaxed atomics
 * (only "set" ever happens, and the threads are joined before reading). */
static inline bool td_refs_found(const struct td_refs *t, size_t r)
{
    return __atomic_load_n(&t->found[r], __ATOMIC_RELAXED) != 0;
}

static inline void td_refs_set_found(struct td_refs *t, size_t r)
{
    if (__atomic_exchange_n(&t->found[r], 1, __ATOMIC_RELAXED) == 0)
        __atomic_fetch_sub(&t->unfound, 1, __ATOMIC_RELAXED);
}

/* True once every reference is found: no object need be asked further. */
static inline bool td_refs_all_found(const struct td_refs *t)
{
    return __atomic_load_n(&t->unfound, __ATOMIC_RELAXED) == 0;
}
#endif
