/* Reservations for td_pages on Linux: anonymous, not committed until
 * touched, marked for transparent huge pages. */
#include "base/pages.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#if defined(__GLIBC__) && !defined(TD_PAGES_SANITIZED)
#include <malloc.h>
#include <unistd.h>
#endif

void *td_pages_reserve(size_t size, size_t align, void **mapping, size_t *mapping_size)
{
    size_t whole = size + align;
    void *m = mmap(NULL, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
#ifdef MADV_HUGEPAGE
    /* Huge pages need 2 MiB-aligned ranges: hence the alignment. Without
     * THP (disabled, or none free) the kernel uses small pages. */
    madvise((void *)at, size, MADV_HUGEPAGE);
#endif
    *mapping = m;
    *mapping_size = whole;
    return (void *)at;
}

void td_pages_release_reservation(void *mapping, size_t mapping_size)
{
    munmap(mapping, mapping_size);
}

#if defined(__GLIBC__) && !defined(TD_PAGES_SANITIZED)
static void *heap_head[2]; /* the blocks before the huge pages, kept for good */
#endif

void td_pages_heap_huge(void)
{
#if defined(__GLIBC__) && !defined(TD_PAGES_SANITIZED) && defined(MADV_HUGEPAGE)
    enum { HEAP = 16 * 1024 * 1024, HUGE = 2 * 1024 * 1024 };
    /* Blocks up to 32 MiB from the heap (not a mapping each), the heap
     * kept when blocks are freed, and grown by HUGE at least. */
    mallopt(M_MMAP_THRESHOLD, 2 * HEAP);
    mallopt(M_TRIM_THRESHOLD, 4 * HEAP);
    mallopt(M_TOP_PAD, HUGE);
    /* Grows the heap by HEAP at once; freed, the block is its top again. */
    char *first = malloc(HEAP);
    uintptr_t end = (uintptr_t)sbrk(0);
    if (!first || end < (uintptr_t)first + HEAP) {
        free(first);
        return;
    }
    uintptr_t lo = ((uintptr_t)first + HUGE - 1) & ~(uintptr_t)(HUGE - 1);
    uintptr_t hi = end & ~(uintptr_t)(HUGE - 1);
    if (hi <= lo || madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0) {
        free(first);
        return;
    }
    free(first);
    /* Blocks come from the top's start on: a block as large as the part
     * before the first whole huge page (never touched: it costs address
     * space only) makes the next ones start there. */
    heap_head[0] = malloc(16);
    if (heap_head[0] && (uintptr_t)heap_head[0] + 64 < lo)
        heap_head[1] = malloc(lo - (uintptr_t)heap_head[0] - 48);
#endif
}
