/* Knowledge (DESIGN.md layer 4): questions answered from the sourced
 * tables under data/ (docs/knowledge.md), never from literals in code.
 * Every answer that a finding or a fix relies on can name its source row.
 * Versions are dotted strings compared with base/version.h.
 *
 * OS names: "linux" or "windows" (the tables' platform columns). */
#ifndef TD_KB_KB_H
#define TD_KB_KB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/finding.h"

enum { TD_KB_STR = 64 }; /* room for any version, tag or short name */

/* ---- CUDA toolkit <-> driver (cuda_driver_minimums, cuda_minor_compat) ---- */

/* The driver a CUDA toolkit version X.Y needs at full compatibility (the
 * newest minimum among X.Y's rows, "530.30.02" for 12.1 on linux) into
 * OUT; NULL when the table has no row. SOURCE (may be NULL) gets the row's
 * source. */
const char *td_kb_cuda_min_driver(const char *cuda, const char *os, char *out, size_t cap,
                                  const char **source);

/* The minor-version-compatibility floor for CUDA X.Y's major release
 * ("525.60.13" for any 12.x on linux): a driver at or above it runs X.Y
 * builds with limited features (no PTX JIT of newer code). NULL when none. */
const char *td_kb_cuda_compat_floor(const char *cuda, const char *os, char *out, size_t cap,
                                    const char **source);

/* The newest CUDA toolkit version (major.minor) a driver fully supports:
 * "12.4" for 550.54.14 on linux. NULL when older than every row. */
const char *td_kb_driver_max_cuda(const char *driver, const char *os, char *out, size_t cap);

/* A cuDriverGetVersion number as a version string: 12040 -> "12.4". */
const char *td_kb_cuda_from_int(int v, char *out, size_t cap);

/* The first CUDA whose driver loads PTX of ISA MAJOR.MINOR ("13.1" for
 * 9.1, data/ptx_isa_cuda.tsv), into OUT; NULL when the table has no row. */
const char *td_kb_ptx_isa_cuda(int major, int minor, char *out, size_t cap);

/* ---- torch releases (torch_releases, torch_cuda_builds, torch_companions) ---- */

/* Python range torch X.Y supports ("3.9", "3.12"). false when unknown. */
bool td_kb_torch_python_range(const char *torch, char min[TD_KB_STR], char max[TD_KB_STR]);

/* Whether torch X.Y[.Z] has official wheels for PYTHON ("3.11", "3.11.4",
 * free-threaded "3.13t"): inside the range, or the interpreter the matrix
 * lists as experimental (a "t" build only then). false when torch is unknown. */
bool td_kb_torch_python_ok(const char *torch, const char *python);

/* The paired version of PACKAGE ("torchvision", "torchaudio") for torch
 * X.Y[.Z] into OUT ("0.16"); NULL when unknown. */
const char *td_kb_companion_version(const char *torch, const char *package, char *out, size_t cap);

/* The pip requirement for PACKAGE that pairs with torch X.Y[.Z], following
 * the row's match rule: "==0.20.*" (a minor series), "==2.4.1" (exact),
 * ">=2.11.0" (this version or later). NULL when unknown. */
const char *td_kb_companion_spec(const char *torch, const char *package, char *out, size_t cap);

/* How a build serves a GPU (td_kb_arch_fit). */
enum td_kb_arch_fit {
    TD_KB_ARCH_ANY,     /* no GPU in the question */
    TD_KB_ARCH_SASS,    /* a cubin of the GPU's major, minor <= the GPU's */
    TD_KB_ARCH_PTX,     /* only by JIT of PTX (needs the build's full driver) */
    TD_KB_ARCH_UNKNOWN, /* the table has no arch list for this build */
    TD_KB_ARCH_NONE,    /* neither: "no kernel image is available" */
};

/* One published torch build: a release and the CUDA (or "cpu" / "rocmX.Y")
 * variant it was published for, with its wheel index. */
