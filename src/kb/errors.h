/* Explaining a pasted error message (`torchdoctor explain`, docs/explain.md):
 * the text is cleaned (ANSI colour, CR, terminal and logger wrapping,
 * doubled backslashes), the facts it carries are pulled out (the failing
 * file, who needed it, the error code, symbol and version, CUDA versions,
 * the display language of a Windows message), and it is matched against
 * every row of data/errors.tsv (docs/errors.md): the most specific row wins.
 * Localised Windows messages (data/windows_error_messages.tsv) are mapped to
 * their code, so a row written in one language also matches another. */
#ifndef TD_KB_ERRORS_H
#define TD_KB_ERRORS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/finding.h"

/* What the text says, independent of any catalogue row. NULL when absent. */
struct td_explain_fields {
    const char *file;       /* the file the message names as failing or missing, as pasted */
    const char *file_name;  /* its last path component ("fbgemm.dll") */
    const char *needed_by;  /* who needed it ("required by", "Referenced from", the program) */
    const char *module;     /* Python module of "DLL load failed while importing X" */
    const char *symbol;     /* "undefined symbol: X" */
    const char *version;    /* symbol version ("GLIBCXX_3.4.30", "libnvJitLink.so.12") */
    const char *error_code; /* in the catalogue's vocabulary: "WinError 126", "errno 2", "SIGILL" */
    int win32;              /* the Win32 error code, 0 when none */
    const char *win32_name; /* "ERROR_MOD_NOT_FOUND" */
    const char *ntstatus;   /* "0xC0000135" */
    const char *ntstatus_name; /* "STATUS_DLL_NOT_FOUND" */
    const char *language;      /* display language of the Windows message ("zh-CN"); NULL: none */
    const char
        *cuda_driver; /* the CUDA version a driver supports ("found version 11040": "11.4") */
    const char *cuda_versions[2]; /* two CUDA versions a mismatch message compares (torch, other) */
    const char *gpu_arch;         /* "sm_120" */
    const char *platform;         /* "windows", "linux", "macos": what the text implies; NULL */
    const char *platform_sign;    /* the sign that decided it (data/platform_signs.tsv); NULL */
    const char *torch_version;    /* "2.4.0" when the text names the torch it ran */
    bool torch_version_here;      /* it was read on this machine, not in the text */
    const char *expected_in;      /* dyld's "Expected in:" (the library that should define) */
};

/* The text read into its parts before any catalogue row is tried
 * (errors_read.c, docs/explain.md "How explain reads a text"): every file
 * it names, every symbol, version and error code, and who raised it. */
enum { TD_PARTS_FILES = 24, TD_PARTS_SYMBOLS = 8, TD_PARTS_VERSIONS = 16, TD_PARTS_CODES = 12 };

struct td_part_file {
    const char *path; /* as the text gives it, rejoined and unquoted */
    const char *name; /* its last component */
    bool listed;      /* named only in a list of three or more files ("X, Y and Z are
                         present"): mentioned, not singled out */
};

struct td_part_symbol {
    const char *name;      /* as printed ("_ZN3c104cuda9SetDeviceEi", "?f@c10@@YAXXZ") */
    const char *demangled; /* "c10::cuda::SetDevice(int)"; NULL when not mangled */
    const char *version;   /* "GLIBCXX_3.4.30", "libnvJitLink.so.12"; NULL */
    const char *scheme;    /* "itanium", "msvc" or "c" */
    const char *owner;     /* the library its namespace or prefix belongs to
                              (data/symbol_owners.tsv: "libc10_cuda"); NULL */
    const char *torch;     /* the torch versions a module needing it was built for, NULL */
    const char *driver;    /* the GPU driver's file that defines it on the text's platform
                              (libcuda.so.1, nvcuda.dll, libnvidia-ml.so.1), NULL */
};

struct td_part_version {
    const char *what;  /* cuda, cudnn, driver, glibc, glibcxx, cxxabi, python, nccl, torch */
    const char *value; /* "12.1", "9", "535.104", "2.34", "3.11" */
};

