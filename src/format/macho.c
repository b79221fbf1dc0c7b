/* Thin Mach-O images: the header (either byte order, 32 or 64 bit) and the
 * load commands a loader model needs, per <mach-o/loader.h>. Every read goes
 * through format/buf.h; counts and sizes are bounded by sizeofcmds. */
#include "format/macho.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define FAT_MAGIC 0xcafebabeu
#define FAT_MAGIC_64 0xcafebabfu
#define MH_MAGIC 0xfeedfaceu
#define MH_CIGAM 0xcefaedfeu
#define MH_MAGIC_64 0xfeedfacfu
#define MH_CIGAM_64 0xcffaedfeu
#define MH_HEADER_SIZE 28u
#define MH_HEADER_64_SIZE 32u

static bool read_be32(const uint8_t *data, size_t size, uint64_t off, uint32_t *out)
{
    struct td_buf b = td_buf_make(data, size, true);
    return td_buf_u32(&b, off, out);
}

bool td_macho_is_thin(const uint8_t *data, size_t size)
{
    uint32_t magic;
    if (!read_be32(data, size, 0, &magic))
        return false;
    return magic == MH_MAGIC || magic == MH_CIGAM || magic == MH_MAGIC_64 || magic == MH_CIGAM_64;
}

/* Reads the magic, picks byte order and width, and the fixed header fields. */
static int parse_header(const uint8_t *data, size_t size, struct td_macho *m, struct td_err *err)
{
    uint32_t magic;
    if (!read_be32(data, size, 0, &magic)) {
        td_err_set(err, "Mach-O header at offset 0x0: truncated (file is %zu bytes)", size);
        return -1;
    }
    if (magic == FAT_MAGIC || magic == FAT_MAGIC_64) {
        td_err_set(err, "Mach-O header at offset 0x0: a universal file; parse one of its slices");
        return -1;
    }
    if (!td_macho_is_thin(data, size)) {
        td_err_set(err, "Mach-O header at offset 0x0: magic 0x%08" PRIx32 " is not Mach-O", magic);
        return -1;
    }
    /* Read as big-endian: MH_MAGIC* means a big-endian file (ppc). */
    m->big_endian = magic == MH_MAGIC || magic == MH_MAGIC_64;
    m->is_64 = magic == MH_MAGIC_64 || magic == MH_CIGAM_64;
    m->magic = m->is_64 ? MH_MAGIC_64 : MH_MAGIC;
    m->buf = td_buf_make(data, size, m->big_endian);
    uint32_t fixed = m->is_64 ? MH_HEADER_64_SIZE : MH_HEADER_SIZE;
    const struct td_buf *b = &m->buf;
    if (!td_buf_has(b, 0, fixed)) {
        td_err_set(err, "Mach-O header at offset 0x0: truncated (%zu of %" PRIu32 " bytes)", size,
                   fixed);
        return -1;
    }
    td_buf_u32(b, 4, &m->cputype);
    td_buf_u32(b, 8, &m->cpusubtype);
    td_buf_u32(b, 12, &m->filetype);
    td_buf_u32(b, 16, &m->ncmds);
    td_buf_u32(b, 20, &m->sizeofcmds);
    td_buf_u32(b, 24, &m->flags);
    if (!td_buf_has(b, fixed, m->sizeofcmds)) {
        td_err_set(err,
                   "Mach-O header at offset 0x0: sizeofcmds 0x%" PRIx32
                   " runs past the end of the file (0x%zx)",
                   m->sizeofcmds, size);
        return -1;
    }
    if ((uint64_t)m->ncmds * 8 > m->sizeofcmds) {
        td_err_set(err,
                   "Mach-O header at offset 0x0: ncmds %" PRIu32
                   " cannot fit in sizeofcmds 0x%" PRIx32,
                   m->ncmds, m->sizeofcmds);
        return -1;
    }
    return 0;
}

