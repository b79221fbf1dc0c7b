/* The trace's parsers: audit lines folded into libraries (search steps,
 * the candidate taken, who asked, dlopen roots, unloads against the exit's
 * closes, another process and an exec ignored), and ld.so's error lines. */
#include "testutil.h"

#include <string.h>

#include "trace/trace.h"

/* pid 0x10 runs /td/launcher, execs /td/prog; prog needs libA.so (found
 * second in LD_LIBRARY_PATH); dlopen of /td/plug.so, whose need libB.so is
 * missing, so plug.so is closed again; then the exit closes everything. */
static const char audit[] = "V 10 1 2\n"
                            "O 10 2 aa 0 /td/launcher\n"
                            "V 10 5 2\n"
                            "E 10 6 LD_LIBRARY_PATH=/td/x:/td/y\n"
                            "O 10 10 100 0 /td/prog\n"
                            "A 10 11 1\n"
                            "S 10 20 100 1 libA.so\n"
                            "S 10 21 100 2 /td/x/libA.so\n"
                            "V 20 22 2\n"
                            "O 20 22 500 0 /other/process\n"
                            "S 10 23 100 2 /td/y/libA.so\n"
                            "O 10 30 200 0 /td/y/libA.so\n"
                            "A 10 31 0\n"
                            "P 10 32\n"
                            "A 10 40 1\n"
                            "S 10 41 200 1 /td/plug.so\n"
                            "O 10 42 300 0 /td/plug.so\n"
                            "S 10 43 300 1 libB.so\n"
                            "S 10 44 300 8 /td/cache/libB.so\n"
                            "S 10 45 300 40 /td/lib/libB.so\n"
                            "A 10 46 2\n"
                            "C 10 47 300\n"
                            "A 10 48 0\n"
                            "truncated garbage line\n"
                            "A 10 60 2\n"
                            "C 10 61 100\n"
                            "C 10 62 200\n"
                            "A 10 63 0\n";

static void audit_lines_become_libraries(void **state)
{
    struct td_trace t = {0};
    td_trace_parse_events(&t, audit, sizeof audit - 1, 0x10);
    td_trace_build_libraries(&t);
    assert_int_equal(t.other_processes, 1);
    assert_string_equal(t.ld_library_path, "/td/x:/td/y");
    assert_string_equal(t.program, "/td/prog");
    assert_int_equal(t.n_libs, 4);

    const struct td_trace_lib *prog = &t.libs[0], *a = &t.libs[1], *plug = &t.libs[2],
                              *b = &t.libs[3];
    assert_string_equal(prog->name, "prog");
    assert_int_equal(prog->status, TD_TLIB_LOADED); /* closed by the exit only */
    assert_null(prog->requested_by);

    assert_string_equal(a->name, "libA.so");
    assert_string_equal(a->path, "/td/y/libA.so");
    assert_string_equal(a->requested_by, "/td/prog");
    assert_int_equal(a->found_via, TD_TRACE_SER_LIBPATH);
    assert_int_equal(a->t_ns, 0x20);
    assert_int_equal(a->load_ns, 0x30 - 0x20);
    assert_false(a->dlopened);
    assert_int_equal(a->n_tries, 2);
    assert_string_equal(a->tries[0].outcome, "absent");
    assert_string_equal(a->tries[1].outcome, "loaded");
    assert_int_equal(a->status, TD_TLIB_LOADED);

    assert_true(plug->dlopened);
    assert_int_equal(plug->found_via, TD_TRACE_SER_ORIG);
    assert_string_equal(plug->requested_by, "/td/y/libA.so");
    assert_int_equal(plug->status, TD_TLIB_UNLOADED);
    assert_int_equal(plug->closed_ns, 0x47);

    assert_string_equal(b->name, "libB.so");
    assert_int_equal(b->status, TD_TLIB_MISSING);
    assert_null(b->path);
    assert_string_equal(b->requested_by, "/td/plug.so");
    assert_int_equal(b->n_tries, 2);
    assert_int_equal(b->tries[0].via, TD_TRACE_SER_CONFIG);
    assert_int_equal(b->tries[1].via, TD_TRACE_SER_DEFAULT);

    const char *roots[4];
    assert_int_equal(td_trace_roots(&t, roots, 4), 2);
    assert_string_equal(roots[0], "/td/prog");
    assert_string_equal(roots[1], "/td/plug.so");
    td_trace_free(&t);
}

