/* PE/COFF headers: DOS stub, COFF file header, optional header (PE32 and
 * PE32+), data directories and section table; RVA translation; the names of
 * machines, subsystems and flags; hybrid ARM64 detection from the load config.
 * Section references are to Microsoft's "PE Format" specification. */
#include "format/pe.h"

#include <stdio.h>
#include <string.h>

enum {
    DOS_MAGIC = 0x5a4d,        /* "MZ" */
    PE_SIGNATURE = 0x00004550, /* "PE\0\0" */
    OPT_MAGIC_PE32 = 0x10b,
    OPT_MAGIC_PE32PLUS = 0x20b,
    COFF_HEADER_SIZE = 20,
    SECTION_HEADER_SIZE = 40,
    SYMBOL_SIZE = 18,
    /* Fixed part of the optional header before the data directories. */
    OPT_FIXED_PE32 = 96,
    OPT_FIXED_PE32PLUS = 112,
};

static const struct td_pe_machine_info machines[] = {
    {0x0, "UNKNOWN", "unknown", "any machine (machine-independent content)"},
    {0x14c, "I386", "x86", "Intel 386 and compatible"},
    {0x160, "R3000BE", "mips-r3000be", "MIPS I big-endian"},
    {0x162, "R3000", "mips-r3000", "MIPS I little-endian"},
    {0x166, "R4000", "mips-r4000", "MIPS III little-endian"},
    {0x168, "R10000", "mips-r10000", "MIPS IV little-endian"},
    {0x169, "WCEMIPSV2", "mips-wce", "MIPS little-endian WCE v2"},
    {0x184, "ALPHA", "alpha", "Alpha AXP, 32-bit address space"},
    {0x1a2, "SH3", "sh3", "Hitachi SH3"},
    {0x1a3, "SH3DSP", "sh3dsp", "Hitachi SH3 DSP"},
    {0x1a6, "SH4", "sh4", "Hitachi SH4"},
    {0x1a8, "SH5", "sh5", "Hitachi SH5"},
    {0x1c0, "ARM", "arm", "ARM little endian"},
    {0x1c2, "THUMB", "thumb", "ARM Thumb"},
    {0x1c4, "ARMNT", "armnt", "ARM Thumb-2 little endian"},
    {0x1d3, "AM33", "am33", "Matsushita AM33"},
    {0x1f0, "POWERPC", "powerpc", "Power PC little endian"},
    {0x1f1, "POWERPCFP", "powerpcfp", "Power PC with floating point support"},
    {0x200, "IA64", "ia64", "Intel Itanium"},
    {0x266, "MIPS16", "mips16", "MIPS16"},
    {0x284, "ALPHA64", "alpha64", "Alpha 64, 64-bit address space (AXP64)"},
    {0x366, "MIPSFPU", "mipsfpu", "MIPS with FPU"},
    {0x466, "MIPSFPU16", "mipsfpu16", "MIPS16 with FPU"},
    {0xebc, "EBC", "ebc", "EFI byte code"},
    {0x5032, "RISCV32", "riscv32", "RISC-V 32-bit address space"},
    {0x5064, "RISCV64", "riscv64", "RISC-V 64-bit address space"},
    {0x5128, "RISCV128", "riscv128", "RISC-V 128-bit address space"},
    {0x6232, "LOONGARCH32", "loongarch32", "LoongArch 32-bit"},
    {0x6264, "LOONGARCH64", "loongarch64", "LoongArch 64-bit"},
    {0x8664, "AMD64", "x64", "x64 (AMD64)"},
    {0x9041, "M32R", "m32r", "Mitsubishi M32R little endian"},
    {0xa641, "ARM64EC", "arm64ec", "ARM64EC: ARM64 code interoperable with x64"},
    {0xa64e, "ARM64X", "arm64x", "ARM64X: ARM64 and ARM64EC code in one file"},
    {0xaa64, "ARM64", "arm64", "ARM64 little endian"},
};

const struct td_pe_machine_info *td_pe_machine_info(uint16_t machine)
{
    for (size_t i = 0; i < sizeof machines / sizeof machines[0]; i++)
        if (machines[i].value == machine)
            return &machines[i];
    return NULL;
}

const char *td_pe_arch_slug(const struct td_pe *pe)
{
    if (pe->hybrid == TD_PE_HYBRID_ARM64EC)
        return "arm64ec";
    if (pe->hybrid == TD_PE_HYBRID_ARM64X)
        return "arm64x";
    return pe->machine_info ? pe->machine_info->slug : "unknown";
}

