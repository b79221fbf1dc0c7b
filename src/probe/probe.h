/* Facts about the live machine (DESIGN.md layer 4): the system, the CPU,
 * the NVIDIA driver and GPUs, Python interpreters and every torch
 * installation. Each probe fills a plain struct whose strings live in the
 * context's arena; what a probe could not learn stays NULL / 0 and is said
 * in a note, so one failing probe never loses the rest of the report.
 * Probes never change the system, never import torch, and run anything
 * that might crash (the GPU driver) in a child process with a timeout.
 *
 * ROOT: every absolute path a probe reads (/etc/os-release, /proc/...,
 * /usr/lib/...) is looked up under ctx->root when it is set; tests build
 * whole fake systems that way. Things only the live kernel can answer
 * (cpuid, uname, sysinfo) are read from the live machine regardless. */
#ifndef TD_PROBE_PROBE_H
#define TD_PROBE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/finding.h"
#include "base/time_up.h"
#include "loader/loader.h"

struct td_probe_ctx {
    const char *root;          /* NULL or "/" = this machine */
    struct td_arena *arena;    /* owns every string the probes return */
    int timeout_ms;            /* for child processes (GPU driver); 0 = 5000 */
    int dns_budget_ms;         /* all DNS waits of a host lookup together; 0 = 300 */
    struct td_time_up time_up; /* tests: an event instead of the clock */
    const char *home;          /* $HOME; NULL = from the environment */
    /* The environment the probed programs would run in ("NAME=value",
     * NULL-terminated; the request's snapshot). NULL: this process's. */
    const char *const *envp;
};

/* "/etc/os-release" under the root, written to OUT. */
const char *td_probe_path(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap);

/* ---- system (probe/system/system_linux.c) ---- */

struct td_system {
    const char *os;             /* "linux" */
    const char *distro;         /* os-release PRETTY_NAME: "Debian GNU/Linux 12 (bookworm)" */
    const char *distro_id;      /* os-release ID: "debian", "ubuntu" */
    const char *distro_version; /* os-release VERSION_ID: "12" */
    const char *kernel;         /* uname -r */
    const char *machine;        /* uname -m: "x86_64", "aarch64" */
    const char *glibc;          /* the system C library's version ("2.36"), from its
                                   GLIBC_2.x version definitions, not from this program */
    const char *libstdcxx;      /* newest GLIBCXX_3.4.x the system libstdc++.so.6 defines */
    const char *hostname;
    uint64_t ram_total, ram_available; /* bytes, /proc/meminfo */
    uint64_t swap_total;               /* bytes */
    uint64_t disk_free;                /* bytes free where $HOME is */
    const char *container;             /* "docker", "podman", "kubernetes", "lxc", "containerd",
                                          PID 1's container= value, NULL (docs/probes.md) */
    int wsl;                           /* 0 not WSL, 1 WSL1, 2 WSL2 */
};

int td_probe_system(const struct td_probe_ctx *ctx, struct td_system *out);
/* This machine's host name (uname's nodename, GetComputerNameW), in A;
 * NULL when unknown. Every report names it, so `fleet` pairs a node's
 * check and bench reports. */
const char *td_probe_hostname(struct td_arena *a);

/* ---- Windows only (probe/system/system_windows.c; elsewhere probed stays false) ---- */

/* A runtime DLL of System32 and the file version its version resource states. */
struct td_windows_dll {
    const char *name;    /* "vcruntime140.dll" */
    const char *path;    /* NULL when System32 has no such file */
    const char *version; /* "14.38.33135.0"; NULL when absent or without a version resource */
};

