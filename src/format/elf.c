/* ELF reader, part 1: the ELF header, program headers (PT_INTERP, PT_NOTE
 * build-id, PT_GNU_STACK), optional section header sanity and the
 * virtual-address to file-offset translation through PT_LOAD. */
#include "format/elf.h"

#include <string.h>

enum {
    EHDR32_SIZE = 52,
    EHDR64_SIZE = 64,
    PHDR32_SIZE = 32,
    PHDR64_SIZE = 56,
    SHDR32_SIZE = 40,
    SHDR64_SIZE = 64,
    PN_XNUM = 0xffff,
    NT_GNU_BUILD_ID = 3,
};

/* Field offsets that differ between ELFCLASS32 and ELFCLASS64 (gABI ch. 4). */
struct ehdr_layout {
    unsigned entry, phoff, shoff, flags, phentsize, phnum, shentsize, shnum, size;
};

static const struct ehdr_layout EHDR32 = {24, 28, 32, 36, 42, 44, 46, 48, EHDR32_SIZE};
static const struct ehdr_layout EHDR64 = {24, 32, 40, 48, 54, 56, 58, 60, EHDR64_SIZE};

static unsigned word_size(const struct td_elf *elf)
{
    return elf->is64 ? 8 : 4;
}

static uint64_t read_word(const struct td_elf *elf, uint64_t off)
{
    uint64_t v = 0;
    td_buf_word(&elf->buf, off, word_size(elf), &v);
    return v;
}

bool td_elf_is_elf(const uint8_t *data, size_t size)
{
    return size >= 4 && memcmp(data, "\177ELF", 4) == 0;
}

bool td_elf_is_program(const struct td_elf *elf)
{
    if (elf->type == TD_ET_EXEC)
        return true;
    return elf->type == TD_ET_DYN &&
           ((elf->dyn.flags_1 & TD_DF_1_PIE) || (elf->interp != NULL && elf->soname == NULL));
}

static int parse_ident(struct td_elf *elf, struct td_buf buf, struct td_err *err)
{
    const uint8_t *magic = td_buf_at(&buf, 0, 4), *data = td_buf_at(&buf, 0, 16);
    if (!magic || memcmp(magic, "\177ELF", 4) != 0) {
        td_err_set(err, "ELF header at offset 0x0: no ELF magic");
        return -1;
    }
    if (!data) {
        td_err_set(err, "ELF header at offset 0x0: e_ident truncated (file is %zu bytes)",
                   buf.size);
        return -1;
    }
    uint8_t cls = data[4], enc = data[5];
    if (cls != 1 && cls != 2) {
        td_err_set(err, "ELF header at offset 0x4: EI_CLASS %u is neither ELFCLASS32 nor 64", cls);
        return -1;
    }
    if (enc != 1 && enc != 2) {
        td_err_set(err, "ELF header at offset 0x5: EI_DATA %u is neither LSB nor MSB", enc);
        return -1;
    }
    elf->is64 = cls == 2;
    elf->big_endian = enc == 2;
    elf->osabi = data[7];
    elf->abiversion = data[8];
    elf->buf = buf;
    elf->buf.big_endian = elf->big_endian;
    return 0;
}

/* Reads one program header; PHDR points at its first byte (already checked). */
static void read_phdr(const struct td_elf *elf, uint64_t at, struct td_elf_phdr *p)
{
    p->type = td_elf_u32(elf, at);
    if (elf->is64) {
        p->flags = td_elf_u32(elf, at + 4);
        p->offset = read_word(elf, at + 8);
        p->vaddr = read_word(elf, at + 16);
        p->filesz = read_word(elf, at + 32);
        p->memsz = read_word(elf, at + 40);
        p->align = read_word(elf, at + 48);
    } else {
        p->offset = read_word(elf, at + 4);
        p->vaddr = read_word(elf, at + 8);
        p->filesz = read_word(elf, at + 16);
        p->memsz = read_word(elf, at + 20);
        p->flags = td_elf_u32(elf, at + 24);
        p->align = read_word(elf, at + 28);
    }
}

/* gABI "Extended Section Numbering": section header 0 holds the real
 * e_phnum in sh_info when e_phnum is PN_XNUM, and e_shnum in sh_size when
 * e_shnum is 0. Returns false when section 0 is unreadable. */
static bool read_section0(const struct td_elf *elf, uint64_t shoff, uint64_t *sh_size,
                          uint32_t *sh_info)
{
    unsigned need = elf->is64 ? SHDR64_SIZE : SHDR32_SIZE;
    if (shoff == 0 || !td_buf_has(&elf->buf, shoff, need))
        return false;
    *sh_size = read_word(elf, shoff + (elf->is64 ? 32 : 20));
    *sh_info = td_elf_u32(elf, shoff + (elf->is64 ? 44 : 28));
    return true;
}