/* <mach-o/loader.h> load commands; LC_REQ_DYLD marks ones dyld must understand. */
#define LC_REQ_DYLD 0x80000000u
#define LC_SEGMENT 0x1u
#define LC_SYMTAB 0x2u
#define LC_DYSYMTAB 0xbu
#define LC_LOAD_DYLIB 0xcu
#define LC_ID_DYLIB 0xdu
#define LC_LOAD_WEAK_DYLIB (0x18u | LC_REQ_DYLD)
#define LC_SEGMENT_64 0x19u
#define LC_UUID 0x1bu
#define LC_RPATH (0x1cu | LC_REQ_DYLD)
#define LC_CODE_SIGNATURE 0x1du
#define LC_REEXPORT_DYLIB (0x1fu | LC_REQ_DYLD)
#define LC_LAZY_LOAD_DYLIB 0x20u
#define LC_DYLD_INFO 0x22u
#define LC_DYLD_INFO_ONLY (0x22u | LC_REQ_DYLD)
#define LC_LOAD_UPWARD_DYLIB (0x23u | LC_REQ_DYLD)
#define LC_VERSION_MIN_MACOSX 0x24u
#define LC_VERSION_MIN_IPHONEOS 0x25u
#define LC_MAIN (0x28u | LC_REQ_DYLD)
#define LC_VERSION_MIN_TVOS 0x2fu
#define LC_VERSION_MIN_WATCHOS 0x30u
#define LC_BUILD_VERSION 0x32u
#define LC_DYLD_EXPORTS_TRIE (0x33u | LC_REQ_DYLD)
#define LC_DYLD_CHAINED_FIXUPS (0x34u | LC_REQ_DYLD)

#define NLIST_SIZE 12u
#define NLIST_64_SIZE 16u

/* One load command, located and size-checked. */
struct command {
    uint32_t index;
    uint64_t off;
    uint32_t cmd;
    uint32_t size;
};

static uint64_t header_size(const struct td_macho *m)
{
    return m->is_64 ? MH_HEADER_64_SIZE : MH_HEADER_SIZE;
}

/* Locates command C->index at *NEXT and advances *NEXT past it, checking
 * that cmdsize is at least 8, a multiple of the pointer size (loader.h:
 * "cmdsize must be a multiple of 8 for 64-bit") and inside sizeofcmds. */
static int next_command(const struct td_macho *m, uint64_t *next, struct command *c,
                        struct td_err *err)
{
    uint64_t end = header_size(m) + m->sizeofcmds;
    uint32_t align = m->is_64 ? 8 : 4;
    c->off = *next;
    if (c->off + 8 > end || !td_buf_u32(&m->buf, c->off, &c->cmd) ||
        !td_buf_u32(&m->buf, c->off + 4, &c->size)) {
        td_err_set(err,
                   "load command %" PRIu32 " at offset 0x%" PRIx64
                   ": starts past the end of sizeofcmds (0x%" PRIx64 ")",
                   c->index, c->off, end);
        return -1;
    }
    if (c->size < 8 || c->size % align != 0 || c->size > end - c->off) {
        td_err_set(err,
                   "load command %" PRIu32 " at offset 0x%" PRIx64 ": cmdsize %" PRIu32
                   " is invalid (must be at least 8, a multiple of %" PRIu32
                   " and end by 0x%" PRIx64 ")",
                   c->index, c->off, c->size, align, end);
        return -1;
    }
    *next = c->off + c->size;
    return 0;
}

static int command_error(const struct command *c, struct td_err *err, const char *what)
{
    const char *name = td_macho_command_name(c->cmd);
    td_err_set(err, "load command %" PRIu32 " (%s) at offset 0x%" PRIx64 ": %s", c->index,
               name ? name : "?", c->off, what);
    return -1;
}

static int need_size(const struct command *c, uint32_t min, struct td_err *err)
{
    if (c->size >= min)
        return 0;
    char what[64];
    snprintf(what, sizeof what, "cmdsize %" PRIu32 " is below %" PRIu32, c->size, min);
    return command_error(c, err, what);
}