struct td_part_code {
    const char *space;  /* win32, hresult, ntstatus, errno, cudaError, CUresult, ncclResult,
                           cudnnStatus, cublasStatus, nvrtcResult, omp */
    const char *value;  /* "126", "0x8007007E", "CUDA_ERROR_NO_DEVICE", "15" */
    const char *name;   /* "ERROR_MOD_NOT_FOUND", "cudaErrorInsufficientDriver"; NULL */
    const char *kind;   /* the finding kind the code stands for (data/error_codes.tsv), NULL */
    const char *source; /* where the code's meaning comes from, NULL */
};

struct td_explain_parts {
    struct td_part_file files[TD_PARTS_FILES];
    size_t n_files;
    struct td_part_symbol symbols[TD_PARTS_SYMBOLS];
    size_t n_symbols;
    struct td_part_version versions[TD_PARTS_VERSIONS];
    size_t n_versions;
    struct td_part_code codes[TD_PARTS_CODES];
    size_t n_codes;
    /* who printed the message and what it was doing (data/error_raisers.tsv) */
    const char *raiser;    /* "cudnn", "ctranslate2", "nccl", "ld.so", ...; NULL */
    const char *operation; /* load, symbol, init, alloc, compile, connect, device */
    const char *raiser_kind, *raiser_detail, *raiser_fix, *raiser_source;
    const char *raiser_library; /* the file the raiser's message is about, NULL */
    bool raiser_imported;       /* its row names the module the text imports instead */
    /* the Python package the text uses that loads its own native library
     * (ctypes, cffi) and that library's file on the text's platform
     * (data/python_native_libraries.tsv, errors_package.c); NULL. SAID: the
     * text holds the package's own message that its search found none; RAN:
     * the traceback's frames run a Python file of the package */
    const char *package, *package_library;
    bool package_said, package_ran;
    /* the platform whose file names the reading gives (windows, linux,
     * macos), where it came from ("option": explain --platform; "text": a
     * sign in the text, PLATFORM_SIGN; "host": no sign, the machine explain
     * runs on) and the sign that decided it (NULL unless from the text) */
    const char *platform, *platform_from, *platform_sign;
};

/* One likely cause of a load error, ranked (DESIGN.md "Findings": causes). */
struct td_explain_cause {
    const char *kind, *detail, *fix;
    const char *confirm; /* the one command that tells this cause from the others */
    const char *source;
    const char *provenance; /* how far the source established it (a catalogue row's
                               "Undiagnosed in thread"), NULL */
    const char *id;         /* the catalogue row it comes from, NULL for a general cause */
    const char *condition;  /* the row's version condition ("torch=2.4.0"), NULL */
    bool contradicted;      /* the text shows a version outside the condition */
};

enum { TD_EXPLAIN_MAX_CAUSES = 6 };

/* What the general layer (errors_cause.c) read from any loader message:
 * what failed, how, the role of the file, and the ranked causes. FORM is
 * NULL when the text holds no load error. */
struct td_explain_load {
    const char
        *form; /* "torch-preload", "ctypes", "python-import", "ld.so", "dyld", "dialog", ... */
    const char *kind;       /* what failed: missing_library, missing_symbol, ... */
    const char *role;       /* torch, cuda, vc_runtime, openmp, glibc, cxx_runtime, companion,
                               python_extension, local_build (an extension setup.py
                               installed in an .egg); NULL when unknown */
    const char *library;    /* the file at fault or missing (deps' "library") */
    const char *needed_by;  /* who needs it (deps' "needed_by") */
    const char *symbol;     /* the function, ordinal or version missing */
    const char *file;       /* the path to hand to `torchdoctor deps` */
    const char *note;       /* a remark on the wording itself, NULL */
    const char *defined_by; /* for a missing symbol: the library that should define it, from
                               its namespace or version (data/symbol_owners.tsv), NULL */
    const char *defined_by_driver; /* the GPU driver's file that should define it, when
                                      the symbol is the driver's API (cu*, nvml*); NULL */
    const char *symbol_readable;   /* the missing symbol demangled, NULL */
    const char *built_for;         /* the torch its requirer was built against, from the
                                      symbol (data/torch_symbol_abi.tsv), NULL */
    struct td_explain_cause causes[TD_EXPLAIN_MAX_CAUSES];
    size_t n_causes;
};

