/* td_host_path: a target path turned into the host path the loader opens,
 * with and without --root, and the answer when it does not fit. */
#include "testutil.h"

#include <string.h>

#include "loader/loader.h"

static void test_without_root(void **state)
{
    struct td_loader_config cfg = {.platform = TD_PLATFORM_LINUX};
    char out[32];
    assert_ptr_equal(td_host_path(&cfg, "/usr/lib/libz.so.1", out, sizeof out), out);
    assert_string_equal(out, "/usr/lib/libz.so.1");
    assert_ptr_equal(td_host_path(&cfg, "lib/libz.so", out, sizeof out), out); /* stays relative */
    assert_string_equal(out, "lib/libz.so");
    /* 31 characters fit in 32 bytes; 32 do not. */
    const char *fits = "/0123456789/0123456789/01234567";
    assert_ptr_equal(td_host_path(&cfg, fits, out, sizeof out), out);
    assert_string_equal(out, fits);
    assert_null(td_host_path(&cfg, "/0123456789/0123456789/012345678", out, sizeof out));
    assert_null(td_host_path(&cfg, "/x", out, 0));
}

static void test_under_root(void **state)
{
    struct td_loader_config cfg = {.platform = TD_PLATFORM_LINUX, .root = "/nonexistent-root"};
    char out[64];
    assert_ptr_equal(td_host_path(&cfg, "/usr//lib/libz.so.1", out, sizeof out), out);
    assert_string_equal(out, "/nonexistent-root/usr/lib/libz.so.1");
    /* A path already under the root is taken as it is. */
    assert_ptr_equal(td_host_path(&cfg, "/nonexistent-root/lib/x", out, sizeof out), out);
    assert_string_equal(out, "/nonexistent-root/lib/x");
    assert_ptr_equal(td_host_path(&cfg, "/", out, sizeof out), out);
    assert_string_equal(out, "/nonexistent-root");
    assert_null(td_host_path(&cfg, "/usr/lib/libz.so.1", out, 18)); /* the root alone is 17 */
    cfg.root = "";
    assert_ptr_equal(td_host_path(&cfg, "/", out, sizeof out), out);
    assert_string_equal(out, "/");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_without_root),
        cmocka_unit_test(test_under_root),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
