/* PE imports: the import directory (PE spec §6.4), the delay-load import
 * directory (§5.8) in its RVA-based and old VA-based forms, and the bound
 * import directory. DLLs are listed into the arena; functions are read on
 * demand from the lookup tables, so nothing per symbol is allocated. */
#include "format/pe.h"

#include <string.h>

enum {
    IMPORT_DESCRIPTOR_SIZE = 20,
    DELAY_DESCRIPTOR_SIZE = 32,
    BOUND_ENTRY_SIZE = 8,
    NAME_LIMIT = 1024,        /* DLL names: far beyond MAX_PATH */
    SYMBOL_NAME_LIMIT = 32768 /* bounds the scan of an unterminated name */
};

/* The fields of either descriptor kind that matter here. */
struct descriptor {
    uint32_t attributes, name, lookup, iat, timestamp;
};

static const char *dir_word(bool delay)
{
    return delay ? "delay-import" : "import";
}

static void read_descriptor(const struct td_pe *pe, bool delay, uint64_t at, struct descriptor *d)
{
    memset(d, 0, sizeof *d);
    if (delay) {
        /* IMAGE_DELAYLOAD_DESCRIPTOR: Attributes, DllNameRVA, ModuleHandleRVA,
         * ImportAddressTableRVA, ImportNameTableRVA, BoundIAT, UnloadIAT, TimeDateStamp. */
        td_buf_u32(&pe->buf, at, &d->attributes);
        td_buf_u32(&pe->buf, at + 4, &d->name);
        td_buf_u32(&pe->buf, at + 12, &d->iat);
        td_buf_u32(&pe->buf, at + 16, &d->lookup);
        td_buf_u32(&pe->buf, at + 28, &d->timestamp);
    } else {
        /* IMAGE_IMPORT_DESCRIPTOR: OriginalFirstThunk, TimeDateStamp,
         * ForwarderChain, Name, FirstThunk. */
        td_buf_u32(&pe->buf, at, &d->lookup);
        td_buf_u32(&pe->buf, at + 4, &d->timestamp);
        td_buf_u32(&pe->buf, at + 12, &d->name);
        td_buf_u32(&pe->buf, at + 16, &d->iat);
    }
}

/* The list ends at a descriptor without a name or an address table, as the
 * loader stops there (a zeroed descriptor is the documented terminator). */
static bool is_terminator(const struct descriptor *d)
{
    return d->name == 0 || d->iat == 0;
}

/* Old delay descriptors (Attributes bit 0 clear, PE spec §5.8.1) hold VAs. */
static bool to_rva(const struct td_pe *pe, bool va_based, uint64_t addr, uint64_t *rva)
{
    if (!va_based) {
        *rva = addr;
        return true;
    }
    if (addr < pe->image_base)
        return false;
    *rva = addr - pe->image_base;
    return true;
}

/* Counts lookup-table entries before the null entry, bounded by the section. */
static int count_thunks(const struct td_pe *pe, struct td_pe_import_dll *dll, uint64_t rva,
                        struct td_err *err)
{
    unsigned width = pe->pe32plus ? 8 : 4;
    uint64_t off, avail;
    if (!td_pe_rva_to_offset(pe, rva, width, &off, &avail)) {
        td_err_set(err,
                   "%s descriptor at offset 0x%llx (%s): lookup table RVA 0x%llx is not "
                   "backed by the file",
                   dir_word(dll->delay), (unsigned long long)dll->descriptor_offset, dll->name,
                   (unsigned long long)rva);
        return -1;
    }
    dll->thunks_offset = off;
    for (uint64_t i = 0; i < avail / width; i++) {
        uint64_t value;
        td_buf_word(&pe->buf, off + i * width, width, &value);
        if (value == 0) {
            dll->count = (size_t)i;
            return 0;
        }
    }
    td_err_set(err,
               "%s lookup table of %s at offset 0x%llx: no null terminator before the end "
               "of its section",
               dir_word(dll->delay), dll->name, (unsigned long long)off);
    return -1;
}

