/* PE/COFF reader (Microsoft "PE Format" specification): headers, sections,
 * imports, delay and bound imports, exports, resources (version info and
 * manifest), CLR header and CodeView debug record. Pure functions over a
 * byte buffer; everything derived from input goes into the caller's arena.
 * Strings point into the buffer (ASCII tables) or into the arena (UTF-16
 * text converted to UTF-8). Functions returning int give 0 on success and
 * -1 with ERR set (naming the structure and its file offset) on failure. */
#ifndef TD_FORMAT_PE_H
#define TD_FORMAT_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "format/buf.h"

/* Data directory indexes (PE spec "Optional Header Data Directories"). */
enum td_pe_dir_index {
    TD_PE_DIR_EXPORT = 0,
    TD_PE_DIR_IMPORT = 1,
    TD_PE_DIR_RESOURCE = 2,
    TD_PE_DIR_EXCEPTION = 3,
    TD_PE_DIR_SECURITY = 4,
    TD_PE_DIR_BASERELOC = 5,
    TD_PE_DIR_DEBUG = 6,
    TD_PE_DIR_ARCHITECTURE = 7,
    TD_PE_DIR_GLOBALPTR = 8,
    TD_PE_DIR_TLS = 9,
    TD_PE_DIR_LOAD_CONFIG = 10,
    TD_PE_DIR_BOUND_IMPORT = 11,
    TD_PE_DIR_IAT = 12,
    TD_PE_DIR_DELAY_IMPORT = 13,
    TD_PE_DIR_CLR = 14,
    TD_PE_DIR_COUNT = 16
};

/* IMAGE_FILE_MACHINE_* values most callers compare against. */
enum {
    TD_PE_MACHINE_UNKNOWN = 0x0,
    TD_PE_MACHINE_I386 = 0x14c,
    TD_PE_MACHINE_IA64 = 0x200,
    TD_PE_MACHINE_ARM = 0x1c0,
    TD_PE_MACHINE_THUMB = 0x1c2,
    TD_PE_MACHINE_ARMNT = 0x1c4,
    TD_PE_MACHINE_AMD64 = 0x8664,
    TD_PE_MACHINE_ARM64 = 0xaa64,
    TD_PE_MACHINE_ARM64EC = 0xa641,
    TD_PE_MACHINE_ARM64X = 0xa64e
};

/* COFF header Characteristics (IMAGE_FILE_*). */
enum {
    TD_PE_FILE_RELOCS_STRIPPED = 0x0001,
    TD_PE_FILE_EXECUTABLE_IMAGE = 0x0002,
    TD_PE_FILE_LARGE_ADDRESS_AWARE = 0x0020,
    TD_PE_FILE_32BIT_MACHINE = 0x0100,
    TD_PE_FILE_DEBUG_STRIPPED = 0x0200,
    TD_PE_FILE_SYSTEM = 0x1000,
    TD_PE_FILE_DLL = 0x2000,
    TD_PE_FILE_UP_SYSTEM_ONLY = 0x4000
};

/* Optional header DllCharacteristics (IMAGE_DLLCHARACTERISTICS_*). */
enum {
    TD_PE_DLL_HIGH_ENTROPY_VA = 0x0020,
    TD_PE_DLL_DYNAMIC_BASE = 0x0040,
    TD_PE_DLL_FORCE_INTEGRITY = 0x0080,
    TD_PE_DLL_NX_COMPAT = 0x0100,
    TD_PE_DLL_NO_ISOLATION = 0x0200,
    TD_PE_DLL_NO_SEH = 0x0400,
    TD_PE_DLL_NO_BIND = 0x0800,
    TD_PE_DLL_APPCONTAINER = 0x1000,
    TD_PE_DLL_WDM_DRIVER = 0x2000,
    TD_PE_DLL_GUARD_CF = 0x4000,
    TD_PE_DLL_TERMINAL_SERVER_AWARE = 0x8000
};

/* Which flag set td_pe_flag_names describes. */
enum td_pe_flagset { TD_PE_FLAGS_FILE, TD_PE_FLAGS_DLL };

/* One IMAGE_FILE_MACHINE_* value: NAME is the constant's suffix ("AMD64"),
 * SLUG the short word users know ("x64"). */
struct td_pe_machine_info {
    uint16_t value;
    const char *name;
    const char *slug;
    const char *description;
};

/* Hybrid ARM64 images are recognised by the CHPE metadata pointer of their
 * load config; NOT_PARSED means the load config could not be read (see
 * td_pe.hybrid_problem), which is different from NONE. */
enum td_pe_hybrid {
    TD_PE_HYBRID_NONE,
    TD_PE_HYBRID_ARM64EC,  /* x64 machine field, CHPE metadata: ARM64EC */
    TD_PE_HYBRID_ARM64X,   /* ARM64 machine field, CHPE metadata: ARM64X */
    TD_PE_HYBRID_CHPE_X86, /* i386 machine field, CHPE metadata: x86 CHPE */
    TD_PE_HYBRID_NOT_PARSED
};

