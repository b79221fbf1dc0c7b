/* The facts `torchdoctor wheel` needs of one native member (ELF, PE,
 * Mach-O thin or universal): machine, needs, versioned references, the
 * Python symbols it imports, its minimum macOS, debug sections and the
 * architectures of its fat binaries. Reads through the format readers
 * only; allocates from the wheel's arena. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "format/buf.h"
#include "format/detect.h"
#include "format/detect_fatbin.h"
#include "format/elf.h"
#include "format/fatbin.h"
#include "format/macho.h"
#include "format/pe.h"
#include "probe/wheel/wheel.h"

enum { MAX_VERREFS = 512, MAX_PY = 4096, MAX_NEEDED = 1024 };

static const char *base_of(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static void add_arch(struct td_wheel_binary *b, const char *slug)
{
    const char *c = slug ? td_wheel_arch_canonical(slug, strlen(slug)) : NULL;
    if (!c && slug && strcmp(slug, "arm64e") == 0)
        c = "aarch64";
    if (!c && slug && strcmp(slug, "x86_64h") == 0)
        c = "x86_64";
    if (b->narches < 4)
        b->arches[b->narches++] = c ? c : "unknown";
}

static bool is_py_symbol(const char *name)
{
    return strncmp(name, "Py", 2) == 0 || strncmp(name, "_Py", 3) == 0;
}

static void add_py(struct td_wheel_binary *b, const char *name, struct td_arena *arena)
{
    if (!b->py_symbols)
        b->py_symbols = td_arena_array(arena, MAX_PY, sizeof *b->py_symbols);
    if (b->py_symbols && b->npy < MAX_PY)
        b->py_symbols[b->npy++] = td_arena_strdup(arena, name);
}

static void add_needed(struct td_wheel_binary *b, const char *name, bool weak,
                       struct td_arena *arena)
{
    if (!b->needed) {
        b->needed = td_arena_array(arena, MAX_NEEDED, sizeof *b->needed);
        b->needed_weak = td_arena_array(arena, MAX_NEEDED, sizeof *b->needed_weak);
    }
    if (!b->needed || !b->needed_weak || b->nneeded >= MAX_NEEDED || !name)
        return;
    for (size_t i = 0; i < b->nneeded; i++)
        if (strcmp(b->needed[i], name) == 0)
            return;
    b->needed_weak[b->nneeded] = weak;
    b->needed[b->nneeded++] = td_arena_strdup(arena, name);
}

static bool collect_arch(const struct td_fatbin_entry *e, void *ctx)
{
    struct td_wheel_binary *b = ((void **)ctx)[0];
    struct td_arena *arena = ((void **)ctx)[1];
    char name[32];
    if (!td_fatbin_arch_name(e, name, sizeof name))
        return true;
    for (size_t i = 0; i < b->ncuda; i++)
        if (strcmp(b->cuda_arches[i], name) == 0)
            return true;
    if (!b->cuda_arches)
        b->cuda_arches = td_arena_array(arena, 64, sizeof *b->cuda_arches);
    if (b->cuda_arches && b->ncuda < 64)
        b->cuda_arches[b->ncuda++] = td_arena_strdup(arena, name);
    return true;
}

/* Every container of the regions where BUF's fat binaries may lie. */
static void scan_regions(struct td_wheel_binary *b, const struct td_buf *buf,
                         const struct td_fatbin_regions *r, struct td_arena *arena)
{
    void *ctx[2] = {b, arena};
    struct td_fatbin_scan st = {0};
    for (size_t i = 0; i < r->count; i++) {
        const struct td_fatbin_region *g = &r->list[i];
        const uint8_t *data = g->size ? td_buf_at(buf, g->offset, g->size) : NULL;
        struct td_err err = {0};
        b->has_fatbin |= g->primary;
        if (data)
            td_fatbin_scan(data, (size_t)g->size, g->primary, collect_arch, ctx, &st, &err);
    }
    b->has_fatbin |= st.containers > 0;
}

