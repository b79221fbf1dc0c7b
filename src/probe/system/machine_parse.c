/* Pure parsers of the small text files the machine probes read
 * (os-release, /proc/meminfo, /proc/cpuinfo, /proc/driver/nvidia/version).
 * Bytes may be anything: every read stays inside LEN. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "probe/probe_util.h"

/* The next line of TEXT from *POS: its start and length (no newline). */
static bool next_line(const char *text, size_t len, size_t *pos, const char **line, size_t *n)
{
    if (*pos >= len)
        return false;
    const char *start = text + *pos;
    const char *nl = memchr(start, '\n', len - *pos);
    *line = start;
    *n = nl ? (size_t)(nl - start) : len - *pos;
    *pos += *n + 1;
    return true;
}

static void copy_out(char *out, size_t cap, const char *s, size_t n)
{
    if (n >= cap)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = '\0';
}

/* os-release(5): "Variable assignment values must be enclosed in double
 * or single quotes if they include spaces, semicolons or other special
 * characters outside of A–Z, a–z, 0–9. [...] backslashes [escape] double
 * quotes, dollar signs, backquotes and backslashes". */
bool td_parse_os_release(const char *text, size_t len, const char *key, char *out, size_t cap)
{
    size_t pos = 0, n, klen = strlen(key);
    const char *line;
    if (cap == 0)
        return false;
    while (next_line(text, len, &pos, &line, &n)) {
        if (n <= klen || memcmp(line, key, klen) != 0 || line[klen] != '=')
            continue;
        const char *v = line + klen + 1, *end = line + n;
        while (end > v && (end[-1] == '\r' || end[-1] == ' ' || end[-1] == '\t'))
            end--;
        char quote = v < end && (*v == '"' || *v == '\'') ? *v : 0;
        if (quote) {
            v++;
            if (end > v && end[-1] == quote)
                end--;
        }
        size_t w = 0;
        for (const char *p = v; p < end && w + 1 < cap; p++) {
            if (quote != '\'' && *p == '\\' && p + 1 < end)
                p++;
            out[w++] = *p;
        }
        out[w] = '\0';
        return true;
    }
    return false;
}

bool td_parse_meminfo(const char *text, size_t len, const char *key, uint64_t *bytes)
{
    size_t pos = 0, n, klen = strlen(key);
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        if (n <= klen || memcmp(line, key, klen) != 0 || line[klen] != ':')
            continue;
        uint64_t v = 0;
        size_t i = klen + 1;
        while (i < n && line[i] == ' ')
            i++;
        if (i >= n || !isdigit((unsigned char)line[i]))
            return false;
        for (; i < n && isdigit((unsigned char)line[i]); i++) {
            if (v > (UINT64_MAX - 9) / 10)
                return false;
            v = v * 10 + (uint64_t)(line[i] - '0');
        }
        while (i < n && line[i] == ' ')
            i++;
        bool kib = n - i >= 2 && memcmp(line + i, "kB", 2) == 0;
        if (kib && v > UINT64_MAX / 1024)
            return false;
        *bytes = kib ? v * 1024 : v;
        return true;
    }
    return false;
}

bool td_parse_nvidia_version(const char *text, size_t len, char *out, size_t cap)
{
    static const char marker[] = "Kernel Module";
    size_t pos = 0, n;
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        const char *m = NULL;
        for (size_t i = 0; i + sizeof marker - 1 <= n && !m; i++)
            if (memcmp(line + i, marker, sizeof marker - 1) == 0)
                m = line + i + sizeof marker - 1;
        if (!m)
            continue;
        const char *end = line + n;
        /* The first word made of digits and dots, with at least one dot
         * ("for x86_64" in the open module's line is skipped). */
        for (const char *p = m; p < end;) {
            while (p < end && (*p == ' ' || *p == '\t'))
                p++;
            const char *w = p;
            bool digits = true, dot = false;
            while (p < end && *p != ' ' && *p != '\t') {
                if (*p == '.')
                    dot = true;
                else if (!isdigit((unsigned char)*p))
                    digits = false;
                p++;
            }
            if (p > w && digits && dot && isdigit((unsigned char)*w)) {
                copy_out(out, cap, w, (size_t)(p - w));
                return true;
            }
        }
    }
    return false;
}

bool td_parse_cpuinfo_field(const char *text, size_t len, const char *key, char *out, size_t cap)
{
    size_t pos = 0, n, klen = strlen(key);
    const char *line;
    while (next_line(text, len, &pos, &line, &n)) {
        if (n < klen || memcmp(line, key, klen) != 0)
            continue;
        size_t i = klen;
        while (i < n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i >= n || line[i] != ':')
            continue; /* "model" must not match "model name" */
        i++;
        while (i < n && line[i] == ' ')
            i++;
        copy_out(out, cap, line + i, n - i);
        return true;
    }
    return false;
}

bool td_has_word(const char *words, const char *word)
{
    size_t wn = strlen(word);
    for (const char *p = words; *p;) {
        p += strspn(p, " \t");
        size_t n = strcspn(p, " \t");
        if (n == wn && memcmp(p, word, n) == 0)
            return true;
        p += n;
    }
    return false;
}
