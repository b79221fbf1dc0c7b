/* Wheel helpers: the file name's fields and tags (PEP 427, PEP 425), the
 * .dist-info directory, and the email-header style WHEEL and METADATA
 * files (packaging.python.org "Core metadata specifications"). */
#include "format/zip.h"

#include <string.h>
#include <strings.h>

/* --- File name --- */

static const char *copy(struct td_arena *arena, const char *s, size_t n, struct td_err *err)
{
    char *p = td_arena_strndup(arena, s, n);
    if (!p)
        td_err_set(err, "wheel: arena limit reached");
    return p;
}

/* PEP 425: a tag field may be a dot-separated set ("cp311.cp312"). */
static int split_tags(struct td_zip_tags *t, const char *field, struct td_arena *arena,
                      const char *what, struct td_err *err)
{
    size_t n = strlen(field), count = 1;
    for (size_t i = 0; i < n; i++)
        count += field[i] == '.';
    t->text = field;
    t->items = td_arena_array(arena, count, sizeof *t->items);
    if (!t->items) {
        td_err_set(err, "wheel: arena limit reached");
        return -1;
    }
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && field[i] != '.')
            continue;
        if (i == start) {
            td_err_set(err, "wheel file name: empty tag in %s tag set '%s'", what, field);
            return -1;
        }
        if (!(t->items[t->count++] = copy(arena, field + start, i - start, err)))
            return -1;
        start = i + 1;
    }
    return 0;
}

int td_zip_wheel_parse_name(struct td_zip_wheel_name *w, const char *filename, size_t len,
                            struct td_arena *arena, struct td_err *err)
{
    memset(w, 0, sizeof *w);
    size_t base = 0;
    for (size_t i = 0; i < len; i++)
        if (filename[i] == '/' || filename[i] == '\\')
            base = i + 1;
    const char *s = filename + base;
    size_t n = len - base;
    if (n < 4 || memcmp(s + n - 4, ".whl", 4) != 0 || memchr(s, '\0', n)) {
        td_err_set(err, "wheel file name '%.*s': does not end in .whl", (int)(n > 200 ? 200 : n),
                   s);
        return -1;
    }
    n -= 4;
    const char *parts[6];
    size_t count = 0, start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && s[i] != '-')
            continue;
        if (count == 6 || i == start) {
            td_err_set(err,
                       "wheel file name '%.*s.whl': expected name-version(-build)?-python-abi-"
                       "platform, found %s",
                       (int)(n > 200 ? 200 : n), s,
                       count == 6 ? "more than 6 fields" : "an empty field");
            return -1;
        }
        if (!(parts[count++] = copy(arena, s + start, i - start, err)))
            return -1;
        start = i + 1;
    }
    if (count < 5) {
        td_err_set(err, "wheel file name '%.*s.whl': %zu dash-separated fields, expected 5 or 6",
                   (int)(n > 200 ? 200 : n), s, count);
        return -1;
    }
    w->name = parts[0];
    w->version = parts[1];
    if (count == 6) {
        w->build = parts[2];
        /* Binary distribution format: the build tag must start with a digit. */
        if (w->build[0] < '0' || w->build[0] > '9') {
            td_err_set(err,
                       "wheel file name '%.*s.whl': build tag '%s' does not start with a digit",
                       (int)(n > 200 ? 200 : n), s, w->build);
            return -1;
        }
    }
    size_t t = count - 3;
    if (split_tags(&w->python, parts[t], arena, "python", err) != 0 ||
        split_tags(&w->abi, parts[t + 1], arena, "abi", err) != 0 ||
        split_tags(&w->platform, parts[t + 2], arena, "platform", err) != 0)
        return -1;
    return 0;
}

/* --- The .dist-info directory --- */

static const char DIST_INFO[] = ".dist-info";

/* Length of the top-level directory part when it ends in .dist-info, else 0. */
static size_t dist_info_prefix(const struct td_zip_entry *e)
{
    const char *slash = memchr(e->name, '/', e->name_len);
    size_t n = slash ? (size_t)(slash - e->name) : 0, k = sizeof DIST_INFO - 1;
    return n > k && memcmp(e->name + n - k, DIST_INFO, k) == 0 ? n : 0;
}

int td_zip_wheel_dist_info(const struct td_zip *z, const char **dir, struct td_arena *arena,
                           struct td_err *err)
{
    const struct td_zip_entry *found = NULL;
    size_t found_len = 0;
    for (size_t i = 0; i < z->count; i++) {
        const struct td_zip_entry *e = &z->entries[i];
        size_t n = dist_info_prefix(e);
        if (!n)
            continue;
        if (!found) {
            found = e;
            found_len = n;
        } else if (n != found_len || memcmp(e->name, found->name, n) != 0) {
            td_err_set(err, "wheel: more than one .dist-info directory ('%.*s' and '%.*s')",
                       (int)(found_len > 200 ? 200 : found_len), found->name,
                       (int)(n > 200 ? 200 : n), e->name);
            return -1;
        }
    }
    if (!found) {
        td_err_set(err, "wheel: no .dist-info directory among %zu members", z->count);
        return -1;
    }
    *dir = copy(arena, found->name, found_len, err);
    return *dir ? 0 : -1;
}

/* --- Email-header style files --- */

typedef int (*header_fn)(void *ctx, const char *key, const char *value, struct td_arena *arena,
                         struct td_err *err);

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

