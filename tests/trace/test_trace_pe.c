/* The Windows tracer's folding (trace_pe.c), run here on the PE fixtures of
 * tests/fixtures/windows_trace.sh: debug events become libraries (who asked
 * for each DLL from the import tables, names compared without regard to
 * case, LoadLibrary'd ones after the loader breakpoint, unloads), a failed
 * load names the import nothing answers, NTSTATUS codes and [WinError N]
 * lines give the failure's kind, and loader-snaps lines become search
 * events and the failed step. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace.h"

static void event(struct td_trace *t, enum td_trace_event_kind kind, uint64_t t_ns, uint64_t cookie,
                  const char *path)
{
    if (t->n_events == t->events_cap) {
        t->events_cap = t->events_cap ? t->events_cap * 2 : 16;
        t->events = realloc(t->events, t->events_cap * sizeof *t->events);
        assert_non_null(t->events);
    }
    t->events[t->n_events++] =
        (struct td_trace_event){.kind = kind, .t_ns = t_ns, .cookie = cookie, .path = path};
}

static char *fixture(const char *name)
{
    char rel[256];
    snprintf(rel, sizeof rel, "windows_trace/app/%s", name);
    return strdup(td_fixture(rel));
}

/* loadlib.exe starts (its imports KERNEL32.dll and msvcrt.dll, spelled in
 * lower case by the loader), then LoadLibrary of needsgone.dll, whose import
 * tdgone.dll is nowhere: mapped, unmapped, and Python's line names it. */
static void events_become_libraries(void **state)
{
    char *exe = fixture("loadlib.exe"), *needs = fixture("needsgone.dll");
    struct td_trace t = {0};
    event(&t, TD_TEV_OPEN, 10, 0x140000000, exe);
    event(&t, TD_TEV_OPEN, 11, 0x170000000, "/nowhere/ntdll.dll");
    event(&t, TD_TEV_OPEN, 20, 0x7b600000, "C:\\windows\\system32\\kernel32.dll");
    event(&t, TD_TEV_OPEN, 25, 0x7b000000, "C:\\windows\\system32\\msvcrt.dll");
    event(&t, TD_TEV_PREINIT, 30, 0, NULL);
    event(&t, TD_TEV_OPEN, 40, 0x250000000, needs);
    event(&t, TD_TEV_CLOSE, 45, 0x250000000, NULL);
    char line[1024];
    snprintf(line, sizeof line,
             "OSError: [WinError 126] The specified module could not be found. Error loading "
             "\"%s\" or one of its dependencies.",
             needs);
    assert_true(td_trace_parse_error(&t, line));
    td_trace_build_libraries_pe(&t);

    assert_true(t.windows);
    assert_string_equal(t.program, exe);
    assert_int_equal(t.n_libs, 6);
    assert_string_equal(t.libs[0].name, "loadlib.exe");
    assert_null(t.libs[0].requested_by);
    assert_null(t.libs[1].requested_by); /* ntdll: mapped before anyone asks */
    assert_false(t.libs[1].dlopened);
    assert_string_equal(t.libs[2].name, "KERNEL32.dll"); /* as loadlib.exe spells it */
    assert_string_equal(t.libs[2].requested_by, exe);
    assert_int_equal(t.libs[2].load_ns, 20 - 11);
    assert_string_equal(t.libs[3].name, "msvcrt.dll");
    assert_string_equal(t.libs[3].requested_by, exe);
    assert_false(t.libs[3].dlopened);

    const struct td_trace_lib *n = &t.libs[4], *gone = &t.libs[5];
    assert_string_equal(n->name, "needsgone.dll");
    assert_true(n->dlopened);
    assert_null(n->requested_by);
    assert_int_equal(n->status, TD_TLIB_UNLOADED);
    assert_int_equal(n->closed_ns, 45);
    assert_int_equal(n->load_ns, 0);

    assert_string_equal(gone->name, "tdgone.dll");
    assert_int_equal(gone->status, TD_TLIB_MISSING);
    assert_string_equal(gone->requested_by, needs);
    assert_string_equal(t.failed->kind, "missing_library");
    assert_string_equal(t.failed->library, "tdgone.dll");
    assert_string_equal(t.failed->needed_by, needs);

    const char *roots[4];
    assert_int_equal(td_trace_roots(&t, roots, 4), 2); /* the model's: program, LoadLibrary'd */
    assert_string_equal(roots[0], exe);
    assert_string_equal(roots[1], needs);

    t.exit_status = 1; /* loadlib.exe exits 1 after the message: an error, not a warning */
    td_trace_analyze(&t, NULL);
    assert_int_equal(t.findings.count, 1);
    assert_string_equal(t.findings.items[0].kind, "missing_library");
    assert_string_equal(t.findings.items[0].library, "tdgone.dll");
    assert_int_equal(t.findings.items[0].severity, TD_SEV_ERROR);
    td_trace_free(&t);
    free(exe);
    free(needs);
}

/* A 32-bit DLL is never mapped: the library entry comes from its header;
 * a file that is not PE at all gives the same 193 but is not_a_library. */
