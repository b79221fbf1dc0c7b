/* Addresses to file offsets through the program headers that elf.c has
 * read: the lowest step of the ELF reader after the headers, used by the
 * dynamic section's reader (elf_dynamic.c) and by symbol binding. Headers
 * -> segments -> dynamic, never back. */
#include "format/elf.h"

bool td_elf_vaddr_to_offset(const struct td_elf *elf, uint64_t vaddr, uint64_t len,
                            uint64_t *offset, uint64_t *avail)
{
    for (uint32_t i = 0; i < elf->phnum; i++) {
        const struct td_elf_phdr *p = &elf->phdrs[i];
        if (p->type != TD_PT_LOAD || vaddr < p->vaddr)
            continue;
        uint64_t delta = vaddr - p->vaddr;
        if (delta > p->filesz || len > p->filesz - delta)
            continue;
        uint64_t off;
        if (!td_add_u64(p->offset, delta, &off) || !td_buf_in_file(&elf->buf, off, len))
            continue;
        uint64_t seg_left = p->filesz - delta, file_left = elf->buf.size - off;
        *offset = off;
        if (avail)
            *avail = seg_left < file_left ? seg_left : file_left;
        return true;
    }
    return false;
}