static uint32_t field(const struct td_macho *m, const struct command *c, uint32_t at)
{
    uint32_t v = 0;
    td_buf_u32(&m->buf, c->off + at, &v); /* callers checked cmdsize first */
    return v;
}

/* An lc_str: an offset from the command start to a NUL-terminated string
 * that must end inside the command. */
static const char *command_string(const struct td_macho *m, const struct command *c,
                                  uint32_t field_at, uint32_t fixed, struct td_err *err)
{
    uint32_t at = field(m, c, field_at);
    const char *s = NULL;
    if (at >= fixed && at < c->size)
        s = td_buf_cstr(&m->buf, c->off + at, c->size - at);
    if (!s) {
        char what[96];
        snprintf(what, sizeof what, "string at offset %" PRIu32 " does not end inside the command",
                 at);
        command_error(c, err, what);
    }
    return s;
}

static bool dylib_kind(uint32_t cmd, enum td_macho_dylib_kind *kind)
{
    switch (cmd) {
    case LC_LOAD_DYLIB:
        *kind = TD_MACHO_DYLIB_LOAD;
        return true;
    case LC_LOAD_WEAK_DYLIB:
        *kind = TD_MACHO_DYLIB_WEAK;
        return true;
    case LC_REEXPORT_DYLIB:
        *kind = TD_MACHO_DYLIB_REEXPORT;
        return true;
    case LC_LAZY_LOAD_DYLIB:
        *kind = TD_MACHO_DYLIB_LAZY;
        return true;
    case LC_LOAD_UPWARD_DYLIB:
        *kind = TD_MACHO_DYLIB_UPWARD;
        return true;
    default:
        return false;
    }
}

/* A region of the image named by a command (symbol table, trie...). */
static int need_region(const struct td_macho *m, const struct command *c, uint64_t off,
                       uint64_t len, const char *what, struct td_err *err)
{
    if (td_buf_has(&m->buf, off, len))
        return 0;
    char msg[160];
    snprintf(msg, sizeof msg, "%s [0x%" PRIx64 ", +0x%" PRIx64 ") lies outside the image (0x%zx)",
             what, off, len, m->buf.size);
    return command_error(c, err, msg);
}

static int once(bool *seen, const struct command *c, struct td_err *err)
{
    if (*seen)
        return command_error(c, err, "appears more than once");
    *seen = true;
    return 0;
}

static int read_dylib(struct td_macho *m, const struct command *c, struct td_err *err)
{
    enum td_macho_dylib_kind kind = TD_MACHO_DYLIB_LOAD;
    if (need_size(c, 24, err) != 0)
        return -1;
    const char *name = command_string(m, c, 8, 24, err);
    if (!name)
        return -1;
    if (c->cmd == LC_ID_DYLIB) {
        if (m->install_name)
            return command_error(c, err, "appears more than once");
        m->install_name = name;
        m->id_current_version = field(m, c, 16);
        m->id_compatibility_version = field(m, c, 20);
        return 0;
    }
    dylib_kind(c->cmd, &kind);
    struct td_macho_dylib *d = &m->dylibs[m->ndylibs++];
    d->kind = kind;
    d->name = name;
    d->current_version = field(m, c, 16);
    d->compatibility_version = field(m, c, 20);
    d->cmd_offset = c->off;
    return 0;
}

static int read_build_version(struct td_macho *m, const struct command *c, struct td_arena *arena,
                              struct td_err *err)
{
    if (need_size(c, 24, err) != 0)
        return -1;
    uint32_t ntools = field(m, c, 20);
    if (ntools > (c->size - 24) / 8)
        return command_error(c, err, "ntools does not fit in cmdsize");
    if (m->version_source != TD_MACHO_VERSION_NONE)
        return 0; /* a zippered file has one per platform; the first is the main one */
    m->version_source = TD_MACHO_VERSION_BUILD;
    m->platform = field(m, c, 8);
    m->minos = field(m, c, 12);
    m->sdk = field(m, c, 16);
    m->tools = ntools ? td_arena_array(arena, ntools, sizeof *m->tools) : NULL;
    if (ntools && !m->tools)
        return command_error(c, err, "arena cap reached for its tools");
    for (uint32_t i = 0; i < ntools; i++) {
        m->tools[i].tool = field(m, c, 24 + 8 * i);
        m->tools[i].version = field(m, c, 28 + 8 * i);
    }
    m->ntools = ntools;
    return 0;
}

