/* Views of `torchdoctor check`: short sections of ✓ / ! / ✗ lines (text,
 * markdown for a bug report) and the JSON sections DESIGN.md names
 * (system, cpu, gpus, driver, pythons, torch, env, deps). */
#ifndef TD_REPORT_CHECK_H
#define TD_REPORT_CHECK_H

#include <stdio.h>

#include "graph/graph.h"
#include "kb/kb.h"
#include "probe/probe.h"
#include "probe/replay.h"
#include "probe/trace.h"
#include "report/term.h"

struct td_check_report {
    const char *os;
    struct td_system sys;
    struct td_windows win; /* Windows only: runtime DLLs, KnownDLLs, CUDA_PATH */
    struct td_cpu cpu;
    struct td_gpu_info gpu;
    bool gpu_probed; /* false: --no-gpu */
    struct td_python *pythons;
    size_t n_py;
    struct td_torch *torch;
    size_t n_torch;
    struct td_graph **graphs; /* per torch: its import closure, NULL when not built */
    const char **env;         /* "NAME=value" of the variables the catalogue knows */
    size_t n_env;
    const struct td_kb_workload *workload; /* --workload, or NULL */
    bool workload_ready;
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
    struct td_findings findings;
    double elapsed_ms;
};

/* "24 GB GPU memory (32 recommended), 50 GB RAM": the needs W states, in
 * words; fields the source gives no number for are left out. */
const char *td_check_workload_needs(const struct td_kb_workload *w, char *out, size_t cap);

void td_check_text(const struct td_check_report *r, const struct td_term *t);
void td_check_markdown(const struct td_check_report *r, FILE *out);
void td_check_json(const struct td_check_report *r, FILE *out);

#endif
