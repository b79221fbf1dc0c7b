/* ELF reader, part 3: dynamic symbols read on demand, and symbol lookup by
 * name the way glibc's ld.so does it in one object (elf/dl-lookup.c):
 * DT_GNU_HASH bloom filter and bucket chain, else DT_HASH, then check_match. */
#include "format/elf.h"

#include <string.h>

uint32_t td_elf_gnu_hash(const char *name)
{
    uint32_t h = 5381;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = h * 33 + *p;
    return h;
}

/* gABI "Hash Table" reference function. */
uint32_t td_elf_sysv_hash(const char *name)
{
    uint32_t h = 0;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        h = (h << 4) + *p;
        uint32_t g = h & 0xf0000000u;
        if (g)
            h ^= g >> 24;
        h &= ~g;
    }
    return h;
}

/* Little-endian fields, written so that compilers emit one load on
 * little-endian hosts (a loop of shifts was 130 instructions a symbol). */
static inline uint16_t le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le64(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
           (uint64_t)p[7] << 56;
}

/* The fields of S from its info and other bytes and its section index. */
static inline __attribute__((always_inline)) void set_sym_kind(struct td_elf_sym *s, uint8_t info,
                                                               uint8_t other)
{
    s->type = info & 0xf;
    s->bind = info >> 4;
    s->visibility = other & 3;
    s->defined = s->shndx != TD_SHN_UNDEF;
}

/* A little-endian ELF64 entry P (24 bytes, in the buffer) but its name.
 * Always inlined: a call per symbol of a walk was 19 of its 82
 * instructions on libtorch_cpu. */
static inline __attribute__((always_inline)) void decode_sym64(const uint8_t *p,
                                                               struct td_elf_sym *s)
{
    s->shndx = le16(p + 6);
    s->value = le64(p + 8);
    s->size = le64(p + 16);
    set_sym_kind(s, p[4], p[5]);
}

static void read_sym_fields(const struct td_elf *elf, uint64_t at, struct td_elf_sym *s)
{
    uint8_t info = 0, other = 0;
    /* The common case, little-endian ELF64 with the whole entry in the
     * buffer, decoded from one bounds check. */
    const uint8_t *p = elf->is64 && !elf->big_endian ? td_buf_at(&elf->buf, at, 24) : NULL;
    if (p) {
        decode_sym64(p, s);
        return;
    }
    if (elf->is64) {
        td_buf_u8(&elf->buf, at + 4, &info);
        td_buf_u8(&elf->buf, at + 5, &other);
        td_buf_u16(&elf->buf, at + 6, &s->shndx);
        td_buf_u64(&elf->buf, at + 8, &s->value);
        td_buf_u64(&elf->buf, at + 16, &s->size);
    } else {
        s->value = td_elf_u32(elf, at + 4);
        s->size = td_elf_u32(elf, at + 8);
        td_buf_u8(&elf->buf, at + 12, &info);
        td_buf_u8(&elf->buf, at + 13, &other);
        td_buf_u16(&elf->buf, at + 14, &s->shndx);
    }
    set_sym_kind(s, info, other);
}

/* Fills the version fields from the DT_VERSYM entry VS; false when it
 * names no version the tables define (a corrupt versym entry). */
static bool set_sym_version(const struct td_elf *elf, uint16_t vs, struct td_elf_sym *s)
{
    s->version_index = vs & 0x7fff;
    s->version_hidden = (vs & TD_VERSYM_HIDDEN) != 0;
    if (s->version_index < 2) /* 0 local, 1 global: unversioned */
        return true;
    if (s->version_index >= elf->version_slots || !elf->versions[s->version_index].name)
        return false;
    s->version = elf->versions[s->version_index].name;
    s->version_file = elf->versions[s->version_index].file;
    return true;
}

static bool read_sym_version(const struct td_elf *elf, uint32_t index, struct td_elf_sym *s)
{
    uint16_t vs = 1;
    if (elf->has_versym)
        td_buf_u16(&elf->buf, elf->versym_off + 2ull * index, &vs);
    return set_sym_version(elf, vs, s);
}

