/* libFuzzer target for the fat binary reader: the input is a .nv_fatbin
 * section; every entry is named and the distinct architectures listed,
 * and the allocation-free walker, over memory and over reads, must agree
 * with the parser. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/fatbin.h"

static bool count(const struct td_fatbin_entry *e, void *ctx)
{
    (void)td_fatbin_compression_name(e->compression);
    (*(size_t *)ctx)++;
    return true;
}

/* A pread over the input; the walk must never ask past its end. */
static const uint8_t *input;
static size_t input_size;

static bool read_input(void *src, uint64_t off, void *out, size_t n)
{
    (void)src;
    if (off > input_size || n > input_size - off)
        abort();
    memcpy(out, input + off, n);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0}, walk_err = {0};
    struct td_fatbin fb;
    int rc = td_fatbin_parse(&fb, data, size, &arena, &err);
    char name[32];
    for (size_t i = 0; i < fb.count; i++)
        td_fatbin_arch_name(&fb.entries[i], name, sizeof name);
    const char **archs;
    td_fatbin_archs(&fb, &arena, &archs);
    size_t walked = 0;
    int walk_rc = td_fatbin_walk(data, size, count, &walked, &walk_err);
    bool out_of_memory = rc != 0 && !fb.entries && walked > 0;
    if (!out_of_memory && (walk_rc != rc || walked != fb.count))
        abort(); /* the walker and the parser read the same entries */
    struct td_err read_err = {0};
    size_t read_walked = 0;
    input = data, input_size = size;
    if (td_fatbin_walk_read(read_input, NULL, size, count, &read_walked, &read_err) != walk_rc ||
        read_walked != walked || strcmp(read_err.msg, walk_err.msg) != 0)
        abort(); /* by reads as by the mapping */
    td_arena_free(&arena);
    return 0;
}
