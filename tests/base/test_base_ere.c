/* base/ere.c, the regex matcher of builds without <regex.h>, against
 * glibc's regcomp/regexec: each pattern of the table is run by both on each
 * of its texts, and the match, its span and every group's span must agree.
 * Then what it refuses, and that a pattern which makes a naive backtracker
 * take exponential time is answered. */
#include "testutil.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ere.h"

enum { GROUPS = 10 };

/* Runs PATTERN on TEXT with glibc and with td_ere; fails on any difference. */
/* With regexec's EFLAGS: REG_NOTBOL (a window that starts inside a line),
 * REG_NOTEOL (one that ends inside a line). */
static void same_as_glibc_flags(const char *pattern, const char *text, bool newline, int eflags)
{
    regex_t re;
    int cflags = REG_EXTENDED | (newline ? REG_NEWLINE : 0);
    if (regcomp(&re, pattern, cflags) != 0)
        fail_msg("glibc rejects /%s/", pattern);
    size_t nsub = 0;
    struct td_ere *ours = td_ere_compile(pattern, newline ? TD_ERE_NEWLINE : 0, &nsub);
    if (!ours)
        fail_msg("td_ere rejects /%s/", pattern);
    assert_int_equal(nsub, re.re_nsub);
    regmatch_t g[GROUPS];
    struct td_ere_span m[GROUPS];
    bool theirs = regexec(&re, text, GROUPS, g, eflags) == 0;
    bool mine = td_ere_exec_flags(ours, text, GROUPS, m,
                                  (eflags & REG_NOTBOL ? TD_ERE_NOTBOL : 0) |
                                      (eflags & REG_NOTEOL ? TD_ERE_NOTEOL : 0));
    if (theirs != mine)
        fail_msg("/%s/ on \"%s\": glibc %s, td_ere %s", pattern, text, theirs ? "matches" : "no",
                 mine ? "matches" : "no");
    for (size_t k = 0; theirs && k <= nsub && k < GROUPS; k++)
        if (g[k].rm_so != m[k].so || g[k].rm_eo != m[k].eo)
            fail_msg("/%s/ on \"%s\" group %zu: glibc %d-%d, td_ere %ld-%ld", pattern, text, k,
                     (int)g[k].rm_so, (int)g[k].rm_eo, m[k].so, m[k].eo);
    regfree(&re);
    td_ere_free(ours);
}

static void same_as_glibc(const char *pattern, const char *text, bool newline)
{
    same_as_glibc_flags(pattern, text, newline, 0);
}

static const struct {
    const char *pattern;
    const char *texts[6];
} cases[] = {
    {"abc", {"abc", "xxabcxx", "ab", "", "aabc"}},
    {"a.c", {"abc", "a\nc", "ac", "xa-cx"}},
    {"^a", {"a", "ba", "b\na"}},
    {"a$", {"a", "ab", "a\nb", "ba"}},
    {"^$", {"", "x", "x\n\ny"}},
    {"(a|ab)(c|bcd)(d*)", {"abcd", "abcdd", "acd"}},
    {"a*", {"", "aaa", "baaa"}},
    {"a+b?", {"aab", "b", "ab", "aaa"}},
    {"(ab)+", {"ababab", "abx", "xx"}},
    {"a{2}", {"a", "aa", "aaaa"}},
    {"a{2,}", {"a", "aaaaa"}},
    {"a{1,3}b", {"b", "ab", "aaaab", "aab"}},
    {"x(a|b){0,2}y", {"xy", "xay", "xaby", "xabay"}},
    {"[abc]+", {"cab", "xyz", "aXb"}},
    {"[^abc]+", {"abcdef", "a\nb"}},
    {"[]a]+", {"]a]", "b"}},
    {"[^]a]", {"]a", "]ab"}},
    {"[a-z0-9_.+-]+", {"torch-2.1.0+cu121", "ABC"}},
    {"[[:digit:]]+\\.[[:alpha:]]+", {"12.ab", "x.y"}},
    {"[/\\\\]", {"a\\b", "a/b", "ab"}},
    {"\\(x\\)\\.\\*", {"(x).*", "x.*"}},
    {"(^| )lib", {"lib", "a lib", "alib"}},
    {"(/usr)?/lib(64|/x86_64-linux-gnu)?/libstdc\\+\\+\\.so\\.6",
     {"/usr/lib/libstdc++.so.6", "/lib64/libstdc++.so.6",
      "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/opt/lib/libstdc++"}},
    {"([^\"'\t\n ]+): cannot open", {"libc10.so: cannot open shared", "x 'libz.so': cannot open"}},
    {"(\n.*)*OSError", {"a\nb\nOSError", "OSError", "a\nb"}},
    {"x*y*z*", {"", "zzz", "xyzxyz"}},
    {"(a*)*b", {"aaab", "aaa", "b"}},
    {"(a*)+$", {"aa", ""}},
    {"()x", {"x", "yx"}},
    {"(a|)+b", {"aab", "b"}},
    {"\xe6\x89\xbe+ ?E",
     {"\xe6\x89\xbe E", "\xe6\x89\xbe\xbe\xbe"
                        "E"}},
    {"\x01"
     "126\x02"
     "x",
     {"\x01"
      "126\x02"
      "x",
      "126x"}},
    {"(0[xX][cC]0[0-9a-fA-F]{6})", {"status 0xC0000135 then", "0xc06d007e", "0xC00001"}},
    {"(^|[^0-9])(-10737[0-9]{5})([^0-9]|$)", {"code -1073741515.", "x-10737415150", "-1073741795"}},
};

