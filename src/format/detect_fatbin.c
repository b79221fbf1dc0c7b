/* The regions of a file that may hold fat binary containers
 * (detect_fatbin.h). */
#include "format/detect_fatbin.h"

#include <stdio.h>
#include <string.h>

enum {
    CONTAINER_MIN = 16, /* a container header */
    /* PE section characteristics (Microsoft PE format, "Section Flags"). */
    SCN_CNT_INITIALIZED_DATA = 0x40,
    SCN_MEM_EXECUTE = 0x20000000,
};

/* Loaded data sections whose contents the toolchain defines, where no
 * compiler places a byte array: unwind tables (System V x86-64 psABI,
 * "Unwind Table"; GCC's .gcc_except_table), the GOT, and data that needs
 * relocating (.data.rel.ro holds pointers; a container holds none).
 * Together 25 MB of the CUDA 13 libraries not searched. */
static bool never_holds_containers(const char *name)
{
    static const char *const names[] = {".eh_frame", ".eh_frame_hdr", ".gcc_except_table",
                                        ".got",      ".got.plt",      ".data.rel.ro"};
    for (size_t i = 0; name && i < sizeof names / sizeof *names; i++)
        if (strcmp(name, names[i]) == 0)
            return true;
    return false;
}

static bool is_primary(const char *name)
{
    return name && (strcmp(name, ".nv_fatbin") == 0 || strcmp(name, ".nv_fatb") == 0);
}

/* Appends [OFFSET, OFFSET + SIZE) named NAME. A searched region starts at
 * the first 8-byte-aligned file offset: containers are 8-aligned in
 * memory, and a loaded section's file offset is congruent to its address
 * modulo the page size. */
static void add(struct td_fatbin_regions *r, size_t cap, const char *name, uint64_t offset,
                uint64_t size)
{
    bool primary = is_primary(name);
    uint64_t skip = primary ? 0 : (8 - offset % 8) % 8;
    if (r->count == cap || size < CONTAINER_MIN + skip)
        return;
    r->list[r->count++] = (struct td_fatbin_region){
        .name = name, .offset = offset + skip, .size = size - skip, .primary = primary};
}

/* Moves the fat binary section, if any, to the front. */
static void primary_first(struct td_fatbin_regions *r)
{
    for (size_t i = 1; i < r->count; i++)
        if (r->list[i].primary) {
            struct td_fatbin_region p = r->list[i];
            memmove(r->list + 1, r->list, i * sizeof *r->list);
            r->list[0] = p;
            return;
        }
}

static bool alloc_list(struct td_fatbin_regions *out, size_t cap, struct td_arena *arena,
                       struct td_err *err)
{
    out->count = 0;
    out->list = td_arena_array(arena, cap ? cap : 1, sizeof *out->list);
    if (!out->list)
        td_err_set(err, "fat binary regions: out of memory for %zu sections", cap);
    return out->list != NULL;
}

/* An ELF without a section table: its loaded, non-executable segments. */
static void elf_segments(const struct td_elf *elf, struct td_arena *arena,
                         struct td_fatbin_regions *out)
{
    for (uint32_t i = 0; i < elf->phnum; i++) {
        const struct td_elf_phdr *p = &elf->phdrs[i];
        if (p->type != TD_PT_LOAD || (p->flags & TD_PF_X) ||
            !td_buf_in_file(&elf->buf, p->offset, p->filesz))
            continue;
        char name[32];
        snprintf(name, sizeof name, "segment %u", i);
        add(out, elf->phnum, td_arena_strdup(arena, name), p->offset, p->filesz);
    }
}

int td_fatbin_regions_elf(const struct td_elf *elf, struct td_arena *arena,
                          struct td_fatbin_regions *out, struct td_err *err)
{
    size_t cap = elf->sections_valid ? elf->section_count : elf->phnum;
    if (!alloc_list(out, cap, arena, err))
        return -1;
    if (!elf->sections_valid) {
        elf_segments(elf, arena, out);
        return 0;
    }
    for (uint64_t i = 1; i < elf->section_count; i++) {
        struct td_elf_section s;
        if (!td_elf_section_at(elf, i, &s) || s.type == TD_SHT_NOBITS ||
            !td_buf_in_file(&elf->buf, s.offset, s.size))
            continue;
        bool data = s.type == TD_SHT_PROGBITS && (s.flags & TD_SHF_ALLOC) &&
                    !(s.flags & TD_SHF_EXECINSTR) && !never_holds_containers(s.name);
        if (!data && !is_primary(s.name)) /* however it was added (objcopy --add-section) */
            continue;
        add(out, cap, s.name ? s.name : "(unnamed)", s.offset, s.size);
    }
    primary_first(out);
    return 0;
}

int td_fatbin_regions_pe(const struct td_pe *pe, struct td_arena *arena,
                         struct td_fatbin_regions *out, struct td_err *err)
{
    if (!alloc_list(out, pe->nsections, arena, err))
        return -1;
    for (uint16_t i = 0; i < pe->nsections; i++) {
        const struct td_pe_section *s = &pe->sections[i];
        bool in_file = td_buf_in_file(&pe->buf, s->raw_offset, s->raw_size);
        if (is_primary(s->name) && !in_file) {
            td_err_set(err, "section %s: %u bytes at offset 0x%x run past the end of the file",
                       s->name, s->raw_size, s->raw_offset);
            return -1;
        }
        bool data = (s->characteristics & SCN_CNT_INITIALIZED_DATA) &&
                    !(s->characteristics & SCN_MEM_EXECUTE);
        if (!in_file || (!data && !is_primary(s->name)))
            continue;
        add(out, pe->nsections, s->name ? s->name : "(unnamed)", s->raw_offset, s->raw_size);
    }
    primary_first(out);
    return 0;
}
