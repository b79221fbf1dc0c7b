/* Capped bump allocator; see arena.h for why the cap exists. */
#include "base/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct td_arena_block {
    struct td_arena_block *next;
    size_t size;
    size_t used;
    _Alignas(16) unsigned char data[];
};

/* Blocks start small and double up to 64 KiB: a graph holds one arena per
 * library (288 for torch's closure), most of which need well under 1 KiB,
 * and a fresh 64 KiB block each cost page faults on memory never used. */
enum { TD_ARENA_FIRST_BLOCK = 1024, TD_ARENA_BLOCK = 64 * 1024 };

static size_t align16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

void *td_arena_alloc(struct td_arena *a, size_t size)
{
    size_t cap = a->cap ? a->cap : TD_ARENA_DEFAULT_CAP;
    if (size > cap)
        return NULL;
    size_t need = align16(size ? size : 1);
    struct td_arena_block *b = a->head;
    if (!b || b->size - b->used < need) {
        size_t grow = a->used_total < TD_ARENA_FIRST_BLOCK ? TD_ARENA_FIRST_BLOCK
                      : a->used_total < TD_ARENA_BLOCK     ? a->used_total
                                                           : TD_ARENA_BLOCK;
        size_t block = need > grow ? need : grow;
        if (a->used_total + block + sizeof *b > cap)
            return NULL;
        b = malloc(sizeof *b + block);
        if (!b)
            return NULL;
        b->next = a->head;
        b->size = block;
        b->used = 0;
        a->head = b;
        a->used_total += block + sizeof *b;
    }
    void *p = b->data + b->used;
    b->used += need;
    memset(p, 0, need);
    return p;
}

void *td_arena_array(struct td_arena *a, size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    return td_arena_alloc(a, count * size);
}

char *td_arena_strndup(struct td_arena *a, const char *s, size_t n)
{
    char *p = td_arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = '\0';
    }
    return p;
}

char *td_arena_strdup(struct td_arena *a, const char *s)
{
    return td_arena_strndup(a, s, strlen(s));
}

void td_arena_free(struct td_arena *a)
{
    struct td_arena_block *b = a->head;
    while (b) {
        struct td_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used_total = 0;
}

void td_strbuf_put(struct td_strbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (n > SIZE_MAX / 2 - b->len - 1) {
        b->failed = true;
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *g = realloc(b->s, cap);
        if (!g) {
            b->failed = true;
            return;
        }
        b->s = g, b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

char *td_strbuf_take(struct td_strbuf *b, struct td_arena *a)
{
    char *r = b->failed ? NULL : td_arena_strndup(a, b->s ? b->s : "", b->len);
    free(b->s);
    *b = (struct td_strbuf){0};
    return r;
}