struct td_windows {
    bool probed;
    bool tree;                   /* not probed, but --root is a Windows tree (Windows\System32): the
                                    rules that need only its files run (probe/system/windows_posix.c) */
    const char *product;         /* HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion ProductName */
    const char *display_version; /* DisplayVersion ("22H2"), else ReleaseId; NULL when neither */
    unsigned major, minor, build; /* RtlGetVersion: the real version, whatever the manifest */
    const char *vc_redist;        /* HKLM\SOFTWARE\Microsoft\VisualStudio\14.0\VC\Runtimes\x64
                                     Version ("v14.38.33135.00") when Installed is 1, else NULL */
    struct td_windows_dll runtime_dlls[3]; /* vcruntime140, vcruntime140_1, msvcp140 */
    size_t n_runtime_dlls;
    int safe_dll_search_mode; /* Session Manager value; -1 when unset (the default: on) */
    const char **known_dlls;  /* Session Manager\KnownDLLs values ("kernel32.dll", ...) */
    size_t n_known_dlls;
    const char *system32;            /* GetSystemDirectory */
    const char *cuda_path;           /* %CUDA_PATH%, NULL when unset */
    const char **cuda_path_versions; /* "CUDA_PATH_V12_1=C:\...", each variable set */
    size_t n_cuda_path_versions;
    int long_paths_enabled; /* HKLM\SYSTEM\CurrentControlSet\Control\FileSystem
                               LongPathsEnabled: 1, 0 (also when unset), -1 not read (--root) */
};

int td_probe_windows(const struct td_probe_ctx *ctx, struct td_windows *out);

/* A path_too_long finding for each torch install with a file whose Windows
 * path is MAX_PATH (260) characters or more while long paths are not known
 * to be enabled (probe/install/long_paths.c). */
struct td_torch;
struct td_findings;
void td_rules_long_paths(const struct td_probe_ctx *ctx, const struct td_torch *torch, size_t n,
                         int long_paths_enabled, struct td_findings *out);

/* ---- CPU (probe/system/cpu.c; cpuid on x86, /proc/cpuinfo elsewhere) ---- */

enum td_cpu_feature {
    TD_CPU_SSE3,
    TD_CPU_SSSE3,
    TD_CPU_SSE4_1,
    TD_CPU_SSE4_2,
    TD_CPU_POPCNT,
    TD_CPU_AVX,
    TD_CPU_AVX2,
    TD_CPU_FMA,
    TD_CPU_BMI2,
    TD_CPU_F16C,
    TD_CPU_AVX512F,
    TD_CPU_AVX512BW,
    TD_CPU_AVX512VL,
    TD_CPU_AVX512DQ,
    TD_CPU_AVX512CD,
    TD_CPU_AVX512_VNNI,
    TD_CPU_AVX512_BF16,
    TD_CPU_AVX_VNNI,
    TD_CPU_AMX_TILE,
    TD_CPU_AMX_BF16,
    TD_CPU_AMX_INT8,
    TD_CPU_NEON, /* aarch64 */
    TD_CPU_SVE,
    TD_CPU_FEATURE_COUNT
};

struct td_cpu {
    const char *vendor; /* "GenuineIntel", "AuthenticAMD" */
    const char *model;  /* brand string */
    unsigned logical_cpus;
    uint64_t features; /* bit (1 << enum td_cpu_feature); AVX* only when the OS enables
                          the register state (XGETBV), as the kernel and torch see it */
    int x86_level;     /* x86-64 micro-architecture level 1..4; 0 when not x86-64 */
};

int td_probe_cpu(const struct td_probe_ctx *ctx, struct td_cpu *out);
const char *td_cpu_feature_name(enum td_cpu_feature f); /* "avx2", "avx512f", "amx_tile" */

/* ---- NVIDIA driver and GPUs (probe/gpu/gpu_linux.c + the embedded helper) ---- */

enum td_gpu_status {
    TD_GPU_NO_DRIVER,   /* no libcuda.so.1 could be loaded, no /proc/driver/nvidia */
    TD_GPU_OK,          /* the driver answered */
    TD_GPU_NO_DEVICE,   /* the driver answered but sees no GPU (CUDA_VISIBLE_DEVICES, container) */
    TD_GPU_INIT_FAILED, /* cuInit returned an error (detail has the code and name) */
    TD_GPU_CRASHED,     /* the child died (detail: the signal) */
    TD_GPU_TIMEOUT,     /* the child did not answer in time and was killed */
};

