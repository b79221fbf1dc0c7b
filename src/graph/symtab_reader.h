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

/* A buffer holding the file range [lo, hi), its memory from PAGES. */
struct td_window {
    struct td_pages *pages;
    uint8_t *mem;
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
/* Forgets what W holds: the next read is of another file. */
void td_window_forget(struct td_window *w);

/* A symbol name as read: its bytes in the window (NUL-terminated there),
 * its length, its GNU hash and a second, 64-bit hash. Two names are taken
 * as equal when length and both hashes are: a false match needs a 96-bit
 * collision (docs/performance.md). */
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
