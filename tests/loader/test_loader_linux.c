/* Tests for the Linux (glibc 2.36 ld.so) loader model: the probe lists of
 * the interesting cases (rule order, verdicts, origins), and a differential
 * check of every fixture program against the real ld.so's answer recorded
 * by tests/fixtures/linux_loader.sh (LD_TRACE_LOADED_OBJECTS=1). */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/loader.h"

int td_linux_preload_names(const struct td_loader_config *cfg, struct td_arena *arena,
                           const char ***names);

#define MAX_OBJ 64
#define MAX_RES 128

/* A small breadth-first closure, the way glibc's _dl_map_object_deps walks
 * DT_NEEDED, so the model can be compared with ld.so's load list. */
struct closure {
    struct td_loader_config cfg;
    struct td_env_var env[2];
    struct td_loader L;
    struct td_object *objs[MAX_OBJ];
    size_t n;
    struct td_resolution res[MAX_RES];
    const struct td_object *res_by[MAX_RES];
    const char *res_name[MAX_RES];
    size_t nres;
    char lines[4096]; /* "name => path" per newly loaded or missing name */
    char missing[MAX_OBJ][256];
    size_t nmissing;
};

static void closure_run(struct closure *c, const char *prog, const char *llp, const char *root,
                        int x86_level)
{
    struct td_err err = {0};
    memset(c, 0, sizeof *c);
    c->cfg.platform = TD_PLATFORM_LINUX;
    c->cfg.profile = TD_PROFILE_EXE;
    c->cfg.root = root;
    c->cfg.x86_level = x86_level;
    if (llp) {
        c->env[0] = (struct td_env_var){"LD_LIBRARY_PATH", llp};
        c->cfg.env = c->env;
        c->cfg.n_env = 1;
    }
    if (td_loader_init(&c->L, &c->cfg, &err) != 0)
        fail_msg("init: %s", err.msg);
    struct td_object *main = td_object_open(prog, NULL, NULL, &err);
    if (!main)
        fail_msg("%s", err.msg);
    c->objs[c->n++] = main;
    c->L.main = main;
    for (size_t i = 0; i < c->n; i++) {
        struct td_object *o = c->objs[i];
        for (uint32_t k = 0; k < o->u.elf.needed_count; k++) {
            const char *name = o->u.elf.needed[k];
            bool known = false;
            for (size_t m = 0; m < c->nmissing; m++)
                known |= strcmp(c->missing[m], name) == 0; /* ld.so's faked entry */
            if (known)
                continue;
            assert_true(c->nres < MAX_RES);
            struct td_resolution *r = &c->res[c->nres];
            struct td_loaded loaded = {c->objs, c->n};
            if (c->L.ops->resolve(&c->L, o, name, false, &loaded, r, &err) != 0)
                fail_msg("resolve %s: %s", name, err.msg);
            c->res_by[c->nres] = o;
            c->res_name[c->nres++] = name;
            size_t len = strlen(c->lines);
            if (r->object && r->newly_opened) {
                assert_true(c->n < MAX_OBJ);
                r->object->loader = o;
                r->object->depth = o->depth + 1;
                r->object->index = (uint32_t)c->n;
                c->objs[c->n++] = r->object;
                if (r->rule != TD_RULE_ALREADY_LOADED) /* ld.so's own map: no "=>" line */
                    snprintf(c->lines + len, sizeof c->lines - len, "%s => %s\n", name,
                             r->object->path);
            } else if (!r->object) {
                const struct td_probe *last = r->n_probes ? &r->probes[r->n_probes - 1] : NULL;
                if (last && last->verdict == TD_VERDICT_NOT_A_LIBRARY) {
                    snprintf(c->lines, sizeof c->lines, "error: %s\n", last->path);
                    return; /* ld.so stops the whole load */
                }
                snprintf(c->lines + len, sizeof c->lines - len, "%s => not found\n", name);
                snprintf(c->missing[c->nmissing++], sizeof c->missing[0], "%s", name);
            } else if (r->object->alias_count < 8) {
                r->object->aliases[r->object->alias_count++] = name;
            }
        }
    }
}