struct td_gpu {
    int index;
    const char *name;       /* "NVIDIA GeForce RTX 4090" */
    int cc_major, cc_minor; /* compute capability */
    uint64_t memory;        /* bytes */
    const char *uuid;       /* "GPU-..." or NULL */
    const char *pci_bus;    /* "0000:01:00.0" or NULL */
};

/* How two GPUs are joined (NVML's topology, in NVML's device order). */
struct td_gpu_link {
    unsigned a, b;
    int level;  /* nvmlGpuTopologyLevel_t: 0 board, 10 switch, 20 switches, 30 host bridge,
                   40 NUMA node, 50 across NUMA nodes */
    int nvlink; /* 1 NVLink joins them, 0 not, -1 unknown */
};

struct td_gpu_info {
    enum td_gpu_status status;
    const char *status_detail;  /* "cuInit returned 100 (CUDA_ERROR_NO_DEVICE)", "killed by
                                   SIGSEGV", "no answer within 5 s"; NULL when OK */
    const char *kernel_driver;  /* /proc/driver/nvidia/version: "535.104.05" */
    const char *driver_version; /* NVML nvmlSystemGetDriverVersion, else kernel_driver */
    int cuda_driver_version;    /* cuDriverGetVersion: 12040 = CUDA 12.4; 0 = unknown */
    struct td_gpu *gpus;
    size_t n_gpus;
    const char *libcuda;     /* the libcuda.so.1 the loader would take (target path), or NULL */
    const char *libcuda_via; /* how it was found, in words ("ld.so.cache") */
    bool libcuda_is_stub;    /* the toolkit's link stub, not a driver */
    bool wsl_libcuda;        /* /usr/lib/wsl/lib/libcuda.so.1 (WSL2 GPU paravirtualisation) */
    const char **dev_nodes;  /* /dev/nvidia0, /dev/nvidiactl, /dev/nvidia-uvm, /dev/dxg */
    size_t n_dev_nodes;
    struct td_gpu_link *links; /* every pair of GPUs, when NVML answers and there are two */
    size_t n_links;
};

/* Runs the driver probe in a child with ctx->timeout_ms; never fails: the
 * outcome is in out->status. The child inherits this process's environment
 * (a test points LD_LIBRARY_PATH at a stand-in libcuda.so.1). */
int td_probe_gpu(const struct td_probe_ctx *ctx, struct td_gpu_info *out);

/* ---- Python interpreters (probe/python/python.c), found without running them ---- */

enum td_python_kind {
    TD_PY_SYSTEM,
    TD_PY_VENV,
    TD_PY_CONDA,
    TD_PY_PYENV,
    TD_PY_OTHER,
    TD_PY_EMBEDDABLE /* Windows embeddable distribution: python3XY._pth beside it */
};

/* Why an entry is on sys.path (CPython Modules/getpath.py, Lib/site.py). */
enum td_syspath_why {
    TD_SP_CWD,        /* "": python -c / the prompt put the current directory first */
    TD_SP_PYTHONPATH, /* an entry of $PYTHONPATH */
    TD_SP_PTH_LINE,   /* a line of the ._pth file (Windows embeddable) */
    TD_SP_STDLIB_ZIP, /* PREFIX/lib/python3XY.zip (listed even when absent) */
    TD_SP_STDLIB,     /* the standard library */
    TD_SP_DYNLOAD,    /* lib-dynload (POSIX) / DLLs (Windows) */
    TD_SP_EXE_DIR,    /* Windows: the executable's folder */
    TD_SP_USER_SITE,  /* the user site (HOME, PYTHONUSERBASE, APPDATA) */
    TD_SP_SITE,       /* a site-packages / dist-packages folder of a prefix */
    TD_SP_DOT_PTH,    /* a line of a .pth file in a site folder */
};

struct td_syspath_entry {
    const char *path; /* as sys.path holds it ("" for the current directory) */
    enum td_syspath_why why;
    const char *reason; /* "pythonpath", "user_site", "pth_file", ... (td_syspath_why) */
    const char *detail; /* in words: "$PYTHONPATH entry 1", "line 2 of /…/x.pth" */
    const char *from;   /* the variable or file that put it there, or NULL */
    bool exists;        /* a folder or file is there */
};

