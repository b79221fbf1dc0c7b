/* The knowledge tables are embedded and readable through the TSV iterator. */
#include "testutil.h"

#include <string.h>

#include "base/data.h"

static void embedded_tables_have_header_and_rows(void **state)
{
    size_t len;
    const char *text = td_data_table("windows_apisets", &len);
    assert_non_null(text);
    assert_true(len > 1000);
    size_t none;
    assert_null(td_data_table("no_such_table", &none));

    struct td_tsv t;
    char line[4096];
    const char *cells[16];
    td_tsv_open(&t, text, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 16);
    assert_true(n > 2);
    assert_string_equal(cells[n - 1], "source");
    int contract = td_tsv_column(cells, n, "contract"), host = td_tsv_column(cells, n, "host");
    assert_true(contract >= 0 && host >= 0);
    bool crt_runtime = false;
    int rows = 0;
    while ((n = td_tsv_next(&t, line, sizeof line, cells, 16)) > 0) {
        rows++;
        if (strcmp(cells[contract], "api-ms-win-crt-runtime-l1-1") == 0)
            crt_runtime = strcmp(cells[host], "ucrtbase.dll") == 0;
    }
    assert_true(rows > 400);
    assert_true(crt_runtime);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(embedded_tables_have_header_and_rows)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
