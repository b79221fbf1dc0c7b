/* The Windows loader model against the fixtures of
 * tests/fixtures/windows_loader.sh: exact rules, paths and verdicts per
 * rule, and every case of cases.tsv replayed through a small closure walk
 * (resolve + bind_pe) whose outcome must be the "windows" column, the same
 * cases windows_wine.test.sh runs under Wine. */
#include "testutil.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/bind_pe.c" /* td_graph is not linked into td_loader tests */
#include "loader/loader.h"
#include "loader/windows.h"

#define MAX_OBJECTS 64

struct world {
    struct td_loader_config cfg;
    struct td_loader L;
    struct td_object *objects[MAX_OBJECTS];
    struct td_loaded loaded;
    const char *dll_dirs[8];
    char dir_buf[8][2048];
    char path_env[2200];
    struct td_env_var env[1];
    char root[1024];
};

static void world_init(struct world *w, uint32_t flags, enum td_profile profile)
{
    memset(w, 0, sizeof *w);
    snprintf(w->root, sizeof w->root, "%s", td_fixture("windows_loader/root"));
    w->cfg.platform = TD_PLATFORM_WINDOWS;
    w->cfg.profile = profile;
    w->cfg.root = w->root;
    w->cfg.load_flags = flags;
    w->cfg.dll_dirs = w->dll_dirs;
    w->cfg.env = w->env;
    w->loaded.objects = w->objects;
    struct td_err err = {0};
    assert_int_equal(td_loader_init(&w->L, &w->cfg, &err), 0);
}

static void world_fini(struct world *w)
{
    for (size_t i = 0; i < w->loaded.count; i++)
        td_object_free(w->objects[i]);
    td_loader_fini(&w->L);
}

static struct td_object *world_open(struct world *w, const char *rel)
{
    char host[2048];
    snprintf(host, sizeof host, "%s/%s", w->root, rel);
    struct td_err err = {0};
    struct td_object *o = td_object_open(host, NULL, NULL, &err);
    if (!o)
        fail_msg("%s", err.msg);
    if (!w->L.main)
        w->L.main = o;
    w->objects[w->loaded.count++] = o;
    return o;
}

static int world_resolve(struct world *w, struct td_object *req, const char *name,
                         struct td_resolution *r)
{
    struct td_err err = {0};
    assert_int_equal(w->L.ops->resolve(&w->L, req, name, false, &w->loaded, r, &err), 0);
    if (r->object && r->newly_opened) {
        assert_true(w->loaded.count < MAX_OBJECTS);
        r->object->loader = req;
        w->objects[w->loaded.count++] = r->object;
    }
    return r->object != NULL;
}

static int bind_load(void *ctx, struct td_object *req, const char *dll, struct td_resolution *res,
                     struct td_object **out, struct td_err *err)
{
    world_resolve(ctx, req, dll, res);
    *out = res->object;
    return 0;
}

