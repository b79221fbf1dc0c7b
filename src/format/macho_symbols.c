/* Mach-O symbols: the export trie (walked and looked up by name), undefined
 * symbols of the nlist table with their two-level library ordinals, and the
 * imports of LC_DYLD_CHAINED_FIXUPS. Nothing here runs at parse time. */
#include "format/macho.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* <mach-o/nlist.h> */
#define N_STAB 0xe0u
#define N_TYPE 0x0eu
#define N_EXT 0x01u
#define N_UNDF 0x0u
#define N_WEAK_REF 0x0040u

/* ---- export trie ---- */

/* The trie's bytes, with the image offset they start at for messages. */
struct trie {
    struct td_buf buf;
    uint64_t base;
};

struct trie_node {
    uint64_t off;
    bool terminal;
    uint8_t nchildren;
    uint64_t children; /* offset of the first child entry */
    struct td_macho_export info;
};

static int trie_error(const struct trie *t, uint64_t off, const char *what, struct td_err *err)
{
    td_err_set(err, "export trie node at offset 0x%" PRIx64 " (trie offset 0x%" PRIx64 "): %s",
               t->base + off, off, what);
    return -1;
}

/* ULEB128 at *OFF, below END; false when truncated or wider than 64 bits. */
static bool read_uleb(const struct td_buf *b, uint64_t *off, uint64_t end, uint64_t *out)
{
    uint64_t value = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        uint8_t byte;
        if (*off >= end || !td_buf_u8(b, *off, &byte))
            return false;
        (*off)++;
        uint64_t bits = byte & 0x7f;
        if (shift == 63 && bits > 1)
            return false;
        value |= bits << shift;
        if (!(byte & 0x80)) {
            *out = value;
            return true;
        }
    }
    return false;
}

/* The terminal part of a node: flags, then address, re-export or resolver
 * fields (dyld's "export info"), all inside [at, end). */
static int read_export_info(const struct trie *t, uint64_t node, uint64_t at, uint64_t end,
                            struct td_macho_export *e, struct td_err *err)
{
    memset(e, 0, sizeof *e);
    e->node_offset = node;
    if (!read_uleb(&t->buf, &at, end, &e->flags))
        return trie_error(t, node, "export flags truncated", err);
    if (e->flags & TD_MACHO_EXPORT_REEXPORT) {
        if (!read_uleb(&t->buf, &at, end, &e->ordinal))
            return trie_error(t, node, "re-export ordinal truncated", err);
        e->imported = at < end ? td_buf_cstr(&t->buf, at, (size_t)(end - at)) : NULL;
        if (!e->imported)
            return trie_error(t, node, "re-exported name does not end inside the node", err);
        return 0;
    }
    if (!read_uleb(&t->buf, &at, end, &e->address))
        return trie_error(t, node, "export address truncated", err);
    if ((e->flags & TD_MACHO_EXPORT_STUB_AND_RESOLVER) &&
        !read_uleb(&t->buf, &at, end, &e->resolver))
        return trie_error(t, node, "resolver address truncated", err);
    return 0;
}

static int read_node(const struct trie *t, uint64_t off, struct trie_node *n, struct td_err *err)
{
    uint64_t at = off, terminal_size, end = t->buf.size;
    memset(n, 0, sizeof *n);
    n->off = off;
    if (!read_uleb(&t->buf, &at, end, &terminal_size))
        return trie_error(t, off, "terminal size truncated", err);
    if (terminal_size > end - at)
        return trie_error(t, off, "terminal size runs past the end of the trie", err);
    if (terminal_size) {
        n->terminal = true;
        if (read_export_info(t, off, at, at + terminal_size, &n->info, err) != 0)
            return -1;
    }
    at += terminal_size;
    if (!td_buf_u8(&t->buf, at, &n->nchildren))
        return trie_error(t, off, "child count past the end of the trie", err);
    n->children = at + 1;
    return 0;
}