/* A line of a .pth file that starts with `import`: site.py would run it. */
struct td_pth_import {
    const char *file;
    unsigned line;
    const char *text;
};

struct td_python {
    const char *exe;     /* the path as found ("/usr/bin/python3") */
    const char *real;    /* symlinks resolved ("/usr/bin/python3.11") */
    const char *version; /* "3.11" or "3.11.2" when known */
    int major, minor;
    enum td_python_kind kind;
    const char *kind_name;  /* "system", "venv", "conda", "pyenv", "other", "embeddable" */
    const char *prefix;     /* sys.prefix as Python would compute it */
    const char *found_by;   /* "--python", "PATH", "VIRTUAL_ENV", "CONDA_PREFIX", "conda env",
                               "pyenv", "py launcher (registry)" */
    const char **site_dirs; /* sys.path's package dirs in order, user site first when enabled */
    size_t n_site_dirs;
    bool active; /* what `python`/`python3` on PATH (or the active env) runs */
    /* sys.path as `python -c` would have it here (probe/python/python_syspath.c),
     * each entry with why it is there; computed, never by running Python. */
    struct td_syspath_entry *sys_path;
    size_t n_sys_path;
    struct td_pth_import *pth_imports; /* `import` lines of .pth files: reported, never run */
    size_t n_pth_imports;
    const char *pth_file;      /* the python3XY._pth that replaced sys.path, or NULL */
    bool site_imported;        /* site.py runs (false: a ._pth without `import site`) */
    const char *user_site;     /* the user site folder, whether or not it exists; NULL when off */
    const char *user_site_off; /* why it is off ("PYTHONNOUSERSITE", "venv", "._pth"), or NULL */
};

/* Finds interpreters: EXPLICIT (--python; when set, only it), else the
 * active venv / conda env, python3/python/python3.X on PATH, conda envs and
 * pyenv versions. Duplicates (same real file and prefix) are merged. */
int td_probe_pythons(const struct td_probe_ctx *ctx, const char *explicit_python,
                     struct td_python **out, size_t *n);

/* ---- torch installations (probe/install/torch.c), read without importing ---- */

struct td_package {
    const char *name;      /* "torchvision", "nvidia-cudnn-cu12" */
    const char *version;   /* "0.16.0+cu121" */
    const char *installer; /* "pip", "uv", "conda", "debian", "unknown" */
    const char *dist_info; /* the metadata dir, or NULL */
    int cuda_major;        /* an nvidia-* wheel's CUDA major: its -cuNN suffix, else the
                              nvidia/cuNN/ folder its RECORD installs into; 0 when neither */
};

/* A Requires-Dist pin the installed version violates (probe/install/pins.c). */
struct td_pin {
    const char *package; /* the pinned distribution: "nvidia-cudnn-cu12" */
    const char **stems;  /* its installed files' library stems ("libcudnn") */
    size_t n_stems;
    size_t finding; /* index of its companion_mismatch in the findings */
};

/* A library file that no manifest lists, beside another version of the
 * same library that one does (probe/install/torch_integrity.c). */
struct td_leftover {
    const char *path;      /* ".../nvidia/cudnn/lib/libcudnn.so.8" */
    const char *listed;    /* ".../nvidia/cudnn/lib/libcudnn.so.9" */
    const char *owner;     /* whose manifest lists that one: "nvidia-cudnn-cu12 9.1.0.70" */
    const char *reinstall; /* that distribution's reinstall command */
};

struct td_gpu_code;

