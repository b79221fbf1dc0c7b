/* RECORD parser: a small CSV reader (the dialect Python's csv module
 * writes), then per-row checks of the hash and size fields. Runs twice:
 * once to count rows and problems, once to fill arrays of exactly that size. */
#include "format/record.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

enum { MAX_FIELDS = 3 };

/* One field's raw extent in the text. */
struct field {
    size_t start, end;
    bool quoted;
};

struct cursor {
    const char *text;
    size_t len, pos, line;
};

/* What reading one row gave. */
enum row_status { ROW_OK, ROW_BLANK, ROW_BAD, ROW_END };

struct raw_row {
    struct field fields[MAX_FIELDS];
    size_t count; /* fields seen, may exceed MAX_FIELDS */
    size_t line;
    char why[160]; /* set when ROW_BAD */
};

static bool at_line_end(const struct cursor *c)
{
    return c->pos >= c->len || c->text[c->pos] == '\n' || c->text[c->pos] == '\r';
}

/* Consumes "\n", "\r\n" or "\r" (Python's csv accepts all three). */
static void skip_line_end(struct cursor *c)
{
    if (c->pos < c->len && c->text[c->pos] == '\r')
        c->pos++;
    if (c->pos < c->len && c->text[c->pos] == '\n')
        c->pos++;
    c->line++;
}

static void skip_rest_of_line(struct cursor *c)
{
    while (!at_line_end(c))
        c->pos++;
    if (c->pos < c->len)
        skip_line_end(c);
}

/* A quoted field: '"' ... '"', where '""' stands for one quote. */
static bool read_quoted(struct cursor *c, struct field *f, struct raw_row *row)
{
    size_t opened = c->line;
    f->quoted = true;
    f->start = ++c->pos;
    for (;;) {
        if (c->pos >= c->len) {
            snprintf(row->why, sizeof row->why, "quote opened on line %zu is never closed", opened);
            return false;
        }
        char ch = c->text[c->pos];
        if (ch == '"' && c->pos + 1 < c->len && c->text[c->pos + 1] == '"') {
            c->pos += 2;
            continue;
        }
        if (ch == '"')
            break;
        if (ch == '\n')
            c->line++;
        c->pos++;
    }
    f->end = c->pos++;
    if (c->pos < c->len && c->text[c->pos] != ',' && !at_line_end(c)) {
        snprintf(row->why, sizeof row->why, "text after the closing quote of field %zu",
                 row->count + 1);
        return false;
    }
    return true;
}

static bool read_field(struct cursor *c, struct field *f, struct raw_row *row)
{
    if (c->pos < c->len && c->text[c->pos] == '"')
        return read_quoted(c, f, row);
    f->quoted = false;
    f->start = c->pos;
    while (!at_line_end(c) && c->text[c->pos] != ',')
        c->pos++;
    f->end = c->pos;
    return true;
}

static enum row_status read_row(struct cursor *c, struct raw_row *row)
{
    row->count = 0;
    row->line = c->line;
    row->why[0] = '\0';
    if (c->pos >= c->len)
        return ROW_END;
    if (at_line_end(c)) {
        skip_line_end(c);
        return ROW_BLANK;
    }
    for (;;) {
        struct field f;
        if (!read_field(c, &f, row)) {
            skip_rest_of_line(c);
            return ROW_BAD;
        }
        if (row->count < MAX_FIELDS)
            row->fields[row->count] = f;
        row->count++;
        if (c->pos < c->len && c->text[c->pos] == ',') {
            c->pos++;
            continue;
        }
        if (c->pos < c->len)
            skip_line_end(c);
        else
            c->line++;
        return ROW_OK;
    }
}

/* --- Field contents --- */

static size_t field_len(const struct field *f)
{
    return f->end - f->start;
}

/* The field's text with '""' turned back into '"'. */
static char *unquote(const char *text, const struct field *f, size_t *out_len,
                     struct td_arena *arena)
{
    char *s = td_arena_alloc(arena, field_len(f) + 1);
    if (!s)
        return NULL;
    size_t n = 0;
    for (size_t i = f->start; i < f->end; i++) {
        s[n++] = text[i];
        if (f->quoted && text[i] == '"')
            i++; /* the second quote of a pair */
    }
    s[n] = '\0';
    *out_len = n;
    return s;
}

static int b64_value(char ch)
{
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9')
        return ch - '0' + 52;
    if (ch == '-')
        return 62;
    if (ch == '_')
        return 63;
    return -1;
}

long td_record_b64_decode(const char *s, size_t len, uint8_t *out, size_t cap)
{
    while (len && s[len - 1] == '=')
        len--;
    if (len % 4 == 1 || len / 4 * 3 + 2 > (size_t)0x7fffffff)
        return -1;
    size_t n = len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0);
    if (n > cap)
        return -1;
    uint32_t acc = 0;
    size_t bits = 0, o = 0;
    for (size_t i = 0; i < len; i++) {
        int v = b64_value(s[i]);
        if (v < 0)
            return -1;
        acc = (acc << 6 | (uint32_t)v) & 0xffffff;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (uint8_t)(acc >> bits);
        }
    }
    return (long)o;
}

/* Digest sizes of the algorithms hashlib names, to catch truncated digests. */
static long expected_digest(const char *algo)
{
    static const struct {
        const char *name;
        long size;
    } known[] = {{"sha256", 32}, {"sha384", 48},   {"sha512", 64},  {"sha224", 28}, {"sha1", 20},
                 {"md5", 16},    {"sha3_256", 32}, {"blake2b", 64}, {"blake2s", 32}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(algo, known[i].name) == 0)
            return known[i].size;
    return -1;
}

