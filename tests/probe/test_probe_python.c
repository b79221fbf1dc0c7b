/* Interpreter discovery over fake roots built by tests/fixtures/torch_layouts.sh:
 * venvs (with and without system site packages), conda base and envs, a
 * pyenv shim on PATH, duplicates merged, and the real /usr/bin/python3. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe.h"

struct fx {
    struct td_arena arena;
    struct td_probe_ctx ctx;
    struct td_python *py;
    size_t n;
};

static void clean_env(void)
{
    unsetenv("VIRTUAL_ENV");
    unsetenv("CONDA_PREFIX");
    unsetenv("PYENV_VERSION");
    unsetenv("PYTHONNOUSERSITE");
    setenv("PATH", "/usr/bin", 1);
}

static void probe(struct fx *f, const char *layout, const char *explicit_python)
{
    memset(f, 0, sizeof *f);
    static char root[4096];
    snprintf(root, sizeof root, "%s", td_fixture(layout));
    f->ctx.root = root;
    f->ctx.arena = &f->arena;
    f->ctx.home = "/home/u";
    assert_int_equal(td_probe_pythons(&f->ctx, explicit_python, &f->py, &f->n), 0);
}

static void assert_sites(const struct td_python *py, const char *const *want, size_t n)
{
    assert_int_equal(py->n_site_dirs, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(py->site_dirs[i], want[i]);
}

static void venv_without_system_site(void **state)
{
    clean_env();
    struct fx f;
    probe(&f, "torch_layouts/venv", "/home/u/venv/bin/python3");
    assert_int_equal(f.n, 1);
    const struct td_python *p = &f.py[0];
    assert_string_equal(p->exe, "/home/u/venv/bin/python3");
    assert_string_equal(p->real, "/usr/bin/python3.11"); /* absolute link, resolved in the root */
    assert_string_equal(p->version, "3.11.2");           /* pyvenv.cfg refines the name's 3.11 */
    assert_int_equal(p->major, 3);
    assert_int_equal(p->minor, 11);
    assert_int_equal(p->kind, TD_PY_VENV);
    assert_string_equal(p->kind_name, "venv");
    assert_string_equal(p->prefix, "/home/u/venv");
    assert_string_equal(p->found_by, "--python");
    assert_true(p->active);
    /* No user site: the venv does not include system site packages. */
    static const char *const want[] = {"/home/u/venv/lib/python3.11/site-packages"};
    assert_sites(p, want, 1);
    td_arena_free(&f.arena);
}

static void venv_with_system_site(void **state)
{
    clean_env();
    struct fx f;
    probe(&f, "torch_layouts/venv", "/home/u/syssite/bin/python");
    assert_int_equal(f.n, 1);
    const struct td_python *p = &f.py[0];
    assert_string_equal(p->prefix, "/home/u/syssite");
    /* User site first, the venv, then the base's Debian dirs that exist. */
    static const char *const want[] = {"/home/u/.local/lib/python3.11/site-packages",
                                       "/home/u/syssite/lib/python3.11/site-packages",
                                       "/usr/local/lib/python3.11/dist-packages",
                                       "/usr/lib/python3/dist-packages"};
    assert_sites(p, want, 4);
    td_arena_free(&f.arena);
}