static char *lower(char *s)
{
    for (char *c = s; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return s;
}

static const char *base(const char *p)
{
    const char *s = strrchr(p, '/'), *b = strrchr(p, '\\');
    const char *x = s > b ? s : b;
    return x ? x + 1 : p;
}

/* Loads ROOT's closure breadth-first (static imports only; delay imports
 * are resolved but never fail the load) and binds every static import.
 * Writes the outcome in cases.tsv's words into OUT. */
static void closure(struct world *w, struct td_object *root, char *out, size_t cap)
{
    size_t start = w->loaded.count - 1;
    snprintf(out, cap, "ok");
    for (size_t q = start; q < w->loaded.count; q++) {
        struct td_object *o = w->objects[q];
        for (int delay = 0; delay < 2; delay++) {
            struct td_pe_import_dll *dlls;
            size_t n;
            struct td_err err = {0};
            assert_int_equal(td_pe_imports(&o->u.pe, delay, &dlls, &n, &err), 0);
            for (size_t i = 0; i < n; i++) {
                struct td_resolution r;
                char name[200], by[200];
                snprintf(name, sizeof name, "%s", dlls[i].name);
                snprintf(by, sizeof by, "%s", base(o->path));
                if (world_resolve(w, o, name, &r) || delay)
                    continue;
                if (r.fatal_wrong_machine)
                    snprintf(out, cap, "badformat:%s", lower(name));
                else
                    snprintf(out, cap, "missing:%s:%s", lower(name), lower(by));
                return;
            }
        }
    }
    for (size_t q = start; q < w->loaded.count; q++) {
        struct td_object *o = w->objects[q];
        struct td_pe_import_dll *dlls;
        size_t n;
        struct td_err err = {0};
        assert_int_equal(td_pe_imports(&o->u.pe, false, &dlls, &n, &err), 0);
        for (size_t i = 0; i < n; i++) {
            struct td_resolution r;
            assert_true(world_resolve(w, o, dlls[i].name, &r));
            for (size_t k = 0; k < dlls[i].count; k++) {
                struct td_pe_import_func fn;
                struct td_bind_pe_result b;
                assert_int_equal(td_pe_import_func(&o->u.pe, &dlls[i], k, &fn, &err), 0);
                assert_int_equal(td_bind_pe(&fn, r.object, bind_load, w, &b, &err), 0);
                char dll[200];
                snprintf(dll, sizeof dll, "%s", base(r.object->path));
                lower(dll);
                if (b.status == TD_BIND_MISSING_SYMBOL)
                    snprintf(out, cap, "noentry:%s!%s", dll, fn.name);
                else if (b.status == TD_BIND_MISSING_ORDINAL)
                    snprintf(out, cap, "noordinal:%s#%u", dll, fn.ordinal);
                else if (b.status == TD_BIND_BAD_FORWARDER)
                    snprintf(out, cap, "badfwd:%s!%s", dll, fn.name ? fn.name : "#");
                if (b.status != TD_BIND_OK)
                    return;
            }
        }
    }
    (void)root;
}

/* Runs one cases.tsv "run" cell; returns the outcome. */
static void run_case(const char *run, char *out, size_t cap)
{
    struct world w;
    char words[16][256] = {{0}};
    int nw = 0;
    for (const char *p = run; *p && nw < 16;) {
        size_t n = strcspn(p, " ");
        snprintf(words[nw++], sizeof words[0], "%.*s", (int)n, p);
        p += n + (p[n] == ' ');
    }
    if (strcmp(words[0], "exe") == 0) {
        world_init(&w, 0, TD_PROFILE_EXE);
        closure(&w, world_open(&w, words[1]), out, cap);
        world_fini(&w);
        return;
    }
    /* loader.exe: the process is app/loader.exe; ops in order. */
    world_init(&w, 0, TD_PROFILE_DLOPEN);
    world_open(&w, "app/loader.exe");
    snprintf(out, cap, "ok");
    for (int i = 1; i + 1 < nw; i += 2) {
        const char *op = words[i], *val = words[i + 1];
        if (strcmp(op, "-f") == 0) {
            w.cfg.load_flags = (uint32_t)strtoul(val, NULL, 16);
        } else if (strcmp(op, "-d") == 0) {
            snprintf(w.dir_buf[w.cfg.n_dll_dirs], sizeof w.dir_buf[0], "%s/%s", w.root, val);
            w.dll_dirs[w.cfg.n_dll_dirs] = w.dir_buf[w.cfg.n_dll_dirs];
            w.cfg.n_dll_dirs++;
        } else if (strcmp(op, "-p") == 0) {
            snprintf(w.path_env, sizeof w.path_env, "%s/%s", w.root, val);
            w.env[0] = (struct td_env_var){"PATH", w.path_env};
            w.cfg.n_env = 1;
        } else if (strcmp(op, "-l") == 0) {
            struct td_object *o = world_open(&w, val);
            closure(&w, o, out, cap);
            if (strcmp(out, "ok") != 0)
                break;
        }
    }
    world_fini(&w);
}

static void test_cases_tsv(void **state)
{
    (void)state;
    FILE *f = fopen(td_fixture("windows_loader/cases.tsv"), "r");
    assert_non_null(f);
    char line[1024];
    int n = 0, bad = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *name = strtok(line, "\t"), *run = strtok(NULL, "\t"), *want = strtok(NULL, "\t");
        if (!name || !run || !want || strcmp(name, "case") == 0)
            continue;
        char got[1024];
        run_case(run, got, sizeof got);
        if (strcmp(got, want) != 0) {
            print_error("case %s: model says %s, Windows does %s\n", name, got, want);
            bad++;
        }
        n++;
    }
    fclose(f);
    assert_int_equal(n, 24);
    assert_int_equal(bad, 0);
}