static void closure_free(struct closure *c)
{
    for (size_t i = 0; i < c->n; i++)
        td_object_free(c->objs[i]);
    td_loader_fini(&c->L);
}

/* The resolution of NAME (by any requester). */
static const struct td_resolution *find(const struct closure *c, const char *name)
{
    for (size_t i = 0; i < c->nres; i++)
        if (strcmp(c->res_name[i], name) == 0)
            return &c->res[i];
    fail_msg("%s was never resolved", name);
    return NULL;
}

static const char *fx(const char *rel)
{
    static char buf[8][4096];
    static int k;
    k = (k + 1) % 8;
    if (!realpath(td_fixture(rel), buf[k])) /* ld.so's $ORIGIN of a program is absolute */
        snprintf(buf[k], sizeof buf[k], "%s", td_fixture(rel));
    return buf[k];
}

static void expect_probe(const struct td_resolution *r, size_t i, enum td_rule rule,
                         enum td_verdict verdict, const char *path, const char *origin)
{
    if (i >= r->n_probes)
        fail_msg("probe %zu missing (%zu probes)", i, r->n_probes);
    const struct td_probe *p = &r->probes[i];
    if (p->rule != rule || p->verdict != verdict)
        fail_msg("probe %zu at %s: %s/%s, expected %s/%s", i, p->path, td_rule_name(p->rule),
                 td_verdict_name(p->verdict), td_rule_name(rule), td_verdict_name(verdict));
    if (path)
        assert_string_equal(p->path, path);
    if (origin)
        assert_string_equal(p->origin ? p->origin : "(none)", origin);
}

/* ------------------------------------------------------ probe lists */

static void test_rpath_chain(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/chain/bin/prog"), NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libC.so");
    char want[4096];
    snprintf(want, sizeof want, "%s/../a/../c/libC.so", fx("linux_loader/chain/bin"));
    assert_non_null(r->object);
    assert_int_equal(r->rule, TD_RULE_RPATH);
    assert_int_equal(r->n_probes, 1); /* libB has no RPATH; libA's finds it */
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_FOUND, want, NULL);
    assert_string_equal(r->origin, find(&c, "libA.so")->object->path);
    closure_free(&c);
}

static void test_runpath_not_inherited(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/runpath/bin/prog"), NULL, NULL, 0);
    assert_non_null(find(&c, "libA2.so")->object);
    assert_int_equal(find(&c, "libA2.so")->rule, TD_RULE_RUNPATH);
    const struct td_resolution *r = find(&c, "libB2.so");
    assert_null(r->object);
    for (size_t i = 0; i < r->n_probes; i++) {
        assert_int_not_equal(r->probes[i].rule, TD_RULE_RUNPATH);
        assert_int_not_equal(r->probes[i].rule, TD_RULE_RPATH);
    }
    expect_probe(r, 0, TD_RULE_LD_CACHE, TD_VERDICT_ABSENT, "/etc/ld.so.cache", NULL);
    expect_probe(r, r->n_probes - 1, TD_RULE_DEFAULT_DIR, TD_VERDICT_ABSENT, "/usr/lib/libB2.so",
                 NULL);
    closure_free(&c);
}

static void test_rpath_ignored_with_runpath(void **state)
{
    struct closure c;
    const char *prog = fx("linux_loader/both/bin/prog");
    closure_run(&c, prog, NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libR.so");
    char want[4096];
    snprintf(want, sizeof want, "%s/../u/libR.so", fx("linux_loader/both/bin"));
    assert_int_equal(r->n_probes, 2);
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_SKIPPED, "$ORIGIN/../r:$ORIGIN/../u", prog);
    expect_probe(r, 1, TD_RULE_RUNPATH, TD_VERDICT_FOUND, want, prog);
    closure_free(&c);
}

static void test_ld_library_path_order(void **state)
{
    struct closure c;
    const char *env = fx("linux_loader/llp/env");
    closure_run(&c, fx("linux_loader/llp/bin/prog"), env, NULL, 0);
    const struct td_resolution *r = find(&c, "libL.so");
    char want[4096];
    snprintf(want, sizeof want, "%s/libL.so", env);
    assert_int_equal(r->n_probes, 1);
    expect_probe(r, 0, TD_RULE_LD_LIBRARY_PATH, TD_VERDICT_FOUND, want, "(none)");
    closure_free(&c);

    const char *prog5 = fx("linux_loader/rfirst/bin/prog");
    closure_run(&c, prog5, fx("linux_loader/rfirst/env"), NULL, 0);
    r = find(&c, "libL5.so");
    assert_int_equal(r->n_probes, 1);
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_FOUND, NULL, prog5);
    closure_free(&c);
}

