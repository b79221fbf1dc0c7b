/* A bump allocator with a hard cap. Parsers allocate everything derived
 * from one input file here, so a hostile file can never make the program
 * allocate more than the cap (64 MiB by default), and freeing is one call. */
#ifndef TD_BASE_ARENA_H
#define TD_BASE_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#define TD_ARENA_DEFAULT_CAP ((size_t)64 << 20)

struct td_arena_block;

struct td_arena {
    struct td_arena_block *head;
    size_t used_total; /* bytes handed out plus block overhead */
    size_t cap;        /* 0 means TD_ARENA_DEFAULT_CAP */
};

/* Returns zeroed memory aligned to 16 bytes, or NULL when the cap would be
 * exceeded or the system is out of memory. */
void *td_arena_alloc(struct td_arena *a, size_t size);

/* Overflow-checked td_arena_alloc(count * size). */
void *td_arena_array(struct td_arena *a, size_t count, size_t size);

char *td_arena_strndup(struct td_arena *a, const char *s, size_t n);
char *td_arena_strdup(struct td_arena *a, const char *s);

void td_arena_free(struct td_arena *a);

/* A string grown on the heap a piece at a time (one output whose length is
 * not known until it is written), kept NUL-terminated, then copied into an
 * arena; a failed allocation marks it failed and later pieces are dropped. */
struct td_strbuf {
    char *s;
    size_t len, cap;
    bool failed;
};

/* Appends the N bytes at S. */
void td_strbuf_put(struct td_strbuf *b, const char *s, size_t n);

/* The string copied into A ("" when nothing was put), NULL when the buffer
 * failed or A is out of memory; the heap buffer is freed either way. */
char *td_strbuf_take(struct td_strbuf *b, struct td_arena *a);

#endif
