/* The pull JSON reader (base/json.h). Grammar as RFC 8259 section 2-7
 * states it; an error stops the reader where it is (every later call
 * fails at once), so a caller's loops always end. */
#include "base/json.h"

#include <stdlib.h>
#include <string.h>

static bool fail(struct td_json *j, const char *what)
{
    if (!j->error) {
        j->error = what;
        j->error_at = (size_t)(j->p - j->start);
    }
    j->p = j->end;
    return false;
}

static void spaces(struct td_json *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
        j->p++;
}

void td_json_init(struct td_json *j, const char *text, size_t len)
{
    *j = (struct td_json){.start = text, .p = text, .end = text + len};
}

enum td_json_type td_json_peek(struct td_json *j)
{
    spaces(j);
    if (j->p >= j->end)
        return TD_JSON_NONE;
    switch (*j->p) {
    case '{':
        return TD_JSON_OBJECT;
    case '[':
        return TD_JSON_ARRAY;
    case '"':
        return TD_JSON_STRING;
    case 't':
    case 'f':
        return TD_JSON_BOOL;
    case 'n':
        return TD_JSON_NULL;
    default:
        return *j->p == '-' || (*j->p >= '0' && *j->p <= '9') ? TD_JSON_NUMBER : TD_JSON_NONE;
    }
}

bool td_json_enter(struct td_json *j, enum td_json_type type)
{
    if (td_json_peek(j) != type || (type != TD_JSON_OBJECT && type != TD_JSON_ARRAY))
        return fail(j, type == TD_JSON_OBJECT ? "expected an object" : "expected an array");
    j->p++;
    return true;
}

/* CLOSE is the bracket that ends this container, or 0 for either. */
static bool next_in(struct td_json *j, bool *first, char close)
{
    spaces(j);
    if (j->p >= j->end)
        return fail(j, "unterminated object or array");
    if (*j->p == '}' || *j->p == ']') {
        if (close && *j->p != close)
            return fail(j, "mismatched bracket");
        j->p++;
        return false;
    }
    if (!*first) {
        if (*j->p != ',')
            return fail(j, "expected ',' between members");
        j->p++;
        spaces(j);
        if (j->p < j->end && (*j->p == '}' || *j->p == ']'))
            return fail(j, "trailing comma");
    }
    *first = false;
    return true;
}

bool td_json_next(struct td_json *j, bool *first)
{
    return next_in(j, first, 0);
}

static bool read_string(struct td_json *j, struct td_json_str *out)
{
    spaces(j);
    if (j->p >= j->end || *j->p != '"')
        return fail(j, "expected a string");
    const char *s = ++j->p;
    bool escaped = false;
    while (j->p < j->end && *j->p != '"') {
        if ((unsigned char)*j->p < 0x20)
            return fail(j, "control character in a string");
        if (*j->p == '\\') {
            escaped = true;
            if (j->end - j->p < 2)
                break;
            j->p++;
        }
        j->p++;
    }
    if (j->p >= j->end)
        return fail(j, "unterminated string");
    *out = (struct td_json_str){s, (size_t)(j->p - s), escaped};
    j->p++;
    return true;
}

bool td_json_key(struct td_json *j, struct td_json_str *key)
{
    if (!read_string(j, key))
        return false;
    spaces(j);
    if (j->p >= j->end || *j->p != ':')
        return fail(j, "expected ':' after a key");
    j->p++;
    return true;
}

static bool digits(struct td_json *j)
{
    const char *at = j->p;
    while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
        j->p++;
    return j->p > at;
}

/* Takes a number; *PLAIN says it was a non-negative integer. */
static bool number(struct td_json *j, bool *plain)
{
    bool minus = j->p < j->end && *j->p == '-';
    j->p += minus;
    if (j->p < j->end && *j->p == '0')
        j->p++;
    else if (!digits(j))
        return fail(j, "bad number");
    *plain = !minus;
    if (j->p < j->end && *j->p == '.') {
        j->p++;
        *plain = false;
        if (!digits(j))
            return fail(j, "bad number");
    }
    if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        *plain = false;
        if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
            j->p++;
        if (!digits(j))
            return fail(j, "bad number");
    }
    return true;
}

static bool literal(struct td_json *j, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, word, n) != 0)
        return fail(j, "bad literal");
    j->p += n;
    return true;
}

static bool scalar(struct td_json *j, enum td_json_type t)
{
    struct td_json_str s;
    bool plain;
    switch (t) {
    case TD_JSON_STRING:
        return read_string(j, &s);
    case TD_JSON_NUMBER:
        return number(j, &plain);
    case TD_JSON_BOOL:
        return literal(j, *j->p == 't' ? "true" : "false");
    case TD_JSON_NULL:
        return literal(j, "null");
    default:
        return fail(j, "expected a value");
    }
}

bool td_json_skip(struct td_json *j)
{
    char close[TD_JSON_MAX_DEPTH];
    bool first[TD_JSON_MAX_DEPTH];
    int depth = 0;
    for (;;) {
        enum td_json_type t = td_json_peek(j);
        if (t == TD_JSON_OBJECT || t == TD_JSON_ARRAY) {
            if (depth == TD_JSON_MAX_DEPTH)
                return fail(j, "nested too deep");
            close[depth] = t == TD_JSON_OBJECT ? '}' : ']';
            first[depth++] = true;
            j->p++;
        } else if (!scalar(j, t)) {
            return false;
        }
        /* A value ended (or a container opened): on to the next value. */
        while (depth > 0) {
            if (next_in(j, &first[depth - 1], close[depth - 1])) {
                struct td_json_str key;
                if (close[depth - 1] == '}' && !td_json_key(j, &key))
                    return false;
                break;
            }
            if (j->error)
                return false;
            depth--;
        }
        if (depth == 0)
            return true;
    }
}

