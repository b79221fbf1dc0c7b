/* libFuzzer target for the zip reader: opens the input as an archive,
 * reads every member (capped), parses any RECORD, WHEEL and METADATA found,
 * and otherwise parses the input as a wheel file name, RECORD and METADATA. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/zip.h"

enum { MEMBER_CAP = 64 << 10 }; /* keeps executions fast; small members reach every check */

static int discard(void *ctx, const uint8_t *chunk, size_t len)
{
    (void)chunk;
    *(size_t *)ctx += len;
    return *(size_t *)ctx > MEMBER_CAP; /* stop huge members early */
}

static bool ends_with(const struct td_zip_entry *e, const char *suffix)
{
    size_t n = strlen(suffix);
    return e->name_len >= n && memcmp(e->name + e->name_len - n, suffix, n) == 0;
}

static void parse_text_member(const struct td_zip_entry *e, const uint8_t *text, size_t len,
                              struct td_arena *arena)
{
    struct td_err err = {0};
    if (ends_with(e, "RECORD")) {
        struct td_record r;
        if (td_record_parse(&r, (const char *)text, len, arena, &err) >= 0 && r.count)
            td_record_find(&r, r.rows[0].path, r.rows[0].path_len);
    } else if (ends_with(e, "WHEEL")) {
        struct td_zip_wheel_file w;
        td_zip_wheel_parse_wheel(&w, (const char *)text, len, arena, &err);
    } else if (ends_with(e, "METADATA")) {
        struct td_zip_metadata m;
        td_zip_wheel_parse_metadata(&m, (const char *)text, len, arena, &err);
    }
}

static void read_members(struct td_zip *z, struct td_arena *arena)
{
    for (size_t i = 0; i < z->count; i++) {
        const struct td_zip_entry *e = &z->entries[i];
        struct td_err err = {0};
        size_t streamed = 0;
        td_zip_stream(z, e, discard, &streamed, &err);
        td_zip_find(z, e->name, e->name_len);
        td_zip_is_symlink(e);
        td_zip_is_dir(e);
        if (e->uncompressed_size > MEMBER_CAP)
            continue;
        uint8_t *out = malloc((size_t)e->uncompressed_size + 1);
        if (out && td_zip_extract(z, e, out, (size_t)e->uncompressed_size, &err) == 0)
            parse_text_member(e, out, (size_t)e->uncompressed_size, arena);
        free(out);
    }
    const char *dir;
    struct td_err err = {0};
    td_zip_wheel_dist_info(z, &dir, arena, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_zip z;
    if (td_zip_open(&z, data, size, &arena, &err) == 0) {
        read_members(&z, &arena);
        td_arena_free(&arena);
        return 0;
    }
    /* Not an archive: the input is text for the other parsers. */

    const uint8_t *nl = memchr(data, '\n', size);
    size_t first = nl ? (size_t)(nl - data) : size;
    struct td_zip_wheel_name w;
    td_zip_wheel_parse_name(&w, (const char *)data, first, &arena, &err);
    struct td_record r;
    td_record_parse(&r, (const char *)data, size, &arena, &err);
    struct td_zip_metadata m;
    td_zip_wheel_parse_metadata(&m, (const char *)data, size, &arena, &err);
    td_arena_free(&arena);
    return 0;
}
