/* The snapshot reader and diff (snapshot/snapshot_read.c, snapshot_diff.c) on
 * hand-written documents: what is read, what is refused, and how changes are
 * ranked against data/change_impacts.tsv (kinds copied from its rows). */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "kb/change.h"
#include "snapshot/snapshot.h"

/* A snapshot with torch TORCH, driver DRIVER, nvidia-cudnn NV, tqdm TQDM and
 * FINDINGS (JSON array text). */
static char *doc(char *out, size_t cap, const char *torch, const char *driver, const char *nv,
                 const char *tqdm, const char *findings)
{
    snprintf(
        out, cap,
        "{\"tool\": \"torchdoctor\", \"command\": \"snapshot\", \"platform\": \"linux\","
        " \"system\": {\"os\": \"linux\", \"glibc\": \"2.36\"},"
        " \"driver\": {\"status\": \"ok\", \"driver_version\": \"%s\", \"cuda_driver_version\": "
        "12040},"
        " \"gpus\": [{\"index\": 0, \"name\": \"RTX\", \"compute_capability\": \"8.9\", "
        "\"memory\": 1048576}],"
        " \"env\": [\"CUDA_VISIBLE_DEVICES=0\"],"
        " \"snapshot\": {\"taken_at\": \"2026-12-01T18:00:00Z\","
        "  \"environments\": [{\"python\": \"/v/bin/python\", \"version\": \"3.11\", "
        "\"packages\": ["
        "   {\"name\": \"nvidia-cudnn-cu12\", \"version\": \"%s\"},"
        "   {\"name\": \"torch\", \"version\": \"%s\"}, {\"name\": \"tqdm\", \"version\": "
        "\"%s\"}]}],"
        "  \"native\": [{\"torch\": \"/v/torch\", \"name\": \"libc10.so\", \"path\": "
        "\"/v/torch/lib/libc10.so\", \"size\": 10}],"
        "  \"search_paths\": {\"LD_LIBRARY_PATH\": [\"/a\", \"/b\"]}},"
        " \"findings\": %s}",
        driver, nv, torch, tqdm, findings);
    return out;
}

static const char variant_finding[] =
    "[{\"severity\": \"warning\", \"kind\": \"torch_variant_mismatch\", \"library\": \"/v/torch\","
    " \"detail\": \"a CPU-only build on a GPU machine\", \"fix\": null}]";

static void reads_facts(void **state)
{
    char text[4096];
    struct td_arena a = {0};
    struct td_snap_doc d = {0};
    struct td_err err = {0};
    doc(text, sizeof text, "2.5.1+cu121", "550.54.14", "9.1.0.70", "4.66.1", "[]");
    assert_int_equal(td_snapshot_read(text, strlen(text), &d, &a, &err), 0);
    assert_string_equal(d.taken_at, "2026-12-01T18:00:00Z");
    bool torch = false, path = false;
    for (size_t i = 0; i < d.n_facts; i++) {
        const struct td_snap_fact *f = &d.facts[i];
        torch |= strcmp(f->area, "package") == 0 && strcmp(f->item, "torch") == 0 &&
                 strcmp(f->value, "2.5.1+cu121") == 0 &&
                 strcmp(f->environment, "/v/bin/python") == 0;
        path |= strcmp(f->item, "LD_LIBRARY_PATH") == 0 && strcmp(f->value, "/a:/b") == 0;
        if (i)
            assert_true(strcmp(d.facts[i - 1].area, f->area) <= 0);
    }
    assert_true(torch);
    assert_true(path);
    td_snap_doc_free(&d);
    td_arena_free(&a);
}

static void refuses_what_is_not_a_snapshot(void **state)
{
    static const char *const bad[] = {"",
                                      "{",
                                      "[]",
                                      "{\"command\": \"check\"}",
                                      "{\"command\": \"snapshot\", \"snapshot\": 3}",
                                      "{\"command\": \"snapshot\"} trailing"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct td_arena a = {0};
        struct td_snap_doc d = {0};
        struct td_err err = {0};
        assert_int_equal(td_snapshot_read(bad[i], strlen(bad[i]), &d, &a, &err), -1);
        assert_true(err.msg[0] != '\0');
        td_snap_doc_free(&d);
        td_arena_free(&a);
    }
}

/* OLD and NEW read and diffed into D (A owns it all). */
static void diff_of(const char *old, const char *new, struct td_diff *d, struct td_snap_doc *x,
                    struct td_snap_doc *y, struct td_arena *a)
{
    struct td_err err = {0};
    assert_int_equal(td_snapshot_read(old, strlen(old), x, a, &err), 0);
    assert_int_equal(td_snapshot_read(new, strlen(new), y, a, &err), 0);
    td_snapshot_diff(x, y, d, a);
}

static void ranks_breaks_first(void **state)
{
    char old[4096], new[4096];
    struct td_arena a = {0};
    struct td_snap_doc x = {0}, y = {0};
    struct td_diff d = {0};
    doc(old, sizeof old, "2.5.1+cu121", "550.54.14", "9.1.0.70", "4.66.1", "[]");
    doc(new, sizeof new, "2.5.1+cpu", "550.54.14", "9.5.0.50", "4.67.0", variant_finding);
    diff_of(old, new, &d, &x, &y, &a);
    assert_int_equal(d.n_changes, 3);
    assert_string_equal(d.changes[0].item, "torch");
    assert_int_equal(d.changes[0].impact, TD_IMPACT_BREAKS);
    assert_int_equal(d.changes[0].n_kinds, 1);
    assert_string_equal(d.changes[0].finding_kinds[0], "torch_variant_mismatch");
    assert_string_equal(d.changes[0].before, "2.5.1+cu121");
    /* nvidia-*: risky without a finding naming it; tqdm: outside the stack. */
    assert_string_equal(d.changes[1].item, "nvidia-cudnn-cu12");
    assert_int_equal(d.changes[1].impact, TD_IMPACT_RISKY);
    assert_string_equal(d.changes[2].item, "tqdm");
    assert_int_equal(d.changes[2].impact, TD_IMPACT_NEUTRAL);
    assert_int_equal(d.findings.count, 1);
    assert_int_equal(d.count[TD_IMPACT_BREAKS], 1);
    td_diff_free(&d);
    td_snap_doc_free(&x);
    td_snap_doc_free(&y);
    td_arena_free(&a);
}

static void nothing_against_itself(void **state)
{
    char text[4096];
    struct td_arena a = {0};
    struct td_snap_doc x = {0}, y = {0};
    struct td_diff d = {0};
    doc(text, sizeof text, "2.5.1+cpu", "470.82.01", "9.1.0.70", "4.66.1", variant_finding);
    diff_of(text, text, &d, &x, &y, &a);
    assert_int_equal(d.n_changes, 0);
    assert_int_equal(d.findings.count, 0);
    td_diff_free(&d);
    td_snap_doc_free(&x);
    td_snap_doc_free(&y);
    td_arena_free(&a);
}

static void variant_indexes(void **state)
{
    char url[256];
    assert_string_equal(td_kb_variant_index("cu121", url, sizeof url),
                        "https://download.pytorch.org/whl/cu121");
    assert_string_equal(td_kb_variant_index("cpu", url, sizeof url),
                        "https://download.pytorch.org/whl/cpu");
    assert_null(td_kb_variant_index("cu1", url, sizeof url));
    assert_null(td_kb_variant_index(NULL, url, sizeof url));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reads_facts),        cmocka_unit_test(refuses_what_is_not_a_snapshot),
        cmocka_unit_test(ranks_breaks_first), cmocka_unit_test(nothing_against_itself),
        cmocka_unit_test(variant_indexes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
