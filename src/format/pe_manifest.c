/* A tiny tolerant scanner for side-by-side assembly manifests: it finds the
 * <assemblyIdentity> inside each <dependentAssembly> (the assemblies the
 * loader must activate, e.g. Microsoft.Windows.Common-Controls 6.0.0.0)
 * without an XML library. Namespace prefixes ("asmv1:") are ignored. */
#include "format/pe.h"

#include <string.h>

struct scanner {
    const char *text;
    size_t length;
    struct td_arena *arena;
    struct td_pe_assembly *out; /* NULL while counting */
    size_t count;
    bool out_of_memory;
};

/* Position of NEEDLE at or after FROM, or LENGTH when absent. */
static size_t find(const struct scanner *s, size_t from, const char *needle)
{
    size_t n = strlen(needle);
    for (size_t i = from; i + n <= s->length; i++)
        if (memcmp(s->text + i, needle, n) == 0)
            return i;
    return s->length;
}

static bool starts_with(const struct scanner *s, size_t at, const char *word)
{
    size_t n = strlen(word);
    return at <= s->length && n <= s->length - at && memcmp(s->text + at, word, n) == 0;
}

static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == ':' || c == '.' || c == '-';
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* The '>' ending the tag that starts at FROM, skipping quoted values. */
static size_t tag_end(const struct scanner *s, size_t from)
{
    char quote = 0;
    for (size_t i = from; i < s->length; i++) {
        char c = s->text[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '>') {
            return i;
        }
    }
    return s->length;
}

static bool word_is(const char *p, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(p, word, n) == 0;
}

static void store_attribute(struct scanner *s, struct td_pe_assembly *a, const char *name,
                            size_t name_len, const char *value, size_t value_len)
{
    const char **slot = word_is(name, name_len, "name")                    ? &a->name
                        : word_is(name, name_len, "version")               ? &a->version
                        : word_is(name, name_len, "type")                  ? &a->type
                        : word_is(name, name_len, "processorArchitecture") ? &a->arch
                        : word_is(name, name_len, "publicKeyToken")        ? &a->public_key_token
                        : word_is(name, name_len, "language")              ? &a->language
                                                                           : NULL;
    if (!slot)
        return;
    *slot = td_arena_strndup(s->arena, value, value_len);
    if (!*slot)
        s->out_of_memory = true;
}

/* Reads name="value" pairs in [from, end) into A. */
static void read_attributes(struct scanner *s, size_t from, size_t end, struct td_pe_assembly *a)
{
    size_t i = from;
    while (i < end) {
        while (i < end && (is_space(s->text[i]) || s->text[i] == '/'))
            i++;
        size_t name = i;
        while (i < end && is_name_char(s->text[i]))
            i++;
        size_t name_len = i - name;
        while (i < end && is_space(s->text[i]))
            i++;
        if (name_len == 0 || i >= end || s->text[i] != '=') {
            i += name_len == 0; /* skip a stray character */
            continue;
        }
        i++;
        while (i < end && is_space(s->text[i]))
            i++;
        if (i >= end || (s->text[i] != '"' && s->text[i] != '\''))
            continue;
        char quote = s->text[i++];
        size_t value = i;
        while (i < end && s->text[i] != quote)
            i++;
        store_attribute(s, a, s->text + name, name_len, s->text + value, i - value);
        i++;
    }
}

/* The local part of a tag name (after any "prefix:"). */
static void local_name(const struct scanner *s, size_t start, size_t stop, const char **name,
                       size_t *len)
{
    size_t begin = start;
    for (size_t i = start; i < stop; i++)
        if (s->text[i] == ':')
            begin = i + 1;
    *name = s->text + begin;
    *len = stop - begin;
}

static void scan(struct scanner *s)
{
    bool in_dependent = false;
    size_t i = 0;
    while (i < s->length) {
        const char *lt = memchr(s->text + i, '<', s->length - i);
        if (!lt)
            return;
        size_t at = (size_t)(lt - s->text) + 1;
        if (starts_with(s, at, "!--")) {
            i = find(s, at + 3, "-->") + 3;
            continue;
        }
        if (starts_with(s, at, "![CDATA[")) {
            i = find(s, at, "]]>") + 3;
            continue;
        }
        bool closing = at < s->length && s->text[at] == '/';
        size_t name_start = at + closing, name_stop = name_start;
        while (name_stop < s->length && is_name_char(s->text[name_stop]))
            name_stop++;
        size_t end = tag_end(s, name_stop);
        bool self_closing = end > name_stop && end < s->length && s->text[end - 1] == '/';
        const char *name;
        size_t len;
        local_name(s, name_start, name_stop, &name, &len);
        if (word_is(name, len, "dependentAssembly")) {
            in_dependent = !closing && !self_closing;
        } else if (!closing && in_dependent && word_is(name, len, "assemblyIdentity")) {
            if (s->out)
                read_attributes(s, name_stop, end, &s->out[s->count]);
            s->count++;
        }
        i = end + 1;
    }
}

int td_pe_manifest_scan(const char *text, size_t length, struct td_arena *arena,
                        struct td_pe_manifest *m, struct td_err *err)
{
    struct scanner s = {text, length, arena, NULL, 0, false};
    m->present = true;
    m->text = text;
    m->length = length;
    scan(&s);
    size_t count = s.count;
    s.out = td_arena_array(arena, count ? count : 1, sizeof *s.out);
    s.count = 0;
    if (s.out)
        scan(&s);
    if (!s.out || s.out_of_memory) {
        td_err_set(err, "manifest: %zu dependent assemblies exceed the arena cap", count);
        return -1;
    }
    m->deps = s.out;
    m->ndeps = s.count;
    return 0;
}
