/* Zip member data: checks the local file header, then hands out stored
 * bytes in place or inflates deflated ones (zip_inflate.c), in bounded chunks,
 * never past the declared size, and checks the CRC-32 (APPNOTE 4.3.7). */
#include "format/zip.h"

#include <string.h>

#include "format/zip_inflate.h"

enum {
    LOCAL_SIG = 0x04034b50,
    LOCAL_SIZE = 30,
};

int td_zip_data_offset(const struct td_zip *z, const struct td_zip_entry *e, uint64_t *offset,
                       struct td_err *err)
{
    const struct td_buf *b = &z->buf;
    uint64_t off = e->local_header_offset;
    uint32_t sig;
    uint16_t name_len, extra_len;
    /* Member data precedes the central directory (APPNOTE 4.3.6). */
    if (off > z->cd_offset || z->cd_offset - off < LOCAL_SIZE) {
        td_err_set(err,
                   MEMBER_FMT "local header offset 0x%llx is not before the central "
                              "directory at 0x%llx",
                   MEMBER_ARGS(e), (unsigned long long)off, (unsigned long long)z->cd_offset);
        return -1;
    }
    if (!td_buf_u32(b, off, &sig) || sig != LOCAL_SIG) {
        td_err_set(err, MEMBER_FMT "no local file header signature (PK\\3\\4) at offset 0x%llx",
                   MEMBER_ARGS(e), (unsigned long long)off);
        return -1;
    }
    td_buf_u16(b, off + 26, &name_len);
    td_buf_u16(b, off + 28, &extra_len);
    uint64_t data = off + LOCAL_SIZE + name_len + extra_len, end;
    if (data > z->cd_offset || !td_add_u64(data, e->compressed_size, &end) || end > z->cd_offset) {
        td_err_set(err,
                   MEMBER_FMT "local header at 0x%llx: name, extra and %llu bytes of data "
                              "run into the central directory at 0x%llx",
                   MEMBER_ARGS(e), (unsigned long long)off, (unsigned long long)e->compressed_size,
                   (unsigned long long)z->cd_offset);
        return -1;
    }
    /* Both headers name the member; a difference means a doctored archive. */
    if (name_len != e->name_len || memcmp(b->data + off + LOCAL_SIZE, e->name, name_len) != 0) {
        td_err_set(err, MEMBER_FMT "local header at 0x%llx names a different file", MEMBER_ARGS(e),
                   (unsigned long long)off);
        return -1;
    }
    *offset = data;
    return 0;
}

int td_zip_stored(const struct td_zip *z, const struct td_zip_entry *e, const uint8_t **data,
                  size_t *len, struct td_err *err)
{
    uint64_t off;
    if (e->method != TD_ZIP_STORED || td_zip_is_encrypted(e)) {
        td_err_set(err, MEMBER_FMT "not stored plainly (method %u%s)", MEMBER_ARGS(e), e->method,
                   td_zip_is_encrypted(e) ? ", encrypted" : "");
        return -1;
    }
    if (e->compressed_size != e->uncompressed_size) {
        td_err_set(err, MEMBER_FMT "stored, yet its sizes differ (%llu compressed, %llu not)",
                   MEMBER_ARGS(e), (unsigned long long)e->compressed_size,
                   (unsigned long long)e->uncompressed_size);
        return -1;
    }
    if (td_zip_data_offset(z, e, &off, err) != 0)
        return -1;
    *data = z->buf.data + off;
    *len = (size_t)e->compressed_size;
    return 0;
}

static int pump_stored(struct td_zip_pump *p, const uint8_t *src, uint64_t len)
{
    for (uint64_t pos = 0; pos < len;) {
        size_t n = len - pos < TD_ZIP_CHUNK ? (size_t)(len - pos) : TD_ZIP_CHUNK;
        int rc = td_zip_pump_emit(p, src + pos, n);
        if (rc != 0)
            return rc;
        pos += n;
    }
    return 0;
}

static int pump_member(const struct td_zip *z, const struct td_zip_entry *e, td_zip_sink sink,
                       void *ctx, struct td_err *err)
{
    uint64_t off;
    if (td_zip_is_encrypted(e)) {
        td_err_set(err, MEMBER_FMT "encrypted; cannot be read", MEMBER_ARGS(e));
        return -1;
    }
    if (e->method != TD_ZIP_STORED && e->method != TD_ZIP_DEFLATED) {
        td_err_set(err, MEMBER_FMT "compression method %u not parsed (only stored and deflate)",
                   MEMBER_ARGS(e), e->method);
        return -1;
    }
    if (td_zip_data_offset(z, e, &off, err) != 0)
        return -1;
    struct td_zip_pump p = {e, sink, ctx, 0, td_zip_crc32(0, NULL, 0)};
    const uint8_t *src = z->buf.data + off;
    int rc;
    if (e->method == TD_ZIP_STORED) {
        if (e->compressed_size != e->uncompressed_size) {
            td_err_set(err, MEMBER_FMT "stored, yet its sizes differ (%llu compressed, %llu not)",
                       MEMBER_ARGS(e), (unsigned long long)e->compressed_size,
                       (unsigned long long)e->uncompressed_size);
            return -1;
        }
        rc = pump_stored(&p, src, e->compressed_size);
    } else {
        rc = td_zip_inflate(&p, src, e->compressed_size, err);
    }
    if (rc != 0)
        return rc;
    if (p.produced != e->uncompressed_size) {
        td_err_set(err, MEMBER_FMT "data yields %llu bytes, %llu declared", MEMBER_ARGS(e),
                   (unsigned long long)p.produced, (unsigned long long)e->uncompressed_size);
        return -1;
    }
    if (p.crc != e->crc32) {
        td_err_set(err, MEMBER_FMT "CRC-32 is 0x%08x, 0x%08x declared", MEMBER_ARGS(e), p.crc,
                   e->crc32);
        return -1;
    }
    return 0;
}

int td_zip_stream(const struct td_zip *z, const struct td_zip_entry *e, td_zip_sink sink, void *ctx,
                  struct td_err *err)
{
    return pump_member(z, e, sink, ctx, err);
}

struct copy_target {
    uint8_t *out;
    size_t size, used;
};

static int copy_chunk(void *ctx, const uint8_t *chunk, size_t len)
{
    struct copy_target *t = ctx;
    if (len > t->size - t->used)
        return -1; /* cannot happen: the pump stops at the declared size */
    memcpy(t->out + t->used, chunk, len);
    t->used += len;
    return 0;
}

int td_zip_extract(const struct td_zip *z, const struct td_zip_entry *e, uint8_t *out,
                   size_t out_size, struct td_err *err)
{
    if (out_size != e->uncompressed_size) {
        td_err_set(err, MEMBER_FMT "buffer of %zu bytes given for %llu uncompressed bytes",
                   MEMBER_ARGS(e), out_size, (unsigned long long)e->uncompressed_size);
        return -1;
    }
    struct copy_target t = {out, out_size, 0};
    int rc = pump_member(z, e, copy_chunk, &t, err);
    if (rc != 0 && !(err && err->set))
        td_err_set(err, MEMBER_FMT "output buffer overrun refused", MEMBER_ARGS(e));
    return rc == 0 ? 0 : -1;
}