static void check_sections(struct td_elf *elf, const struct ehdr_layout *L)
{
    uint64_t shoff = read_word(elf, L->shoff);
    uint64_t shnum = td_elf_u16(elf, L->shnum);
    uint16_t shentsize = td_elf_u16(elf, L->shentsize);
    uint64_t sh_size;
    uint32_t sh_info;
    if (shoff == 0)
        return;
    if (shnum == 0 && read_section0(elf, shoff, &sh_size, &sh_info))
        shnum = sh_size;
    if (shentsize < (elf->is64 ? SHDR64_SIZE : SHDR32_SIZE) || shnum == 0 || shnum > UINT32_MAX)
        return;
    uint64_t bytes; /* where the table is; it is read only on demand */
    if (!td_mul_u64(shnum, shentsize, &bytes) || !td_buf_in_file(&elf->buf, shoff, bytes))
        return;
    elf->sections_valid = true;
    elf->section_count = (uint32_t)shnum;
    elf->section_offset = shoff;
    elf->section_entsize = shentsize;
}

static int parse_phdrs(struct td_elf *elf, const struct ehdr_layout *L, struct td_arena *arena,
                       struct td_err *err)
{
    uint64_t phoff = read_word(elf, L->phoff);
    uint64_t phnum = td_elf_u16(elf, L->phnum);
    uint16_t phentsize = td_elf_u16(elf, L->phentsize);
    unsigned need = elf->is64 ? PHDR64_SIZE : PHDR32_SIZE;
    if (phnum == PN_XNUM) {
        uint64_t sh_size;
        uint32_t sh_info;
        if (!read_section0(elf, read_word(elf, L->shoff), &sh_size, &sh_info)) {
            td_err_set(err, "ELF header at offset 0x0: e_phnum is PN_XNUM but section header 0 "
                            "is unreadable");
            return -1;
        }
        phnum = sh_info;
    }
    if (phnum == 0)
        return 0;
    if (phentsize < need) {
        td_err_set(err, "ELF header at offset 0x%x: e_phentsize %u is smaller than %u",
                   L->phentsize, phentsize, need);
        return -1;
    }
    if (!td_buf_has_array(&elf->buf, phoff, phnum, phentsize)) {
        td_err_set(err,
                   "program headers at offset 0x%llx: %llu entries of %u bytes run past the end "
                   "of the file (size 0x%zx)",
                   (unsigned long long)phoff, (unsigned long long)phnum, phentsize, elf->buf.size);
        return -1;
    }
    elf->phdrs = td_arena_array(arena, (size_t)phnum, sizeof *elf->phdrs);
    if (!elf->phdrs) {
        td_err_set(err, "program headers at offset 0x%llx: arena cap reached",
                   (unsigned long long)phoff);
        return -1;
    }
    elf->phnum = (uint32_t)phnum;
    for (uint64_t i = 0; i < phnum; i++)
        read_phdr(elf, phoff + i * phentsize, &elf->phdrs[i]);
    return 0;
}

static int parse_interp(struct td_elf *elf, const struct td_elf_phdr *p, struct td_err *err)
{
    const char *s = NULL;
    if (td_buf_has(&elf->buf, p->offset, p->filesz) && p->filesz > 0)
        s = td_buf_cstr(&elf->buf, p->offset, (size_t)p->filesz);
    if (!s) {
        td_err_set(err,
                   "PT_INTERP at offset 0x%llx: %llu bytes are outside the file or hold no "
                   "terminated string",
                   (unsigned long long)p->offset, (unsigned long long)p->filesz);
        return -1;
    }
    elf->interp = s;
    return 0;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return (v + a - 1) & ~(a - 1);
}

static char *hex_string(const uint8_t *bytes, uint32_t n, struct td_arena *arena)
{
    static const char digits[] = "0123456789abcdef";
    char *s = td_arena_alloc(arena, (size_t)n * 2 + 1);
    if (!s)
        return NULL;
    for (uint32_t i = 0; i < n; i++) {
        s[2 * i] = digits[bytes[i] >> 4];
        s[2 * i + 1] = digits[bytes[i] & 15];
    }
    return s;
}

/* Walks the notes of one PT_NOTE segment looking for NT_GNU_BUILD_ID.
 * gABI "Note Section": namesz, descsz, type, then name and desc; desc and
 * the next note start at offsets from the note aligned to the segment's
 * alignment (4, or 8 for GNU property notes; glibc ELF_NOTE_DESC_OFFSET). */
