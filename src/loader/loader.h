/* The loader models' shared vocabulary: how one dependency name is turned
 * into a file, the way a platform's loader would do it, with every place
 * tried recorded as a td_probe. One model per platform (linux.c,
 * windows.c, macos.c) behind the td_loader_ops interface; the graph layer
 * drives them breadth-first and owns the loaded objects. */
#ifndef TD_LOADER_LOADER_H
#define TD_LOADER_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/map.h"
#include "format/apiset.h"
#include "format/detect.h"
#include "format/elf.h"
#include "format/macho.h"
#include "format/pe.h"

enum td_platform { TD_PLATFORM_LINUX, TD_PLATFORM_WINDOWS, TD_PLATFORM_MACOS };

/* How the root file is loaded (DESIGN.md "--profile"). */
enum td_profile {
    TD_PROFILE_AUTO,
    TD_PROFILE_EXE,              /* a program started normally */
    TD_PROFILE_DLOPEN,           /* dlopen / LoadLibrary of the root */
    TD_PROFILE_PYTHON_EXTENSION, /* how CPython loads an extension module */
    TD_PROFILE_TORCH_IMPORT,     /* what `import torch` does for that torch version */
};

/* The rule that produced a candidate location. */
enum td_rule {
    TD_RULE_ROOT,           /* a file named on the command line */
    TD_RULE_PATH_IN_NAME,   /* the dependency string holds a slash: used as is */
    TD_RULE_ALREADY_LOADED, /* a loaded object answers to this name (soname, base name) */
    TD_RULE_PRELOAD,        /* LD_PRELOAD, or a library torch preloads */
    TD_RULE_SEARCH_DIR,     /* --search-dir */
    /* Linux (ld.so(8) order) */
    TD_RULE_RPATH, /* DT_RPATH of the requester or an ancestor (origin names which) */
    TD_RULE_LD_LIBRARY_PATH,
    TD_RULE_RUNPATH,     /* DT_RUNPATH of the requester */
    TD_RULE_LD_CACHE,    /* /etc/ld.so.cache */
    TD_RULE_DEFAULT_DIR, /* the loader's built-in system directories */
    /* Windows */
    TD_RULE_API_SET,      /* api-ms-win-* / ext-ms-* contract resolved to its host DLL */
    TD_RULE_KNOWN_DLL,    /* KnownDLLs */
    TD_RULE_DLL_LOAD_DIR, /* LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR: the requesting DLL's directory */
    TD_RULE_APP_DIR,      /* the directory of the process's executable */
    TD_RULE_USER_DIR,     /* AddDllDirectory / os.add_dll_directory */
    TD_RULE_SYSTEM32,
    TD_RULE_SYSTEM16,
    TD_RULE_WINDOWS_DIR,
    TD_RULE_CURRENT_DIR,
    TD_RULE_PATH_ENV, /* PATH */
    /* macOS */
    TD_RULE_LC_RPATH,        /* @rpath through an LC_RPATH of the requester or its loaders */
    TD_RULE_LOADER_PATH,     /* @loader_path */
    TD_RULE_EXECUTABLE_PATH, /* @executable_path */
    TD_RULE_DYLD_LIBRARY_PATH,
    TD_RULE_DYLD_FALLBACK, /* DYLD_FALLBACK_LIBRARY_PATH or its default */
    TD_RULE_INSTALL_NAME,  /* the absolute install name itself */
    /* torch on Linux: _preload_cuda_deps loaded it from a sys.path entry */
    TD_RULE_TORCH_SYS_PATH,
    TD_RULE_COUNT
};

/* What happened at one candidate. */
enum td_verdict {
    TD_VERDICT_FOUND,         /* taken */
    TD_VERDICT_ABSENT,        /* no such file there */
    TD_VERDICT_WRONG_CLASS,   /* ELF class (32/64-bit) differs: glibc skips it and goes on */
    TD_VERDICT_WRONG_MACHINE, /* CPU differs: glibc skips; Windows stops with error 193 */
    TD_VERDICT_NOT_A_LIBRARY, /* a file of another kind (text, linker script, other format) */
    TD_VERDICT_UNREADABLE,    /* exists but cannot be opened or parsed */
    TD_VERDICT_SKIPPED,       /* the rule does not apply here (detail says why) */
};