const char *td_pe_subsystem_name(uint16_t subsystem)
{
    static const char *const names[] = {
        [0] = "UNKNOWN",
        [1] = "NATIVE",
        [2] = "WINDOWS_GUI",
        [3] = "WINDOWS_CUI",
        [5] = "OS2_CUI",
        [7] = "POSIX_CUI",
        [8] = "NATIVE_WINDOWS",
        [9] = "WINDOWS_CE_GUI",
        [10] = "EFI_APPLICATION",
        [11] = "EFI_BOOT_SERVICE_DRIVER",
        [12] = "EFI_RUNTIME_DRIVER",
        [13] = "EFI_ROM",
        [14] = "XBOX",
        [16] = "WINDOWS_BOOT_APPLICATION",
    };
    if (subsystem < sizeof names / sizeof names[0] && names[subsystem])
        return names[subsystem];
    return "unknown";
}

struct flag_name {
    uint32_t bit;
    const char *name;
};

static const struct flag_name file_flags[] = {
    {0x0001, "RELOCS_STRIPPED"},
    {0x0002, "EXECUTABLE_IMAGE"},
    {0x0004, "LINE_NUMS_STRIPPED"},
    {0x0008, "LOCAL_SYMS_STRIPPED"},
    {0x0010, "AGGRESSIVE_WS_TRIM"},
    {0x0020, "LARGE_ADDRESS_AWARE"},
    {0x0080, "BYTES_REVERSED_LO"},
    {0x0100, "32BIT_MACHINE"},
    {0x0200, "DEBUG_STRIPPED"},
    {0x0400, "REMOVABLE_RUN_FROM_SWAP"},
    {0x0800, "NET_RUN_FROM_SWAP"},
    {0x1000, "SYSTEM"},
    {0x2000, "DLL"},
    {0x4000, "UP_SYSTEM_ONLY"},
    {0x8000, "BYTES_REVERSED_HI"},
    {0, NULL},
};

static const struct flag_name dll_flags[] = {
    {0x0020, "HIGH_ENTROPY_VA"}, {0x0040, "DYNAMIC_BASE"},          {0x0080, "FORCE_INTEGRITY"},
    {0x0100, "NX_COMPAT"},       {0x0200, "NO_ISOLATION"},          {0x0400, "NO_SEH"},
    {0x0800, "NO_BIND"},         {0x1000, "APPCONTAINER"},          {0x2000, "WDM_DRIVER"},
    {0x4000, "GUARD_CF"},        {0x8000, "TERMINAL_SERVER_AWARE"}, {0, NULL},
};

char *td_pe_flag_names(enum td_pe_flagset set, uint32_t flags, char *out, size_t cap)
{
    const struct flag_name *table = set == TD_PE_FLAGS_FILE ? file_flags : dll_flags;
    size_t used = 0;
    if (!cap)
        return out;
    out[0] = '\0';
    for (unsigned bit = 0; bit < 32; bit++) {
        uint32_t mask = (uint32_t)1 << bit;
        if (!(flags & mask))
            continue;
        const char *name = NULL;
        for (const struct flag_name *f = table; f->name; f++)
            if (f->bit == mask)
                name = f->name;
        char unknown[16];
        if (!name) {
            snprintf(unknown, sizeof unknown, "0x%x", mask);
            name = unknown;
        }
        int n = snprintf(out + used, cap - used, "%s%s", used ? "|" : "", name);
        if (n < 0 || (size_t)n >= cap - used)
            break;
        used += (size_t)n;
    }
    return out;
}

bool td_pe_is_dll(const struct td_pe *pe)
{
    return (pe->characteristics & TD_PE_FILE_DLL) != 0;
}

bool td_pe_has_dir(const struct td_pe *pe, unsigned index)
{
    return index < pe->ndirs && pe->dirs[index].rva != 0 && pe->dirs[index].size != 0;
}

/* The section that may contain RVA: the last one starting at or below it. */
const struct td_pe_section *td_pe_section_for_rva(const struct td_pe *pe, uint64_t rva)
{
    size_t lo = 0, hi = pe->nsections;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pe->sections[pe->by_address[mid]].virtual_address <= rva)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return NULL;
    const struct td_pe_section *s = &pe->sections[pe->by_address[lo - 1]];
    /* PE spec §4: a zero VirtualSize means SizeOfRawData is the size in memory. */
    uint64_t extent = s->virtual_size ? s->virtual_size : s->raw_size;
    return rva - s->virtual_address < extent ? s : NULL;
}

