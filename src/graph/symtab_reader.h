/* Reading an ELF object's dynamic symbol tables in pieces, with pread into
 * a few reused buffers, for symbol binding (bind_elf.c). Mapping the
 * tables instead costs a page fault per 64 KiB touched and most of the
 * closure's 20 MiB of tables are touched; a pread copy into pages already
 * faulted costs a third of that per byte and nothing per page
 * (docs/performance.md). Graph-internal. */
#ifndef TD_GRAPH_SYMTAB_READER_H
#define TD_GRAPH_SYMTAB_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/pages.h"
#include "format/elf.h"

/* The file range [lo, hi), held at MEM: in the window's own buffer (BUF,
 * CAP bytes from PAGES), or in an image it views (td_image_view). */
struct td_window {
    struct td_pages *pages;
    const uint8_t *mem;
    uint8_t *buf;
    size_t cap;
    uint64_t lo, hi;
};

/* The bytes [OFF, OFF + LEN) of the file open as FD. When W does not hold
 * them it is refilled from OFF (rounded down to a page) up to REACH (the
 * end of what the caller will ask for next, when it knows: reading less
 * costs less), at least OFF + LEN and at most LIMIT or the buffer's size.
 * NULL when they pass LIMIT or the file ends first. */
const uint8_t *td_window_fill(struct td_window *w, int fd, uint64_t off, size_t len, uint64_t reach,
                              uint64_t limit);

static inline const uint8_t *td_window_at(struct td_window *w, int fd, uint64_t off, size_t len,
                                          uint64_t reach, uint64_t limit)
{
    if (w->mem && off >= w->lo && off <= w->hi && len <= w->hi - off && off <= limit &&
        len <= limit - off)
        return w->mem + (off - w->lo); /* held already: the common case, inline */
    return td_window_fill(w, fd, off, len, reach, limit);
}
/* Whether W holds the file's [OFF, OFF + LEN). */
static inline bool td_window_holds(const struct td_window *w, uint64_t off, uint64_t len)
{
    return w->mem && off >= w->lo && off <= w->hi && len <= w->hi - off;
}

/* Forgets what W holds: the next read is of another file. */
void td_window_forget(struct td_window *w);
/* Makes W see MEM as the file's [OFF, OFF + LEN), until W is forgotten or
 * asked for bytes outside it (MEM is not W's: it must outlive that). */
void td_window_show(struct td_window *w, const uint8_t *mem, uint64_t off, uint64_t len);

/* One range of a file read at once, its parts then seen through windows:
 * an object's tables, when they lie together (the gathering thread reads
 * each object once for both halves of binding). */
struct td_image {
    struct td_pages pages; /* its own reservation, replaced when it grows */
    bool small_pages;      /* reserved on small pages (td_pages_init_small) */
    uint8_t *mem;
    size_t cap;
    uint64_t lo, hi; /* the file range held */
};

/* Reads [LO, HI) of the file open as FD into IM. False when out of memory
 * or the file ends first; IM holds nothing then. */
bool td_image_load(struct td_image *im, int fd, uint64_t lo, uint64_t hi);
/* Makes W see the image's copy of [OFF, OFF + LEN) until W is forgotten
 * or asked for bytes outside it; false when the image does not hold it. */
bool td_image_view(const struct td_image *im, uint64_t off, uint64_t len, struct td_window *w);
void td_image_free(struct td_image *im);

/* A symbol name as read: its bytes in the window (NUL-terminated there),
 * its length, its GNU hash and a second, 64-bit hash. Two names are taken
 * as equal when length and both hashes are (the GNU hash's top 31 bits
 * where a GNU hash chain word stands for it): a false match needs a
 * 95-bit collision (docs/performance.md). */
struct td_symname {
    const char *text;
    size_t len;
    uint32_t gnu;
    uint64_t h2;
};

/* The name at ST_NAME of ELF's dynamic string table, read up to REACH
 * (string-table offset) at least. False when it is not inside DT_STRSZ
 * and NUL-terminated there (what td_elf_dynstr refuses). */
bool td_window_name(struct td_window *w, int fd, const struct td_elf *elf, uint32_t st_name,
                    uint64_t reach, struct td_symname *out);
/* td_window_name without the GNU hash (OUT's gnu is 0), for a name whose
 * GNU hash a hash table has told already. */
bool td_window_name_h2(struct td_window *w, int fd, const struct td_elf *elf, uint32_t st_name,
                       uint64_t reach, struct td_symname *out);

/* One entry of a list sorted by KEY (a string-table offset): names are
 * read in file order so that each piece of the table is read once. */
struct td_symitem {
    uint32_t key, index, aux, extra;
};

/* For the items sorted from FIRST on: the key of the last one within SPAN
 * bytes of FIRST's key (*LAST is where the previous call ended: keys only
 * grow, so the walk is linear overall). */
uint32_t td_symitems_reach(const struct td_symitem *v, size_t n, size_t first, size_t *last,
                           uint32_t span);

/* Sorts V (N items) by KEY, stably; TMP has room for N. */
void td_symitems_sort(struct td_symitem *v, struct td_symitem *tmp, size_t n);
#endif
