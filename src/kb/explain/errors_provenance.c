/* A catalogue row's cause read apart from where it comes from (docs/errors.md
 * "Sources and honesty rules"): a cell that opens "Undiagnosed in thread" says
 * first that the thread established nothing, then the most defensible cause.
 * The report leads with the cause and prints the provenance beside the source. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kb/errors.h"

static const char undiagnosed[] = "Undiagnosed in thread";
static const char defensible[] = "most defensible:";

/* The end of the parenthesis that opens at S ("(reporter confirms ...)"),
 * nested ones included; NULL when it does not close. */
static const char *paren_end(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && --depth == 0)
            return s + 1;
    }
    return NULL;
}

/* A plain lower-case word opening a sentence takes a capital; a name with a
 * version after it ("torch 2.4.0") or a file ("libcusparse.so.12",
 * "cublas64_11.dll") keeps its spelling. */
static bool takes_capital(const char *s)
{
    size_t n = 0;
    while (s[n] >= 'a' && s[n] <= 'z')
        n++;
    return n > 0 && s[n] == ' ' && !(s[n + 1] >= '0' && s[n + 1] <= '9');
}

const char *td_explain_split_cause(const char *cell, struct td_arena *a, const char **provenance)
{
    *provenance = NULL;
    if (!cell || strncmp(cell, undiagnosed, sizeof undiagnosed - 1) != 0)
        return cell;
    const char *p = cell + sizeof undiagnosed - 1, *remark = NULL, *remark_end = NULL;
    if (p[0] == ' ' && p[1] == '(') {
        remark = p + 1;
        remark_end = p = paren_end(remark);
        if (!p)
            return cell;
    }
    if (strncmp(p, "; ", 2) != 0)
        return cell; /* not the convention's opening: the cell stays as written */
    p += 2;
    if (strncmp(p, defensible, sizeof defensible - 1) == 0)
        p += sizeof defensible - 1;
    while (*p == ' ')
        p++;
    if (!*p)
        return cell;
    char *cause = td_arena_strdup(a, p);
    if (cause && takes_capital(cause))
        cause[0] = (char)(cause[0] - 'a' + 'A');
    size_t rn = remark ? (size_t)(remark_end - remark) : 0;
    size_t cap = rn + 128;
    char *note = td_arena_alloc(a, cap);
    if (!cause || !note)
        return cell;
    snprintf(note, cap,
             "undiagnosed in the source thread%s%.*s; the cause given is the most defensible from "
             "the loader rules",
             remark ? " " : "", (int)rn, remark ? remark : "");
    *provenance = note;
    return cause;
}