static int fill_dll(const struct td_pe *pe, bool delay, uint64_t at, const struct descriptor *d,
                    struct td_pe_import_dll *dll, struct td_err *err)
{
    uint64_t name_rva, lookup_rva;
    dll->delay = delay;
    dll->attributes = d->attributes;
    dll->va_based = delay && !(d->attributes & 1);
    dll->timestamp = d->timestamp;
    dll->descriptor_offset = at;
    dll->name = "?";
    const char *name = NULL;
    if (to_rva(pe, dll->va_based, d->name, &name_rva))
        name = td_pe_string_at_rva(pe, name_rva, NAME_LIMIT);
    if (!name) {
        td_err_set(err,
                   "%s descriptor at offset 0x%llx: DLL name %s 0x%x is not a string in the "
                   "file",
                   dir_word(delay), (unsigned long long)at, dll->va_based ? "VA" : "RVA", d->name);
        return -1;
    }
    dll->name = name;
    /* PE spec §6.4.1: with no lookup table (old Borland linkers) the IAT
     * holds the same entries before binding. */
    uint32_t lookup = d->lookup ? d->lookup : d->iat;
    if (!to_rva(pe, dll->va_based, lookup, &lookup_rva)) {
        td_err_set(err,
                   "%s descriptor at offset 0x%llx (%s): name table VA 0x%x lies below "
                   "ImageBase 0x%llx",
                   dir_word(delay), (unsigned long long)at, name, lookup,
                   (unsigned long long)pe->image_base);
        return -1;
    }
    return count_thunks(pe, dll, lookup_rva, err);
}

int td_pe_imports(const struct td_pe *pe, bool delay, struct td_pe_import_dll **dlls, size_t *count,
                  struct td_err *err)
{
    unsigned dir = delay ? TD_PE_DIR_DELAY_IMPORT : TD_PE_DIR_IMPORT;
    unsigned size = delay ? DELAY_DESCRIPTOR_SIZE : IMPORT_DESCRIPTOR_SIZE;
    uint64_t off, avail;
    struct descriptor d;
    *dlls = NULL;
    *count = 0;
    if (!td_pe_has_dir(pe, dir))
        return 0;
    uint32_t rva = pe->dirs[dir].rva;
    if (!td_pe_rva_to_offset(pe, rva, size, &off, &avail)) {
        td_err_set(err, "%s directory: RVA 0x%x is not backed by the file", dir_word(delay), rva);
        return -1;
    }
    uint64_t n = 0, max = avail / size;
    for (;; n++) {
        if (n >= max) {
            td_err_set(err,
                       "%s directory at offset 0x%llx: descriptor list runs past the end "
                       "of its section without a null terminator",
                       dir_word(delay), (unsigned long long)off);
            return -1;
        }
        read_descriptor(pe, delay, off + n * size, &d);
        if (is_terminator(&d))
            break;
    }
    struct td_pe_import_dll *out = td_arena_array(pe->arena, n ? n : 1, sizeof *out);
    if (!out) {
        td_err_set(err, "%s directory at offset 0x%llx: %llu descriptors exceed the arena cap",
                   dir_word(delay), (unsigned long long)off, (unsigned long long)n);
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        read_descriptor(pe, delay, off + i * size, &d);
        if (fill_dll(pe, delay, off + i * size, &d, &out[i], err) != 0)
            return -1;
    }
    *dlls = out;
    *count = (size_t)n;
    return 0;
}

