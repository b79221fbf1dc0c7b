/* The error explainer against its whole catalogue (every data/errors.tsv
 * row's example is won by that row, with the row's kind, and its fields come
 * out), then against the ways a message reaches us: wrapped by a terminal or
 * a logger, coloured, with CRLF, inside a traceback, in Chinese or German, in
 * Python 3.7's and 3.8's wording. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "base/data.h"
#include "kb/errors.h"

static struct td_explain explain(const char *text)
{
    struct td_explain x;
    struct td_err err = {0};
    assert_int_equal(td_explain_text(text, strlen(text), &x, &err), 0);
    return x;
}

static const char *best_id(const struct td_explain *x)
{
    return x->n_matches ? x->matches[0].id : "(none)";
}

/* Every row: its example is won by the row itself (alone at the top), the
 * kind is the row's, and each placeholder captured something; when the row
 * names a Windows error code the example carries, the extractor agrees. */
static void every_example_is_won_by_its_row(void **state)
{
    size_t len;
    const char *table = td_data_table("errors", &len);
    assert_non_null(table);
    struct td_tsv t;
    static char line[8192];
    const char *cells[16];
    td_tsv_open(&t, table, len);
    int hn = td_tsv_next(&t, line, sizeof line, cells, 16);
    int c_id = td_tsv_column(cells, hn, "id"), c_kind = td_tsv_column(cells, hn, "kind"),
        c_ex = td_tsv_column(cells, hn, "example"), c_code = td_tsv_column(cells, hn, "error_code");
    int rows = 0, bad = 0;
    struct td_arena a = {0};
    while (td_tsv_next(&t, line, sizeof line, cells, 16) == hn) {
        rows++;
        const char *example = td_explain_decode_example(cells[c_ex], &a);
        struct td_explain x = explain(example);
        const char *got = best_id(&x);
        if (strcmp(got, cells[c_id]) != 0 || x.n_best != 1) {
            printf("row %s: won by %s (%zu equally specific)\n", cells[c_id], got, x.n_best);
            bad++;
        } else if (strcmp(x.matches[0].kind, cells[c_kind]) != 0) {
            printf("row %s: kind %s\n", cells[c_id], x.matches[0].kind);
            bad++;
        } else {
            for (size_t k = 0; k < x.matches[0].n_captures; k++)
                if (!x.matches[0].captures[k][0] && strcmp(x.matches[0].capture_names[k], "dir")) {
                    printf("row %s: empty {%s}\n", cells[c_id], x.matches[0].capture_names[k]);
                    bad++;
                }
            if (strncmp(cells[c_code], "WinError ", 9) == 0 && strstr(example, "WinError") &&
                (!x.fields.error_code || strcmp(x.fields.error_code, cells[c_code]) != 0)) {
                printf("row %s: error code %s, row says %s\n", cells[c_id],
                       x.fields.error_code ? x.fields.error_code : "(none)", cells[c_code]);
                bad++;
            }
        }
        td_explain_free(&x);
    }
    td_arena_free(&a);
    printf("catalogue: %d rows, %d failures\n", rows, bad);
    assert_true(rows >= 90);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_example_is_won_by_its_row),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
