/* Dotted versions compare part by part as numbers (base/version.h). */
#include "testutil.h"

#include "base/version.h"

static void compares_numerically(void **state)
{
    assert_true(td_version_cmp("2.10", "2.9") > 0);
    assert_true(td_version_cmp("570.124.06", "570.26") > 0);
    assert_true(td_version_cmp("3.9", "3.10") < 0);
    assert_int_equal(td_version_cmp("12.4", "12.4.0"), 0); /* missing parts are 0 */
    assert_int_equal(td_version_cmp("2.5.1+cu124", "2.5.1"), 0);
    assert_int_equal(td_version_cmp("2.6.0a0", "2.6.0"), 0);
    assert_int_equal(td_version_cmp("2.5.0.dev20240801", "2.5.0"), 0);
    assert_true(td_version_cmp("525.60.13", "525.60.2") > 0);
    assert_true(td_version_cmp("", "1") < 0);
}

static void satisfies_specs(void **state)
{
    assert_true(td_version_satisfies("3.12", "<=3.12"));
    assert_false(td_version_satisfies("3.13", "<=3.12"));
    assert_true(td_version_satisfies("3.9", ">=3.9"));
    assert_false(td_version_satisfies("3.8", ">=3.9"));
    assert_true(td_version_satisfies("579.1", "<580"));
    assert_false(td_version_satisfies("580", "<580"));
    assert_true(td_version_satisfies("581", ">580"));
    assert_true(td_version_satisfies("2.1", "=2.1.0"));
    assert_true(td_version_satisfies("2.1", "==2.1"));
    assert_false(td_version_satisfies("2.2", "2.1"));
    assert_true(td_version_satisfies("anything", "-"));
    assert_true(td_version_satisfies("anything", ""));
    assert_true(td_version_satisfies("1", NULL));
}

static void prefixes_and_trims(void **state)
{
    assert_true(td_version_has_prefix("2.1.2", "2.1"));
    assert_true(td_version_has_prefix("2.1", "2.1"));
    assert_false(td_version_has_prefix("2.10.0", "2.1"));
    assert_false(td_version_has_prefix("2", "2.0"));
    assert_true(td_version_has_prefix("12.4.1", ""));
    char out[16];
    assert_string_equal(td_version_trim("2.1.2+cu121", 2, out, sizeof out), "2.1");
    assert_string_equal(td_version_trim("2.1.2+cu121", 3, out, sizeof out), "2.1.2");
    assert_string_equal(td_version_trim("12", 2, out, sizeof out), "12");
    assert_string_equal(td_version_trim("550.54.14", 1, out, sizeof out), "550");
    char tiny[4];
    assert_string_equal(td_version_trim("123.456", 2, tiny, sizeof tiny), "123");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compares_numerically),
        cmocka_unit_test(satisfies_specs),
        cmocka_unit_test(prefixes_and_trims),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
