/* path_too_long (probe/install/long_paths.c): a torch whose deepest file's path is
 * MAX_PATH (260) characters or more is an error when LongPathsEnabled is
 * off, a warning when it is unknown (--root), nothing when it is on or
 * every path is short. */
#include "fakeroot.h"

#include "base/finding.h"
#include "probe/probe.h"

/* ROOT/torch with lib/x.dll at a path of about DEPTH * 40 characters. */
static void torch_tree(const struct fakeroot *r, int depth, struct td_torch *t, char *dir,
                       size_t cap)
{
    char rel[2048] = "torch";
    for (int i = 0; i < depth; i++)
        strcat(rel, "/a_folder_name_of_thirty_eight_chars_xx");
    strcat(rel, "/x.dll");
    fakeroot_write(r, rel, "MZ", 2);
    snprintf(dir, cap, "%s/torch", r->dir);
    memset(t, 0, sizeof *t);
    t->dir = dir;
}

static size_t count(const struct td_findings *f, enum td_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += strcmp(f->items[i].kind, TD_KIND_PATH_TOO_LONG) == 0 && f->items[i].severity == sev;
    return n;
}

static void judges_by_the_registry_value(void **state)
{
    struct fakeroot r;
    fakeroot_init(&r);
    struct td_torch t;
    char dir[512];
    torch_tree(&r, 8, &t, dir, sizeof dir); /* over 300 characters */
    struct td_probe_ctx ctx = {0};
    struct td_findings f = {0};
    td_rules_long_paths(&ctx, &t, 1, 0, &f);
    assert_int_equal(count(&f, TD_SEV_ERROR), 1);
    assert_non_null(strstr(f.items[0].fix, "/v LongPathsEnabled /t REG_DWORD /d 1 /f"));
    assert_non_null(strstr(f.items[0].fix, "New-ItemProperty"));
    assert_non_null(strstr(f.items[0].library, "\\x.dll"));
    td_findings_free(&f);
    td_rules_long_paths(&ctx, &t, 1, -1, &f);
    assert_int_equal(count(&f, TD_SEV_WARNING), 1);
    assert_non_null(strstr(f.items[0].detail, "was not read"));
    td_findings_free(&f);
    td_rules_long_paths(&ctx, &t, 1, 1, &f);
    assert_int_equal(f.count, 0);
    td_findings_free(&f);
    fakeroot_free(&r);
}

static void short_paths_are_fine(void **state)
{
    struct fakeroot r;
    fakeroot_init(&r);
    struct td_torch t;
    char dir[512];
    torch_tree(&r, 2, &t, dir, sizeof dir);
    struct td_probe_ctx ctx = {0};
    struct td_findings f = {0};
    td_rules_long_paths(&ctx, &t, 1, 0, &f);
    assert_int_equal(f.count, 0);
    td_findings_free(&f);
    fakeroot_free(&r);
}

int main(void)
{
    (void)fakeroot_dir, (void)fakeroot_link; /* fakeroot.h helpers not needed here */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(judges_by_the_registry_value),
        cmocka_unit_test(short_paths_are_fine),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