static int parse_notes(struct td_elf *elf, const struct td_elf_phdr *p, struct td_arena *arena,
                       struct td_err *err)
{
    uint64_t align = p->align == 8 ? 8 : 4;
    uint64_t end;
    if (!td_add_u64(p->offset, p->filesz, &end) || !td_buf_has(&elf->buf, p->offset, p->filesz)) {
        td_err_set(err, "PT_NOTE at offset 0x%llx: %llu bytes run past the end of the file",
                   (unsigned long long)p->offset, (unsigned long long)p->filesz);
        return -1;
    }
    uint64_t at = p->offset;
    while (at < end && end - at >= 12) { /* each step advances by at least 12 bytes */
        uint32_t namesz = td_elf_u32(elf, at), descsz = td_elf_u32(elf, at + 4);
        uint32_t type = td_elf_u32(elf, at + 8);
        uint64_t name_at = at + 12;
        uint64_t desc_at = at + align_up(12 + (uint64_t)namesz, align);
        uint64_t desc_end = desc_at + descsz;
        uint64_t next = at + align_up(desc_end - at, align);
        if (desc_end > end) {
            td_err_set(err, "note at offset 0x%llx: sizes %u + %u run past its PT_NOTE segment",
                       (unsigned long long)at, namesz, descsz);
            return -1;
        }
        const uint8_t *name = NULL, *desc = NULL;
        if (type == NT_GNU_BUILD_ID && namesz == 4 && !elf->build_id) {
            name = td_buf_at(&elf->buf, name_at, 4);
            desc = td_buf_at(&elf->buf, desc_at, descsz);
        }
        if (name && desc && memcmp(name, "GNU", 4) == 0) {
            elf->build_id = hex_string(desc, descsz, arena);
            if (!elf->build_id) {
                td_err_set(err, "note at offset 0x%llx: arena cap reached", (unsigned long long)at);
                return -1;
            }
        }
        at = next; /* the last note's padding may run past the segment */
    }
    return 0;
}

static int parse_segments(struct td_elf *elf, struct td_arena *arena, struct td_err *err)
{
    for (uint32_t i = 0; i < elf->phnum; i++) {
        const struct td_elf_phdr *p = &elf->phdrs[i];
        int rc = 0;
        if (p->type == TD_PT_INTERP && !elf->interp)
            rc = parse_interp(elf, p, err);
        else if (p->type == TD_PT_NOTE)
            rc = parse_notes(elf, p, arena, err);
        else if (p->type == TD_PT_GNU_STACK) {
            elf->has_gnu_stack = true;
            elf->gnu_stack_flags = p->flags;
        }
        if (rc)
            return rc;
    }
    return 0;
}

static int parse(struct td_elf *elf, struct td_buf buf, struct td_arena *arena, bool symbols,
                 struct td_err *err)
{
    memset(elf, 0, sizeof *elf);
    if (parse_ident(elf, buf, err))
        return -1;
    const struct ehdr_layout *L = elf->is64 ? &EHDR64 : &EHDR32;
    if (buf.size < L->size) {
        td_err_set(err, "ELF header at offset 0x0: %u bytes needed, file is %zu", L->size,
                   buf.size);
        return -1;
    }
    elf->type = td_elf_u16(elf, 16);
    elf->machine = td_elf_u16(elf, 18);
    elf->entry = read_word(elf, L->entry);
    elf->flags = td_elf_u32(elf, L->flags);
    check_sections(elf, L);
    if (parse_phdrs(elf, L, arena, err) || parse_segments(elf, arena, err) ||
        td_elf_parse_dynamic(elf, arena, err) || (symbols && td_elf_parse_hash_tables(elf, err)) ||
        td_elf_parse_versions(elf, arena, err))
        return -1;
    if (!symbols && elf->dyn.symtab)
        elf->symcount_source = TD_ELF_SYMCOUNT_NOT_PARSED;
    return 0;
}

int td_elf_parse(struct td_elf *elf, const uint8_t *data, size_t size, struct td_arena *arena,
                 struct td_err *err)
{
    return parse(elf, td_buf_make(data, size, false), arena, true, err);
}

int td_elf_parse_headers(struct td_elf *elf, const uint8_t *data, size_t size,
                         struct td_arena *arena, struct td_err *err)
{
    return parse(elf, td_buf_make(data, size, false), arena, false, err);
}

int td_elf_parse_buf(struct td_elf *elf, struct td_buf buf, bool symbols, struct td_arena *arena,
                     struct td_err *err)
{
    return parse(elf, buf, arena, symbols, err);
}