/* Starts fetching the name at string-table offset OFF of STRTAB (SIZE
 * bytes): callers walk symbols in index order, and names lie in
 * string-table order, not symbol order, so a walk that fetches a later
 * symbol's name now does not wait on a cache miss per name. Three cache
 * lines: a name spans two or three (libtorch_cpu's C++ names: 77 bytes on
 * average, 96% within three lines); fetching the first only left the
 * reads of the others a tenth of inspect --symbols' time. Always inlined:
 * GCC 12 finds a function that only prefetches free of side effects and
 * deletes the calls to it. */
static inline __attribute__((always_inline)) void prefetch_name(const uint8_t *strtab,
                                                                uint64_t size, uint32_t off)
{
    if (!strtab || off >= size)
        return;
    __builtin_prefetch(strtab + off);
    __builtin_prefetch(strtab + off + 64);
    __builtin_prefetch(strtab + off + 128);
}

enum { NAME_AHEAD = 16 }; /* symbols: the names of a few hundred nanoseconds on */

/* The name and version of symbol INDEX, whose fields OUT holds already. */
static bool finish_sym(const struct td_elf *elf, uint32_t index, struct td_elf_sym *out)
{
    uint64_t at = elf->symtab_off + (uint64_t)index * elf->dyn.syment;
    out->name = td_elf_dynstr_room(elf, td_elf_u32(elf, at), &out->name_room);
    return out->name && read_sym_version(elf, index, out);
}

/* td_elf_dynsym without the name and the version: a lookup reads a
 * candidate's fields before its name, a count never reads the name. */
static bool dynsym_fields(const struct td_elf *elf, uint32_t index, struct td_elf_sym *out)
{
    memset(out, 0, sizeof *out);
    if (index >= elf->dynsym_count)
        return false;
    read_sym_fields(elf, elf->symtab_off + (uint64_t)index * elf->dyn.syment, out);
    return true;
}

bool td_elf_dynsym(const struct td_elf *elf, uint32_t index, struct td_elf_sym *out)
{
    uint64_t ahead_index = (uint64_t)index + NAME_AHEAD;
    uint32_t ahead;
    if (ahead_index < elf->dynsym_count &&
        td_buf_u32(&elf->buf, elf->symtab_off + ahead_index * elf->dyn.syment, &ahead))
        prefetch_name(td_buf_at(&elf->buf, elf->strtab_off, elf->strtab_size), elf->strtab_size,
                      ahead);
    return dynsym_fields(elf, index, out) && finish_sym(elf, index, out);
}

void td_elf_dynsym_walk_begin(struct td_elf_dynsym_walk *w, const struct td_elf *elf)
{
    uint64_t n = elf->dynsym_count;
    *w = (struct td_elf_dynsym_walk){.elf = elf, .next = n ? 1 : 0};
    if (!elf->is64 || elf->big_endian || elf->dyn.syment != 24)
        return;
    w->strtab = td_elf_dynstr_table(elf);
    w->versym = elf->has_versym ? td_buf_at(&elf->buf, elf->versym_off, 2 * n) : NULL;
    if (w->strtab && (w->versym || !elf->has_versym))
        w->syms = td_buf_at(&elf->buf, elf->symtab_off, 24 * n);
}

bool td_elf_dynsym_walk_next(struct td_elf_dynsym_walk *w, struct td_elf_sym *out)
{
    const struct td_elf *elf = w->elf;
    uint32_t i = w->next;
    if (i >= elf->dynsym_count) {
        memset(out, 0, sizeof *out);
        return false;
    }
    if (!w->syms) {
        if (!td_elf_dynsym(elf, i, out))
            return false;
        w->next++;
        return true;
    }
    memset(out, 0, sizeof *out);
    const uint8_t *p = w->syms + 24 * (size_t)i;
    if (i + NAME_AHEAD < elf->dynsym_count)
        prefetch_name((const uint8_t *)w->strtab, elf->strtab_size, le32(p + 24 * NAME_AHEAD));
    uint32_t name = le32(p);
    if (name >= elf->strtab_size)
        return false;
    decode_sym64(p, out);
    out->name = w->strtab + name;
    out->name_room = (size_t)(elf->strtab_size - name);
    if (!set_sym_version(elf, w->versym ? le16(w->versym + 2 * (size_t)i) : 1, out))
        return false;
    w->next++;
    return true;
}