static int read_version_min(struct td_macho *m, const struct command *c, struct td_err *err)
{
    /* <mach-o/loader.h> PLATFORM_* numbers of the older per-OS commands. */
    static const struct {
        uint32_t cmd;
        enum td_macho_version_source source;
        uint32_t platform;
    } table[] = {
        {LC_VERSION_MIN_MACOSX, TD_MACHO_VERSION_MIN_MACOSX, 1},
        {LC_VERSION_MIN_IPHONEOS, TD_MACHO_VERSION_MIN_IPHONEOS, 2},
        {LC_VERSION_MIN_TVOS, TD_MACHO_VERSION_MIN_TVOS, 3},
        {LC_VERSION_MIN_WATCHOS, TD_MACHO_VERSION_MIN_WATCHOS, 4},
    };
    if (need_size(c, 16, err) != 0)
        return -1;
    if (m->version_source != TD_MACHO_VERSION_NONE)
        return 0;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].cmd == c->cmd) {
            m->version_source = table[i].source;
            m->platform = table[i].platform;
        }
    }
    m->minos = field(m, c, 8);
    m->sdk = field(m, c, 12);
    return 0;
}

static int read_symtab(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 24, err) != 0 || once(&m->has_symtab, c, err) != 0)
        return -1;
    m->symoff = field(m, c, 8);
    m->nsyms = field(m, c, 12);
    m->stroff = field(m, c, 16);
    m->strsize = field(m, c, 20);
    uint64_t entsize = m->is_64 ? NLIST_64_SIZE : NLIST_SIZE;
    if (need_region(m, c, m->symoff, (uint64_t)m->nsyms * entsize, "symbol table", err) != 0)
        return -1;
    return need_region(m, c, m->stroff, m->strsize, "string table", err);
}

static int read_dysymtab(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 80, err) != 0 || once(&m->has_dysymtab, c, err) != 0)
        return -1;
    m->ilocalsym = field(m, c, 8);
    m->nlocalsym = field(m, c, 12);
    m->iextdefsym = field(m, c, 16);
    m->nextdefsym = field(m, c, 20);
    m->iundefsym = field(m, c, 24);
    m->nundefsym = field(m, c, 28);
    return 0;
}

/* linkedit_data_command: a dataoff/datasize pair into __LINKEDIT. */
static int read_linkedit(struct td_macho *m, const struct command *c, bool *seen, uint32_t *off,
                         uint32_t *size, const char *what, struct td_err *err)
{
    if (need_size(c, 16, err) != 0 || once(seen, c, err) != 0)
        return -1;
    *off = field(m, c, 8);
    *size = field(m, c, 12);
    return need_region(m, c, *off, *size, what, err);
}

static int read_dyld_info(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 48, err) != 0 || once(&m->has_dyld_info, c, err) != 0)
        return -1;
    if (m->trie_source == TD_MACHO_TRIE_EXPORTS)
        return 0; /* LC_DYLD_EXPORTS_TRIE supersedes it */
    m->trie_source = TD_MACHO_TRIE_DYLD_INFO;
    m->export_off = field(m, c, 40);
    m->export_size = field(m, c, 44);
    return need_region(m, c, m->export_off, m->export_size, "export trie", err);
}

static int read_main(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 24, err) != 0 || once(&m->has_main, c, err) != 0)
        return -1;
    td_buf_u64(&m->buf, c->off + 8, &m->entryoff);
    td_buf_u64(&m->buf, c->off + 16, &m->stacksize);
    return 0;
}

static int read_uuid(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 24, err) != 0 || once(&m->has_uuid, c, err) != 0)
        return -1;
    for (unsigned i = 0; i < 16; i++)
        td_buf_u8(&m->buf, c->off + 8 + i, &m->uuid[i]);
    return 0;
}