struct td_pe_section {
    const char *name; /* up to 8 bytes, or the long name from the COFF string table */
    uint32_t virtual_address;
    uint32_t virtual_size;
    uint32_t raw_offset; /* PointerToRawData */
    uint32_t raw_size;   /* SizeOfRawData */
    uint32_t characteristics;
};

struct td_pe_dir {
    uint32_t rva;
    uint32_t size;
};

struct td_pe {
    struct td_buf buf;
    struct td_arena *arena;

    uint32_t pe_offset; /* e_lfanew: where "PE\0\0" is */
    uint16_t machine;
    const struct td_pe_machine_info *machine_info; /* NULL for an unknown value */
    uint16_t characteristics;
    uint32_t timestamp;
    bool pe32plus; /* optional header magic 0x20b */
    uint8_t linker_major, linker_minor;
    uint16_t os_major, os_minor;
    uint16_t image_major, image_minor;
    uint16_t subsystem_major, subsystem_minor;
    uint16_t subsystem;
    uint16_t dll_characteristics;
    uint64_t image_base;
    uint32_t entry_rva;
    uint32_t section_alignment, file_alignment;
    uint32_t size_of_image, size_of_headers;
    uint32_t checksum;

    uint32_t ndirs; /* NumberOfRvaAndSizes, clamped to TD_PE_DIR_COUNT */
    struct td_pe_dir dirs[TD_PE_DIR_COUNT];

    uint16_t nsections;
    struct td_pe_section *sections; /* arena, in file order */
    uint16_t *by_address;           /* arena: section indexes sorted by virtual address */

    bool managed; /* CLR runtime header present: a .NET assembly */
    enum td_pe_hybrid hybrid;
    const char *hybrid_problem; /* arena: why hybrid is NOT_PARSED */
};

/* Parses the headers and the section table, and reads the load config far
 * enough to flag hybrid ARM64 images. Touches nothing else. */
int td_pe_parse(struct td_pe *pe, const uint8_t *data, size_t size, struct td_arena *arena,
                struct td_err *err);

/* The table entry of a machine value, or NULL when it is not one the spec lists. */
const struct td_pe_machine_info *td_pe_machine_info(uint16_t machine);
/* "x64" etc. for known machines, "unknown" otherwise; ARM64EC/ARM64X when flagged. */
const char *td_pe_arch_slug(const struct td_pe *pe);
/* IMAGE_SUBSYSTEM_* suffix ("WINDOWS_CUI"), or "unknown". */
const char *td_pe_subsystem_name(uint16_t subsystem);
/* Writes the names of the set bits ("DLL|32BIT_MACHINE"; unknown bits as hex)
 * into OUT (always NUL-terminated); returns OUT. */
char *td_pe_flag_names(enum td_pe_flagset set, uint32_t flags, char *out, size_t cap);

bool td_pe_is_dll(const struct td_pe *pe);
/* True when directory INDEX exists within NumberOfRvaAndSizes and is non-empty. */
bool td_pe_has_dir(const struct td_pe *pe, unsigned index);

/* Translates an RVA to a file offset through the section table (or the
 * headers region), requiring LEN bytes to be backed by the file. AVAIL, when
 * not NULL, receives how many file-backed bytes follow within that section. */
bool td_pe_rva_to_offset(const struct td_pe *pe, uint64_t rva, uint64_t len, uint64_t *off,
                         uint64_t *avail);
/* A NUL-terminated ASCII string at RVA (bounded by its section and LIMIT), or NULL. */
const char *td_pe_string_at_rva(const struct td_pe *pe, uint64_t rva, size_t limit);
/* The section containing RVA, or NULL. */
const struct td_pe_section *td_pe_section_for_rva(const struct td_pe *pe, uint64_t rva);

/* ---- imports (directory 1) and delay-load imports (directory 13) ---- */

struct td_pe_import_dll {
    const char *name;           /* in the buffer */
    bool delay;                 /* from the delay-import directory */
    bool va_based;              /* delay descriptor of the old kind (Attributes bit 0 clear) */
    uint32_t attributes;        /* delay descriptors: Attributes */
    uint32_t timestamp;         /* TimeDateStamp of the descriptor */
    uint64_t descriptor_offset; /* file offset of the descriptor (for messages) */
    uint64_t thunks_offset;     /* file offset of its lookup (name) table */
    size_t count;               /* entries before the table's null terminator */
};

struct td_pe_import_func {
    bool by_ordinal;
    uint16_t ordinal; /* when by_ordinal */
    uint16_t hint;    /* when by name */
    const char *name; /* in the buffer; NULL when by_ordinal */
};

/* Lists the DLLs of the import (DELAY false) or delay-import directory into
 * an arena array; a missing directory gives 0 DLLs. */
int td_pe_imports(const struct td_pe *pe, bool delay, struct td_pe_import_dll **dlls, size_t *count,
                  struct td_err *err);
