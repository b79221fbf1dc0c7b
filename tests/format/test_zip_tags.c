/* Wheel platform tags, Python/ABI tags and extension module suffixes
 * (format/wheel_tag.h): each form of packaging.python.org "Platform
 * compatibility tags" and of CPython's EXTENSION_SUFFIXES, and the words
 * they must refuse. */
#include "testutil.h"

#include <string.h>

#include "format/wheel_tag.h"

static int platform(const char *tag, struct td_wheel_platform *p)
{
    return td_wheel_platform_parse(tag, strlen(tag), p);
}

static void platform_tags(void **state)
{
    struct td_wheel_platform p;
    assert_int_equal(platform("manylinux_2_28_x86_64", &p), 0);
    assert_int_equal(p.os, TD_WHEEL_OS_MANYLINUX);
    assert_string_equal(p.arch, "x86_64");
    assert_int_equal(p.major, 2);
    assert_int_equal(p.minor, 28);
    assert_false(p.legacy);
    assert_int_equal(platform("manylinux2014_aarch64", &p), 0);
    assert_true(p.legacy);
    assert_string_equal(p.arch, "aarch64");
    assert_int_equal(p.major, -1); /* the alias's glibc is data (kb) */
    assert_int_equal(platform("manylinux1_i686", &p), 0);
    assert_string_equal(p.arch, "x86");
    assert_int_equal(platform("musllinux_1_2_armv7l", &p), 0);
    assert_int_equal(p.os, TD_WHEEL_OS_MUSLLINUX);
    assert_string_equal(p.arch, "arm");
    assert_int_equal(platform("macosx_10_9_universal2", &p), 0);
    assert_int_equal(p.os, TD_WHEEL_OS_MACOS);
    assert_int_equal(p.major, 10);
    assert_int_equal(p.minor, 9);
    assert_string_equal(p.arch, "universal2");
    assert_int_equal(platform("macosx_11_0_arm64", &p), 0);
    assert_string_equal(p.arch, "aarch64");
    assert_int_equal(platform("win32", &p), 0);
    assert_string_equal(p.arch, "x86");
    assert_int_equal(platform("win_amd64", &p), 0);
    assert_string_equal(p.arch, "x86_64");
    assert_int_equal(platform("win_arm64", &p), 0);
    assert_string_equal(p.arch, "aarch64");
    assert_int_equal(platform("linux_x86_64", &p), 0);
    assert_int_equal(p.os, TD_WHEEL_OS_LINUX);
    assert_int_equal(platform("any", &p), 0);
    assert_int_equal(p.os, TD_WHEEL_OS_ANY);
    static const char *const bad[] = {"manylinux_2_x86_64",
                                      "manylinux_2__17_x86_64",
                                      "manylinux2015_x86_64",
                                      "macosx_11_arm64",
                                      "win_ia64",
                                      "manylinux_2_17_sparc",
                                      "",
                                      "manylinux_1234567_1_x86_64"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(platform(bad[i], &p), -1);
        assert_int_equal(p.os, TD_WHEEL_OS_OTHER);
    }
}

static void python_tags(void **state)
{
    struct td_wheel_python t;
    assert_int_equal(td_wheel_python_parse("cp311", 5, &t), 0);
    assert_string_equal(t.impl, "cp");
    assert_int_equal(t.major, 3);
    assert_int_equal(t.minor, 11);
    assert_int_equal(td_wheel_python_parse("cp313t", 6, &t), 0);
    assert_true(t.free_threaded);
    assert_int_equal(td_wheel_python_parse("py3", 3, &t), 0);
    assert_int_equal(t.minor, -1);
    assert_int_equal(td_wheel_python_parse("abi3", 4, &t), 0);
    assert_string_equal(t.impl, "abi3");
    assert_int_equal(td_wheel_python_parse("cp37m", 5, &t), 0);
    assert_int_equal(t.minor, 7);
    assert_int_equal(td_wheel_python_parse("cpx", 3, &t), -1);
    assert_int_equal(td_wheel_python_parse("cp311q", 6, &t), -1);
}

static int ext(const char *name, struct td_wheel_ext *e)
{
    return td_wheel_ext_parse(name, strlen(name), e);
}

static void extension_suffixes(void **state)
{
    struct td_wheel_ext e;
    assert_int_equal(ext("_C.cpython-310-x86_64-linux-gnu.so", &e), 1);
    assert_int_equal(e.minor, 10);
    assert_string_equal(e.platform, "x86_64-linux-gnu");
    assert_string_equal(e.module, "_C");
    assert_int_equal(ext("_C.cpython-313t-darwin.so", &e), 1);
    assert_true(e.free_threaded);
    assert_string_equal(e.platform, "darwin");
    assert_int_equal(ext("_C.cp311-win_amd64.pyd", &e), 1);
    assert_int_equal(e.minor, 11);
    assert_string_equal(e.platform, "win_amd64");
    assert_int_equal(ext("_ops.abi3.so", &e), 1);
    assert_true(e.abi3);
    assert_int_equal(ext("_C.pyd", &e), 0);
    assert_string_equal(e.module, "_C");
    assert_int_equal(ext("libtorch.so", &e), 0);
    assert_int_equal(ext("libgomp.so.1", &e), -1);
    assert_int_equal(ext("foo.dll", &e), -1);
    assert_int_equal(ext("libnvrtc-builtins.alt.so", &e), -1);
    assert_int_equal(ext(".so", &e), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(platform_tags),
        cmocka_unit_test(python_tags),
        cmocka_unit_test(extension_suffixes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
