/* inspect MODEL: a checkpoint's components, parameters, dtypes, bytes on
 * disk, and the memory its weights take at each precision of
 * data/precisions.tsv. */
#include <stdio.h>

#include "kb/memory.h"
#include "report/inspect.h"

void td_inspect_model(struct td_view *v, const struct td_model *m)
{
    td_view_json_str(v, "format", m->kind);
    td_view_uint(v, "params", "parameters", m->params);
    td_view_uint(v, "bytes_on_disk", "bytes on disk", m->bytes_on_disk);
    td_view_list_begin(v, "components", "components");
    for (unsigned i = 0; i < m->ncomps; i++) {
        const struct td_model_component *c = &m->comps[i];
        char title[160];
        snprintf(title, sizeof title, "%s%s%s%s: %.3g parameters", c->name, c->class[0] ? " (" : "",
                 c->class, c->class[0] ? ")" : "", (double)c->params);
        td_view_begin(v, NULL, title);
        td_view_str(v, "name", NULL, c->name);
        td_view_str(v, "class", NULL, c->class[0] ? c->class : NULL);
        td_view_str(v, "weights_format", "format", c->format);
        td_view_uint(v, "files", "files", c->files);
        td_view_uint(v, "tensors", "tensors", c->tensors);
        td_view_uint(v, "params", NULL, c->params);
        td_view_uint(v, "bytes_on_disk", "bytes on disk", c->bytes_on_disk);
        td_view_list_begin_inline(v, "dtypes", "dtypes");
        for (unsigned d = 0; d < c->ndtypes; d++) {
            td_view_row_begin(v);
            td_view_str(v, "dtype", NULL, c->dtypes[d].name);
            td_view_uint(v, "params", "params", c->dtypes[d].params);
            td_view_uint(v, "bytes", "bytes", c->dtypes[d].bytes);
            td_view_row_end(v);
        }
        td_view_list_end(v);
        td_view_end(v);
    }
    td_view_list_end(v);
    const char *names[16];
    size_t n = td_mem_precisions(names, 16);
    td_view_list_begin(v, "memory", "weights in memory");
    for (size_t i = 0; i < n; i++) {
        td_view_row_begin(v);
        td_view_str(v, "precision", NULL, names[i]);
        td_view_uint(v, "bytes", "bytes",
                     (uint64_t)((double)m->params * td_mem_precision_bytes(names[i])));
        td_view_row_end(v);
    }
    td_view_list_end(v);
}
