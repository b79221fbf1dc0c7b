/* The JSON envelope every command shares (DESIGN.md "JSON schema"):
 * tool, version, schema_version, command, platform, findings, then command
 * sections. */
#ifndef TD_REPORT_ENVELOPE_H
#define TD_REPORT_ENVELOPE_H

#include "base/compat.h"
#include "base/finding.h"
#include "report/jsonw.h"
#include "report/term.h"

/* The version of schema/report.schema.json the reports follow: raised when a
 * field changes meaning or goes away, not when one is added. */
enum { TD_SCHEMA_VERSION = 1 };

/* Opens the top-level object and writes tool, version, schema_version,
 * command, platform. */
void td_envelope_begin(struct td_jsonw *w, const char *command, const char *platform);
/* The fields of one finding (severity ... fix) into the object W has open:
 * for a command that adds its own (explain's "causes"). */
void td_envelope_finding_fields(struct td_jsonw *w, const struct td_finding *x);
/* "host": the machine the report is about (check, bench), so fleet
 * pairs a node's reports. */
void td_envelope_host(struct td_jsonw *w, const char *host);
/* Writes "findings": [...]. */
void td_envelope_findings(struct td_jsonw *w, const struct td_findings *f);
/* Closes the top-level object. */
void td_envelope_end(struct td_jsonw *w);

/* Text view of the findings: one block per finding with its fix. */
void td_findings_text(const struct td_term *t, const struct td_findings *f);

#endif