static int by_offset(const void *a, const void *b)
{
    const struct td_wheel_region *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* A member read in ranges: the regions are kept, in file order, for one
 * forward streaming pass (wheel_read.c) rather than fetched. */
static void keep_regions(struct td_wheel_binary *b, const struct td_fatbin_regions *r,
                         struct td_arena *arena)
{
    b->regions = td_arena_array(arena, r->count + 1, sizeof *b->regions);
    if (!b->regions)
        return;
    for (size_t i = 0; i < r->count; i++) {
        b->regions[b->nregions++] =
            (struct td_wheel_region){r->list[i].offset, r->list[i].size, r->list[i].primary};
        b->has_fatbin |= r->list[i].primary;
    }
    qsort(b->regions, b->nregions, sizeof *b->regions, by_offset);
}

int td_wheel_binary_fatbin(struct td_wheel_binary *b, td_fatbin_read_fn read, void *src,
                           size_t region, struct td_arena *arena, struct td_err *err)
{
    void *ctx[2] = {b, arena};
    struct td_fatbin_scan st = {0};
    const struct td_wheel_region *g = &b->regions[region];
    int rc = td_fatbin_scan_read(read, src, g->size, g->primary, collect_arch, ctx, &st, err);
    b->has_fatbin |= st.containers > 0;
    return rc;
}

/* ---- ELF ---- */

/* The bytes of the .debug_* / .zdebug_* sections (strip --strip-debug's). */
static uint64_t debug_bytes(const struct td_elf *elf)
{
    uint64_t sum = 0;
    for (uint64_t i = 1; i < elf->section_count; i++) {
        struct td_elf_section s;
        if (td_elf_section_at(elf, i, &s) && s.name && s.type != TD_SHT_NOBITS &&
            (strncmp(s.name, ".debug_", 7) == 0 || strncmp(s.name, ".zdebug_", 8) == 0))
            sum += s.size;
    }
    return sum;
}

static void add_verref(struct td_wheel_binary *b, const char *lib, const char *version,
                       const char *symbol, struct td_arena *arena)
{
    for (size_t i = 0; i < b->nverrefs; i++)
        if (strcmp(b->verrefs[i].version, version) == 0 &&
            strcmp(b->verrefs[i].library, lib) == 0) {
            b->verrefs[i].count++;
            return;
        }
    if (!b->verrefs)
        b->verrefs = td_arena_array(arena, MAX_VERREFS, sizeof *b->verrefs);
    if (!b->verrefs || b->nverrefs >= MAX_VERREFS)
        return;
    struct td_wheel_verref *r = &b->verrefs[b->nverrefs++];
    r->library = td_arena_strdup(arena, lib);
    r->version = td_arena_strdup(arena, version);
    r->symbol = td_arena_strdup(arena, symbol);
    r->count = 1;
}

static int read_elf(struct td_wheel_binary *b, const struct td_buf *buf, struct td_arena *arena,
                    struct td_arena *scratch, struct td_err *err)
{
    struct td_elf elf;
    if (td_elf_parse_buf(&elf, *buf, true, scratch, err) != 0)
        return -1;
    b->format = "elf";
    b->os = "linux";
    b->bits = elf.is64 ? 64 : 32;
    b->program = td_elf_is_program(&elf);
    add_arch(b, td_elf_arch(&elf));
    b->soname = elf.soname ? td_arena_strdup(arena, elf.soname) : NULL;
    for (uint32_t i = 0; i < elf.needed_count; i++)
        add_needed(b, elf.needed[i], false, arena);
    uint32_t n = td_elf_dynsym_count(&elf);
    for (uint32_t i = 1; i < n; i++) {
        struct td_elf_sym s;
        if (!td_elf_dynsym(&elf, i, &s) || s.defined || !s.name)
            continue;
        if (s.version && s.version_file)
            add_verref(b, s.version_file, s.version, s.name, arena);
        if (is_py_symbol(s.name))
            add_py(b, s.name, arena);
    }
    if (b->is_extension || b->ext.module[0]) {
        char init[80];
        struct td_elf_sym s;
        snprintf(init, sizeof init, "PyInit_%s", b->ext.module);
        if (!b->is_extension && td_elf_lookup(&elf, init, td_elf_gnu_hash(init), NULL, &s))
            b->is_extension = true;
    }
    b->debug_bytes = debug_bytes(&elf);
    struct td_fatbin_regions regions;
    struct td_err ferr = {0};
    if (td_fatbin_regions_elf(&elf, scratch, &regions, &ferr) == 0) {
        if (buf->sparse)
            keep_regions(b, &regions, arena);
        else
            scan_regions(b, buf, &regions, arena);
    }
    return 0;
}

/* ---- PE ---- */

static void pe_imports(struct td_wheel_binary *b, const struct td_pe *pe, bool delay,
                       struct td_arena *arena, struct td_err *err)
{
    struct td_pe_import_dll *dlls;
    size_t count;
    if (td_pe_imports(pe, delay, &dlls, &count, err) != 0)
        return;
    for (size_t i = 0; i < count; i++) {
        add_needed(b, dlls[i].name, delay, arena);
        if (!dlls[i].name || strncasecmp(dlls[i].name, "python", 6) != 0)
            continue;
        for (size_t k = 0; k < dlls[i].count; k++) {
            struct td_pe_import_func fn;
            if (td_pe_import_func(pe, &dlls[i], k, &fn, err) == 0 && fn.name &&
                is_py_symbol(fn.name))
                add_py(b, fn.name, arena);
        }
    }
}

static int read_pe(struct td_wheel_binary *b, const uint8_t *data, size_t size,
                   struct td_arena *arena, struct td_arena *scratch, struct td_err *err)
{
    struct td_pe pe;
    if (td_pe_parse(&pe, data, size, scratch, err) != 0)
        return -1;
    b->format = "pe";
    b->os = "windows";
    b->bits = pe.pe32plus ? 64 : 32;
    b->program = !td_pe_is_dll(&pe);
    add_arch(b, td_pe_arch_slug(&pe));
    struct td_err ierr = {0};
    pe_imports(b, &pe, false, arena, &ierr);
    pe_imports(b, &pe, true, arena, &ierr);
    for (uint16_t i = 0; i < pe.nsections; i++) {
        const struct td_pe_section *s = &pe.sections[i];
        if (s->name && strncmp(s->name, ".debug", 6) == 0)
            b->debug_bytes += s->raw_size;
    }
    if (!b->is_extension && b->ext.module[0]) {
        struct td_pe_exports ex;
        struct td_pe_export e;
        char init[80];
        snprintf(init, sizeof init, "PyInit_%s", b->ext.module);
        if (td_pe_exports(&pe, &ex, &ierr) == 0 && td_pe_export_by_name(&pe, &ex, init, &e))
            b->is_extension = true;
    }
    struct td_fatbin_regions regions;
    struct td_buf buf = td_buf_make(data, size, false);
    if (td_fatbin_regions_pe(&pe, scratch, &regions, &ierr) == 0)
        scan_regions(b, &buf, &regions, arena);
    return 0;
}

/* ---- Mach-O ---- */

static int macho_undef(void *ctx, const struct td_macho_undef *u)
{
    struct td_wheel_binary *b = ((void **)ctx)[0];
    struct td_arena *arena = ((void **)ctx)[1];
    /* C names carry a leading underscore on Mach-O. */
    if (u->name && u->name[0] == '_' && is_py_symbol(u->name + 1))
        add_py(b, u->name + 1, arena);
    return 0;
}

static void read_macho_image(struct td_wheel_binary *b, const struct td_macho *m,
                             struct td_arena *arena)
{
    add_arch(b, td_macho_arch_slug(m->cputype, m->cpusubtype));
    b->bits = m->is_64 ? 64 : 32;
    b->program &= m->filetype == TD_MACHO_EXECUTE; /* every slice of a universal file */
    if (m->install_name && !b->soname)
        b->soname = td_arena_strdup(arena, m->install_name);
    for (size_t i = 0; i < m->ndylibs; i++)
        add_needed(b, m->dylibs[i].name, m->dylibs[i].kind == TD_MACHO_DYLIB_WEAK, arena);
    if (m->version_source == TD_MACHO_VERSION_BUILD ||
        m->version_source == TD_MACHO_VERSION_MIN_MACOSX) {
        /* minos is xxxx.yy.zz in nibbles (td_macho_version_string). */
        int major = (int)(m->minos >> 16), minor = (int)((m->minos >> 8) & 0xff);
        if (major > b->macos_min_major ||
            (major == b->macos_min_major && minor > b->macos_min_minor)) {
            b->macos_min_major = major;
            b->macos_min_minor = minor;
        }
    }
    void *ctx[2] = {b, arena};
    struct td_err err = {0};
    if (b->npy == 0)
        td_macho_undefined_walk(m, macho_undef, ctx, &err);
    if (!b->is_extension && b->ext.module[0]) {
        char init[80];
        struct td_macho_export e;
        snprintf(init, sizeof init, "_PyInit_%s", b->ext.module);
        if (td_macho_export_find(m, init, &e, &err) == 1)
            b->is_extension = true;
    }
}

static int read_macho(struct td_wheel_binary *b, const uint8_t *data, size_t size, bool fat,
                      struct td_arena *arena, struct td_arena *scratch, struct td_err *err)
{
    b->os = "macos";
    b->program = true; /* until a slice is no program */
    if (!fat) {
        struct td_macho m;
        if (td_macho_parse(data, size, scratch, &m, err) != 0)
            return -1;
        b->format = "macho";
        read_macho_image(b, &m, arena);
        return 0;
    }
    struct td_macho_fat f;
    if (td_macho_fat_parse(data, size, scratch, &f, err) != 0)
        return -1;
    b->format = "macho-universal";
    for (uint32_t i = 0; i < f.nslices; i++) {
        struct td_macho m;
        struct td_err serr = {0};
        if (td_macho_parse_slice(data, size, &f.slices[i], scratch, &m, &serr) == 0)
            read_macho_image(b, &m, arena);
    }
    b->program &= b->narches > 0;
    return 0;
}

static int read_any(struct td_wheel_binary *b, const struct td_buf *buf, struct td_arena *arena,
                    struct td_arena *scratch, struct td_err *err)
{
    if (buf->sparse) /* only ELF members are read in ranges */
        return read_elf(b, buf, arena, scratch, err);
    enum td_file_kind kind = td_detect(buf->data, buf->size);
    switch (kind) {
    case TD_FILE_ELF:
        return read_elf(b, buf, arena, scratch, err);
    case TD_FILE_PE:
        return read_pe(b, buf->data, buf->size, arena, scratch, err);
    case TD_FILE_MACHO:
        return read_macho(b, buf->data, buf->size, false, arena, scratch, err);
    case TD_FILE_MACHO_FAT:
        return read_macho(b, buf->data, buf->size, true, arena, scratch, err);
    default:
        td_err_set(err, "not an ELF, PE or Mach-O file (%s)", td_file_kind_name(kind));
        return -1;
    }
}

int td_wheel_binary_read(struct td_wheel_binary *b, const struct td_buf *buf,
                         struct td_arena *arena, struct td_err *err)
{
    b->macos_min_major = b->macos_min_minor = -1;
    td_wheel_ext_parse(base_of(b->path), strlen(base_of(b->path)), &b->ext);
    b->is_extension = b->ext.tagged;
    /* The parsers' own tables live only as long as this member is read. */
    struct td_arena scratch = {0};
    int rc = read_any(b, buf, arena, &scratch, err);
    td_arena_free(&scratch);
    return rc;
}
