/* What keeps explain linear on long lines (docs/explain.md "Long texts"):
 * glibc's regexec tries every start position of a line, so every ERE the
 * explainer runs must have texts one of which each match holds
 * (td_ere_needles), for a strstr to rule it out first; and library file
 * names are found by hand (td_explain_named_files), with exactly the answer
 * the ERE td_explain_library_name_re gives. A pattern added without a
 * needle, or a needle a match can lack, fails here. */
#include "testutil.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/data.h"
#include "kb/errors.h"
#include "kb/explain/errors_internal.h"

#include "catalogue_examples.h"

enum { MAX_ERES = 1024, MAX_TEXTS = 1024, MAX_NAMED = 64 };

/* N's texts joined with "|", for comparing. */
static const char *joined(const struct td_ere_needles *n)
{
    static char out[1024];
    size_t o = 0;
    out[0] = '\0';
    for (size_t k = 0; k < n->n; k++)
        o += (size_t)snprintf(out + o, sizeof out - o, "%s%s", k ? "|" : "", n->s[k]);
    return out;
}

static void needles_of_known_shapes(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"abc", "abc"},
        {"foo[^x]{0,24}ba", "foo"},
        /* a top-level alternation: each alternative's (td_ere_needle has none) */
        {"[Cc]onnection refused|TCPStore|\\[c10d\\][^\n]*(errno|[Tt]imed out)",
         "Connection refused|connection refused|TCPStore|[c10d]"},
        /* literals inside a group every match passes through */
        {"([A-Za-z0-9_.+-]+\\.(dll|DLL|pyd|so(\\.[0-9]+)*))([^A-Za-z0-9_.]|$)",
         ".dll|.DLL|.pyd|.so"},
        {"[Cc]ould not load (the )?file or assembly '\"?", "file or assembly '"},
        {"(^|[^0-9])(-10737[0-9]{5})([^0-9]|$)", "-10737"},
        {"x(ab)+c", "xab"},
        {"a(b|c+)d", "ab|ac"},
        {"(a|)b", "ab|b"},
        {"a(b*c|d)", "a"},
        /* nothing required: no needle, the pattern must be run */
        {"[a-z]+", ""},
        {"a|[0-9]", ""},
        {"(x)?y?", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct td_ere_needles n;
        td_ere_needles(cases[i][0], &n);
        if (strcmp(joined(&n), cases[i][1]) != 0)
            fail_msg("/%s/: needles \"%s\", expected \"%s\"", cases[i][0], joined(&n), cases[i][1]);
    }
}

/* Every ERE has a needle, and every catalogue example it matches holds one
 * of its needles. */
static void every_ere_has_a_sound_needle(void **state)
{
    (void)state;
    struct td_arena a = {0};
    static const char *eres[MAX_ERES], *texts[MAX_TEXTS];
    size_t n_eres = td_explain_eres(eres, MAX_ERES);
    size_t n_texts = catalogue_examples(texts, MAX_TEXTS, &a);
    assert_true(n_eres > 300);
    size_t without = 0, matches = 0;
    for (size_t i = 0; i < n_eres; i++) {
        struct td_ere_needles n;
        if (!td_ere_needles(eres[i], &n)) {
            fprintf(stderr, "no needle: /%s/\n", eres[i]);
            without++;
            continue;
        }
        regex_t re;
        assert_int_equal(regcomp(&re, eres[i], REG_EXTENDED | REG_NEWLINE), 0);
        for (size_t k = 0; k < n_texts; k++) {
            if (regexec(&re, texts[k], 0, NULL, 0) != 0)
                continue;
            matches++;
            if (!td_ere_needles_in(&n, texts[k], false))
                fail_msg("/%s/ matches example %zu, which holds none of \"%s\"", eres[i], k,
                         joined(&n));
        }
        regfree(&re);
    }
    fprintf(stderr, "%zu EREs, %zu without a needle; %zu matches of %zu examples\n", n_eres,
            without, matches, n_texts);
    assert_int_equal(without, 0);
    assert_true(matches >= n_texts / 2);
    td_arena_free(&a);
}

/* The names the ERE finds, as td_explain_named_files walked it before. */
static size_t named_by_ere(const regex_t *re, const char *text, const char **at, size_t *len,
                           size_t cap)
{
    size_t n = 0;
    regmatch_t m[2];
    for (const char *p = text; regexec(re, p, 2, m, 0) == 0; p += m[0].rm_eo ? m[0].rm_eo : 1) {
        if (n == cap) {
            memmove(at, at + 1, sizeof at[0] * (cap - 1));
            memmove(len, len + 1, sizeof len[0] * (cap - 1));
            n--;
        }
        at[n] = p + m[1].rm_so;
        len[n++] = (size_t)(m[1].rm_eo - m[1].rm_so);
        if (!p[m[0].rm_eo])
            break;
    }
    return n;
}

static void check_named(const regex_t *re, const char *text)
{
    const char *at1[MAX_NAMED], *at2[MAX_NAMED];
    size_t len1[MAX_NAMED], len2[MAX_NAMED];
    bool listed[MAX_NAMED];
    size_t n1 = named_by_ere(re, text, at1, len1, MAX_NAMED);
    size_t n2 = td_explain_named_files(text, at2, len2, listed, MAX_NAMED);
    bool same = n1 == n2;
    for (size_t i = 0; same && i < n1; i++)
        same = at1[i] == at2[i] && len1[i] == len2[i];
    if (!same)
        fail_msg("\"%s\": the ERE finds %zu names (first at %td), the scan %zu (first at %td)",
                 text, n1, n1 ? at1[0] - text : -1, n2, n2 ? at2[0] - text : -1);
}

static void named_files_as_the_ere_finds_them(void **state)
{
    (void)state;
    regex_t re;
    assert_int_equal(regcomp(&re, td_explain_library_name_re, REG_EXTENDED | REG_NEWLINE), 0);
    static const char *const cases[] = {
        "OSError: libcudnn.so.9: cannot open shared object file",
        "libssl.so.1.1 => not found\n\tlibm.so.6 => /lib/x86_64-linux-gnu/libm.so.6 (0x7f)",
        "a.dll+b.dll-c.so.1.2-x.pyd_y.dylib.z libfoo.so.",
        "SDL2.dll, SDL2_mixer.dll, and zlib1.dll are present",
        ".so x..so .dll a.DLL\nb.Dll\r\n c.so.1.2.3.4 d.so.1.x e.so1 f.so.-",
        "C:\\Python\\torch\\lib\\fbgemm.dll\" or one of its dependencies",
        "",
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        check_named(&re, cases[i]);
    /* random texts of the characters that decide where a name starts and ends */
    static const char alphabet[] = "ab.sodlyDLlPp1-+_ \n\"'x";
    unsigned long seed = 12345;
    char text[48];
    for (int t = 0; t < 40000; t++) {
        size_t n = (size_t)(t % 40);
        for (size_t k = 0; k < n; k++) {
            seed = seed * 6364136223846793005UL + 1442695040888963407UL;
            text[k] = alphabet[(seed >> 33) % (sizeof alphabet - 1)];
        }
        text[n] = '\0';
        check_named(&re, text);
    }
    regfree(&re);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(needles_of_known_shapes),
        cmocka_unit_test(every_ere_has_a_sound_needle),
        cmocka_unit_test(named_files_as_the_ere_finds_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
