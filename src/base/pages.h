/* Working memory for one job (symbol binding), all released at once: a
 * bump allocator over one reservation of address space, which the Linux
 * build asks the kernel to back with transparent huge pages. On the
 * virtual machines this was measured on, a fault on fresh memory costs
 * 6-12 us per 4 KiB page at times, and binding a 288-library closure
 * touches a few MB of it: hundreds of faults, where huge pages make it a
 * handful (docs/performance.md). Memory handed out is zeroed and 16-byte
 * aligned (64 within the reservation);
 * a request that does not fit the reservation is served by calloc, and
 * sanitizer builds serve every request by calloc, so that AddressSanitizer
 * sees each block. */
#ifndef TD_BASE_PAGES_H
#define TD_BASE_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__)
#define TD_PAGES_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TD_PAGES_SANITIZED 1
#endif
#endif

struct td_pages_spill; /* blocks served by calloc */

struct td_pages {
    uint8_t *base; /* the reservation, NULL when there is none */
    size_t cap, used;
    void *mapping; /* what to release: the reservation before alignment */
    size_t mapping_size;
    struct td_pages_spill *spill;
};

/* Reserves RESERVE bytes of address space (nothing is touched yet). False
 * only when not even a fallback is possible; a failed reservation leaves
 * every request to calloc. */
void td_pages_init(struct td_pages *p, size_t reserve);
/* td_pages_init on small pages: for a buffer that is seldom filled far
 * (a 2 MiB page would be mostly unused memory). */
void td_pages_init_small(struct td_pages *p, size_t reserve);
/* SIZE zeroed bytes, valid until td_pages_free; NULL when out of memory. */
void *td_pages_alloc(struct td_pages *p, size_t size);
/* Overflow-checked td_pages_alloc(COUNT * SIZE). */
void *td_pages_array(struct td_pages *p, size_t count, size_t size);
void td_pages_free(struct td_pages *p);

/* Platform part (pages_posix.c, pages_windows.c): a reservation of SIZE
 * bytes aligned to ALIGN (on huge pages if HUGE), or NULL; *MAPPING and *MAPPING_SIZE say what
 * td_pages_release_reservation gives back. */
void *td_pages_reserve(size_t size, size_t align, bool huge, void **mapping, size_t *mapping_size);
void td_pages_release_reservation(void *mapping, size_t mapping_size);
#endif
