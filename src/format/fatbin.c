/* Fat binary reader (see fatbin.h). NVIDIA publishes only the container
 * header (fatbinary_section.h in the CUDA toolkit: fatBinaryHeader {magic
 * 0xBA55ED50, unsigned short version 1, unsigned short headerSize, unsigned
 * long long fatSize}); the entry header below is as reverse-engineered from
 * cuobjdump in GrigoryEvko/nvopen-tools:fatbin/FORMAT_SPECIFICATION.md
 * @3b50e20e542b and the kaitai description of the same layout:
 *   0x00 u16 kind (1 PTX, 2 ELF cubin)     0x02 u16 attributes
 *   0x04 u32 entry header size (64/80/112) 0x08 u64 payload size (8-aligned)
 *   0x1c u32 architecture (80 = sm_80)     0x28 u64 flags
 * and the next entry starts at entry + header size + payload size. Also
 * read, from the same sources, the version at 0x18 (u16 minor, u16 major:
 * the PTX ISA version of a PTX entry, the code version of a cubin) and the
 * uncompressed size at 0x38. Flags 0x2000 and 0x8000 mark a compressed
 * payload (ZLUDA's zluda_dump names them LZ4 and ZSTD; the specification
 * above names bit 15); 0x100000 and 0x200000 mark the arch-specific
 * (sm_90a) and family-specific (sm_100f) variants. The last three were
 * confirmed by construction with CUDA 13.0's nvcc and fatbinary (-gencode
 * ...,code=sm_90a / sm_100f / compute_100a, --compress-mode=speed):
 * tests/cmd/fatbin_cases.py builds those fixtures and checks them. */
#include "format/fatbin.h"

#include <stdio.h>
#include <string.h>

#include "format/buf.h"

enum {
    ENTRY_KIND = 0x00,
    ENTRY_HEADER_SIZE = 0x04,
    ENTRY_PAYLOAD_SIZE = 0x08,
    ENTRY_VERSION_MINOR = 0x18,
    ENTRY_VERSION_MAJOR = 0x1a,
    ENTRY_ARCH = 0x1c,
    ENTRY_FLAGS = 0x28,
    ENTRY_UNCOMPRESSED_SIZE = 0x38,
};

static const uint64_t FLAG_LZ4 = 0x2000, FLAG_ZSTD = 0x8000;
static const uint64_t FLAG_ARCH_SPECIFIC = 0x100000, FLAG_FAMILY_SPECIFIC = 0x200000;

typedef bool (*visit_fn)(const struct td_fatbin_entry *e, void *ctx);

/* Where the walk reads: a buffer in memory, or READ (the caller's pread)
 * so that only the headers are copied and no payload page is touched. A
 * buffer that maps a file may come with RELEASE, told of what the search
 * has left behind ([0, *released) so far). */
struct source {
    const uint8_t *data;
    td_fatbin_read_fn read;
    void *src;
    uint64_t size;
    td_fatbin_release_fn release;
    void *rctx;
    uint64_t *released;
};

/* N bytes at OFF into OUT; false past the end or when READ fails. */
static bool source_read(const struct source *s, uint64_t off, void *out, size_t n)
{
    if (off > s->size || n > s->size - off)
        return false;
    if (s->data) {
        memcpy(out, s->data + off, n);
        return true;
    }
    return s->read(s->src, off, out, n);
}

/* The fields of the entry header H (at least TD_FATBIN_ENTRY_MIN bytes,
 * found at offset AT), into E. */
