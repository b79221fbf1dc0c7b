/* Zip central directory: finds the End Of Central Directory record (and its
 * ZIP64 counterpart), reads every central directory record, and looks
 * members up by name. Section numbers cite PKWARE's APPNOTE.TXT 6.3.10. */
#include "format/zip.h"

#include <string.h>

#include "base/compat.h"

enum {
    EOCD_SIG = 0x06054b50,
    EOCD_SIZE = 22,
    ZIP64_LOCATOR_SIG = 0x07064b50,
    ZIP64_LOCATOR_SIZE = 20,
    ZIP64_EOCD_SIG = 0x06064b50,
    ZIP64_EOCD_MIN = 56,
    CD_SIG = 0x02014b50,
    CD_SIZE = 46,
    EXTRA_ZIP64 = 0x0001,
    MAX_COMMENT = 0xFFFF,
};

/* The fields both EOCD flavours agree on, in 64-bit form. */
struct eocd {
    uint64_t offset;
    uint32_t disk, cd_disk;
    uint64_t disk_entries, entries, cd_size, cd_offset;
    uint16_t comment_len;
};

static bool read_eocd(const struct td_buf *b, uint64_t off, struct eocd *e)
{
    uint32_t sig, cd_size, cd_offset;
    uint16_t disk, cd_disk, disk_entries, entries;
    if (!td_buf_u32(b, off, &sig) || sig != EOCD_SIG || !td_buf_u16(b, off + 4, &disk) ||
        !td_buf_u16(b, off + 6, &cd_disk) || !td_buf_u16(b, off + 8, &disk_entries) ||
        !td_buf_u16(b, off + 10, &entries) || !td_buf_u32(b, off + 12, &cd_size) ||
        !td_buf_u32(b, off + 16, &cd_offset) || !td_buf_u16(b, off + 20, &e->comment_len))
        return false;
    e->offset = off;
    e->disk = disk;
    e->cd_disk = cd_disk;
    e->disk_entries = disk_entries;
    e->entries = entries;
    e->cd_size = cd_size;
    e->cd_offset = cd_offset;
    return true;
}

/* APPNOTE 4.3.16: the EOCD is last, followed only by its comment (at most
 * 65535 bytes). Scanning backwards, prefer a record whose comment ends
 * exactly at the end of the file; accept one with trailing bytes after its
 * comment only when no exact one exists (some tools append padding). */
static int find_eocd(const struct td_buf *b, struct eocd *e, struct td_err *err)
{
    if (b->size < EOCD_SIZE) {
        td_err_set(err,
                   "zip: file of %zu bytes is shorter than an End Of Central Directory "
                   "record (22 bytes)",
                   b->size);
        return -1;
    }
    uint64_t last = b->size - EOCD_SIZE;
    uint64_t first = last > MAX_COMMENT ? last - MAX_COMMENT : 0;
    bool have_loose = false;
    struct eocd loose = {0}, cand;
    /* Candidates start with 'P': memrchr over the checked window keeps the
     * scan of up to 64 KiB cheap; read_eocd then reads through the helpers. */
    const uint8_t *base = b->data + first;
    size_t window = (size_t)(last - first) + 1;
    for (const uint8_t *p; window && (p = memrchr(base, 'P', window)) != NULL;) {
        uint64_t off = first + (uint64_t)(p - base);
        window = (size_t)(p - base);
        if (!read_eocd(b, off, &cand))
            continue;
        uint64_t end = off + EOCD_SIZE + cand.comment_len;
        if (end == b->size) {
            *e = cand;
            return 0;
        }
        if (end < b->size && !have_loose) {
            loose = cand;
            have_loose = true;
        }
    }
    if (have_loose) {
        *e = loose;
        return 0;
    }
    td_err_set(err,
               "zip: no End Of Central Directory record (signature PK\\5\\6) in the last %llu "
               "bytes: not a zip archive, or truncated",
               (unsigned long long)(b->size - first));
    return -1;
}

/* APPNOTE 4.3.14-4.3.15: a ZIP64 EOCD locator sits right before the EOCD
 * and points at the ZIP64 EOCD record, whose 64-bit fields replace the
 * saturated (0xFFFF / 0xFFFFFFFF) ones. Returns 1 when none is present. */
