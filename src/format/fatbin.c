/* Fat binary reader (see fatbin.h). NVIDIA publishes only the container
 * header (fatbinary_section.h in the CUDA toolkit: fatBinaryHeader {magic
 * 0xBA55ED50, unsigned short version 1, unsigned short headerSize, unsigned
 * long long fatSize}); the entry header below is as reverse-engineered from
 * cuobjdump in GrigoryEvko/nvopen-tools:fatbin/FORMAT_SPECIFICATION.md
 * @3b50e20e542b and the kaitai description of the same layout:
 *   0x00 u16 kind (1 PTX, 2 ELF cubin)     0x02 u16 attributes
 *   0x04 u32 entry header size (64/80/112) 0x08 u64 payload size (8-aligned)
 *   0x1c u32 architecture (80 = sm_80)     0x28 u64 flags
 * and the next entry starts at entry + header size + payload size. Flags
 * 0x2000 and 0x8000 mark a compressed payload (ZLUDA's zluda_dump names
 * them LZ4 and ZSTD; the specification above names bit 15). */
#include "format/fatbin.h"

#include <stdio.h>
#include <string.h>

#include "format/buf.h"

enum {
    ENTRY_KIND = 0x00,
    ENTRY_HEADER_SIZE = 0x04,
    ENTRY_PAYLOAD_SIZE = 0x08,
    ENTRY_ARCH = 0x1c,
    ENTRY_FLAGS = 0x28,
};

static const uint64_t FLAGS_COMPRESSED = 0x2000 | 0x8000;

/* Reads the entries of the container whose entries span [at, end); stores
 * them into OUT when not NULL, and counts them into *COUNT either way. */
static int walk_container(const struct td_buf *b, uint64_t at, uint64_t end,
                          struct td_fatbin_entry *out, size_t *count, struct td_err *err)
{
    while (at < end) {
        struct td_buf c = td_buf_make(b->data, (size_t)end, false);
        uint16_t kind;
        uint32_t hsize, arch;
        uint64_t payload, flags, next;
        if (!td_buf_has(&c, at, TD_FATBIN_ENTRY_MIN)) {
            td_err_set(err, "fatbin entry at offset 0x%llx: header truncated (%llu bytes left)",
                       (unsigned long long)at, (unsigned long long)(end - at));
            return -1;
        }
        td_buf_u16(&c, at + ENTRY_KIND, &kind);
        td_buf_u32(&c, at + ENTRY_HEADER_SIZE, &hsize);
        td_buf_u64(&c, at + ENTRY_PAYLOAD_SIZE, &payload);
        td_buf_u32(&c, at + ENTRY_ARCH, &arch);
        td_buf_u64(&c, at + ENTRY_FLAGS, &flags);
        if (hsize < TD_FATBIN_ENTRY_MIN) {
            td_err_set(err, "fatbin entry at offset 0x%llx: header size %u is below %d",
                       (unsigned long long)at, hsize, TD_FATBIN_ENTRY_MIN);
            return -1;
        }
        if (!td_add_u64(at, hsize, &next) || !td_add_u64(next, payload, &next) || next > end) {
            td_err_set(err,
                       "fatbin entry at offset 0x%llx: header %u + payload %llu bytes run past the "
                       "container end at 0x%llx",
                       (unsigned long long)at, hsize, (unsigned long long)payload,
                       (unsigned long long)end);
            return -1;
        }
        if (out) {
            struct td_fatbin_entry *e = &out[*count];
            e->kind = kind;
            e->arch = arch;
            e->flags = flags;
            e->compressed = (flags & FLAGS_COMPRESSED) != 0;
            e->offset = at;
            e->payload_offset = at + hsize;
            e->payload_size = payload;
        }
        (*count)++;
        at = next;
    }
    return 0;
}