static void discovery_order_and_merging(void **state)
{
    clean_env();
    setenv("VIRTUAL_ENV", "/home/u/venv", 1);
    setenv("PATH", "/home/u/.pyenv/shims:/usr/bin:relative/ignored", 1);
    struct fx f;
    probe(&f, "torch_layouts/venv", NULL);
    assert_int_equal(f.n, 3);
    assert_string_equal(f.py[0].exe, "/home/u/venv/bin/python");
    assert_string_equal(f.py[0].found_by, "VIRTUAL_ENV");
    assert_true(f.py[0].active);
    /* The shim runs the version ~/.pyenv/version selects. */
    assert_string_equal(f.py[1].exe, "/home/u/.pyenv/versions/3.10.13/bin/python3");
    assert_string_equal(f.py[1].real, "/home/u/.pyenv/versions/3.10.13/bin/python3.10");
    assert_string_equal(f.py[1].kind_name, "pyenv");
    assert_string_equal(f.py[1].found_by, "PATH");
    assert_false(f.py[1].active);
    static const char *const want[] = {
        "/home/u/.pyenv/versions/3.10.13/lib/python3.10/site-packages"};
    assert_sites(&f.py[1], want, 1);
    /* /usr/bin/python3 and /usr/bin/python3.11 are one interpreter. */
    assert_string_equal(f.py[2].exe, "/usr/bin/python3");
    assert_string_equal(f.py[2].kind_name, "system");
    assert_string_equal(f.py[2].prefix, "/usr");
    assert_false(f.py[2].active);
    td_arena_free(&f.arena);

    setenv("PYENV_VERSION", "system", 1); /* the shim then runs the system python */
    probe(&f, "torch_layouts/venv", NULL);
    assert_int_equal(f.n, 3);
    assert_string_equal(f.py[1].exe, "/usr/bin/python3");
    td_arena_free(&f.arena);
    clean_env();
}

static void conda_base_and_envs(void **state)
{
    clean_env();
    struct fx f;
    probe(&f, "torch_layouts/conda", NULL);
    assert_int_equal(f.n, 3);
    assert_string_equal(f.py[0].exe, "/usr/bin/python3");
    assert_true(f.py[0].active); /* the first python3 on PATH */
    assert_string_equal(f.py[1].exe, "/home/u/miniconda3/bin/python");
    assert_string_equal(f.py[1].kind_name, "conda");
    assert_string_equal(f.py[1].version, "3.12");
    assert_string_equal(f.py[1].found_by, "conda env");
    assert_string_equal(f.py[2].prefix, "/home/u/miniconda3/envs/ml");
    static const char *const want[] = {"/home/u/miniconda3/envs/ml/lib/python3.11/site-packages"};
    assert_sites(&f.py[2], want, 1);
    td_arena_free(&f.arena);

    setenv("CONDA_PREFIX", "/home/u/miniconda3/envs/ml", 1);
    probe(&f, "torch_layouts/conda", NULL);
    assert_int_equal(f.n, 3);
    assert_string_equal(f.py[0].found_by, "CONDA_PREFIX");
    assert_true(f.py[0].active);
    assert_false(f.py[1].active);
    td_arena_free(&f.arena);
    clean_env();
}

static void missing_explicit(void **state)
{
    clean_env();
    struct fx f;
    memset(&f, 0, sizeof f);
    f.ctx.root = td_fixture("torch_layouts/venv");
    f.ctx.arena = &f.arena;
    assert_int_equal(td_probe_pythons(&f.ctx, "/usr/bin/python9.9", &f.py, &f.n), -1);
    assert_int_equal(f.n, 0);
    td_arena_free(&f.arena);
}

/* The machine's own /usr/bin/python3: prefix /usr and Debian's dist-packages. */
static void real_system_python(void **state)
{
    clean_env();
    if (access("/usr/bin/python3", X_OK) != 0 ||
        access("/usr/lib/python3/dist-packages", F_OK) != 0)
        skip();
    char target[256] = "";
    ssize_t n = readlink("/usr/bin/python3", target, sizeof target - 1);
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena, .home = "/nonexistent"};
    struct td_python *py;
    size_t count;
    assert_int_equal(td_probe_pythons(&ctx, "/usr/bin/python3", &py, &count), 0);
    assert_int_equal(count, 1);
    assert_string_equal(py[0].prefix, "/usr");
    assert_string_equal(py[0].kind_name, "system");
    if (n > 0) {
        target[n] = '\0';
        assert_string_equal(py[0].version, target + strlen("python")); /* python3.11 -> 3.11 */
    }
    bool has = false;
    for (size_t i = 0; i < py[0].n_site_dirs; i++)
        has |= strcmp(py[0].site_dirs[i], "/usr/lib/python3/dist-packages") == 0;
    assert_true(has);
    td_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(venv_without_system_site),
        cmocka_unit_test(venv_with_system_site),
        cmocka_unit_test(discovery_order_and_merging),
        cmocka_unit_test(conda_base_and_envs),
        cmocka_unit_test(missing_explicit),
        cmocka_unit_test(real_system_python),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
