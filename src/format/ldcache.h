/* Reader for glibc's /etc/ld.so.cache, the table ldconfig writes and ld.so
 * searches by soname. Pure functions over a byte buffer: the loader model
 * reads the cache this way and never runs ldconfig. Layouts and rules follow
 * glibc 2.33-2.36 sysdeps/generic/dl-cache.h, elf/dl-cache.c and elf/cache.c. */
#ifndef TD_FORMAT_LDCACHE_H
#define TD_FORMAT_LDCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

/* Entry flags, as glibc's sysdeps/generic/ldconfig.h defines them: the low
 * byte is the library type, the high byte the ABI a 64-bit/variant ld.so
 * requires. */
#define TD_LDCACHE_FLAG_TYPE_MASK 0x00ff
#define TD_LDCACHE_FLAG_LIBC4 0x0000
#define TD_LDCACHE_FLAG_ELF 0x0001
#define TD_LDCACHE_FLAG_ELF_LIBC5 0x0002
#define TD_LDCACHE_FLAG_ELF_LIBC6 0x0003
#define TD_LDCACHE_FLAG_REQUIRED_MASK 0xff00
#define TD_LDCACHE_FLAG_SPARC_LIB64 0x0100
#define TD_LDCACHE_FLAG_IA64_LIB64 0x0200
#define TD_LDCACHE_FLAG_X8664_LIB64 0x0300
#define TD_LDCACHE_FLAG_S390_LIB64 0x0400
#define TD_LDCACHE_FLAG_POWERPC_LIB64 0x0500
#define TD_LDCACHE_FLAG_MIPS64_LIBN32 0x0600
#define TD_LDCACHE_FLAG_MIPS64_LIBN64 0x0700
#define TD_LDCACHE_FLAG_X8664_LIBX32 0x0800
#define TD_LDCACHE_FLAG_ARM_LIBHF 0x0900
#define TD_LDCACHE_FLAG_AARCH64_LIB64 0x0a00
#define TD_LDCACHE_FLAG_ARM_LIBSF 0x0b00
#define TD_LDCACHE_FLAG_MIPS_LIB32_NAN2008 0x0c00
#define TD_LDCACHE_FLAG_MIPS64_LIBN32_NAN2008 0x0d00
#define TD_LDCACHE_FLAG_MIPS64_LIBN64_NAN2008 0x0e00
#define TD_LDCACHE_FLAG_RISCV_FLOAT_ABI_SOFT 0x0f00
#define TD_LDCACHE_FLAG_RISCV_FLOAT_ABI_DOUBLE 0x1000
#define TD_LDCACHE_FLAG_LARCH_FLOAT_ABI_SOFT 0x1100
#define TD_LDCACHE_FLAG_LARCH_FLOAT_ABI_DOUBLE 0x1200

/* dl-cache.h: this hwcap bit marks an entry from a glibc-hwcaps
 * subdirectory; the low 32 bits index the glibc-hwcaps extension section
 * and bits 32..41 hold the x86 ISA level the library needs. */
#define TD_LDCACHE_HWCAP_EXTENSION (UINT64_C(1) << 62)
#define TD_LDCACHE_HWCAP_ISA_LEVEL_MASK 0x3ff
/* dl-cache.c (2.33-2.36): legacy "tls" subdirectory bit, never excluded. */
#define TD_LDCACHE_HWCAP_TLS (UINT64_C(1) << 63)

enum td_ldcache_format {
    TD_LDCACHE_FORMAT_OLD,    /* "ld.so-1.7.0" only (libc5, glibc 2.0/2.1) */
    TD_LDCACHE_FORMAT_COMPAT, /* old table with the new one inside its string table */
    TD_LDCACHE_FORMAT_NEW,    /* "glibc-ld.so.cache1.1" only (ldconfig default since 2.32) */
};

enum td_ldcache_ext_status {
    TD_LDCACHE_EXT_NONE,      /* old format, or extension_offset 0 */
    TD_LDCACHE_EXT_LOADED,    /* directory parsed */
    TD_LDCACHE_EXT_MALFORMED, /* ld.so ignores it: no glibc-hwcaps entry is usable */
};

/* Longest string read from the cache. ld.so could not open a longer path
 * anyway (PATH_MAX is 4096), and the bound keeps hostile files linear. */
