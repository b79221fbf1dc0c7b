/* PEP 440 / 508 evaluator (kb/pep508.h): hand-picked cases here; run with
 * --pairs it is the filter tests/kb/pep508.test.sh holds against
 * python3-packaging: "ENV\tname\tvalue" lines set the marker environment,
 * then each "REQ\tline\tversion" line prints "key\tapplies\tsatisfied"
 * (1, 0, or E for invalid). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "kb/pep508.h"

static void contains(const char *specs, const char *version, int want)
{
    int got = td_pep440_contains(specs, version);
    if (got != want)
        fail_msg("'%s' in '%s': %d, want %d", version, specs, got, want);
}

static void local_versions(void **state)
{
    (void)state;
    contains("==2.1.2", "2.1.2+cu121", 1);
    contains("==2.1.2+cu121", "2.1.2+cu121", 1);
    contains("==2.1.2+cu121", "2.1.2", 0);
    contains("==2.1.2+cu118", "2.1.2+cu121", 0);
    contains("<=2.1.2", "2.1.2+cu121", 1);
    contains(">2.1.2", "2.1.2+cu121", 0);
    contains("<2.1.2", "2.1.2+cu121", 0);
}

static void ordering(void **state)
{
    (void)state;
    static const char *const sorted[] = {"1.0.dev0",       "1.0a0.dev0", "1.0a0",   "1.0b2",
                                         "1.0rc1",         "1.0",        "1.0+abc", "1.0+5",
                                         "1.0.post1.dev2", "1.0.post1",  "1.1",     "1!0.1"};
    size_t n = sizeof sorted / sizeof *sorted;
    for (size_t i = 0; i + 1 < n; i++) {
        struct td_pep440 a, b;
        assert_true(td_pep440_parse(sorted[i], &a));
        assert_true(td_pep440_parse(sorted[i + 1], &b));
        if (td_pep440_cmp(&a, &b) >= 0)
            fail_msg("%s should sort before %s", sorted[i], sorted[i + 1]);
    }
    struct td_pep440 v;
    char s[64];
    assert_true(td_pep440_parse(" V1.0-ALPHA-1_post.dev ", &v));
    assert_string_equal(td_pep440_str(&v, s, sizeof s), "1.0a1.post0.dev0");
    assert_false(td_pep440_parse("1.0-", &v));
    assert_false(td_pep440_parse("1..0", &v));
    assert_false(td_pep440_parse("1.0+", &v));
}

static void operators(void **state)
{
    (void)state;
    contains("==2.1.*", "2.1.9", 1);
    contains("==2.1.*", "2.10", 0);
    contains("!=2.1.*", "2.2", 1);
    contains("~=2.2", "2.9", 1);
    contains("~=2.2", "3.0", 0);
    contains("~=1.4.5", "1.4.9", 1);
    contains("~=1.4.5", "1.5", 0);
    contains("===1.0", "1.0", 1);
    contains("===1.0", "1.0.0", 0);
    contains(">=1.0,<2,!=1.5", "1.5", 0);
    contains(">=1.0,<2,!=1.5", "1.6", 1);
    contains("<2", "2.0a1", 0);
    contains(">1", "1.post1", 0);
    contains("", "7", 1);
    contains("~=1", "1", -1);
    contains(">=1.0+x", "1", -1);
    contains("==1.*.1", "1", -1);
    contains("=1", "1", -1);
}

static void requirements(void **state)
{
    (void)state;
    struct td_requirement r;
    assert_true(td_pep508_parse(
        "nvidia-cudnn-cu12==8.9.2.26; platform_system == \"Linux\" and platform_machine == "
        "\"x86_64\"",
        &r));
    assert_string_equal(r.key, "nvidia-cudnn-cu12");
    assert_string_equal(r.specifier, "==8.9.2.26");
    char buf[64];
    struct td_pep508_env env;
    td_pep508_env_for(&env, "linux", "x86_64", "3.11.2", buf, sizeof buf);
    assert_int_equal(td_pep508_marker(r.marker, &env, ""), 1);
    td_pep508_env_for(&env, "windows", "x86_64", "3.11.2", buf, sizeof buf);
    assert_int_equal(td_pep508_marker(r.marker, &env, ""), 0);
    assert_true(td_pep508_parse("Torch_Vision[Foo_Bar, baz] (>=0.16 , <0.17)", &r));
    assert_string_equal(r.key, "torch-vision");
    assert_string_equal(r.extras, "foo-bar,baz");
    assert_string_equal(r.specifier, ">=0.16,<0.17");
    assert_true(td_pep508_parse("triton ; extra == 'cuda'", &r));
    assert_int_equal(td_pep508_marker(r.marker, &env, ""), 0);
    assert_int_equal(td_pep508_marker(r.marker, &env, "CUDA"), 1);
    assert_true(td_pep508_parse("pkg @ https://example.org/p.whl ; python_version < '3.12'", &r));
    assert_true(r.url);
    assert_false(td_pep508_parse("pkg ==1.0 garbage", &r));
    assert_false(td_pep508_parse("pkg; nonsense == '1'", &r));
    assert_false(td_pep508_parse("pkg; python_version", &r));
    assert_int_equal(
        td_pep508_marker("python_version >= '3.8' and python_version < '3.12'", &env, ""), 1);
    assert_int_equal(td_pep508_marker("'linux' in sys_platform or os_name == 'nt'", &env, ""), 1);
}

/* ---- the oracle filter ---- */

