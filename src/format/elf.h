/* ELF reader: header, program headers, the dynamic section (found through
 * PT_DYNAMIC, never through section headers), dynamic symbols, symbol
 * versions and ld.so-style symbol lookup. A pure function over a byte buffer:
 * strings point into the buffer, tables live in the caller's arena. */
#ifndef TD_FORMAT_ELF_H
#define TD_FORMAT_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

/* Values from the gABI, defined here so the reader is the same on any host. */
enum {
    TD_ET_EXEC = 2,
    TD_ET_DYN = 3,
    TD_PT_LOAD = 1,
    TD_PT_DYNAMIC = 2,
    TD_PT_INTERP = 3,
    TD_PT_NOTE = 4,
    TD_PT_GNU_STACK = 0x6474e551,
    TD_PF_X = 1,
    TD_PF_W = 2,
    TD_PF_R = 4,
    TD_DF_ORIGIN = 0x1,
    TD_DF_SYMBOLIC = 0x2,
    TD_DF_BIND_NOW = 0x8,
    TD_DF_STATIC_TLS = 0x10,
    TD_DF_1_NOW = 0x1,
    TD_DF_1_GLOBAL = 0x2,
    TD_DF_1_NODELETE = 0x8,
    TD_DF_1_NOOPEN = 0x40,
    TD_DF_1_ORIGIN = 0x80,
    TD_DF_1_NODEFLIB = 0x800,
    TD_DF_1_PIE = 0x8000000,
    TD_STT_NOTYPE = 0,
    TD_STT_OBJECT = 1,
    TD_STT_FUNC = 2,
    TD_STT_SECTION = 3,
    TD_STT_FILE = 4,
    TD_STT_COMMON = 5,
    TD_STT_TLS = 6,
    TD_STT_GNU_IFUNC = 10,
    TD_STB_LOCAL = 0,
    TD_STB_GLOBAL = 1,
    TD_STB_WEAK = 2,
    TD_STB_GNU_UNIQUE = 10,
    TD_SHN_UNDEF = 0,
    TD_SHN_ABS = 0xfff1,
    TD_VER_FLG_BASE = 0x1,
    TD_VER_FLG_WEAK = 0x2,
    TD_VERSYM_HIDDEN = 0x8000,
};

struct td_elf_phdr {
    uint32_t type;
    uint32_t flags; /* TD_PF_* */
    uint64_t offset;
    uint64_t vaddr;
    uint64_t filesz;
    uint64_t memsz;
    uint64_t align;
};

/* One version a needed file must provide (an Elf_Vernaux entry). */
struct td_elf_vernaux {
    const char *name; /* "GLIBCXX_3.4.30" */
    uint32_t hash;
    uint16_t flags; /* TD_VER_FLG_WEAK */
    uint16_t other; /* the versym index that refers to it */
};

/* One needed file and the versions it must provide (an Elf_Verneed entry). */
struct td_elf_verneed {
    const char *file; /* "libstdc++.so.6" */
    struct td_elf_vernaux *versions;
    uint32_t version_count;
};

/* One version this object defines (an Elf_Verdef entry and its first name). */
struct td_elf_verdef {
    uint16_t index; /* versym index */
    uint16_t flags; /* TD_VER_FLG_BASE marks the entry naming the object itself */
    uint32_t hash;
    const char *name;
};

/* What each versym index stands for; built from verdef and verneed. */
struct td_elf_version {
    const char *name; /* NULL: the index is 0 (local), 1 (global) or unused */
    const char *file; /* the needed file, for verneed indexes; NULL for verdef */
    bool defined;     /* true when the index comes from verdef */
};

struct td_elf_sym {
    const char *name;
    size_t name_room; /* bytes readable from name on, its NUL among them (td_elf_dynstr_room) */
    uint64_t value;
    uint64_t size;
    uint8_t type;       /* TD_STT_* */
    uint8_t bind;       /* TD_STB_* */
    uint8_t visibility; /* STV_DEFAULT 0, INTERNAL 1, HIDDEN 2, PROTECTED 3 */
    uint16_t shndx;
    bool defined;             /* shndx != SHN_UNDEF */
    uint16_t version_index;   /* versym & 0x7fff; 1 (global) when the object has no DT_VERSYM */
    bool version_hidden;      /* versym bit 15: "sym@VER" rather than "sym@@VER" */
    const char *version;      /* version name, NULL when unversioned */
    const char *version_file; /* undefined symbols: the library the version need names */
};

/* Where the dynamic symbol count came from. */
enum td_elf_symcount_source {
    TD_ELF_SYMCOUNT_NONE,       /* no DT_SYMTAB: the object has no dynamic symbols */
    TD_ELF_SYMCOUNT_HASH,       /* DT_HASH nchain */
    TD_ELF_SYMCOUNT_GNU_HASH,   /* highest index reachable through DT_GNU_HASH */
    TD_ELF_SYMCOUNT_NOT_PARSED, /* DT_SYMTAB without any hash table: count unknown */
    TD_ELF_SYMCOUNT_SECTION,    /* the SHT_DYNSYM section header describing DT_SYMTAB */
};