struct td_kb_build {
    char torch[TD_KB_STR];       /* "2.5" (release line, as in the tables) */
    char variant[TD_KB_STR];     /* "cu124", "cpu", "rocm6.2" */
    char cuda[TD_KB_STR];        /* "12.4"; "" for cpu/rocm */
    char index_url[160];         /* https://download.pytorch.org/whl/cu124 */
    char torchvision[TD_KB_STR]; /* paired versions, "" when unknown */
    char torchaudio[TD_KB_STR];
    bool stable; /* status "stable" (not "experimental") */
    /* Driver and GPU answers for the query that produced this build: */
    char driver_min[TD_KB_STR];   /* full-feature driver for this CUDA on the OS; "" unknown */
    char driver_floor[TD_KB_STR]; /* minor-version-compatibility floor; "" none (CUDA < 11) */
    bool minor_compat;            /* the query's driver is under driver_min, at/above the floor */
    enum td_kb_arch_fit arch;     /* how the query's GPU runs it */
};

/* What a compat question constrains; NULL / 0 fields are free. */
struct td_kb_query {
    const char *torch;       /* "2.5" or "2.5.1": that release line only */
    const char *cuda;        /* "12.4": builds for this CUDA only; "cpu" for CPU builds */
    const char *python;      /* "3.11": builds that support it */
    const char *driver;      /* "535.104.05": builds this driver runs */
    const char *os;          /* "linux" (default) or "windows" */
    int cc_major, cc_minor;  /* a GPU: builds whose arch list runs on it; 0 = any */
    bool allow_minor_compat; /* accept drivers under the toolkit's minimum but above
                                the major's minor-compatibility floor */
};

/* Every build satisfying Q, newest torch first and, within one torch,
 * newest CUDA first. Writes at most CAP into OUT; returns how many match
 * (may exceed CAP). */
size_t td_kb_builds(const struct td_kb_query *q, struct td_kb_build *out, size_t cap);

/* The build a fix installs, among B (N builds from td_kb_builds, newest
 * torch then newest CUDA first): the newest CUDA line whose arch list has
 * the query's GPU and whose driver minimum the query's driver meets, of the
 * newest torch that has one. td_kb_builds has already dropped the builds
 * the driver does not run or whose arch list lacks the GPU, so this is the
 * first build whose arch list is known (any, with no GPU asked); the first
 * of all when no arch list is known. NULL when N is 0. */
const struct td_kb_build *td_kb_pick(const struct td_kb_build *b, size_t n);

/* td_kb_builds then td_kb_pick, into OUT: the one rule every fix that
 * picks a CUDA line uses. The query's driver counts at the CUDA major's
 * minor-version floor where cubins serve the GPU (allow_minor_compat is
 * set here): a T4 (7.5) on a 13.x driver gets the newest line listing 7.5,
 * not an older line whose full-feature minimum it meets. false when no
 * build fits. */
bool td_kb_pick_build(const struct td_kb_query *q, struct td_kb_build *out);

/* The pip command that installs build B (with its paired torchvision and
 * torchaudio when known) for PYTHON (NULL: the interpreter's own `pip`):
 * "python3.11 -m pip install torch==2.5.* torchvision==0.20.* --index-url ...". */
const char *td_kb_pip_command(const struct td_kb_build *b, const char *python, char *out,
                              size_t cap);

/* The same with only the companions that are installed (VISION, AUDIO):
 * a fix names no package the user does not have. */
const char *td_kb_pip_command_with(const struct td_kb_build *b, const char *python, bool vision,
                                   bool audio, char *out, size_t cap);

/* ---- GPUs and architectures (gpu_compute_capability, torch_cuda_arch_list) ---- */

/* Compute capability of a GPU by its marketing name as the driver reports
 * it ("NVIDIA GeForce RTX 4090" -> 8, 9). false when unknown. */
bool td_kb_gpu_cc(const char *name, int *major, int *minor);

/* The CUDA architectures torch X.Y's CUDA Z build for OS was compiled for,
 * as the table lists them ("5.0", ..., "9.0"), plus the PTX arch or "".
 * Returns the count written to ARCHES (at most CAP); 0 when unknown. */
size_t td_kb_torch_arches(const char *torch, const char *cuda, const char *os, char arches[][8],
                          size_t cap, char ptx[8]);

