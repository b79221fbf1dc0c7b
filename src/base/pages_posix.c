/* Reservations for td_pages on Linux: anonymous, not committed until
 * touched, marked for transparent huge pages. */
#include "base/pages.h"

#include <stdint.h>
#include <sys/mman.h>

void *td_pages_reserve(size_t size, size_t align, bool huge, void **mapping, size_t *mapping_size)
{
    size_t whole = size + align;
    void *m = mmap(NULL, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
#ifdef MADV_HUGEPAGE
    /* A reservation is filled from its start (a bump allocator, a buffer
     * read into), so a 2 MiB page is used nearly whole: one fault instead
     * of 512. Huge pages need 2 MiB-aligned ranges: hence the alignment.
     * Without THP (disabled, or none free) the kernel uses small pages.
     * The heap is left on small pages: its blocks are scattered, and huge
     * pages there cost peak memory (docs/performance.md, session 7). */
    madvise((void *)at, size, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#else
    (void)huge;
#endif
    *mapping = m;
    *mapping_size = whole;
    return (void *)at;
}

void td_pages_release_reservation(void *mapping, size_t mapping_size)
{
    munmap(mapping, mapping_size);
}
