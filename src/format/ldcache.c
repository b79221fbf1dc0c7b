/* ld.so.cache parsing: finds the old and new tables and the extension
 * directory, and decodes single entries on demand. Layouts are those of
 * glibc 2.36 sysdeps/generic/dl-cache.h; acceptance rules those of
 * elf/dl-cache.c _dl_load_cache_lookup and cache_extension_load. */
#include "format/ldcache.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char old_magic[] = "ld.so-1.7.0";          /* CACHEMAGIC */
static const char new_magic[] = "glibc-ld.so.cache1.1"; /* CACHEMAGIC_VERSION_NEW */

enum {
    OLD_HEADER_SIZE = 16, /* char magic[11]; uint32 nlibs (aligned to 4) */
    OLD_ENTRY_SIZE = 12,  /* struct file_entry {int32 flags; uint32 key, value} */
    NEW_HEADER_SIZE = 48, /* struct cache_file_new */
    NEW_ENTRY_SIZE = 24,  /* struct file_entry_new */
    NEW_NLIBS = 20,
    NEW_LEN_STRINGS = 24,
    NEW_FLAGS = 28,
    NEW_EXTENSION_OFFSET = 32,
    EXT_HEADER_SIZE = 8,   /* struct cache_extension {magic, count} */
    EXT_SECTION_SIZE = 16, /* struct cache_extension_section {tag, flags, offset, size} */
    EXT_TAG_GENERATOR = 0,
    EXT_TAG_GLIBC_HWCAPS = 1,
    ENDIAN_MASK = 3, /* cache_file_new_flags_endian_* */
    ENDIAN_LITTLE = 2,
    ENDIAN_BIG = 3,
};

/* dl-cache.h: cache_extension_magic = (uint32_t) -358342284. */
#define EXT_MAGIC UINT32_C(0xeaa42174)

static bool has_magic(const struct td_buf *b, uint64_t off, const char *magic, size_t len)
{
    return td_buf_has(b, off, len) && memcmp(b->data + off, magic, len) == 0;
}

/* True when COUNT entries of SIZE bytes fit after a header of HEADER bytes
 * at OFF: dl-cache.c's "(cachesize - sizeof header) / entry >= nlibs". */
static bool table_fits(const struct td_buf *b, uint64_t off, uint64_t header, uint32_t count,
                       uint64_t size)
{
    uint64_t start;
    return td_add_u64(off, header, &start) && td_buf_has_array(b, start, count, size);
}

/* Reads NLIBS at OFF in the byte order the cache declares, or, when it
 * declares none, in the order under which the table fits the file. */
static bool pick_byte_order(struct td_buf *b, uint64_t off, uint64_t nlibs_at, uint64_t header,
                            uint64_t entry_size, uint32_t *nlibs)
{
    for (int big = 0; big < 2; big++) {
        b->big_endian = big;
        if (td_buf_u32(b, nlibs_at, nlibs) && table_fits(b, off, header, *nlibs, entry_size))
            return true;
    }
    b->big_endian = false;
    return false;
}

/* dl-cache.h cache_file_new_matches_endian: flags 0 means "unknown";
 * otherwise the endian bits must name the machine's byte order. */
