/* Shared cmocka test helpers; see testutil.h. */
#include "testutil.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *td_fixture(const char *relpath)
{
    static char path[4096];
    const char *dir = getenv("TD_FIXTURES");
    if (!dir)
        fail_msg("TD_FIXTURES is not set: run the tests through ctest");
    snprintf(path, sizeof path, "%s/%s", dir, relpath);
    return path;
}

void td_map_fixture(const char *relpath, struct td_map *m)
{
    struct td_err err = {0};
    const char *path = relpath[0] == '/' ? relpath : td_fixture(relpath);
    if (td_map_open(path, m, &err) != 0)
        fail_msg("%s", err.msg);
}

uint8_t *td_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n)
        fail_msg("cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
    return p;
}

void td_text_add(struct td_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->len + (size_t)n + 1 > t->cap) {
        t->cap = (t->len + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

static bool said_words(void *ctx, const char *said, size_t len)
{
    const char *words = ctx;
    return words && memmem(said, len, words, strlen(words)) != NULL;
}

struct td_time_up td_time_up_once_said(const char *words)
{
    return (struct td_time_up){.said = said_words, .ctx = (void *)words};
}