#define TD_LDCACHE_STRING_LIMIT ((size_t)65536)

/* One table of entries: where it is, how large its entries are, and the
 * base its string offsets are relative to. */
struct td_ldcache_table {
    uint64_t offset;      /* file offset of entry 0 */
    uint32_t count;       /* nlibs */
    uint32_t entry_size;  /* 12 (old file_entry) or 24 (file_entry_new) */
    uint64_t strings;     /* file offset string indices are relative to */
    uint64_t string_size; /* dl-cache.c _dl_cache_verify_ptr bound: index < string_size */
};

struct td_ldcache {
    struct td_buf buf;
    enum td_ldcache_format format;
    bool endian_declared;          /* new header's flags byte names the byte order */
    struct td_ldcache_table table; /* the table ld.so searches (the new one when present) */
    struct td_ldcache_table old;   /* compat files: the old table too (count 0 otherwise) */
    uint64_t new_header;           /* file offset of the new header (NEW/COMPAT) */
    uint32_t len_strings;          /* header field, informational: glibc never checks it */

    enum td_ldcache_ext_status ext_status;
    struct td_err ext_err; /* why the extension directory is malformed */
    const char *generator; /* tag 0: ldconfig version string, not NUL-terminated */
    size_t generator_len;
    uint64_t hwcaps_offset; /* tag 1: array of uint32 string indices (from file start) */
    uint32_t hwcaps_count;  /* 0 when absent or dropped as invalid */
};

/* One decoded entry. Strings point into the parsed buffer. */
struct td_ldcache_entry {
    uint32_t index;
    uint64_t offset; /* file offset of the entry */
    int32_t flags;
    const char *name;          /* soname (key) */
    const char *path;          /* file ld.so would open (value) */
    uint32_t osversion;        /* new format only */
    uint64_t hwcap;            /* new format only */
    bool hwcaps_entry;         /* hwcap names a glibc-hwcaps subdirectory */
    uint32_t hwcaps_index;     /* low 32 bits of hwcap when hwcaps_entry */
    uint32_t isa_level;        /* bits 32..41 of hwcap when hwcaps_entry */
    const char *hwcaps_subdir; /* its name, NULL when unresolvable */
};

/* Which entries one ld.so accepts (its _dl_cache_check_flags) and which
 * flags value ends the search at once (_DL_CACHE_DEFAULT_ID). */
struct td_ldcache_abi {
    int32_t default_id;
    int32_t also_accepted; /* a second accepted flags value, or -1 */
    const char *name;      /* "x86_64", "i386", ... */
};

/* The ABI of the ld.so that would load an ELF object of this class
 * (1 = ELFCLASS32, 2 = ELFCLASS64), e_machine and e_flags. False for
 * machines glibc does not support. */
bool td_ldcache_abi_for_elf(unsigned elf_class, uint16_t machine, uint32_t e_flags,
                            struct td_ldcache_abi *abi);

/* True when ld.so with this ABI accepts an entry with these flags. */
bool td_ldcache_abi_accepts(const struct td_ldcache_abi *abi, int32_t flags);

/* Text ldconfig -p prints for the flags ("libc6,x86-64"), into out. */
void td_ldcache_flags_text(int32_t flags, char *out, size_t size);

/* The whole parenthesised description ldconfig -p prints for an entry
 * ("libc6,x86-64, hwcap: \"x86-64-v3\""), into out. */
void td_ldcache_describe(const struct td_ldcache_entry *e, char *out, size_t size);

/* Parses the header and locates the tables and the extension directory.
 * Entries are decoded on demand. Returns 0, or -1 with ERR set when ld.so
 * would not use the file at all. A malformed extension directory is not an
 * error here (ld.so still uses the plain entries): see ext_status. */
int td_ldcache_parse(struct td_ldcache *c, const uint8_t *data, size_t size, struct td_arena *arena,
                     struct td_err *err);

/* Decodes entry INDEX of the searched table (or of table T). Returns 0, or
 * -1 when the entry is outside the table or a string is unusable. */
int td_ldcache_entry(const struct td_ldcache *c, uint32_t index, struct td_ldcache_entry *e,
                     struct td_err *err);