static void test_wrong_class_and_machine_skipped(void **state)
{
    struct closure c;
    const char *prog = fx("linux_loader/wrong/bin/prog");
    const char *bin = fx("linux_loader/wrong/bin");
    char w32[4096], arm[4096], good[4096];
    snprintf(w32, sizeof w32, "%s/../w32/libW.so", bin);
    snprintf(arm, sizeof arm, "%s/../arm/libW.so", bin);
    snprintf(good, sizeof good, "%s/../good/libW.so", bin);
    closure_run(&c, prog, NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libW.so");
    assert_int_equal(r->n_probes, 3);
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_WRONG_CLASS, w32, prog);
    assert_string_equal(r->probes[0].detail, "ELFCLASS32");
    expect_probe(r, 1, TD_RULE_RPATH, TD_VERDICT_WRONG_MACHINE, arm, prog);
    expect_probe(r, 2, TD_RULE_RPATH, TD_VERDICT_FOUND, good, prog);
    assert_string_equal(r->object->path, good);
    closure_free(&c);
}

static void test_linker_script_stops(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/script/bin/prog"), NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libS.so");
    char want[4096];
    snprintf(want, sizeof want, "%s/../ld/libS.so", fx("linux_loader/script/bin"));
    assert_null(r->object);
    assert_int_equal(r->n_probes, 1); /* the good copy later in the path is never tried */
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_NOT_A_LIBRARY, want, NULL);
    assert_non_null(strstr(r->probes[0].detail, "invalid ELF header"));
    closure_free(&c);
}

static void test_nodeflib(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/nodeflib/bin/prog"), NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libm.so.6");
    assert_null(r->object);
    bool cache_refused = false;
    size_t skipped_defaults = 0;
    for (size_t i = 0; i < r->n_probes; i++) {
        const struct td_probe *p = &r->probes[i];
        if (p->rule == TD_RULE_LD_CACHE && p->verdict == TD_VERDICT_SKIPPED &&
            strcmp(p->path, "/lib/x86_64-linux-gnu/libm.so.6") == 0)
            cache_refused = strstr(p->detail, "NODEFLIB") != NULL;
        if (p->rule == TD_RULE_DEFAULT_DIR) {
            assert_int_equal(p->verdict, TD_VERDICT_SKIPPED);
            skipped_defaults++;
        }
    }
    assert_true(cache_refused);
    assert_int_equal(skipped_defaults, 4);
    /* The program itself has no NODEFLIB: its libc comes from the cache. */
    assert_int_equal(find(&c, "libc.so.6")->rule, TD_RULE_LD_CACHE);
    closure_free(&c);
}

static void test_glibc_hwcaps(void **state)
{
    struct closure c;
    char base[4096], v2[4096];
    snprintf(base, sizeof base, "%s/../lib/libH.so", fx("linux_loader/hwcaps/bin"));
    snprintf(v2, sizeof v2, "%s/../lib/glibc-hwcaps/x86-64-v2/libH.so",
             fx("linux_loader/hwcaps/bin"));
    closure_run(&c, fx("linux_loader/hwcaps/bin/prog"), NULL, NULL, 2);
    const struct td_resolution *r = find(&c, "libH.so");
    assert_int_equal(r->n_probes, 1);
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_FOUND, v2, NULL);
    closure_free(&c);
    /* A baseline CPU does not use x86-64-v2. */
    closure_run(&c, fx("linux_loader/hwcaps/bin/prog"), NULL, NULL, 1);
    r = find(&c, "libH.so");
    assert_int_equal(r->n_probes, 1);
    expect_probe(r, 0, TD_RULE_RPATH, TD_VERDICT_FOUND, base, NULL);
    closure_free(&c);
}

