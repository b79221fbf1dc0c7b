/* Bounded, endian-aware reads; see buf.h. */
#include "format/buf.h"

#include <string.h>

bool td_buf_has_array(const struct td_buf *b, uint64_t off, uint64_t count, uint64_t size)
{
    uint64_t len;
    return td_mul_u64(count, size, &len) && td_buf_has(b, off, len);
}

/* The index of the extent the last read hit, tried first: a reader walking
 * a table reads it word by word from one extent. Extents are disjoint, so
 * a hint left by another buffer is only a wrong guess. (Not a field of
 * td_buf_sparse: its users initialise it field by field.) */
static _Thread_local size_t last_hit;

static bool extent_holds(const struct td_buf_extent *e, uint64_t off)
{
    return off >= e->off && off - e->off < e->len;
}

static const struct td_buf_extent *extent_scan(const struct td_buf_sparse *sp, uint64_t off)
{
    for (size_t i = 0; i < sp->count; i++)
        if (extent_holds(&sp->extents[i], off)) {
            last_hit = i;
            return &sp->extents[i];
        }
    return NULL;
}

/* The extent holding OFF, or NULL. */
static inline const struct td_buf_extent *extent_of(const struct td_buf_sparse *sp, uint64_t off)
{
    if (last_hit < sp->count && extent_holds(&sp->extents[last_hit], off))
        return &sp->extents[last_hit];
    return extent_scan(sp, off);
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
    struct td_buf_sparse *sp = b->sparse;
    if (!sp || !td_buf_in_file(b, off, len))
        return NULL;
    const struct td_buf_extent *e = extent_of(sp, off);
    if (e && len <= e->len - (off - e->off))
        return e->data + (off - e->off);
    note_miss(sp, off, len ? len : 1);
    return NULL;
}

const char *td_buf_cstr(const struct td_buf *b, uint64_t off, size_t limit)
{
    if (off >= b->size)
        return NULL;
    size_t avail = b->size - (size_t)off;
    if (limit && limit < avail)
        avail = limit;
    /* The run of held bytes from OFF on: the window, or an extent. */
    const char *s = NULL;
    uint64_t held = 0;
    const struct td_buf_extent *e;
    if (b->data && off >= b->lo && off < b->hi) {
        s = (const char *)b->data + (off - b->lo);
        held = b->hi - off;
    } else if (b->sparse && (e = extent_of(b->sparse, off)) != NULL) {
        s = (const char *)e->data + (off - e->off);
        held = e->len - (off - e->off);
    }
    size_t n = held < avail ? (size_t)held : avail;
    if (s && memchr(s, '\0', n))
        return s;
    if (held < avail && b->sparse)
        note_miss(b->sparse, off + held, 1); /* runs past what is held */
    return NULL;
}