/* ---- exact rules, paths and verdicts ---- */

static const struct td_probe *last(const struct td_resolution *r)
{
    assert_true(r->n_probes > 0);
    return &r->probes[r->n_probes - 1];
}

static void test_missing_lists_standard_order(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    struct td_object *exe = world_open(&w, "missing2/main.exe");
    struct td_resolution r;
    assert_true(world_resolve(&w, exe, "a.dll", &r));
    assert_int_equal(r.rule, TD_RULE_APP_DIR);
    assert_string_equal(r.object->path, "C:\\missing2\\a.dll");
    struct td_object *a = r.object;
    assert_false(world_resolve(&w, a, "b.dll", &r));
    /* Dependencies of a.dll are searched from the exe's directory. */
    const enum td_rule order[] = {TD_RULE_APP_DIR, TD_RULE_SYSTEM32, TD_RULE_SYSTEM16,
                                  TD_RULE_WINDOWS_DIR};
    const char *paths[] = {"C:\\missing2\\b.dll", "C:\\Windows\\System32\\b.dll",
                           "C:\\Windows\\System\\b.dll", "C:\\Windows\\b.dll"};
    assert_int_equal(r.n_probes, 4);
    for (int i = 0; i < 4; i++) {
        assert_int_equal(r.probes[i].rule, order[i]);
        assert_string_equal(r.probes[i].path, paths[i]);
        assert_int_equal(r.probes[i].verdict, TD_VERDICT_ABSENT);
    }
    world_fini(&w);
}

static void test_wrong_machine_is_fatal(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    struct td_object *exe = world_open(&w, "wrongarch/main.exe");
    struct td_resolution r;
    assert_true(world_resolve(&w, exe, "a.dll", &r));
    assert_false(world_resolve(&w, r.object, "B.DLL", &r));
    assert_true(r.fatal_wrong_machine);
    assert_int_equal(r.n_probes, 1); /* System32 etc. are never reached */
    assert_int_equal(last(&r)->verdict, TD_VERDICT_WRONG_MACHINE);
    assert_string_equal(last(&r)->path, "C:\\wrongarch\\b.dll");
    assert_non_null(strstr(last(&r)->detail, "PE32 x86"));
    world_fini(&w);
}

static void test_not_pe_is_fatal(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    struct td_object *exe = world_open(&w, "notpe/main.exe");
    struct td_resolution r;
    assert_false(world_resolve(&w, exe, "b.dll", &r));
    assert_true(r.fatal_wrong_machine);
    assert_int_equal(last(&r)->verdict, TD_VERDICT_NOT_A_LIBRARY);
    world_fini(&w);
}

