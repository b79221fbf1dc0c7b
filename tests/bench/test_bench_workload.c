/* bench --workload below the command: the stability figures of a known
 * series (median, quartiles, range, drift between the first and last
 * quarter), and the child's hang, killed when the test's event says time
 * is up (the child said its first round), never by the clock. The child is
 * a fake interpreter: a venv whose python3 is a shell script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

#include "bench/bench.h"

static void near(double got, double want)
{
    if (got < want - 1e-9 || got > want + 1e-9)
        fail_msg("got %.12g, want %.12g", got, want);
}

static void test_stats_of_a_known_series(void **state)
{
    (void)state;
    /* sorted: 1 1 1 1 1.1 1.2 2 2 */
    const double x[] = {1.0, 1.0, 1.2, 1.0, 1.0, 1.1, 2.0, 2.0};
    struct td_workload_stats s;
    td_workload_stats(x, 8, &s);
    near(s.median, 1.05);
    near(s.q1, 1.0);
    near(s.q3, 1.4);
    near(s.min, 1.0);
    near(s.max, 2.0);
    assert_int_equal(s.quarter, 2);
    near(s.drift_pct, 100.0); /* the last two (2, 2) against the first two (1, 1) */
}

static void test_drift_faster_at_the_end_and_few_rounds(void **state)
{
    (void)state;
    const double x[] = {2.0, 1.5, 1.0};
    struct td_workload_stats s;
    td_workload_stats(x, 3, &s);
    assert_int_equal(s.quarter, 1); /* under 4 rounds: the first against the last */
    near(s.drift_pct, -50.0);
    near(s.median, 1.5);
    td_workload_stats(x, 0, &s); /* nothing: all zero, no crash */
    near(s.median, 0);
}

/* A venv in DIR whose python3 runs SCRIPT, with a torch the discovery finds. */
static const char *fake_python(const char *dir, const char *script)
{
    static char exe[512];
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "set -e; cd '%s'; mkdir -p bin lib/python3.11/site-packages/torch "
             "lib/python3.11/site-packages/torch-2.4.0.dist-info; "
             "printf 'home = /usr/bin\\nversion = 3.11.2\\n' > pyvenv.cfg; "
             ": > lib/python3.11/site-packages/torch/__init__.py; "
             "printf \"__version__ = '2.4.0'\\n\" > lib/python3.11/site-packages/torch/version.py; "
             "printf 'Metadata-Version: 2.1\\nName: torch\\nVersion: 2.4.0\\n' > "
             "lib/python3.11/site-packages/torch-2.4.0.dist-info/METADATA",
             dir);
    assert_int_equal(system(cmd), 0);
    snprintf(exe, sizeof exe, "%s/bin/python3", dir);
    FILE *f = fopen(exe, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s", script);
    fclose(f);
    chmod(exe, 0755);
    return exe;
}

static void test_a_hang_is_killed_when_time_is_up(void **state)
{
    (void)state;
    char dir[] = "/tmp/td_workload_XXXXXX";
    assert_non_null(mkdtemp(dir));
    const char *py = fake_python(dir, "echo 'td-step hello 1'\n"
                                      "echo 'td-step torch 2.4.0 0.5'\n"
                                      "echo 'td-step device cpu 1000000000 -'\n"
                                      "echo 'td-step attention sdpa'\n"
                                      "echo 'td-step dtype fp16 -'\n"
                                      "echo 'td-step stage 0 0.1 1000'\n"
                                      "echo 'td-step warmup 0.1'\n"
                                      "echo 'td-step round 0 1.0'\n"
                                      "exec sleep 100000\n");
    struct td_workload_options o = {
        .job = {.workload = "sd3-lora", .lora_rank = -1, .checkpointing = -1},
        .rounds = 5,
        .python = py,
        .stall_ms = 600000,
        .time_up = td_time_up_once_said("td-step round 0")};
    struct td_arena arena = {0};
    struct td_bench_workload w;
    bool ran = td_bench_workload_run(&o, &w, &arena);
    assert_false(ran);
    assert_non_null(w.error);
    if (!strstr(w.error, "said nothing for 600 s and was killed (after 1 of 5 rounds)"))
        fail_msg("%s", w.error);
    td_bench_workload_free(&w);
    td_arena_free(&arena);
    char rm[600];
    snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
    assert_int_equal(system(rm), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_of_a_known_series),
        cmocka_unit_test(test_drift_faster_at_the_end_and_few_rounds),
        cmocka_unit_test(test_a_hang_is_killed_when_time_is_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
