/* Views of a `torchdoctor compat` answer: which official torch builds fit
 * the constraints, the best pick with its pip command, and the findings
 * when nothing fits (text, JSON in the shared envelope, markdown). */
#ifndef TD_REPORT_COMPAT_H
#define TD_REPORT_COMPAT_H

#include <stdio.h>

#include "base/finding.h"
#include "kb/kb.h"
#include "report/term.h"

struct td_compat_report {
    struct td_kb_query query;
    const char *gpu;                  /* as given ("RTX 4090", "sm_89"); NULL: none */
    const char *python_cmd;           /* for pip commands: "3.11" or NULL */
    const struct td_kb_build *builds; /* newest first */
    size_t n_builds;
    const struct td_kb_build *best; /* NULL when nothing fits */
    /* Direct answers: "" when the question did not ask them. */
    char driver_max_cuda[TD_KB_STR]; /* newest CUDA the --driver fully supports */
    char cuda_min_driver[TD_KB_STR]; /* full-feature driver of --cuda */
    char cuda_floor[TD_KB_STR];      /* minor-version-compatibility floor of --cuda */
    char python_min[TD_KB_STR], python_max[TD_KB_STR]; /* of --torch */
    const struct td_findings *findings;
};

void td_compat_text(const struct td_compat_report *r, const struct td_term *t);
void td_compat_json(const struct td_compat_report *r, FILE *out);
void td_compat_markdown(const struct td_compat_report *r, FILE *out);

/* "full", "minor-compat" or NULL (no driver asked); "sass", "ptx",
 * "unknown" or NULL (no GPU asked). */
const char *td_compat_driver_word(const struct td_kb_query *q, const struct td_kb_build *b);
const char *td_compat_arch_word(enum td_kb_arch_fit a);

#endif