static void read_entry(const struct td_buf *h, uint64_t at, uint32_t hsize,
                       struct td_fatbin_entry *e)
{
    /* memset first: the caller sets e->container after. */
    memset(e, 0, sizeof *e);
    td_buf_u16(h, ENTRY_KIND, &e->kind);
    td_buf_u64(h, ENTRY_PAYLOAD_SIZE, &e->payload_size);
    td_buf_u16(h, ENTRY_VERSION_MINOR, &e->version_minor);
    td_buf_u16(h, ENTRY_VERSION_MAJOR, &e->version_major);
    td_buf_u32(h, ENTRY_ARCH, &e->arch);
    td_buf_u64(h, ENTRY_FLAGS, &e->flags);
    e->compression = (e->flags & FLAG_ZSTD)  ? TD_FATBIN_ZSTD
                     : (e->flags & FLAG_LZ4) ? TD_FATBIN_LZ4
                                             : TD_FATBIN_PLAIN;
    e->compressed = e->compression != TD_FATBIN_PLAIN;
    e->variant = (e->flags & FLAG_ARCH_SPECIFIC)     ? 'a'
                 : (e->flags & FLAG_FAMILY_SPECIFIC) ? 'f'
                                                     : 0;
    if (e->compressed && hsize >= ENTRY_UNCOMPRESSED_SIZE + 8)
        td_buf_u64(h, ENTRY_UNCOMPRESSED_SIZE, &e->uncompressed_size);
    e->offset = at;
    e->payload_offset = at + hsize;
}

/* Visits the entries of the container at CONTAINER whose entries span
 * [at, end) (VISIT NULL: only checks that they chain to the end). Returns
 * 1 when VISIT stopped the walk, 0 at the container's end, -1 on a bad header. */
static int walk_container(const struct source *s, uint64_t container, uint64_t at, uint64_t end,
                          visit_fn visit, void *ctx, struct td_err *err)
{
    enum { READ = ENTRY_UNCOMPRESSED_SIZE + 8 }; /* every field read, in one read */
    while (at < end) {
        uint8_t bytes[READ];
        uint32_t hsize;
        uint64_t payload, next;
        if (end - at < TD_FATBIN_ENTRY_MIN) {
            td_err_set(err, "fatbin entry at offset 0x%llx: header truncated (%llu bytes left)",
                       (unsigned long long)at, (unsigned long long)(end - at));
            return -1;
        }
        size_t n = end - at < READ ? TD_FATBIN_ENTRY_MIN : READ;
        if (!source_read(s, at, bytes, n)) {
            td_err_set(err, "fatbin entry at offset 0x%llx: header unreadable",
                       (unsigned long long)at);
            return -1;
        }
        struct td_buf h = td_buf_make(bytes, n, false);
        td_buf_u32(&h, ENTRY_HEADER_SIZE, &hsize);
        td_buf_u64(&h, ENTRY_PAYLOAD_SIZE, &payload);
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
        if (hsize < n) /* fields past the header are not its own */
            h = td_buf_make(bytes, hsize, false);
        struct td_fatbin_entry e;
        read_entry(&h, at, hsize, &e);
        e.container = container;
        if (visit && !visit(&e, ctx))
            return 1;
        at = next;
    }
    return 0;
}

/* The container header at OFF: where its entries start and end. */
static int read_container(const struct source *s, uint64_t off, uint64_t *start, uint64_t *end,
                          struct td_err *err)
{
    uint8_t bytes[TD_FATBIN_HEADER_SIZE];
    uint32_t magic;
    uint16_t version, hsize;
    uint64_t fat_size;
    if (s->size - off < TD_FATBIN_HEADER_SIZE) {
        td_err_set(err, "fatbin header at offset 0x%llx: truncated (%llu bytes left)",
                   (unsigned long long)off, (unsigned long long)(s->size - off));
        return -1;
    }
    if (!source_read(s, off, bytes, sizeof bytes)) {
        td_err_set(err, "fatbin header at offset 0x%llx: unreadable", (unsigned long long)off);
        return -1;
    }
    struct td_buf b = td_buf_make(bytes, sizeof bytes, false);
    td_buf_u32(&b, 0, &magic);
    td_buf_u16(&b, 4, &version);
    td_buf_u16(&b, 6, &hsize);
    td_buf_u64(&b, 8, &fat_size);
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
    if (!td_add_u64(off, hsize, start) || !td_add_u64(*start, fat_size, end) || *end > s->size) {
        td_err_set(err,
                   "fatbin header at offset 0x%llx: fat size %llu runs past the end of the "
                   "section (%llu bytes)",
                   (unsigned long long)off, (unsigned long long)fat_size,
                   (unsigned long long)s->size);
        return -1;
    }
    return 0;
}

