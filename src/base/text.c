/* Pasted text as UTF-8 (base/text.h): byte-order marks, UTF-8, the
 * console's code page on Windows, then the catalogue languages' code pages
 * from data/codepages.tsv, scored by how typical of their language the
 * decoded characters are. */
#include "base/text.h"
#include "base/data.h"
#include "base/utf8.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One code page: what each byte, and each lead byte with each trail byte,
 * decodes to (0: invalid). */
struct codepage {
    int cp;
    uint16_t single[256];
    uint16_t *pairs; /* [lead * 256 + trail], NULL for a single-byte page */
    bool lead[256];
};

static unsigned hex4(const char *s)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

static bool load(struct codepage *p, int cp)
{
    static const char *const cols[] = {"codepage", "lead", "first", "units", NULL};
    struct td_table *t = malloc(sizeof *t);
    memset(p, 0, sizeof *p);
    p->cp = cp;
    for (int b = 0; b < 0x80; b++)
        p->single[b] = (uint16_t)b;
    bool any = t && td_table_open(t, "codepages", cols);
    while (any && td_table_next(t)) {
        if (atoi(td_table_cell(t, 0)) != cp)
            continue;
        const char *lead = td_table_cell(t, 1), *units = td_table_cell(t, 3);
        unsigned first = (unsigned)strtoul(td_table_cell(t, 2), NULL, 16);
        uint16_t *dst = p->single;
        if (strcmp(lead, "-") != 0) {
            unsigned l = (unsigned)strtoul(lead, NULL, 16) & 0xff;
            if (!p->pairs && !(p->pairs = calloc(256 * 256, sizeof *p->pairs)))
                break;
            p->lead[l] = true;
            dst = p->pairs + l * 256;
        }
        size_t count = strlen(units) / 4;
        for (size_t i = 0; i < count && first + i < 256; i++)
            dst[first + i] = (uint16_t)hex4(units + 4 * i);
    }
    free(t);
    return any;
}

bool td_text_codepage_high(int cp, uint16_t high[128])
{
    struct codepage p;
    bool ok = load(&p, cp);
    free(p.pairs);
    memcpy(high, p.single + 0x80, 128 * sizeof *high);
    return ok;
}

