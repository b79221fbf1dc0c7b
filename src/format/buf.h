/* Bounded reads over a byte buffer: the only way format readers touch file
 * bytes. Every helper returns false past the end and never overflows when
 * adding offsets (offsets are uint64_t, as files can claim any value). */
#ifndef TD_FORMAT_BUF_H
#define TD_FORMAT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A file of which only some ranges are in memory (read with pread rather
 * than mapped: each page mapped costs a page fault). A read of any other
 * byte of the file fails and is noted in MISS, so that the caller can read
 * that range and parse again until nothing is missed: the result is then
 * exactly that of parsing the whole file. Only the ELF reader's
 * td_elf_parse_headers is given such a buffer. */
struct td_buf_extent {
    uint64_t off, len;
    const uint8_t *data;
};

struct td_buf_sparse {
    const struct td_buf_extent *extents;
    size_t count;
    bool missed;                 /* a read needed bytes no extent holds */
    uint64_t miss_off, miss_len; /* the first such read */
};

struct td_buf {
    const uint8_t *data; /* NULL when SPARSE is set */
    size_t size;         /* of the whole file */
    bool big_endian;
    struct td_buf_sparse *sparse; /* NULL: DATA holds all SIZE bytes */
};

static inline struct td_buf td_buf_make(const uint8_t *data, size_t size, bool big_endian)
{
    struct td_buf b = {data, size, big_endian, NULL};
    return b;
}

/* True when [off, off + len) lies inside the file, loaded or not: for
 * checks of where a table is, not for reading it. */
static inline bool td_buf_in_file(const struct td_buf *b, uint64_t off, uint64_t len)
{
    return off <= b->size && len <= b->size - off;
}

/* The sparse case of td_buf_at (buf.c). */
const uint8_t *td_buf_sparse_at(const struct td_buf *b, uint64_t off, uint64_t len);

/* The bytes [off, off + len), or NULL when they are outside the file (or,
 * for a sparse buffer, not loaded: noted as a miss). */
static inline const uint8_t *td_buf_at(const struct td_buf *b, uint64_t off, uint64_t len)
{
    if (!td_buf_in_file(b, off, len))
        return NULL;
    if (__builtin_expect(b->sparse != NULL, 0))
        return td_buf_sparse_at(b, off, len);
    return b->data + off;
}

/* True when [off, off + len) can be read. */
static inline bool td_buf_has(const struct td_buf *b, uint64_t off, uint64_t len)
{
    return td_buf_at(b, off, len) != NULL;
}

/* True when count * size bytes starting at off lie inside the buffer,
 * without overflowing the multiplication. */
bool td_buf_has_array(const struct td_buf *b, uint64_t off, uint64_t count, uint64_t size);

/* A failed read also sets *OUT to 0, so no caller can use an unset value.
 * Inline: readers call these millions of times (symbol binding walks every
 * hash chain of a 288-library closure), so a call per read would dominate. */
static inline bool td_buf_u8(const struct td_buf *b, uint64_t off, uint8_t *out)
{
    const uint8_t *p = td_buf_at(b, off, 1);
    *out = p ? *p : 0;
    return p != NULL;
}

static inline bool td_buf_u16(const struct td_buf *b, uint64_t off, uint16_t *out)
{
    const uint8_t *p = td_buf_at(b, off, 2);
    *out = 0;
    if (!p)
        return false;
    *out = b->big_endian ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
    return true;
}

static inline bool td_buf_u32(const struct td_buf *b, uint64_t off, uint32_t *out)
{
    const uint8_t *p = td_buf_at(b, off, 4);
    *out = 0;
    if (!p)
        return false;
    if (b->big_endian)
        *out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    else
        *out = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
    return true;
}

static inline bool td_buf_u64(const struct td_buf *b, uint64_t off, uint64_t *out)
{
    const uint8_t *p = td_buf_at(b, off, 8);
    *out = 0;
    if (!p)
        return false;
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[b->big_endian ? i : 7 - i];
    *out = v;
    return true;
}

/* Reads a 32- or 64-bit word (width 4 or 8) widened to uint64_t. */
static inline bool td_buf_word(const struct td_buf *b, uint64_t off, unsigned width, uint64_t *out)
{
    if (width == 8)
        return td_buf_u64(b, off, out);
    uint32_t v;
    *out = 0;
    if (width != 4 || !td_buf_u32(b, off, &v))
        return false;
    *out = v;
    return true;
}

/* A NUL-terminated string starting at off, or NULL when off is outside the
 * buffer or no NUL occurs before its end. LIMIT bounds the scan (0 = none). */
const char *td_buf_cstr(const struct td_buf *b, uint64_t off, size_t limit);

/* Overflow-checked a + b; false on overflow. */
static inline bool td_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a > UINT64_MAX - b)
        return false;
    *out = a + b;
    return true;
}

/* Overflow-checked a * b; false on overflow. */
static inline bool td_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a && b > UINT64_MAX / a)
        return false;
    *out = a * b;
    return true;
}

#endif