static int read_new_header(struct td_ldcache *c, uint64_t off, struct td_err *err)
{
    struct td_buf *b = &c->buf;
    uint8_t flags = 0;
    uint32_t nlibs = 0;
    td_buf_u8(b, off + NEW_FLAGS, &flags);
    if (flags != 0) {
        unsigned endian = flags & ENDIAN_MASK;
        if (endian != ENDIAN_LITTLE && endian != ENDIAN_BIG) {
            td_err_set(err,
                       "ld.so.cache new header at offset 0x%" PRIx64
                       ": flags 0x%x name no byte order (ldconfig marked the cache invalid)",
                       off, flags);
            return -1;
        }
        b->big_endian = endian == ENDIAN_BIG;
        c->endian_declared = true;
        td_buf_u32(b, off + NEW_NLIBS, &nlibs);
        if (!table_fits(b, off, NEW_HEADER_SIZE, nlibs, NEW_ENTRY_SIZE))
            goto too_many;
    } else if (!pick_byte_order(b, off, off + NEW_NLIBS, NEW_HEADER_SIZE, NEW_ENTRY_SIZE, &nlibs)) {
        td_buf_u32(b, off + NEW_NLIBS, &nlibs);
        goto too_many;
    }
    td_buf_u32(b, off + NEW_LEN_STRINGS, &c->len_strings);
    c->new_header = off;
    c->table.offset = off + NEW_HEADER_SIZE;
    c->table.count = nlibs;
    c->table.entry_size = NEW_ENTRY_SIZE;
    /* dl-cache.c: new-format string indices count from the new header, and
     * search_cache is given the whole file size as the bound. */
    c->table.strings = off;
    c->table.string_size = b->size;
    return 0;
too_many:
    td_err_set(err,
               "ld.so.cache new header at offset 0x%" PRIx64
               ": nlibs %u entries of %d bytes do not fit in the file (0x%zx bytes)",
               off, nlibs, NEW_ENTRY_SIZE, b->size);
    return -1;
}

static void old_table(struct td_ldcache_table *t, size_t file_size, uint32_t nlibs)
{
    t->offset = OLD_HEADER_SIZE;
    t->count = nlibs;
    t->entry_size = OLD_ENTRY_SIZE;
    /* dl-cache.c: old-format strings start right after the last entry. */
    t->strings = OLD_HEADER_SIZE + (uint64_t)nlibs * OLD_ENTRY_SIZE;
    t->string_size = file_size - t->strings;
}

/* The new table hidden in an old file starts at ALIGN_CACHE(end of the old
 * table): 8-aligned where struct cache_file_new has 8-byte alignment
 * (x86_64), 4-aligned on i386. ldconfig pads the old table to an even count
 * so that both agree; a file from elsewhere may need the other. */
static int read_old_file(struct td_ldcache *c, struct td_err *err)
{
    struct td_buf *b = &c->buf;
    uint32_t nlibs = 0;
    if (b->size <= OLD_HEADER_SIZE) {
        td_err_set(err, "ld.so.cache old header at offset 0x0: file of %zu bytes is too small",
                   b->size);
        return -1;
    }
    if (!pick_byte_order(b, 0, 12, OLD_HEADER_SIZE, OLD_ENTRY_SIZE, &nlibs)) {
        td_buf_u32(b, 12, &nlibs);
        td_err_set(err,
                   "ld.so.cache old header at offset 0x0: nlibs %u entries of %d bytes do "
                   "not fit in the file (0x%zx bytes)",
                   nlibs, OLD_ENTRY_SIZE, b->size);
        return -1;
    }
    old_table(&c->table, b->size, nlibs);
    c->format = TD_LDCACHE_FORMAT_OLD;
    bool old_big = b->big_endian;
    uint64_t end = c->table.strings;
    uint64_t tries[2] = {(end + 7) & ~(uint64_t)7, end};
    for (int i = 0; i < 2; i++) {
        uint64_t off = tries[i];
        if (!td_buf_has(b, off, NEW_HEADER_SIZE) ||
            !has_magic(b, off, new_magic, sizeof new_magic - 1))
            continue;
        if (read_new_header(c, off, err) != 0)
            return -1;
        if (b->big_endian != old_big) {
            td_err_set(err,
                       "ld.so.cache new header at offset 0x%" PRIx64
                       ": byte order differs from the old table's",
                       off);
            return -1;
        }
        old_table(&c->old, b->size, nlibs);
        c->format = TD_LDCACHE_FORMAT_COMPAT;
        break;
    }
    return 0;
}

static int ext_fail(struct td_ldcache *c, const char *what, uint64_t off, uint64_t value)
{
    td_err_set(&c->ext_err,
               "ld.so.cache extension directory at offset 0x%" PRIx64 ": %s (0x%" PRIx64 ")", off,
               what, value);
    c->ext_status = TD_LDCACHE_EXT_MALFORMED;
    c->generator = NULL;
    c->generator_len = 0;
    c->hwcaps_count = 0;
    return -1;
}

