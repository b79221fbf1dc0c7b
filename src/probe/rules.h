/* Verdicts of `check`: the facts the probes gathered, held against the
 * knowledge tables (kb.h), become findings with fixes for this machine. */
#ifndef TD_PROBE_RULES_H
#define TD_PROBE_RULES_H

#include "kb/kb.h"
#include "probe/probe.h"

struct td_facts {
    const char *os; /* "linux", "windows" */
    const struct td_system *sys;
    const struct td_cpu *cpu;
    const struct td_gpu_info *gpu;
    const struct td_python *pythons;
    size_t n_py;
    const struct td_torch *torch;
    size_t n_torch;
};

/* For each torch: CPU build on a GPU machine, CUDA build without a usable
 * GPU, driver older than the build's CUDA, GPU architecture missing from
 * the build, Python outside the release's range. */
void td_rules_torch(const struct td_facts *x, struct td_findings *f);

/* Every variable of ENVIRON against the catalogue (data/env_vars.tsv). */
void td_rules_env(const struct td_facts *x, char *const *env, struct td_findings *f);

/* Readiness for a training workload: GPU memory, compute capability, RAM,
 * disk. Returns true when nothing blocks it (warnings may remain). */
bool td_rules_workload(const struct td_facts *x, const struct td_kb_workload *w,
                       struct td_findings *f);

/* The command that installs the newest torch build this machine runs
 * (driver, GPU, Python of interpreter PY), keeping the release line of
 * TORCH when one fits; NULL when no build fits. The pick goes to *B. */
const char *td_rules_install_fix(const struct td_facts *x, const struct td_python *py,
                                 const struct td_torch *torch, struct td_kb_build *b, char *out,
                                 size_t cap);

/* What the GPU-code rule needs besides torch and the GPU: the newest CUDA
 * the driver runs ("13.0"; NULL: unknown, PTX is then assumed to JIT),
 * the OS for driver minimums, the fix for code the GPU lacks. */
struct td_gpu_code_rule {
    const char *driver_cuda;
    const char *os;
    const char *fix;
};

/* The CUDA libraries of T's closure (t->gpu_code, rules_gpu_code.c) whose
 * code does not run on the probe's GPU number GPU (no code, or PTX newer
 * than the driver): their names, comma-separated, into LIST; returns how
 * many. td_rules_gpu_code makes findings of every verdict but native, one
 * per wheel (or directory) and verdict, for G, a GPU torch's own code
 * runs on: errors for code that fails, notes for PTX JIT. */
size_t td_rules_gpu_code_lacking(const struct td_torch *t, size_t gpu, char *list, size_t cap);
void td_rules_gpu_code(const struct td_torch *t, const struct td_gpu *g, size_t gpu,
                       const struct td_gpu_code_rule *r, struct td_findings *f);

/* Windows (winrules.c): each System32 VC++ runtime DLL older than the
 * floor data/windows_vc_runtime_min.tsv gives for a torch release is a
 * vc_runtime_too_old error, with the redistributable's winget command. */
void td_rules_vc_runtime(const struct td_windows *w, const struct td_torch *torch, size_t n_torch,
                         struct td_findings *f);

/* Windows PATH (';'-separated): entries that do not exist (EXISTS says),
 * later duplicates, 32-bit folders (Program Files (x86), SysWOW64), and the
 * bin folder of a CUDA toolkit (CUDA_VARS: "CUDA_PATH_Vx_y=DIR") other than
 * TORCH_CUDA ("12.1"; NULL for a CPU build: not checked). */
void td_rules_path(const char *path, bool (*exists)(const char *dir, void *ctx), void *ctx,
                   const char *const *cuda_vars, size_t n_cuda_vars, const char *torch_cuda,
                   struct td_findings *f);

#endif
