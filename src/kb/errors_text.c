/* What the parts of the error explainer share, below all of them: a
 * match's named capture (errors.c fills the fields from it, errors_cause.c
 * names the file at fault), a catalogue cell's example decoded, and the
 * library files a text names, with those it only lists together. */
#include <string.h>

#include "base/compat.h"
#include "kb/errors.h"
#include "kb/errors_internal.h"

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

size_t td_explain_named_files(const char *text, const char **at, size_t *len, bool *listed,
                              size_t cap)
{
    static regex_t re;
    static int state; /* 0 not compiled, 1 ready, -1 failed */
    if (!state)
        state = regcomp(&re, td_explain_library_name_re, REG_EXTENDED | REG_NEWLINE) == 0 ? 1 : -1;
    size_t n = 0;
    regmatch_t m[2];
    for (const char *p = text; state > 0 && regexec(&re, p, 2, m, 0) == 0;
         p += m[0].rm_eo ? m[0].rm_eo : 1) {
        if (n == cap) { /* keep the latest */
            memmove(at, at + 1, sizeof at[0] * (cap - 1));
            memmove(len, len + 1, sizeof len[0] * (cap - 1));
            n--;
        }
        at[n] = p + m[1].rm_so;
        len[n++] = (size_t)(m[1].rm_eo - m[1].rm_so);
        if (!p[m[0].rm_eo])
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