static void test_already_loaded_by_soname(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/dup/bin/prog"), NULL, NULL, 0);
    const struct td_resolution *first = find(&c, "libfirst.so");
    const struct td_resolution *r = find(&c, "libdup.so.1");
    assert_ptr_equal(r->object, first->object);
    assert_false(r->newly_opened);
    assert_int_equal(r->rule, TD_RULE_ALREADY_LOADED);
    assert_int_equal(r->n_probes, 1);
    expect_probe(r, 0, TD_RULE_ALREADY_LOADED, TD_VERDICT_FOUND, first->object->path, NULL);
    assert_string_equal(r->probes[0].detail, "by DT_SONAME");
    closure_free(&c);
}

/* A file found again under another name is the object already loaded;
 * the caller then gives it that name (ld.so's add_name_to_object), and the
 * next request for the name finds it by name. */
static void test_same_file_then_by_alias(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/chain/bin/prog"), NULL, NULL, 0);
    struct td_object *libB = find(&c, "libB.so")->object;
    char path[4096];
    snprintf(path, sizeof path, "%s", fx("linux_loader/chain/a/libB.so"));
    struct td_loaded loaded = {c.objs, c.n};
    struct td_resolution r;
    struct td_err err = {0};
    assert_int_equal(c.L.ops->resolve(&c.L, NULL, path, false, &loaded, &r, &err), 0);
    assert_ptr_equal(r.object, libB);
    assert_false(r.newly_opened);
    assert_int_equal(r.rule, TD_RULE_PATH_IN_NAME);
    assert_true(libB->alias_count < 8);
    libB->aliases[libB->alias_count++] = path;
    assert_int_equal(c.L.ops->resolve(&c.L, NULL, path, false, &loaded, &r, &err), 0);
    assert_ptr_equal(r.object, libB);
    assert_int_equal(r.rule, TD_RULE_ALREADY_LOADED);
    expect_probe(&r, 0, TD_RULE_ALREADY_LOADED, TD_VERDICT_FOUND, libB->path, NULL);
    assert_string_equal(r.probes[0].detail, "by name");
    closure_free(&c);
}

/* When several loaded objects answer to a name, the first in load order is
 * taken, whatever list the loader saw before. */
static void test_already_loaded_first_in_order(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/chain/bin/prog"), NULL, NULL, 0);
    struct td_object *libB = find(&c, "libB.so")->object;
    struct td_object *libC = find(&c, "libC.so")->object;
    assert_true(libB->alias_count < 8 && libC->alias_count < 8);
    libB->aliases[libB->alias_count++] = "libshared.so";
    libC->aliases[libC->alias_count++] = "libshared.so";
    struct td_object *bc[] = {c.objs[0], libB, libC}, *cb[] = {c.objs[0], libC, libB};
    struct td_loaded loaded = {bc, 3};
    struct td_resolution r;
    struct td_err err = {0};
    assert_int_equal(c.L.ops->resolve(&c.L, c.objs[0], "libshared.so", false, &loaded, &r, &err),
                     0);
    assert_ptr_equal(r.object, libB);
    assert_int_equal(r.rule, TD_RULE_ALREADY_LOADED);
    loaded.objects = cb;
    assert_int_equal(c.L.ops->resolve(&c.L, c.objs[0], "libshared.so", false, &loaded, &r, &err),
                     0);
    assert_ptr_equal(r.object, libC);
    /* libB is still loaded, so its own name still answers. */
    assert_int_equal(c.L.ops->resolve(&c.L, c.objs[0], "libB.so", false, &loaded, &r, &err), 0);
    assert_ptr_equal(r.object, libB);
    assert_int_equal(r.rule, TD_RULE_ALREADY_LOADED);
    /* A name given later to the earlier object (found again as the same
     * file) takes over from the later object's own. */
    char path[4096];
    snprintf(path, sizeof path, "%s", fx("linux_loader/chain/c/libC.so"));
    assert_int_equal(c.L.ops->resolve(&c.L, NULL, path, false, &loaded, &r, &err), 0);
    assert_ptr_equal(r.object, libC);
    assert_int_equal(r.rule, TD_RULE_PATH_IN_NAME);
    assert_true(libC->alias_count < 8);
    libC->aliases[libC->alias_count++] = "libB.so";
    assert_int_equal(c.L.ops->resolve(&c.L, c.objs[0], "libB.so", false, &loaded, &r, &err), 0);
    assert_ptr_equal(r.object, libC);
    closure_free(&c);
}

