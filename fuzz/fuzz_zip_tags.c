/* libFuzzer target for the wheel tag and extension-suffix parsers
 * (format/wheel_tag.h): the input, split at NUL bytes, is tried as a
 * platform tag, a Python/ABI tag, an architecture word and an extension
 * module's file name; every field written must stay NUL-terminated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/wheel_tag.h"

static void one(const char *s, size_t n)
{
    struct td_wheel_platform p;
    if (td_wheel_platform_parse(s, n, &p) == 0 && strlen(p.arch) >= sizeof p.arch)
        abort();
    struct td_wheel_python py;
    if (td_wheel_python_parse(s, n, &py) == 0 && strlen(py.impl) >= sizeof py.impl)
        abort();
    td_wheel_arch_canonical(s, n);
    struct td_wheel_ext e;
    if (td_wheel_ext_parse(s, n, &e) >= 0 &&
        (strlen(e.module) >= sizeof e.module || strlen(e.platform) >= sizeof e.platform))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Copied so that a read past the end is caught by ASan. */
    char *s = malloc(size ? size : 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    size_t start = 0;
    for (size_t i = 0; i <= size; i++)
        if (i == size || s[i] == '\0') {
            one(s + start, i - start);
            start = i + 1;
        }
    free(s);
    return 0;
}