/* True when [a, a + alen) and [b, b + blen) share a byte. */
static bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
    return alen && blen && a < b + blen && b < a + alen;
}

/* dl-cache.h cache_extension_verify: an empty, misaligned or ragged
 * glibc-hwcaps section is dropped, the rest of the directory kept. */
static void take_hwcaps_section(struct td_ldcache *c, uint32_t offset, uint32_t size)
{
    if (size == 0 || offset % 4 != 0 || size % 4 != 0) {
        c->hwcaps_offset = 0;
        c->hwcaps_count = 0;
        return;
    }
    c->hwcaps_offset = offset;
    c->hwcaps_count = size / 4;
}

static int read_section(struct td_ldcache *c, uint64_t dir, uint64_t dir_size, uint32_t i)
{
    const struct td_buf *b = &c->buf;
    uint64_t at = dir + EXT_HEADER_SIZE + (uint64_t)i * EXT_SECTION_SIZE;
    uint32_t tag, offset, size;
    td_buf_u32(b, at, &tag);
    td_buf_u32(b, at + 8, &offset);
    td_buf_u32(b, at + 12, &size);
    if (!td_buf_has(b, offset, size))
        return ext_fail(c, "a section's data extends past the end of the file", at, offset);
    if (overlaps(offset, size, dir, dir_size))
        return ext_fail(c, "a section's data overlaps the directory", at, offset);
    if (tag == EXT_TAG_GENERATOR) {
        c->generator = (const char *)b->data + offset;
        c->generator_len = size;
    } else if (tag == EXT_TAG_GLIBC_HWCAPS) {
        take_hwcaps_section(c, offset, size);
    }
    /* Other tags: dl-cache.h skips tags it does not know. */
    return 0;
}

/* dl-cache.h cache_extension_load. The directory offset counts from the
 * start of the file (ldconfig writes it so even in compat files). */
static void read_extensions(struct td_ldcache *c)
{
    const struct td_buf *b = &c->buf;
    uint32_t dir = 0, magic = 0, count = 0;
    td_buf_u32(b, c->new_header + NEW_EXTENSION_OFFSET, &dir);
    if (dir == 0)
        return;
    if (dir % 4 != 0) {
        ext_fail(c, "offset is not a multiple of 4", dir, dir);
        return;
    }
    if (!td_buf_u32(b, dir, &magic) || !td_buf_u32(b, dir + 4, &count)) {
        ext_fail(c, "header extends past the end of the file", dir, b->size);
        return;
    }
    if (magic != EXT_MAGIC) {
        ext_fail(c, "bad magic", dir, magic);
        return;
    }
    if (!td_buf_has_array(b, dir + EXT_HEADER_SIZE, count, EXT_SECTION_SIZE)) {
        ext_fail(c, "section count runs past the end of the file", dir, count);
        return;
    }
    uint64_t dir_size = EXT_HEADER_SIZE + (uint64_t)count * EXT_SECTION_SIZE;
    uint64_t table_end = c->table.offset + (uint64_t)c->table.count * c->table.entry_size;
    if (overlaps(dir, dir_size, c->new_header, table_end - c->new_header)) {
        ext_fail(c, "directory overlaps the header or the entries", dir, dir_size);
        return;
    }
    c->ext_status = TD_LDCACHE_EXT_LOADED;
    for (uint32_t i = 0; i < count; i++)
        if (read_section(c, dir, dir_size, i) != 0)
            return;
}