static void table_agrees_with_glibc(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (size_t k = 0; k < 6 && cases[i].texts[k]; k++) {
            same_as_glibc(cases[i].pattern, cases[i].texts[k], true);
            same_as_glibc(cases[i].pattern, cases[i].texts[k], false);
        }
}

static void refuses_what_it_cannot_do(void **state)
{
    (void)state;
    static const char *const bad[] = {"(ab", "ab)", "*a", "a{2", "a{3,1}", "[ab", "[[:nope:]]",
                                      "a\\", "a{999}", "[z-a]", "[[.a.]]",
                                      /* fuzz_base_ere: a trailing '\\' inside a group read past
                                         the end of the pattern */
                                      "8(%(^\\"};
    size_t nsub;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (td_ere_compile(bad[i], 0, &nsub))
            fail_msg("accepted /%s/", bad[i]);
}

/* (a|aa)*c on 5000 a's: a naive backtracker tries every split of the run. */
static void no_exponential_search(void **state)
{
    (void)state;
    enum { N = 5000 };
    char *text = malloc(N + 1);
    assert_non_null(text);
    memset(text, 'a', N);
    text[N] = '\0';
    size_t nsub;
    struct td_ere *re = td_ere_compile("(a|aa)*c", 0, &nsub);
    assert_non_null(re);
    struct td_ere_span m[2];
    assert_false(td_ere_exec(re, text, 2, m));
    text[N - 1] = 'c';
    assert_true(td_ere_exec(re, text, 2, m));
    assert_int_equal(m[0].so, 0);
    assert_int_equal(m[0].eo, N);
    td_ere_free(re);
    free(text);
}

/* REG_NOTBOL: '^' never matches at the text's start, still after a newline
 * under REG_NEWLINE; '$' and the rest are as without it. */
static void notbol_as_glibc(void **state)
{
    (void)state;
    const char *patterns[] = {"^a", "^a|b", "(^|x)a", "^$", "a$", "(^| )lib[a-z]+", "^[a-z]*"};
    const char *texts[] = {"ab", "x\nab", "ba", "", "xa", "libfoo", " libfoo", "q\nlibx a"};
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++)
        for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
            for (int newline = 0; newline < 2; newline++) {
                same_as_glibc_flags(patterns[p], texts[t], newline, REG_NOTBOL);
                same_as_glibc_flags(patterns[p], texts[t], newline, 0);
            }
}

/* REG_NOTEOL: '$' never matches at the text's end, still before a newline
 * under REG_NEWLINE; with REG_NOTBOL, a window cut inside a line at both
 * ends (src/kb/explain/errors_needle.c). */
static void noteol_as_glibc(void **state)
{
    (void)state;
    const char *patterns[] = {"a$", "a$|b", "(x|$)", "^$", "[a-z]*$", "^a.*$", "lib[a-z]+( |$)"};
    const char *texts[] = {"a", "xa", "a\nb", "", "ba\n", "libfoo", "libfoo x", "q\nlibx"};
    for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++)
        for (size_t t = 0; t < sizeof texts / sizeof *texts; t++)
            for (int newline = 0; newline < 2; newline++) {
                same_as_glibc_flags(patterns[p], texts[t], newline, REG_NOTEOL);
                same_as_glibc_flags(patterns[p], texts[t], newline, REG_NOTEOL | REG_NOTBOL);
            }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_agrees_with_glibc), cmocka_unit_test(refuses_what_it_cannot_do),
        cmocka_unit_test(no_exponential_search),   cmocka_unit_test(notbol_as_glibc),
        cmocka_unit_test(noteol_as_glibc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
