/* td_demangle: mangled C++ names become readable, everything else stays. */
#include "testutil.h"

#include "base/demangle.h"

static void demangles_itanium_names(void **state)
{
    char buf[256];
    assert_string_equal(
        td_demangle("_ZN3c1010TensorImpl35compute_channels_last_contiguous_2dEv", buf, sizeof buf),
        "c10::TensorImpl::compute_channels_last_contiguous_2d()");
    assert_string_equal(td_demangle("memcpy", buf, sizeof buf), "memcpy");
    assert_string_equal(td_demangle("_Znot_valid", buf, sizeof buf), "_Znot_valid");
    assert_string_equal(td_demangle("_ZN3c1010TensorImplD2Ev", buf, 8), "c10::Te");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(demangles_itanium_names)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