static int read_rpath(struct td_macho *m, const struct command *c, struct td_err *err)
{
    if (need_size(c, 12, err) != 0)
        return -1;
    const char *path = command_string(m, c, 8, 12, err);
    if (!path)
        return -1;
    m->rpaths[m->nrpaths++] = path;
    return 0;
}

/* LC_DYLD_EXPORTS_TRIE supersedes the trie of LC_DYLD_INFO, wherever it is. */
static int read_exports_trie(struct td_macho *m, const struct command *c, struct td_err *err)
{
    bool seen = m->trie_source == TD_MACHO_TRIE_EXPORTS;
    m->trie_source = TD_MACHO_TRIE_EXPORTS;
    return read_linkedit(m, c, &seen, &m->export_off, &m->export_size, "export trie", err);
}

/* Only the segment's name and address: the export trie's addresses are
 * offsets from the image base, which is __TEXT's vmaddr. */
static int read_segment(struct td_macho *m, const struct command *c, struct td_err *err)
{
    unsigned width = c->cmd == LC_SEGMENT_64 ? 8 : 4;
    if (need_size(c, c->cmd == LC_SEGMENT_64 ? 72 : 56, err) != 0)
        return -1;
    m->nsegments++;
    if (td_buf_has(&m->buf, c->off + 8, 16) && memcmp(m->buf.data + c->off + 8, "__TEXT", 7) == 0)
        td_buf_word(&m->buf, c->off + 24, width, &m->text_vmaddr);
    return 0;
}

static int read_command(struct td_macho *m, const struct command *c, struct td_arena *arena,
                        struct td_err *err)
{
    enum td_macho_dylib_kind kind;
    if (dylib_kind(c->cmd, &kind) || c->cmd == LC_ID_DYLIB)
        return read_dylib(m, c, err);
    switch (c->cmd) {
    case LC_RPATH:
        return read_rpath(m, c, err);
    case LC_BUILD_VERSION:
        return read_build_version(m, c, arena, err);
    case LC_VERSION_MIN_MACOSX:
    case LC_VERSION_MIN_IPHONEOS:
    case LC_VERSION_MIN_TVOS:
    case LC_VERSION_MIN_WATCHOS:
        return read_version_min(m, c, err);
    case LC_UUID:
        return read_uuid(m, c, err);
    case LC_MAIN:
        return read_main(m, c, err);
    case LC_SYMTAB:
        return read_symtab(m, c, err);
    case LC_DYSYMTAB:
        return read_dysymtab(m, c, err);
    case LC_DYLD_INFO:
    case LC_DYLD_INFO_ONLY:
        return read_dyld_info(m, c, err);
    case LC_DYLD_EXPORTS_TRIE:
        return read_exports_trie(m, c, err);
    case LC_DYLD_CHAINED_FIXUPS:
        return read_linkedit(m, c, &m->has_chained_fixups, &m->chained_fixups_off,
                             &m->chained_fixups_size, "chained fixups", err);
    case LC_CODE_SIGNATURE:
        return read_linkedit(m, c, &m->has_code_signature, &m->code_signature_off,
                             &m->code_signature_size, "code signature", err);
    case LC_SEGMENT:
    case LC_SEGMENT_64:
        return read_segment(m, c, err);
    default:
        if (!td_macho_command_name(c->cmd))
            m->unknown_cmds++;
        return 0;
    }
}

/* The symbol-table ranges LC_DYSYMTAB claims must lie inside LC_SYMTAB's;
 * checked once all commands are read, as either may come first. */