int td_ldcache_parse(struct td_ldcache *c, const uint8_t *data, size_t size, struct td_arena *arena,
                     struct td_err *err)
{
    memset(c, 0, sizeof *c);
    c->buf = td_buf_make(data, size, false);
    /* dl-cache.c tries the new format alone first, then the old one. */
    if (has_magic(&c->buf, 0, new_magic, sizeof new_magic - 1)) {
        if (size <= NEW_HEADER_SIZE) {
            td_err_set(err, "ld.so.cache new header at offset 0x0: file of %zu bytes is too small",
                       size);
            return -1;
        }
        if (read_new_header(c, 0, err) != 0)
            return -1;
        c->format = TD_LDCACHE_FORMAT_NEW;
    } else if (has_magic(&c->buf, 0, old_magic, sizeof old_magic - 1)) {
        if (read_old_file(c, err) != 0)
            return -1;
    } else {
        td_err_set(err, "ld.so.cache header at offset 0x0: no \"%s\" or \"%s\" magic", new_magic,
                   old_magic);
        return -1;
    }
    if (c->format != TD_LDCACHE_FORMAT_OLD)
        read_extensions(c);
    return 0;
}

/* String INDEX of table T, or NULL with ERR naming the entry. */
static const char *table_string(const struct td_ldcache *c, const struct td_ldcache_table *t,
                                uint32_t index, uint32_t entry, const char *field,
                                struct td_err *err)
{
    const char *s = NULL;
    if (index < t->string_size)
        s = td_buf_cstr(&c->buf, t->strings + index, TD_LDCACHE_STRING_LIMIT);
    if (!s)
        td_err_set(err, "ld.so.cache entry %u at offset 0x%" PRIx64 ": %s string index 0x%x %s",
                   entry, t->offset + (uint64_t)entry * t->entry_size, field, index,
                   index < t->string_size ? "names no NUL-terminated string inside the file"
                                          : "lies outside the string table");
    return s;
}

/* The glibc-hwcaps subdirectory name at section index I; like elf/cache.c
 * glibc_hwcaps_string, the string index counts from the file start. */
const char *td_ldcache_hwcaps_name(const struct td_ldcache *c, uint32_t i)
{
    uint32_t index;
    if (i >= c->hwcaps_count || !td_buf_u32(&c->buf, c->hwcaps_offset + 4 * (uint64_t)i, &index))
        return NULL;
    return td_buf_cstr(&c->buf, index, TD_LDCACHE_STRING_LIMIT);
}

/* dl-cache.h dl_cache_hwcap_extension: only DL_CACHE_HWCAP_EXTENSION set in
 * the high word, ignoring the ISA level bits. */
bool td_ldcache_is_hwcaps(uint64_t hwcap)
{
    return ((hwcap >> 32) & ~(uint64_t)TD_LDCACHE_HWCAP_ISA_LEVEL_MASK) ==
           (TD_LDCACHE_HWCAP_EXTENSION >> 32);
}

int td_ldcache_table_entry(const struct td_ldcache *c, const struct td_ldcache_table *t,
                           uint32_t index, struct td_ldcache_entry *e, struct td_err *err)
{
    const struct td_buf *b = &c->buf;
    uint32_t flags, key, value;
    memset(e, 0, sizeof *e);
    e->index = index;
    e->offset = t->offset + (uint64_t)index * t->entry_size;
    if (index >= t->count || !td_buf_u32(b, e->offset, &flags)) {
        td_err_set(err, "ld.so.cache entry %u: outside the table of %u entries", index, t->count);
        return -1;
    }
    td_buf_u32(b, e->offset + 4, &key);
    td_buf_u32(b, e->offset + 8, &value);
    e->flags = (int32_t)flags;
    if (t->entry_size == NEW_ENTRY_SIZE) {
        td_buf_u32(b, e->offset + 12, &e->osversion);
        td_buf_u64(b, e->offset + 16, &e->hwcap);
        e->hwcaps_entry = td_ldcache_is_hwcaps(e->hwcap);
    }
    if (e->hwcaps_entry) {
        e->hwcaps_index = (uint32_t)e->hwcap;
        e->isa_level = (uint32_t)(e->hwcap >> 32) & TD_LDCACHE_HWCAP_ISA_LEVEL_MASK;
        e->hwcaps_subdir = td_ldcache_hwcaps_name(c, e->hwcaps_index);
    }
    e->name = table_string(c, t, key, index, "name", err);
    e->path = table_string(c, t, value, index, "path", err);
    return e->name && e->path ? 0 : -1;
}

