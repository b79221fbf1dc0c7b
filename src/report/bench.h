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

#endif
