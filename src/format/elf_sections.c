/* Section lookup by name through the section header table and its string
 * table (e_shstrndx). Optional for everything else the reader does: only
 * callers that want a non-loaded section (.nv_fatbin) use it. */
#include <string.h>

#include "format/elf.h"

enum { SHN_XINDEX = 0xffff };

/* One section header's fields at index I (already inside the table). */
static void read_shdr(const struct td_elf *elf, uint64_t i, struct td_elf_section *out,
                      uint32_t *name)
{
    uint64_t at = elf->section_offset + i * elf->section_entsize;
    unsigned w = elf->is64 ? 8 : 4;
    *name = td_elf_u32(elf, at);
    out->type = td_elf_u32(elf, at + 4);
    /* gABI Elf32_Shdr / Elf64_Shdr: sh_flags, sh_addr, sh_offset and
     * sh_size follow sh_type, each one word wide. */
    td_buf_word(&elf->buf, at + 8, w, &out->flags);
    td_buf_word(&elf->buf, at + 8 + w, w, &out->addr);
    td_buf_word(&elf->buf, at + 8 + 2 * w, w, &out->offset);
    td_buf_word(&elf->buf, at + 8 + 3 * w, w, &out->size);
}

/* The section name table (e_shstrndx's section) as a buffer; false when
 * it cannot be read. */
static bool section_names(const struct td_elf *elf, struct td_buf *names)
{
    /* e_shstrndx: offset 50 (ELF32) or 62 (ELF64); SHN_XINDEX moves it to
     * section 0's sh_link (gABI "Extended Section Numbering"). */
    uint64_t strndx = td_elf_u16(elf, elf->is64 ? 62 : 50);
    if (strndx == SHN_XINDEX)
        strndx = td_elf_u32(elf, elf->section_offset + (elf->is64 ? 40 : 24));
    if (strndx == 0 || strndx >= elf->section_count)
        return false;
    struct td_elf_section str;
    uint32_t ignored;
    read_shdr(elf, strndx, &str, &ignored);
    const uint8_t *bytes = td_buf_at(&elf->buf, str.offset, str.size);
    if (!bytes)
        return false;
    *names = td_buf_make(bytes, (size_t)str.size, elf->big_endian);
    return true;
}

bool td_elf_section_at(const struct td_elf *elf, uint64_t i, struct td_elf_section *out)
{
    memset(out, 0, sizeof *out);
    if (!elf->sections_valid || i == 0 || i >= elf->section_count)
        return false;
    uint32_t name;
    read_shdr(elf, i, out, &name);
    struct td_buf names;
    if (section_names(elf, &names))
        out->name = td_buf_cstr(&names, name, 0);
    return true;
}

bool td_elf_section_by_name(const struct td_elf *elf, const char *name, struct td_elf_section *out)
{
    memset(out, 0, sizeof *out);
    struct td_buf names;
    if (!elf->sections_valid || !section_names(elf, &names))
        return false;
    for (uint64_t i = 1; i < elf->section_count; i++) {
        uint32_t n;
        read_shdr(elf, i, out, &n);
        const char *s = td_buf_cstr(&names, n, 0);
        if (!s || strcmp(s, name) != 0)
            continue;
        if (out->type == TD_SHT_NOBITS || !td_buf_in_file(&elf->buf, out->offset, out->size)) {
            memset(out, 0, sizeof *out);
            return false;
        }
        out->name = s;
        return true;
    }
    memset(out, 0, sizeof *out);
    return false;
}