struct td_elf_gnu_hash {
    uint32_t nbuckets, symoffset, bloom_size, bloom_shift;
    uint64_t bloom_off, buckets_off, chain_off; /* file offsets */
    uint64_t chain_avail;                       /* bytes of the segment from chain_off */
};

struct td_elf_sysv_hash {
    uint64_t nbucket, nchain;
    unsigned width; /* 4, or 8 on 64-bit s390 and Alpha */
    uint64_t buckets_off, chain_off;
};

/* The dynamic section's raw values (virtual addresses as in the file). */
struct td_elf_dynamic {
    uint64_t offset, size; /* PT_DYNAMIC file range */
    uint64_t symtab, strtab, strsz, syment;
    uint64_t hash, gnu_hash, versym;
    uint64_t verneed, verneednum, verdef, verdefnum;
    uint64_t flags, flags_1;
    bool has_strsz, has_flags, has_flags_1;
    bool has_bind_now; /* DT_BIND_NOW, the older spelling of DF_BIND_NOW */
};

struct td_elf {
    struct td_buf buf;
    /* Header. */
    bool is64;
    bool big_endian;
    uint8_t osabi, abiversion;
    uint16_t type, machine;
    uint32_t flags;
    uint64_t entry;
    /* Program headers. */
    struct td_elf_phdr *phdrs;
    uint32_t phnum;
    const char *interp;   /* PT_INTERP, NULL when absent */
    const char *build_id; /* NT_GNU_BUILD_ID as lowercase hex, NULL when absent */
    bool has_gnu_stack;
    uint32_t gnu_stack_flags;
    /* Section headers: optional, nothing else depends on them. */
    bool sections_valid;
    uint32_t section_count;
    uint64_t section_offset; /* e_shoff, when sections_valid */
    uint16_t section_entsize;
    /* Dynamic section (has_dynamic false: static object, all below empty). */
    bool has_dynamic;
    struct td_elf_dynamic dyn;
    const char **needed; /* DT_NEEDED in file order */
    uint32_t needed_count;
    const char *soname, *rpath, *runpath; /* NULL when absent */
    /* Resolved tables. */
    uint64_t strtab_off, strtab_size;
    uint64_t symtab_off, versym_off; /* versym_off valid when has_versym */
    bool has_versym;
    uint32_t dynsym_count;
    enum td_elf_symcount_source symcount_source;
    bool has_gnu_hash, has_sysv_hash;
    struct td_elf_gnu_hash gnu;
    struct td_elf_sysv_hash sysv;
    struct td_elf_verneed *verneed;
    uint32_t verneed_count;
    struct td_elf_verdef *verdef;
    uint32_t verdef_count;
    struct td_elf_version *versions; /* indexed by versym index */
    uint32_t version_slots;
};

/* Parses the headers, program headers, notes, dynamic section, version
 * tables and hash table headers. Symbols are read lazily by the calls
 * below. Returns 0, or -1 with ERR naming the structure and offset. */
int td_elf_parse(struct td_elf *elf, const uint8_t *data, size_t size, struct td_arena *arena,
                 struct td_err *err);

/* td_elf_parse without the hash tables and the symbol count, for a reader
 * of no symbols (the loader and the version checks): the hash tables and
 * the section headers are not touched. dynsym_count stays 0 and
 * symcount_source is TD_ELF_SYMCOUNT_NOT_PARSED when there is a DT_SYMTAB. */
int td_elf_parse_headers(struct td_elf *elf, const uint8_t *data, size_t size,
                         struct td_arena *arena, struct td_err *err);

/* td_elf_parse (SYMBOLS) or td_elf_parse_headers over BUF, which may hold
 * only part of the file (format/buf.h): when BUF.sparse->missed is set
 * afterwards, the outcome (success or error) is void: load the missed
 * range and parse again. */
int td_elf_parse_buf(struct td_elf *elf, struct td_buf buf, bool symbols, struct td_arena *arena,
                     struct td_err *err);

/* Copies every string the parse left pointing into the buffer (PT_INTERP,
 * DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH, version names) into ARENA
 * and forgets the buffer, so that the file can be unmapped. Symbols and
 * sections cannot be read afterwards (every bounded read fails); the
 * offsets and counts found stay, valid for the same file's bytes read
 * otherwise (the binder's pread, graph/bind_elf.c). Returns -1
 * with ERR when the arena is full. */
int td_elf_detach(struct td_elf *elf, struct td_arena *arena, struct td_err *err);

/* True when the buffer starts with the ELF magic. */
bool td_elf_is_elf(const uint8_t *data, size_t size);

