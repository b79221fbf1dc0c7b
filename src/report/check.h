/* Views of `torchdoctor check`: short sections of ✓ / ! / ✗ lines (text,
 * markdown for a bug report) and the JSON sections DESIGN.md names
 * (system, cpu, gpus, driver, pythons, torch, env, deps). */
#ifndef TD_REPORT_CHECK_H
#define TD_REPORT_CHECK_H

#include <stdio.h>

#include "graph/graph.h"
#include "kb/kb.h"
#include "probe/probe.h"
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
    struct td_findings findings;
    double elapsed_ms;
};

void td_check_text(const struct td_check_report *r, const struct td_term *t);
void td_check_markdown(const struct td_check_report *r, FILE *out);
void td_check_json(const struct td_check_report *r, FILE *out);

#endif
