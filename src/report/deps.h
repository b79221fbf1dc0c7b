/* Views of a dependency graph for `torchdoctor deps`: a de-duplicated tree
 * (text), the libraries list (JSON, DESIGN.md schema), a table (markdown)
 * and a graphviz digraph (dot). */
#ifndef TD_REPORT_DEPS_H
#define TD_REPORT_DEPS_H

#include <stdio.h>

#include "graph/graph.h"
#include "report/jsonw.h"
#include "report/term.h"

void td_deps_text(const struct td_graph *g, const struct td_term *t);
void td_deps_json(const struct td_graph *g, FILE *out);
/* The deps sections (profile, root, libraries, symbols) into the object W
 * is writing: `check` embeds them as its "deps" section. */
void td_deps_json_body(struct td_jsonw *w, const struct td_graph *g);
void td_deps_markdown(const struct td_graph *g, FILE *out);
void td_deps_dot(const struct td_graph *g, FILE *out);
/* One self-contained page: the findings, then the tree (report/html.h). */
void td_deps_html(const struct td_graph *g, FILE *out);
/* The collapsible tree alone, every place tried expandable: `check` embeds
 * it for each torch's import closure. */
void td_deps_html_tree(const struct td_graph *g, FILE *out);

/* "runpath of libtorch_cuda.so", "ld.so.cache", "DLL load dir": how an
 * object was found, in words. Writes OUT and returns it. */
const char *td_found_via(const struct td_object *o, char *out, size_t cap);

#endif