/* The first nonzero byte at or after OFF (the zero padding between
 * containers), or the size; read in pieces. */
static uint64_t skip_padding(const struct source *s, uint64_t off)
{
    uint8_t piece[16]; /* padding is a few bytes: alignment */
    while (off < s->size) {
        size_t n = s->size - off < sizeof piece ? (size_t)(s->size - off) : sizeof piece;
        if (!source_read(s, off, piece, n))
            return off; /* read_container says so */
        size_t i = 0;
        while (i < n && piece[i] == 0)
            i++;
        off += i;
        if (i < n)
            break;
    }
    return off;
}

/* Every container in turn; *CONTAINERS counts the headers accepted.
 * Returns 1 when VISIT stopped the walk, 0 at the end, -1 on a bad header. */
static int walk(const struct source *s, visit_fn visit, void *ctx, size_t *containers,
                struct td_err *err)
{
    uint64_t off = 0;
    *containers = 0;
    for (;;) {
        off = skip_padding(s, off);
        if (off >= s->size)
            return 0;
        uint64_t start, end;
        if (read_container(s, off, &start, &end, err) != 0)
            return -1;
        (*containers)++;
        int rc = walk_container(s, off, start, end, visit, ctx, err);
        if (rc != 0)
            return rc;
        off = end;
    }
}

int td_fatbin_walk(const uint8_t *data, size_t size, visit_fn visit, void *ctx, struct td_err *err)
{
    struct source s = {.data = data, .size = size};
    size_t containers;
    return walk(&s, visit, ctx, &containers, err) < 0 ? -1 : 0;
}

int td_fatbin_walk_read(td_fatbin_read_fn read, void *src, uint64_t size, visit_fn visit, void *ctx,
                        struct td_err *err)
{
    struct source s = {.read = read, .src = src, .size = size};
    size_t containers;
    return walk(&s, visit, ctx, &containers, err) < 0 ? -1 : 0;
}

/* Outside the fat binary section, containers lie among other data (cuFFT
 * keeps ~24,000 in .ldata, cuBLASLt hundreds in .cask_resource, NCCL its
 * relocatable ones in __nv_relfatbin). fatbinary_section.h declares the
 * header fatbinary_ALIGN_(8), so only 8-byte-aligned offsets are tried,
 * and bytes that merely hold the magic are told from a container by the
 * rest of the header (version 1) and by its entries chaining exactly to
 * its end. */
enum { SCAN_CHUNK = 64 * 1024, RELEASE_STEP = 256 * 1024 };

static bool is_magic(const uint8_t *p)
{
    static const uint8_t magic[4] = {0x50, 0xED, 0x55, 0xBA}; /* 0xBA55ED50, little-endian */
    return memcmp(p, magic, sizeof magic) == 0;
}

/* The first 8-byte-aligned offset in [FROM, END) of P holding the magic, or
 * END (FROM aligned). memchr finds the magic's last byte, 0xBA, which is
 * rare outside containers (1,678 in libtorch_cpu's 11 MB of data sections;
 * a loop over every position cost 8.5 M instructions there). Where that
 * byte is common (a hit within 64 bytes of the last), the next 4 KiB are
 * checked position by position, so no input costs more than a call per
 * 64 bytes. */
static uint64_t search_bytes(const uint8_t *p, uint64_t from, uint64_t end)
{
    uint64_t at = from;
    while (at + 4 <= end) {
        const uint8_t *hit = memchr(p + at + 3, 0xBA, (size_t)(end - at - 3));
        if (!hit)
            return end;
        uint64_t cand = (uint64_t)(hit - p) - 3;
        if (cand % 8 == 0 && is_magic(p + cand))
            return cand;
        uint64_t next = (cand + 8) & ~(uint64_t)7;
        if (next - at < 64) {
            uint64_t stop = next < end && end - next > 4096 ? next + 4096 : end;
            for (at = next; at + 4 <= stop; at += 8)
                if (is_magic(p + at))
                    return at;
            continue;
        }
        at = next;
    }
    return end;
}