static int read_zip64(const struct td_buf *b, struct eocd *e, uint64_t *zip64_offset,
                      struct td_err *err)
{
    uint32_t sig, locator_disk, disks;
    uint64_t rec;
    if (e->offset < ZIP64_LOCATOR_SIZE)
        return 1;
    uint64_t loc = e->offset - ZIP64_LOCATOR_SIZE;
    if (!td_buf_u32(b, loc, &sig) || sig != ZIP64_LOCATOR_SIG)
        return 1;
    if (!td_buf_u32(b, loc + 4, &locator_disk) || !td_buf_u64(b, loc + 8, &rec) ||
        !td_buf_u32(b, loc + 16, &disks))
        return 1; /* cannot happen: the EOCD follows */
    if (locator_disk != 0 || disks > 1) {
        td_err_set(err,
                   "ZIP64 EOCD locator at offset 0x%llx: multi-disk archive (%u disks) not "
                   "parsed",
                   (unsigned long long)loc, disks);
        return -1;
    }
    uint64_t rec_size;
    if (rec > loc || !td_buf_u32(b, rec, &sig) || sig != ZIP64_EOCD_SIG ||
        !td_buf_u64(b, rec + 4, &rec_size)) {
        td_err_set(err,
                   "ZIP64 EOCD locator at offset 0x%llx: points at 0x%llx, where there is no "
                   "ZIP64 End Of Central Directory record",
                   (unsigned long long)loc, (unsigned long long)rec);
        return -1;
    }
    /* 4.3.14.1: the size field counts the bytes after itself (12 + size). */
    uint64_t total;
    if (rec_size < ZIP64_EOCD_MIN - 12 || !td_add_u64(rec_size, 12, &total) || total > loc - rec) {
        td_err_set(err,
                   "ZIP64 EOCD record at offset 0x%llx: record size %llu does not fit "
                   "before its locator at 0x%llx",
                   (unsigned long long)rec, (unsigned long long)rec_size, (unsigned long long)loc);
        return -1;
    }
    td_buf_u32(b, rec + 16, &e->disk);
    td_buf_u32(b, rec + 20, &e->cd_disk);
    td_buf_u64(b, rec + 24, &e->disk_entries);
    td_buf_u64(b, rec + 32, &e->entries);
    td_buf_u64(b, rec + 40, &e->cd_size);
    td_buf_u64(b, rec + 48, &e->cd_offset);
    *zip64_offset = rec;
    return 0;
}

/* The central directory must lie whole before the record that describes
 * it, and hold at least ENTRIES minimal records. */
static int check_cd_bounds(const struct eocd *e, uint64_t limit, const char *what, uint64_t at,
                           struct td_err *err)
{
    uint64_t end, min_size;
    if (e->disk != 0 || e->cd_disk != 0 || e->disk_entries != e->entries) {
        td_err_set(err,
                   "%s at offset 0x%llx: multi-disk archive (disk %u, directory on disk %u) "
                   "not parsed",
                   what, (unsigned long long)at, e->disk, e->cd_disk);
        return -1;
    }
    if (!td_add_u64(e->cd_offset, e->cd_size, &end) || end > limit) {
        td_err_set(err,
                   "%s at offset 0x%llx: central directory at 0x%llx of %llu bytes runs past "
                   "0x%llx, where it must end",
                   what, (unsigned long long)at, (unsigned long long)e->cd_offset,
                   (unsigned long long)e->cd_size, (unsigned long long)limit);
        return -1;
    }
    if (!td_mul_u64(e->entries, CD_SIZE, &min_size) || min_size > e->cd_size) {
        td_err_set(err,
                   "%s at offset 0x%llx: %llu entries cannot fit in a central directory of "
                   "%llu bytes (each takes at least 46)",
                   what, (unsigned long long)at, (unsigned long long)e->entries,
                   (unsigned long long)e->cd_size);
        return -1;
    }
    return 0;
}

/* APPNOTE 4.5.3: the ZIP64 extended information field holds, in this
 * order, only those of uncompressed size, compressed size, local header
 * offset and disk number whose 32/16-bit fields are saturated. */
static int apply_zip64_extra(const struct td_buf *b, uint64_t off, uint16_t size,
                             struct td_zip_entry *e, bool need[3], struct td_err *err)
{
    uint64_t *fields[3] = {&e->uncompressed_size, &e->compressed_size, &e->local_header_offset};
    static const char *const names[3] = {"uncompressed size", "compressed size",
                                         "local header offset"};
    uint64_t pos = 0;
    for (int i = 0; i < 3; i++) {
        if (!need[i])
            continue;
        if (pos + 8 > size) {
            td_err_set(err,
                       "central directory entry at offset 0x%llx: ZIP64 extra field at 0x%llx "
                       "of %u bytes lacks the %s",
                       (unsigned long long)e->cd_offset, (unsigned long long)off, size, names[i]);
            return -1;
        }
        td_buf_u64(b, off + pos, fields[i]);
        need[i] = false;
        pos += 8;
    }
    e->zip64 = true;
    return 0;
}

