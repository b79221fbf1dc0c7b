/* What the parts of the error explainer share, below all of them: a
 * match's named capture (errors.c fills the fields from it, errors_cause.c
 * names the file at fault) and a catalogue cell's example decoded. */
#include <string.h>

#include "kb/errors.h"

const char *td_explain_capture(const struct td_explain_match *m, const char *name)
{
    for (size_t i = 0; i < m->n_captures; i++)
        if (strcmp(m->capture_names[i], name) == 0)
            return m->captures[i];
    return NULL;
}

char *td_explain_decode_example(const char *cell, struct td_arena *a)
{
    char *out = td_arena_alloc(a, strlen(cell) + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (const char *p = cell; *p; p++) {
        if (p[0] == '\\' && (p[1] == 'n' || p[1] == '\\')) {
            out[o++] = p[1] == 'n' ? '\n' : '\\';
            p++;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
    return out;
}
