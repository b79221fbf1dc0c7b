/* libFuzzer target for the GGUF header reader. */
#include <stdint.h>

#include "format/gguf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_buf b = td_buf_make(data, size, false);
    struct td_gguf g;
    if (td_gguf_parse(&g, &b, &arena, &err) == 0)
        td_gguf_type_name(g.tensor_count ? g.tensors[0].ggml_type : 0);
    td_arena_free(&arena);
    return 0;
}