int td_ldcache_table_entry(const struct td_ldcache *c, const struct td_ldcache_table *t,
                           uint32_t index, struct td_ldcache_entry *e, struct td_err *err);

/* True when a hwcap value marks a glibc-hwcaps entry (dl-cache.h
 * dl_cache_hwcap_extension). */
bool td_ldcache_is_hwcaps(uint64_t hwcap);

/* Name of glibc-hwcaps subdirectory I of the extension section, or NULL. */
const char *td_ldcache_hwcaps_name(const struct td_ldcache *c, uint32_t i);

/* glibc's _dl_cache_libcmp: runs of digits compare as numbers. The cache is
 * sorted in descending order of this comparison. */
int td_ldcache_libcmp(const char *a, const char *b);

/* What the process that looks a name up is like. */
struct td_ldcache_query {
    const char *soname;
    struct td_ldcache_abi abi;
    /* glibc-hwcaps subdirectories this ld.so would use, best first (e.g.
     * {"x86-64-v3", "x86-64-v2"}); at most TD_LDCACHE_MAX_HWCAPS count. */
    const char *const *hwcaps;
    size_t hwcaps_count;
    /* x86: check the ISA level of glibc-hwcaps entries against isa_levels
     * (cpu_features->isa_1: bit 0 baseline, 1 v2, 2 v3, 3 v4). Other
     * machines: leave false (glibc's generic check accepts every level). */
    bool check_isa_level;
    uint32_t isa_levels;
    /* Legacy hwcap bits (pre-2.37 hwcap/platform subdirectories) this
     * process accepts; an entry with any other bit is skipped. 0 models
     * glibc 2.37+, which skips every legacy entry; 2.33-2.36 accept
     * (AT_HWCAP & hwcap_mask) | platform bits | TD_LDCACHE_HWCAP_TLS. */
    uint64_t hwcap_allowed;
    uint32_t os_version; /* dl_osversion, 0 = not checked */
};

#define TD_LDCACHE_MAX_HWCAPS 32

/* Why an entry with the looked-up name was or was not taken. */
enum td_ldcache_verdict {
    TD_LDCACHE_CHOSEN,        /* ld.so takes this path */
    TD_LDCACHE_OUTRANKED,     /* usable, but ld.so took a better or earlier entry */
    TD_LDCACHE_WRONG_FLAGS,   /* another ABI (e.g. a 32-bit library) */
    TD_LDCACHE_BAD_PATH,      /* path index outside the string table */
    TD_LDCACHE_ISA_LEVEL,     /* needs an x86 ISA level the CPU lacks */
    TD_LDCACHE_HWCAPS_UNUSED, /* glibc-hwcaps subdirectory not in the query's list */
    TD_LDCACHE_LEGACY_HWCAP,  /* legacy hwcap bits the process does not accept */
    TD_LDCACHE_OS_VERSION,    /* needs a newer kernel ABI than os_version */
};

const char *td_ldcache_verdict_name(enum td_ldcache_verdict v);

/* The result of one lookup: the chosen path and the run of entries with
 * that name, [first, end), that a report can list as candidates. */
struct td_ldcache_result {
    bool found;
    const char *path;          /* NULL when not found */
    uint32_t chosen;           /* entry index, when found */
    const char *hwcaps_subdir; /* the chosen entry's glibc-hwcaps subdirectory, or NULL */
    uint32_t first, end;       /* candidates; first == end when the name is absent */
};

/* Looks the soname up the way glibc 2.33+ elf/dl-cache.c search_cache does:
 * the same binary search, then the entries with that name in cache order.
 * Returns 0 (found or not), or -1 with ERR set when the table is corrupt
 * where the search went (ld.so then finds nothing in the cache). */
int td_ldcache_lookup(const struct td_ldcache *c, const struct td_ldcache_query *q,
                      struct td_ldcache_result *r, struct td_err *err);

/* Candidate INDEX (first <= index < end) of a lookup: the entry and why it
 * was or was not chosen. Returns 0, or -1 with ERR set. */
int td_ldcache_candidate(const struct td_ldcache *c, const struct td_ldcache_query *q,
                         const struct td_ldcache_result *r, uint32_t index,
                         struct td_ldcache_entry *e, enum td_ldcache_verdict *verdict,
                         struct td_err *err);

#endif