/* One child entry at *CURSOR: an edge label (NUL-terminated, at most
 * LABEL_MAX bytes) and the child's trie offset. */
static int read_child(const struct trie *t, uint64_t node, uint64_t *cursor, size_t label_max,
                      const char **label, size_t *label_len, uint64_t *child, struct td_err *err)
{
    *label = td_buf_cstr(&t->buf, *cursor, label_max + 1);
    if (!*label)
        return trie_error(t, node, "edge label does not end inside the trie or is too long", err);
    *label_len = strlen(*label);
    *cursor += *label_len + 1;
    if (!read_uleb(&t->buf, cursor, t->buf.size, child))
        return trie_error(t, node, "child offset truncated", err);
    if (*child >= t->buf.size)
        return trie_error(t, node, "child offset lies outside the trie", err);
    return 0;
}

/* Opens the trie. An image with no trie command keeps its exports only in
 * the symbol table, which this walk does not read: "not parsed", not "none".
 * A trie command of size 0 does mean no exports. */
static int trie_open(const struct td_macho *m, struct trie *t, struct td_err *err)
{
    if (m->trie_source == TD_MACHO_TRIE_NONE) {
        td_err_set(err, "exports not parsed: no LC_DYLD_INFO or LC_DYLD_EXPORTS_TRIE (the "
                        "symbol table's defined externals are the exports)");
        return -1;
    }
    /* td_macho_parse checked the trie lies inside the image. */
    t->buf = td_buf_make(m->buf.data + m->export_off, m->export_size, m->buf.big_endian);
    t->base = m->export_off;
    return m->export_size ? 1 : 0;
}

struct walk_frame {
    uint64_t cursor; /* next child entry */
    uint32_t children_left;
    size_t name_len;
};

struct walk {
    struct trie trie;
    char *name;
    size_t name_cap; /* longest name: no longer than the trie, whose labels it joins */
    struct walk_frame *stack;
    uint8_t *visited; /* one bit per trie byte: nodes already entered */
    unsigned depth;
};

/* Enters the node at OFF: marks it visited, reports it if terminal, and
 * pushes a frame for its children. */
static int walk_enter(struct walk *w, uint64_t off, size_t name_len, td_macho_export_fn fn,
                      void *ctx, int *stop, struct td_err *err)
{
    struct trie_node n;
    if (w->visited[off / 8] & (1u << (off % 8)))
        return trie_error(&w->trie, off, "reached twice (a cycle or a shared node)", err);
    w->visited[off / 8] |= (uint8_t)(1u << (off % 8));
    if (w->depth >= TD_MACHO_TRIE_MAX_DEPTH)
        return trie_error(&w->trie, off, "deeper than 128 levels", err);
    if (read_node(&w->trie, off, &n, err) != 0)
        return -1;
    if (n.terminal) {
        w->name[name_len] = '\0';
        n.info.name = w->name;
        *stop = fn(ctx, &n.info);
    }
    struct walk_frame *f = &w->stack[w->depth++];
    f->cursor = n.children;
    f->children_left = n.nchildren;
    f->name_len = name_len;
    return 0;
}

static int walk_run(struct walk *w, td_macho_export_fn fn, void *ctx, struct td_err *err)
{
    int stop = 0;
    if (walk_enter(w, 0, 0, fn, ctx, &stop, err) != 0)
        return -1;
    while (w->depth > 0 && !stop) {
        struct walk_frame *f = &w->stack[w->depth - 1];
        if (f->children_left == 0) {
            w->depth--;
            continue;
        }
        f->children_left--;
        const char *label;
        size_t label_len;
        uint64_t child, node = f->cursor;
        if (read_child(&w->trie, node, &f->cursor, w->name_cap - f->name_len, &label, &label_len,
                       &child, err) != 0)
            return -1;
        memcpy(w->name + f->name_len, label, label_len);
        if (walk_enter(w, child, f->name_len + label_len, fn, ctx, &stop, err) != 0)
            return -1;
    }
    return 0;
}

