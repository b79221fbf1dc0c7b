/* Views of a trace for `torchdoctor trace`: a timeline (text), the
 * envelope with a "trace" section (JSON), a table (markdown). */
#ifndef TD_REPORT_TRACE_H
#define TD_REPORT_TRACE_H

#include <stdio.h>

#include "trace/trace.h"
#include "report/term.h"

void td_trace_text(const struct td_trace *tr, const struct td_term *t);
void td_trace_json(const struct td_trace *tr, FILE *out);
void td_trace_markdown(const struct td_trace *tr, FILE *out);

#endif