/* One pass over every container: counts (OUT NULL) or fills. */
static int walk(const struct td_buf *b, struct td_fatbin_entry *out, size_t *count,
                size_t *containers, struct td_err *err)
{
    uint64_t off = 0;
    *count = 0;
    *containers = 0;
    for (;;) {
        while (off < b->size && b->data[off] == 0) /* padding between containers */
            off++;
        if (off >= b->size)
            return 0;
        uint32_t magic;
        uint16_t version, hsize;
        uint64_t fat_size, start, end;
        if (!td_buf_has(b, off, TD_FATBIN_HEADER_SIZE)) {
            td_err_set(err, "fatbin header at offset 0x%llx: truncated (%llu bytes left)",
                       (unsigned long long)off, (unsigned long long)(b->size - off));
            return -1;
        }
        td_buf_u32(b, off, &magic);
        td_buf_u16(b, off + 4, &version);
        td_buf_u16(b, off + 6, &hsize);
        td_buf_u64(b, off + 8, &fat_size);
        if (magic != TD_FATBIN_MAGIC) {
            td_err_set(err, "fatbin header at offset 0x%llx: magic 0x%08x, expected 0x%08x",
                       (unsigned long long)off, magic, TD_FATBIN_MAGIC);
            return -1;
        }
        if (hsize < TD_FATBIN_HEADER_SIZE) {
            td_err_set(err, "fatbin header at offset 0x%llx: header size %u is below %d",
                       (unsigned long long)off, hsize, TD_FATBIN_HEADER_SIZE);
            return -1;
        }
        if (!td_add_u64(off, hsize, &start) || !td_add_u64(start, fat_size, &end) ||
            end > b->size) {
            td_err_set(err,
                       "fatbin header at offset 0x%llx: fat size %llu runs past the end of the "
                       "section (%zu bytes)",
                       (unsigned long long)off, (unsigned long long)fat_size, b->size);
            return -1;
        }
        (*containers)++;
        if (walk_container(b, start, end, out, count, err) != 0)
            return -1;
        off = end;
    }
}

int td_fatbin_parse(struct td_fatbin *fb, const uint8_t *data, size_t size, struct td_arena *arena,
                    struct td_err *err)
{
    memset(fb, 0, sizeof *fb);
    struct td_buf b = td_buf_make(data, size, false);
    size_t count, containers;
    struct td_err first = {0};
    int rc = walk(&b, NULL, &count, &containers, &first);
    if (count) {
        fb->entries = td_arena_array(arena, count, sizeof *fb->entries);
        if (!fb->entries) {
            td_err_set(err, "fatbin: out of memory for %zu entries", count);
            return -1;
        }
        struct td_err again = {0};
        walk(&b, fb->entries, &fb->count, &fb->containers, &again);
    }
    fb->containers = containers;
    if (rc != 0)
        td_err_set(err, "%s", first.msg);
    return rc;
}

const char *td_fatbin_arch_name(const struct td_fatbin_entry *e, char *out, size_t cap)
{
    const char *prefix = e->kind == TD_FATBIN_ELF   ? "sm"
                         : e->kind == TD_FATBIN_PTX ? "compute"
                                                    : NULL;
    if (!prefix || cap == 0)
        return NULL;
    snprintf(out, cap, "%s_%u", prefix, e->arch);
    return out;
}

size_t td_fatbin_archs(const struct td_fatbin *fb, struct td_arena *arena, const char ***out)
{
    *out = NULL;
    const char **names = td_arena_array(arena, fb->count ? fb->count : 1, sizeof *names);
    if (!names)
        return 0;
    size_t n = 0;
    for (size_t i = 0; i < fb->count; i++) {
        char name[32];
        if (!td_fatbin_arch_name(&fb->entries[i], name, sizeof name))
            continue;
        size_t j = 0;
        while (j < n && strcmp(names[j], name) != 0)
            j++;
        if (j < n)
            continue;
        if (!(names[n] = td_arena_strdup(arena, name)))
            return 0;
        n++;
    }
    *out = names;
    return n;
}