int td_macho_exports_walk(const struct td_macho *m, struct td_arena *arena, td_macho_export_fn fn,
                          void *ctx, struct td_err *err)
{
    struct walk w = {0};
    if (m->trie_source == TD_MACHO_TRIE_NONE)
        return 0; /* documented: trie_source itself says the trie was not there */
    int opened = trie_open(m, &w.trie, err);
    if (opened <= 0)
        return opened;
    w.name_cap = w.trie.buf.size < TD_MACHO_NAME_MAX ? w.trie.buf.size : TD_MACHO_NAME_MAX;
    w.name = td_arena_alloc(arena, w.name_cap + 1);
    w.stack = td_arena_array(arena, TD_MACHO_TRIE_MAX_DEPTH, sizeof *w.stack);
    w.visited = td_arena_alloc(arena, w.trie.buf.size / 8 + 1);
    if (!w.name || !w.stack || !w.visited) {
        td_err_set(err, "export trie at offset 0x%" PRIx64 ": arena cap reached for its walk",
                   w.trie.base);
        return -1;
    }
    return walk_run(&w, fn, ctx, err);
}

/* Finds the child of node N whose edge label is a prefix of NAME. */
static int find_child(const struct trie *t, const struct trie_node *n, const char *name,
                      size_t *consumed, uint64_t *child, struct td_err *err)
{
    uint64_t cursor = n->children;
    for (unsigned i = 0; i < n->nchildren; i++) {
        const char *label;
        size_t label_len;
        if (read_child(t, n->off, &cursor, TD_MACHO_NAME_MAX, &label, &label_len, child, err) != 0)
            return -1;
        if (label_len > 0 && strncmp(name, label, label_len) == 0) {
            *consumed = label_len;
            return 1;
        }
    }
    return 0;
}

int td_macho_export_find(const struct td_macho *m, const char *name, struct td_macho_export *out,
                         struct td_err *err)
{
    struct trie t;
    struct trie_node n;
    uint64_t off = 0;
    const char *wanted = name;
    int opened = trie_open(m, &t, err);
    if (opened <= 0)
        return opened;
    for (unsigned depth = 0;; depth++) {
        if (depth > TD_MACHO_TRIE_MAX_DEPTH)
            return trie_error(&t, off, "deeper than 128 levels", err);
        if (read_node(&t, off, &n, err) != 0)
            return -1;
        if (*name == '\0') {
            if (!n.terminal)
                return 0;
            *out = n.info;
            out->name = wanted;
            return 1;
        }
        size_t consumed;
        int found = find_child(&t, &n, name, &consumed, &off, err);
        if (found <= 0)
            return found;
        name += consumed;
    }
}

/* ---- nlist symbol table ---- */

struct nlist {
    uint32_t strx;
    uint8_t type;
    uint16_t desc;
    uint64_t value;
};

static int read_nlist(const struct td_macho *m, uint32_t index, struct nlist *s, struct td_err *err)
{
    uint64_t entsize = m->is_64 ? 16 : 12;
    uint64_t off = m->symoff + index * entsize; /* inside: checked by td_macho_parse */
    if (!td_buf_u32(&m->buf, off, &s->strx) || !td_buf_u8(&m->buf, off + 4, &s->type) ||
        !td_buf_u16(&m->buf, off + 6, &s->desc) ||
        !td_buf_word(&m->buf, off + 8, m->is_64 ? 8 : 4, &s->value)) {
        td_err_set(err, "symbol %" PRIu32 " at offset 0x%" PRIx64 ": truncated", index, off);
        return -1;
    }
    return 0;
}