/* Reads function INDEX (< dll->count) of DLL, on demand, without allocating. */
int td_pe_import_func(const struct td_pe *pe, const struct td_pe_import_dll *dll, size_t index,
                      struct td_pe_import_func *fn, struct td_err *err);

/* ---- bound imports (directory 11) ---- */

struct td_pe_bound_import {
    const char *name;   /* in the buffer */
    uint32_t timestamp; /* of the DLL the image was bound against */
    bool forwarder_ref; /* a forwarder reference of the preceding module entry */
};

int td_pe_bound_imports(const struct td_pe *pe, struct td_pe_bound_import **out, size_t *count,
                        struct td_err *err);

/* ---- exports (directory 0) ---- */

struct td_pe_exports {
    bool present;
    const char *dll_name; /* Name field; NULL when absent */
    uint32_t timestamp;
    uint32_t ordinal_base;
    uint32_t nfunctions, nnames;
    uint64_t functions_offset, names_offset, ordinals_offset; /* file offsets of the tables */
    uint32_t dir_rva, dir_size;                               /* forwarders point inside */
    uint32_t *name_of; /* arena, per function: index into the name table or UINT32_MAX */
};

struct td_pe_export {
    uint32_t ordinal;      /* biased: ordinal_base + index */
    const char *name;      /* NULL when exported by ordinal only */
    uint32_t rva;          /* 0: an unused slot */
    const char *forwarder; /* "OTHER.func" or "OTHER.#12" when forwarded, else NULL */
};

int td_pe_exports(const struct td_pe *pe, struct td_pe_exports *ex, struct td_err *err);
/* Function INDEX (< ex->nfunctions) of the export address table. */
int td_pe_export_at(const struct td_pe *pe, const struct td_pe_exports *ex, uint32_t index,
                    struct td_pe_export *out, struct td_err *err);
/* Binary search over the name pointer table, linear when that misses (an
 * unsorted table). False when absent or malformed. */
bool td_pe_export_by_name(const struct td_pe *pe, const struct td_pe_exports *ex, const char *name,
                          struct td_pe_export *out);
/* ORDINAL is the biased ordinal an importer names. False for unused slots. */
bool td_pe_export_by_ordinal(const struct td_pe *pe, const struct td_pe_exports *ex,
                             uint32_t ordinal, struct td_pe_export *out);

/* ---- resources (directory 2) ---- */

enum { TD_PE_RT_VERSION = 16, TD_PE_RT_MANIFEST = 24 };

struct td_pe_resource {
    uint32_t type, name, lang; /* IDs; a string-named entry has its ID as UINT32_MAX */
    uint32_t rva, size, codepage;
    uint64_t offset; /* file offset of the data */
};

/* Finds the first resource of TYPE (an ID), following the first name and
 * US English (0x409), else neutral, else the first language. Returns 1
 * found, 0 absent, -1 malformed. */
int td_pe_resource_find(const struct td_pe *pe, uint32_t type, struct td_pe_resource *out,
                        struct td_err *err);

struct td_pe_kv {
    const char *key, *value; /* arena, UTF-8 */
};

struct td_pe_version {
    bool present;
    uint16_t file_version[4], product_version[4]; /* most significant part first */
    uint32_t flags_mask, flags, os, type, subtype;
    uint32_t translation;     /* language << 16 | codepage of the first string table */
    struct td_pe_kv *strings; /* StringFileInfo entries of every string table */
    size_t nstrings;
};

int td_pe_version(const struct td_pe *pe, struct td_pe_version *v, struct td_err *err);
/* The value of KEY ("CompanyName") in V, or NULL. */
const char *td_pe_version_string(const struct td_pe_version *v, const char *key);

struct td_pe_assembly {
    const char *name, *version, *type, *arch, *public_key_token, *language; /* arena or NULL */
};

struct td_pe_manifest {
    bool present;
    const char *text; /* arena, UTF-8, NUL-terminated */
    size_t length;
    struct td_pe_assembly *deps; /* <dependency><dependentAssembly><assemblyIdentity .../> */
    size_t ndeps;
};

int td_pe_manifest(const struct td_pe *pe, struct td_pe_manifest *m, struct td_err *err);
/* The scanner behind td_pe_manifest, for any manifest text (a side-by-side
 * .manifest file next to a DLL). TEXT need not be NUL-terminated. */
int td_pe_manifest_scan(const char *text, size_t length, struct td_arena *arena,
                        struct td_pe_manifest *m, struct td_err *err);

/* ---- debug directory (directory 6) ---- */

struct td_pe_codeview {
    bool present;
    const char *pdb_path; /* in the buffer */
    uint8_t guid[16];
    uint32_t age;
};

/* The first CodeView (RSDS) record of the debug directory. */
int td_pe_codeview(const struct td_pe *pe, struct td_pe_codeview *cv, struct td_err *err);

#endif