bool td_pe_rva_to_offset(const struct td_pe *pe, uint64_t rva, uint64_t len, uint64_t *off,
                         uint64_t *avail)
{
    uint64_t start, backed;
    uint64_t first_va =
        pe->nsections ? pe->sections[pe->by_address[0]].virtual_address : UINT64_MAX;
    if (rva < pe->size_of_headers && rva < first_va) {
        /* The headers are mapped at RVA 0 as they are in the file. */
        start = rva;
        backed = pe->size_of_headers - rva;
    } else {
        const struct td_pe_section *s = td_pe_section_for_rva(pe, rva);
        if (!s)
            return false;
        uint64_t delta = rva - s->virtual_address;
        uint64_t extent = s->virtual_size ? s->virtual_size : s->raw_size;
        uint64_t in_file = s->raw_size < extent ? s->raw_size : extent;
        if (delta >= in_file)
            return false; /* zero-filled by the loader, not in the file */
        start = (uint64_t)s->raw_offset + delta;
        backed = in_file - delta;
    }
    if (start >= pe->buf.size)
        return false;
    if (backed > pe->buf.size - start)
        backed = pe->buf.size - start;
    if (len > backed)
        return false;
    *off = start;
    if (avail)
        *avail = backed;
    return true;
}

const char *td_pe_string_at_rva(const struct td_pe *pe, uint64_t rva, size_t limit)
{
    uint64_t off, avail;
    if (!td_pe_rva_to_offset(pe, rva, 1, &off, &avail))
        return NULL;
    size_t bound = avail < SIZE_MAX ? (size_t)avail : SIZE_MAX;
    if (limit && limit < bound)
        bound = limit;
    return td_buf_cstr(&pe->buf, off, bound);
}

static int read_dos_and_signature(struct td_pe *pe, struct td_err *err)
{
    uint16_t magic;
    uint32_t lfanew, signature;
    if (!td_buf_u16(&pe->buf, 0, &magic) || magic != DOS_MAGIC) {
        td_err_set(err, "DOS header at offset 0x0: no \"MZ\" signature (not a PE file)");
        return -1;
    }
    if (!td_buf_u32(&pe->buf, 0x3c, &lfanew)) {
        td_err_set(err,
                   "DOS header at offset 0x0: truncated before e_lfanew (offset 0x3c), "
                   "file is %zu bytes",
                   pe->buf.size);
        return -1;
    }
    if (!td_buf_u32(&pe->buf, lfanew, &signature) || signature != PE_SIGNATURE) {
        td_err_set(err, "PE signature at offset 0x%x (e_lfanew): %s", lfanew,
                   td_buf_has(&pe->buf, lfanew, 4) ? "not \"PE\\0\\0\" (an MS-DOS or NE/LE file?)"
                                                   : "lies past the end of the file");
        return -1;
    }
    pe->pe_offset = lfanew;
    return 0;
}

static void read_version_fields(struct td_pe *pe, uint64_t opt)
{
    const struct td_buf *b = &pe->buf;
    uint32_t image_base32 = 0;
    td_buf_u8(b, opt + 2, &pe->linker_major);
    td_buf_u8(b, opt + 3, &pe->linker_minor);
    td_buf_u32(b, opt + 16, &pe->entry_rva);
    if (pe->pe32plus) {
        td_buf_u64(b, opt + 24, &pe->image_base);
    } else {
        td_buf_u32(b, opt + 28, &image_base32);
        pe->image_base = image_base32;
    }
    td_buf_u32(b, opt + 32, &pe->section_alignment);
    td_buf_u32(b, opt + 36, &pe->file_alignment);
    td_buf_u16(b, opt + 40, &pe->os_major);
    td_buf_u16(b, opt + 42, &pe->os_minor);
    td_buf_u16(b, opt + 44, &pe->image_major);
    td_buf_u16(b, opt + 46, &pe->image_minor);
    td_buf_u16(b, opt + 48, &pe->subsystem_major);
    td_buf_u16(b, opt + 50, &pe->subsystem_minor);
    td_buf_u32(b, opt + 56, &pe->size_of_image);
    td_buf_u32(b, opt + 60, &pe->size_of_headers);
    td_buf_u32(b, opt + 64, &pe->checksum);
    td_buf_u16(b, opt + 68, &pe->subsystem);
    td_buf_u16(b, opt + 70, &pe->dll_characteristics);
}