int td_elf_dynsym_tally(const struct td_elf *elf, uint32_t *defined, uint32_t *undefined,
                        struct td_err *err)
{
    struct td_elf_sym s;
    *defined = *undefined = 0;
    for (uint32_t i = 1; i < elf->dynsym_count; i++) {
        /* td_elf_dynsym without its prefetch of names a count never reads
         * (libtorch_cpu: 2.7 MB of string table, faulted in for nothing). */
        if (!dynsym_fields(elf, i, &s) || !finish_sym(elf, i, &s)) {
            td_err_set(err,
                       "dynamic symbol %u at offset 0x%llx: name outside DT_STRSZ or versym "
                       "index %u names no version",
                       i, (unsigned long long)(elf->symtab_off + (uint64_t)i * elf->dyn.syment),
                       s.version_index);
            return -1;
        }
        if (s.defined)
            (*defined)++;
        else
            (*undefined)++;
    }
    return 0;
}

/* ---- Lookup. ---- */

/* State of one lookup across the candidates of a chain (do_lookup_x). */
struct match_state {
    const char *name;
    size_t name_len;
    const char *version;
    uint32_t versioned_index; /* first non-hidden versioned candidate */
    int versioned_count;
};

static bool allowed_type(uint8_t type)
{
    /* dl-lookup.c ALLOWED_STT: only code and data definitions bind. */
    return type == TD_STT_NOTYPE || type == TD_STT_OBJECT || type == TD_STT_FUNC ||
           type == TD_STT_COMMON || type == TD_STT_TLS || type == TD_STT_GNU_IFUNC;
}

bool td_elf_symfields_can_define(const struct td_elf_symfields *f)
{
    if (f->shndx == TD_SHN_UNDEF ||
        (f->value_zero && f->shndx != TD_SHN_ABS && f->type != TD_STT_TLS))
        return false;
    return allowed_type(f->type) && f->bind != TD_STB_LOCAL; /* do_lookup_x ignores locals */
}

/* The version rule of glibc 2.36 elf/dl-lookup.c check_match, for a
 * reference that is not itself marked hidden and a normal (not dlsym) lookup:
 *  - an object without DT_VERSYM satisfies any reference;
 *  - a versioned reference (WANT set) takes the definition whose versym
 *    index names exactly that version; a definition whose index names no
 *    version (0 local, 1 global when there is no verdef) also satisfies it,
 *    unless its hidden bit is set; anything else is rejected;
 *  - an unversioned reference takes a definition with versym index 0, 1 or
 *    2 at once (2 is the oldest defined version; its hidden bit does not
 *    matter); a definition at index >= 3 is taken only if it is the single
 *    non-hidden one in the chain (the "@@" default); hidden ones never are. */
enum td_elf_version_verdict td_elf_version_check(const struct td_elf *elf, uint16_t versym,
                                                 const char *want)
{
    if (!elf->has_versym)
        return TD_ELF_VERSION_ACCEPT;
    uint16_t index = versym & 0x7fff;
    bool hidden = (versym & TD_VERSYM_HIDDEN) != 0;
    if (want) {
        const char *have = index < elf->version_slots ? elf->versions[index].name : NULL;
        if (have)
            return strcmp(have, want) == 0 ? TD_ELF_VERSION_ACCEPT : TD_ELF_VERSION_REJECT;
        return hidden ? TD_ELF_VERSION_REJECT : TD_ELF_VERSION_ACCEPT;
    }
    if (index < 3)
        return TD_ELF_VERSION_ACCEPT;
    return hidden ? TD_ELF_VERSION_REJECT : TD_ELF_VERSION_ONLY_IF_SINGLE;
}

static bool version_matches(const struct td_elf *elf, const struct td_elf_sym *s, uint32_t index,
                            struct match_state *st)
{
    uint16_t versym = (uint16_t)(s->version_index | (s->version_hidden ? TD_VERSYM_HIDDEN : 0));
    switch (td_elf_version_check(elf, versym, st->version)) {
    case TD_ELF_VERSION_ACCEPT:
        return true;
    case TD_ELF_VERSION_ONLY_IF_SINGLE:
        if (st->versioned_count++ == 0)
            st->versioned_index = index;
        return false;
    default:
        return false;
    }
}

/* True when the string at INDEX of the dynamic string table is NAME (LEN
 * bytes and its NUL, all inside DT_STRSZ): what td_elf_dynstr and strcmp
 * would say, without first scanning for the end of the stored name. */
