/* glibc's loader messages in the user's language read as the English they
 * stand for. A program that calls setlocale() gets dlerror() translated by
 * gettext (libc.mo), so "X: cannot open shared object file: No such file or
 * directory" reaches a Chinese desktop's user as "X: 无法打开共享对象文件:
 * 没有那个文件或目录". The translations are glibc's own, one row per
 * message and language in data/glibc_message_translations.tsv; every reader
 * after the cleaning (fields, parts, raisers, catalogue) then sees the
 * English wording it knows. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/arena.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum {
    MAX_ROWS = 1024,
    POOL_CAP = 96 * 1024, /* the table's English and translated texts */
    BUCKETS = 1024,       /* by a text's first two bytes */
};

struct l10n_row {
    const char *english, *translation;
    size_t english_len, translation_len;
    bool is_errno; /* strerror's text, read only after a loader message */
    int next;      /* the next loader row of its bucket, -1 at the end */
};

static struct {
    bool loaded;
    struct l10n_row rows[MAX_ROWS];
    size_t n;
    int bucket[BUCKETS]; /* the first loader row of each bucket, -1 when none */
    char pool[POOL_CAP];
    size_t used;
} g_l10n;

static unsigned bucket_of(const char *s)
{
    return ((unsigned char)s[0] * 31u + (unsigned char)s[1]) % BUCKETS;
}

static const char *pooled(const char *s, size_t *len)
{
    *len = strlen(s);
    if (g_l10n.used + *len + 1 > POOL_CAP)
        return NULL;
    char *p = g_l10n.pool + g_l10n.used;
    memcpy(p, s, *len + 1);
    g_l10n.used += *len + 1;
    return p;
}

static void load_rows(void)
{
    g_l10n.loaded = true;
    for (size_t b = 0; b < BUCKETS; b++)
        g_l10n.bucket[b] = -1;
    static const char *const columns[] = {"message", "role", "translation", NULL};
    static struct td_table t; /* its line buffer is large */
    if (!td_table_open(&t, "glibc_message_translations", columns))
        return;
    while (g_l10n.n < MAX_ROWS && td_table_next(&t)) {
        struct l10n_row *r = &g_l10n.rows[g_l10n.n];
        r->english = pooled(td_table_cell(&t, 0), &r->english_len);
        r->translation = pooled(td_table_cell(&t, 2), &r->translation_len);
        if (!r->english || !r->translation || r->translation_len < 2)
            continue;
        r->is_errno = strcmp(td_table_cell(&t, 1), "errno") == 0;
        r->next = -1;
        if (!r->is_errno) {
            /* longest first within a bucket, so a longer translation wins
               over one it begins with */
            int *at = &g_l10n.bucket[bucket_of(r->translation)];
            while (*at >= 0 && g_l10n.rows[*at].translation_len >= r->translation_len)
                at = &g_l10n.rows[*at].next;
            r->next = *at;
            *at = (int)g_l10n.n;
        }
        g_l10n.n++;
    }
}

/* The loader row whose translation starts at S (N bytes left), or NULL. */
static const struct l10n_row *loader_at(const char *s, size_t n)
{
    if (n < 2 || (unsigned char)s[0] < 0x20)
        return NULL;
    for (int i = g_l10n.bucket[bucket_of(s)]; i >= 0; i = g_l10n.rows[i].next) {
        const struct l10n_row *r = &g_l10n.rows[i];
        if (r->translation_len <= n && memcmp(s, r->translation, r->translation_len) == 0)
            return r;
    }
    return NULL;
}

/* The errno row whose translation starts at S, or NULL. */
static const struct l10n_row *errno_at(const char *s, size_t n)
{
    const struct l10n_row *best = NULL;
    for (size_t i = 0; i < g_l10n.n; i++) {
        const struct l10n_row *r = &g_l10n.rows[i];
        if (r->is_errno && r->translation_len <= n &&
            (!best || r->translation_len > best->translation_len) &&
            memcmp(s, r->translation, r->translation_len) == 0)
            best = r;
    }
    return best;
}

static const char fullwidth_colon[] = "\xef\xbc\x9a"; /* "：" */

/* The length of the separator dlerror() puts between its parts (": "), as
 * typed in S: an ASCII or a full-width colon and the blanks after it; 0
 * when S does not start with one. */
static size_t separator_len(const char *s, size_t n)
{
    size_t i = 0;
    if (n >= 3 && memcmp(s, fullwidth_colon, 3) == 0)
        i = 3;
    else if (n >= 1 && s[0] == ':')
        i = 1;
    else
        return 0;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

/* A full-width colon (and blanks) just written before a loader message is
 * dlerror()'s ": " retyped by a CJK input method: written as ": ". */
static void ascii_separator_before(struct td_strbuf *o)
{
    size_t k = o->len;
    while (k > 0 && o->s[k - 1] == ' ')
        k--;
    if (k >= 3 && memcmp(o->s + k - 3, fullwidth_colon, 3) == 0) {
        o->len = k - 3;
        td_strbuf_put(o, ": ", 2);
    }
}

char *td_explain_glibc_english(char *text, struct td_arena *a)
{
    if (!g_l10n.loaded)
        load_rows();
    if (!text || g_l10n.n == 0)
        return text;
    size_t len = strlen(text);
    struct td_strbuf o = {0};
    size_t from = 0; /* the first byte of TEXT not yet written */
    for (size_t i = 0; i + 1 < len;) {
        const struct l10n_row *r = loader_at(text + i, len - i);
        if (!r) {
            i++;
            continue;
        }
        td_strbuf_put(&o, text + from, i - from);
        ascii_separator_before(&o);
        td_strbuf_put(&o, r->english, r->english_len);
        i += r->translation_len;
        size_t sep = separator_len(text + i, len - i);
        const struct l10n_row *e = sep ? errno_at(text + i + sep, len - i - sep) : NULL;
        if (e) {
            td_strbuf_put(&o, ": ", 2);
            td_strbuf_put(&o, e->english, e->english_len);
            i += sep + e->translation_len;
        }
        from = i;
    }
    if (!o.s)
        return text; /* no translated message */
    td_strbuf_put(&o, text + from, len - from);
    char *copy = td_strbuf_take(&o, a);
    return copy ? copy : text;
}