static void check_error(const char *line, const char *kind, const char *lib, const char *needed_by,
                        const char *symbol)
{
    struct td_trace t = {0};
    assert_true(td_trace_parse_error(&t, line));
    assert_string_equal(t.failed->kind, kind);
    if (lib)
        assert_string_equal(t.failed->library, lib);
    else
        assert_null(t.failed->library);
    if (needed_by)
        assert_string_equal(t.failed->needed_by, needed_by);
    else
        assert_null(t.failed->needed_by);
    if (symbol)
        assert_string_equal(t.failed->symbol, symbol);
    else
        assert_null(t.failed->symbol);
    assert_string_equal(t.failed->message, line);
    td_trace_free(&t);
}

static void error_lines_name_the_failed_step(void **state)
{
    check_error("./prog: error while loading shared libraries: libx.so.1: cannot open shared "
                "object file: No such file or directory",
                "missing_library", "libx.so.1", NULL, NULL);
    check_error("ImportError: /a/libc10.so: invalid ELF header", "not_a_library", "/a/libc10.so",
                NULL, NULL);
    check_error("OSError: /a/libc10.so: file too short", "not_a_library", "/a/libc10.so", NULL,
                NULL);
    check_error("dl: libwa.so: wrong ELF class: ELFCLASS32", "wrong_architecture", "libwa.so", NULL,
                NULL);
    check_error("./prog: symbol lookup error: /a/libu.so: undefined symbol: td_f", "missing_symbol",
                NULL, "/a/libu.so", "td_f");
    check_error("ImportError: /a/libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, "
                "version libnvJitLink.so.12",
                "missing_symbol_version", NULL, "/a/libcusparse.so.12", "__nvJitLinkAddData_12_1");
    check_error("dl: /a/libver.so: version `VER_2' not found (required by /a/libneed.so)",
                "missing_symbol_version", "/a/libver.so", "/a/libneed.so", "VER_2");
    struct td_trace t = {0};
    assert_false(td_trace_parse_error(&t, "Traceback (most recent call last):"));
    assert_null(t.failed);
    td_trace_free(&t);
}

/* Time is up once the audit module has said libc.so.6 was mapped: its
 * open line ("O pid time addr lmid /lib/.../libc.so.6"), not the search
 * lines that name the same path before it is mapped. */
static bool libc_mapped(void *ctx, const char *said, size_t len)
{
    (void)ctx;
    static const char libc[] = "/libc.so.6";
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(said + at, '\n', len - at);
        if (!nl)
            break;
        size_t n = (size_t)(nl - (said + at));
        if (n > sizeof libc && said[at] == 'O' && said[at + 1] == ' ' &&
            memcmp(nl - (sizeof libc - 1), libc, sizeof libc - 1) == 0)
            return true;
        at += n + 1;
    }
    return false;
}

/* --timeout kills the command, and what it loaded before is kept. The
 * timeout is an event, not the clock: time is up once libc.so.6 is mapped,
 * however slow the machine. */
static void timeout_kills_and_keeps_what_was_loaded(void **state)
{
    (void)state;
    const char *argv[] = {"sleep", "300", NULL};
    struct td_trace_options o = {.timeout_ms = 500, .time_up = {.said = libc_mapped}};
    struct td_trace t;
    struct td_err err = {0};
    assert_int_equal(td_trace_run(argv, &o, &t, &err), 0);
    assert_true(t.timed_out);
    assert_int_equal(t.exit_status, -1);
    assert_int_equal(t.signal, 9);
    bool libc = false;
    for (size_t i = 0; i < t.n_libs; i++)
        libc |= strcmp(t.libs[i].name, "libc.so.6") == 0 && t.libs[i].status == TD_TLIB_LOADED;
    assert_true(libc);
    td_trace_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_lines_become_libraries),
        cmocka_unit_test(error_lines_name_the_failed_step),
        cmocka_unit_test(timeout_kills_and_keeps_what_was_loaded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
