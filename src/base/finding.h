/* Findings: every problem the tool reports is one of these (DESIGN.md
 * "Findings"). Kinds are a fixed vocabulary; new kinds may be added, never
 * renamed, because JSON consumers match on them. */
#ifndef TD_BASE_FINDING_H
#define TD_BASE_FINDING_H

#include <stddef.h>

#include "base/arena.h"
#include "base/err.h"

enum td_severity { TD_SEV_INFO, TD_SEV_WARNING, TD_SEV_ERROR };

#define TD_KIND_MISSING_LIBRARY "missing_library"
#define TD_KIND_WRONG_ARCHITECTURE "wrong_architecture"
#define TD_KIND_MISSING_SYMBOL "missing_symbol"
#define TD_KIND_MISSING_SYMBOL_VERSION "missing_symbol_version"
#define TD_KIND_MISSING_ORDINAL "missing_ordinal"
#define TD_KIND_BAD_FORWARDER "bad_forwarder"
#define TD_KIND_NOT_A_LIBRARY "not_a_library"
#define TD_KIND_UNREADABLE_FILE "unreadable_file"
#define TD_KIND_FOUND_ONLY_VIA_PATH "found_only_via_path"
#define TD_KIND_RUNPATH_NOT_INHERITED "runpath_not_inherited"
#define TD_KIND_SHADOWED_LIBRARY "shadowed_library"
#define TD_KIND_DUPLICATE_RUNTIME "duplicate_runtime"
#define TD_KIND_STUB_LIBRARY "stub_library"
#define TD_KIND_VC_RUNTIME_TOO_OLD "vc_runtime_too_old"
#define TD_KIND_CUDA_DRIVER_TOO_OLD "cuda_driver_too_old"
#define TD_KIND_CUDA_RUNTIME_MISMATCH "cuda_runtime_mismatch"
#define TD_KIND_GPU_ARCH_UNSUPPORTED "gpu_arch_unsupported"
#define TD_KIND_GPU_NOT_VISIBLE "gpu_not_visible"
#define TD_KIND_CPU_FEATURE_MISSING "cpu_feature_missing"
#define TD_KIND_GLIBC_TOO_OLD "glibc_too_old"
#define TD_KIND_PYTHON_VERSION_UNSUPPORTED "python_version_unsupported"
#define TD_KIND_TORCH_VARIANT_MISMATCH "torch_variant_mismatch"
#define TD_KIND_CORRUPTED_FILE "corrupted_file"
#define TD_KIND_STRAY_FILE "stray_file"
#define TD_KIND_MULTIPLE_INSTALLS "multiple_installs"
/* check: the interpreter a shell runs has no torch, another one has */
#define TD_KIND_TORCH_NOT_ON_PATH "torch_not_on_path"
#define TD_KIND_ENV_VAR_INVALID "env_var_invalid"
#define TD_KIND_INSUFFICIENT_MEMORY "insufficient_memory"
#define TD_KIND_INIT_FAILURE "init_failure"
#define TD_KIND_PYTHON_ABI_MISMATCH "python_abi_mismatch"
#define TD_KIND_COMPANION_MISMATCH "companion_mismatch"
#define TD_KIND_PERFORMANCE_BELOW_EXPECTED "performance_below_expected"
#define TD_KIND_GPU_ERROR "gpu_error" /* bench: the driver crashed, hung or failed a call */
#define TD_KIND_STEP_UNSTABLE                                                                      \
    "step_unstable" /* bench --workload: the step slowed down over the rounds */
#define TD_KIND_PATH_TOO_LONG "path_too_long"
/* wheel: a symbol version or minimum OS newer than the platform tag promises */
#define TD_KIND_SYMBOL_VERSION_TOO_NEW "symbol_version_too_new"
/* wheel: debug sections left in native members */
#define TD_KIND_DEBUG_INFO_LEFT "debug_info_left"
/* check's environment section (probe/system/environment_rules.c). */
#define TD_KIND_DEVICE_NOT_ACCESSIBLE "device_not_accessible"     /* /dev/nvidia* not openable */
#define TD_KIND_DRIVER_LIBRARY_MISMATCH "driver_library_mismatch" /* libcuda vs kernel module */
#define TD_KIND_CONTAINER_LIMIT "container_limit"   /* /dev/shm, cgroup CPU, memlock */
#define TD_KIND_LDCONFIG_WARNING "ldconfig_warning" /* WSL's libcuda copies */
#define TD_KIND_PTX_JIT_ONLY "ptx_jit_only"
/* fleet: a node whose environment differs from the majority's */
#define TD_KIND_NODE_MISMATCH "node_mismatch"
/* fleet --slurm: a node whose task failed or did not finish */
#define TD_KIND_NODE_FAILED "node_failed"

struct td_finding {
    enum td_severity severity;
    const char *kind;      /* one of TD_KIND_* */
    const char *library;   /* may be NULL */
    const char *needed_by; /* may be NULL */
    const char *symbol;    /* may be NULL */
    const char *detail;    /* one line: what and why */
    const char *fix;       /* a command or step to paste; may be NULL */
};

struct td_findings {
    struct td_finding *items;
    size_t count, cap;
    struct td_arena arena; /* owns every string of every finding */
};

/* Adds a finding; strings are copied. DETAIL is a printf format. Returns the
 * new finding, or NULL when out of memory (the report then stays partial). */
struct td_finding *td_findings_add(struct td_findings *f, enum td_severity sev, const char *kind,
                                   const char *library, const char *needed_by, const char *symbol,
                                   const char *fix, const char *detail_fmt, ...) TD_PRINTF(8, 9);

size_t td_findings_count(const struct td_findings *f, enum td_severity sev);
/* Removes finding I (one folded into another's detail); the order of the
 * others is kept. */
void td_findings_remove(struct td_findings *f, size_t i);
const char *td_severity_name(enum td_severity sev);
void td_findings_free(struct td_findings *f);

#endif
