/* libFuzzer target for base/ere.c: the input is searched by a few patterns
 * of the error catalogue's kind (texts are what users paste), then
 * compiled itself as a pattern (up to its first NUL) and run on itself. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct td_ere_span m[8];
    size_t nsub;
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        struct td_ere *re = td_ere_compile(patterns[i], i % 2 ? TD_ERE_NEWLINE : 0, &nsub);
        if (re && td_ere_exec(re, text, 8, m) && (m[0].so < 0 || m[0].eo < m[0].so))
            abort();
        td_ere_free(re);
    }
    struct td_ere *self = td_ere_compile(text, TD_ERE_NEWLINE, &nsub);
    if (self)
        td_ere_exec(self, text, 8, m);
    td_ere_free(self);
    free(text);
    return 0;
}
