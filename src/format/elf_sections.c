/* Section lookup by name through the section header table and its string
 * table (e_shstrndx). Optional for everything else the reader does: only
 * callers that want a non-loaded section (.nv_fatbin) use it. */
#include <string.h>

#include "format/elf.h"

enum { SHN_XINDEX = 0xffff, SHT_NOBITS = 8 };

/* One section header's fields at index I (already inside the table). */
static void read_shdr(const struct td_elf *elf, uint64_t i, uint32_t *name, uint32_t *type,
                      uint64_t *addr, uint64_t *offset, uint64_t *size)
{
    uint64_t at = elf->section_offset + i * elf->section_entsize;
    unsigned w = elf->is64 ? 8 : 4;
    *name = td_elf_u32(elf, at);
    *type = td_elf_u32(elf, at + 4);
    /* gABI Elf32_Shdr / Elf64_Shdr: sh_addr, sh_offset and sh_size follow
     * sh_flags, each one word wide. */
    td_buf_word(&elf->buf, at + 8 + w, w, addr);
    td_buf_word(&elf->buf, at + 8 + 2 * w, w, offset);
    td_buf_word(&elf->buf, at + 8 + 3 * w, w, size);
}

/* The section name table: its bytes as a buffer, or false. */
static bool name_table(const struct td_elf *elf, struct td_buf *names)
{
    if (!elf->sections_valid)
        return false;
    /* e_shstrndx: offset 50 (ELF32) or 62 (ELF64); SHN_XINDEX moves it to
     * section 0's sh_link (gABI "Extended Section Numbering"). */
    uint64_t strndx = td_elf_u16(elf, elf->is64 ? 62 : 50);
    if (strndx == SHN_XINDEX)
        strndx = td_elf_u32(elf, elf->section_offset + (elf->is64 ? 40 : 24));
    if (strndx == 0 || strndx >= elf->section_count)
        return false;
    uint32_t n, t;
    uint64_t a, str_off, str_size;
    read_shdr(elf, strndx, &n, &t, &a, &str_off, &str_size);
    const uint8_t *str = td_buf_at(&elf->buf, str_off, str_size);
    if (!str)
        return false;
    *names = td_buf_make(str, (size_t)str_size, elf->big_endian);
    return true;
}

static bool section_at(const struct td_elf *elf, const struct td_buf *names, uint64_t i,
                       struct td_elf_section *out)
{
    uint32_t n, t;
    uint64_t addr, offset, size;
    read_shdr(elf, i, &n, &t, &addr, &offset, &size);
    const char *s = td_buf_cstr(names, n, 0);
    if (!s)
        return false;
    out->name = s;
    out->type = t;
    out->addr = addr;
    out->offset = offset;
    out->size = size;
    return true;
}

bool td_elf_section_by_name(const struct td_elf *elf, const char *name, struct td_elf_section *out)
{
    memset(out, 0, sizeof *out);
    struct td_buf names;
    if (!name_table(elf, &names))
        return false;
    for (uint64_t i = 1; i < elf->section_count; i++) {
        struct td_elf_section s;
        if (!section_at(elf, &names, i, &s) || strcmp(s.name, name) != 0)
            continue;
        if (s.type == SHT_NOBITS || !td_buf_in_file(&elf->buf, s.offset, s.size))
            return false;
        *out = s;
        return true;
    }
    return false;
}

int td_elf_sections_walk(const struct td_elf *elf,
                         bool (*visit)(const struct td_elf_section *s, void *ctx), void *ctx)
{
    struct td_buf names;
    if (!name_table(elf, &names))
        return -1;
    for (uint64_t i = 1; i < elf->section_count; i++) {
        struct td_elf_section s;
        if (section_at(elf, &names, i, &s) && !visit(&s, ctx))
            break;
    }
    return 0;
}