/* Tells S's RELEASE of what lies before UPTO once that is a step past the
 * last release, or at once with FINAL. Each release reaches a step back
 * over the last one: a release drops only the pages wholly inside it, so
 * the page across the last one's end would otherwise stay (cuFFT's 1,000
 * steps left 4 MB); pages are smaller than a step. */
static void release_behind(const struct source *s, uint64_t upto, bool final)
{
    uint64_t done = *s->released;
    if (upto > done && (final || upto - done >= RELEASE_STEP)) {
        uint64_t from = done > RELEASE_STEP ? done - RELEASE_STEP : 0;
        s->release(s->rctx, from, upto - from);
        *s->released = upto;
    }
}

/* find_magic in a mapped buffer, a step at a time, releasing the pages
 * searched: searching the mapping costs less CPU than copying it with
 * pread (libtorch_cpu's 9.7 MB: the kernel's copy and page-cache lookups
 * were a quarter of inspect --symbols), and releasing as it goes keeps
 * the pages out of the peak RSS. */
static uint64_t find_magic_releasing(const struct source *s, uint64_t from, uint64_t *scanned)
{
    while (from < s->size) {
        release_behind(s, from, false);
        /* Positions in [from, step) hold the magic in bytes up to step + 3. */
        uint64_t step = s->size - from > RELEASE_STEP ? from + RELEASE_STEP : s->size;
        uint64_t end = s->size - step > 3 ? step + 3 : s->size;
        uint64_t at = search_bytes(s->data, from, end);
        if (at < end) {
            *scanned += at - from;
            return at;
        }
        *scanned += step - from;
        from = step;
    }
    release_behind(s, s->size, true);
    return s->size;
}

/* The first 8-byte-aligned offset at or after FROM that holds the magic,
 * or the size; *SCANNED counts the bytes looked at. Bytes in memory are
 * searched in place; through READ in pieces that start small and double:
 * the next container usually starts within a few bytes of the last one's
 * end (cuFFT's 24,000 lie back to back), and reading 64 KiB after each
 * would copy the whole payload area. (Searching a mapping instead of
 * reading was no faster for check: the page faults cost what the copies
 * do, and the mapping's pages count in the peak RSS.) */
static uint64_t find_magic(const struct source *s, uint64_t from, uint64_t *scanned)
{
    uint8_t chunk[SCAN_CHUNK];
    size_t piece = 256;
    from = (from + 7) & ~(uint64_t)7;
    if (s->data && s->release)
        return find_magic_releasing(s, from, scanned);
    if (s->data) {
        uint64_t at = from < s->size ? search_bytes(s->data, from, s->size) : s->size;
        *scanned += at - (from < at ? from : at);
        return at;
    }
    while (from < s->size && s->size - from >= 4) {
        size_t n = s->size - from < piece ? (size_t)(s->size - from) : piece;
        if (!s->read(s->src, from, chunk, n))
            return s->size;
        uint64_t at = search_bytes(chunk, 0, n);
        if (at < n) {
            *scanned += at;
            return from + at;
        }
        *scanned += n;
        from += (n + 7) & ~(size_t)7; /* the positions checked, and no fewer than 8 */
        if (piece < SCAN_CHUNK)
            piece *= 2;
    }
    return s->size;
}

/* Whether OFF starts a container: a version-1 header whose entries chain
 * exactly to its end ([*START, *END)). */
static bool container_at(const struct source *s, uint64_t off, uint64_t *start, uint64_t *end)
{
    struct td_err ignored = {0};
    uint8_t version[2];
    if (read_container(s, off, start, end, &ignored) != 0 || *end == *start ||
        !source_read(s, off + 4, version, sizeof version) || version[0] != 1 || version[1] != 0)
        return false;
    return walk_container(s, off, *start, *end, NULL, NULL, &ignored) == 0;
}

