/* The catalogue's example texts for the kb tests that run every explain ERE
 * over them: each row's example of data/errors.tsv, decoded, and its
 * neutral form where the example has one. */
#ifndef TD_TESTS_KB_CATALOGUE_EXAMPLES_H
#define TD_TESTS_KB_CATALOGUE_EXAMPLES_H

#include "testutil.h"

#include "base/data.h"
#include "kb/explain/errors_internal.h"

/* Fills TEXTS with at most CAP texts allocated in A; returns how many. */
static size_t catalogue_examples(const char **texts, size_t cap, struct td_arena *a)
{
    size_t len, n = 0;
    const char *t = td_data_table("errors", &len);
    assert_non_null(t);
    struct td_tsv tsv;
    td_tsv_open(&tsv, t, len);
    const char *cells[16];
    static char line[16384];
    int hn = td_tsv_next(&tsv, line, sizeof line, cells, 16);
    int c_ex = td_tsv_column(cells, hn, "example");
    assert_true(c_ex >= 0);
    while (n + 2 <= cap && td_tsv_next(&tsv, line, sizeof line, cells, 16) == hn) {
        texts[n++] = td_explain_decode_example(cells[c_ex], a);
        size_t removed;
        const char *neutral = td_explain_neutral(texts[n - 1], false, a, &removed);
        if (neutral)
            texts[n++] = neutral;
    }
    return n;
}

#endif
