/* Bounded reads over a byte buffer: the only way format readers touch file
 * bytes. Every helper returns false past the end and never overflows when
 * adding offsets (offsets are uint64_t, as files can claim any value). */
#ifndef TD_FORMAT_BUF_H
#define TD_FORMAT_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A buffer need not hold the whole file. DATA may hold only the window
 * [LO, HI) of it (a mapping of just the symbol tables), and a sparse
 * buffer holds some ranges read with pread (each page mapped costs a page
 * fault). A read of bytes the buffer does not hold fails; in a sparse
 * buffer it is also noted as a miss, so that the caller can read that
 * range and parse again until nothing is missed: the result is then
 * exactly that of parsing the whole file. Only the ELF reader is given
 * such buffers (td_elf_parse_buf, td_elf_attach; the loader's
 * td_object_read_fd). */
struct td_buf_extent {
    uint64_t off, len;
    const uint8_t *data;
};

struct td_buf_sparse {
    const struct td_buf_extent *extents; /* disjoint */
    size_t count;
    bool missed;                 /* a read needed bytes no extent holds */
    uint64_t miss_off, miss_len; /* the first such read */
};

struct td_buf {
    const uint8_t *data; /* the bytes from file offset LO on */
    size_t size;         /* of the whole file */
    bool big_endian;
    struct td_buf_sparse *sparse; /* ranges outside [LO, HI), or NULL */
    uint64_t lo, hi;              /* DATA holds [LO, HI); [0, SIZE) but for a window */
};

static inline struct td_buf td_buf_make(const uint8_t *data, size_t size, bool big_endian)
{
    struct td_buf b = {data, size, big_endian, NULL, 0, size};
    return b;
}

/* A buffer holding only [LO, HI) of a file of SIZE bytes, at DATA. */
static inline struct td_buf td_buf_window(const uint8_t *data, uint64_t lo, uint64_t hi,
                                          size_t size, bool big_endian)
{
    struct td_buf b = {data, size, big_endian, NULL, lo, hi};
    return b;
}

/* A sparse buffer over a file of SIZE bytes: only SP's extents are held. */
static inline struct td_buf td_buf_sparse_make(size_t size, struct td_buf_sparse *sp)
{
    struct td_buf b = {NULL, size, false, sp, 0, 0};
    return b;
}

/* True when [off, off + len) lies inside the file, loaded or not: for
 * checks of where a table is, not for reading it. */
static inline bool td_buf_in_file(const struct td_buf *b, uint64_t off, uint64_t len)
{
    return off <= b->size && len <= b->size - off;
}

/* td_buf_at outside the window (buf.c): the sparse ranges, or NULL. */
const uint8_t *td_buf_sparse_at(const struct td_buf *b, uint64_t off, uint64_t len);

/* The bytes [off, off + len), or NULL when the buffer does not hold them
 * (outside the file, or not loaded: a sparse buffer notes a miss). */
static inline const uint8_t *td_buf_at(const struct td_buf *b, uint64_t off, uint64_t len)
{
    if (b->data && off >= b->lo && off <= b->hi && len <= b->hi - off)
        return b->data + (off - b->lo);
    return td_buf_sparse_at(b, off, len);
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
    /* Spelled out so that compilers see one load (and a byte swap). */
    if (b->big_endian)
        *out = (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
               (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
               (uint64_t)p[6] << 8 | p[7];
    else
        *out = (uint64_t)p[7] << 56 | (uint64_t)p[6] << 48 | (uint64_t)p[5] << 40 |
               (uint64_t)p[4] << 32 | (uint64_t)p[3] << 24 | (uint64_t)p[2] << 16 |
               (uint64_t)p[1] << 8 | p[0];
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