/* One catalogue row that matched. Strings point into the embedded table. */
struct td_explain_match {
    const char *id, *kind, *cause, *fix, *source, *error_code, *platform;
    const char *provenance; /* the source established no cause: how the cause was reached
                               (td_explain_split_cause), NULL */
    const char *condition;  /* the versions the cause holds for ("torch=2.4.0"), NULL: any */
    enum td_severity severity;
    size_t specificity;      /* the rule of docs/errors.md; language-neutral matches count less */
    bool language_neutral;   /* matched only once messages were mapped to their codes */
    const char *captures[8]; /* placeholder name -> captured text, in pattern order */
    const char *capture_names[8];
    size_t n_captures;
};

struct td_explain {
    char *text; /* the cleaned text */
    /* how a long text was cut down before it was read (docs/explain.md
     * "Long texts"), NULL when it was read whole */
    const char *shortened;
    struct td_explain_fields fields;
    struct td_explain_parts parts;    /* read before any catalogue row */
    struct td_explain_match *matches; /* best first */
    size_t n_matches;
    size_t n_best; /* matches[0..n_best) are equally specific: the answer */
    struct td_explain_load load;
    struct td_arena arena;
};

/* The answer as findings: one finding for the load error (its causes, the
 * catalogue's first, into CAUSES, which the report attaches to finding 0),
 * or the catalogue's best matches when the text holds no load error. LOCAL
 * (may be NULL) holds what the dependency graph found for the file on this
 * machine: its first problem becomes the finding and ranks first among the
 * causes, confirmed by LOCAL_CONFIRM; its other problems follow. */
void td_explain_findings(const struct td_explain *x, const struct td_findings *local,
                         const char *local_confirm, struct td_findings *out,
                         struct td_explain_cause *causes, size_t *n_causes);

/* The torch version this machine shows for the file the message names,
 * used when the text shows none: the catalogue's conditions are judged by
 * it and the causes ranked again. */
void td_explain_use_torch_version(struct td_explain *x, const char *version);

/* Cleans and explains TEXT. Returns -1 with ERR only when the catalogue
 * itself cannot be read (a broken build); no match is not an error. */
int td_explain_text(const char *text, size_t len, struct td_explain *out, struct td_err *err);
/* The same, the text read as copied on PLATFORM (windows, linux, macos:
 * explain --platform) whatever its signs say; NULL reads it from them. */
int td_explain_text_on(const char *text, size_t len, const char *platform, struct td_explain *out,
                       struct td_err *err);
void td_explain_free(struct td_explain *x);

/* A text longer than the window (256 KiB) cut down to what can hold the
 * failure: its first 64 KiB, its last 192 KiB and, from between, the lines
 * naming a failure with a few lines around them (at most 64 KiB, the latest
 * kept), all at line boundaries. Returns TEXT itself when it is not longer
 * (NOTE NULL), else the shortened copy from A with *LEN updated and NOTE
 * the sentence saying what was read; NULL when out of memory. */
const char *td_explain_shorten(const char *text, size_t *len, const char **note,
                               struct td_arena *a);

/* The cleaning step alone: ANSI escapes and CR removed, wrapped lines
 * joined, doubled backslashes halved. Allocated from A. */
char *td_explain_clean(const char *text, size_t len, struct td_arena *a);

/* TEXT with its lines in title case ("Could Not Find Module 'X' (Or One Of
 * Its Dependencies)", an issue's title) put back in sentence case: a plain
 * word's capital is lowered unless it opens a sentence or names the module
 * after "importing"; files, symbols and words in capitals keep theirs. A
 * copy from A of TEXT's LEN bytes, or NULL when no line is in title case. */
char *td_explain_sentence_case(const char *text, size_t len, struct td_arena *a);

/* The value of placeholder NAME ("file", "symbol") in M, or NULL. */
const char *td_explain_capture(const struct td_explain_match *m, const char *name);

/* An errors.tsv cause CELL read apart from its provenance (docs/errors.md
 * "Sources and honesty rules"): a cell opening "Undiagnosed in thread[ (a
 * remark)]; " gives the rest, past "most defensible:", a plain first word
 * capitalised, and *PROVENANCE the note that the thread established nothing
 * (with the remark) and the cause is the most defensible from the loader
 * rules. Any other cell comes back as it is, *PROVENANCE NULL. From A. */
const char *td_explain_split_cause(const char *cell, struct td_arena *a, const char **provenance);

/* Decodes an errors.tsv example cell (\n, \\) into A. */
char *td_explain_decode_example(const char *cell, struct td_arena *a);

#endif
