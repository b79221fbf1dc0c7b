/* libFuzzer target for base/ere.c, the ERE matcher of builds without
 * <regex.h>: the input is a pattern, a NUL, then a text (patterns come from
 * data/, texts from whatever users paste into `explain`), tried with every
 * flag; and the whole input as a text for a few patterns of the error
 * catalogue's kind, whose matches must be sane spans. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ere.h"

static const char *const patterns[] = {
    "([^\"'\t\n ]+): cannot open shared object file",
    "(/usr)?/lib(64|/x86_64-linux-gnu)?/libstdc\\+\\+\\.so\\.6: version .([0-9A-Za-z_.+-]+). not",
    "(\n.*)*OSError: \\[WinError 193\\]",
    "(^|[^0-9])(-10737[0-9]{5})([^0-9]|$)",
    "(a|aa)*(b*)*c{2,4}",
};

static char *cstring(const uint8_t *data, size_t n)
{
    char *s = malloc(n + 1); /* td_ere_exec reads a C string, as regexec does */
    if (s) {
        memcpy(s, data, n);
        s[n] = '\0';
    }
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_ere_span m[10];
    size_t nsub;
    char *whole = cstring(data, size);
    for (size_t i = 0; whole && i < sizeof patterns / sizeof patterns[0]; i++) {
        struct td_ere *re = td_ere_compile(patterns[i], i % 2 ? TD_ERE_NEWLINE : 0, &nsub);
        if (re && td_ere_exec(re, whole, 8, m) && (m[0].so < 0 || m[0].eo < m[0].so))
            abort();
        td_ere_free(re);
    }
    free(whole);

    const uint8_t *nul = memchr(data, 0, size);
    size_t plen = nul ? (size_t)(nul - data) : size;
    if (plen > 512)
        return 0;
    char *pattern = cstring(data, plen);
    char *text = nul ? cstring(nul + 1, size - plen - 1) : cstring(data, 0);
    for (int flags = 0; pattern && text && flags < 4; flags++) {
        struct td_ere *re = td_ere_compile(pattern, flags, &nsub);
        if (re)
            td_ere_exec(re, text, 10, m);
        td_ere_free(re);
    }
    free(text);
    free(pattern);
    return 0;
}
