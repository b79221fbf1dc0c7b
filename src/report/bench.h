/* Views of a bench run for `torchdoctor bench`: a table per part (text),
 * the envelope with a "bench" section (JSON, DESIGN.md "bench"), one table
 * of every figure (markdown). */
#ifndef TD_REPORT_BENCH_H
#define TD_REPORT_BENCH_H

#include <stdio.h>

#include "bench/bench.h"
#include "report/term.h"

void td_bench_text(const struct td_bench *b, const struct td_term *t);
/* PRETTY false: the whole document on one line (JSON Lines, for srun). */
void td_bench_json(const struct td_bench *b, FILE *out, bool pretty);
void td_bench_markdown(const struct td_bench *b, FILE *out);

/* bench --workload (bench_workload.c). */
void td_bench_workload_text(const struct td_bench_workload *w, const struct td_term *t);
void td_bench_workload_json(const struct td_bench_workload *w, FILE *out, bool pretty);
/* "2.3 s/step, 100 steps ≈ 3.8 min; stable (drift +1% over 100 rounds)" */
const char *td_workload_speed_verdict(const struct td_bench_workload *w, char *out, size_t cap);
/* "as expected: a healthy ... takes about X s/step" / "slow: ..." / "no comparison: why" */
const char *td_workload_peer_verdict(const struct td_bench_workload *w, char *out, size_t cap);

#endif
