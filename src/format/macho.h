/* Mach-O reader: universal (fat) files and their slices, thin headers, the
 * load commands a loader model needs (dylibs, rpaths, platform versions),
 * the export trie and the undefined symbols. Pure functions over a byte
 * buffer: strings point into that buffer, arrays come from the caller's arena. */
#ifndef TD_FORMAT_MACHO_H
#define TD_FORMAT_MACHO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

/* <mach/machine.h> values, defined here so the reader is host independent. */
#define TD_MACHO_CPU_ARCH_ABI64 0x01000000u
#define TD_MACHO_CPU_ARCH_ABI64_32 0x02000000u
#define TD_MACHO_CPU_TYPE_X86 7u
#define TD_MACHO_CPU_TYPE_X86_64 (7u | TD_MACHO_CPU_ARCH_ABI64)
#define TD_MACHO_CPU_TYPE_ARM 12u
#define TD_MACHO_CPU_TYPE_ARM64 (12u | TD_MACHO_CPU_ARCH_ABI64)
#define TD_MACHO_CPU_TYPE_ARM64_32 (12u | TD_MACHO_CPU_ARCH_ABI64_32)
#define TD_MACHO_CPU_TYPE_POWERPC 18u
#define TD_MACHO_CPU_TYPE_POWERPC64 (18u | TD_MACHO_CPU_ARCH_ABI64)
#define TD_MACHO_CPU_SUBTYPE_MASK 0xff000000u /* capability bits, not the subtype */
#define TD_MACHO_CPU_SUBTYPE_ARM64E 2u
#define TD_MACHO_CPU_SUBTYPE_X86_64_H 8u
#define TD_MACHO_SUBTYPE_ANY UINT32_MAX /* td_macho_fat_find: any subtype */

/* <mach-o/loader.h> file types and header flags. */
enum td_macho_filetype {
    TD_MACHO_OBJECT = 1,
    TD_MACHO_EXECUTE = 2,
    TD_MACHO_FVMLIB = 3,
    TD_MACHO_CORE = 4,
    TD_MACHO_PRELOAD = 5,
    TD_MACHO_DYLIB = 6,
    TD_MACHO_DYLINKER = 7,
    TD_MACHO_BUNDLE = 8,
    TD_MACHO_DYLIB_STUB = 9,
    TD_MACHO_DSYM = 10,
    TD_MACHO_KEXT_BUNDLE = 11,
    TD_MACHO_FILESET = 12,
};
#define TD_MACHO_MH_NOUNDEFS 0x1u
#define TD_MACHO_MH_DYLDLINK 0x4u
#define TD_MACHO_MH_TWOLEVEL 0x80u
#define TD_MACHO_MH_WEAK_DEFINES 0x8000u
#define TD_MACHO_MH_BINDS_TO_WEAK 0x10000u
#define TD_MACHO_MH_PIE 0x200000u

/* One architecture of a universal file. */
struct td_macho_slice {
    uint32_t cputype;
    uint32_t cpusubtype;
    uint64_t offset; /* from the start of the universal file */
    uint64_t size;
    uint32_t align; /* power of two */
};

struct td_macho_fat {
    bool is_64; /* FAT_MAGIC_64 (64-bit offsets and sizes) */
    uint32_t nslices;
    struct td_macho_slice *slices; /* in the arena */
};

/* The ways a load command makes dyld load a library. */
enum td_macho_dylib_kind {
    TD_MACHO_DYLIB_LOAD,     /* LC_LOAD_DYLIB */
    TD_MACHO_DYLIB_WEAK,     /* LC_LOAD_WEAK_DYLIB: missing is not an error */
    TD_MACHO_DYLIB_REEXPORT, /* LC_REEXPORT_DYLIB */
    TD_MACHO_DYLIB_LAZY,     /* LC_LAZY_LOAD_DYLIB */
    TD_MACHO_DYLIB_UPWARD,   /* LC_LOAD_UPWARD_DYLIB */
};