/* One resolution step, recorded; every report is a view of these. */
struct td_probe {
    const char *path; /* target path tried ("/usr/lib/libx.so.1", "C:\\Windows\\System32\\x.dll") */
    enum td_rule rule;
    const char *origin; /* whose RPATH / RUNPATH / LC_RPATH, or NULL */
    enum td_verdict verdict;
    const char *detail; /* why, for anything but FOUND/ABSENT ("ELFCLASS32", "NODEFLIB"), or NULL */
};

/* A file the graph has loaded (or a root named on the command line). */
struct td_object {
    const char *host_path; /* where the bytes are on this machine */
    const char *path;      /* the path on the target system ("/usr/lib/x", "C:\\x\\y.dll") */
    const char *name;      /* the name it was first requested by; a root's file name */
    const char *identity;  /* DT_SONAME, the PE export name, LC_ID_DYLIB; NULL when none */
    enum td_file_kind kind;
    struct td_map map;
    struct td_arena arena; /* owns everything parsed from this file */
    union {
        struct td_elf elf;
        struct td_pe pe;
        struct td_macho macho;
    } u;
    const char *arch;  /* td_elf_arch / td_pe_arch_slug / td_macho_arch_slug */
    uint64_t dev, ino; /* file identity: one file is loaded once however it is named */
    /* Placement in the load (set by the graph). */
    uint32_t index;           /* load order, 0 = first root */
    uint32_t depth;           /* 0 for roots */
    struct td_object *loader; /* glibc's l_loader: whose need loaded it; NULL for roots */
    enum td_rule found_via;
    const char *found_origin; /* whose RPATH/RUNPATH/LC_RPATH found it, or NULL */
    const char *aliases[8];   /* other names it answered to (Linux: l_libname list) */
    uint32_t alias_count;
    bool is_stub; /* a link-time stub (libcuda.so from the toolkit's stubs/) */
    bool refused; /* a root the loader refuses (wrong machine): its needs are not followed */
    int fd;       /* the file, kept open for symbol binding to read; -1 when not */
};

/* Opens PATH (a host path) and parses it as an ELF, PE or Mach-O object.
 * TARGET_PATH is how the target system names it (NULL: same as PATH). For
 * a universal Mach-O, the slice matching PREFER_ARCH (NULL: the first) is
 * taken. Returns NULL with ERR when the file cannot be read or parsed; the
 * caller frees with td_object_free. */
struct td_object *td_object_open(const char *path, const char *target_path, const char *prefer_arch,
                                 struct td_err *err);
/* The same for a file already mapped (MAP, owned from here on; DEV and INO
 * its identity). HEADERS_ONLY: an ELF file is read only as far as the
 * loader and the version checks need (td_elf_parse_headers), the strings
 * copied out (td_elf_detach) and the file unmapped at once; its symbols
 * cannot be read afterwards. */
struct td_object *td_object_from_map(struct td_map *map, uint64_t dev, uint64_t ino,
                                     const char *path, const char *target_path, bool headers_only,
                                     struct td_err *err);

/* Memory for td_object_read_fd, kept by a loader model and reused
 * from one file to the next, so that its pages are faulted in once. */
enum { TD_HEADER_SCRATCH = 1024 * 1024, TD_HEADER_EXTENTS = 16 };
struct td_header_scratch {
    uint8_t *mem;
    size_t cap, used;
    struct td_buf_extent extents[TD_HEADER_EXTENTS];
    size_t count;
};
void td_header_scratch_free(struct td_header_scratch *s);

