/* Interpreter discovery over fake roots built by tests/fixtures/torch_layouts.sh:
 * venvs (with and without system site packages), conda base and envs, a
 * pyenv shim on PATH, duplicates merged, and the real /usr/bin/python3. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fakeroot.h"
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
    /* The venv first (site.py venv(): "so venv takes precedence over
     * user-site"), the user site, then the base's Debian dirs that exist;
     * syspath.test.sh holds this order against the real python3. */
    static const char *const want[] = {"/home/u/syssite/lib/python3.11/site-packages",
                                       "/home/u/.local/lib/python3.11/site-packages",
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

static void assert_sys_path(const struct td_python *py, const char *const *want, size_t n)
{
    for (size_t i = 0; i < n && i < py->n_sys_path; i++)
        assert_string_equal(py->sys_path[i].path, want[i]);
    assert_int_equal(py->n_sys_path, n);
}

/* The Windows embeddable distribution as ComfyUI portable ships it
 * (python_embeded\python311._pth). No Windows CPython runs here, so the
 * oracle is CPython's own rules: Modules/getpath.py "SET pythonpath FROM
 * _PTH FILE" (each line up to '#', stripped, joined to the file's folder;
 * `import site` turns site on; isolated mode: no PYTHONPATH, no user
 * site, no current directory) and Lib/site.py (removeduppaths makes the
 * entries absolute; getsitepackages on Windows: PREFIX and
 * PREFIX\Lib\site-packages, whose .pth files are read). */
static void windows_embeddable_pth(void **state)
{
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_write(&r, "emb/python.exe", "MZ", 0);
    fakeroot_write(&r, "emb/python311.dll", "MZ", 0);
    fakeroot_write(&r, "emb/python311.zip", "PK", 0);
    fakeroot_write(&r, "emb/python311._pth",
                   "python311.zip\n.\n../ComfyUI  # the app\n\n"
                   "# Uncomment to run site.main() automatically\nimport site\nimport foo\n",
                   0);
    fakeroot_dir(&r, "ComfyUI");
    fakeroot_dir(&r, "emb/extra");
    fakeroot_write(&r, "emb/Lib/site-packages/torch/__init__.py", "#\n", 0);
    fakeroot_write(&r, "emb/Lib/site-packages/torch/version.py", "__version__ = '2.3.1+cu121'\n",
                   0);
    fakeroot_write(&r, "emb/Lib/site-packages/extra.pth", "../../extra\n", 0);
    fakeroot_dir(&r, "appdata/Python/Python311/site-packages");
    static const char *const envp[] = {"PYTHONPATH=/elsewhere", "APPDATA=/appdata", NULL};
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena, .envp = envp};
    struct td_python *py;
    size_t n;
    assert_int_equal(td_probe_pythons(&ctx, "/emb/python.exe", &py, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(py->kind_name, "embeddable");
    assert_string_equal(py->version, "3.11"); /* from python311.dll */
    assert_string_equal(py->prefix, "/emb");
    assert_string_equal(py->pth_file, "/emb/python311._pth");
    assert_true(py->site_imported);
    assert_non_null(py->user_site_off); /* isolated: %APPDATA%'s user site is not used */
    static const char *const want[] = {"/emb/python311.zip", "/emb", "/ComfyUI",
                                       "/emb/Lib/site-packages", "/emb/extra"};
    assert_sys_path(py, want, 5);
    assert_int_equal(py->sys_path[2].why, TD_SP_PTH_LINE);
    assert_string_equal(py->sys_path[2].detail, "line 3 of /emb/python311._pth");
    assert_int_equal(py->sys_path[3].why, TD_SP_SITE);
    assert_int_equal(py->sys_path[4].why, TD_SP_DOT_PTH);
    assert_int_equal(py->n_pth_imports, 1); /* `import foo` is refused, and reported */
    assert_string_equal(py->pth_imports[0].text, "import foo");
    assert_int_equal(py->pth_imports[0].line, 7);

    struct td_torch *t;
    size_t nt;
    struct td_findings f = {0};
    assert_int_equal(td_probe_torch(&ctx, py, n, 0, &t, &nt, &f), 0);
    assert_int_equal(nt, 1);
    assert_true(t[0].imported);
    assert_string_equal(t[0].sys_path_entry, "/emb/Lib/site-packages");
    td_findings_free(&f);
    td_arena_free(&arena);

    /* Without `import site` the lines are sys.path as written, and nothing
     * else: no site-packages, so no torch. */
    fakeroot_write(&r, "emb/python311._pth", "python311.zip\n.\n../ComfyUI\n#import site\n", 0);
    arena = (struct td_arena){0};
    assert_int_equal(td_probe_pythons(&ctx, "/emb/python.exe", &py, &n), 0);
    assert_false(py->site_imported);
    static const char *const bare[] = {"/emb/python311.zip", "/emb/.", "/emb/../ComfyUI"};
    assert_sys_path(py, bare, 3);
    assert_int_equal(py->n_site_dirs, 0);
    f = (struct td_findings){0};
    assert_int_equal(td_probe_torch(&ctx, py, n, 0, &t, &nt, &f), 0);
    assert_int_equal(nt, 0);
    td_findings_free(&f);
    td_arena_free(&arena);
    fakeroot_free(&r);
}

/* A Windows installation without ._pth: getpath.py's Windows order (the
 * zip beside the DLL, DLLs, Lib, the executable's folder), then site.py's
 * PREFIX and PREFIX\Lib\site-packages, the user site under %APPDATA%
 * first, and PYTHONPATH (';'-separated) in front. */
static void windows_install(void **state)
{
    (void)fakeroot_link; /* fakeroot.h's, unused here */
    struct fakeroot r;
    fakeroot_init(&r);
    fakeroot_write(&r, "py311/python.exe", "MZ", 0);
    fakeroot_write(&r, "py311/python311.dll", "MZ", 0);
    fakeroot_dir(&r, "py311/DLLs");
    fakeroot_dir(&r, "py311/Lib/site-packages");
    fakeroot_dir(&r, "appdata/Python/Python311/site-packages");
    fakeroot_dir(&r, "pp");
    static const char *const envp[] = {"PYTHONPATH=/pp;/nowhere", "APPDATA=/appdata", NULL};
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.root = r.dir, .arena = &arena, .envp = envp};
    struct td_python *py;
    size_t n;
    assert_int_equal(td_probe_pythons(&ctx, "/py311/python.exe", &py, &n), 0);
    static const char *const want[] = {"",
                                       "/pp",
                                       "/nowhere",
                                       "/py311/python311.zip",
                                       "/py311/DLLs",
                                       "/py311/Lib",
                                       "/py311",
                                       "/appdata/Python/Python311/site-packages",
                                       "/py311/Lib/site-packages"};
    assert_sys_path(py, want, 9);
    assert_int_equal(py->sys_path[7].why, TD_SP_USER_SITE);
    assert_false(py->sys_path[2].exists);
    td_arena_free(&arena);
    fakeroot_free(&r);
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
        cmocka_unit_test(windows_embeddable_pth),
        cmocka_unit_test(windows_install),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