static int read_optional_header(struct td_pe *pe, uint64_t opt, uint16_t opt_size,
                                struct td_err *err)
{
    uint16_t magic;
    uint32_t nrva;
    if (!td_buf_u16(&pe->buf, opt, &magic) || opt_size < 2) {
        td_err_set(err, "optional header at offset 0x%llx: missing (SizeOfOptionalHeader %u)",
                   (unsigned long long)opt, opt_size);
        return -1;
    }
    if (magic != OPT_MAGIC_PE32 && magic != OPT_MAGIC_PE32PLUS) {
        td_err_set(err,
                   "optional header at offset 0x%llx: magic 0x%x is neither PE32 (0x10b) "
                   "nor PE32+ (0x20b)",
                   (unsigned long long)opt, magic);
        return -1;
    }
    pe->pe32plus = magic == OPT_MAGIC_PE32PLUS;
    unsigned fixed = pe->pe32plus ? OPT_FIXED_PE32PLUS : OPT_FIXED_PE32;
    if (opt_size < fixed || !td_buf_has(&pe->buf, opt, fixed)) {
        td_err_set(err,
                   "optional header at offset 0x%llx: %s header needs %u bytes, "
                   "SizeOfOptionalHeader is %u and the file has %llu",
                   (unsigned long long)opt, pe->pe32plus ? "PE32+" : "PE32", fixed, opt_size,
                   (unsigned long long)(pe->buf.size > opt ? pe->buf.size - opt : 0));
        return -1;
    }
    read_version_fields(pe, opt);
    td_buf_u32(&pe->buf, opt + fixed - 4, &nrva);
    /* PE spec §3.4.2: NumberOfRvaAndSizes; only the 16 defined entries matter. */
    pe->ndirs = nrva < TD_PE_DIR_COUNT ? nrva : TD_PE_DIR_COUNT;
    if (fixed + (uint64_t)pe->ndirs * 8 > opt_size ||
        !td_buf_has_array(&pe->buf, opt + fixed, pe->ndirs, 8)) {
        td_err_set(err,
                   "optional header at offset 0x%llx: NumberOfRvaAndSizes %u does not fit "
                   "in SizeOfOptionalHeader %u or the file",
                   (unsigned long long)opt, nrva, opt_size);
        return -1;
    }
    for (uint32_t i = 0; i < pe->ndirs; i++) {
        td_buf_u32(&pe->buf, opt + fixed + i * 8, &pe->dirs[i].rva);
        td_buf_u32(&pe->buf, opt + fixed + i * 8 + 4, &pe->dirs[i].size);
    }
    return 0;
}

/* PE spec §4: "/123" names a long section name at that offset of the COFF
 * string table, which follows the symbol table (images from GNU ld have them). */
static const char *section_name(struct td_pe *pe, const uint8_t raw[8], uint32_t symtab,
                                uint32_t nsyms)
{
    if (raw[0] == '/' && symtab != 0) {
        uint64_t index = 0;
        bool digits = false;
        for (int i = 1; i < 8 && raw[i] >= '0' && raw[i] <= '9'; i++) {
            index = index * 10 + (uint64_t)(raw[i] - '0');
            digits = true;
        }
        uint64_t strtab = (uint64_t)symtab + (uint64_t)nsyms * SYMBOL_SIZE;
        const char *s = digits ? td_buf_cstr(&pe->buf, strtab + index, 256) : NULL;
        if (s)
            return s;
    }
    size_t n = 0;
    while (n < 8 && raw[n])
        n++;
    return td_arena_strndup(pe->arena, (const char *)raw, n);
}

/* Heapsort of section indexes by virtual address: no allocation, O(n log n)
 * even for a hostile 65535-entry table, and no host-specific qsort_r. */
static bool address_less(const struct td_pe_section *s, uint16_t a, uint16_t b)
{
    return s[a].virtual_address < s[b].virtual_address;
}

static void sift_down(const struct td_pe_section *s, uint16_t *idx, size_t root, size_t n)
{
    for (;;) {
        size_t child = 2 * root + 1;
        if (child >= n)
            return;
        if (child + 1 < n && address_less(s, idx[child], idx[child + 1]))
            child++;
        if (!address_less(s, idx[root], idx[child]))
            return;
        uint16_t t = idx[root];
        idx[root] = idx[child];
        idx[child] = t;
        root = child;
    }
}