struct td_torch {
    const char *dir;               /* .../site-packages/torch */
    const char *site_dir;          /* the site dir holding it */
    size_t python;                 /* index into the interpreters it belongs to */
    const char *version;           /* "2.1.0+cu121" (torch/version.py __version__) */
    const char *base_version;      /* "2.1.0" */
    const char *local_tag;         /* "cu121", "cpu", "rocm5.6"; NULL when none */
    const char *cuda;              /* torch.version.cuda: "12.1"; NULL for CPU/ROCm builds */
    const char *hip;               /* torch.version.hip; NULL unless ROCm */
    const char *variant;           /* "cuda", "rocm", "cpu" */
    const char *installer;         /* "pip", "uv", "conda", "debian", "unknown" */
    const char *dist_info;         /* torch-X.dist-info / conda-meta json / dpkg list, or NULL */
    struct td_package *companions; /* torchvision, torchaudio, triton, xformers, flash-attn,
                                      bitsandbytes, nvidia-* wheels found beside it */
    size_t n_companions;
    const char **cuda_archs; /* "sm_80", "compute_90": read from the fatbinaries of
                                libtorch_cuda.so / torch_cuda.dll; NULL when not read */
    size_t n_cuda_archs;
    const char *archs_from;       /* the file they were read from */
    const char *archs_error;      /* why the list is missing or partial (a bad fatbin header, no
                                     .nv_fatbin section); NULL when read whole */
    struct td_gpu_code *gpu_code; /* the fat binaries of its import closure (probe/gpu/gpu_code.h),
                                     read by check when a GPU answers; NULL otherwise */
    size_t n_gpu_code;
    size_t record_files;  /* RECORD entries checked */
    size_t record_hashed; /* of which the digest was compared */
    const char *manifest; /* what they were checked against: "RECORD", "md5sums" */
    /* Which copy `import torch` takes with interpreter `python` (the first
     * sys.path entry holding a torch package, importlib's PathFinder). */
    bool imported;
    bool namespace_only;        /* torch/ without __init__.py: only a namespace portion */
    const char *shadowed_by;    /* the torch dir imported instead, or NULL */
    const char *sys_path_entry; /* the entry holding it */
    size_t sys_path_index;      /* its index in that interpreter's sys_path */
    const char *reason;         /* why that entry is on sys.path (its detail) */
    const char *editable;       /* direct_url.json's url of an editable install, or NULL */
    struct td_pin *pins;        /* violated pins of the distributions beside it */
    size_t n_pins;
    struct td_leftover *leftovers; /* in torch/lib and nvidia/<x>/lib; reported with the
                                      closure (td_torch_leftovers) */
    size_t n_leftovers;
    size_t found_by; /* the interpreter whose scan found it first: its fix commands */
};

/* Finds every torch under the interpreters' site dirs. Integrity against
 * RECORD (size of every entry; SHA-256 of the files up to HASH_LIMIT bytes:
 * UINT64_MAX for all, 0 for none), or dpkg's md5sums for Debian's package,
 * stray files, installs that shadow each other,
 * companion pairing: each problem is a finding added to F. */
int td_probe_torch(const struct td_probe_ctx *ctx, const struct td_python *pythons, size_t n_py,
                   uint64_t hash_limit, struct td_torch **out, size_t *n, struct td_findings *f);

/* td_probe_torch in two halves, for a caller that overlaps the integrity
 * checks with other work (check: with the import closure): the installs
 * without their integrity, then the integrity of each install (TS, N) in
 * order, its findings to F. The second half touches only TS's record
 * counters, F and the files, never CTX's arena: it may run on a thread of
 * its own. */
int td_probe_torch_installs(const struct td_probe_ctx *ctx, const struct td_python *pythons,
                            size_t n_py, struct td_torch **out, size_t *n, struct td_findings *f);
void td_probe_torch_integrity(const struct td_probe_ctx *ctx, const struct td_python *pythons,
                              struct td_torch *ts, size_t n, uint64_t hash_limit,
                              struct td_findings *f);

/* Copies the import closure's findings FROM into TO, folding each
 * missing_library that a violated pin of T explains (the pinned package
 * ships another version of that library) into the pin's finding. T may be
 * NULL (a plain copy). */
void td_torch_absorb(const struct td_torch *t, const struct td_findings *from,
                     struct td_findings *to);

/* "libcudnn" for "libcudnn.so.8" and "libcudnn.so", "cudnn64" for
 * "cudnn64_9.dll"; false when NAME is not a library name. */
bool td_library_stem(const char *name, char *out, size_t cap);

#endif
