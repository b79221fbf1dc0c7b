/* The live replay's line protocol (trace/replay.h) and how its codes become
 * findings against the static model. The answer is what a child on Windows
 * prints; the static closure is the real one of the Windows torch layout
 * of tests/fixtures/windows_replay.sh, built here by the Windows loader
 * model (--root), so the procedure a 127 names comes from real PE files. */
#include <stdio.h>
#include <string.h>

#include "testutil.h"
#include "graph/graph.h"
#include "trace/replay.h"

#define LIB "C:\\rvenv\\Lib\\site-packages\\torch\\lib\\"

static const char answer[] = "dir\t0\t" LIB "\n"
                             "dir\t87\tC:\\rvenv\\bin\n"
                             "load\t0\t-\t-\twarn\tvcruntime140.dll\n"
                             "load\t126\t-\t-\twarn\tvcruntime140_1.dll\n"
                             "load\t126\t0\t-\tretry\t" LIB "asmjit_user.dll\n"
                             "load\t0\t-\t-\tretry\t" LIB "c10.dll\n"
                             "load\t1114\t-\tinitfail.dll\tretry\t" LIB "initcaller.dll\n"
                             "load\t1114\t-\t.\tretry\t" LIB "initfail.dll\r\n"
                             "load\t127\t-\t-\tretry\t" LIB "noexport.dll\n"
                             "load\tx\t-\t-\tretry\tC:\\bad-code.dll\n"
                             "load\t0\t-\t-\tretry\n"
                             "bogus line\n"
                             "load\t193\t-\t-\tretry\t" LIB "x86.dll\n"
                             "done\n"
                             "load\t5\t-\t-\tretry\tC:\\cut-short.dll";

static void test_parse(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_replay r = {0};
    assert_true(td_replay_parse(answer, sizeof answer - 1, &arena, &r));
    assert_int_equal(r.n_failed_dirs, 1);
    assert_string_equal(r.failed_dirs[0], "C:\\rvenv\\bin (error 87)");
    assert_int_equal(r.n_loads, 8);
    assert_string_equal(r.loads[0].file, "vcruntime140.dll");
    assert_true(r.loads[0].warn_only);
    assert_int_equal(r.loads[1].code, 126);
    assert_int_equal(r.loads[2].code, 126);
    assert_int_equal(r.loads[2].retry, 0);
    assert_int_equal(td_replay_final(&r.loads[2]), 0);
    assert_false(r.loads[2].warn_only);
    assert_int_equal(r.loads[3].retry, -1);
    assert_null(r.loads[3].init);
    assert_string_equal(r.loads[4].init, "initfail.dll");
    assert_int_equal(td_replay_final(&r.loads[4]), 1114);
    assert_string_equal(r.loads[5].file, LIB "initfail.dll"); /* the CR is not part of it */
    assert_string_equal(r.loads[5].init, ".");
    assert_int_equal(r.loads[6].code, 127);
    assert_string_equal(r.loads[7].file, LIB "x86.dll");
    assert_int_equal(r.loads[7].code, 193);
    td_arena_free(&arena);
}

static void test_parse_unfinished(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_replay r = {0};
    /* a crash after two lines, the second cut short */
    const char text[] = "load\t0\t-\t-\tretry\tC:\\a.dll\nload\t0\t-\t-\tretry\tC:\\b";
    assert_false(td_replay_parse(text, sizeof text - 1, &arena, &r));
    assert_false(r.done);
    assert_int_equal(r.n_loads, 1);
    td_arena_free(&arena);
}

static void test_worth_retry(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_replay r = {0};
    /* no word at all: the child could not start, or died at once */
    assert_true(td_replay_worth_retry(&r, false));
    /* out of time: a second child would hang the same way */
    assert_false(td_replay_worth_retry(&r, true));
    /* a dir line only: it died before its first load */
    const char dirs[] = "dir\t0\tC:\\tools\n";
    td_replay_parse(dirs, sizeof dirs - 1, &arena, &r);
    assert_true(td_replay_worth_retry(&r, false));
    /* one load answered: what killed it is the replay's finding */
    memset(&r, 0, sizeof r);
    const char one[] = "load\t0\t-\t-\twarn\tvcruntime140.dll\n";
    td_replay_parse(one, sizeof one - 1, &arena, &r);
    assert_false(td_replay_worth_retry(&r, false));
    memset(&r, 0, sizeof r);
    const char done[] = "done\n";
    td_replay_parse(done, sizeof done - 1, &arena, &r);
    assert_false(td_replay_worth_retry(&r, false));
    td_arena_free(&arena);
}

static const struct td_finding *find(const struct td_findings *f, const char *kind, size_t nth)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].kind, kind) == 0 && nth-- == 0)
            return &f->items[i];
    return NULL;
}