static bool name_is(const struct td_elf *elf, uint64_t index, const char *name, size_t len)
{
    if (index >= elf->strtab_size || len >= elf->strtab_size - index)
        return false;
    const uint8_t *p = td_buf_at(&elf->buf, elf->strtab_off + index, len + 1);
    return p && memcmp(p, name, len + 1) == 0;
}

static bool check_match(const struct td_elf *elf, uint32_t index, struct match_state *st,
                        struct td_elf_sym *out)
{
    struct td_elf_sym s;
    uint64_t at = elf->symtab_off + (uint64_t)index * elf->dyn.syment;
    /* The entry's fields first, then its name, then the whole symbol. */
    if (!dynsym_fields(elf, index, &s))
        return false;
    struct td_elf_symfields f = {0, s.type, s.bind, s.shndx, s.value == 0};
    if (!td_elf_symfields_can_define(&f))
        return false;
    if (!name_is(elf, td_elf_u32(elf, at), st->name, st->name_len) || !finish_sym(elf, index, &s) ||
        !version_matches(elf, &s, index, st))
        return false;
    *out = s;
    return true;
}

static bool bloom_may_hold(const struct td_elf *elf, uint32_t h)
{
    const struct td_elf_gnu_hash *g = &elf->gnu;
    unsigned bits = elf->is64 ? 64 : 32;
    uint64_t word = 0;
    td_buf_word(&elf->buf, g->bloom_off + (uint64_t)((h / bits) % g->bloom_size) * (bits / 8),
                bits / 8, &word);
    uint64_t mask = (uint64_t)1 << (h % bits) | (uint64_t)1 << ((h >> g->bloom_shift) % bits);
    return (word & mask) == mask;
}

static bool lookup_gnu(const struct td_elf *elf, uint32_t h, struct match_state *st,
                       struct td_elf_sym *out)
{
    const struct td_elf_gnu_hash *g = &elf->gnu;
    if (!bloom_may_hold(elf, h))
        return false;
    uint32_t i = td_elf_u32(elf, g->buckets_off + 4ull * (h % g->nbuckets));
    if (i == 0 || i < g->symoffset)
        return false;
    /* The chain is bounded by the symbol count and by its segment. */
    for (; i < elf->dynsym_count && 4ull * (i - g->symoffset + 1) <= g->chain_avail; i++) {
        uint32_t ch = td_elf_u32(elf, g->chain_off + 4ull * (i - g->symoffset));
        if (((ch ^ h) >> 1) == 0 && check_match(elf, i, st, out))
            return true;
        if (ch & 1)
            break;
    }
    return false;
}

static uint64_t sysv_word(const struct td_elf *elf, uint64_t off)
{
    uint64_t v = 0;
    td_buf_word(&elf->buf, off, elf->sysv.width, &v);
    return v;
}

static bool lookup_sysv(const struct td_elf *elf, uint32_t h, struct match_state *st,
                        struct td_elf_sym *out)
{
    const struct td_elf_sysv_hash *t = &elf->sysv;
    uint64_t i = sysv_word(elf, t->buckets_off + (h % t->nbucket) * t->width);
    /* At most nchain steps: a chain that loops is cut off there. */
    for (uint64_t steps = 0; i != 0 && i < t->nchain && steps < t->nchain; steps++) {
        if (check_match(elf, (uint32_t)i, st, out))
            return true;
        i = sysv_word(elf, t->chain_off + i * t->width);
    }
    return false;
}

bool td_elf_lookup(const struct td_elf *elf, const char *name, uint32_t gnu_hash,
                   const char *version, struct td_elf_sym *out)
{
    struct match_state st = {name, strlen(name), version, 0, 0};
    bool found;
    memset(out, 0, sizeof *out);
    if (!elf->dynsym_count)
        return false;
    if (elf->has_gnu_hash)
        found = lookup_gnu(elf, gnu_hash, &st, out);
    else if (elf->has_sysv_hash)
        found = lookup_sysv(elf, td_elf_sysv_hash(name), &st, out);
    else
        return false;
    if (found)
        return true;
    /* do_lookup_x: one versioned definition seen for an unversioned
     * reference is accepted, as there is no ambiguity. */
    if (st.versioned_count == 1)
        return td_elf_dynsym(elf, st.versioned_index, out);
    return false;
}