static void sort_by_address(const struct td_pe_section *s, uint16_t *idx, size_t n)
{
    for (size_t i = n / 2; i-- > 0;)
        sift_down(s, idx, i, n);
    for (size_t end = n; end-- > 1;) {
        uint16_t t = idx[0];
        idx[0] = idx[end];
        idx[end] = t;
        sift_down(s, idx, 0, end);
    }
}

static int read_sections(struct td_pe *pe, uint64_t table, uint32_t symtab, uint32_t nsyms,
                         struct td_err *err)
{
    if (!td_buf_has_array(&pe->buf, table, pe->nsections, SECTION_HEADER_SIZE)) {
        td_err_set(err,
                   "section table at offset 0x%llx: %u sections of 40 bytes run past the "
                   "end of the file (%zu bytes)",
                   (unsigned long long)table, pe->nsections, pe->buf.size);
        return -1;
    }
    pe->sections =
        td_arena_array(pe->arena, pe->nsections ? pe->nsections : 1, sizeof *pe->sections);
    pe->by_address = td_arena_array(pe->arena, pe->nsections ? pe->nsections : 1, sizeof(uint16_t));
    if (!pe->sections || !pe->by_address)
        goto out_of_memory;
    for (uint16_t i = 0; i < pe->nsections; i++) {
        uint64_t at = table + (uint64_t)i * SECTION_HEADER_SIZE;
        struct td_pe_section *s = &pe->sections[i];
        s->name = section_name(pe, pe->buf.data + at, symtab, nsyms);
        if (!s->name)
            goto out_of_memory;
        td_buf_u32(&pe->buf, at + 8, &s->virtual_size);
        td_buf_u32(&pe->buf, at + 12, &s->virtual_address);
        td_buf_u32(&pe->buf, at + 16, &s->raw_size);
        td_buf_u32(&pe->buf, at + 20, &s->raw_offset);
        td_buf_u32(&pe->buf, at + 36, &s->characteristics);
        pe->by_address[i] = i;
    }
    sort_by_address(pe->sections, pe->by_address, pe->nsections);
    return 0;
out_of_memory:
    td_err_set(err, "section table at offset 0x%llx: arena cap reached", (unsigned long long)table);
    return -1;
}

/* IMAGE_LOAD_CONFIG_DIRECTORY: CHPEMetadataPointer is at offset 124 (4
 * bytes) in the 32-bit layout and at offset 200 (8 bytes) in the 64-bit
 * one, after DynamicValueRelocTable (PE spec §6.8 "Load Configuration
 * Layout"). It is present only when the structure's own Size field reaches it. */
static void detect_hybrid(struct td_pe *pe)
{
    uint64_t off, avail, chpe = 0;
    uint32_t struct_size;
    unsigned field = pe->pe32plus ? 200 : 124, width = pe->pe32plus ? 8 : 4;
    char why[160];
    if (pe->machine == TD_PE_MACHINE_ARM64EC)
        pe->hybrid = TD_PE_HYBRID_ARM64EC;
    else if (pe->machine == TD_PE_MACHINE_ARM64X)
        pe->hybrid = TD_PE_HYBRID_ARM64X;
    if (pe->hybrid != TD_PE_HYBRID_NONE || !td_pe_has_dir(pe, TD_PE_DIR_LOAD_CONFIG))
        return;
    uint32_t rva = pe->dirs[TD_PE_DIR_LOAD_CONFIG].rva;
    if (!td_pe_rva_to_offset(pe, rva, 4, &off, &avail)) {
        snprintf(why, sizeof why, "load config directory RVA 0x%x is not backed by the file", rva);
        goto not_parsed;
    }
    td_buf_u32(&pe->buf, off, &struct_size);
    if (struct_size < field + width)
        return; /* an older layout, without the CHPE field */
    if (avail < field + width) {
        snprintf(why, sizeof why, "load config at offset 0x%llx: Size %u runs past its section",
                 (unsigned long long)off, struct_size);
        goto not_parsed;
    }
    td_buf_word(&pe->buf, off + field, width, &chpe);
    if (chpe == 0)
        return;
    if (pe->machine == TD_PE_MACHINE_AMD64)
        pe->hybrid = TD_PE_HYBRID_ARM64EC;
    else if (pe->machine == TD_PE_MACHINE_ARM64)
        pe->hybrid = TD_PE_HYBRID_ARM64X;
    else if (pe->machine == TD_PE_MACHINE_I386)
        pe->hybrid = TD_PE_HYBRID_CHPE_X86;
    return;
not_parsed:
    pe->hybrid = TD_PE_HYBRID_NOT_PARSED;
    pe->hybrid_problem = td_arena_strdup(pe->arena, why);
}

