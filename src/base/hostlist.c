/* Slurm hostlist expressions: expanded by walking each comma-separated item
 * bracket by bracket, folded by sorting names on (prefix, suffix, width,
 * number) and writing each run of consecutive numbers as one range. */
#include "base/hostlist.h"

#include "base/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NUMBER_DIGITS_MAX = 18 }; /* fits a uint64_t with room to add */

struct expansion {
    size_t max, emitted;
    bool (*emit)(void *ctx, const char *name);
    void *ctx;
    bool stopped;
};

/* Reads the digits at *P (up to END) as a number of at most 18 digits. */
static bool number_at(const char **p, const char *end, uint64_t *v, size_t *width)
{
    const char *s = *p;
    *v = 0;
    while (*p < end && **p >= '0' && **p <= '9' && *p - s < NUMBER_DIGITS_MAX)
        *v = *v * 10 + (uint64_t)(*(*p)++ - '0');
    *width = (size_t)(*p - s);
    return *width > 0 && !(*p < end && **p >= '0' && **p <= '9');
}

static const char *expand_item(struct expansion *x, const char *p, const char *end, char *name,
                               size_t len);

/* The bracket at P (after '['), up to CLOSE: each number in turn appended
 * to NAME, then the rest of the item expanded after it. */
static const char *expand_bracket(struct expansion *x, const char *p, const char *close,
                                  const char *end, char *name, size_t len)
{
    /* An empty bracket would name nothing: every bracket before it would
     * then loop through all its numbers without ever reaching the limit. */
    if (p == close)
        return "an empty bracket";
    while (p < close && !x->stopped) {
        uint64_t lo, hi;
        size_t width, hi_width;
        if (!number_at(&p, close, &lo, &width))
            return "a bracket holds something other than numbers and lo-hi ranges";
        hi = lo;
        if (p < close && *p == '-') {
            p++;
            if (!number_at(&p, close, &hi, &hi_width))
                return "a range lacks its upper end";
            if (hi < lo)
                return "a range runs backwards";
        }
        if (p < close && *p != ',')
            return "a bracket holds something other than numbers and lo-hi ranges";
        p += p < close;
        for (uint64_t v = lo; !x->stopped; v++) {
            int n = snprintf(name + len, TD_HOSTLIST_NAME_MAX - len, "%0*llu", (int)width,
                             (unsigned long long)v);
            if (n < 0 || (size_t)n >= TD_HOSTLIST_NAME_MAX - len)
                return "a host name longer than 255 characters";
            const char *e = expand_item(x, close + 1, end, name, len + (size_t)n);
            if (e)
                return e;
            if (v == hi)
                break;
        }
    }
    return NULL;
}

/* Appends the literal text at P to NAME up to the next bracket, and either
 * emits the name (at END) or expands the bracket. */
static const char *expand_item(struct expansion *x, const char *p, const char *end, char *name,
                               size_t len)
{
    while (p < end && *p != '[') {
        if (*p == ']')
            return "unbalanced bracket";
        if (len + 1 >= TD_HOSTLIST_NAME_MAX)
            return "a host name longer than 255 characters";
        name[len++] = *p++;
    }
    if (p == end) {
        name[len] = '\0';
        if (len == 0)
            return "an empty host name";
        if (x->emitted == x->max)
            return "more names than the limit";
        x->emitted++;
        if (!x->emit(x->ctx, name))
            x->stopped = true;
        return NULL;
    }
    const char *close = memchr(p, ']', (size_t)(end - p));
    if (!close)
        return "unbalanced bracket";
    const char *nested = memchr(p + 1, '[', (size_t)(close - p - 1));
    if (nested)
        return "nested brackets";
    return expand_bracket(x, p + 1, close, end, name, len);
}

const char *td_hostlist_expand(const char *expr, size_t max,
                               bool (*emit)(void *ctx, const char *name), void *ctx)
{
    struct expansion x = {.max = max, .emit = emit, .ctx = ctx};
    char name[TD_HOSTLIST_NAME_MAX];
    const char *p = expr, *end = expr + strlen(expr);
    while (p < end && !x.stopped) {
        /* One item: up to a comma outside brackets. */
        const char *q = p;
        int depth = 0;
        while (q < end && (depth > 0 || (*q != ',' && *q != ' '))) {
            depth += *q == '[' ? 1 : *q == ']' ? -1 : 0;
            if (depth < 0 || depth > 1)
                return depth < 0 ? "unbalanced bracket" : "nested brackets";
            q++;
        }
        if (depth != 0)
            return "unbalanced bracket";
        if (q > p) {
            const char *e = expand_item(&x, p, q, name, 0);
            if (e)
                return e;
        }
        p = q + (q < end);
    }
    return NULL;
}

/* One name split around its last run of digits: PREFIX, NUMBER, SUFFIX.
 * WIDTH is the zero-padded width (its digit count when it starts with 0),
 * 0 for a natural number, -1 for a name without a usable number. */