static void test_stub(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/cuda/bin/prog"), NULL, NULL, 0);
    const struct td_resolution *r = find(&c, "libcuda.so.1");
    assert_non_null(r->object);
    assert_true(r->object->is_stub);
    assert_non_null(strstr(r->probes[r->n_probes - 1].detail, "stub"));
    assert_false(find(&c, "libc.so.6")->object->is_stub);
    closure_free(&c);
}

static void test_ld_cache_under_root(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/cache/bin/prog"), NULL, fx("linux_loader/root"), 0);
    const struct td_resolution *r = find(&c, "libK.so.1");
    assert_int_equal(r->rule, TD_RULE_LD_CACHE);
    assert_string_equal(r->object->path, "/srv/tdlinux/libK.so.1");
    assert_int_equal(r->n_probes, 1); /* the first usable entry wins */
    expect_probe(r, 0, TD_RULE_LD_CACHE, TD_VERDICT_FOUND, "/srv/tdlinux/libK.so.1", NULL);
    /* A name the cache lists only for i386: that entry is passed over. */
    struct td_resolution j;
    struct td_err err = {0};
    struct td_loaded loaded = {c.objs, c.n};
    assert_int_equal(c.L.ops->resolve(&c.L, c.objs[0], "libJ.so.1", false, &loaded, &j, &err), 0);
    assert_null(j.object);
    expect_probe(&j, 0, TD_RULE_LD_CACHE, TD_VERDICT_WRONG_CLASS, "/srv/tdlinux32/libJ.so.1", NULL);
    expect_probe(&j, 1, TD_RULE_DEFAULT_DIR, TD_VERDICT_ABSENT, "/lib/x86_64-linux-gnu/libJ.so.1",
                 NULL);
    /* Not in the private cache: the default directories under the root. */
    const struct td_resolution *libc = find(&c, "libc.so.6");
    assert_int_equal(libc->rule, TD_RULE_DEFAULT_DIR);
    assert_string_equal(libc->object->path, "/lib/x86_64-linux-gnu/libc.so.6");
    closure_free(&c);
}

static void test_dst_expansion(void **state)
{
    struct closure c;
    closure_run(&c, fx("linux_loader/llporigin/bin/prog"),
                "/nonexistent/$LIB:/x/${PLATFORM}:$ORIGIN/sub", NULL, 3);
    const struct td_resolution *r = find(&c, "libE.so");
    char want[4096];
    snprintf(want, sizeof want, "%s/sub/libE.so", fx("linux_loader/llporigin/bin"));
    assert_int_equal(r->n_probes, 3);
    expect_probe(r, 0, TD_RULE_LD_LIBRARY_PATH, TD_VERDICT_ABSENT,
                 "/nonexistent/lib/x86_64-linux-gnu/libE.so", NULL);
    expect_probe(r, 1, TD_RULE_LD_LIBRARY_PATH, TD_VERDICT_ABSENT, "/x/x86_64/libE.so", NULL);
    expect_probe(r, 2, TD_RULE_LD_LIBRARY_PATH, TD_VERDICT_FOUND, want, NULL);
    closure_free(&c);
}

static void test_preload(void **state)
{
    struct td_loader_config cfg = {.platform = TD_PLATFORM_LINUX, .root = "/nonexistent-root"};
    struct td_env_var env[] = {{"LD_PRELOAD", "libx.so /opt/liby.so:libz.so"}};
    cfg.env = env;
    cfg.n_env = 1;
    struct td_arena arena = {0};
    const char **names = NULL;
    assert_int_equal(td_linux_preload_names(&cfg, &arena, &names), 3);
    assert_string_equal(names[0], "libx.so");
    assert_string_equal(names[1], "/opt/liby.so");
    assert_string_equal(names[2], "libz.so");
    td_arena_free(&arena);

    /* A preload is resolved with the program as requester; a path is used as is. */
    struct closure c;
    closure_run(&c, fx("linux_loader/rfirst/bin/prog"), NULL, NULL, 0);
    struct td_resolution r;
    struct td_err err = {0};
    struct td_loaded loaded = {c.objs, c.n};
    char path[4096];
    snprintf(path, sizeof path, "%s", fx("linux_loader/rfirst/env/libL5.so"));
    assert_int_equal(c.L.ops->resolve(&c.L, NULL, path, false, &loaded, &r, &err), 0);
    assert_non_null(r.object);
    assert_int_equal(r.rule, TD_RULE_PATH_IN_NAME);
    td_object_free(r.object);
    assert_int_equal(c.L.ops->resolve(&c.L, NULL, "libL5.so", false, &loaded, &r, &err), 0);
    assert_int_equal(r.rule, TD_RULE_ALREADY_LOADED);
    closure_free(&c);
}

