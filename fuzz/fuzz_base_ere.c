/* libFuzzer target for the ERE matcher of builds without <regex.h>
 * (base/ere.c): the input is a pattern, a NUL, then the text. Patterns come
 * from data/, texts from whatever users paste into `explain`. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ere.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, 0, size);
    size_t plen = nul ? (size_t)(nul - data) : size;
    if (plen > 512)
        return 0;
    char *pattern = malloc(plen + 1);
    if (!pattern)
        return 0;
    memcpy(pattern, data, plen);
    pattern[plen] = '\0';
    size_t tlen = nul ? size - plen - 1 : 0;
    char *text = malloc(tlen + 1); /* td_ere_exec reads a C string, as regexec does */
    if (!text) {
        free(pattern);
        return 0;
    }
    if (tlen)
        memcpy(text, nul + 1, tlen);
    text[tlen] = '\0';
    for (int flags = 0; flags < 4; flags++) {
        size_t nsub = 0;
        struct td_ere *re = td_ere_compile(pattern, flags, &nsub);
        if (!re)
            continue;
        struct td_ere_span m[10];
        td_ere_exec(re, text, 10, m);
        td_ere_free(re);
    }
    free(text);
    free(pattern);
    return 0;
}
