/* Unit tests of explain's local scan (src/graph/explain_local.c): the
 * paths the requirer scan takes its directories from, read by hand, are
 * those the ERE it replaced finds, leftmost-longest, on random texts. */
#include "testutil.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "graph/explain_local.h"

static void paths_are_the_ere_s(void **state)
{
    (void)state;
    regex_t re;
    assert_int_equal(regcomp(&re, "(/[^ \t\n\"':,()]+|[A-Za-z]:\\\\[^\t\n\"']+)", REG_EXTENDED), 0);
    static const char alphabet[] = "/ \t\n\"':,()aZz@[`{:\\\\.-_\xc3\xa9\x80\xff";
    char text[48];
    size_t matches = 0;
    srand(3);
    for (int it = 0; it < 100000; it++) {
        size_t n = (size_t)rand() % (sizeof text - 1);
        for (size_t i = 0; i < n; i++)
            text[i] = alphabet[(size_t)rand() % (sizeof alphabet - 1)];
        text[n] = '\0';
        const char *p = text, *q = text;
        for (;;) {
            regmatch_t m[2];
            size_t len = 0;
            int rc = regexec(&re, p, 2, m, 0);
            const char *at = td_local_next_path(q, &len);
            if (rc != 0 || !at) {
                if ((rc == 0) != (at != NULL))
                    fail_msg("\"%s\": the ERE %s, the scan %s", text, rc ? "none" : "one",
                             at ? "one" : "none");
                break;
            }
            if (p + m[1].rm_so != at || (size_t)(m[1].rm_eo - m[1].rm_so) != len)
                fail_msg("\"%s\": the ERE %.*s, the scan %.*s", text,
                         (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so, (int)len, at);
            matches++;
            p += m[0].rm_eo;
            q = at + len;
        }
    }
    regfree(&re);
    assert_true(matches > 10000);
}

static void paths_in_a_traceback(void **state)
{
    (void)state;
    size_t len = 0;
    const char *t = "  File \"/opt/venv/lib/torch/__init__.py\", line 1\n"
                    "C:\\Program Files\\x y\\a.dll: (/b)";
    const char *at = td_local_next_path(t, &len);
    assert_non_null(at);
    assert_int_equal(len, strlen("/opt/venv/lib/torch/__init__.py"));
    at = td_local_next_path(at + len, &len);
    assert_non_null(at);
    assert_int_equal(len, strlen("C:\\Program Files\\x y\\a.dll: (/b)"));
    assert_null(td_local_next_path(at + len, &len));
    assert_null(td_local_next_path("/ / a:/ C:\\", &len));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_are_the_ere_s),
        cmocka_unit_test(paths_in_a_traceback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