static void error_193_judged_by_header(void **state)
{
    char *exe = fixture("loadlib.exe"), *wrong = fixture("wrong.dll"),
         *text = fixture("../src/loadlib.c");
    const char *const named[] = {wrong, text};
    const char *const kinds[] = {"wrong_architecture", "not_a_library"};
    const char *const outcomes[] = {"wrong machine", "not PE"};
    for (int i = 0; i < 2; i++) {
        struct td_trace t = {0};
        event(&t, TD_TEV_OPEN, 10, 1, exe);
        char line[1024];
        snprintf(line, sizeof line,
                 "OSError: [WinError 193] %%1 is not a valid Win32 application. Error loading "
                 "\"%s\" or one of its dependencies.",
                 named[i]);
        assert_true(td_trace_parse_error(&t, line));
        td_trace_build_libraries_pe(&t);
        assert_string_equal(t.failed->kind, kinds[i]);
        assert_int_equal(t.n_libs, 2);
        assert_int_equal(t.libs[1].status, TD_TLIB_MISSING);
        assert_int_equal(t.libs[1].n_tries, 1);
        assert_string_equal(t.libs[1].tries[0].path, named[i]);
        assert_string_equal(t.libs[1].tries[0].outcome, outcomes[i]);
        td_trace_free(&t);
    }
    free(exe);
    free(wrong);
    free(text);
}

static void statuses_and_lines(void **state)
{
    struct td_trace t = {0};
    assert_false(td_trace_pe_status(&t, 1, "exit code"));
    assert_null(t.failed);
    assert_true(td_trace_pe_status(&t, 0xC0000142u, "exit code"));
    assert_string_equal(t.failed->kind, "init_failure");
    assert_string_equal(t.failed->message, "exit code 0xC0000142 (STATUS_DLL_INIT_FAILED)");
    assert_true(td_trace_pe_status(&t, 0xC000007Bu, "exception"));
    assert_string_equal(t.failed->kind, "wrong_architecture");
    assert_true(td_trace_pe_status(&t, 0xC0000139u, "exception"));
    assert_string_equal(t.failed->kind, "missing_symbol");

    assert_true(td_trace_parse_error(&t, "OSError: [WinError 127] The specified procedure could "
                                         "not be found. Error loading \"C:\\t\\lib\\c10_cuda.dll\" "
                                         "or one of its dependencies."));
    assert_string_equal(t.failed->kind, "missing_symbol");
    assert_null(t.failed->library);
    assert_string_equal(t.failed->needed_by, "C:\\t\\lib\\c10_cuda.dll");
    assert_true(td_trace_parse_error(&t, "OSError: [WinError 1114] Une routine d'initialisation "
                                         "a échoué. Error loading \"C:\\t\\lib\\c10.dll\" or one "
                                         "of its dependencies."));
    assert_string_equal(t.failed->kind, "init_failure");
    assert_string_equal(t.failed->library, "C:\\t\\lib\\c10.dll");
    assert_true(td_trace_parse_error(&t, "FileNotFoundError: Could not find module 'x.dll' (or "
                                         "one of its dependencies). Try using the full path with "
                                         "constructor syntax."));
    assert_string_equal(t.failed->kind, "missing_library");
    assert_string_equal(t.failed->library, "x.dll");
    assert_true(td_trace_parse_error(&t, "OSError: [WinError 193] %1 is not a valid Win32 app"));
    assert_string_equal(t.failed->kind, "wrong_architecture");
    assert_null(t.failed->library);

    assert_false(td_trace_pe_snap(&t, "1a:2b @ 0 - LdrLoadDll - ENTER: DLL name: fbgemm.dll", 5));
    assert_false(td_trace_pe_snap(&t,
                                  "1a:2b @ 0 - LdrpResolveDllName - ENTER: DLL name: "
                                  "C:\\t\\lib\\libomp140.x86_64.dll\r\n",
                                  6));
    assert_false(td_trace_pe_snap(&t, "1a:2b @ 0 - LdrpSearchPath - RETURN: Status: 0x0", 7));
    assert_int_equal(t.n_events, 2);
    assert_int_equal(t.events[0].flag, TD_TRACE_SER_ORIG);
    assert_string_equal(t.events[0].path, "fbgemm.dll");
    assert_int_equal(t.events[1].flag, 0);
    assert_string_equal(t.events[1].path, "C:\\t\\lib\\libomp140.x86_64.dll");
    assert_int_equal(t.events[1].t_ns, 6);
    assert_true(td_trace_pe_snap(&t,
                                 "1a:2b @ 0 - LdrpProcessWork - ERROR: Unable to load DLL: "
                                 "\"libomp140.x86_64.dll\", Parent Module: "
                                 "\"C:\\t\\lib\\fbgemm.dll\", Status: 0xc0000135",
                                 8));
    assert_string_equal(t.failed->kind, "missing_library");
    assert_string_equal(t.failed->library, "libomp140.x86_64.dll");
    assert_string_equal(t.failed->needed_by, "C:\\t\\lib\\fbgemm.dll");
    assert_string_equal(td_trace_pe_base("C:\\a/b\\c.dll"), "c.dll");
    td_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(events_become_libraries),
        cmocka_unit_test(error_193_judged_by_header),
        cmocka_unit_test(statuses_and_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
