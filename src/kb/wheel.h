/* What a wheel will do on the machines its tags claim: the facts a reader
 * gathered from one wheel (src/probe/wheel/, without extracting it), and
 * the rules that turn them into findings (wheel_rules.c) against the
 * platform policies in data/ (manylinux_policy, manylinux_symbol_versions,
 * wheel_system_libraries, wheel_unique_runtimes, wheel_provided_libraries,
 * python_limited_api). */
#ifndef TD_KB_WHEEL_H
#define TD_KB_WHEEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/finding.h"
#include "format/wheel_tag.h"

/* One versioned reference of an ELF binary: the first symbol seen that
 * needs VERSION ("GLIBC_2.34") of LIBRARY, and how many need it. */
struct td_wheel_verref {
    const char *library, *version, *symbol;
    uint32_t count;
};

struct td_wheel_binary {
    const char *path;   /* member name */
    const char *format; /* "elf", "pe", "macho", "macho-universal" */
    const char *os;     /* "linux", "windows", "macos" */
    const char
        *arches[4]; /* canonical (td_wheel_arch_canonical): one, or a universal file's slices */
    size_t narches;
    int bits;          /* 32 or 64 */
    bool is_extension; /* a tagged module name, or an untagged one exporting PyInit_<module> */
    bool program;      /* an executable, not a library: run, never loaded by an import */
    struct td_wheel_ext ext;
    const char *soname;  /* DT_SONAME / LC_ID_DYLIB install name; NULL when none */
    const char **needed; /* DT_NEEDED, PE imports (delay-loaded ones too), LC_LOAD_DYLIB */
    bool *needed_weak;   /* delay-load imports and LC_LOAD_WEAK_DYLIB: missing is a warning */
    size_t nneeded;
    struct td_wheel_verref *verrefs;
    size_t nverrefs;
    const char **py_symbols; /* Py* / _Py* names it imports (abi3 checks) */
    size_t npy;
    int macos_min_major, macos_min_minor; /* LC_BUILD_VERSION / LC_VERSION_MIN_MACOSX; -1 none */
    uint64_t debug_bytes;                 /* .debug_* / .zdebug_* sections */
    const char **cuda_arches;             /* fat binary entries: "sm_80", "compute_90" */
    size_t ncuda;
    bool has_fatbin;
    /* Where its fat binary containers may lie (format/detect_fatbin.h), in
     * file order, when they are still to be read (a member read in ranges). */
    struct td_wheel_region {
        uint64_t offset, size;
        bool primary;
    } * regions;
    size_t nregions;
    const char *not_parsed; /* what could not be read, or NULL */
};

/* Bytes per kind of member, for the size breakdown. */
enum td_wheel_size_kind {
    TD_WHEEL_SIZE_NATIVE,
    TD_WHEEL_SIZE_DEBUG, /* the debug sections inside native members (also counted in NATIVE) */
    TD_WHEEL_SIZE_PYTHON,
    TD_WHEEL_SIZE_HEADERS,
    TD_WHEEL_SIZE_METADATA,
    TD_WHEEL_SIZE_OTHER,
    TD_WHEEL_SIZE_KINDS,
};

/* A RECORD disagreement: a member whose hash or size differs, one RECORD
 * lists that the archive lacks, or one RECORD does not list. */
struct td_wheel_record_issue {
    const char *path;
    const char *kind; /* TD_KIND_CORRUPTED_FILE or TD_KIND_STRAY_FILE */
    const char *detail;
};

struct td_wheel_facts {
    const char *path;                                   /* as given */
    const char *filename;                               /* its base name */
    const char *name, *version;                         /* from the file name */
    const char *python_tags, *abi_tags, *platform_tags; /* the fields, dotted sets */
    struct td_wheel_platform *platforms;
    size_t nplatforms;
    const char *torch_requirement; /* Requires-Dist naming torch ("torch==2.4.*"), or NULL */
    uint64_t members, bytes, compressed_bytes;
    uint64_t size_by_kind[TD_WHEEL_SIZE_KINDS];
    struct td_wheel_binary *binaries;
    size_t nbinaries;
    bool has_record;
    uint64_t record_checked; /* members whose hash was compared */
    struct td_wheel_record_issue *record_issues;
    size_t nrecord_issues;
    const char **problems; /* members that could not be read (unreadable_file findings) */
    size_t nproblems;
    struct td_arena arena; /* owns everything above */
};

/* Adds to OUT every finding of the rules over W (items 1-6 of docs/wheel.md).
 * NEEDED_BY in each finding is "WHEEL!member". */
void td_kb_wheel_check(const struct td_wheel_facts *w, struct td_findings *out);

/* A library name with an auditwheel (libfoo-1a2b3c4d.so.1) or delvewheel
 * (foo-<32 hex>.dll) mangling hash removed, into OUT; returns true when a
 * hash was removed. */
bool td_kb_wheel_unmangle(const char *name, char *out, size_t cap);

/* The glibc X.Y a manylinux platform promises (legacy aliases through
 * data/manylinux_glibc.tsv), as major/minor; false when unknown. */
bool td_kb_wheel_glibc(const struct td_wheel_platform *p, const char *tag, int *major, int *minor);

#endif
