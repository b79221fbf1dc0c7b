/* libFuzzer target for inspect's description of an ELF file: parse, then
 * write the JSON view with every symbol listed (the rows written a fixed
 * piece and a name body at a time: names with bytes to escape, names that
 * end at the string table's end) and the text view, into memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/inspect.h"
#include "report/view.h"

static void describe(const uint8_t *data, size_t size, enum td_view_kind kind, bool symbols)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_elf elf;
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        return;
    if (td_elf_parse(&elf, data, size, &arena, &err) == 0) {
        struct td_view v;
        struct td_inspect_opts o = {.symbols = symbols};
        td_view_init(&v, kind, out, "never");
        if (kind == TD_VIEW_JSON)
            td_jw_begin_array(&v.json);
        td_view_begin(&v, NULL, "fuzz");
        td_inspect_elf(&v, &elf, &o, &arena, &err);
        td_view_end(&v);
        if (kind == TD_VIEW_JSON) {
            td_jw_end_array(&v.json);
            td_jw_finish(&v.json);
        }
    }
    fclose(out);
    free(text);
    td_arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    describe(data, size, TD_VIEW_JSON, true);
    describe(data, size, TD_VIEW_TEXT, true);
    return 0;
}
