/* Zip member data: checks the local file header, then hands out stored
 * bytes in place or inflates deflated ones with zlib, in bounded chunks,
 * never past the declared size, and checks the CRC-32 (APPNOTE 4.3.7). */
#include "format/zip.h"

#include <string.h>
#include <zlib.h>

enum {
    LOCAL_SIG = 0x04034b50,
    LOCAL_SIZE = 30,
    NAME_SHOWN = 120, /* how much of a member name an error message quotes */
};

/* Start of an error message naming the member and its central record. */
#define MEMBER_FMT "member '%.*s' (central directory entry at offset 0x%llx): "
#define MEMBER_ARGS(e)                                                                             \
    (int)((e)->name_len < NAME_SHOWN ? (e)->name_len : NAME_SHOWN), (e)->name,                     \
        (unsigned long long)(e)->cd_offset

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

/* The state of one pass over a member's data. */
struct pump {
    const struct td_zip_entry *e;
    td_zip_sink sink;
    void *ctx;
    uint64_t produced;
    uLong crc;
};

static int emit(struct pump *p, const uint8_t *chunk, size_t len)
{
    p->produced += len;
    p->crc = crc32(p->crc, chunk, (uInt)len);
    return len ? p->sink(p->ctx, chunk, len) : 0;
}

static int pump_stored(struct pump *p, const uint8_t *src, uint64_t len)
{
    for (uint64_t pos = 0; pos < len;) {
        size_t n = len - pos < TD_ZIP_CHUNK ? (size_t)(len - pos) : TD_ZIP_CHUNK;
        int rc = emit(p, src + pos, n);
        if (rc != 0)
            return rc;
        pos += n;
    }
    return 0;
}

/* Output room for the next inflate call: up to the declared size, then
 * one byte more, only to learn whether the stream tries to go past it. */
static uInt room(const struct pump *p)
{
    uint64_t left = p->e->uncompressed_size - p->produced;
    return left == 0 ? 1 : left < TD_ZIP_CHUNK ? (uInt)left : TD_ZIP_CHUNK;
}

static int inflate_loop(struct pump *p, z_stream *s, const uint8_t *src, uint64_t len,
                        struct td_err *err)
{
    const struct td_zip_entry *e = p->e;
    uint8_t chunk[TD_ZIP_CHUNK];
    uint64_t fed = 0;
    for (;;) {
        if (s->avail_in == 0 && fed < len) {
            uint64_t n = len - fed < (1u << 30) ? len - fed : (1u << 30);
            s->next_in = (Bytef *)(uintptr_t)(src + fed); /* zlib does not write input */
            s->avail_in = (uInt)n;
            fed += n;
        }
        s->next_out = chunk;
        s->avail_out = room(p);
        uInt asked = s->avail_out;
        int zrc = inflate(s, Z_NO_FLUSH);
        size_t got = asked - s->avail_out;
        if (p->produced + got > e->uncompressed_size) {
            td_err_set(err,
                       MEMBER_FMT "deflate stream inflates past the declared size of %llu "
                                  "bytes; stopped there",
                       MEMBER_ARGS(e), (unsigned long long)e->uncompressed_size);
            return -1;
        }
        int rc = emit(p, chunk, got);
        if (rc != 0)
            return rc;
        if (zrc == Z_STREAM_END)
            return 0;
        if (zrc == Z_BUF_ERROR && s->avail_in == 0 && fed == len) {
            td_err_set(err, MEMBER_FMT "deflate stream is cut off after %llu compressed bytes",
                       MEMBER_ARGS(e), (unsigned long long)len);
            return -1;
        }
        if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
            td_err_set(err, MEMBER_FMT "invalid deflate data (zlib: %s) after %llu output bytes",
                       MEMBER_ARGS(e), s->msg ? s->msg : "error", (unsigned long long)p->produced);
            return -1;
        }
    }
}

static int pump_deflated(struct pump *p, const uint8_t *src, uint64_t len, struct td_err *err)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    /* APPNOTE 4.4.5 method 8 is raw deflate: no zlib header (windowBits < 0). */
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) {
        td_err_set(err, MEMBER_FMT "zlib could not start (out of memory)", MEMBER_ARGS(p->e));
        return -1;
    }
    int rc = inflate_loop(p, &s, src, len, err);
    inflateEnd(&s);
    return rc;
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
    struct pump p = {e, sink, ctx, 0, crc32(0, NULL, 0)};
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
        rc = pump_deflated(&p, src, e->compressed_size, err);
    }
    if (rc != 0)
        return rc;
    if (p.produced != e->uncompressed_size) {
        td_err_set(err, MEMBER_FMT "data yields %llu bytes, %llu declared", MEMBER_ARGS(e),
                   (unsigned long long)p.produced, (unsigned long long)e->uncompressed_size);
        return -1;
    }
    if (p.crc != e->crc32) {
        td_err_set(err, MEMBER_FMT "CRC-32 is 0x%08lx, 0x%08x declared", MEMBER_ARGS(e), p.crc,
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
