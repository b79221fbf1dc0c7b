/* Deflate for zip members (zip_inflate.h): zlib, in bounded chunks, where
 * the build links it; otherwise a refusal that says why. Below zip_data.c:
 * the pump both of them feed (td_zip_pump_emit) is here too, so the data
 * reader calls down into the decompressor and never the other way. */
#include "format/zip_inflate.h"

#include <string.h>

#if TD_HAVE_ZLIB
#include <zlib.h>

uint32_t td_zip_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    /* zlib's crc32 takes a uInt length: feed it in pieces. */
    uLong c = crc;
    while (len > 0) {
        uInt n = len > (1u << 30) ? (1u << 30) : (uInt)len;
        c = crc32(c, data, n);
        data += n;
        len -= n;
    }
    return (uint32_t)c;
}

/* Output room for the next inflate call: up to the declared size, then
 * one byte more, only to learn whether the stream tries to go past it. */
static uInt room(const struct td_zip_pump *p)
{
    uint64_t left = p->e->uncompressed_size - p->produced;
    return left == 0 ? 1 : left < TD_ZIP_CHUNK ? (uInt)left : TD_ZIP_CHUNK;
}

static int inflate_loop(struct td_zip_pump *p, z_stream *s, const uint8_t *src, uint64_t len,
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
        int rc = td_zip_pump_emit(p, chunk, got);
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

int td_zip_inflate(struct td_zip_pump *p, const uint8_t *src, uint64_t len, struct td_err *err)
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

#else

uint32_t td_zip_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    /* Bit by bit, reflected polynomial 0xEDB88320 (APPNOTE 4.4.7): slower
     * than a table, but only stored members of this build come here. */
    uint32_t c = ~crc;
    for (size_t i = 0; i < len; i++) {
        c ^= data[i];
        for (int bit = 0; bit < 8; bit++)
            c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

int td_zip_inflate(struct td_zip_pump *p, const uint8_t *src, uint64_t len, struct td_err *err)
{
    td_err_set(err,
               MEMBER_FMT "deflated; cannot inflate on this build (no zlib in the Windows "
                          "build, docs/windows-build.md)",
               MEMBER_ARGS(p->e));
    return -1;
}

#endif

int td_zip_pump_emit(struct td_zip_pump *p, const uint8_t *chunk, size_t len)
{
    p->produced += len;
    p->crc = td_zip_crc32(p->crc, chunk, len);
    return len ? p->sink(p->ctx, chunk, len) : 0;
}
