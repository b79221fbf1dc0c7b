/* libFuzzer target for the fat binary reader: the input is a .nv_fatbin
 * section; every entry is named and the distinct architectures listed. */
#include <stdint.h>

#include "format/fatbin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_fatbin fb;
    td_fatbin_parse(&fb, data, size, &arena, &err);
    char name[32];
    for (size_t i = 0; i < fb.count; i++)
        td_fatbin_arch_name(&fb.entries[i], name, sizeof name);
    const char **archs;
    td_fatbin_archs(&fb, &arena, &archs);
    td_arena_free(&arena);
    return 0;
}