struct split {
    const char *name;
    size_t prefix_len, suffix_at, len;
    uint64_t number;
    int width, digits;
};

static void split_name(const char *name, struct split *s)
{
    size_t len = strlen(name), end = len;
    *s = (struct split){.name = name, .prefix_len = len, .suffix_at = len, .len = len, .width = -1};
    while (end > 0 && !(name[end - 1] >= '0' && name[end - 1] <= '9'))
        end--;
    size_t start = end;
    while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9')
        start--;
    if (end == start || end - start > NUMBER_DIGITS_MAX)
        return;
    s->prefix_len = start;
    s->suffix_at = end;
    s->digits = (int)(end - start);
    for (size_t i = start; i < end; i++)
        s->number = s->number * 10 + (uint64_t)(name[i] - '0');
    s->width = name[start] == '0' && end - start > 1 ? (int)(end - start) : 0;
}

static int compare_span(const char *a, size_t na, const char *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

/* Same prefix and suffix: one block whose numbers may share a bracket. */
static int compare_affixes(const struct split *a, const struct split *b)
{
    int c = compare_span(a->name, a->prefix_len, b->name, b->prefix_len);
    if (c == 0)
        c = compare_span(a->name + a->suffix_at, a->len - a->suffix_at, b->name + b->suffix_at,
                         b->len - b->suffix_at);
    return c ? c : (a->width < 0) - (b->width < 0);
}

static int compare_split(const void *pa, const void *pb)
{
    const struct split *a = pa, *b = pb;
    int c = compare_affixes(a, b);
    if (c == 0)
        c = (a->width > b->width) - (a->width < b->width);
    if (c == 0)
        c = (a->number > b->number) - (a->number < b->number);
    return c;
}

static void put_number(struct td_strbuf *o, uint64_t v, int width)
{
    char num[32];
    int n = snprintf(num, sizeof num, "%0*llu", width, (unsigned long long)v);
    td_strbuf_put(o, num, (size_t)n);
}

/* Writes S[0..N) (one block: same affixes and width, numbers ascending,
 * duplicates possible) as prefix[ranges]suffix, or the name alone. */
static void put_block(struct td_strbuf *o, const struct split *s, size_t n)
{
    if (o->len)
        td_strbuf_put(o, ",", 1);
    if (s[0].width < 0) {
        td_strbuf_put(o, s[0].name, s[0].len);
        return;
    }
    bool single = s[0].number == s[n - 1].number;
    td_strbuf_put(o, s[0].name, s[0].prefix_len);
    if (!single)
        td_strbuf_put(o, "[", 1);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && s[j + 1].number <= s[j].number + 1)
            j++;
        if (i)
            td_strbuf_put(o, ",", 1);
        put_number(o, s[i].number, s[i].width);
        if (s[j].number != s[i].number) {
            td_strbuf_put(o, "-", 1);
            put_number(o, s[j].number, s[i].width);
        }
        i = j + 1;
    }
    if (!single)
        td_strbuf_put(o, "]", 1);
    td_strbuf_put(o, s[0].name + s[0].suffix_at, s[0].len - s[0].suffix_at);
}

/* A natural number at least as long as a padded width used beside it
 * joins the widest such group: zero padding only ever adds digits, so
 * gpu[0001-10000] names gpu10000 too (gpu001 ... gpu100 is gpu[001-100]). */
static void join_padded(struct split *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        uint64_t widths = 0;
        while (j < n && compare_affixes(&s[i], &s[j]) == 0) {
            if (s[j].width > 0 && s[j].width < 64)
                widths |= (uint64_t)1 << s[j].width;
            j++;
        }
        for (size_t k = i; k < j; k++)
            for (int w = s[k].digits; s[k].width == 0 && w > 1; w--)
                if (w < 64 && (widths >> w & 1))
                    s[k].width = w;
        i = j;
    }
}

char *td_hostlist_fold(const char *const *names, size_t n, struct td_arena *arena)
{
    struct split *s = n ? calloc(n, sizeof *s) : NULL;
    if (n && !s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        split_name(names[i], &s[i]);
    if (n) { /* qsort of NULL, even with no element, is undefined */
        qsort(s, n, sizeof *s, compare_split);
        join_padded(s, n);
        qsort(s, n, sizeof *s, compare_split);
    }
    struct td_strbuf o = {0};
    td_strbuf_put(&o, "", 0);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        if (s[i].width < 0) /* a name without a number: once */
            while (j < n && s[j].width < 0 && compare_affixes(&s[i], &s[j]) == 0)
                j++;
        else
            while (j < n && compare_affixes(&s[i], &s[j]) == 0 && s[j].width == s[i].width)
                j++;
        put_block(&o, s + i, j - i);
        i = j;
    }
    char *r = td_strbuf_take(&o, arena);
    free(s);
    return r;
}