/* True for a program (ET_EXEC, or a PIE: DF_1_PIE, or an interpreter and
 * no soname as PIEs linked before DF_1_PIE have), false for a shared
 * library, even one that also runs (libc.so.6 has PT_INTERP and a soname). */
bool td_elf_is_program(const struct td_elf *elf);

/* readelf's name for a machine ("Advanced Micro Devices X86-64"), or
 * "<unknown>" for a value this table lacks. */
const char *td_elf_machine_name(uint16_t machine);

/* A short architecture slug that also reflects class and byte order
 * ("x86_64", "i386", "aarch64", "ppc64", "ppc64le", "riscv64"), or "unknown". */
const char *td_elf_arch(const struct td_elf *elf);

/* Translates [vaddr, vaddr + len) to a file offset through the PT_LOAD
 * segment whose file-backed part holds it. AVAIL (may be NULL) receives the
 * bytes of that segment from the offset on. False when no segment does. */
bool td_elf_vaddr_to_offset(const struct td_elf *elf, uint64_t vaddr, uint64_t len,
                            uint64_t *offset, uint64_t *avail);

/* The string at INDEX of the dynamic string table, or NULL when it is
 * outside DT_STRSZ or not terminated inside it. */
const char *td_elf_dynstr(const struct td_elf *elf, uint64_t index);
/* td_elf_dynstr, with *ROOM the bytes that may be read from the string on,
 * its NUL among them (to the end of the table when it is held whole), for
 * a reader that finds the string's end as it copies it. */
const char *td_elf_dynstr_room(const struct td_elf *elf, uint64_t index, size_t *room);
/* The whole dynamic string table, when the buffer holds it and its last
 * byte is a NUL, else NULL: then every string in it ends inside it, and
 * none needs a search for its end (libtorch_cpu's 35,000 names were read
 * twice for it). */
const char *td_elf_dynstr_table(const struct td_elf *elf);

/* A walk over every dynamic symbol from index 1 on, in index order, for a
 * caller that reads them all (inspect --symbols: libtorch_cpu's 35,000):
 * the tables are looked up once for the walk, not once per symbol, and
 * each symbol's name is fetched a few symbols ahead. */
struct td_elf_dynsym_walk {
    const struct td_elf *elf;
    uint32_t next; /* the index the next call reads */
    /* When the buffer holds them whole (little-endian ELF64): the symbol
     * table, the string table (td_elf_dynstr_table) and DT_VERSYM's
     * entries; else syms is NULL and each symbol is read by td_elf_dynsym. */
    const uint8_t *syms, *versym;
    const char *strtab;
};

void td_elf_dynsym_walk_begin(struct td_elf_dynsym_walk *w, const struct td_elf *elf);
/* The symbol at W->next into OUT, as td_elf_dynsym gives it, and W moves
 * on; false at the end (W->next == td_elf_dynsym_count) or where
 * td_elf_dynsym fails (W->next names that symbol). */
bool td_elf_dynsym_walk_next(struct td_elf_dynsym_walk *w, struct td_elf_sym *out);

static inline uint32_t td_elf_dynsym_count(const struct td_elf *elf)
{
    return elf->dynsym_count;
}

/* Reads dynamic symbol INDEX with its version. False when INDEX is out of
 * range or the entry or its name is unreadable. */
bool td_elf_dynsym(const struct td_elf *elf, uint32_t index, struct td_elf_sym *out);

/* Counts defined and undefined dynamic symbols, index 0 excluded (what
 * readelf --dyn-syms lists). Returns -1 with ERR at the first bad entry. */
int td_elf_dynsym_tally(const struct td_elf *elf, uint32_t *defined, uint32_t *undefined,
                        struct td_err *err);

uint32_t td_elf_gnu_hash(const char *name);
uint32_t td_elf_sysv_hash(const char *name);

/* Finds the DEFINED symbol NAME as ld.so would in this one object, through
 * DT_GNU_HASH (bloom filter, then bucket chain) or else DT_HASH. GNU_HASH is
 * td_elf_gnu_hash(NAME), computed once by callers that look in many objects.
 * VERSION NULL is an unversioned reference; see elf_sym.c for the exact
 * matching rule (glibc elf/dl-lookup.c check_match). */
bool td_elf_lookup(const struct td_elf *elf, const char *name, uint32_t gnu_hash,
                   const char *version, struct td_elf_sym *out);

/* The fields of one dynamic symbol entry that binding decides on, decoded
 * from its bytes (SYMENT of them, however they were read): a binder
 * reading the table in pieces uses these, and td_elf_lookup does too. */
