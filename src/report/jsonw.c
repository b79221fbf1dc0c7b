/* Streaming JSON writer; see jsonw.h for why it is not a tree. */
#include "report/jsonw.h"

#include <inttypes.h>
#include <string.h>

void td_jw_init(struct td_jsonw *w, FILE *out, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->pretty = pretty;
    w->first[0] = true;
}

static void indent(struct td_jsonw *w)
{
    if (!w->pretty)
        return;
    fputc('\n', w->out);
    for (int i = 0; i < w->depth; i++)
        fputs("  ", w->out);
}

/* Separator and indentation before any value or key. */
static void before_item(struct td_jsonw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth])
        fputc(',', w->out);
    w->first[w->depth] = false;
    if (w->depth > 0)
        indent(w);
}

static void open(struct td_jsonw *w, char c)
{
    before_item(w);
    fputc(c, w->out);
    if (w->depth < TD_JSONW_MAX_DEPTH - 1)
        w->depth++;
    w->first[w->depth] = true;
}

static void close(struct td_jsonw *w, char c)
{
    bool empty = w->first[w->depth];
    if (w->depth > 0)
        w->depth--;
    if (!empty)
        indent(w);
    fputc(c, w->out);
}

void td_jw_begin_object(struct td_jsonw *w) { open(w, '{'); }
void td_jw_end_object(struct td_jsonw *w) { close(w, '}'); }
void td_jw_begin_array(struct td_jsonw *w) { open(w, '['); }
void td_jw_end_array(struct td_jsonw *w) { close(w, ']'); }

/* Length of the valid UTF-8 sequence at S, or 0 when it is not valid
 * (overlong forms, surrogates and values past U+10FFFF are invalid). */
static size_t utf8_sequence_length(const char *s, size_t avail)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t cp;
    if (p[0] >= 0xc2 && p[0] <= 0xdf) {
        len = 2;
        cp = p[0] & 0x1f;
    } else if (p[0] >= 0xe0 && p[0] <= 0xef) {
        len = 3;
        cp = p[0] & 0x0f;
    } else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
        len = 4;
        cp = p[0] & 0x07;
    } else {
        return 0;
    }
    if (len > avail)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return len;
}

static void write_escaped(FILE *out, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    fputc('"', out);
    size_t run = 0; /* start of the current run of bytes needing no escape */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            continue;
        if (c >= 0x80) {
            size_t len = utf8_sequence_length(s + i, n - i);
            if (len) {
                i += len - 1;
                continue;
            }
        }
        fwrite(s + run, 1, i - run, out);
        run = i + 1;
        switch (c) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        default: {
            if (c >= 0x80) { /* not UTF-8: binaries may hold any bytes; JSON may not */
                fputs("\\ufffd", out);
                break;
            }
            char esc[7] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15], 0};
            fputs(esc, out);
        }
        }
    }
    fwrite(s + run, 1, n - run, out);
    fputc('"', out);
}

void td_jw_key(struct td_jsonw *w, const char *key)
{
    before_item(w);
    write_escaped(w->out, key, strlen(key));
    fputs(w->pretty ? ": " : ":", w->out);
    w->after_key = true;
}

void td_jw_stringn(struct td_jsonw *w, const char *s, size_t n)
{
    before_item(w);
    write_escaped(w->out, s, n);
}

void td_jw_string(struct td_jsonw *w, const char *s)
{
    if (!s) {
        td_jw_null(w);
        return;
    }
    td_jw_stringn(w, s, strlen(s));
}

void td_jw_int(struct td_jsonw *w, int64_t v)
{
    before_item(w);
    fprintf(w->out, "%" PRId64, v);
}

void td_jw_uint(struct td_jsonw *w, uint64_t v)
{
    before_item(w);
    fprintf(w->out, "%" PRIu64, v);
}

void td_jw_bool(struct td_jsonw *w, bool v)
{
    before_item(w);
    fputs(v ? "true" : "false", w->out);
}

void td_jw_null(struct td_jsonw *w)
{
    before_item(w);
    fputs("null", w->out);
}

void td_jw_hex(struct td_jsonw *w, uint64_t v)
{
    before_item(w);
    fprintf(w->out, "\"0x%" PRIx64 "\"", v);
}

void td_jw_kstr(struct td_jsonw *w, const char *key, const char *s)
{
    td_jw_key(w, key);
    td_jw_string(w, s);
}

void td_jw_kint(struct td_jsonw *w, const char *key, int64_t v)
{
    td_jw_key(w, key);
    td_jw_int(w, v);
}

void td_jw_kuint(struct td_jsonw *w, const char *key, uint64_t v)
{
    td_jw_key(w, key);
    td_jw_uint(w, v);
}

void td_jw_kbool(struct td_jsonw *w, const char *key, bool v)
{
    td_jw_key(w, key);
    td_jw_bool(w, v);
}

void td_jw_khex(struct td_jsonw *w, const char *key, uint64_t v)
{
    td_jw_key(w, key);
    td_jw_hex(w, v);
}

void td_jw_finish(struct td_jsonw *w)
{
    fputc('\n', w->out);
}
