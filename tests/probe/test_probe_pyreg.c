/* The pure helpers of PEP 514 discovery (probe/python/pyreg.h): the interpreter
 * and version a registry entry names, the Windows user site's path, and
 * the registry list, empty outside Windows. */
#include "testutil.h"

#include <string.h>

#include "probe/python/pyreg.h"

static void exe_from_executable_path(void **state)
{
    struct td_arena a = {0};
    struct td_pyreg_entry e = {.company = "PythonCore",
                               .tag = "3.11",
                               .install_path = "C:\\py311\\",
                               .executable_path = "C:\\Tools\\py\\pythonw3.exe"};
    assert_string_equal(td_pyreg_exe(&a, &e), "C:/Tools/py/pythonw3.exe");
    td_arena_free(&a);
}

static void exe_from_install_path(void **state)
{
    struct td_arena a = {0};
    /* With and without the trailing backslash the installer writes. */
    struct td_pyreg_entry e = {.company = "PythonCore", .install_path = "C:\\py311\\"};
    assert_string_equal(td_pyreg_exe(&a, &e), "C:/py311/python.exe");
    e.install_path = "D:\\Python 3.12";
    assert_string_equal(td_pyreg_exe(&a, &e), "D:/Python 3.12/python.exe");
    e.install_path = NULL;
    assert_null(td_pyreg_exe(&a, &e));
    td_arena_free(&a);
}

static void version_precedence(void **state)
{
    struct td_pyreg_entry e = {
        .company = "PythonCore", .tag = "3.11-32", .sys_version = "3.11", .version = "3.11.4"};
    assert_string_equal(td_pyreg_version(&e), "3.11.4");
    e.version = NULL;
    assert_string_equal(td_pyreg_version(&e), "3.11");
    e.sys_version = NULL;
    assert_string_equal(td_pyreg_version(&e), "3.11-32"); /* PythonCore's tag */
    e.company = "ContinuumAnalytics";                     /* another company's tag is a name */
    e.tag = "Anaconda3-64";
    assert_null(td_pyreg_version(&e));
    e.tag = "3.9";
    assert_null(td_pyreg_version(&e));
}

static void user_site(void **state)
{
    struct td_arena a = {0};
    assert_string_equal(td_pyreg_user_site(&a, "C:\\users\\u\\AppData\\Roaming\\Python", 3, 11),
                        "C:/users/u/AppData/Roaming/Python/Python311/site-packages");
    assert_string_equal(td_pyreg_user_site(&a, "D:\\base", 3, 9), "D:/base/Python39/site-packages");
    td_arena_free(&a);
}

static void none_outside_windows(void **state)
{
    struct td_arena a = {0};
    struct td_pyreg_entry *e = (void *)&a;
    assert_int_equal(td_pyreg_list(&a, &e), 0);
    assert_null(e);
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exe_from_executable_path), cmocka_unit_test(exe_from_install_path),
        cmocka_unit_test(version_precedence),       cmocka_unit_test(user_site),
        cmocka_unit_test(none_outside_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
