/* libFuzzer target for the error explainer: any pasted text is cleaned,
 * its fields extracted and matched against the whole catalogue. */
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
    }
    td_explain_free(&x);
    return 0;
}