struct td_macho_dylib {
    enum td_macho_dylib_kind kind;
    const char *name;               /* install name, into the buffer */
    uint32_t current_version;       /* xxxx.yy.zz nibbles; td_macho_version_string */
    uint32_t compatibility_version; /* likewise */
    uint64_t cmd_offset;            /* of its load command */
};

struct td_macho_tool {
    uint32_t tool; /* 1 clang, 2 swift, 3 ld, 4 lld */
    uint32_t version;
};

/* Where the minimum OS version came from. */
enum td_macho_version_source {
    TD_MACHO_VERSION_NONE,         /* no version command */
    TD_MACHO_VERSION_BUILD,        /* LC_BUILD_VERSION */
    TD_MACHO_VERSION_MIN_MACOSX,   /* LC_VERSION_MIN_MACOSX */
    TD_MACHO_VERSION_MIN_IPHONEOS, /* LC_VERSION_MIN_IPHONEOS */
    TD_MACHO_VERSION_MIN_TVOS,     /* LC_VERSION_MIN_TVOS */
    TD_MACHO_VERSION_MIN_WATCHOS,  /* LC_VERSION_MIN_WATCHOS */
};

/* Where the export trie came from. */
enum td_macho_trie_source {
    TD_MACHO_TRIE_NONE,      /* no command names one: exports only via the symbol table */
    TD_MACHO_TRIE_DYLD_INFO, /* LC_DYLD_INFO or LC_DYLD_INFO_ONLY */
    TD_MACHO_TRIE_EXPORTS,   /* LC_DYLD_EXPORTS_TRIE */
};

/* One thin Mach-O image (a whole file, or one slice of a universal file). */
struct td_macho {
    struct td_buf buf; /* the image bytes; every offset below is relative to them */
    bool is_64;
    bool big_endian; /* MH_CIGAM / MH_CIGAM_64: byte-swapped, e.g. ppc */
    uint32_t magic;  /* as written: 0xfeedface or 0xfeedfacf */
    uint32_t cputype;
    uint32_t cpusubtype;
    uint32_t filetype;
    uint32_t ncmds;
    uint32_t sizeofcmds;
    uint32_t flags;

    const char *install_name; /* LC_ID_DYLIB, or NULL */
    uint32_t id_current_version;
    uint32_t id_compatibility_version;

    struct td_macho_dylib *dylibs; /* load order: library ordinal i+1 is dylibs[i] */
    size_t ndylibs;
    const char **rpaths; /* LC_RPATH in load order */
    size_t nrpaths;

    enum td_macho_version_source version_source;
    uint32_t platform; /* 1 macos, 2 ios, ... (td_macho_platform_name) */
    uint32_t minos;
    uint32_t sdk;
    struct td_macho_tool *tools; /* LC_BUILD_VERSION tools */
    uint32_t ntools;

    bool has_uuid;
    uint8_t uuid[16];

    bool has_main; /* LC_MAIN */
    uint64_t entryoff;
    uint64_t stacksize;

    bool has_symtab; /* LC_SYMTAB */
    uint32_t symoff, nsyms, stroff, strsize;
    bool has_dysymtab; /* LC_DYSYMTAB */
    uint32_t ilocalsym, nlocalsym, iextdefsym, nextdefsym, iundefsym, nundefsym;

    bool has_dyld_info; /* LC_DYLD_INFO(_ONLY): rebase/bind opcodes are not parsed */
    enum td_macho_trie_source trie_source;
    uint32_t export_off, export_size;

    bool has_chained_fixups; /* LC_DYLD_CHAINED_FIXUPS */
    uint32_t chained_fixups_off, chained_fixups_size;

    bool has_code_signature; /* LC_CODE_SIGNATURE (its blob is not parsed) */
    uint32_t code_signature_off, code_signature_size;