static void test_api_set_to_ucrtbase(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    struct td_object *exe = world_open(&w, "apiset/main.exe");
    struct td_resolution r;
    assert_true(world_resolve(&w, exe, "api-ms-win-crt-runtime-l1-1-0.dll", &r));
    assert_int_equal(r.rule, TD_RULE_API_SET);
    assert_string_equal(r.api_set_host, "ucrtbase.dll");
    assert_int_equal(r.probes[0].rule, TD_RULE_API_SET);
    assert_string_equal(r.probes[0].detail, "contract api-ms-win-crt-runtime-l1-1 -> ucrtbase.dll");
    /* ucrtbase.dll is a KnownDLL: the System32 copy. */
    assert_int_equal(last(&r)->rule, TD_RULE_KNOWN_DLL);
    assert_string_equal(r.object->path, "C:\\Windows\\System32\\ucrtbase.dll");
    /* An unknown contract is searched as a file. */
    assert_false(world_resolve(&w, exe, "api-ms-win-td-nothing-l1-1-0.dll", &r));
    assert_int_equal(r.probes[0].verdict, TD_VERDICT_SKIPPED);
    assert_int_equal(last(&r)->rule, TD_RULE_WINDOWS_DIR);
    world_fini(&w);
}

/* A live schema (cfg.live_apisets) replaces the table: its hosts win, and a
 * contract only the table knows is no API set at all. */
static void test_live_apisets_replace_table(void **state)
{
    (void)state;
    struct td_apiset_contract contracts[] = {
        {"api-ms-win-crt-runtime-l1-1", "api-ms-win-crt-runtime-l1-1-7", "kernel32.dll"},
        {"ext-ms-win-td-none-l1-1", "ext-ms-win-td-none-l1-1-0", "-"},
    };
    struct td_apiset_map live = {6, contracts, 2};
    struct world w;
    memset(&w, 0, sizeof w);
    snprintf(w.root, sizeof w.root, "%s", td_fixture("windows_loader/root"));
    w.cfg = (struct td_loader_config){.platform = TD_PLATFORM_WINDOWS,
                                      .profile = TD_PROFILE_EXE,
                                      .root = w.root,
                                      .dll_dirs = w.dll_dirs,
                                      .env = w.env,
                                      .live_apisets = &live};
    w.loaded.objects = w.objects;
    struct td_err err = {0};
    assert_int_equal(td_loader_init(&w.L, &w.cfg, &err), 0);
    struct td_object *exe = world_open(&w, "apiset/main.exe");
    struct td_resolution r;
    assert_true(world_resolve(&w, exe, "API-MS-Win-CRT-Runtime-L1-1-0.dll", &r));
    assert_int_equal(r.rule, TD_RULE_API_SET);
    assert_string_equal(r.api_set_host, "kernel32.dll");
    assert_string_equal(r.probes[0].detail, "contract api-ms-win-crt-runtime-l1-1 -> kernel32.dll");
    assert_string_equal(r.object->path, "C:\\Windows\\System32\\kernel32.dll");
    /* In the table (kernelbase.dll), not in the live schema: searched as a file. */
    assert_false(world_resolve(&w, exe, "api-ms-win-core-synch-l1-2-0.dll", &r));
    assert_int_equal(r.probes[0].verdict, TD_VERDICT_SKIPPED);
    /* A live contract without a host resolves to nothing. */
    assert_false(world_resolve(&w, exe, "ext-ms-win-td-none-l1-1-0.dll", &r));
    assert_int_equal(r.probes[0].verdict, TD_VERDICT_ABSENT);
    assert_string_equal(r.probes[0].detail, "contract ext-ms-win-td-none-l1-1 has no host DLL");
    world_fini(&w);
}

static void test_known_dll_beats_app_copy(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    struct td_object *exe = world_open(&w, "knowndll/main.exe");
    struct td_resolution r;
    assert_true(world_resolve(&w, exe, "SHLWAPI.dll", &r));
    assert_int_equal(r.rule, TD_RULE_KNOWN_DLL);
    assert_int_equal(r.n_probes, 1);
    assert_string_equal(r.object->path, "C:\\Windows\\System32\\shlwapi.dll");
    world_fini(&w);
}