struct td_elf_symfields {
    uint32_t name; /* st_name: offset in the dynamic string table */
    uint8_t type, bind;
    uint16_t shndx;
    bool value_zero;
};
static inline uint32_t td_elf_raw_u32(const uint8_t *p, bool big_endian)
{
    return big_endian ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
                      : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static inline uint16_t td_elf_raw_u16(const uint8_t *p, bool big_endian)
{
    return (uint16_t)(big_endian ? p[0] << 8 | p[1] : p[1] << 8 | p[0]);
}

/* Elf64_Sym: name 0, info 4, other 5, shndx 6, value 8 (8 bytes);
 * Elf32_Sym: name 0, value 4 (4 bytes), size 8, info 12, other 13, shndx 14.
 * Inline: a binder decodes every entry of the closure (275,000 here). */
static inline void td_elf_symfields_decode(const struct td_elf *elf, const uint8_t *p,
                                           struct td_elf_symfields *out)
{
    bool be = elf->big_endian;
    uint8_t info = elf->is64 ? p[4] : p[12];
    out->name = td_elf_raw_u32(p, be);
    out->type = info & 0xf;
    out->bind = info >> 4;
    out->shndx = td_elf_raw_u16(elf->is64 ? p + 6 : p + 14, be);
    out->value_zero = elf->is64 ? (td_elf_raw_u32(p + 8, be) | td_elf_raw_u32(p + 12, be)) == 0
                                : td_elf_raw_u32(p + 4, be) == 0;
}
/* do_lookup_x's tests before the name (glibc elf/dl-lookup.c): defined,
 * a value unless absolute or TLS, a code or data type, not local. */
bool td_elf_symfields_can_define(const struct td_elf_symfields *f);

/* check_match's version rule for a definition whose DT_VERSYM entry is
 * VERSYM, asked for WANT (NULL: an unversioned reference); see
 * elf_sym.c. ONLY_IF_SINGLE: a default-version definition an unversioned
 * reference takes only when it is the one such candidate in the chain. */
enum td_elf_version_verdict {
    TD_ELF_VERSION_REJECT,
    TD_ELF_VERSION_ACCEPT,
    TD_ELF_VERSION_ONLY_IF_SINGLE,
};
enum td_elf_version_verdict td_elf_version_check(const struct td_elf *elf, uint16_t versym,
                                                 const char *want);

/* A section of the section header table (elf_sections.c). */
struct td_elf_section {
    const char *name; /* points into the section name table; NULL when unreadable */
    uint32_t type;    /* sh_type */
    uint64_t flags;   /* sh_flags: TD_SHF_* */
    uint64_t addr, offset, size;
};

enum {
    TD_SHT_PROGBITS = 1,
    TD_SHT_NOBITS = 8,
    TD_SHF_ALLOC = 0x2,
    TD_SHF_EXECINSTR = 0x4,
};

/* Section I of the table (1 <= I < section_count) into OUT, its name from
 * e_shstrndx's table when that is readable. False past the table or when
 * the object has no readable section table. */
bool td_elf_section_at(const struct td_elf *elf, uint64_t i, struct td_elf_section *out);

/* Finds the first section called NAME through the section header table
 * and e_shstrndx. False when the object has no readable section table, no
 * such section, or its bytes (SHT_NOBITS, or a range outside the file)
 * are not in the file. */
bool td_elf_section_by_name(const struct td_elf *elf, const char *name, struct td_elf_section *out);

/* Internal to the elf*.c files: fields read as value-or-0 (a failed bounded
 * read yields 0, which every caller treats as absent), and the
 * dynamic-section and version steps of td_elf_parse. */
static inline uint32_t td_elf_u32(const struct td_elf *elf, uint64_t off)
{
    uint32_t v;
    td_buf_u32(&elf->buf, off, &v);
    return v;
}

static inline uint16_t td_elf_u16(const struct td_elf *elf, uint64_t off)
{
    uint16_t v;
    td_buf_u16(&elf->buf, off, &v);
    return v;
}

int td_elf_parse_dynamic(struct td_elf *elf, struct td_arena *arena, struct td_err *err);
int td_elf_parse_versions(struct td_elf *elf, struct td_arena *arena, struct td_err *err);
int td_elf_parse_hash_tables(struct td_elf *elf, struct td_err *err);
/* The first half of td_elf_parse_hash_tables, for a reader that counts
 * the symbols itself from the tables (graph/bind_elf.c reads them with
 * pread): the headers of DT_GNU_HASH (sizes; where the bloom filter,
 * buckets and chain are) and of DT_HASH, nothing past them. */
int td_elf_parse_hash_headers(struct td_elf *elf, struct td_err *err);
/* Records COUNT dynamic symbols, counted by such a reader from SOURCE, and
 * where the symbol and version tables of that many lie (-1 with ERR when
 * they lie outside every PT_LOAD segment). */
int td_elf_set_symbol_count(struct td_elf *elf, uint32_t count, enum td_elf_symcount_source source,
                            struct td_err *err);

#endif