/* The object of an ELF file open as FD (SIZE bytes; DEV, INO its
 * identity; HEAD the HEAD_LEN bytes from offset 0 the caller has read
 * already), its headers read with pread rather than mapped: a mapped page
 * costs a page fault, and a fault maps up to 16 pages, where the loader
 * needs a few hundred bytes in four places (headers, PT_DYNAMIC, strings,
 * version tables). Ranges are read as the parser misses them (format/buf.h
 * sparse buffers), so the result is that of parsing the whole file; a file
 * that needs too many pieces, or that the parser refuses, is mapped and
 * parsed whole instead. Without SYMBOLS the object is HEADERS_ONLY (see
 * td_object_from_map); with it the hash tables' headers are read too
 * (td_elf_parse_hash_headers), and nothing is mapped: symbol binding
 * counts the symbols and reads the tables with pread (graph/bind_elf.c).
 * NULL with ERR when it cannot be parsed. */
struct td_object *td_object_read_fd(int fd, uint64_t size, uint64_t dev, uint64_t ino,
                                    const uint8_t *head, size_t head_len, bool symbols,
                                    struct td_header_scratch *scratch, const char *path,
                                    const char *target_path, struct td_err *err);
void td_object_free(struct td_object *o);
/* Like td_object_free, but leaves the file mapped: for a process about to
 * exit, which unmaps everything at once (one munmap per library of a
 * 288-library closure cost 14 ms here). */
void td_object_free_keep_mapping(struct td_object *o);

/* ELF class / machine / byte order of an object, for compatibility checks. */
bool td_object_same_abi(const struct td_object *a, const struct td_object *b);

/* NAME=VALUE pairs the loader sees (--env, or the host environment). */
struct td_env_var {
    const char *name, *value;
};

struct td_loader_config {
    enum td_platform platform;
    enum td_profile profile;
    const char *root;               /* --root: the target's "/" or "C:\\"; NULL = this machine */
    const char *const *search_dirs; /* --search-dir, in order */
    size_t n_search_dirs;
    const struct td_env_var *env; /* the target's environment */
    size_t n_env;
    int x86_level;     /* glibc-hwcaps: 1..4; 0 = this CPU's */
    bool headers_only; /* nothing reads symbols: open libraries with td_object_from_map's
                          HEADERS_ONLY (set by the graph, td_graph_options) */
    /* Windows */
    const char *app_dir;         /* the executable's directory; NULL = the first root's */
    const char *cwd;             /* current directory; NULL = none searched */
    bool unsafe_dll_search;      /* SafeDllSearchMode = 0 (current dir moves up) */
    uint32_t load_flags;         /* LoadLibraryExW flags of the root; 0 = plain LoadLibrary */
    const char *const *dll_dirs; /* AddDllDirectory / os.add_dll_directory, in call order */
    size_t n_dll_dirs;
    /* The running system's API-set schema (PEB->ApiSetMap): when set, it
     * replaces data/windows_apisets.tsv. The cmd layer sets it only when
     * torchdoctor runs on Windows without --root (the target is this system). */
    const struct td_apiset_map *live_apisets;
    /* The process's IMAGE_FILE_MACHINE_* (python.exe's, for torch-import and
     * python-extension); 0: the first root's. */
    uint16_t process_machine;
};

/* The environment value NAME for the target, or NULL. */
const char *td_config_env(const struct td_loader_config *cfg, const char *name);

/* The host path for a target path: ROOT + PATH; for Windows, "C:\\A\\b"
 * maps to ROOT/A/b matched without regard to case, and a host path given
 * as is (starting with ROOT or '/') is accepted too. Writes OUT (a path
 * that may not exist) and returns it, or NULL when it does not fit. */
char *td_host_path(const struct td_loader_config *cfg, const char *target_path, char *out,
                   size_t cap);

