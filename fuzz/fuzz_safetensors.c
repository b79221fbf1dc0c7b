/* libFuzzer target for the safetensors header reader: the input is a whole
 * file, and again a file whose size claims more data than the input holds
 * (the tensors beyond the header are never read). */
#include <stdint.h>

#include "format/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_safetensors s;
    td_safetensors_parse(&s, data, size, size, &arena, &err);
    td_err_clear(&err);
    td_safetensors_parse(&s, data, size, (uint64_t)size << 8, &arena, &err);
    td_arena_free(&arena);
    return 0;
}