int td_pe_parse(struct td_pe *pe, const uint8_t *data, size_t size, struct td_arena *arena,
                struct td_err *err)
{
    uint32_t symtab, nsyms;
    uint16_t opt_size;
    memset(pe, 0, sizeof *pe);
    pe->buf = td_buf_make(data, size, false);
    pe->arena = arena;
    if (read_dos_and_signature(pe, err) != 0)
        return -1;
    uint64_t coff = (uint64_t)pe->pe_offset + 4;
    if (!td_buf_has(&pe->buf, coff, COFF_HEADER_SIZE)) {
        td_err_set(err, "COFF file header at offset 0x%llx: truncated (file is %zu bytes)",
                   (unsigned long long)coff, size);
        return -1;
    }
    td_buf_u16(&pe->buf, coff, &pe->machine);
    td_buf_u16(&pe->buf, coff + 2, &pe->nsections);
    td_buf_u32(&pe->buf, coff + 4, &pe->timestamp);
    td_buf_u32(&pe->buf, coff + 8, &symtab);
    td_buf_u32(&pe->buf, coff + 12, &nsyms);
    td_buf_u16(&pe->buf, coff + 16, &opt_size);
    td_buf_u16(&pe->buf, coff + 18, &pe->characteristics);
    pe->machine_info = td_pe_machine_info(pe->machine);
    uint64_t opt = coff + COFF_HEADER_SIZE;
    if (read_optional_header(pe, opt, opt_size, err) != 0)
        return -1;
    if (read_sections(pe, opt + opt_size, symtab, nsyms, err) != 0)
        return -1;
    pe->managed = td_pe_has_dir(pe, TD_PE_DIR_CLR);
    detect_hybrid(pe);
    return 0;
}

/* Debug directory (PE spec §6.1): IMAGE_DEBUG_DIRECTORY entries of 28 bytes;
 * type 2 is CodeView, whose "RSDS" record holds GUID, age and PDB path. */
int td_pe_codeview(const struct td_pe *pe, struct td_pe_codeview *cv, struct td_err *err)
{
    enum { ENTRY = 28, CODEVIEW = 2, RSDS = 0x53445352, HEADER = 24 };
    uint64_t off, avail;
    memset(cv, 0, sizeof *cv);
    if (!td_pe_has_dir(pe, TD_PE_DIR_DEBUG))
        return 0;
    const struct td_pe_dir *dir = &pe->dirs[TD_PE_DIR_DEBUG];
    if (!td_pe_rva_to_offset(pe, dir->rva, ENTRY, &off, &avail)) {
        td_err_set(err, "debug directory: RVA 0x%x is not backed by the file", dir->rva);
        return -1;
    }
    uint64_t n = (dir->size < avail ? dir->size : avail) / ENTRY;
    for (uint64_t i = 0; i < n; i++) {
        uint32_t type, size, pointer, signature;
        uint64_t at = off + i * ENTRY;
        td_buf_u32(&pe->buf, at + 12, &type);
        td_buf_u32(&pe->buf, at + 16, &size);
        td_buf_u32(&pe->buf, at + 24, &pointer);
        if (type != CODEVIEW)
            continue;
        if (size < HEADER + 1 || !td_buf_has(&pe->buf, pointer, size) ||
            !td_buf_u32(&pe->buf, pointer, &signature) || signature != RSDS)
            continue; /* NB10 and other records carry no GUID path worth reporting */
        memcpy(cv->guid, pe->buf.data + pointer + 4, sizeof cv->guid);
        td_buf_u32(&pe->buf, pointer + 20, &cv->age);
        cv->pdb_path = td_buf_cstr(&pe->buf, pointer + HEADER, size - HEADER);
        if (!cv->pdb_path) {
            td_err_set(err,
                       "CodeView record at offset 0x%x: PDB path is not terminated within "
                       "its %u bytes",
                       pointer, size);
            return -1;
        }
        cv->present = true;
        return 0;
    }
    return 0;
}