/* Searches the whole of S; 1 when VISIT stopped the walk, else 0. */
static int search(const struct source *s, visit_fn visit, void *ctx, struct td_fatbin_scan *st)
{
    uint64_t off = 0;
    for (;;) {
        off = find_magic(s, off, &st->scanned);
        if (off >= s->size)
            return 0;
        uint64_t start, end;
        if (!container_at(s, off, &start, &end)) {
            off += 8;
            continue;
        }
        st->containers++;
        struct td_err ignored = {0};
        if (walk_container(s, off, start, end, visit, ctx, &ignored) == 1)
            return 1;
        off = end;
    }
}

static int scan(const struct source *s, bool primary, visit_fn visit, void *ctx,
                struct td_fatbin_scan *st, struct td_err *err)
{
    int rc;
    if (primary) {
        size_t containers;
        rc = walk(s, visit, ctx, &containers, err);
        st->containers += containers;
    } else {
        rc = search(s, visit, ctx, st);
    }
    st->stopped = rc == 1;
    return rc < 0 ? -1 : 0;
}

int td_fatbin_scan(const uint8_t *data, size_t size, bool primary, visit_fn visit, void *ctx,
                   struct td_fatbin_scan *st, struct td_err *err)
{
    struct source s = {.data = data, .size = size};
    return scan(&s, primary, visit, ctx, st, err);
}

int td_fatbin_scan_mapped(const uint8_t *data, size_t size, td_fatbin_release_fn release,
                          void *rctx, visit_fn visit, void *ctx, struct td_fatbin_scan *st)
{
    uint64_t released = 0;
    struct source s = {
        .data = data, .size = size, .release = release, .rctx = rctx, .released = &released};
    struct td_err ignored = {0};
    return scan(&s, false, visit, ctx, st, &ignored);
}

int td_fatbin_scan_read(td_fatbin_read_fn read, void *src, uint64_t size, bool primary,
                        visit_fn visit, void *ctx, struct td_fatbin_scan *st, struct td_err *err)
{
    struct source s = {.read = read, .src = src, .size = size};
    return scan(&s, primary, visit, ctx, st, err);
}

static bool count_entry(const struct td_fatbin_entry *e, void *ctx)
{
    (void)e;
    (*(size_t *)ctx)++;
    return true;
}

struct fill {
    struct td_fatbin *fb;
    size_t cap; /* the count of the first pass */
};

static bool store_entry(const struct td_fatbin_entry *e, void *ctx)
{
    struct fill *f = ctx;
    if (f->fb->count == f->cap)
        return false;
    f->fb->entries[f->fb->count++] = *e;
    return true;
}

int td_fatbin_parse(struct td_fatbin *fb, const uint8_t *data, size_t size, struct td_arena *arena,
                    struct td_err *err)
{
    memset(fb, 0, sizeof *fb);
    struct source b = {.data = data, .size = size};
    size_t count = 0, containers;
    struct td_err first = {0};
    int rc = walk(&b, count_entry, &count, &containers, &first);
    if (count) {
        fb->entries = td_arena_array(arena, count, sizeof *fb->entries);
        if (!fb->entries) {
            td_err_set(err, "fatbin: out of memory for %zu entries", count);
            return -1;
        }
        struct td_err again = {0};
        size_t ignored;
        struct fill f = {fb, count};
        walk(&b, store_entry, &f, &ignored, &again);
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
                         : e->kind == TD_FATBIN_LTO ? "lto"
                                                    : NULL;
    if (!prefix || cap == 0)
        return NULL;
    if (e->variant)
        snprintf(out, cap, "%s_%u%c", prefix, e->arch, e->variant);
    else
        snprintf(out, cap, "%s_%u", prefix, e->arch);
    return out;
}

const char *td_fatbin_compression_name(enum td_fatbin_compression c)
{
    return c == TD_FATBIN_ZSTD ? "zstd" : c == TD_FATBIN_LZ4 ? "lz4" : "none";
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