int td_pe_import_func(const struct td_pe *pe, const struct td_pe_import_dll *dll, size_t index,
                      struct td_pe_import_func *fn, struct td_err *err)
{
    unsigned width = pe->pe32plus ? 8 : 4;
    uint64_t value, entry = dll->thunks_offset + (uint64_t)index * width, rva, off;
    memset(fn, 0, sizeof *fn);
    if (index >= dll->count || !td_buf_word(&pe->buf, entry, width, &value)) {
        td_err_set(err, "%s lookup table of %s: entry %zu is out of range (%zu entries)",
                   dir_word(dll->delay), dll->name, index, dll->count);
        return -1;
    }
    /* PE spec §6.4.1: the top bit (IMAGE_ORDINAL_FLAG32/64) marks an ordinal
     * in the low 16 bits; otherwise bits 30-0 are a hint/name table RVA. */
    uint64_t ordinal_flag = (uint64_t)1 << (width * 8 - 1);
    if (value & ordinal_flag) {
        fn->by_ordinal = true;
        fn->ordinal = (uint16_t)value;
        return 0;
    }
    uint64_t target = dll->va_based ? value : (value & 0x7fffffff);
    if (!to_rva(pe, dll->va_based, target, &rva) || !td_pe_rva_to_offset(pe, rva, 3, &off, NULL) ||
        !(fn->name = td_pe_string_at_rva(pe, rva + 2, SYMBOL_NAME_LIMIT))) {
        td_err_set(err,
                   "%s lookup table of %s at offset 0x%llx: entry %zu names hint/name "
                   "0x%llx, which is not a string in the file",
                   dir_word(dll->delay), dll->name, (unsigned long long)entry, index,
                   (unsigned long long)target);
        return -1;
    }
    td_buf_u16(&pe->buf, off, &fn->hint);
    return 0;
}

int td_pe_bound_imports(const struct td_pe *pe, struct td_pe_bound_import **out, size_t *count,
                        struct td_err *err)
{
    uint64_t off, avail;
    *out = NULL;
    *count = 0;
    if (!td_pe_has_dir(pe, TD_PE_DIR_BOUND_IMPORT))
        return 0;
    const struct td_pe_dir *dir = &pe->dirs[TD_PE_DIR_BOUND_IMPORT];
    if (!td_pe_rva_to_offset(pe, dir->rva, BOUND_ENTRY_SIZE, &off, &avail)) {
        td_err_set(err, "bound import directory: RVA 0x%x is not backed by the file", dir->rva);
        return -1;
    }
    uint64_t max = (avail < dir->size ? avail : dir->size) / BOUND_ENTRY_SIZE, n = 0;
    /* Entries are IMAGE_BOUND_IMPORT_DESCRIPTOR {TimeDateStamp, OffsetModuleName,
     * NumberOfModuleForwarderRefs} each followed by that many forwarder refs of
     * the same size; a zero entry ends the list. Names are relative to the
     * start of the directory. */
    for (;; n++) {
        uint32_t stamp;
        uint16_t name_off;
        if (n >= max) {
            td_err_set(err,
                       "bound import directory at offset 0x%llx: entries run past its end "
                       "without a null terminator",
                       (unsigned long long)off);
            return -1;
        }
        td_buf_u32(&pe->buf, off + n * BOUND_ENTRY_SIZE, &stamp);
        td_buf_u16(&pe->buf, off + n * BOUND_ENTRY_SIZE + 4, &name_off);
        if (stamp == 0 && name_off == 0)
            break;
    }
    struct td_pe_bound_import *list = td_arena_array(pe->arena, n ? n : 1, sizeof *list);
    if (!list) {
        td_err_set(err, "bound import directory at offset 0x%llx: arena cap reached",
                   (unsigned long long)off);
        return -1;
    }
    uint64_t refs_left = 0;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t at = off + i * BOUND_ENTRY_SIZE;
        uint16_t name_off, nrefs;
        td_buf_u32(&pe->buf, at, &list[i].timestamp);
        td_buf_u16(&pe->buf, at + 4, &name_off);
        td_buf_u16(&pe->buf, at + 6, &nrefs);
        list[i].forwarder_ref = refs_left > 0;
        refs_left = refs_left > 0 ? refs_left - 1 : nrefs;
        list[i].name = td_buf_cstr(&pe->buf, off + name_off, NAME_LIMIT);
        if (!list[i].name || name_off >= avail) {
            td_err_set(err,
                       "bound import entry at offset 0x%llx: module name offset 0x%x is "
                       "not a string inside the directory",
                       (unsigned long long)at, name_off);
            return -1;
        }
    }
    *out = list;
    *count = (size_t)n;
    return 0;
}
