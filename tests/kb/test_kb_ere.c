/* The Windows build of `explain` matches with base/ere.c, not glibc: every
 * ERE the explainer compiles (each catalogue row's, as written and
 * language-neutral, the field extractors' and the loader dialogs') is run by both engines on
 * every catalogue example, as pasted and in its language-neutral form, and
 * both must agree on whether it matches, where, and on every group. */
#include "testutil.h"

#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "base/data.h"
#include "base/ere.h"
#include "kb/errors.h"
#include "kb/explain/errors_internal.h"

#include "catalogue_examples.h"

enum { MAX_ERES = 1024, MAX_TEXTS = 1024, GROUPS = 16 };

static void catalogue_eres_agree_with_glibc(void **state)
{
    (void)state;
    struct td_arena a = {0};
    static const char *eres[MAX_ERES], *texts[MAX_TEXTS];
    size_t n_eres = td_explain_eres(eres, MAX_ERES);
    size_t n_texts = catalogue_examples(texts, MAX_TEXTS, &a);
    fprintf(stderr, "%zu EREs, %zu texts\n", n_eres, n_texts);
    assert_true(n_eres > 100);
    assert_true(n_texts > 100);
    size_t matches = 0;
    for (size_t i = 0; i < n_eres; i++) {
        regex_t re;
        size_t nsub;
        assert_int_equal(regcomp(&re, eres[i], REG_EXTENDED | REG_NEWLINE), 0);
        struct td_ere *ours = td_ere_compile(eres[i], TD_ERE_NEWLINE, &nsub);
        if (!ours)
            fail_msg("td_ere rejects /%s/", eres[i]);
        assert_int_equal(nsub, re.re_nsub);
        for (size_t k = 0; k < n_texts; k++) {
            regmatch_t g[GROUPS];
            struct td_ere_span m[GROUPS];
            bool theirs = regexec(&re, texts[k], GROUPS, g, 0) == 0;
            bool mine = td_ere_exec(ours, texts[k], GROUPS, m);
            if (theirs != mine)
                fail_msg("/%s/ on example %zu: glibc %d, td_ere %d", eres[i], k, theirs, mine);
            matches += theirs;
            for (size_t j = 0; theirs && j <= nsub && j < GROUPS; j++)
                if (g[j].rm_so != m[j].so || g[j].rm_eo != m[j].eo)
                    fail_msg("/%s/ on example %zu, group %zu: glibc %d-%d, td_ere %ld-%ld", eres[i],
                             k, j, (int)g[j].rm_so, (int)g[j].rm_eo, m[j].so, m[j].eo);
        }
        regfree(&re);
        td_ere_free(ours);
    }
    /* every row's example is matched by at least that row */
    assert_true(matches >= n_texts / 2);
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catalogue_eres_agree_with_glibc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
