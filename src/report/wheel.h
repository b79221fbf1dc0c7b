/* Views of `torchdoctor wheel`: per wheel its tags, the platforms it
 * claims, a size breakdown, every native member (machine, needs, CUDA
 * code, debug bytes) and the findings: text, JSON (a "wheels" section in
 * the shared envelope), markdown. */
#ifndef TD_REPORT_WHEEL_H
#define TD_REPORT_WHEEL_H

#include <stdio.h>

#include "base/finding.h"
#include "kb/wheel.h"
#include "report/term.h"

struct td_wheel_report {
    const struct td_wheel_facts *wheels;
    size_t n;
    const struct td_findings *findings; /* of all of them */
};

void td_wheel_text(const struct td_wheel_report *r, const struct td_term *t);
void td_wheel_json(const struct td_wheel_report *r, FILE *out);
void td_wheel_markdown(const struct td_wheel_report *r, FILE *out);

#endif