    uint32_t nsegments;    /* LC_SEGMENT / LC_SEGMENT_64 (sections not parsed) */
    uint64_t text_vmaddr;  /* __TEXT's vmaddr: trie addresses are relative to it */
    uint32_t unknown_cmds; /* commands this reader does not know */
};

/* ---- universal files ---- */

/* True when the bytes start with FAT_MAGIC or FAT_MAGIC_64 and a plausible
 * slice count (a Java class file shares 0xcafebabe). */
bool td_macho_is_fat(const uint8_t *data, size_t size);

/* True when the bytes start with a thin Mach-O magic, either byte order. */
bool td_macho_is_thin(const uint8_t *data, size_t size);

/* Reads the slice table, checking that every slice lies in the file, after
 * the table, aligned as it says and overlapping no other. 0 or -1 + ERR. */
int td_macho_fat_parse(const uint8_t *data, size_t size, struct td_arena *arena,
                       struct td_macho_fat *out, struct td_err *err);

/* The slice for CPUTYPE (and CPUSUBTYPE unless TD_MACHO_SUBTYPE_ANY), or NULL. */
const struct td_macho_slice *td_macho_fat_find(const struct td_macho_fat *fat, uint32_t cputype,
                                               uint32_t cpusubtype);

/* ---- thin images ---- */

/* Parses the header and every load command of a thin image (DATA, SIZE is
 * the whole file or one slice's bytes). Touches only the header and load
 * commands; symbols and exports are separate calls. 0 or -1 + ERR. */
int td_macho_parse(const uint8_t *data, size_t size, struct td_arena *arena, struct td_macho *out,
                   struct td_err *err);

/* td_macho_parse of one slice of FILE, also checking that the slice's
 * header agrees with the slice table about the CPU. */
int td_macho_parse_slice(const uint8_t *file, size_t file_size, const struct td_macho_slice *slice,
                         struct td_arena *arena, struct td_macho *out, struct td_err *err);

/* The library a two-level-namespace ordinal names (1-based), or NULL for the
 * special ordinals (0 self, 0xfe dynamic lookup, 0xff main executable) or
 * one past the list. */
const struct td_macho_dylib *td_macho_ordinal_dylib(const struct td_macho *m, uint32_t ordinal);

/* ---- exports ---- */

#define TD_MACHO_EXPORT_KIND_MASK 0x03u /* regular 0, thread-local 1, absolute 2 */
#define TD_MACHO_EXPORT_WEAK 0x04u
#define TD_MACHO_EXPORT_REEXPORT 0x08u
#define TD_MACHO_EXPORT_STUB_AND_RESOLVER 0x10u
/* dyld's trie walk gives up past this depth; so do we. */
#define TD_MACHO_TRIE_MAX_DEPTH 128
#define TD_MACHO_NAME_MAX 65536 /* longest exported name accepted */

struct td_macho_export {
    const char *name; /* valid during the callback only (enumeration) */
    uint64_t flags;
    uint64_t address;     /* from the image base; 0 for a re-export */
    uint64_t resolver;    /* STUB_AND_RESOLVER: the resolver's address */
    uint64_t ordinal;     /* REEXPORT: the library it comes from (1-based) */
    const char *imported; /* REEXPORT: its name there ("" = same name), into the buffer */
    uint64_t node_offset; /* of the terminal node, in the trie */
};

/* Return nonzero to stop the walk early. */
typedef int (*td_macho_export_fn)(void *ctx, const struct td_macho_export *e);

/* Calls FN for every export in the trie, in trie order. Every node is
 * visited at most once (cycles and shared nodes are errors), depth is
 * limited, and scratch memory (name buffer, stack, visited bits) comes
 * from ARENA. 0 when done or stopped, -1 + ERR on a malformed trie. An
 * image with no trie (trie_source NONE, whose exports are only the symbol
 * table's defined externals) walks nothing and returns 0: callers report
 * its exports as not parsed from trie_source, never as "none". */
int td_macho_exports_walk(const struct td_macho *m, struct td_arena *arena, td_macho_export_fn fn,
                          void *ctx, struct td_err *err);

