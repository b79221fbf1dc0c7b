/* PE exports (PE spec §6.3): the export directory table, the export
 * address table with forwarders, and the name pointer / ordinal tables, with
 * lookups by name (binary search) and by ordinal. */
#include "format/pe.h"

#include <string.h>

enum {
    EXPORT_DIR_SIZE = 40,
    SYMBOL_NAME_LIMIT = 32768 /* bounds the scan of an unterminated name */
};

static int table_offset(const struct td_pe *pe, uint32_t rva, uint32_t count, unsigned width,
                        const char *what, uint64_t dir_off, uint64_t *off, struct td_err *err)
{
    uint64_t avail;
    *off = 0;
    if (count == 0)
        return 0;
    if (!td_pe_rva_to_offset(pe, rva, width, off, &avail) || avail / width < count) {
        td_err_set(err,
                   "export directory at offset 0x%llx: %s (RVA 0x%x, %u entries) is not "
                   "backed by the file",
                   (unsigned long long)dir_off, what, rva, count);
        return -1;
    }
    return 0;
}

static int map_names_to_functions(const struct td_pe *pe, struct td_pe_exports *ex,
                                  uint64_t dir_off, struct td_err *err)
{
    ex->name_of = td_arena_array(pe->arena, ex->nfunctions ? ex->nfunctions : 1, sizeof(uint32_t));
    if (!ex->name_of) {
        td_err_set(err,
                   "export directory at offset 0x%llx: NumberOfFunctions %u exceeds the arena "
                   "cap",
                   (unsigned long long)dir_off, ex->nfunctions);
        return -1;
    }
    memset(ex->name_of, 0xff, (size_t)ex->nfunctions * sizeof(uint32_t));
    for (uint32_t i = 0; i < ex->nnames; i++) {
        uint16_t index;
        td_buf_u16(&pe->buf, ex->ordinals_offset + (uint64_t)i * 2, &index);
        /* The ordinal table holds unbiased indexes into the address table. */
        if (index < ex->nfunctions && ex->name_of[index] == UINT32_MAX)
            ex->name_of[index] = i;
    }
    return 0;
}

int td_pe_exports(const struct td_pe *pe, struct td_pe_exports *ex, struct td_err *err)
{
    uint64_t off;
    uint32_t name_rva, functions_rva, names_rva, ordinals_rva;
    memset(ex, 0, sizeof *ex);
    if (!td_pe_has_dir(pe, TD_PE_DIR_EXPORT))
        return 0;
    ex->dir_rva = pe->dirs[TD_PE_DIR_EXPORT].rva;
    ex->dir_size = pe->dirs[TD_PE_DIR_EXPORT].size;
    if (!td_pe_rva_to_offset(pe, ex->dir_rva, EXPORT_DIR_SIZE, &off, NULL)) {
        td_err_set(err, "export directory: RVA 0x%x is not backed by the file", ex->dir_rva);
        return -1;
    }
    td_buf_u32(&pe->buf, off + 4, &ex->timestamp);
    td_buf_u32(&pe->buf, off + 12, &name_rva);
    td_buf_u32(&pe->buf, off + 16, &ex->ordinal_base);
    td_buf_u32(&pe->buf, off + 20, &ex->nfunctions);
    td_buf_u32(&pe->buf, off + 24, &ex->nnames);
    td_buf_u32(&pe->buf, off + 28, &functions_rva);
    td_buf_u32(&pe->buf, off + 32, &names_rva);
    td_buf_u32(&pe->buf, off + 36, &ordinals_rva);
    if (name_rva && !(ex->dll_name = td_pe_string_at_rva(pe, name_rva, 1024))) {
        td_err_set(err,
                   "export directory at offset 0x%llx: Name RVA 0x%x is not a string in "
                   "the file",
                   (unsigned long long)off, name_rva);
        return -1;
    }
    if (table_offset(pe, functions_rva, ex->nfunctions, 4, "export address table", off,
                     &ex->functions_offset, err) ||
        table_offset(pe, names_rva, ex->nnames, 4, "name pointer table", off, &ex->names_offset,
                     err) ||
        table_offset(pe, ordinals_rva, ex->nnames, 2, "ordinal table", off, &ex->ordinals_offset,
                     err))
        return -1;
    if (map_names_to_functions(pe, ex, off, err) != 0)
        return -1;
    ex->present = true;
    return 0;
}

