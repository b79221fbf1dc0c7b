/* libFuzzer target for the error explainer: any pasted text is cleaned,
 * its fields extracted, read into its parts (files, symbols, versions,
 * codes, raiser: errors_read.c), matched against the whole catalogue, read
 * by the general layer (load error, role, ranked causes) and made into
 * findings. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kb/errors.h"

static void touch(const char *s)
{
    /* Reading the whole string makes the sanitizer check its bounds. */
    if (s)
        (void)strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    struct td_explain x;
    struct td_err err = {0};
    if (td_explain_text((const char *)data, size, &x, &err) == 0) {
        const struct td_explain_fields *f = &x.fields;
        touch(x.text);
        touch(f->file);
        touch(f->file_name);
        touch(f->needed_by);
        touch(f->symbol);
        touch(f->version);
        touch(f->error_code);
        touch(f->ntstatus);
        for (size_t i = 0; i < x.n_matches; i++)
            for (size_t k = 0; k < x.matches[i].n_captures; k++)
                touch(x.matches[i].captures[k]);
        const struct td_explain_parts *p = &x.parts;
        for (size_t i = 0; i < p->n_files; i++)
            touch(p->files[i].path), touch(p->files[i].name);
        for (size_t i = 0; i < p->n_symbols; i++)
            touch(p->symbols[i].name), touch(p->symbols[i].demangled), touch(p->symbols[i].version),
                touch(p->symbols[i].owner);
        for (size_t i = 0; i < p->n_versions; i++)
            touch(p->versions[i].value);
        for (size_t i = 0; i < p->n_codes; i++)
            touch(p->codes[i].value), touch(p->codes[i].name);
        touch(p->raiser_library);
        const struct td_explain_load *l = &x.load;
        touch(l->library);
        touch(l->needed_by);
        touch(l->symbol);
        touch(l->file);
        touch(l->defined_by);
        for (size_t i = 0; i < l->n_causes; i++) {
            touch(l->causes[i].detail);
            touch(l->causes[i].fix);
            touch(l->causes[i].confirm);
        }
        struct td_findings out = {0};
        struct td_explain_cause causes[TD_EXPLAIN_MAX_CAUSES];
        size_t n;
        td_explain_findings(&x, NULL, NULL, &out, causes, &n);
        td_findings_free(&out);
    }
    td_explain_free(&x);
    return 0;
}
