/* Views of `torchdoctor check`: short sections of ✓ / ! / ✗ lines (text,
 * markdown for a bug report) and the JSON sections DESIGN.md names
 * (system, cpu, gpus, driver, pythons, torch, env, deps). */
#ifndef TD_REPORT_CHECK_H
#define TD_REPORT_CHECK_H

#include <stdio.h>

#include "graph/graph.h"
#include "kb/kb.h"
#include "probe/diagnose.h"
#include "report/jsonw.h"
#include "report/term.h"

/* "24 GB GPU memory (32 recommended), 50 GB RAM": the needs W states, in
 * words; fields the source gives no number for are left out. */
/* "fits with 3.1 GB to spare (...)" / "will not fit: needs ...; with X Y GB". */
const char *td_check_memory_verdict(const struct td_mem_estimate *e, const char *device, char *out,
                                    size_t cap);
/* The "memory" object of check --workload's JSON (bench --workload's too). */
void td_check_json_memory(struct td_jsonw *w, const struct td_mem_estimate *e, const char *device);
const char *td_check_workload_needs(const struct td_kb_workload *w, char *out, size_t cap);

void td_check_text(const struct td_check_report *r, const struct td_term *t);
void td_check_markdown(const struct td_check_report *r, FILE *out);
/* PRETTY false: the whole document on one line (JSON Lines, for srun). */
void td_check_json(const struct td_check_report *r, FILE *out, bool pretty);
/* One self-contained page (report/html.h): the machine and the verdict on
 * top, the findings with their fixes, the sections, each torch's tree. */
void td_check_html(const struct td_check_report *r, FILE *out);
/* check --health: one line fit for a Slurm drain reason ("torchdoctor:
 * KIND: detail"), and on an error finding the `scontrol update ...
 * state=drain reason=...` line after it, printed, never run. Returns the
 * exit status: 0 healthy, 1 an error finding. */
int td_check_health(const struct td_check_report *r, FILE *out);
/* check's JSON sections (system ... deps) without the envelope, for the
 * commands that report what check reports (snapshot). STABLE leaves out
 * what changes from one second to the next (free RAM, free disk). */
void td_check_json_sections(struct td_jsonw *w, const struct td_check_report *r, bool stable);
/* The "environment" section (report/check_environment.c); nothing when not probed. */
void td_check_json_environment(struct td_jsonw *w, const struct td_environment *e);

#endif
