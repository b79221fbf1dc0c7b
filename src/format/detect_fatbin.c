/* Finding the fat binary section of an ELF or PE file (detect_fatbin.h). */
#include "format/detect_fatbin.h"

#include <string.h>

static bool section_at(const struct td_buf *b, const char *name, uint64_t offset, uint64_t size,
                       struct td_fatbin_section *out, struct td_err *err)
{
    const uint8_t *data = size ? td_buf_at(b, offset, size) : NULL;
    if (size && !data) {
        td_err_set(err, "section %s: %llu bytes at offset 0x%llx run past the end of the file",
                   name, (unsigned long long)size, (unsigned long long)offset);
        return false;
    }
    out->name = name;
    out->data = data;
    out->size = (size_t)size;
    return true;
}

bool td_fatbin_section_elf(const struct td_elf *elf, struct td_fatbin_section *out,
                           struct td_err *err)
{
    struct td_elf_section s;
    memset(out, 0, sizeof *out);
    /* A section header pointing outside the file is refused by
     * td_elf_section_by_name itself (the same as none). */
    if (td_elf_section_by_name(elf, ".nv_fatbin", &s))
        return section_at(&elf->buf, ".nv_fatbin", s.offset, s.size, out, err);
    return false;
}

bool td_fatbin_section_pe(const struct td_pe *pe, struct td_fatbin_section *out, struct td_err *err)
{
    memset(out, 0, sizeof *out);
    for (uint16_t i = 0; i < pe->nsections; i++) {
        const struct td_pe_section *s = &pe->sections[i];
        if (s->name && strcmp(s->name, ".nv_fatb") == 0)
            return section_at(&pe->buf, ".nv_fatb", s->raw_offset, s->raw_size, out, err);
    }
    return false;
}