/* The result of resolving one dependency name for one requester. */
struct td_resolution {
    struct td_probe *probes; /* every place tried, in order (arena of the loader) */
    size_t n_probes;
    struct td_object *object; /* the object it resolved to (already loaded, or newly opened) */
    bool newly_opened;        /* object was opened by this call: the graph adopts it */
    enum td_rule rule;        /* the rule that found it */
    const char *origin;       /* whose RPATH/RUNPATH/LC_RPATH, or NULL */
    const char *api_set_host; /* Windows: the contract resolved to this DLL name */
    bool fatal_wrong_machine; /* Windows: a wrong-machine DLL stops the load (error 193) */
    bool in_shared_cache;     /* macOS: a system library in the dyld shared cache, not on
                                 disk: resolved, though object is NULL */
};

/* The objects loaded so far, in load order; the loader reads it to find a
 * library already loaded under a name. */
struct td_loaded {
    struct td_object **objects;
    size_t count;
};

struct td_loader;

struct td_loader_ops {
    const char *name;
    /* Reads what the model needs once (ld.so.cache, API-set table, ...). */
    int (*init)(struct td_loader *L, struct td_err *err);
    /* Resolves NAME needed by REQUESTER (DELAY: a delay-load / lazy need).
     * Fills OUT; OUT->object NULL means not found (the probes say why).
     * Returns -1 only when the model itself cannot work (ERR set). */
    int (*resolve)(struct td_loader *L, struct td_object *requester, const char *name, bool delay,
                   const struct td_loaded *loaded, struct td_resolution *out, struct td_err *err);
    void (*fini)(struct td_loader *L);
    /* Libraries loaded before the root's own needs (Linux: LD_PRELOAD and
     * /etc/ld.so.preload), into *NAMES (ARENA), each resolved with requester
     * NULL; the count, or -1. NULL: the platform has none. */
    int (*preloads)(const struct td_loader_config *cfg, struct td_arena *arena,
                    const char ***names);
    /* Whether the loader refuses root O outright (Windows: an image of
     * another machine than the process, error 193), with why in WHY.
     * NULL: every root is taken. */
    bool (*refuses_root)(const struct td_loader *L, const struct td_object *o, char *why,
                         size_t cap);
    /* The fix for a library no search location holds, into OUT. */
    void (*fix_missing)(const char *name, char *out, size_t cap);
};

/* The model for PLATFORM (without initialising it). */
const struct td_loader_ops *td_loader_ops_for(enum td_platform platform);

struct td_loader {
    const struct td_loader_config *cfg;
    const struct td_loader_ops *ops;
    struct td_arena arena;  /* probes, strings of resolutions */
    struct td_object *main; /* the program (first root) */
    void *state;            /* the model's own */
};

extern const struct td_loader_ops td_loader_linux;
extern const struct td_loader_ops td_loader_windows;
extern const struct td_loader_ops td_loader_macos;

/* Linux: the libraries ld.so preloads before the program's needs
 * (LD_PRELOAD, then /etc/ld.so.preload under the root), into *NAMES (arena);
 * resolve each with requester NULL. Returns the count. */
int td_linux_preload_names(const struct td_loader_config *cfg, struct td_arena *arena,
                           const char ***names);

/* Sets up L for CFG's platform and calls its init. */
int td_loader_init(struct td_loader *L, const struct td_loader_config *cfg, struct td_err *err);
void td_loader_fini(struct td_loader *L);

/* Appends a probe to OUT (arena of L). Returns the probe, or NULL when out of memory. */
struct td_probe *td_probe_add(struct td_loader *L, struct td_resolution *out, const char *path,
                              enum td_rule rule, const char *origin, enum td_verdict verdict,
                              const char *detail);

const char *td_rule_name(enum td_rule rule);          /* "runpath", "ld.so.cache", "DLL load dir" */
const char *td_verdict_name(enum td_verdict verdict); /* "found", "absent", "wrong class", ... */
const char *td_platform_name(enum td_platform platform); /* "linux", "windows", "macos" */
const char *td_profile_name(enum td_profile profile);    /* "exe", "dlopen", ... */

#endif