/* ------------------------------------------------ ground truth: ld.so */

/* The lines of the ld.so trace for CASE, normalised like closure lines. */
static void truth_lines(const char *name, char *out, size_t cap)
{
    char path[4096], line[8192];
    if (snprintf(path, sizeof path, "linux_loader/truth/%s.txt", name) >= (int)sizeof path)
        fail_msg("case name too long: %s", name);
    FILE *f = fopen(td_fixture(path), "r");
    if (!f)
        fail_msg("no ground truth for %s", name);
    out[0] = '\0';
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(out);
        char *err = strstr(line, "error while loading shared libraries: ");
        if (err) {
            char *p = err + strlen("error while loading shared libraries: ");
            char *colon = strstr(p, ": ");
            if (colon)
                *colon = '\0';
            snprintf(out, cap, "error: %s\n", p);
            break;
        }
        char *arrow = strstr(line, " => ");
        if (!arrow)
            continue;
        char *start = line + strspn(line, "\t ");
        char *addr = strstr(arrow, " (0x");
        if (addr)
            *addr = '\0';
        start[strcspn(start, "\n")] = '\0';
        snprintf(out + len, cap - len, "%s\n", start);
    }
    fclose(f);
}

static void test_ground_truth(void **state)
{
    FILE *f = fopen(td_fixture("linux_loader/cases.tsv"), "r");
    char line[4096];
    int cases = 0, failures = 0;
    assert_non_null(f);
    while (fgets(line, sizeof line, f)) {
        char *cell[4];
        char *p = line;
        line[strcspn(line, "\n")] = '\0';
        for (int i = 0; i < 4; i++) {
            cell[i] = p;
            p += strcspn(p, "\t");
            if (*p)
                *p++ = '\0';
        }
        char prog[4096], root[4096], want[4096];
        snprintf(prog, sizeof prog, "linux_loader/%s", cell[1]);
        snprintf(prog, sizeof prog, "%s", fx(prog));
        snprintf(root, sizeof root, "%s", cell[3]);
        truth_lines(cell[0], want, sizeof want);
        struct closure c;
        closure_run(&c, prog, strcmp(cell[2], "-") ? cell[2] : NULL,
                    strcmp(root, "-") ? root : NULL, 0);
        if (strcmp(c.lines, want) != 0) {
            print_error("%s: ld.so loaded\n%s-- the model says\n%s", cell[0], want, c.lines);
            failures++;
        }
        closure_free(&c);
        cases++;
    }
    fclose(f);
    assert_int_equal(failures, 0);
    assert_true(cases >= 14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rpath_chain),
        cmocka_unit_test(test_runpath_not_inherited),
        cmocka_unit_test(test_rpath_ignored_with_runpath),
        cmocka_unit_test(test_ld_library_path_order),
        cmocka_unit_test(test_wrong_class_and_machine_skipped),
        cmocka_unit_test(test_linker_script_stops),
        cmocka_unit_test(test_nodeflib),
        cmocka_unit_test(test_glibc_hwcaps),
        cmocka_unit_test(test_already_loaded_by_soname),
        cmocka_unit_test(test_same_file_then_by_alias),
        cmocka_unit_test(test_already_loaded_first_in_order),
        cmocka_unit_test(test_stub),
        cmocka_unit_test(test_ld_cache_under_root),
        cmocka_unit_test(test_dst_expansion),
        cmocka_unit_test(test_preload),
        cmocka_unit_test(test_ground_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