static bool is_algo_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
}

/* Fills the row's hash from "algo=digest"; false with WHY on a bad field. */
static bool parse_hash(struct td_record_row *out, const char *s, size_t n, char *why,
                       size_t why_size, struct td_arena *arena, bool *fatal)
{
    if (n == 0)
        return true;
    const char *eq = memchr(s, '=', n);
    size_t algo_len = eq ? (size_t)(eq - s) : 0;
    for (size_t i = 0; i < algo_len; i++)
        if (!is_algo_char(s[i]))
            algo_len = 0;
    if (algo_len == 0) {
        snprintf(why, why_size, "hash field '%.40s' is not algorithm=digest", s);
        return false;
    }
    char *algo = td_arena_strndup(arena, s, algo_len);
    uint8_t *digest = td_arena_alloc(arena, n);
    if (!algo || !digest) {
        *fatal = true;
        return false;
    }
    long got = td_record_b64_decode(eq + 1, n - algo_len - 1, digest, n);
    long want = expected_digest(algo);
    if (got <= 0) {
        snprintf(why, why_size, "%s digest is not urlsafe base64", algo);
        return false;
    }
    if (want > 0 && got != want) {
        snprintf(why, why_size, "%s digest is %ld bytes, expected %ld", algo, got, want);
        return false;
    }
    out->algorithm = algo;
    out->digest = digest;
    out->digest_len = (size_t)got;
    return true;
}

static bool parse_size(struct td_record_row *out, const char *s, size_t n, char *why,
                       size_t why_size)
{
    if (n == 0)
        return true;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10) {
            snprintf(why, why_size, "size '%.40s' is not a decimal byte count", s);
            return false;
        }
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    out->has_size = true;
    out->size = v;
    return true;
}

/* Turns a raw row into a record row; false with row->why when malformed,
 * or with *fatal when the arena is full. */
static bool convert(const char *text, struct raw_row *row, struct td_record_row *out,
                    struct td_arena *arena, bool *fatal)
{
    if (row->count != MAX_FIELDS) {
        snprintf(row->why, sizeof row->why, "%zu fields, expected 3 (path,hash,size)", row->count);
        return false;
    }
    size_t n[MAX_FIELDS];
    char *s[MAX_FIELDS];
    for (int i = 0; i < MAX_FIELDS; i++)
        if (!(s[i] = unquote(text, &row->fields[i], &n[i], arena))) {
            *fatal = true;
            return false;
        }
    memset(out, 0, sizeof *out);
    out->line = row->line;
    out->path = s[0];
    out->path_len = n[0];
    if (n[0] == 0) {
        snprintf(row->why, sizeof row->why, "empty path");
        return false;
    }
    return parse_hash(out, s[1], n[1], row->why, sizeof row->why, arena, fatal) &&
           parse_size(out, s[2], n[2], row->why, sizeof row->why);
}

/* Rows that are not blank: an upper bound for both rows and problems. */
static size_t count_rows(const char *text, size_t len)
{
    struct cursor c = {text, len, 0, 1};
    struct raw_row row;
    enum row_status st;
    size_t n = 0;
    while ((st = read_row(&c, &row)) != ROW_END)
        n += st != ROW_BLANK;
    return n;
}

static int add_problem(struct td_record *r, const struct raw_row *row, struct td_arena *arena,
                       struct td_err *err)
{
    char msg[256];
    snprintf(msg, sizeof msg, "line %zu: %s", row->line, row->why);
    struct td_record_problem *p = &r->problems[r->problem_count];
    p->line = row->line;
    p->message = td_arena_strdup(arena, msg);
    if (!p->message) {
        td_err_set(err, "RECORD line %zu: arena limit reached", row->line);
        return -1;
    }
    r->problem_count++;
    td_err_set(err, "RECORD %s", msg); /* keeps the first */
    return 0;
}

int td_record_parse(struct td_record *r, const char *text, size_t len, struct td_arena *arena,
                    struct td_err *err)
{
    memset(r, 0, sizeof *r);
    size_t max = count_rows(text, len);
    r->rows = td_arena_array(arena, max, sizeof *r->rows);
    r->problems = td_arena_array(arena, max, sizeof *r->problems);
    if (!r->rows || !r->problems) {
        td_err_set(err, "RECORD: arena limit reached for %zu rows", max);
        return -1;
    }
    struct cursor c = {text, len, 0, 1};
    struct raw_row row;
    enum row_status st;
    while ((st = read_row(&c, &row)) != ROW_END) {
        if (st == ROW_BLANK)
            continue;
        bool fatal = false;
        if (st == ROW_OK && convert(text, &row, &r->rows[r->count], arena, &fatal)) {
            r->count++;
            continue;
        }
        if (fatal) {
            td_err_set(err, "RECORD line %zu: arena limit reached", row.line);
            return -1;
        }
        if (add_problem(r, &row, arena, err) != 0)
            return -1;
    }
    return r->problem_count ? 1 : 0;
}

const struct td_record_row *td_record_find(const struct td_record *r, const char *path, size_t len)
{
    for (size_t i = 0; i < r->count; i++)
        if (r->rows[i].path_len == len && memcmp(r->rows[i].path, path, len) == 0)
            return &r->rows[i];
    return NULL;
}
