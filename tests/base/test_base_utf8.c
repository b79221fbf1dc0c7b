/* Where a UTF-8 stream may be cut (the Windows console relay converts it
 * in chunks) and what counts as valid UTF-8 (base/utf8.h). */
#include "testutil.h"

#include <string.h>

#include "base/utf8.h"

static void cuts_before_an_unfinished_character(void **state)
{
    const char *s = "a\xe7\x94\xa8"; /* "a用" */
    assert_int_equal(td_utf8_whole(s, 4), 4);
    assert_int_equal(td_utf8_whole(s, 3), 1); /* 用 cut after two of its bytes */
    assert_int_equal(td_utf8_whole(s, 2), 1);
    assert_int_equal(td_utf8_whole(s, 1), 1);
    assert_int_equal(td_utf8_whole("\xf0\x9f\x98\x80", 3), 0); /* 😀 unfinished */
    assert_int_equal(td_utf8_whole("\xf0\x9f\x98\x80", 4), 4);
    assert_int_equal(td_utf8_whole("ab", 2), 2);
    assert_int_equal(td_utf8_whole("", 0), 0);
    assert_int_equal(td_utf8_whole("\x80\x80\x80\x80", 4), 4); /* garbage is passed on */
}

static void validates_rfc3629(void **state)
{
    const char *ok = "用户张三 Пользователь 😀";
    assert_true(td_utf8_valid(ok, strlen(ok)));
    assert_false(td_utf8_valid("\xc0\xaf", 2));         /* overlong '/' */
    assert_false(td_utf8_valid("\xed\xa0\x80", 3));     /* a surrogate */
    assert_false(td_utf8_valid("\xf4\x90\x80\x80", 4)); /* past U+10FFFF */
    assert_false(td_utf8_valid("\xd3\xc3\xbb\xa7", 4)); /* 用户 in GBK */
    assert_int_equal(td_utf8_valid_prefix("ab\xe7\x94", 4), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuts_before_an_unfinished_character),
        cmocka_unit_test(validates_rfc3629),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