static struct td_graph *static_model(struct td_arena *arena)
{
    static struct td_graph g;
    static struct td_loader_config cfg;
    static const struct td_env_var path[] = {{"PATH", "C:\\tools"}};
    const char *roots[64];
    cfg = (struct td_loader_config){.platform = TD_PLATFORM_WINDOWS,
                                    .profile = TD_PROFILE_TORCH_IMPORT,
                                    .env = path,
                                    .n_env = 1,
                                    .root =
                                        td_arena_strdup(arena, td_fixture("windows_replay/drive"))};
    char probe[1024];
    snprintf(probe, sizeof probe, "%s/rvenv/Lib/site-packages/torch/lib/_", cfg.root);
    size_t n = td_torch_import_roots(&cfg, probe, roots, 64, arena);
    assert_int_equal(n, 6);
    struct td_graph_options opts = {.bind_symbols = true, .versions_only = true};
    struct td_err err = {0};
    assert_int_equal(td_graph_build(&g, &cfg, &opts, roots, n, &err), 0);
    return &g;
}

static void test_findings(void **state)
{
    (void)state;
    struct td_arena arena = {0};
    struct td_replay r = {.ran = true};
    struct td_findings f = {0};
    td_replay_parse(answer, sizeof answer - 1, &arena, &r);
    struct td_graph *g = static_model(&arena);
    td_replay_findings(&r, g, "C:\\rvenv\\Scripts\\python.exe", &f);

    /* vcruntime140_1.dll: torch only warns */
    const struct td_finding *x = find(&f, TD_KIND_MISSING_LIBRARY, 0);
    assert_non_null(x);
    assert_int_equal(x->severity, TD_SEV_WARNING);
    assert_string_equal(x->library, "vcruntime140_1.dll");
    assert_null(find(&f, TD_KIND_MISSING_LIBRARY, 1));
    /* 1114: the imported initfail.dll, named once */
    x = find(&f, TD_KIND_INIT_FAILURE, 0);
    assert_non_null(x);
    assert_string_equal(x->library, "initfail.dll");
    assert_string_equal(x->needed_by, LIB "initcaller.dll");
    assert_non_null(strstr(x->detail, "import torch raises on this DLL first"));
    assert_null(find(&f, TD_KIND_INIT_FAILURE, 1));
    /* 127: the procedure, from the static model's binding of the real files */
    x = find(&f, TD_KIND_MISSING_SYMBOL, 0);
    assert_non_null(x);
    assert_string_equal(x->symbol, "c10_gone");
    assert_non_null(strstr(x->library, "c10.dll"));
    assert_non_null(strstr(x->detail, "WinError 127 loading noexport.dll"));
    assert_null(strstr(x->detail, "raises on this DLL first"));
    /* 193: the file, and the machine it was built for */
    x = find(&f, TD_KIND_WRONG_ARCHITECTURE, 0);
    assert_non_null(x);
    assert_string_equal(x->library, LIB "x86.dll");
    assert_non_null(strstr(x->detail, "built for x86,"));
    /* 126 then loaded by the PATH retry: the static model says it already */
    assert_null(find(&f, TD_KIND_FOUND_ONLY_VIA_PATH, 0));
    assert_non_null(find(&g->findings, TD_KIND_FOUND_ONLY_VIA_PATH, 0));
    assert_int_equal(f.count, 4);

    /* With the static findings already in the report, 127 is not repeated. */
    struct td_findings both = {0};
    for (size_t i = 0; i < g->findings.count; i++) {
        const struct td_finding *s = &g->findings.items[i];
        td_findings_add(&both, s->severity, s->kind, s->library, s->needed_by, s->symbol, s->fix,
                        "%s", s->detail);
    }
    size_t before = both.count;
    td_replay_findings(&r, g, "C:\\rvenv\\Scripts\\python.exe", &both);
    assert_int_equal(both.count, before + 3); /* vcruntime140_1, 1114, 193 */
    assert_null(find(&both, TD_KIND_MISSING_SYMBOL, 1));
    td_findings_free(&both);
    td_findings_free(&f);
    td_graph_free(g);
    td_arena_free(&arena);
}

static void test_unfinished_is_a_warning(void **state)
{
    (void)state;
    struct td_replay r = {.ran = true, .detail = "no answer within 100 ms"};
    struct td_findings f = {0};
    td_replay_findings(&r, NULL, NULL, &f);
    assert_int_equal(f.count, 1);
    assert_string_equal(f.items[0].kind, TD_KIND_INIT_FAILURE);
    assert_int_equal(f.items[0].severity, TD_SEV_WARNING);
    assert_non_null(strstr(f.items[0].detail, "did not finish: no answer within 100 ms"));
    td_findings_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_parse_unfinished),
        cmocka_unit_test(test_worth_retry),
        cmocka_unit_test(test_findings),
        cmocka_unit_test(test_unfinished_is_a_warning),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
