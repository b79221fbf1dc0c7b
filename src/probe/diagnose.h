/* The whole-environment diagnosis behind `check` (and every command that
 * reports on this machine as check does): probe the system, CPU, driver and
 * GPUs, Pythons and torch installs, resolve each torch's import closure,
 * hold the facts against the knowledge tables, optionally confirm by a live
 * import. The result is one value; report/check.h renders it. */
#ifndef TD_PROBE_DIAGNOSE_H
#define TD_PROBE_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/finding.h"
#include "graph/graph.h"
#include "kb/kb.h"
#include "kb/memory.h"
#include "probe/distributed/distributed.h"
#include "probe/probe.h"
#include "probe/system/environment.h"
#include "trace/replay.h"
#include "trace/trace.h"

/* What was asked: check's options, and the environment as one snapshot
 * (taken once by cmd/; "NAME=value" strings, NULL-terminated). */
struct td_diagnose_request {
    const char *python;                    /* --python: only this interpreter */
    const char *root;                      /* --root, or NULL for this machine */
    const struct td_kb_workload *workload; /* --workload, or NULL */
    const struct td_mem_job *job;          /* --workload's memory estimate, or NULL */
    const char *const *envp;               /* the environment check runs in */
    bool no_gpu, verify, live;
    bool symbols;   /* bind every symbol of each closure (false: --no-symbols, versions only) */
    int timeout_ms; /* the driver probe's child; 0: 5000 */
    int live_timeout_ms; /* --live; 0: 120 s */
    int dns_budget_ms;   /* --dns-timeout: the MASTER_ADDR lookup's DNS waits; 0: 300 */
};

struct td_check_report {
    const char *os;
    struct td_system sys;
    struct td_windows win;             /* Windows only: runtime DLLs, KnownDLLs, CUDA_PATH */
    struct td_environment environment; /* container, VM, WSL; GPU passthrough; limits */
    struct td_cpu cpu;
    struct td_gpu_info gpu;
    bool gpu_probed;                 /* false: --no-gpu */
    struct td_arena gpu_arena;       /* GPU's strings: its probe runs on a thread of its own */
    struct td_arena integrity_arena; /* what the integrity thread keeps (leftovers) */
    struct td_python *pythons;
    size_t n_py;
    struct td_torch *torch;
    size_t n_torch;
    struct td_graph **graphs; /* per torch: its import closure, NULL when not built */
    const char **env;         /* "NAME=value" of the variables the catalogue knows */
    size_t n_env;
    const struct td_kb_workload *workload; /* --workload, or NULL */
    bool workload_ready;
    /* The job's memory estimate against the first GPU (or RAM without one). */
    bool has_memory;
    struct td_mem_estimate memory;
    const char *memory_device; /* the GPU's name, or "system RAM" */
    char memory_error[200];    /* why there is no estimate ("" when there is) */
    /* --live: `import torch` run under trace with the interpreter that owns
     * the first torch; NULL when not asked or not possible. */
    struct td_trace *live;
    const char *live_python;
    const char *live_version; /* torch.__version__ as imported */
    double live_import_ms;    /* < 0: import did not finish */
    int live_cuda;            /* torch.cuda.is_available(): 1, 0; -1 not asked */
    int live_devices;
    /* --live on Windows: torch's DLL loading replayed in a child; NULL when
     * not run. */
    const struct td_replay *replay;
    struct td_distributed dist; /* distributed-training readiness */
    struct td_findings findings;
    double elapsed_ms;
    bool verbose; /* text: every CUDA library's architectures and where they lie */
};

/* Fills R for Q; strings and graphs live in ARENA (and R's graphs and
 * findings, freed by td_diagnosis_free). */
void td_diagnose(const struct td_diagnose_request *q, struct td_check_report *r,
                 struct td_arena *arena);
/* Releases what td_diagnose left in R (not ARENA). AT_EXIT: the process
 * exits next, so the closures' file mappings are left to the exit. */
void td_diagnosis_free(struct td_check_report *r, bool at_exit);

#endif