/* Whether code built for ARCHES ("sm_80", "compute_90", or bare "8.0") runs
 * on a GPU of compute capability MAJOR.MINOR: a cubin of the same major and
 * a minor not above the GPU's, or PTX of an arch not above it (JIT). */
bool td_kb_arch_runs(const char *const *arches, size_t n, int major, int minor);
/* The same question, saying how: SASS, PTX only, or NONE (never ANY or
 * UNKNOWN). Arch-specific code ("sm_90a", "compute_90a") runs only on that
 * exact CC; family-specific code ("sm_100f", "compute_100f") only on the
 * same major with a minor not below its own. */
enum td_kb_arch_fit td_kb_arch_fit(const char *const *arches, size_t n, int major, int minor);
/* How torch TORCH's CUDA CUDA build for OS (its arch list and PTX,
 * td_kb_torch_arches) serves a GPU of compute capability MAJOR.MINOR:
 * td_kb_arch_fit's answer, or UNKNOWN when the table has no such build. */
enum td_kb_arch_fit td_kb_torch_arch_fit(const char *torch, const char *cuda, const char *os,
                                         int major, int minor);

/* Parses a GPU given as "sm_89", "compute_90", "8.9" or "89" into its
 * compute capability. false when it is none of these. */
bool td_kb_parse_cc(const char *s, int *major, int *minor);

/* ---- manylinux (manylinux_glibc) ---- */

/* The glibc a platform tag needs ("manylinux2014_x86_64" -> "2.17"). */
const char *td_kb_manylinux_glibc(const char *tag, char *out, size_t cap);

/* ---- workloads (workloads) ---- */

struct td_kb_workload {
    char slug[TD_KB_STR]; /* "flux-lora" */
    char name[128];       /* "FLUX.1-dev LoRA training" */
    double vram_min_gb;   /* with the toolkit's memory-saving options */
    double vram_rec_gb;   /* recommended */
    double ram_min_gb;
    double disk_gb;
    int cc_major, cc_minor; /* minimum compute capability (bf16 etc.); 0 = any */
    char notes[256];
    char source[512];
};

/* Looks up SLUG; false when unknown. */
bool td_kb_workload(const char *slug, struct td_kb_workload *out);
/* All workloads in table order; returns the count (may exceed CAP). */
size_t td_kb_workloads(struct td_kb_workload *out, size_t cap);

/* ---- who provides a library (cuda_wheel_libraries, windows_runtime_dlls,
 * linux_system_libraries) ---- */

/* The nvidia-* wheel that ships LIBRARY ("libcublas.so.12") for CUDA
 * major CUDA_MAJOR into WHEEL ("nvidia-cublas-cu12"); false when none. */
bool td_kb_cuda_wheel(const char *library, int cuda_major, char *wheel, size_t cap);

struct td_kb_provider {
    char provider[256]; /* "Microsoft Visual C++ Redistributable ..., x64"; Linux: the Debian
                           package */
    char fix[512];      /* the row's command or link ("winget install ..."); "" when none */
    char source[1024];
    bool driver; /* the NVIDIA driver provides it */
};

/* The Windows component that provides DLL (a case-insensitive glob row),
 * for a process of machine ARCH ("x64", "x86", "arm64"; NULL: x64). */
bool td_kb_windows_runtime(const char *dll, const char *arch, struct td_kb_provider *out);

/* The Linux system package (Debian name) or the driver that provides
 * soname LIBRARY; false when the table does not know it. */
bool td_kb_linux_system_library(const char *library, struct td_kb_provider *out);

/* ---- environment variables (env_vars) ---- */

/* True when the catalogue has rules for NAME (check lists such variables). */
bool td_kb_env_known(const char *name);

/* Checks one variable of the environment against the catalogue: unknown
 * names are ignored; a bad value or a variable that does nothing on this
 * OS adds an env_var_invalid finding (with the rule's source in detail).
 * TORCH_CUDA: the installed torch's CUDA ("12.1") or NULL, for rules such
 * as LD_LIBRARY_PATH or CUDA_HOME naming another toolkit. */
void td_kb_check_env(const char *name, const char *value, const char *os, const char *torch_cuda,
                     struct td_findings *f);

#endif
