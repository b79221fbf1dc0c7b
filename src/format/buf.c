/* Bounded, endian-aware reads; see buf.h. */
#include "format/buf.h"

#include <string.h>

bool td_buf_has_array(const struct td_buf *b, uint64_t off, uint64_t count, uint64_t size)
{
    uint64_t len;
    return td_mul_u64(count, size, &len) && td_buf_has(b, off, len);
}

static const struct td_buf_extent *extent_of(const struct td_buf_sparse *sp, uint64_t off)
{
    for (size_t i = 0; i < sp->count; i++)
        if (off >= sp->extents[i].off && off - sp->extents[i].off < sp->extents[i].len)
            return &sp->extents[i];
    return NULL;
}

static void note_miss(struct td_buf_sparse *sp, uint64_t off, uint64_t len)
{
    if (!sp->missed) {
        sp->missed = true;
        sp->miss_off = off;
        sp->miss_len = len;
    }
}

const uint8_t *td_buf_sparse_at(const struct td_buf *b, uint64_t off, uint64_t len)
{
    const struct td_buf_extent *e = extent_of(b->sparse, off);
    if (e && len <= e->len - (off - e->off))
        return e->data + (off - e->off);
    note_miss(b->sparse, off, len ? len : 1);
    return NULL;
}

const char *td_buf_cstr(const struct td_buf *b, uint64_t off, size_t limit)
{
    if (off >= b->size)
        return NULL;
    size_t avail = b->size - (size_t)off;
    if (limit && limit < avail)
        avail = limit;
    const char *s;
    if (b->sparse) {
        /* Loaded bytes from OFF on; a string running past them is a miss. */
        const struct td_buf_extent *e = extent_of(b->sparse, off);
        uint64_t loaded = e ? e->len - (off - e->off) : 0;
        if (!e || (loaded < avail && !memchr(e->data + (off - e->off), '\0', (size_t)loaded))) {
            note_miss(b->sparse, off + loaded, 1);
            return NULL;
        }
        s = (const char *)e->data + (off - e->off);
        if (loaded < avail)
            avail = (size_t)loaded;
    } else {
        s = (const char *)b->data + off;
    }
    return memchr(s, '\0', avail) ? s : NULL;
}
