/* The macOS (dyld) loader model against real Mach-O files from
 * tests/fixtures/macos_loader.sh (clang + ld64.lld-14 + llvm-lipo-14), laid
 * out as a target system under a --root: every test asserts the exact list
 * of places tried (path, rule, origin, verdict, detail) and what was taken. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"

#define MAIN "/app/bin/main"
#define FOO "/app/lib/libfoo.dylib"
#define CACHE "system library in the dyld shared cache"

struct want {
    const char *path;
    enum td_rule rule;
    const char *origin;
    enum td_verdict verdict;
    const char *detail;
};

/* One target system, the loader over it, and what it has loaded. */
struct world {
    char root[4096];
    struct td_env_var vars[4];
    struct td_loader_config cfg;
    struct td_loader L;
    struct td_object *objects[16];
    struct td_loaded loaded;
    struct td_object *main, *foo;
    struct td_resolution res;
};

static struct td_object *load(struct world *w, const char *target, struct td_object *loader)
{
    char host[8192];
    struct td_err err = {0};
    snprintf(host, sizeof host, "%s%s", w->root, target);
    struct td_object *o = td_object_open(host, target, loader ? loader->arch : NULL, &err);
    if (!o)
        fail_msg("%s", err.msg);
    o->loader = loader;
    o->depth = loader ? loader->depth + 1 : 0;
    o->index = (uint32_t)w->loaded.count;
    w->objects[w->loaded.count++] = o;
    return o;
}

/* A world on ROOT ("root" or "root_syslib") whose main program is MAIN_PATH,
 * with libfoo loaded by it, and NAME=VALUE pairs (NULL-terminated). */
static struct world *world_new(const char *root, const char *main_path, ...)
{
    struct world *w = calloc(1, sizeof *w);
    assert_non_null(w);
    snprintf(w->root, sizeof w->root, "%s", td_fixture(root));
    w->loaded.objects = w->objects;
    w->cfg.platform = TD_PLATFORM_MACOS;
    w->cfg.root = w->root;
    va_list ap;
    va_start(ap, main_path);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        w->vars[w->cfg.n_env].name = name;
        w->vars[w->cfg.n_env++].value = va_arg(ap, const char *);
    }
    va_end(ap);
    w->cfg.env = w->vars;
    struct td_err err = {0};
    assert_int_equal(td_loader_init(&w->L, &w->cfg, &err), 0);
    assert_string_equal(w->L.ops->name, "macos");
    w->main = load(w, main_path, NULL);
    w->L.main = w->main;
    return w;
}

static void world_free(struct world *w)
{
    if (w->res.newly_opened)
        td_object_free(w->res.object);
    for (size_t i = 0; i < w->loaded.count; i++)
        td_object_free(w->objects[i]);
    td_loader_fini(&w->L);
    free(w);
}

static void resolve(struct world *w, struct td_object *requester, const char *name)
{
    struct td_err err = {0};
    if (w->res.newly_opened)
        td_object_free(w->res.object);
    int rc = w->L.ops->resolve(&w->L, requester, name, false, &w->loaded, &w->res, &err);
    if (rc != 0)
        fail_msg("resolve %s: %s", name, err.msg);
}

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The probes must be exactly WANT, in order; on a difference, all are printed. */
static void check_probes(const struct world *w, const struct want *want, size_t n)
{
    const struct td_resolution *r = &w->res;
    bool ok = r->n_probes == n;
    for (size_t i = 0; ok && i < n; i++) {
        const struct td_probe *p = &r->probes[i];
        ok = same(p->path, want[i].path) && p->rule == want[i].rule &&
             same(p->origin, want[i].origin) && p->verdict == want[i].verdict &&
             same(p->detail, want[i].detail);
    }
    if (ok)
        return;
    for (size_t i = 0; i < r->n_probes; i++) {
        const struct td_probe *p = &r->probes[i];
        print_message("probe %zu: %s | %s | %s | %s | %s\n", i, p->path ? p->path : "(null)",
                      td_rule_name(p->rule), p->origin ? p->origin : "(null)",
                      td_verdict_name(p->verdict), p->detail ? p->detail : "(null)");
    }
    for (size_t i = 0; i < n; i++)
        print_message("want  %zu: %s | %s | %s | %s | %s\n", i,
                      want[i].path ? want[i].path : "(null)", td_rule_name(want[i].rule),
                      want[i].origin ? want[i].origin : "(null)", td_verdict_name(want[i].verdict),
                      want[i].detail ? want[i].detail : "(null)");
    fail_msg("probes differ");
}

