/* Views of `torchdoctor fleet`: the groups of nodes with their node sets in
 * hostlist notation, each outlier's differences and its one fix, slow and
 * failed nodes, unreadable reports; text, JSON, markdown and HTML. */
#ifndef TD_REPORT_FLEET_H
#define TD_REPORT_FLEET_H

#include <stdio.h>

#include "probe/fleet/fleet.h"
#include "report/term.h"

void td_fleet_text(const struct td_fleet *f, const struct td_term *t);
void td_fleet_json(const struct td_fleet *f, FILE *out);
void td_fleet_markdown(const struct td_fleet *f, FILE *out);
void td_fleet_html(const struct td_fleet *f, FILE *out);

#endif
