/* The pull JSON reader (base/json.h): walking a document, skipping what is
 * not wanted, unescaping, and the malformed inputs RFC 8259 rules out. */
#include "testutil.h"

#include <string.h>

#include "base/json.h"

static bool skips_whole(const char *text)
{
    struct td_json j;
    td_json_init(&j, text, strlen(text));
    return td_json_skip(&j) && td_json_peek(&j) == TD_JSON_NONE && !j.error;
}

static void walks_an_object(void **state)
{
    const char *doc = " {\"name\": \"pytorch\", \"skip\": [1, {\"a\": [true, null]}, -2.5e3],"
                      " \"size\": 18446744073709551615, \"neg\": -1, \"s\": 7}";
    struct td_json j;
    td_json_init(&j, doc, strlen(doc));
    assert_true(td_json_enter(&j, TD_JSON_OBJECT));
    struct td_json_str k, v;
    uint64_t n = 0;
    bool first = true;
    assert_true(td_json_next(&j, &first) && td_json_key(&j, &k) && td_json_is(&k, "name"));
    assert_true(td_json_string(&j, &v) && td_json_is(&v, "pytorch"));
    assert_true(td_json_next(&j, &first) && td_json_key(&j, &k) && td_json_is(&k, "skip"));
    assert_true(td_json_skip(&j));
    assert_true(td_json_next(&j, &first) && td_json_key(&j, &k));
    assert_true(td_json_uint(&j, &n));
    assert_true(n == UINT64_MAX);
    assert_true(td_json_next(&j, &first) && td_json_key(&j, &k));
    assert_false(td_json_uint(&j, &n)); /* -1: taken, not a uint */
    assert_true(td_json_next(&j, &first) && td_json_key(&j, &k));
    assert_false(td_json_string(&j, &v)); /* 7: taken, not a string */
    assert_false(td_json_next(&j, &first));
    assert_null(j.error);
    assert_int_equal(td_json_peek(&j), TD_JSON_NONE);
}

static void unescapes(void **state)
{
    struct td_arena a = {0};
    const char *doc = "\"a\\\"b\\\\c\\/d\\n\\u00e9\\u7528\\ud83d\\ude00\"";
    struct td_json j;
    struct td_json_str s;
    td_json_init(&j, doc, strlen(doc));
    assert_true(td_json_string(&j, &s) && s.escaped);
    assert_string_equal(td_json_strdup(&a, &s), "a\"b\\c/d\n\xc3\xa9\xe7\x94\xa8\xf0\x9f\x98\x80");
    static const char *const bad[] = {"\"\\u0000\"", "\"\\ud83d\"", "\"\\ude00x\"", "\"\\x\"",
                                      "\"\\u12\""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        td_json_init(&j, bad[i], strlen(bad[i]));
        assert_true(td_json_string(&j, &s));
        assert_null(td_json_strdup(&a, &s));
    }
    td_arena_free(&a);
}

static void rejects_what_rfc8259_rules_out(void **state)
{
    static const char *const bad[] = {
        "[1,]", "{\"a\":1,}", "[1 2]", "{\"a\" 1}", "{1: 2}", "[01]",       "[1.]", "[.5]",
        "[1e]", "[-]",        "[tru]", "[nul]",     "\"ab",   "[\"a\nb\"]", "[1}",  "{\"a\":1]",
        "[",    "{",          "",      "]",         "[,1]",   "+1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_false(skips_whole(bad[i]));
    static const char *const good[] = {"[]",   "{}",     "0",      "-0.5E+2",
                                       "\"\"", "[[[]]]", " null ", "{\"a\":{\"b\":[false,true]}}"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        assert_true(skips_whole(good[i]));
}

static void limits_nesting(void **state)
{
    char deep[2 * TD_JSON_MAX_DEPTH + 8];
    size_t n = 0;
    for (int i = 0; i < TD_JSON_MAX_DEPTH; i++)
        deep[n++] = '[';
    for (int i = 0; i < TD_JSON_MAX_DEPTH; i++)
        deep[n++] = ']';
    deep[n] = '\0';
    assert_true(skips_whole(deep));
    char deeper[2 * TD_JSON_MAX_DEPTH + 8] = "[";
    strcat(deeper, deep);
    strcat(deeper, "]");
    assert_false(skips_whole(deeper));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walks_an_object),
        cmocka_unit_test(unescapes),
        cmocka_unit_test(rejects_what_rfc8259_rules_out),
        cmocka_unit_test(limits_nesting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
