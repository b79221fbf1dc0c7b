/* Reading dynamic symbol tables in pieces (symtab_reader.h). */
#include "graph/symtab_reader.h"

#include <stdlib.h>
#include <string.h>

#include "base/compat.h"

enum { PAGE = 4096, WINDOW = 64 * 1024, NAME_FIRST = 512 };

static bool window_reserve(struct td_window *w, size_t need)
{
    if (w->buf && w->cap >= need)
        return true;
    size_t cap = w->cap ? w->cap : WINDOW;
    while (cap < need)
        cap *= 2;
    uint8_t *buf = td_pages_alloc(w->pages, cap); /* the old buffer stays with the pages */
    if (!buf)
        return false;
    w->buf = buf;
    w->cap = cap;
    return true;
}

const uint8_t *td_window_fill(struct td_window *w, int fd, uint64_t off, size_t len, uint64_t reach,
                              uint64_t limit)
{
    if (off > limit || len > limit - off)
        return NULL;
    w->mem = NULL; /* no longer an image's view, nor what it held */
    w->lo = w->hi = 0;
    if (!window_reserve(w, len))
        return NULL;
    uint64_t lo = off & ~(uint64_t)(PAGE - 1);
    if (off + len - lo > w->cap)
        lo = off;
    uint64_t hi = reach < off + len ? off + len : reach > limit ? limit : reach;
    if (hi - lo > w->cap)
        hi = lo + w->cap;
    size_t got = 0;
    while (got < hi - lo) {
        ssize_t n = pread(fd, w->buf + got, (size_t)(hi - lo - got), (off_t)(lo + got));
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    w->mem = w->buf;
    w->lo = lo;
    w->hi = lo + got;
    return off + len <= w->hi ? w->mem + (off - lo) : NULL;
}

void td_window_forget(struct td_window *w)
{
    w->mem = NULL;
    w->lo = w->hi = 0;
}

void td_window_show(struct td_window *w, const uint8_t *mem, uint64_t off, uint64_t len)
{
    w->mem = mem;
    w->lo = off;
    w->hi = off + len;
}

/* ---- Images. ---- */

static bool image_reserve(struct td_image *im, size_t need)
{
    if (im->mem && im->cap >= need)
        return true;
    size_t cap = im->cap ? im->cap : 8 * 1024 * 1024; /* untouched pages cost nothing */
    while (cap < need)
        cap *= 2;
    /* The old buffer is given back (its huge pages with it), not kept. */
    td_pages_free(&im->pages);
    if (im->small_pages)
        td_pages_init_small(&im->pages, cap);
    else
        td_pages_init(&im->pages, cap);
    im->mem = td_pages_alloc(&im->pages, cap);
    im->cap = im->mem ? cap : 0;
    return im->mem != NULL;
}

bool td_image_load(struct td_image *im, int fd, uint64_t lo, uint64_t hi)
{
    im->lo = im->hi = 0;
    if (hi < lo || hi - lo > SIZE_MAX || !image_reserve(im, (size_t)(hi - lo)))
        return false;
    for (uint64_t got = 0; got < hi - lo;) {
        ssize_t n = pread(fd, im->mem + got, (size_t)(hi - lo - got), (off_t)(lo + got));
        if (n <= 0)
            return false;
        got += (uint64_t)n;
    }
    im->lo = lo;
    im->hi = hi;
    return true;
}

bool td_image_view(const struct td_image *im, uint64_t off, uint64_t len, struct td_window *w)
{
    if (off < im->lo || off > im->hi || len > im->hi - off)
        return false;
    td_window_show(w, im->mem + (off - im->lo), off, len);
    return true;
}

void td_image_free(struct td_image *im)
{
    td_pages_free(&im->pages);
    memset(im, 0, sizeof *im);
}

/* The second hash: a 64-bit multiply-xorshift, one multiply per 8 bytes. */
static inline uint64_t h2_start(size_t len)
{
    return 0x9e3779b97f4a7c15ull ^ (len * 0xc2b2ae3d27d4eb4full);
}

static inline uint64_t h2_step(uint64_t h, const unsigned char *p)
{
    uint64_t word;
    memcpy(&word, p, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

static inline uint64_t h2_finish(uint64_t h, const unsigned char *p, size_t left)
{
    uint64_t tail = 0;
    memcpy(&tail, p, left);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 29);
}

/* The name's two hashes in one pass over 8-byte words: the GNU hash as
 * h * 33^8 plus the bytes times 33^7 .. 1 (the same value as a byte at a
 * time, without a multiply chained through every byte), and the second. */
static void hash_name(const char *text, size_t len, struct td_symname *out)
{
    const unsigned char *p = (const unsigned char *)text;
    uint64_t h = h2_start(len);
    uint32_t g = 5381;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        h = h2_step(h, p + i);
        g = g * 1954312449u + p[i] * 3963737313u + p[i + 1] * 1291467969u + p[i + 2] * 39135393u +
            p[i + 3] * 1185921u + p[i + 4] * 35937u + p[i + 5] * 1089u + p[i + 6] * 33u + p[i + 7];
    }
    out->h2 = h2_finish(h, p + i, len - i);
    for (; i < len; i++)
        g = g * 33 + p[i];
    out->gnu = g;
}

/* The second hash alone (a name whose GNU hash is known to match). */
static void hash_name_h2(const char *text, size_t len, struct td_symname *out)
{
    const unsigned char *p = (const unsigned char *)text;
    uint64_t h = h2_start(len);
    size_t i = 0;
    for (; i + 8 <= len; i += 8)
        h = h2_step(h, p + i);
    out->h2 = h2_finish(h, p + i, len - i);
    out->gnu = 0;
}

/* The name at ST_NAME into OUT (text and length), hashed by HASH. */
static bool window_name(struct td_window *w, int fd, const struct td_elf *elf, uint32_t st_name,
                        uint64_t reach, void (*hash)(const char *, size_t, struct td_symname *),
                        struct td_symname *out)
{
    if (st_name >= elf->strtab_size)
        return false;
    uint64_t off = elf->strtab_off + st_name, end = elf->strtab_off + elf->strtab_size;
    uint64_t avail = end - off, to = elf->strtab_off + reach + NAME_FIRST;
    size_t ask = avail < NAME_FIRST ? (size_t)avail : NAME_FIRST;
    for (;;) {
        /* All the window holds from OFF, once it holds the first ASK bytes. */
        const uint8_t *p = td_window_at(w, fd, off, ask, to, end);
        if (!p)
            return false;
        size_t held = (size_t)(w->hi - off);
        const uint8_t *nul = memchr(p, 0, held);
        if (nul) {
            out->text = (const char *)p;
            out->len = (size_t)(nul - p);
            hash(out->text, out->len, out);
            return true;
        }
        if (held >= avail)
            return false; /* runs to the end of DT_STRSZ */
        ask = held * 2 < avail ? held * 2 : (size_t)avail;
    }
}

bool td_window_name(struct td_window *w, int fd, const struct td_elf *elf, uint32_t st_name,
                    uint64_t reach, struct td_symname *out)
{
    return window_name(w, fd, elf, st_name, reach, hash_name, out);
}

bool td_window_name_h2(struct td_window *w, int fd, const struct td_elf *elf, uint32_t st_name,
                       uint64_t reach, struct td_symname *out)
{
    return window_name(w, fd, elf, st_name, reach, hash_name_h2, out);
}

uint32_t td_symitems_reach(const struct td_symitem *v, size_t n, size_t first, size_t *last,
                           uint32_t span)
{
    if (*last < first)
        *last = first;
    while (*last + 1 < n && v[*last + 1].key - v[first].key < span)
        (*last)++;
    return v[*last].key;
}

static bool sorted(const struct td_symitem *v, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (v[i].key < v[i - 1].key)
            return false;
    return true;
}

/* LSD radix sort, a byte a pass; passes where every key has the same
 * byte are skipped. */
void td_symitems_sort(struct td_symitem *v, struct td_symitem *tmp, size_t n)
{
    if (sorted(v, n))
        return;
    struct td_symitem *from = v, *to = tmp;
    for (unsigned shift = 0; shift < 32; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((from[i].key >> shift) & 0xff) + 1]++;
        if (count[((from[0].key >> shift) & 0xff) + 1] == n)
            continue;
        for (int b = 0; b < 256; b++)
            count[b + 1] += count[b];
        for (size_t i = 0; i < n; i++)
            to[count[(from[i].key >> shift) & 0xff]++] = from[i];
        struct td_symitem *t = from;
        from = to;
        to = t;
    }
    if (from != v)
        memcpy(v, from, n * sizeof *v);
}
