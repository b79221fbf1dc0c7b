#include "base/version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the next numeric part of *S, advancing past it and one dot. Stops
 * (returns -1) at the end, a '+' local tag or a non-digit suffix. */
static long next_part(const char **s)
{
    const char *p = *s;
    if (!p || !*p || *p == '+' || *p < '0' || *p > '9')
        return -1;
    long n = 0;
    while (*p >= '0' && *p <= '9') {
        if (n < 100000000)
            n = n * 10 + (*p - '0');
        p++;
    }
    *s = *p == '.' ? p + 1 : p + strlen(p); /* "0a0", "0rc1": the suffix ends it */
    return n;
}

int td_version_cmp(const char *a, const char *b)
{
    const char *pa = a, *pb = b;
    for (;;) {
        long x = next_part(&pa), y = next_part(&pb);
        if (x < 0 && y < 0)
            return 0;
        if (x < 0)
            x = 0;
        if (y < 0)
            y = 0;
        if (x != y)
            return x < y ? -1 : 1;
        if (!*pa && !*pb)
            return 0;
    }
}

bool td_version_satisfies(const char *v, const char *spec)
{
    if (!spec || !*spec || strcmp(spec, "-") == 0)
        return true;
    if (strncmp(spec, ">=", 2) == 0)
        return td_version_cmp(v, spec + 2) >= 0;
    if (strncmp(spec, "<=", 2) == 0)
        return td_version_cmp(v, spec + 2) <= 0;
    if (spec[0] == '>')
        return td_version_cmp(v, spec + 1) > 0;
    if (spec[0] == '<')
        return td_version_cmp(v, spec + 1) < 0;
    if (spec[0] == '=')
        return td_version_cmp(v, spec + (spec[1] == '=' ? 2 : 1)) == 0;
    return td_version_cmp(v, spec) == 0;
}

bool td_version_has_prefix(const char *v, const char *prefix)
{
    const char *pv = v, *pp = prefix;
    for (;;) {
        long want = next_part(&pp);
        if (want < 0)
            return true;
        if (next_part(&pv) != want)
            return false;
    }
}

const char *td_version_trim(const char *v, int parts, char *out, size_t cap)
{
    size_t i = 0;
    int seen = 0;
    for (; v[i] && i + 1 < cap; i++) {
        if (v[i] == '+' || (v[i] == '.' && ++seen == parts))
            break;
        out[i] = v[i];
    }
    out[i] = '\0';
    return out;
}