static void test_path_only_in_standard_order(void **state)
{
    (void)state;
    char got[256];
    run_case("loader -p pathdir -f 0 -l plug/pplug.dll", got, sizeof got);
    assert_string_equal(got, "ok");
    struct world w;
    world_init(&w, 0, TD_PROFILE_DLOPEN);
    world_open(&w, "app/loader.exe");
    snprintf(w.path_env, sizeof w.path_env, "C:\\nowhere;%s/pathdir", w.root);
    w.env[0] = (struct td_env_var){"PATH", w.path_env};
    w.cfg.n_env = 1;
    struct td_object *plug = world_open(&w, "plug/pplug.dll");
    struct td_resolution r;
    assert_true(world_resolve(&w, plug, "pdep.dll", &r));
    assert_int_equal(r.rule, TD_RULE_PATH_ENV);
    assert_string_equal(r.object->path, "C:\\pathdir\\pdep.dll");
    assert_string_equal(r.probes[0].path, "C:\\app\\pdep.dll"); /* the application dir */
    assert_string_equal(r.probes[r.n_probes - 2].path, "C:\\nowhere\\pdep.dll");
    td_object_free(w.objects[--w.loaded.count]); /* unload pdep.dll again */
    /* python-extension: no PATH at all. */
    w.cfg.profile = TD_PROFILE_PYTHON_EXTENSION;
    assert_false(world_resolve(&w, plug, "pdep.dll", &r));
    assert_int_equal(r.probes[0].rule, TD_RULE_DLL_LOAD_DIR);
    assert_string_equal(r.probes[0].path, "C:\\plug\\pdep.dll");
    assert_int_equal(r.probes[1].verdict, TD_VERDICT_SKIPPED); /* python.exe dir unknown */
    assert_int_equal(last(&r)->rule, TD_RULE_SYSTEM32);
    /* torch-import: the same, then the PATH fallback after error 126. */
    w.cfg.profile = TD_PROFILE_TORCH_IMPORT;
    assert_true(world_resolve(&w, plug, "pdep.dll", &r));
    assert_int_equal(r.rule, TD_RULE_PATH_ENV);
    world_fini(&w);
}

static void test_user_dirs_in_call_order(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, TD_PROFILE_DLOPEN);
    world_open(&w, "app/loader.exe");
    w.dll_dirs[0] = "C:\\other";
    w.dll_dirs[1] = "C:\\UDIR";
    w.cfg.n_dll_dirs = 2;
    struct td_object *plug = world_open(&w, "plug/uplug.dll");
    struct td_resolution r;
    assert_true(world_resolve(&w, plug, "udep.dll", &r));
    assert_int_equal(r.rule, TD_RULE_USER_DIR);
    assert_string_equal(r.object->path, "C:\\UDIR\\udep.dll");
    assert_int_equal(r.n_probes, 3);
    assert_string_equal(r.probes[0].path, "C:\\app\\udep.dll");
    assert_string_equal(r.probes[1].path, "C:\\other\\udep.dll");
    assert_non_null(strstr(r.probes[1].detail, "unspecified"));
    world_fini(&w);
}

static void test_dll_load_dir_and_altered(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | TD_LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR,
               TD_PROFILE_DLOPEN);
    world_open(&w, "app/loader.exe");
    struct td_object *plug = world_open(&w, "plugins/lplug.dll");
    struct td_resolution r;
    assert_true(world_resolve(&w, plug, "ldep.dll", &r));
    assert_int_equal(r.rule, TD_RULE_DLL_LOAD_DIR);
    assert_int_equal(r.n_probes, 1);
    assert_string_equal(r.object->path, "C:\\plugins\\ldep.dll");
    w.cfg.load_flags = TD_LOAD_WITH_ALTERED_SEARCH_PATH;
    assert_true(world_resolve(&w, plug, "ldep.dll", &r) || 1);
    world_fini(&w);
}

static void test_already_loaded_by_base_name(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, TD_LOAD_LIBRARY_SEARCH_DEFAULT_DIRS, TD_PROFILE_DLOPEN);
    world_open(&w, "app/loader.exe");
    struct td_object *dep = world_open(&w, "other/ddep.dll");
    struct td_object *plug = world_open(&w, "plug/dplug.dll");
    struct td_resolution r;
    assert_true(world_resolve(&w, plug, "DDEP.DLL", &r));
    assert_int_equal(r.rule, TD_RULE_ALREADY_LOADED);
    assert_ptr_equal(r.object, dep);
    assert_false(r.newly_opened);
    world_fini(&w);
}