#define CHECK(w, ...)                                                                              \
    do {                                                                                           \
        const struct want want_[] = {__VA_ARGS__};                                                 \
        check_probes((w), want_, sizeof want_ / sizeof want_[0]);                                  \
    } while (0)

static void check_taken(const struct world *w, const char *path, enum td_rule rule,
                        const char *origin, bool newly_opened)
{
    assert_non_null(w->res.object);
    assert_string_equal(w->res.object->path, path);
    assert_int_equal(w->res.rule, rule);
    assert_true(same(w->res.origin, origin));
    assert_int_equal(w->res.newly_opened, newly_opened);
}

/* ---- @rpath ---- */

static void test_rpath_first_lc_rpath(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libfoo.dylib");
    CHECK(w, {"/app/bin/../lib/libfoo.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/bin/../lib/libfoo.dylib", TD_RULE_LC_RPATH, MAIN, true);
    assert_string_equal(w->res.object->identity, "@rpath/libfoo.dylib");
    assert_string_equal(w->res.object->arch, "arm64");
    world_free(w);
}

static void test_rpath_second_lc_rpath(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libsecond.dylib");
    CHECK(w, {"/app/bin/../lib/libsecond.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libsecond.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/bin/../lib2/libsecond.dylib", TD_RULE_LC_RPATH, MAIN, true);
    world_free(w);
}

/* libfoo's own LC_RPATH first, then its loader's (main's), in order. */
static void test_rpath_through_loader_chain(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    resolve(w, foo, "@rpath/libbar.dylib");
    CHECK(w, {"/app/lib/plugins/libbar.dylib", TD_RULE_LC_RPATH, FOO, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib/libbar.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libbar.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/bin/../lib2/libbar.dylib", TD_RULE_LC_RPATH, MAIN, true);
    world_free(w);
}

/* A library with no loader chain (dlopen'ed root) still sees main's rpaths. */
static void test_rpath_main_at_bottom_of_chain(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, NULL);
    resolve(w, foo, "@rpath/libbar.dylib");
    CHECK(w, {"/app/lib/plugins/libbar.dylib", TD_RULE_LC_RPATH, FOO, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib/libbar.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libbar.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    world_free(w);
}

/* Every place tried, in dyld's order, for an @rpath name that is nowhere:
 * the requester's LC_RPATH, its loader's two, then the default fallbacks. */
static void test_rpath_missing_lists_every_place(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    resolve(w, foo, "@rpath/libgone.dylib");
    CHECK(w, {"/app/lib/plugins/libgone.dylib", TD_RULE_LC_RPATH, FOO, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib/libgone.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libgone.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libgone.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libgone.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    assert_null(w->res.object);
    assert_false(w->res.newly_opened);
    world_free(w);
}

/* ---- @loader_path, @executable_path ---- */

static void test_loader_path(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    resolve(w, foo, "@loader_path/libsib.dylib");
    CHECK(w, {"/app/lib/libsib.dylib", TD_RULE_LOADER_PATH, FOO, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/lib/libsib.dylib", TD_RULE_LOADER_PATH, FOO, true);
    world_free(w);
}

/* The main executable's directory, not the requester's. */
static void test_executable_path(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    resolve(w, foo, "@executable_path/../Frameworks/libexe.dylib");
    CHECK(w, {"/app/bin/../Frameworks/libexe.dylib", TD_RULE_EXECUTABLE_PATH, MAIN,
              TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/bin/../Frameworks/libexe.dylib", TD_RULE_EXECUTABLE_PATH, MAIN, true);
    world_free(w);
}

/* ---- DYLD_LIBRARY_PATH, DYLD_FALLBACK_LIBRARY_PATH ---- */

/* The leaf name in each DYLD_LIBRARY_PATH directory, before any LC_RPATH. */
static void test_dyld_library_path_overrides(void **state)
{
    struct world *w =
        world_new("macos_loader/root", MAIN, "DYLD_LIBRARY_PATH", "/override:/override2", NULL);
    resolve(w, w->main, "@rpath/libfoo.dylib");
    CHECK(w, {"/override/libfoo.dylib", TD_RULE_DYLD_LIBRARY_PATH, NULL, TD_VERDICT_ABSENT, NULL},
          {"/override2/libfoo.dylib", TD_RULE_DYLD_LIBRARY_PATH, NULL, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/override2/libfoo.dylib", TD_RULE_DYLD_LIBRARY_PATH, NULL, true);
    world_free(w);
}

/* An absolute install name that is missing: the leaf name in the default fallbacks. */
static void test_fallback_default(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "/opt/missing/libfb.dylib");
    CHECK(w, {"/opt/missing/libfb.dylib", TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libfb.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/usr/local/lib/libfb.dylib", TD_RULE_DYLD_FALLBACK, NULL, true);
    world_free(w);
}

/* DYLD_FALLBACK_LIBRARY_PATH replaces the defaults. */
static void test_fallback_env(void **state)
{
    struct world *w =
        world_new("macos_loader/root", MAIN, "DYLD_FALLBACK_LIBRARY_PATH", "/nowhere:/fb", NULL);
    resolve(w, w->main, "/opt/missing/libfb.dylib");
    CHECK(w, {"/opt/missing/libfb.dylib", TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_ABSENT, NULL},
          {"/nowhere/libfb.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/fb/libfb.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/fb/libfb.dylib", TD_RULE_DYLD_FALLBACK, NULL, true);
    world_free(w);
}

/* A fallback candidate equal to the install name is not tried twice. */
static void test_fallback_skips_install_name(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "/usr/local/lib/libnone.dylib");
    CHECK(w, {"/usr/local/lib/libnone.dylib", TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libnone.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    assert_null(w->res.object);
    world_free(w);
}

/* ---- dependency kinds ---- */

/* LC_LOAD_WEAK_DYLIB: every place is tried, and the miss is said to be harmless. */
static void test_weak_dylib_missing_not_fatal(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    bool weak = false;
    for (size_t i = 0; i < w->main->u.macho.ndylibs; i++)
        if (strcmp(w->main->u.macho.dylibs[i].name, "@rpath/libweak.dylib") == 0)
            weak = w->main->u.macho.dylibs[i].kind == TD_MACHO_DYLIB_WEAK;
    assert_true(weak);
    resolve(w, w->main, "@rpath/libweak.dylib");
    CHECK(w, {"/app/bin/../lib/libweak.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libweak.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libweak.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libweak.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"@rpath/libweak.dylib", TD_RULE_INSTALL_NAME, MAIN, TD_VERDICT_SKIPPED,
           "weak dylib (LC_LOAD_WEAK_DYLIB): missing is not an error, its symbols bind to NULL"});
    assert_null(w->res.object);
    world_free(w);
}

/* ---- architectures and platforms ---- */

static void test_wrong_arch_candidate_skipped(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libwa.dylib");
    CHECK(w,
          {"/app/bin/../lib/libwa.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_WRONG_MACHINE,
           "mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64')"},
          {"/app/bin/../lib2/libwa.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/app/bin/../lib2/libwa.dylib", TD_RULE_LC_RPATH, MAIN, true);
    assert_string_equal(w->res.object->arch, "arm64");
    world_free(w);
}

/* libuni is universal with the x86_64 slice first: each program gets its own slice. */
static void test_universal_slice_choice(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libuni.dylib");
    CHECK(w, {"/app/bin/../lib/libuni.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    assert_int_equal(w->res.object->kind, TD_FILE_MACHO_FAT);
    assert_string_equal(w->res.object->arch, "arm64");
    assert_int_equal(w->res.object->u.macho.cputype, TD_MACHO_CPU_TYPE_ARM64);
    world_free(w);

    w = world_new("macos_loader/root", "/app/bin/main_x86_64", NULL);
    assert_string_equal(w->main->arch, "x86_64");
    resolve(w, w->main, "@rpath/libuni.dylib");
    CHECK(w, {"/app/bin/../lib/libuni.dylib", TD_RULE_LC_RPATH, "/app/bin/main_x86_64",
              TD_VERDICT_FOUND, NULL});
    assert_string_equal(w->res.object->arch, "x86_64");
    assert_int_equal(w->res.object->u.macho.cputype, TD_MACHO_CPU_TYPE_X86_64);
    world_free(w);
}

static void test_universal_without_slice_skipped(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libnoslice.dylib");
    CHECK(w,
          {"/app/bin/../lib/libnoslice.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_WRONG_MACHINE,
           "fat file, but missing compatible architecture (have 'arm64_32', need 'arm64')"},
          {"/app/bin/../lib2/libnoslice.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libnoslice.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libnoslice.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    assert_null(w->res.object);
    world_free(w);
}

/* An arm64e process (keys off) loads arm64e, then arm64 slices. */
static void test_arm64e_process_grades(void **state)
{
    struct world *w = world_new("macos_loader/root", "/app/bin/main_arm64e", NULL);
    assert_string_equal(w->main->arch, "arm64e");
    resolve(w, w->main, "@rpath/libuni.dylib");
    CHECK(w, {"/app/bin/../lib/libuni.dylib", TD_RULE_LC_RPATH, "/app/bin/main_arm64e",
              TD_VERDICT_FOUND, NULL});
    assert_string_equal(w->res.object->arch, "arm64");
    resolve(w, w->main, "@rpath/libwa.dylib");
    CHECK(w,
          {"/app/bin/../lib/libwa.dylib", TD_RULE_LC_RPATH, "/app/bin/main_arm64e",
           TD_VERDICT_WRONG_MACHINE,
           "mach-o file, but is an incompatible architecture (have 'x86_64', need 'arm64e' or "
           "'arm64')"},
          {"/app/bin/../lib2/libwa.dylib", TD_RULE_LC_RPATH, "/app/bin/main_arm64e",
           TD_VERDICT_FOUND, NULL});
    world_free(w);
}

/* An arm64 process does not load arm64e code. */
static void test_arm64_process_refuses_arm64e(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libe.dylib");
    CHECK(w,
          {"/app/bin/../lib/libe.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_WRONG_MACHINE,
           "mach-o file, but is an incompatible architecture (have 'arm64e', need 'arm64')"},
          {"/app/bin/../lib2/libe.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libe.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libe.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    assert_null(w->res.object);
    world_free(w);
}

static void test_wrong_platform_skipped(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    resolve(w, w->main, "@rpath/libios.dylib");
    CHECK(w,
          {"/app/bin/../lib/libios.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_WRONG_MACHINE,
           "mach-o file, but incompatible platform (have 'ios', need 'macos')"},
          {"/app/bin/../lib2/libios.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libios.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libios.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    world_free(w);
}

static void test_not_a_library_skipped(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, "DYLD_LIBRARY_PATH", "/override", NULL);
    resolve(w, w->main, "@rpath/libtext.dylib");
    CHECK(w,
          {"/override/libtext.dylib", TD_RULE_DYLD_LIBRARY_PATH, NULL, TD_VERDICT_NOT_A_LIBRARY,
           "not a mach-o file (unknown format)"},
          {"/app/bin/../lib/libtext.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libtext.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/usr/local/lib/libtext.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libtext.dylib", TD_RULE_DYLD_FALLBACK, NULL, TD_VERDICT_ABSENT, NULL});
    world_free(w);
}

/* ---- the dyld shared cache ---- */

/* Not on disk under /usr/lib: served from the shared cache, no fallback tried. */
static void test_system_library_in_shared_cache(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, "DYLD_LIBRARY_PATH", "/override", NULL);
    resolve(w, w->main, "/usr/lib/libSystem.B.dylib");
    CHECK(w,
          {"/override/libSystem.B.dylib", TD_RULE_DYLD_LIBRARY_PATH, NULL, TD_VERDICT_ABSENT, NULL},
          {"/usr/lib/libSystem.B.dylib", TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_SKIPPED, CACHE});
    assert_null(w->res.object);
    assert_int_equal(w->res.rule, TD_RULE_INSTALL_NAME);
    world_free(w);

    /* A framework: DYLD_LIBRARY_PATH does not apply to it. */
    const char *accelerate =
        "/System/Library/Frameworks/Accelerate.framework/Versions/A/Accelerate";
    w = world_new("macos_loader/root", MAIN, "DYLD_LIBRARY_PATH", "/override", NULL);
    resolve(w, w->main, accelerate);
    CHECK(w, {accelerate, TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_SKIPPED, CACHE});
    world_free(w);
}

/* The same install name on disk (an older macOS, or a root) is a file. */
static void test_system_library_on_disk(void **state)
{
    struct world *w = world_new("macos_loader/root_syslib", "/../root/app/bin/main", NULL);
    resolve(w, w->main, "/usr/lib/libSystem.B.dylib");
    CHECK(w, {"/usr/lib/libSystem.B.dylib", TD_RULE_INSTALL_NAME, NULL, TD_VERDICT_FOUND, NULL});
    check_taken(w, "/usr/lib/libSystem.B.dylib", TD_RULE_INSTALL_NAME, NULL, true);
    world_free(w);
}

/* ---- already loaded ---- */

/* An @rpath name answered by a loaded image's install name, before any LC_RPATH. */
static void test_already_loaded_by_install_name(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    struct td_object *bar = load(w, "/app/lib2/libbar.dylib", w->main);
    resolve(w, foo, "@rpath/libbar.dylib");
    CHECK(w, {"/app/lib2/libbar.dylib", TD_RULE_ALREADY_LOADED, NULL, TD_VERDICT_FOUND, NULL});
    assert_ptr_equal(w->res.object, bar);
    check_taken(w, "/app/lib2/libbar.dylib", TD_RULE_ALREADY_LOADED, NULL, false);
    world_free(w);

    /* Before DYLD_LIBRARY_PATH too: /override2 holds another libfoo. */
    w = world_new("macos_loader/root", MAIN, "DYLD_LIBRARY_PATH", "/override2", NULL);
    struct td_object *foo2 = load(w, FOO, w->main);
    resolve(w, w->main, "@rpath/libfoo.dylib");
    CHECK(w, {FOO, TD_RULE_ALREADY_LOADED, NULL, TD_VERDICT_FOUND, NULL});
    assert_ptr_equal(w->res.object, foo2);
    world_free(w);
}

/* A candidate path that a loaded image already has: that image. */
static void test_already_loaded_by_path(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *foo = load(w, FOO, w->main);
    struct td_object *sib = load(w, "/app/lib/libsib.dylib", foo);
    resolve(w, foo, "@loader_path/libsib.dylib");
    CHECK(w, {"/app/lib/libsib.dylib", TD_RULE_LOADER_PATH, FOO, TD_VERDICT_FOUND, NULL});
    assert_ptr_equal(w->res.object, sib);
    assert_false(w->res.newly_opened);
    world_free(w);
}

/* The same file under another path (a symlink, "..") is the same image: by inode. */
static void test_already_loaded_by_inode(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    struct td_object *second = load(w, "/app/lib/../lib2/libsecond.dylib", w->main);
    second->identity = NULL; /* so that only the file identity can match */
    resolve(w, w->main, "@rpath/libsecond.dylib");
    CHECK(w, {"/app/bin/../lib/libsecond.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_ABSENT, NULL},
          {"/app/bin/../lib2/libsecond.dylib", TD_RULE_LC_RPATH, MAIN, TD_VERDICT_FOUND, NULL});
    assert_ptr_equal(w->res.object, second);
    assert_false(w->res.newly_opened);
    world_free(w);
}

/* ---- the fixture itself, against LLVM's reading of it ---- */

static void test_fixture_load_commands(void **state)
{
    struct world *w = world_new("macos_loader/root", MAIN, NULL);
    size_t size;
    char path[4096];
    snprintf(path, sizeof path, "%s", td_fixture("macos_loader/main.dylibs.txt"));
    char *oracle = (char *)td_read_file(path, &size);
    oracle = realloc(oracle, size + 1);
    oracle[size] = '\0';
    const struct td_macho *m = &w->main->u.macho;
    assert_int_equal(m->ndylibs, 7);
    for (size_t i = 0; i < m->ndylibs; i++) {
        char line[512];
        snprintf(line, sizeof line, "\t%s (", m->dylibs[i].name);
        assert_non_null(strstr(oracle, line));
    }
    assert_int_equal(m->nrpaths, 2);
    assert_string_equal(m->rpaths[0], "@executable_path/../lib");
    assert_string_equal(m->rpaths[1], "@loader_path/../lib2");
    free(oracle);
    world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixture_load_commands),
        cmocka_unit_test(test_rpath_first_lc_rpath),
        cmocka_unit_test(test_rpath_second_lc_rpath),
        cmocka_unit_test(test_rpath_through_loader_chain),
        cmocka_unit_test(test_rpath_main_at_bottom_of_chain),
        cmocka_unit_test(test_rpath_missing_lists_every_place),
        cmocka_unit_test(test_loader_path),
        cmocka_unit_test(test_executable_path),
        cmocka_unit_test(test_dyld_library_path_overrides),
        cmocka_unit_test(test_fallback_default),
        cmocka_unit_test(test_fallback_env),
        cmocka_unit_test(test_fallback_skips_install_name),
        cmocka_unit_test(test_weak_dylib_missing_not_fatal),
        cmocka_unit_test(test_wrong_arch_candidate_skipped),
        cmocka_unit_test(test_universal_slice_choice),
        cmocka_unit_test(test_universal_without_slice_skipped),
        cmocka_unit_test(test_arm64e_process_grades),
        cmocka_unit_test(test_arm64_process_refuses_arm64e),
        cmocka_unit_test(test_wrong_platform_skipped),
        cmocka_unit_test(test_not_a_library_skipped),
        cmocka_unit_test(test_system_library_in_shared_cache),
        cmocka_unit_test(test_system_library_on_disk),
        cmocka_unit_test(test_already_loaded_by_install_name),
        cmocka_unit_test(test_already_loaded_by_path),
        cmocka_unit_test(test_already_loaded_by_inode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
