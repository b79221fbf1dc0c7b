/* Bounded, endian-aware reads; see buf.h. */
#include "format/buf.h"

#include <string.h>

bool td_buf_has_array(const struct td_buf *b, uint64_t off, uint64_t count, uint64_t size)
{
    uint64_t len;
    return td_mul_u64(count, size, &len) && td_buf_has(b, off, len);
}

bool td_buf_u8(const struct td_buf *b, uint64_t off, uint8_t *out)
{
    if (!td_buf_has(b, off, 1))
        return false;
    *out = b->data[off];
    return true;
}

bool td_buf_u16(const struct td_buf *b, uint64_t off, uint16_t *out)
{
    if (!td_buf_has(b, off, 2))
        return false;
    const uint8_t *p = b->data + off;
    *out = b->big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
    return true;
}

bool td_buf_u32(const struct td_buf *b, uint64_t off, uint32_t *out)
{
    if (!td_buf_has(b, off, 4))
        return false;
    const uint8_t *p = b->data + off;
    if (b->big_endian)
        *out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    else
        *out = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
    return true;
}

bool td_buf_u64(const struct td_buf *b, uint64_t off, uint64_t *out)
{
    uint32_t lo, hi;
    if (!td_buf_has(b, off, 8))
        return false;
    td_buf_u32(b, off, b->big_endian ? &hi : &lo);
    td_buf_u32(b, off + 4, b->big_endian ? &lo : &hi);
    *out = (uint64_t)hi << 32 | lo;
    return true;
}

bool td_buf_word(const struct td_buf *b, uint64_t off, unsigned width, uint64_t *out)
{
    if (width == 8)
        return td_buf_u64(b, off, out);
    uint32_t v;
    if (width != 4 || !td_buf_u32(b, off, &v))
        return false;
    *out = v;
    return true;
}

const char *td_buf_cstr(const struct td_buf *b, uint64_t off, size_t limit)
{
    if (off >= b->size)
        return NULL;
    size_t avail = b->size - (size_t)off;
    if (limit && limit < avail)
        avail = limit;
    const char *s = (const char *)b->data + off;
    return memchr(s, '\0', avail) ? s : NULL;
}