/* Past the string whose opening quote is at P: its closing quote is the
 * first one not preceded by an odd run of backslashes. */
static const char *string_end(const char *p, const char *end)
{
    for (const char *q = p + 1; q < end;) {
        const char *quote = memchr(q, '"', (size_t)(end - q));
        if (!quote)
            return NULL;
        const char *b = quote;
        while (b > p + 1 && b[-1] == '\\')
            b--;
        if ((quote - b) % 2 == 0)
            return quote + 1;
        q = quote + 1;
    }
    return NULL;
}

bool td_json_skip_loose(struct td_json *j)
{
    enum td_json_type t = td_json_peek(j);
    if (t != TD_JSON_OBJECT && t != TD_JSON_ARRAY)
        return td_json_skip(j);
    char close[TD_JSON_MAX_DEPTH];
    int depth = 0;
    const char *p = j->p, *end = j->end;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            if (!(p = string_end(p, end)))
                break;
            continue;
        }
        if (c == '{' || c == '[') {
            if (depth == TD_JSON_MAX_DEPTH) {
                j->p = p;
                return fail(j, "nested too deep");
            }
            close[depth++] = c == '{' ? '}' : ']';
        } else if (c == '}' || c == ']') {
            if (depth == 0 || close[depth - 1] != c) {
                j->p = p;
                return fail(j, "mismatched bracket");
            }
            if (--depth == 0) {
                j->p = p + 1;
                return true;
            }
        }
        p++;
    }
    j->p = end;
    return fail(j, "unterminated object or array");
}

bool td_json_string(struct td_json *j, struct td_json_str *out)
{
    if (td_json_peek(j) == TD_JSON_STRING)
        return read_string(j, out);
    td_json_skip(j);
    return false;
}

bool td_json_uint(struct td_json *j, uint64_t *out)
{
    if (td_json_peek(j) != TD_JSON_NUMBER) {
        td_json_skip(j);
        return false;
    }
    const char *at = j->p;
    bool plain = false;
    if (!number(j, &plain) || !plain)
        return false;
    uint64_t v = 0;
    for (const char *p = at; p < j->p; p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

bool td_json_double(struct td_json *j, double *out)
{
    if (td_json_peek(j) != TD_JSON_NUMBER) {
        td_json_skip(j);
        return false;
    }
    const char *at = j->p;
    bool plain = false;
    if (!number(j, &plain))
        return false;
    char text[64];
    size_t n = (size_t)(j->p - at);
    if (n >= sizeof text)
        return false;
    memcpy(text, at, n);
    text[n] = '\0';
    *out = strtod(text, NULL);
    return true;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return -1;
        v = v << 4 | d;
    }
    return v;
}

static size_t put_utf8(char *out, uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | cp >> 6), out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | cp >> 12), out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | cp >> 18), out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* The code point of the \u escape at P (6 bytes, or 12 for a surrogate
 * pair) within END; -1 when malformed. *USED is how many bytes it took. */
static long unicode_escape(const char *p, const char *end, size_t *used)
{
    int hi = end - p >= 6 ? hex4(p + 2) : -1;
    *used = 6;
    if (hi < 0 || hi == 0 || (hi >= 0xDC00 && hi <= 0xDFFF))
        return -1;
    if (hi < 0xD800 || hi > 0xDBFF)
        return hi;
    int lo = end - p >= 12 && p[6] == '\\' && p[7] == 'u' ? hex4(p + 8) : -1;
    if (lo < 0xDC00 || lo > 0xDFFF)
        return -1;
    *used = 12;
    return 0x10000 + ((long)(hi - 0xD800) << 10) + (lo - 0xDC00);
}

static char simple_escape(char c)
{
    switch (c) {
    case '"':
    case '\\':
    case '/':
        return c;
    case 'b':
        return '\b';
    case 'f':
        return '\f';
    case 'n':
        return '\n';
    case 'r':
        return '\r';
    case 't':
        return '\t';
    default:
        return 0;
    }
}

char *td_json_strdup(struct td_arena *a, const struct td_json_str *s)
{
    if (!s->escaped)
        return td_arena_strndup(a, s->s, s->len); /* raw strings hold no control bytes */
    char *out = td_arena_alloc(a, s->len + 1);
    size_t n = 0;
    const char *end = s->s + s->len;
    for (const char *p = s->s; out && p < end;) {
        if (*p != '\\') {
            out[n++] = *p++;
            continue;
        }
        if (end - p < 2)
            return NULL;
        if (p[1] == 'u') {
            size_t used;
            long cp = unicode_escape(p, end, &used);
            if (cp < 0)
                return NULL;
            n += put_utf8(out + n, (uint32_t)cp);
            p += used;
            continue;
        }
        char c = simple_escape(p[1]);
        if (!c)
            return NULL;
        out[n++] = c;
        p += 2;
    }
    if (out)
        out[n] = '\0';
    return out;
}

bool td_json_is(const struct td_json_str *s, const char *lit)
{
    size_t n = strlen(lit);
    return !s->escaped && s->len == n && memcmp(s->s, lit, n) == 0;
}
