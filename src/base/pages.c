/* Bump allocation over a reservation (pages.h). */
#include "base/pages.h"

#include <stdlib.h>
#include <string.h>

struct td_pages_spill {
    struct td_pages_spill *next;
    _Alignas(16) unsigned char data[]; /* calloc's own alignment */
};

enum { HUGE_PAGE = 2 * 1024 * 1024, ALIGN = 64 };

static void init(struct td_pages *p, size_t reserve, bool huge)
{
    memset(p, 0, sizeof *p);
#ifndef TD_PAGES_SANITIZED
    reserve = (reserve + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    p->base = td_pages_reserve(reserve, HUGE_PAGE, huge, &p->mapping, &p->mapping_size);
    p->cap = p->base ? reserve : 0;
#else
    (void)reserve;
    (void)huge;
#endif
}

void td_pages_init(struct td_pages *p, size_t reserve)
{
    init(p, reserve, true);
}

void td_pages_init_small(struct td_pages *p, size_t reserve)
{
    init(p, reserve, false);
}

static void *spill(struct td_pages *p, size_t size)
{
    struct td_pages_spill *s = calloc(1, sizeof *s + size);
    if (!s)
        return NULL;
    s->next = p->spill;
    p->spill = s;
    return s->data;
}

void *td_pages_alloc(struct td_pages *p, size_t size)
{
    size_t need = (size + ALIGN - 1) & ~(size_t)(ALIGN - 1);
    if (need < size)
        return NULL;
    if (!p->base || need > p->cap - p->used)
        return spill(p, size);
    void *at = p->base + p->used; /* never handed out before: still zero */
    p->used += need;
    return at;
}

void *td_pages_array(struct td_pages *p, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return td_pages_alloc(p, count * size);
}

void td_pages_free(struct td_pages *p)
{
    while (p->spill) {
        struct td_pages_spill *next = p->spill->next;
        free(p->spill);
        p->spill = next;
    }
    if (p->mapping)
        td_pages_release_reservation(p->mapping, p->mapping_size);
    memset(p, 0, sizeof *p);
}