static void test_forwarders(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_EXE);
    world_open(&w, "fwd/main_fa.exe");
    struct td_object *f = world_open(&w, "fwd/f.dll");
    struct td_err err = {0};
    struct td_bind_pe_result b;
    struct td_pe_import_func fn = {.name = "fa"};
    assert_int_equal(td_bind_pe(&fn, f, bind_load, &w, &b, &err), 0);
    assert_int_equal(b.problem, TD_FORWARD_DLL_MISSING);
    assert_string_equal(b.missing_dll, "tdgone.dll");
    fn.name = "fb";
    assert_int_equal(td_bind_pe(&fn, f, bind_load, &w, &b, &err), 0);
    assert_int_equal(b.problem, TD_FORWARD_SYMBOL_MISSING);
    assert_string_equal(b.symbol, "nothere");
    fn.name = "fc";
    assert_int_equal(td_bind_pe(&fn, f, bind_load, &w, &b, &err), 0);
    assert_int_equal(b.problem, TD_FORWARD_CYCLE);
    assert_int_equal(b.n_chain, 2);
    assert_string_equal(b.chain[0], "fcyc.fc2");
    assert_string_equal(b.chain[1], "f.fc");
    fn.name = "fe";
    assert_int_equal(td_bind_pe(&fn, f, bind_load, &w, &b, &err), 0);
    assert_int_equal(b.status, TD_BIND_OK);
    assert_string_equal(base(b.provider->path), "ftarget.dll");
    world_fini(&w);
}

static void test_torch_plan(void **state)
{
    (void)state;
    struct world w;
    world_init(&w, 0, TD_PROFILE_TORCH_IMPORT);
    struct td_torch_install in = {.torch_dir = "C:\\py\\Lib\\site-packages\\torch",
                                  .exec_prefix = "C:\\py",
                                  .cuda_version = "12.4"};
    struct td_torch_plan plan;
    struct td_err err = {0};
    assert_int_equal(td_windows_torch_plan(&w.cfg, &in, &w.L.arena, &plan, &err), 0);
    assert_int_equal(plan.n_dll_dirs, 2);
    assert_string_equal(plan.dll_dirs[0], "C:\\py\\Lib\\site-packages\\torch\\lib");
    assert_string_equal(plan.dll_dirs[1], "C:\\py\\Library\\bin");
    assert_int_equal(plan.n_loads, 6);
    assert_string_equal(plan.loads[0].file, "vcruntime140.dll");
    assert_true(plan.loads[2].warn_only);
    assert_int_equal(plan.loads[3].flags, 0x1100);
    assert_true(plan.loads[3].path_fallback);
    assert_string_equal(plan.loads[3].file, "C:\\py\\Lib\\site-packages\\torch\\lib\\Asmjit.dll");
    assert_string_equal(plan.loads[5].file, "C:\\py\\Lib\\site-packages\\torch\\lib\\fbgemm.dll");
    world_fini(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases_tsv),
        cmocka_unit_test(test_missing_lists_standard_order),
        cmocka_unit_test(test_wrong_machine_is_fatal),
        cmocka_unit_test(test_not_pe_is_fatal),
        cmocka_unit_test(test_api_set_to_ucrtbase),
        cmocka_unit_test(test_live_apisets_replace_table),
        cmocka_unit_test(test_known_dll_beats_app_copy),
        cmocka_unit_test(test_path_only_in_standard_order),
        cmocka_unit_test(test_user_dirs_in_call_order),
        cmocka_unit_test(test_dll_load_dir_and_altered),
        cmocka_unit_test(test_already_loaded_by_base_name),
        cmocka_unit_test(test_forwarders),
        cmocka_unit_test(test_torch_plan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
