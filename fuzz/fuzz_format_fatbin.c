/* libFuzzer target for finding and walking the fat binary of a whole file,
 * as inspect and check's GPU-code check do: the input is an ELF or PE
 * file; its .nv_fatbin / .nv_fatb section, when it has one, is walked. */
#include <stdint.h>

#include "format/detect.h"
#include "format/detect_fatbin.h"
#include "format/fatbin.h"

static bool name_it(const struct td_fatbin_entry *e, void *ctx)
{
    char name[32];
    (void)ctx;
    td_fatbin_arch_name(e, name, sizeof name);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_fatbin_section s;
    bool found = false;
    enum td_file_kind kind = td_detect(data, size);
    if (kind == TD_FILE_ELF) {
        struct td_elf elf;
        found = td_elf_parse_headers(&elf, data, size, &arena, &err) == 0 &&
                td_fatbin_section_elf(&elf, &s, &err);
    } else if (kind == TD_FILE_PE) {
        struct td_pe pe;
        found =
            td_pe_parse(&pe, data, size, &arena, &err) == 0 && td_fatbin_section_pe(&pe, &s, &err);
    }
    if (found)
        td_fatbin_walk(s.data, s.size, name_it, NULL, &err);
    td_arena_free(&arena);
    return 0;
}
