/* Universal (fat) files: the big-endian slice table of <mach-o/fat.h>, with
 * every slice checked to lie in the file, aligned, and apart from the others;
 * and choosing a slice by CPU. */
#include "format/macho.h"

#include <inttypes.h>
#include <string.h>

#define FAT_MAGIC 0xcafebabeu
#define FAT_MAGIC_64 0xcafebabfu
#define FAT_HEADER_SIZE 8u
#define FAT_ARCH_SIZE 20u
#define FAT_ARCH_64_SIZE 32u
/* JVM spec §4.1: class files share 0xcafebabe and have major_version >= 45
 * where a fat header has nfat_arch; llvm and file(1) tell them apart so. */
#define FAT_MAX_SLICES 44u
/* <mach-o/loader.h> MAXSECTALIGN-style bound lipo uses for slice alignment. */
#define FAT_MAX_ALIGN 15u

static bool read_be32(const uint8_t *data, size_t size, uint64_t off, uint32_t *out)
{
    struct td_buf b = td_buf_make(data, size, true);
    return td_buf_u32(&b, off, out);
}

bool td_macho_is_fat(const uint8_t *data, size_t size)
{
    uint32_t magic, count;
    if (!read_be32(data, size, 0, &magic) || !read_be32(data, size, 4, &count))
        return false;
    return (magic == FAT_MAGIC || magic == FAT_MAGIC_64) && count <= FAT_MAX_SLICES;
}

static int read_fat_arch(const struct td_buf *b, bool is_64, uint64_t off, struct td_macho_slice *s)
{
    uint32_t off32, size32;
    if (!td_buf_u32(b, off, &s->cputype) || !td_buf_u32(b, off + 4, &s->cpusubtype))
        return -1;
    if (is_64)
        return td_buf_u64(b, off + 8, &s->offset) && td_buf_u64(b, off + 16, &s->size) &&
                       td_buf_u32(b, off + 24, &s->align)
                   ? 0
                   : -1;
    if (!td_buf_u32(b, off + 8, &off32) || !td_buf_u32(b, off + 12, &size32) ||
        !td_buf_u32(b, off + 16, &s->align))
        return -1;
    s->offset = off32;
    s->size = size32;
    return 0;
}

/* The bounds, alignment and overlap rules every slice must meet. */
static int check_slice(const struct td_buf *b, const struct td_macho_fat *fat, uint32_t i,
                       uint64_t arch_off, uint64_t table_end, struct td_err *err)
{
    const struct td_macho_slice *s = &fat->slices[i];
    if (s->size == 0 || !td_buf_has(b, s->offset, s->size)) {
        td_err_set(err,
                   "fat_arch %" PRIu32 " at offset 0x%" PRIx64 ": slice [0x%" PRIx64 ", +0x%" PRIx64
                   ") lies outside the file (size 0x%zx)",
                   i, arch_off, s->offset, s->size, b->size);
        return -1;
    }
    if (s->offset < table_end) {
        td_err_set(err,
                   "fat_arch %" PRIu32 " at offset 0x%" PRIx64 ": slice offset 0x%" PRIx64
                   " lies inside the fat header (which ends at 0x%" PRIx64 ")",
                   i, arch_off, s->offset, table_end);
        return -1;
    }
    if (s->align > FAT_MAX_ALIGN || (s->offset & ((UINT64_C(1) << s->align) - 1)) != 0) {
        td_err_set(err,
                   "fat_arch %" PRIu32 " at offset 0x%" PRIx64 ": slice offset 0x%" PRIx64
                   " does not meet its alignment 2^%" PRIu32,
                   i, arch_off, s->offset, s->align);
        return -1;
    }
    for (uint32_t j = 0; j < i; j++) {
        const struct td_macho_slice *o = &fat->slices[j];
        if (s->offset < o->offset + o->size && o->offset < s->offset + s->size) {
            td_err_set(err,
                       "fat_arch %" PRIu32 " at offset 0x%" PRIx64 ": slice [0x%" PRIx64
                       ", +0x%" PRIx64 ") overlaps slice %" PRIu32,
                       i, arch_off, s->offset, s->size, j);
            return -1;
        }
        if (o->cputype == s->cputype && (o->cpusubtype & ~TD_MACHO_CPU_SUBTYPE_MASK) ==
                                            (s->cpusubtype & ~TD_MACHO_CPU_SUBTYPE_MASK)) {
            td_err_set(err,
                       "fat_arch %" PRIu32 " at offset 0x%" PRIx64
                       ": same architecture as slice %" PRIu32 " (%s)",
                       i, arch_off, j, td_macho_cpu_name(s->cputype));
            return -1;
        }
    }
    return 0;
}

int td_macho_fat_parse(const uint8_t *data, size_t size, struct td_arena *arena,
                       struct td_macho_fat *out, struct td_err *err)
{
    struct td_buf b = td_buf_make(data, size, true); /* <mach-o/fat.h>: always big-endian */
    uint32_t magic, count;
    memset(out, 0, sizeof *out);
    if (!td_buf_u32(&b, 0, &magic) || !td_buf_u32(&b, 4, &count)) {
        td_err_set(err, "fat header at offset 0x0: truncated (file is %zu bytes)", size);
        return -1;
    }
    if (magic != FAT_MAGIC && magic != FAT_MAGIC_64) {
        td_err_set(err, "fat header at offset 0x0: magic 0x%08" PRIx32 " is not a universal file",
                   magic);
        return -1;
    }
    if (count == 0 || count > FAT_MAX_SLICES) {
        td_err_set(err, "fat header at offset 0x0: nfat_arch %" PRIu32 " is not in 1..%u", count,
                   FAT_MAX_SLICES);
        return -1;
    }
    out->is_64 = magic == FAT_MAGIC_64;
    uint64_t entry = out->is_64 ? FAT_ARCH_64_SIZE : FAT_ARCH_SIZE;
    uint64_t table_end = FAT_HEADER_SIZE + (uint64_t)count * entry;
    if (!td_buf_has(&b, 0, table_end)) {
        td_err_set(err,
                   "fat header at offset 0x0: %" PRIu32 " fat_arch entries end at 0x%" PRIx64
                   ", past the end of the file (0x%zx)",
                   count, table_end, size);
        return -1;
    }
    out->slices = td_arena_array(arena, count, sizeof *out->slices);
    if (!out->slices) {
        td_err_set(err, "fat header at offset 0x0: arena cap reached for %" PRIu32 " slices",
                   count);
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint64_t off = FAT_HEADER_SIZE + i * entry;
        read_fat_arch(&b, out->is_64, off, &out->slices[i]); /* inside the table checked above */
        if (check_slice(&b, out, i, off, table_end, err) != 0)
            return -1;
    }
    out->nslices = count;
    return 0;
}

const struct td_macho_slice *td_macho_fat_find(const struct td_macho_fat *fat, uint32_t cputype,
                                               uint32_t cpusubtype)
{
    for (uint32_t i = 0; i < fat->nslices; i++) {
        const struct td_macho_slice *s = &fat->slices[i];
        if (s->cputype != cputype)
            continue;
        if (cpusubtype == TD_MACHO_SUBTYPE_ANY || (s->cpusubtype & ~TD_MACHO_CPU_SUBTYPE_MASK) ==
                                                      (cpusubtype & ~TD_MACHO_CPU_SUBTYPE_MASK))
            return s;
    }
    return NULL;
}
