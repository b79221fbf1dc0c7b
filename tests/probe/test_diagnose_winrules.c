/* The verdicts over Windows facts (winrules.c), with the facts written by
 * hand: the VC++ runtime floor of data/windows_vc_runtime_min.tsv, and the
 * PATH checks (missing, repeated, 32-bit, another CUDA's bin). */
#include <string.h>

#include "testutil.h"
#include "probe/rules.h"

static const struct td_finding *find(const struct td_findings *f, const char *kind, size_t nth)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].kind, kind) == 0 && nth-- == 0)
            return &f->items[i];
    return NULL;
}

static struct td_windows facts(const char *msvcp)
{
    struct td_windows w = {.probed = true, .n_runtime_dlls = 2};
    w.runtime_dlls[0] = (struct td_windows_dll){
        "vcruntime140.dll", "C:\\Windows\\system32\\vcruntime140.dll", "14.29.30139.0"};
    w.runtime_dlls[1] =
        (struct td_windows_dll){"msvcp140.dll", "C:\\Windows\\system32\\msvcp140.dll", msvcp};
    return w;
}

static void test_vc_runtime(void **state)
{
    (void)state;
    struct td_torch t[2] = {
        {.dir = "C:/v/Lib/site-packages/torch", .version = "2.9.1+cu128", .base_version = "2.9.1"},
        {.dir = "C:/w/Lib/site-packages/torch", .version = "2.8.0", .base_version = "2.8.0"}};
    struct td_findings f = {0};
    struct td_windows old = facts("14.38.33135.0");
    td_rules_vc_runtime(&old, t, 2, &f);
    assert_int_equal(f.count, 1); /* 2.8.0: no sourced floor; vcruntime140: none either */
    const struct td_finding *x = find(&f, TD_KIND_VC_RUNTIME_TOO_OLD, 0);
    assert_non_null(x);
    assert_int_equal(x->severity, TD_SEV_ERROR);
    assert_string_equal(x->library, "C:\\Windows\\system32\\msvcp140.dll");
    assert_string_equal(x->needed_by, "C:/v/Lib/site-packages/torch");
    assert_string_equal(x->fix, "winget install Microsoft.VCRedist.2015+.x64");
    assert_non_null(strstr(x->detail, "msvcp140.dll is 14.38.33135.0; torch 2.9.1+cu128 needs "
                                      "14.40.0.0 or newer"));
    assert_non_null(strstr(x->detail, "pytorch/pull/196987"));
    td_findings_free(&f);

    struct td_findings none = {0};
    struct td_windows ok = facts("14.40.33810.0"), unknown = facts(NULL);
    td_rules_vc_runtime(&ok, t, 2, &none);
    td_rules_vc_runtime(&unknown, t, 2, &none); /* Wine: no version resource */
    assert_int_equal(none.count, 0);
}

static bool fake_exists(const char *dir, void *ctx)
{
    (void)ctx;
    return strstr(dir, "nope") == NULL;
}

static void test_path(void **state)
{
    (void)state;
    const char *path = "C:\\Windows\\system32;C:\\nope\\bin;C:\\CUDA\\v11.8\\bin\\;"
                       "c:\\windows\\System32\\;C:\\Program Files (x86)\\Tool;"
                       "C:\\CUDA\\v12.1\\bin;;C:\\Windows\\SysWOW64";
    const char *cuda[] = {"CUDA_PATH_V11_8=C:\\CUDA\\v11.8", "CUDA_PATH_V12_1=C:\\CUDA\\v12.1"};
    struct td_findings f = {0};
    td_rules_path(path, fake_exists, NULL, cuda, 2, "12.1", &f);
    assert_int_equal(f.count, 5);
    const struct td_finding *x = find(&f, TD_KIND_ENV_VAR_INVALID, 0);
    assert_string_equal(x->library, "C:\\nope\\bin");
    assert_int_equal(x->severity, TD_SEV_WARNING);
    assert_non_null(strstr(x->detail, "PATH entry 2 (C:\\nope\\bin) does not exist"));
    x = find(&f, TD_KIND_SHADOWED_LIBRARY, 0);
    assert_string_equal(x->library, "C:\\CUDA\\v11.8\\bin\\");
    assert_non_null(strstr(x->detail, "CUDA 11.8"));
    assert_non_null(strstr(x->detail, "built for CUDA 12.1"));
    assert_null(find(&f, TD_KIND_SHADOWED_LIBRARY, 1)); /* v12.1's own bin is fine */
    x = find(&f, TD_KIND_ENV_VAR_INVALID, 1);
    assert_int_equal(x->severity, TD_SEV_INFO);
    assert_non_null(strstr(x->detail, "PATH entry 4 repeats entry 1"));
    x = find(&f, TD_KIND_ENV_VAR_INVALID, 2);
    assert_string_equal(x->library, "C:\\Program Files (x86)\\Tool");
    assert_non_null(strstr(x->detail, "32-bit folder"));
    x = find(&f, TD_KIND_ENV_VAR_INVALID, 3);
    assert_string_equal(x->library, "C:\\Windows\\SysWOW64");
    assert_non_null(strstr(x->detail, "PATH entry 8 "));
    td_findings_free(&f);

    struct td_findings cpu = {0};
    td_rules_path("C:\\CUDA\\v11.8\\bin", fake_exists, NULL, cuda, 2, NULL, &cpu);
    assert_int_equal(cpu.count, 0);
    td_rules_path(NULL, fake_exists, NULL, NULL, 0, NULL, &cpu);
    assert_int_equal(cpu.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vc_runtime),
        cmocka_unit_test(test_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
