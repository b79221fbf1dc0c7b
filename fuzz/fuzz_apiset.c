/* libFuzzer target for the API-set schema reader: parse the bytes as a
 * schema and as a PE file, and look up every contract and a few names. */
#include <stddef.h>
#include <stdint.h>

#include "format/apiset.h"

static void look_up(const struct td_apiset_map *m)
{
    for (size_t i = 0; i < m->count && i < 64; i++)
        td_apiset_find(m, m->contracts[i].name);
    td_apiset_find(m, "api-ms-win-core-synch-l1-2-0.dll");
    td_apiset_find(m, "kernel32.dll");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_apiset_map m;
    if (td_apiset_parse(data, size, &arena, &m, &err) == 0)
        look_up(&m);
    td_err_clear(&err);
    if (td_apiset_parse_pe(data, size, &arena, &m, &err) == 0)
        look_up(&m);
    td_arena_free(&arena);
    return 0;
}