/* Length of the line at POS, without its '\n'. */
static size_t line_length(const char *text, size_t len, size_t pos)
{
    const char *nl = memchr(text + pos, '\n', len - pos);
    return nl ? (size_t)(nl - (text + pos)) : len - pos;
}

static bool is_blank(const char *line, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_space(line[i]))
            return false;
    return true;
}

/* Appends LINE, trimmed, to the value being built (joined by one space,
 * which is how RFC 5322 unfolds a continued header). */
static void append_trimmed(char *value, size_t *used, const char *line, size_t n)
{
    while (n && is_space(*line))
        line++, n--;
    while (n && is_space(line[n - 1]))
        n--;
    if (*used && n)
        value[(*used)++] = ' ';
    memcpy(value + *used, line, n);
    *used += n;
}

/* Calls FN for each header of the block before the first blank line; a
 * line with neither a colon nor leading whitespace is reported with its
 * line number. FILE names the file in messages. */
static int each_header(const char *text, size_t len, const char *file, header_fn fn, void *ctx,
                       struct td_arena *arena, struct td_err *err)
{
    size_t pos = 0, line = 1;
    while (pos < len) {
        size_t n = line_length(text, len, pos);
        if (is_blank(text + pos, n))
            return 0;
        const char *colon = memchr(text + pos, ':', n);
        if (!colon || colon == text + pos || is_space(text[pos])) {
            td_err_set(err, "%s line %zu: not a 'Key: value' header", file, line);
            return -1;
        }
        size_t key_len = (size_t)(colon - (text + pos));
        /* The header runs on over continuation lines (leading whitespace). */
        size_t end = pos + n, lines = 1;
        while (end + 1 < len && (text[end + 1] == ' ' || text[end + 1] == '\t') &&
               !is_blank(text + end + 1, line_length(text, len, end + 1))) {
            end += 1 + line_length(text, len, end + 1);
            lines++;
        }
        char *key = td_arena_strndup(arena, text + pos, key_len);
        char *value = td_arena_alloc(arena, end - pos + 1);
        if (!key || !value) {
            td_err_set(err, "%s: arena limit reached", file);
            return -1;
        }
        size_t used = 0;
        for (size_t p = (size_t)(colon + 1 - text); p < end;) {
            size_t m = line_length(text, end, p);
            append_trimmed(value, &used, text + p, m);
            p += m + 1;
        }
        value[used] = '\0';
        if (fn(ctx, key, value, arena, err) != 0) {
            td_err_prefix(err, "%s line %zu: ", file, line);
            return -1;
        }
        pos = end + 1;
        line += lines;
    }
    return 0;
}

/* Appends S to a growing arena array (copying, as the arena cannot grow in place). */
static int push(const char ***items, size_t *count, const char *s, struct td_arena *arena,
                struct td_err *err)
{
    /* Capacity is 4, then each power of two: grow when the array is full. */
    if (*count == 0 || (*count >= 4 && (*count & (*count - 1)) == 0)) {
        const char **grown = td_arena_array(arena, *count < 4 ? 4 : *count * 2, sizeof *grown);
        if (!grown) {
            td_err_set(err, "arena limit reached");
            return -1;
        }
        if (*count)
            memcpy(grown, *items, *count * sizeof *grown);
        *items = grown;
    }
    (*items)[(*count)++] = s;
    return 0;
}

static int wheel_header(void *ctx, const char *key, const char *value, struct td_arena *arena,
                        struct td_err *err)
{
    struct td_zip_wheel_file *w = ctx;
    if (strcasecmp(key, "Wheel-Version") == 0) {
        w->wheel_version = value;
    } else if (strcasecmp(key, "Generator") == 0) {
        w->generator = value;
    } else if (strcasecmp(key, "Build") == 0) {
        w->build = value;
    } else if (strcasecmp(key, "Tag") == 0) {
        return push(&w->tags, &w->tag_count, value, arena, err);
    } else if (strcasecmp(key, "Root-Is-Purelib") == 0) {
        if (strcasecmp(value, "true") == 0) {
            w->root_is_purelib = 1;
        } else if (strcasecmp(value, "false") == 0) {
            w->root_is_purelib = 0;
        } else {
            td_err_set(err, "Root-Is-Purelib is '%.100s', not true or false", value);
            return -1;
        }
    }
    return 0;
}

int td_zip_wheel_parse_wheel(struct td_zip_wheel_file *w, const char *text, size_t len,
                             struct td_arena *arena, struct td_err *err)
{
    memset(w, 0, sizeof *w);
    w->root_is_purelib = -1;
    return each_header(text, len, "WHEEL", wheel_header, w, arena, err);
}

static int metadata_header(void *ctx, const char *key, const char *value, struct td_arena *arena,
                           struct td_err *err)
{
    struct td_zip_metadata *m = ctx;
    if (strcasecmp(key, "Metadata-Version") == 0)
        m->metadata_version = value;
    else if (strcasecmp(key, "Name") == 0)
        m->name = value;
    else if (strcasecmp(key, "Version") == 0)
        m->version = value;
    else if (strcasecmp(key, "Requires-Python") == 0)
        m->requires_python = value;
    else if (strcasecmp(key, "Requires-Dist") == 0)
        return push(&m->requires_dist, &m->requires_dist_count, value, arena, err);
    return 0;
}

int td_zip_wheel_parse_metadata(struct td_zip_metadata *m, const char *text, size_t len,
                                struct td_arena *arena, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    return each_header(text, len, "METADATA", metadata_header, m, arena, err);
}
