/* Views of a bench run for `torchdoctor bench`: a table per part (text),
 * the envelope with a "bench" section (JSON, DESIGN.md "bench"), one table
 * of every figure (markdown). */
#ifndef TD_REPORT_BENCH_H
#define TD_REPORT_BENCH_H

#include <stdio.h>

#include "bench/bench.h"
#include "report/term.h"

void td_bench_text(const struct td_bench *b, const struct td_term *t);
void td_bench_json(const struct td_bench *b, FILE *out);
void td_bench_markdown(const struct td_bench *b, FILE *out);

#endif
