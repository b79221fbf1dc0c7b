/* libFuzzer target for finding and walking the fat binary containers of a
 * whole file, as inspect and check's GPU-code check do: the input is an
 * ELF or PE file; every region that may hold containers is read, the fat
 * binary section as containers only, the others searched, both from the
 * buffer and through a read callback, which must agree. */
#include <stdint.h>
#include <string.h>

#include "format/detect.h"
#include "format/detect_fatbin.h"
#include "format/fatbin.h"

static bool count(const struct td_fatbin_entry *e, void *ctx)
{
    char name[32];
    td_fatbin_arch_name(e, name, sizeof name);
    (*(size_t *)ctx)++;
    return true;
}

static bool read_input(void *src, uint64_t off, void *out, size_t n)
{
    memcpy(out, (const uint8_t *)src + off, n);
    return true;
}

static void scan_region(const uint8_t *data, const struct td_fatbin_region *g)
{
    struct td_fatbin_scan a = {0}, b = {0};
    struct td_err ea = {0}, eb = {0};
    size_t na = 0, nb = 0;
    const uint8_t *p = data + g->offset;
    int ra = td_fatbin_scan(p, (size_t)g->size, g->primary, count, &na, &a, &ea);
    int rb = td_fatbin_scan_read(read_input, (void *)p, g->size, g->primary, count, &nb, &b, &eb);
    if (ra != rb || na != nb || a.containers != b.containers)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 16 << 20};
    struct td_err err = {0};
    struct td_fatbin_regions r = {0};
    int rc = -1;
    enum td_file_kind kind = td_detect(data, size);
    if (kind == TD_FILE_ELF) {
        struct td_elf elf;
        rc = td_elf_parse_headers(&elf, data, size, &arena, &err) == 0
                 ? td_fatbin_regions_elf(&elf, &arena, &r, &err)
                 : -1;
    } else if (kind == TD_FILE_PE) {
        struct td_pe pe;
        rc = td_pe_parse(&pe, data, size, &arena, &err) == 0
                 ? td_fatbin_regions_pe(&pe, &arena, &r, &err)
                 : -1;
    }
    for (size_t i = 0; rc == 0 && i < r.count; i++)
        scan_region(data, &r.list[i]);
    td_arena_free(&arena);
    return 0;
}
