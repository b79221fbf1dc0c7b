/* Bounded, endian-aware reads; see buf.h. */
#include "format/buf.h"

#include <string.h>

bool td_buf_has_array(const struct td_buf *b, uint64_t off, uint64_t count, uint64_t size)
{
    uint64_t len;
    return td_mul_u64(count, size, &len) && td_buf_has(b, off, len);
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