static char *field(char **p)
{
    char *s = *p, *tab = strchr(s, '\t');
    if (tab)
        *tab = '\0', *p = tab + 1;
    else
        *p = s + strlen(s);
    return s;
}

static char env_vals[16][256];

/* Requires-Dist lines of METADATA headers, CRLF or LF, an invalid one
 * skipped, none read from the body after the blank line. */
static void metadata_requirements(void **state)
{
    const char *text =
        "Metadata-Version: 2.1\r\nName: torch\r\n"
        "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == \"Linux\"\r\n"
        "Requires-Dist: !!not a requirement\r\n"
        "Summary: x\r\nRequires-Dist: filelock\r\n\r\n"
        "Requires-Dist: body-is-not-a-header\n";
    struct td_requirement r;
    const char *at = text;
    assert_true(td_metadata_next_requirement(&at, &r));
    assert_string_equal(r.key, "nvidia-cudnn-cu12");
    assert_string_equal(r.specifier, "==8.9.2.26");
    assert_true(td_metadata_next_requirement(&at, &r));
    assert_string_equal(r.key, "filelock");
    assert_false(td_metadata_next_requirement(&at, &r));
    assert_null(at);
    assert_false(td_metadata_next_requirement(&at, &r)); /* stays done */
}

static void set_env(struct td_pep508_env *e, const char *name, const char *value)
{
    struct {
        const char *name;
        const char **slot;
    } slots[] = {
        {"python_version", &e->python_version},
        {"python_full_version", &e->python_full_version},
        {"os_name", &e->os_name},
        {"sys_platform", &e->sys_platform},
        {"platform_release", &e->platform_release},
        {"platform_system", &e->platform_system},
        {"platform_version", &e->platform_version},
        {"platform_machine", &e->platform_machine},
        {"platform_python_implementation", &e->platform_python_implementation},
        {"implementation_name", &e->implementation_name},
        {"implementation_version", &e->implementation_version},
    };
    for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
        if (!strcmp(slots[i].name, name)) {
            snprintf(env_vals[i], sizeof env_vals[i], "%s", value);
            *slots[i].slot = env_vals[i];
        }
}

static int pairs(void)
{
    static char line[8192];
    struct td_pep508_env env = {0};
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line, *kind = field(&p);
        if (!strcmp(kind, "ENV")) {
            char *name = field(&p);
            set_env(&env, name, field(&p));
            continue;
        }
        char *req = field(&p), *version = field(&p);
        struct td_requirement r;
        if (!td_pep508_parse(req, &r)) {
            printf("E\tE\tE\n");
            continue;
        }
        int applies = r.marker[0] ? td_pep508_marker(r.marker, &env, "") : 1;
        int ok = r.url ? 1 : td_pep440_contains(r.specifier, version);
        printf("%s\t%c\t%c\n", r.key, applies < 0 ? 'E' : '0' + applies, ok < 0 ? 'E' : '0' + ok);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--pairs"))
        return pairs();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(local_versions),
        cmocka_unit_test(ordering),
        cmocka_unit_test(operators),
        cmocka_unit_test(requirements),
        cmocka_unit_test(metadata_requirements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