static int check_dysymtab(const struct td_macho *m, const struct command *c, struct td_err *err)
{
    const struct {
        const char *name;
        uint32_t first, count;
    } ranges[] = {
        {"local", m->ilocalsym, m->nlocalsym},
        {"extdef", m->iextdefsym, m->nextdefsym},
        {"undef", m->iundefsym, m->nundefsym},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        if ((uint64_t)ranges[i].first + ranges[i].count > (m->has_symtab ? m->nsyms : 0)) {
            char what[128];
            snprintf(what, sizeof what,
                     "%s symbols [%" PRIu32 ", +%" PRIu32 ") lie outside the %" PRIu32
                     " symbols of LC_SYMTAB",
                     ranges[i].name, ranges[i].first, ranges[i].count, m->nsyms);
            return command_error(c, err, what);
        }
    }
    return 0;
}

/* First pass: locate and size-check every command, counting the ones that
 * fill arrays, so that the arrays are allocated once at their exact size. */
static int count_commands(struct td_macho *m, size_t *ndylibs, size_t *nrpaths, struct td_err *err)
{
    uint64_t next = header_size(m);
    enum td_macho_dylib_kind kind;
    *ndylibs = *nrpaths = 0;
    for (uint32_t i = 0; i < m->ncmds; i++) {
        struct command c = {.index = i};
        if (next_command(m, &next, &c, err) != 0)
            return -1;
        *ndylibs += dylib_kind(c.cmd, &kind);
        *nrpaths += c.cmd == LC_RPATH;
    }
    return 0;
}

static int parse_commands(struct td_macho *m, struct td_arena *arena, struct td_err *err)
{
    size_t ndylibs, nrpaths;
    if (count_commands(m, &ndylibs, &nrpaths, err) != 0)
        return -1;
    m->dylibs = ndylibs ? td_arena_array(arena, ndylibs, sizeof *m->dylibs) : NULL;
    m->rpaths = nrpaths ? td_arena_array(arena, nrpaths, sizeof *m->rpaths) : NULL;
    if ((ndylibs && !m->dylibs) || (nrpaths && !m->rpaths)) {
        td_err_set(err, "load commands: arena cap reached for %zu dylibs and %zu rpaths", ndylibs,
                   nrpaths);
        return -1;
    }
    uint64_t next = header_size(m);
    struct command dysymtab = {0};
    for (uint32_t i = 0; i < m->ncmds; i++) {
        struct command c = {.index = i};
        next_command(m, &next, &c, err); /* checked by count_commands */
        if (read_command(m, &c, arena, err) != 0)
            return -1;
        if (c.cmd == LC_DYSYMTAB)
            dysymtab = c;
    }
    return m->has_dysymtab ? check_dysymtab(m, &dysymtab, err) : 0;
}

int td_macho_parse(const uint8_t *data, size_t size, struct td_arena *arena, struct td_macho *out,
                   struct td_err *err)
{
    memset(out, 0, sizeof *out);
    if (parse_header(data, size, out, err) != 0)
        return -1;
    return parse_commands(out, arena, err);
}

int td_macho_parse_slice(const uint8_t *file, size_t file_size, const struct td_macho_slice *slice,
                         struct td_arena *arena, struct td_macho *out, struct td_err *err)
{
    struct td_buf whole = td_buf_make(file, file_size, true);
    if (!td_buf_has(&whole, slice->offset, slice->size)) {
        td_err_set(err, "slice at offset 0x%" PRIx64 ": lies outside the file", slice->offset);
        return -1;
    }
    if (td_macho_parse(file + slice->offset, (size_t)slice->size, arena, out, err) != 0) {
        td_err_prefix(err, "slice at offset 0x%" PRIx64 ": ", slice->offset);
        return -1;
    }
    if (out->cputype != slice->cputype) {
        td_err_set(err,
                   "slice at offset 0x%" PRIx64
                   ": the fat table says cputype %s but the slice header says %s",
                   slice->offset, td_macho_cpu_name(slice->cputype),
                   td_macho_cpu_name(out->cputype));
        return -1;
    }
    return 0;
}

const struct td_macho_dylib *td_macho_ordinal_dylib(const struct td_macho *m, uint32_t ordinal)
{
    if (ordinal == TD_MACHO_SELF_LIBRARY_ORDINAL || ordinal > m->ndylibs)
        return NULL;
    return &m->dylibs[ordinal - 1];
}