/* Walks the extra fields (APPNOTE 4.5.1: id, size, data) of one record. */
static int read_extras(const struct td_buf *b, uint64_t off, uint64_t len, struct td_zip_entry *e,
                       bool need[3], struct td_err *err)
{
    uint64_t pos = 0;
    while (pos + 4 <= len) {
        uint16_t id, size;
        td_buf_u16(b, off + pos, &id);
        td_buf_u16(b, off + pos + 2, &size);
        if (size > len - pos - 4) {
            td_err_set(err,
                       "central directory entry at offset 0x%llx: extra field 0x%04x at 0x%llx "
                       "claims %u bytes, past the end of the extra area",
                       (unsigned long long)e->cd_offset, id, (unsigned long long)(off + pos), size);
            return -1;
        }
        if (id == EXTRA_ZIP64 && apply_zip64_extra(b, off + pos + 4, size, e, need, err) != 0)
            return -1;
        pos += 4 + (uint64_t)size;
    }
    return 0;
}

static int read_entry(const struct td_buf *b, uint64_t off, uint64_t cd_end, struct td_zip_entry *e,
                      uint64_t *next, struct td_arena *arena, struct td_err *err)
{
    uint32_t sig, csize, usize, local;
    uint16_t name_len, extra_len, comment_len, disk;
    e->cd_offset = off;
    if (off + CD_SIZE > cd_end || !td_buf_u32(b, off, &sig) || sig != CD_SIG) {
        td_err_set(err, "central directory entry at offset 0x%llx: %s", (unsigned long long)off,
                   off + CD_SIZE > cd_end ? "runs past the end of the central directory"
                                          : "bad signature (expected PK\\1\\2)");
        return -1;
    }
    td_buf_u16(b, off + 4, &e->version_made_by);
    td_buf_u16(b, off + 8, &e->flags);
    td_buf_u16(b, off + 10, &e->method);
    td_buf_u32(b, off + 16, &e->crc32);
    td_buf_u32(b, off + 20, &csize);
    td_buf_u32(b, off + 24, &usize);
    td_buf_u16(b, off + 28, &name_len);
    td_buf_u16(b, off + 30, &extra_len);
    td_buf_u16(b, off + 32, &comment_len);
    td_buf_u16(b, off + 34, &disk);
    td_buf_u32(b, off + 38, &e->external_attr);
    td_buf_u32(b, off + 42, &local);
    uint64_t end = off + CD_SIZE + name_len + extra_len + comment_len;
    if (end > cd_end) {
        td_err_set(err,
                   "central directory entry at offset 0x%llx: name, extra and comment "
                   "(%u + %u + %u bytes) run past the end of the central directory at 0x%llx",
                   (unsigned long long)off, name_len, extra_len, comment_len,
                   (unsigned long long)cd_end);
        return -1;
    }
    e->compressed_size = csize;
    e->uncompressed_size = usize;
    e->local_header_offset = local;
    bool need[3] = {usize == UINT32_MAX, csize == UINT32_MAX, local == UINT32_MAX};
    if (read_extras(b, off + CD_SIZE + name_len, extra_len, e, need, err) != 0)
        return -1;
    if (need[0] || need[1] || need[2]) {
        td_err_set(err,
                   "central directory entry at offset 0x%llx: a size or offset is 0xffffffff "
                   "but no ZIP64 extra field supplies it",
                   (unsigned long long)off);
        return -1;
    }
    if (disk != 0 && disk != UINT16_MAX) {
        td_err_set(err,
                   "central directory entry at offset 0x%llx: starts on disk %u (multi-disk "
                   "archive not parsed)",
                   (unsigned long long)off, disk);
        return -1;
    }
    e->name_len = name_len;
    e->name = td_arena_strndup(arena, (const char *)b->data + off + CD_SIZE,
                               name_len); /* in bounds: end <= cd_end */
    if (!e->name) {
        td_err_set(err,
                   "central directory entry at offset 0x%llx: arena limit reached copying "
                   "its name",
                   (unsigned long long)off);
        return -1;
    }
    *next = end;
    return 0;
}

static int read_entries(struct td_zip *z, uint64_t count, struct td_arena *arena,
                        struct td_err *err)
{
    /* check_cd_bounds proved count * 46 <= cd_size <= file size. */
    z->entries = td_arena_array(arena, (size_t)count, sizeof *z->entries);
    if (!z->entries && count) {
        td_err_set(err, "central directory at offset 0x%llx: arena limit reached for %llu entries",
                   (unsigned long long)z->cd_offset, (unsigned long long)count);
        return -1;
    }
    uint64_t off = z->cd_offset, end = z->cd_offset + z->cd_size;
    for (uint64_t i = 0; i < count; i++) {
        if (read_entry(&z->buf, off, end, &z->entries[i], &off, arena, err) != 0) {
            td_err_prefix(err, "entry %llu of %llu: ", (unsigned long long)i,
                          (unsigned long long)count);
            return -1;
        }
    }
    z->count = (size_t)count;
    return 0;
}