/* Looks NAME up by walking the trie from the root along NAME's bytes only.
 * 1 found (OUT filled, OUT->name = NAME), 0 absent, -1 + ERR malformed or
 * no trie at all ("exports not parsed": absence cannot be known). */
int td_macho_export_find(const struct td_macho *m, const char *name, struct td_macho_export *out,
                         struct td_err *err);

/* ---- symbol table ---- */

#define TD_MACHO_SELF_LIBRARY_ORDINAL 0x00u
#define TD_MACHO_DYNAMIC_LOOKUP_ORDINAL 0xfeu
#define TD_MACHO_EXECUTABLE_ORDINAL 0xffu

struct td_macho_undef {
    const char *name;         /* into the buffer */
    uint32_t library_ordinal; /* GET_LIBRARY_ORDINAL(n_desc); meaningful with MH_TWOLEVEL */
    bool weak_ref;            /* N_WEAK_REF */
    uint32_t index;           /* in the symbol table */
};

typedef int (*td_macho_undef_fn)(void *ctx, const struct td_macho_undef *u);

/* Calls FN for each undefined external symbol: LC_DYSYMTAB's undefined range
 * when present, else every symbol scanned. 0 done/stopped, -1 + ERR. */
int td_macho_undefined_walk(const struct td_macho *m, td_macho_undef_fn fn, void *ctx,
                            struct td_err *err);

/* Counts defined external and undefined external symbols (from LC_DYSYMTAB
 * when present, else by scanning). 0 or -1 + ERR; an image without
 * LC_SYMTAB gives -1 with "symbols not parsed: the image has no LC_SYMTAB"
 * (so does td_macho_undefined_walk). */
int td_macho_symbol_counts(const struct td_macho *m, uint32_t *defined_ext, uint32_t *undefined,
                           struct td_err *err);

/* ---- chained fixups imports (LC_DYLD_CHAINED_FIXUPS) ---- */

struct td_macho_import {
    const char *name;    /* into the buffer */
    int32_t lib_ordinal; /* as stored, sign-extended: -1 main executable, -2 flat, -3 weak */
    bool weak_import;
    uint64_t addend;
    uint32_t index;
};

typedef int (*td_macho_import_fn)(void *ctx, const struct td_macho_import *imp);

/* Calls FN for each import of the chained-fixups header (imports formats
 * 1, 2 and 3, uncompressed symbol names). 0 done/stopped, -1 + ERR. */
int td_macho_chained_imports_walk(const struct td_macho *m, td_macho_import_fn fn, void *ctx,
                                  struct td_err *err);

/* ---- names ---- */

#define TD_MACHO_VERSION_MAX 16 /* "65535.255.255" + NUL */

/* Writes a packed xxxx.yy.zz version as "a.b.c" into OUT and returns OUT. */
char *td_macho_version_string(uint32_t version, char out[TD_MACHO_VERSION_MAX]);

/* Short architecture name as lipo and clang -arch use it: "x86_64",
 * "x86_64h", "arm64", "arm64e", "arm64_32", "i386", "armv7", "arm", "ppc",
 * "ppc64", or NULL when unknown. */
const char *td_macho_arch_slug(uint32_t cputype, uint32_t cpusubtype);

/* Human CPU name ("x86-64", "ARM64", "PowerPC"...), "unknown" otherwise. */
const char *td_macho_cpu_name(uint32_t cputype);

const char *td_macho_filetype_name(uint32_t filetype);               /* "MH_DYLIB", or NULL */
const char *td_macho_flag_name(uint32_t flag_bit);                   /* "MH_TWOLEVEL", or NULL */
const char *td_macho_platform_name(uint32_t platform);               /* "macos", or NULL */
const char *td_macho_dylib_kind_name(enum td_macho_dylib_kind kind); /* "LC_LOAD_DYLIB" */
const char *td_macho_command_name(uint32_t cmd);                     /* "LC_RPATH", or NULL */

#endif