int td_ldcache_entry(const struct td_ldcache *c, uint32_t index, struct td_ldcache_entry *e,
                     struct td_err *err)
{
    return td_ldcache_table_entry(c, &c->table, index, e, err);
}

/* elf/cache.c print_entry: the ABI part of the flags. */
static const char *required_text(int32_t flags)
{
    switch (flags & TD_LDCACHE_FLAG_REQUIRED_MASK) {
    case TD_LDCACHE_FLAG_SPARC_LIB64:
    case TD_LDCACHE_FLAG_S390_LIB64:
    case TD_LDCACHE_FLAG_POWERPC_LIB64:
    case TD_LDCACHE_FLAG_MIPS64_LIBN64:
        return ",64bit";
    case TD_LDCACHE_FLAG_IA64_LIB64:
        return ",IA-64";
    case TD_LDCACHE_FLAG_X8664_LIB64:
        return ",x86-64";
    case TD_LDCACHE_FLAG_MIPS64_LIBN32:
        return ",N32";
    case TD_LDCACHE_FLAG_X8664_LIBX32:
        return ",x32";
    case TD_LDCACHE_FLAG_ARM_LIBHF:
        return ",hard-float";
    case TD_LDCACHE_FLAG_AARCH64_LIB64:
        return ",AArch64";
    case TD_LDCACHE_FLAG_ARM_LIBSF:
    case TD_LDCACHE_FLAG_RISCV_FLOAT_ABI_SOFT:
    case TD_LDCACHE_FLAG_LARCH_FLOAT_ABI_SOFT:
        return ",soft-float";
    case TD_LDCACHE_FLAG_MIPS_LIB32_NAN2008:
        return ",nan2008";
    case TD_LDCACHE_FLAG_MIPS64_LIBN32_NAN2008:
        return ",N32,nan2008";
    case TD_LDCACHE_FLAG_MIPS64_LIBN64_NAN2008:
        return ",64bit,nan2008";
    case TD_LDCACHE_FLAG_RISCV_FLOAT_ABI_DOUBLE:
    case TD_LDCACHE_FLAG_LARCH_FLOAT_ABI_DOUBLE:
        return ",double-float";
    case 0:
        return "";
    default:
        return NULL;
    }
}

void td_ldcache_flags_text(int32_t flags, char *out, size_t size)
{
    static const char *const types[] = {"libc4", "ELF", "libc5", "libc6"};
    unsigned type = (unsigned)flags & TD_LDCACHE_FLAG_TYPE_MASK;
    const char *type_text = type < 4 ? types[type] : "unknown";
    const char *required = required_text(flags);
    if (required)
        snprintf(out, size, "%s%s", type_text, required);
    else
        snprintf(out, size, "%s,%d", type_text, (int)(flags & TD_LDCACHE_FLAG_REQUIRED_MASK));
}

void td_ldcache_describe(const struct td_ldcache_entry *e, char *out, size_t size)
{
    static const char *const os_names[] = {"Linux",   "Hurd",     "Solaris",   "FreeBSD",
                                           "kNetBSD", "Syllable", "Unknown OS"};
    char flags[64];
    size_t n;
    td_ldcache_flags_text(e->flags, flags, sizeof flags);
    n = (size_t)snprintf(out, size, "%s", flags);
    if (n < size && e->hwcaps_subdir)
        n += (size_t)snprintf(out + n, size - n, ", hwcap: \"%s\"", e->hwcaps_subdir);
    else if (n < size && e->hwcap)
        n += (size_t)snprintf(out + n, size - n, ", hwcap: 0x%016" PRIx64, e->hwcap);
    if (n < size && e->osversion) {
        unsigned os = e->osversion >> 24;
        snprintf(out + n, size - n, ", OS ABI: %s %u.%u.%u", os_names[os > 6 ? 6 : os],
                 (e->osversion >> 16) & 0xff, (e->osversion >> 8) & 0xff, e->osversion & 0xff);
    }
}