static const char *symbol_name(const struct td_macho *m, uint32_t index, uint32_t strx,
                               struct td_err *err)
{
    struct td_buf strtab = td_buf_make(m->buf.data + m->stroff, m->strsize, m->buf.big_endian);
    const char *s = td_buf_cstr(&strtab, strx, 0);
    if (!s)
        td_err_set(err,
                   "symbol %" PRIu32 " at offset 0x%" PRIx64 ": n_strx 0x%" PRIx32
                   " does not name a string inside the string table (size 0x%" PRIx32 ")",
                   index, m->symoff + (uint64_t)index * (m->is_64 ? 16 : 12), strx, m->strsize);
    return s;
}

/* nlist.h: undefined is N_UNDF with N_EXT; with a nonzero n_value it is a
 * common symbol instead, and stabs (N_STAB bits) are debug records. */
static bool is_undefined(const struct nlist *s)
{
    return !(s->type & N_STAB) && (s->type & N_TYPE) == N_UNDF && (s->type & N_EXT) &&
           s->value == 0;
}

static bool is_defined_external(const struct nlist *s)
{
    return !(s->type & N_STAB) && (s->type & N_TYPE) != N_UNDF && (s->type & N_EXT);
}

static int need_symtab(const struct td_macho *m, struct td_err *err)
{
    if (m->has_symtab)
        return 0;
    td_err_set(err, "symbols not parsed: the image has no LC_SYMTAB");
    return -1;
}

int td_macho_undefined_walk(const struct td_macho *m, td_macho_undef_fn fn, void *ctx,
                            struct td_err *err)
{
    if (need_symtab(m, err) != 0)
        return -1;
    uint32_t first = m->has_dysymtab ? m->iundefsym : 0;
    uint32_t count = m->has_dysymtab ? m->nundefsym : m->nsyms;
    for (uint32_t i = first; i - first < count; i++) {
        struct nlist s;
        if (read_nlist(m, i, &s, err) != 0)
            return -1;
        if (!is_undefined(&s))
            continue;
        struct td_macho_undef u = {.index = i};
        u.name = symbol_name(m, i, s.strx, err);
        if (!u.name)
            return -1;
        u.library_ordinal = (s.desc >> 8) & 0xff; /* nlist.h GET_LIBRARY_ORDINAL */
        u.weak_ref = (s.desc & N_WEAK_REF) != 0;
        if (fn(ctx, &u))
            return 0;
    }
    return 0;
}

int td_macho_symbol_counts(const struct td_macho *m, uint32_t *defined_ext, uint32_t *undefined,
                           struct td_err *err)
{
    if (need_symtab(m, err) != 0)
        return -1;
    *defined_ext = *undefined = 0;
    if (m->has_dysymtab) {
        *defined_ext = m->nextdefsym;
        *undefined = m->nundefsym;
        return 0;
    }
    for (uint32_t i = 0; i < m->nsyms; i++) {
        struct nlist s;
        if (read_nlist(m, i, &s, err) != 0)
            return -1;
        *defined_ext += is_defined_external(&s);
        *undefined += is_undefined(&s);
    }
    return 0;
}

/* ---- chained fixups imports ---- */

/* <mach-o/fixup-chains.h> */
#define CHAINED_IMPORT 1
#define CHAINED_IMPORT_ADDEND 2
#define CHAINED_IMPORT_ADDEND64 3
#define CHAINED_HEADER_SIZE 28u

struct fixups {
    struct td_buf buf;
    uint64_t base;
    uint32_t imports_offset, symbols_offset, count, format;
};

static int fixups_error(const struct fixups *f, const char *what, struct td_err *err)
{
    td_err_set(err, "chained fixups header at offset 0x%" PRIx64 ": %s", f->base, what);
    return -1;
}

