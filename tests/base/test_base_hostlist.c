/* Slurm hostlist notation (base/hostlist.h): expansion as scontrol show
 * hostnames does it, folding back, and the malformed expressions. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "base/hostlist.h"

struct names {
    char text[4096];
    size_t n;
};

static bool collect(void *ctx, const char *name)
{
    struct names *x = ctx;
    size_t len = strlen(x->text);
    snprintf(x->text + len, sizeof x->text - len, "%s%s", len ? " " : "", name);
    x->n++;
    return true;
}

static const char *expand(const char *expr, struct names *x, size_t max)
{
    memset(x, 0, sizeof *x);
    return td_hostlist_expand(expr, max, collect, x);
}

static void expands_ranges_and_padding(void **state)
{
    struct names x;
    assert_null(expand("gpu[001-003,010]", &x, 100));
    assert_string_equal(x.text, "gpu001 gpu002 gpu003 gpu010");
    assert_null(expand("node[8-11],login1", &x, 100));
    assert_string_equal(x.text, "node8 node9 node10 node11 login1");
    assert_null(expand("plain", &x, 100));
    assert_string_equal(x.text, "plain");
    /* Two brackets: every combination, the last one varying fastest. */
    assert_null(expand("r[1-2]n[01-02]", &x, 100));
    assert_string_equal(x.text, "r1n01 r1n02 r2n01 r2n02");
    /* Text after a bracket, as ClusterShell takes it. */
    assert_null(expand("node[01-02]-ib", &x, 100));
    assert_string_equal(x.text, "node01-ib node02-ib");
}

static void refuses_malformed(void **state)
{
    struct names x;
    assert_non_null(expand("gpu[1-3", &x, 100));
    assert_non_null(expand("gpu1-3]", &x, 100));
    assert_non_null(expand("gpu[3-1]", &x, 100));
    assert_non_null(expand("gpu[a-b]", &x, 100));
    assert_non_null(expand("gpu[[1]]", &x, 100));
    assert_non_null(expand("gpu[1-]", &x, 100));
    /* Regression (fuzz_base_hostlist): an empty bracket after large ones
     * named nothing, so the brackets before it looped 54 million times. */
    assert_non_null(expand("a[0-99]b[0-99]c[0-99]d[0-99][]", &x, 100));
    assert_int_equal(x.n, 0);
    assert_non_null(expand("gpu[1-1000]", &x, 10)); /* past the limit */
    assert_int_equal(x.n, 10);
}

static const char *fold(const char *const *names, size_t n, struct td_arena *a)
{
    return td_hostlist_fold(names, n, a);
}

static void folds_into_ranges(void **state)
{
    struct td_arena a = {0};
    const char *one[] = {"gpu003", "gpu001", "gpu002", "gpu010", "login1", "gpu002"};
    assert_string_equal(fold(one, 6, &a), "gpu[001-003,010],login1");
    const char *natural[] = {"n9", "n10", "n11", "n1"};
    assert_string_equal(fold(natural, 4, &a), "n[1,9-11]");
    const char *padded_to_100[] = {"gpu099", "gpu100", "gpu098"};
    assert_string_equal(fold(padded_to_100, 3, &a), "gpu[098-100]");
    const char *longer[] = {"gpu9999", "gpu10000", "gpu0001"};
    assert_string_equal(fold(longer, 3, &a), "gpu[0001,9999-10000]");
    const char *single[] = {"gpu007"};
    assert_string_equal(fold(single, 1, &a), "gpu007");
    const char *suffix[] = {"node02-ib", "node01-ib", "node03"};
    assert_string_equal(fold(suffix, 3, &a), "node03,node[01-02]-ib");
    const char *words[] = {"beta", "alpha", "alpha"};
    assert_string_equal(fold(words, 3, &a), "alpha,beta");
    assert_string_equal(fold(NULL, 0, &a), "");
    td_arena_free(&a);
}

/* Folding then expanding gives the names back, sorted and once each. */
static void round_trips(void **state)
{
    struct td_arena a = {0};
    char buf[64][16];
    const char *names[64];
    for (int i = 0; i < 64; i++) {
        snprintf(buf[i], sizeof buf[i], "gpu%03d", (i * 37) % 200);
        names[i] = buf[i];
    }
    const char *expr = fold(names, 64, &a);
    struct names x;
    assert_null(expand(expr, &x, 1000));
    assert_int_equal(x.n, 64);
    for (int i = 0; i < 64; i++)
        assert_non_null(strstr(x.text, buf[i]));
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(expands_ranges_and_padding),
        cmocka_unit_test(refuses_malformed),
        cmocka_unit_test(folds_into_ranges),
        cmocka_unit_test(round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