static size_t put_utf8(char *out, unsigned u)
{
    if (u < 0x80) {
        out[0] = (char)u;
        return 1;
    }
    if (u < 0x800) {
        out[0] = (char)(0xc0 | u >> 6), out[1] = (char)(0x80 | (u & 0x3f));
        return 2;
    }
    if (u < 0x10000) {
        out[0] = (char)(0xe0 | u >> 12), out[1] = (char)(0x80 | ((u >> 6) & 0x3f));
        out[2] = (char)(0x80 | (u & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | u >> 18), out[1] = (char)(0x80 | ((u >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((u >> 6) & 0x3f)), out[3] = (char)(0x80 | (u & 0x3f));
    return 4;
}

static bool ascii_letter(unsigned char c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* How typical of the code page's language the character U (from the bytes
 * at S[I], LEN of them) is, in bytes: GB2312's punctuation and level-1
 * hanzi (lead 0xA1-0xD7) for 936; JIS symbols, kana and level-1 kanji
 * (lead 0x81-0x83, 0x88-0x98) for 932; a lowercase Cyrillic letter next
 * to another non-ASCII byte (Russian words are all Cyrillic) for 1251; an
 * accented Latin letter next to an ASCII letter for 1252. */
static int typical(int cp, const unsigned char *s, size_t n, size_t i, size_t len, unsigned u)
{
    unsigned char b = s[i];
    bool high_near = (i > 0 && s[i - 1] >= 0x80) || (i + 1 < n && s[i + 1] >= 0x80);
    bool letter_near = (i > 0 && ascii_letter(s[i - 1])) || (i + 1 < n && ascii_letter(s[i + 1]));
    switch (cp) {
    case 936:
        return len == 2 && b >= 0xa1 && b <= 0xd7 ? 2 : 0;
    case 932:
        return len == 2 && ((b >= 0x81 && b <= 0x83) || (b >= 0x88 && b <= 0x98)) ? 2 : 0;
    case 1251:
        return u >= 0x430 && u <= 0x45f && high_near ? 1 : 0;
    default:
        return u >= 0xc0 && u <= 0xff && u != 0xd7 && u != 0xf7 && letter_near ? 1 : 0;
    }
}

/* TEXT decoded with P, or NULL when some byte is not valid in it. */
static char *decode_with(const struct codepage *p, const char *text, size_t n, size_t *len,
                         int *score)
{
    const unsigned char *s = (const unsigned char *)text;
    char *out = malloc(n * 3 + 1);
    size_t o = 0;
    *score = 0;
    for (size_t i = 0; out && i < n;) {
        unsigned u = p->single[s[i]];
        size_t used = 1;
        if (p->pairs && p->lead[s[i]]) {
            u = i + 1 < n ? p->pairs[s[i] * 256 + s[i + 1]] : 0;
            used = 2;
        }
        if (u == 0 && s[i] != 0) {
            free(out);
            return NULL;
        }
        *score += typical(p->cp, s, n, i, used, u);
        o += put_utf8(out + o, u);
        i += used;
    }
    if (out)
        out[o] = '\0';
    *len = o;
    return out;
}

/* UTF-16 after its byte-order mark, with surrogate pairs joined; a lone
 * surrogate becomes U+FFFD. */
static char *from_utf16(const unsigned char *s, size_t n, bool big_endian, size_t *len)
{
    char *out = malloc(n * 2 + 4);
    size_t o = 0;
    for (size_t i = 0; out && i + 1 < n; i += 2) {
        unsigned u = big_endian ? (unsigned)s[i] << 8 | s[i + 1] : (unsigned)s[i + 1] << 8 | s[i];
        if (u >= 0xd800 && u <= 0xdbff && i + 3 < n) {
            unsigned lo = big_endian ? (unsigned)s[i + 2] << 8 | s[i + 3]
                                     : (unsigned)s[i + 3] << 8 | s[i + 2];
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                i += 2;
            }
        }
        if (u >= 0xd800 && u <= 0xdfff)
            u = 0xfffd;
        o += put_utf8(out + o, u);
    }
    if (out)
        out[o] = '\0';
    *len = o;
    return out;
}

static int copy_as(struct td_decoded *out, const char *bytes, size_t n, const char *encoding)
{
    out->utf8 = malloc(n + 1);
    if (!out->utf8)
        return -1;
    memcpy(out->utf8, bytes, n);
    out->utf8[n] = '\0';
    out->len = n;
    snprintf(out->encoding, sizeof out->encoding, "%s", encoding);
    return 0;
}

/* The catalogue languages' code pages, in the order a tie goes. */
static const int candidates[] = {936, 932, 1251, 1252};

static int best_codepage(const char *bytes, size_t n, struct td_decoded *out)
{
    int best_score = -1;
    for (size_t c = 0; c < sizeof candidates / sizeof candidates[0]; c++) {
        struct codepage p;
        size_t len = 0;
        int score = 0;
        char *s = load(&p, candidates[c]) ? decode_with(&p, bytes, n, &len, &score) : NULL;
        free(p.pairs);
        if (!s || score <= best_score) {
            free(s);
            continue;
        }
        free(out->utf8);
        out->utf8 = s, out->len = len, best_score = score;
        snprintf(out->encoding, sizeof out->encoding, "cp%d", candidates[c]);
    }
    return best_score >= 0 ? 0 : copy_as(out, bytes, n, "unknown");
}

int td_text_decode(const char *bytes, size_t n, struct td_decoded *out)
{
    const unsigned char *s = (const unsigned char *)bytes;
    memset(out, 0, sizeof *out);
    if (n >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf) {
        /* UTF-8's mark before bytes that are not UTF-8 (a text saved in another
         * encoding behind it): what follows is read as if unmarked */
        bytes += 3, n -= 3, s += 3;
        if (td_utf8_valid(bytes, n))
            return copy_as(out, bytes, n, "utf-8");
    }
    if (n >= 2 && ((s[0] == 0xff && s[1] == 0xfe) || (s[0] == 0xfe && s[1] == 0xff))) {
        bool be = s[0] == 0xfe;
        out->utf8 = from_utf16(s + 2, n - 2, be, &out->len);
        snprintf(out->encoding, sizeof out->encoding, be ? "utf-16be" : "utf-16le");
        return out->utf8 ? 0 : -1;
    }
    if (td_utf8_valid(bytes, n))
        return copy_as(out, bytes, n, "utf-8");
    int cp = td_text_console_cp();
    if (cp && cp != 65001 && (out->utf8 = td_text_from_cp(cp, bytes, n, &out->len))) {
        snprintf(out->encoding, sizeof out->encoding, "cp%d", cp);
        return 0;
    }
    return best_codepage(bytes, n, out);
}
