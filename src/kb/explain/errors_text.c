/* What the parts of the error explainer share, below all of them: a
 * match's named capture (errors.c fills the fields from it, errors_cause.c
 * names the file at fault), a catalogue cell's example decoded, and the
 * library files a text names, with those it only lists together. */
#include <string.h>

#include "base/compat.h"
#include "kb/errors.h"
#include "kb/explain/errors_internal.h"

const char *td_explain_capture(const struct td_explain_match *m, const char *name)
{
    for (size_t i = 0; i < m->n_captures; i++)
        if (strcmp(m->capture_names[i], name) == 0)
            return m->captures[i];
    return NULL;
}

char *td_explain_decode_example(const char *cell, struct td_arena *a)
{
    char *out = td_arena_alloc(a, strlen(cell) + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (const char *p = cell; *p; p++) {
        if (p[0] == '\\' && (p[1] == 'n' || p[1] == '\\')) {
            out[o++] = p[1] == 'n' ? '\n' : '\\';
            p++;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
    return out;
}

enum { LIST_MIN = 3 };

const char td_explain_library_name_re[] =
    "([A-Za-z0-9_.+-]+\\.(dll|DLL|Dll|pyd|dylib|so(\\.[0-9]+)*))([^A-Za-z0-9_.]|$)";

/* Whether the text between two file names (SEP, N bytes) only separates
 * items of a list: commas, "and", "or", blanks and quotes. */
static bool list_separator(const char *sep, size_t n)
{
    char word[8];
    size_t w = 0;
    for (size_t i = 0; i < n; i++) {
        if (strchr(" \t'\"`", sep[i]))
            continue;
        if (w + 1 >= sizeof word)
            return false;
        word[w++] = sep[i];
    }
    word[w] = '\0';
    return !strcmp(word, ",") || !strcmp(word, ",and") || !strcmp(word, "and") ||
           !strcmp(word, ",or") || !strcmp(word, "or");
}

/* A character of a file's name in td_explain_library_name_re's class. */
static bool name_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           (c && strchr("_.+-", c));
}

/* Whether TEXT[FROM, E) is a library file's name: a name character or more,
 * a dot and an extension (dll, DLL, Dll, pyd, dylib, or so and any number of
 * ".N"), read backwards from E. */
static bool name_ends(const char *text, size_t from, size_t e)
{
    static const char *const exts[] = {"dll", "DLL", "Dll", "pyd", "dylib"};
    for (size_t k = 0; k < sizeof exts / sizeof exts[0]; k++) {
        size_t n = strlen(exts[k]);
        if (e >= from + n + 2 && text[e - n - 1] == '.' && !memcmp(text + e - n, exts[k], n))
            return true;
    }
    for (;;) { /* "so", then each ".N" before the end taken off */
        if (e >= from + 4 && !memcmp(text + e - 3, ".so", 3))
            return true;
        size_t d = e;
        while (d > from && text[d - 1] >= '0' && text[d - 1] <= '9')
            d--;
        if (d == e || d == from || text[d - 1] != '.')
            return false;
        e = d - 1;
    }
}

/* The first library file name in TEXT at or after P, as the ERE
 * td_explain_library_name_re finds it (leftmost, then longest, then the
 * one character after the name that the ERE takes, when there is one), by
 * hand: a regexec over a long line of name characters tries every start
 * and costs time in the square of its length. Its start in *AT, the name's
 * length in *LEN; the match's end (after that character) is returned, 0
 * when there is none. */
static size_t next_name(const char *text, size_t p, size_t *at, size_t *len)
{
    for (size_t a = p; text[a];) {
        if (!name_char(text[a])) {
            a++;
            continue;
        }
        size_t b = a;
        while (name_char(text[b]))
            b++;
        /* a name in the run [a, b) starts at a (the class runs back to it);
         * it ends at b, or at a '+' or '-' inside the run (the character
         * after the name is one the ERE takes: not a letter, digit, _ or .) */
        size_t e = 0;
        if (name_ends(text, a, b))
            e = b;
        for (size_t k = b; !e && k > a + 1; k--)
            if ((text[k - 1] == '+' || text[k - 1] == '-') && name_ends(text, a, k - 1))
                e = k - 1;
        if (e) {
            *at = a;
            *len = e - a;
            return e + (text[e] && text[e] != '\n');
        }
        a = b;
    }
    return 0;
}

size_t td_explain_named_files(const char *text, const char **at, size_t *len, bool *listed,
                              size_t cap)
{
    size_t n = 0, s, l;
    for (size_t p = 0, end; (end = next_name(text, p, &s, &l)) != 0; p = end) {
        if (n == cap) { /* keep the latest */
            memmove(at, at + 1, sizeof at[0] * (cap - 1));
            memmove(len, len + 1, sizeof len[0] * (cap - 1));
            n--;
        }
        at[n] = text + s;
        len[n++] = l;
        if (!text[end])
            break;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n &&
               list_separator(at[j - 1] + len[j - 1], (size_t)(at[j] - (at[j - 1] + len[j - 1]))))
            j++;
        for (size_t k = i; k < j; k++)
            listed[k] = j - i >= LIST_MIN;
        i = j;
    }
    return n;
}

const char *td_explain_last_named(const char *text, struct td_arena *a)
{
    enum { MAX_NAMED = 64 };
    const char *at[MAX_NAMED];
    size_t len[MAX_NAMED];
    bool listed[MAX_NAMED];
    for (size_t i = td_explain_named_files(text, at, len, listed, MAX_NAMED); i > 0; i--)
        if (!listed[i - 1])
            return td_arena_strndup(a, at[i - 1], len[i - 1]);
    return NULL;
}
