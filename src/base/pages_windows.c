/* Reservations for td_pages on Windows: committed memory is backed only
 * when touched; large pages need a privilege a normal user lacks. */
#include "base/pages.h"

#include <stdint.h>
#include <windows.h>

void *td_pages_reserve(size_t size, size_t align, bool huge, void **mapping, size_t *mapping_size)
{
    (void)huge;
    size_t whole = size + align;
    void *m = VirtualAlloc(NULL, whole, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!m)
        return NULL;
    *mapping = m;
    *mapping_size = whole;
    return (void *)(((uintptr_t)m + align - 1) & ~(uintptr_t)(align - 1));
}

void td_pages_release_reservation(void *mapping, size_t mapping_size)
{
    (void)mapping_size;
    VirtualFree(mapping, 0, MEM_RELEASE);
}