static int read_fixups_header(const struct td_macho *m, struct fixups *f, struct td_err *err)
{
    uint32_t version, symbols_format;
    static const uint32_t import_size[] = {0, 4, 8, 16};
    f->buf =
        td_buf_make(m->buf.data + m->chained_fixups_off, m->chained_fixups_size, m->buf.big_endian);
    f->base = m->chained_fixups_off;
    if (!td_buf_has(&f->buf, 0, CHAINED_HEADER_SIZE))
        return fixups_error(f, "truncated", err);
    td_buf_u32(&f->buf, 0, &version);
    td_buf_u32(&f->buf, 8, &f->imports_offset);
    td_buf_u32(&f->buf, 12, &f->symbols_offset);
    td_buf_u32(&f->buf, 16, &f->count);
    td_buf_u32(&f->buf, 20, &f->format);
    td_buf_u32(&f->buf, 24, &symbols_format);
    if (version != 0)
        return fixups_error(f, "fixups_version is not 0", err);
    if (symbols_format != 0)
        return fixups_error(f, "compressed symbol names are not parsed", err);
    if (f->format < CHAINED_IMPORT || f->format > CHAINED_IMPORT_ADDEND64)
        return fixups_error(f, "imports_format not parsed (not 1, 2 or 3)", err);
    if (!td_buf_has_array(&f->buf, f->imports_offset, f->count, import_size[f->format]))
        return fixups_error(f, "imports table runs past the end of the fixups", err);
    return 0;
}

/* Ordinals above 0xf0 (0xfff0 for the 16-bit field) are the negative
 * specials: -1 main executable, -2 flat lookup, -3 weak lookup. */
static int32_t sign_ordinal(uint32_t raw, unsigned bits)
{
    uint32_t top = (1u << bits) - 1;
    return raw > top - 0x0f ? (int32_t)raw - (int32_t)(top + 1) : (int32_t)raw;
}

static void read_import(const struct fixups *f, uint32_t i, struct td_macho_import *imp,
                        uint32_t *name_off)
{
    uint32_t word;
    memset(imp, 0, sizeof *imp);
    imp->index = i;
    if (f->format == CHAINED_IMPORT_ADDEND64) {
        uint64_t bits;
        td_buf_u64(&f->buf, f->imports_offset + (uint64_t)i * 16, &bits);
        td_buf_u64(&f->buf, f->imports_offset + (uint64_t)i * 16 + 8, &imp->addend);
        imp->lib_ordinal = sign_ordinal(bits & 0xffff, 16);
        imp->weak_import = (bits >> 16) & 1;
        *name_off = (uint32_t)(bits >> 32);
        return;
    }
    uint64_t size = f->format == CHAINED_IMPORT ? 4 : 8;
    td_buf_u32(&f->buf, f->imports_offset + i * size, &word);
    if (f->format == CHAINED_IMPORT_ADDEND) {
        uint32_t addend;
        td_buf_u32(&f->buf, f->imports_offset + i * size + 4, &addend);
        imp->addend = (uint64_t)(int64_t)(int32_t)addend;
    }
    imp->lib_ordinal = sign_ordinal(word & 0xff, 8);
    imp->weak_import = (word >> 8) & 1;
    *name_off = word >> 9;
}

int td_macho_chained_imports_walk(const struct td_macho *m, td_macho_import_fn fn, void *ctx,
                                  struct td_err *err)
{
    struct fixups f;
    if (!m->has_chained_fixups) {
        td_err_set(err, "chained fixups not parsed: the image has no LC_DYLD_CHAINED_FIXUPS");
        return -1;
    }
    if (read_fixups_header(m, &f, err) != 0)
        return -1;
    for (uint32_t i = 0; i < f.count; i++) {
        struct td_macho_import imp;
        uint32_t name_off;
        uint64_t at;
        read_import(&f, i, &imp, &name_off);
        imp.name = td_add_u64(f.symbols_offset, name_off, &at) ? td_buf_cstr(&f.buf, at, 0) : NULL;
        if (!imp.name) {
            char what[96];
            snprintf(what, sizeof what,
                     "import %" PRIu32 " names offset 0x%" PRIx32 " outside the symbol strings", i,
                     name_off);
            return fixups_error(&f, what, err);
        }
        if (fn(ctx, &imp))
            return 0;
    }
    return 0;
}
