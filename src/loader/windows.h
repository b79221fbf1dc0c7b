/* What the Windows loader model offers beyond td_loader_ops: the plan of
 * DLL loads `import torch` performs on Windows (torch/__init__.py
 * _load_dll_libraries, pytorch-facts §3.1), for the graph and `deps
 * --profile torch-import` to replay. */
#ifndef TD_LOADER_WINDOWS_H
#define TD_LOADER_WINDOWS_H

#include "loader/loader.h"

/* LoadLibraryExW flags the model understands (values: [LLX], pytorch-facts §6.3). */
enum {
    TD_LOAD_WITH_ALTERED_SEARCH_PATH = 0x8,
    TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR = 0x100,
    TD_LOAD_LIBRARY_SEARCH_APPLICATION_DIR = 0x200,
    TD_LOAD_LIBRARY_SEARCH_USER_DIRS = 0x400,
    TD_LOAD_LIBRARY_SEARCH_SYSTEM32 = 0x800,
    TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS = 0x1000,
};

/* Where a torch install lives on the target (C:\ paths or host paths). */
struct td_torch_install {
    const char *torch_dir;        /* ...\site-packages\torch (the dir of torch\_C*.pyd) */
    const char *exec_prefix;      /* sys.exec_prefix (a conda env or venv root) */
    const char *base_exec_prefix; /* sys.base_exec_prefix; NULL = same as exec_prefix */
    const char *userbase;         /* sysconfig userbase (%APPDATA%\Python); NULL = unknown */
    const char *cuda_version;     /* torch.version.cuda ("12.4"); NULL for a CPU build */
    bool arm64;                   /* platform.machine() == "ARM64" */
};

/* One LoadLibrary call torch makes, in order. */
struct td_torch_load {
    const char *file;   /* a bare name ("vcruntime140.dll") or a full target path */
    uint32_t flags;     /* LoadLibraryExW flags: 0x1000 for ctypes.CDLL, 0x1100 for torch\lib */
    bool warn_only;     /* a failure prints the VC++ warning and import goes on */
    bool path_fallback; /* on error 126 only, retried as LoadLibraryW with PATH = dll_dirs;PATH */
};

struct td_torch_plan {
    const char *th_dll_path; /* torch\lib */
    const char **dll_dirs;   /* os.add_dll_directory calls, in order (the existing dll_paths) */
    size_t n_dll_dirs;
    struct td_torch_load *loads; /* the VC++ runtime probes, then torch\lib\*.dll in glob order */
    size_t n_loads;
};

/* Computes what torch/__init__.py does for INSTALL under CFG's --root and
 * environment (ProgramFiles, NVTOOLSEXT_PATH, CUDA_PATH_Vx_y). Everything
 * goes into ARENA. The graph then: sets cfg.dll_dirs = plan.dll_dirs, and
 * opens each load in order as a root with profile torch-import, so that a
 * later load finds the earlier ones as already loaded; the model applies
 * the 126 fallback per dependency name (see docs/windows-loader.md). */
int td_windows_torch_plan(const struct td_loader_config *cfg,
                          const struct td_torch_install *install, struct td_arena *arena,
                          struct td_torch_plan *plan, struct td_err *err);

#endif