int td_zip_open(struct td_zip *z, const uint8_t *data, size_t size, struct td_arena *arena,
                struct td_err *err)
{
    memset(z, 0, sizeof *z);
    z->buf = td_buf_make(data, size, false);
    z->arena = arena;
    struct eocd e;
    if (find_eocd(&z->buf, &e, err) != 0)
        return -1;
    z->eocd_offset = e.offset;
    z->comment = data + e.offset + EOCD_SIZE;
    z->comment_len = e.offset + EOCD_SIZE + e.comment_len <= size ? e.comment_len : 0;
    int rc = read_zip64(&z->buf, &e, &z->zip64_offset, err);
    if (rc < 0)
        return -1;
    z->zip64 = rc == 0;
    uint64_t limit = z->zip64 ? z->zip64_offset : e.offset;
    const char *what = z->zip64 ? "ZIP64 EOCD record" : "EOCD record";
    if (check_cd_bounds(&e, limit, what, limit, err) != 0)
        return -1;
    z->cd_offset = e.cd_offset;
    z->cd_size = e.cd_size;
    return read_entries(z, e.entries, arena, err);
}

/* --- Lookup by name: an open-addressing hash index, built on first use. --- */

struct td_zip_index {
    uint32_t *slots; /* entry number + 1; 0 = empty */
    size_t mask;
};

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
    return h;
}

static bool same_name(const struct td_zip_entry *e, const char *name, size_t len)
{
    return e->name_len == len && memcmp(e->name, name, len) == 0;
}

static struct td_zip_index *build_index(struct td_zip *z)
{
    if (!z->arena || z->count >= UINT32_MAX / 4)
        return NULL;
    size_t slots = 16;
    while (slots < z->count * 2)
        slots *= 2;
    struct td_zip_index *ix = td_arena_alloc(z->arena, sizeof *ix);
    uint32_t *table = ix ? td_arena_array(z->arena, slots, sizeof *table) : NULL;
    if (!table)
        return NULL;
    ix->slots = table;
    ix->mask = slots - 1;
    for (size_t i = 0; i < z->count; i++) {
        const struct td_zip_entry *e = &z->entries[i];
        size_t s = hash_name(e->name, e->name_len) & ix->mask;
        while (table[s] && !same_name(&z->entries[table[s] - 1], e->name, e->name_len))
            s = (s + 1) & ix->mask;
        table[s] = (uint32_t)(i + 1); /* a later duplicate replaces the earlier one */
    }
    return ix;
}

const struct td_zip_entry *td_zip_find(struct td_zip *z, const char *name, size_t len)
{
    if (!z->index) {
        z->index = build_index(z);
        if (!z->index)
            z->arena = NULL; /* no room: do not try again on every lookup */
    }
    if (!z->index) { /* a linear scan, last match wins */
        for (size_t i = z->count; i-- > 0;)
            if (same_name(&z->entries[i], name, len))
                return &z->entries[i];
        return NULL;
    }
    size_t s = hash_name(name, len) & z->index->mask;
    for (uint32_t slot; (slot = z->index->slots[s]) != 0; s = (s + 1) & z->index->mask)
        if (same_name(&z->entries[slot - 1], name, len))
            return &z->entries[slot - 1];
    return NULL;
}

/* --- Attributes --- */

enum { HOST_UNIX = 3, UNIX_TYPE_MASK = 0170000, UNIX_SYMLINK = 0120000, UNIX_DIR = 0040000 };

uint32_t td_zip_unix_mode(const struct td_zip_entry *e)
{
    /* APPNOTE 4.4.2 / 4.4.15: on Unix the high 16 bits hold st_mode. */
    return (e->version_made_by >> 8) == HOST_UNIX ? e->external_attr >> 16 : 0;
}

bool td_zip_is_symlink(const struct td_zip_entry *e)
{
    return (td_zip_unix_mode(e) & UNIX_TYPE_MASK) == UNIX_SYMLINK;
}

bool td_zip_is_dir(const struct td_zip_entry *e)
{
    if ((td_zip_unix_mode(e) & UNIX_TYPE_MASK) == UNIX_DIR)
        return true;
    return e->name_len > 0 && e->name[e->name_len - 1] == '/';
}

bool td_zip_is_encrypted(const struct td_zip_entry *e)
{
    return (e->flags & (TD_ZIP_FLAG_ENCRYPTED | TD_ZIP_FLAG_STRONG_ENCRYPTION)) != 0;
}
