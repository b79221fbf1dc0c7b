/* The pieces every `--format html` page is made of (DESIGN.md "html"): one
 * self-contained page, inline CSS, a few lines of inline JS that only add
 * copy buttons (the page reads the same without it), findings first with
 * their fixes as code blocks, and every string from the input escaped. */
#ifndef TD_REPORT_HTML_H
#define TD_REPORT_HTML_H

#include <stdio.h>

#include "base/finding.h"

/* Writes S with & < > " ' as character references (NULL writes nothing). */
void td_html_text(FILE *out, const char *s);
/* Opens the page: doctype, charset, the title (escaped), the style. */
void td_html_begin(FILE *out, const char *title);
/* <section id="findings">: each finding with its detail and its fix as a
 * code block; "No problem found." when there are none. */
void td_html_findings(FILE *out, const struct td_findings *f);
/* Closes the page (and adds the copy-button script). */
void td_html_end(FILE *out);

#endif
