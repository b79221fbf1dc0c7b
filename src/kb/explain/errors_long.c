/* A long text (a whole training log) cut down to what can hold the failure
 * before it is read (docs/explain.md "Long texts"): every catalogue row and
 * extractor is a regular expression run over the whole text, so an 8 MB log
 * took seconds to minutes. Its start (start-up warnings such as a library
 * that could not be loaded), its end (the fatal error and its traceback)
 * and, from between, the lines that name a failure with a few lines around
 * them are kept, at line boundaries. A text under the window is untouched. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/errors.h"

enum {
    LONG_WINDOW = 256 << 10, /* a text this long or shorter is read whole */
    LONG_HEAD = 64 << 10,    /* its first bytes kept */
    LONG_TAIL = 192 << 10,   /* its last bytes kept */
    LONG_MIDDLE = 64 << 10,  /* the most kept from between, the latest lines first */
    LONG_CONTEXT = 3,        /* lines kept before and after a line naming a failure */
};

/* Words and tokens a line naming a failure, or the library it is about,
 * holds (compared in lower case). */
static const char *const failure_words[] = {
    "error",     "fail",    "cannot", "can't",   "could not",    "unable",  "not found",
    "undefined", "missing", "denied", "invalid", "incompatible", "no such", "traceback",
    "exception", "errno",   "0xc0",   ".so",     ".dll",         ".dylib",  NULL,
};

/* Whether W occurs in S[0..N) (memmem is not in the C library on Windows). */
static bool contains(const char *s, size_t n, const char *w)
{
    size_t k = strlen(w);
    for (const char *p = s; k <= n - (size_t)(p - s);) {
        p = memchr(p, w[0], n - (size_t)(p - s) - k + 1);
        if (!p)
            return false;
        if (memcmp(p, w, k) == 0)
            return true;
        p++;
    }
    return false;
}

static bool names_failure(const char *s, size_t n, char *lower)
{
    for (size_t i = 0; i < n; i++)
        lower[i] = (s[i] >= 'A' && s[i] <= 'Z') ? (char)(s[i] - 'A' + 'a') : s[i];
    for (const char *const *w = failure_words; *w; w++)
        if (contains(lower, n, *w))
            return true;
    return false;
}

/* One line of the middle: [start, end), end past its newline. */
struct span {
    size_t start, end;
    bool keep;
};

static void size_text(size_t len, char *out, size_t cap)
{
    if (len >= 1000000)
        snprintf(out, cap, "%.1f MB", (double)len / 1e6);
    else
        snprintf(out, cap, "%zu KB", len / 1000);
}

const char *td_explain_shorten(const char *text, size_t *len, const char **note, struct td_arena *a)
{
    *note = NULL;
    size_t n = *len;
    if (n <= LONG_WINDOW)
        return text;
    /* The head ends after a line break, the tail starts after one. */
    size_t head = LONG_HEAD;
    while (head > 0 && text[head - 1] != '\n')
        head--;
    if (head == 0)
        head = LONG_HEAD;
    size_t tail = n - LONG_TAIL;
    const char *nl = memchr(text + tail, '\n', n - tail);
    if (nl && (size_t)(nl + 1 - text) < n)
        tail = (size_t)(nl + 1 - text);
    if (tail < head)
        tail = head;

    /* The middle's lines, those naming a failure marked with their context. */
    size_t cap = 1024, count = 0, longest = 0;
    struct span *lines = malloc(cap * sizeof *lines);
    if (!lines)
        return NULL;
    for (size_t at = head; at < tail;) {
        const char *e = memchr(text + at, '\n', tail - at);
        size_t end = e ? (size_t)(e + 1 - text) : tail;
        if (count == cap) {
            struct span *more = realloc(lines, 2 * cap * sizeof *lines);
            if (!more) {
                free(lines);
                return NULL;
            }
            lines = more, cap *= 2;
        }
        lines[count++] = (struct span){at, end, false};
        longest = end - at > longest ? end - at : longest;
        at = end;
    }
    char *lower = malloc(longest ? longest : 1);
    if (!lower) {
        free(lines);
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        /* A line longer than the whole budget could never be kept. */
        size_t w = lines[i].end - lines[i].start;
        if (w > LONG_MIDDLE || !names_failure(text + lines[i].start, w, lower))
            continue;
        size_t from = i > LONG_CONTEXT ? i - LONG_CONTEXT : 0;
        size_t to = i + LONG_CONTEXT < count ? i + LONG_CONTEXT : count - 1;
        for (size_t k = from; k <= to; k++)
            lines[k].keep = lines[k].end - lines[k].start <= LONG_MIDDLE;
    }
    free(lower);
    /* Over the budget, the latest lines are kept. */
    size_t used = 0, first = count, kept = 0;
    for (size_t i = count; i-- > 0;) {
        if (!lines[i].keep)
            continue;
        size_t w = lines[i].end - lines[i].start;
        if (used + w > LONG_MIDDLE)
            break;
        used += w, first = i, kept++;
    }

    /* Head, the kept lines (a blank line where lines were left out), tail. */
    char *out = td_arena_alloc(a, head + used + count + (n - tail) + 2);
    if (!out) {
        free(lines);
        return NULL;
    }
    size_t o = 0;
    memcpy(out, text, head);
    o = head;
    bool gap = false;
    for (size_t i = 0; i < count; i++) {
        if (i < first || !lines[i].keep) {
            gap = true;
            continue;
        }
        if (gap)
            out[o++] = '\n';
        gap = false;
        memcpy(out + o, text + lines[i].start, lines[i].end - lines[i].start);
        o += lines[i].end - lines[i].start;
    }
    if (gap)
        out[o++] = '\n';
    memcpy(out + o, text + tail, n - tail);
    o += n - tail;
    out[o] = '\0';
    free(lines);

    char size[32], *msg = td_arena_alloc(a, 200);
    if (msg) {
        size_text(n, size, sizeof size);
        snprintf(msg, 200,
                 "a long text (%s): read its first %d KiB, its last %d KiB and %zu line%s "
                 "from between that name a failure or surround one",
                 size, LONG_HEAD >> 10, LONG_TAIL >> 10, kept, kept == 1 ? "" : "s");
    }
    *note = msg;
    *len = o;
    return out;
}