static const char *name_at(const struct td_pe *pe, const struct td_pe_exports *ex, uint32_t i)
{
    uint32_t rva;
    if (i >= ex->nnames || !td_buf_u32(&pe->buf, ex->names_offset + (uint64_t)i * 4, &rva))
        return NULL;
    return td_pe_string_at_rva(pe, rva, SYMBOL_NAME_LIMIT);
}

int td_pe_export_at(const struct td_pe *pe, const struct td_pe_exports *ex, uint32_t index,
                    struct td_pe_export *out, struct td_err *err)
{
    memset(out, 0, sizeof *out);
    if (!ex->present || index >= ex->nfunctions) {
        td_err_set(err, "export address table: index %u is out of range (%u functions)", index,
                   ex->nfunctions);
        return -1;
    }
    out->ordinal = ex->ordinal_base + index;
    td_buf_u32(&pe->buf, ex->functions_offset + (uint64_t)index * 4, &out->rva);
    if (ex->name_of[index] != UINT32_MAX && !(out->name = name_at(pe, ex, ex->name_of[index]))) {
        td_err_set(err,
                   "export name pointer table at offset 0x%llx: entry %u (ordinal %u) is not "
                   "a string in the file",
                   (unsigned long long)ex->names_offset, ex->name_of[index], out->ordinal);
        return -1;
    }
    /* PE spec §6.3.2: an address inside the export directory is a forwarder
     * string ("NTDLL.RtlAllocateHeap" or "NTDLL.#12"), not code. */
    uint64_t dir_end = (uint64_t)ex->dir_rva + ex->dir_size;
    if (out->rva >= ex->dir_rva && out->rva < dir_end) {
        out->forwarder = td_pe_string_at_rva(pe, out->rva, (size_t)(dir_end - out->rva));
        if (!out->forwarder) {
            td_err_set(err,
                       "export address table at offset 0x%llx: forwarder of ordinal %u at "
                       "RVA 0x%x is not a string inside the export directory",
                       (unsigned long long)ex->functions_offset, out->ordinal, out->rva);
            return -1;
        }
    }
    return 0;
}

static bool export_for_name_index(const struct td_pe *pe, const struct td_pe_exports *ex,
                                  uint32_t i, struct td_pe_export *out)
{
    uint16_t index;
    struct td_err ignored = {0};
    if (!td_buf_u16(&pe->buf, ex->ordinals_offset + (uint64_t)i * 2, &index))
        return false;
    if (td_pe_export_at(pe, ex, index, out, &ignored) != 0)
        return false;
    out->name = name_at(pe, ex, i); /* the name asked for, even when aliases share the slot */
    return out->rva != 0;
}

bool td_pe_export_by_name(const struct td_pe *pe, const struct td_pe_exports *ex, const char *name,
                          struct td_pe_export *out)
{
    if (!ex->present)
        return false;
    /* PE spec §6.3.3: the name pointer table is sorted (lexically, by byte
     * value) so the loader can binary-search it. */
    uint32_t lo = 0, hi = ex->nnames;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        const char *s = name_at(pe, ex, mid);
        if (!s)
            break;
        int c = strcmp(name, s);
        if (c == 0)
            return export_for_name_index(pe, ex, mid, out);
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    /* A miss may mean the table is not sorted (hand-made files): scan it. */
    for (uint32_t i = 0; i < ex->nnames; i++) {
        const char *s = name_at(pe, ex, i);
        if (s && strcmp(name, s) == 0)
            return export_for_name_index(pe, ex, i, out);
    }
    return false;
}

bool td_pe_export_by_ordinal(const struct td_pe *pe, const struct td_pe_exports *ex,
                             uint32_t ordinal, struct td_pe_export *out)
{
    struct td_err ignored = {0};
    if (!ex->present || ordinal < ex->ordinal_base || ordinal - ex->ordinal_base >= ex->nfunctions)
        return false;
    if (td_pe_export_at(pe, ex, ordinal - ex->ordinal_base, out, &ignored) != 0)
        return false;
    return out->rva != 0;
}
