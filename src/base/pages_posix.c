/* Reservations for td_pages on Linux: anonymous, not committed until
 * touched, kept on small pages. */
#include "base/pages.h"

#include <stdint.h>
#include <sys/mman.h>

void *td_pages_reserve(size_t size, size_t align, void **mapping, size_t *mapping_size)
{
    size_t whole = size + align;
    void *m = mmap(NULL, whole, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1);
#ifdef MADV_NOHUGEPAGE
    /* Where THP is "always", a touched byte would cost a zeroed 2 MiB page:
     * peak memory then depends on what the kernel has free, and zeroing
     * them cost as much time as the faults they save (docs/performance.md,
     * session 7). */
    madvise((void *)at, size, MADV_NOHUGEPAGE);
#endif
    *mapping = m;
    *mapping_size = whole;
    return (void *)at;
}

void td_pages_release_reservation(void *mapping, size_t mapping_size)
{
    munmap(mapping, mapping_size);
}
