/* Views of `torchdoctor explain`'s answer (docs/explain.md): text, JSON
 * (the envelope with the finding's ranked causes and an "explain" section)
 * and markdown, all of one record. */
#ifndef TD_REPORT_EXPLAIN_H
#define TD_REPORT_EXPLAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "base/finding.h"
#include "graph/explain_local.h"
#include "kb/errors.h"
#include "report/term.h"

/* What the dependency graph showed for the file the message names. */
struct td_explain_local {
    bool built;
    const char *file;     /* as the message names it */
    const char *host;     /* where it is on this machine */
    const char *role;     /* "was being loaded", "needs the missing file", ... */
    const char *platform; /* "windows", ... */
    const char *profile;
    const struct td_local_notes *notes; /* what the message does not say */
};

/* One note as the sentence text, JSON and markdown show. Returns OUT. */
const char *td_local_note_text(const struct td_local_note *n, char *out, size_t cap);

struct td_explain_view {
    const struct td_explain *x;
    const struct td_findings *findings;
    const struct td_explain_cause *causes; /* of findings->items[0] */
    size_t n_causes;
    const struct td_explain_local *local;
    const char *platform;
    const char *input_encoding; /* what the text was decoded from (base/text.h) */
};

void td_explain_render_json(const struct td_explain_view *v, FILE *out, bool pretty);
void td_explain_render_text(const struct td_explain_view *v, const struct td_term *t);
void td_explain_render_markdown(const struct td_explain_view *v, FILE *out);
/* One self-contained page (report/html.h): the finding, the ranked causes
 * with their fixes and confirming commands, the fields, this machine. */
void td_explain_render_html(const struct td_explain_view *v, FILE *out);

#endif
