/* fleet's report reader and analysis (probe/fleet/fleet.h) on small
 * handmade documents: pairing by host, srun -l pieces, a bad document
 * among good ones, the jump over "deps" and its fallback, the slow rule. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "probe/fleet/fleet.h"

static char *check_doc(char *buf, size_t cap, const char *host, const char *driver, int gpus,
                       const char *deps)
{
    char list[512] = "";
    for (int i = 0; i < gpus; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s{\"name\":\"H100\"}",
                 i ? "," : "");
    snprintf(buf, cap,
             "{\"tool\":\"torchdoctor\",\"command\":\"check\",\"host\":\"%s\",\"system\":{"
             "\"kernel\":\"5.15\",\"glibc\":\"2.35\"},\"driver\":{\"driver_version\":\"%s\"},"
             "\"gpus\":[%s],\"torch\":[{\"version\":\"2.3.1+cu121\",\"variant\":\"cuda\","
             "\"cuda\":\"12.1\",\"imported\":true}],\"deps\":%s,\"findings\":[]}\n",
             host, driver, list, deps);
    return buf;
}

static void read_text(struct td_fleet *f, const char *text)
{
    td_fleet_read(f, "t", text, strlen(text));
}

static void groups_and_outliers(void **state)
{
    struct td_fleet f = {0};
    char doc[2048];
    for (int i = 1; i <= 5; i++) {
        char host[16];
        snprintf(host, sizeof host, "gpu%02d", i);
        read_text(&f, check_doc(doc, sizeof doc, host, i == 3 ? "535.1" : "550.5", 8, "{}"));
    }
    td_fleet_analyze(&f);
    assert_int_equal(f.n_nodes, 5);
    assert_int_equal(f.n_groups, 2);
    assert_string_equal(f.groups[0].hosts, "gpu[01-02,04-05]");
    assert_string_equal(f.groups[1].hosts, "gpu03");
    assert_int_equal(f.groups[1].differs, 1u << TD_FLEET_DRIVER);
    assert_non_null(strstr(f.groups[1].fix, "550.5"));
    td_fleet_free(&f);
}

/* "deps" holding text that looks like the findings key, and a report
 * whose last "findings" is not at its end: the jump must not be trusted. */
static void deps_jump_and_fallback(void **state)
{
    struct td_fleet f = {0};
    char doc[2048];
    read_text(&f, check_doc(doc, sizeof doc, "a1", "550", 8,
                            "{\"s\":\"\\\",\\\"findings\\\":[]\",\"findings\":[1]}"));
    /* Trailing member after findings: the jump lands short of the end. */
    const char *odd = "{\"tool\":\"torchdoctor\",\"command\":\"check\",\"host\":\"a2\","
                      "\"deps\":{\"x\":1},\"findings\":[{\"severity\":\"error\",\"kind\":\"k\","
                      "\"fix\":\"f\"}],\"driver\":{\"driver_version\":\"550\"}}\n";
    read_text(&f, odd);
    /* The last "findings" key inside a later member: the jump lands inside
     * it, the parse ends early, and the document is read again in full. */
    const char *inner = "{\"tool\":\"torchdoctor\",\"command\":\"check\",\"host\":\"a3\","
                        "\"deps\":{\"y\":2},\"findings\":[],\"x\":{\"a\":1,\"findings\":[]},"
                        "\"driver\":{\"driver_version\":\"551\"}}\n";
    read_text(&f, inner);
    assert_int_equal(f.n_problems, 0);
    assert_int_equal(f.n_nodes, 3);
    assert_string_equal(f.nodes[2].fields[TD_FLEET_DRIVER], "551");
    assert_string_equal(f.nodes[1].fields[TD_FLEET_DRIVER], "550");
    assert_int_equal(f.nodes[1].errors, 1);
    td_fleet_free(&f);
}

static void bad_document_among_good(void **state)
{
    struct td_fleet f = {0};
    char a[2048], b[2048], text[8192];
    snprintf(
        text, sizeof text, "%s{\"tool\":\"torchdoctor\",\"command\":\"check\",\"host\":\"x\n%s",
        check_doc(a, sizeof a, "n1", "550", 8, "[]"), check_doc(b, sizeof b, "n2", "550", 8, "[]"));
    read_text(&f, text);
    assert_int_equal(f.n_nodes, 2);
    assert_int_equal(f.n_problems, 1);
    assert_non_null(strstr(f.problems[0].where, "line 2"));
    td_fleet_free(&f);
}

/* srun -l: two tasks' lines interleaved, one report cut in 1024-byte
 * labelled pieces. */
static void srun_labels_and_pieces(void **state)
{
    char deps[3000], doc[4096], text[16384];
    memset(deps, 'x', sizeof deps);
    deps[0] = '"', deps[2000] = '"', deps[2001] = '\0';
    check_doc(doc, sizeof doc, "n1", "550", 8, deps);
    size_t len = strlen(doc) - 1, n = 0; /* without its newline */
    char other[2048];
    check_doc(other, sizeof other, "n2", "550", 8, "{}");
    for (size_t at = 0; at < len; at += 1024) {
        size_t piece = len - at < 1024 ? len - at : 1024;
        n += (size_t)snprintf(text + n, sizeof text - n, "0: %.*s\n", (int)piece, doc + at);
        if (at == 0)
            n += (size_t)snprintf(text + n, sizeof text - n, "1: %s", other);
    }
    struct td_fleet f = {0};
    read_text(&f, text);
    assert_int_equal(f.n_problems, 0);
    assert_int_equal(f.n_nodes, 2);
    td_fleet_free(&f);
}

static void slow_rule(void **state)
{
    struct td_fleet f = {0};
    const double fma[] = {100, 101, 99, 100, 100, 95, 60};
    for (int i = 0; i < 7; i++) {
        char doc[512];
        snprintf(
            doc, sizeof doc,
            "{\"tool\":\"torchdoctor\",\"command\":\"bench\",\"host\":\"b%d\",\"findings\":[],"
            "\"bench\":{\"gpus\":[{\"fp32_fma\":{\"value\":%g}},{\"fp32_fma\":{\"value\":%g}}]}}\n",
            i, fma[i] + 5, fma[i]);
        read_text(&f, doc);
    }
    td_fleet_analyze(&f);
    for (int i = 0; i < 7; i++) /* 95 is within 10% of the median: not slow */
        assert_int_equal(f.nodes[i].slow != 0, i == 6);
    assert_true(f.median[TD_FLEET_GPU_FMA] == 100);
    assert_int_equal(f.nodes[6].state, TD_FLEET_NO_CHECK);
    td_fleet_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(groups_and_outliers),
        cmocka_unit_test(deps_jump_and_fallback),
        cmocka_unit_test(bad_document_among_good),
        cmocka_unit_test(srun_labels_and_pieces),
        cmocka_unit_test(slow_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
