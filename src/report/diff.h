/* Views of `diff` (a ranked list of changes and the new findings) and of
 * `log` (one line per entry of a change log): text, markdown, JSON. */
#ifndef TD_REPORT_DIFF_H
#define TD_REPORT_DIFF_H

#include <stdio.h>

#include "snapshot/snapshot.h"
#include "report/term.h"

/* One line: "1 breaks, 2 risky, 3 neutral: torch 2.1.2+cu121 -> 2.1.2+cpu
 * (torch_variant_mismatch)", or "no change". */
const char *td_diff_summary(const struct td_diff *d, char *out, size_t cap);

void td_diff_text(const struct td_diff *d, const struct td_term *t);
void td_diff_markdown(const struct td_diff *d, FILE *out);
/* One self-contained page (report/html.h): the summary, the new findings,
 * every change in a table, breaking ones first. */
void td_diff_html(const struct td_diff *d, FILE *out);
void td_diff_json(const struct td_diff *d, const char *old_taken, const char *new_taken, FILE *out);

/* One line of a change log and what changed since the line before. */
struct td_log_entry {
    size_t line;
    const char *taken_at;
    bool first;          /* nothing to compare with */
    size_t count[3];     /* changes per impact */
    size_t new_errors;   /* new error findings */
    const char *summary; /* td_diff_summary */
};

void td_log_text(const struct td_log_entry *e, size_t n, FILE *out);
void td_log_json(const struct td_log_entry *e, size_t n, FILE *out);

#endif
