/* UTF-8 facts every build needs (base/utf8.h): where a byte stream can be
 * cut without splitting a character, and whether bytes are valid UTF-8. */
#include "base/utf8.h"

#include <stdint.h>

/* The length of the sequence lead byte C starts (1..4), or 0 for a byte
 * that cannot start one (a continuation byte, C0, C1, F5..FF). */
static size_t sequence_length(unsigned char c)
{
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        return 2;
    if (c >= 0xe0 && c <= 0xef)
        return 3;
    if (c >= 0xf0 && c <= 0xf4)
        return 4;
    return 0;
}

size_t td_utf8_whole(const char *s, size_t n)
{
    /* Only the last three bytes can belong to an unfinished sequence. */
    for (size_t back = 1; back <= 3 && back <= n; back++) {
        unsigned char c = (unsigned char)s[n - back];
        if ((c & 0xc0) == 0x80)
            continue; /* a continuation byte: look further back */
        size_t len = sequence_length(c);
        return len > back ? n - back : n;
    }
    return n;
}

/* RFC 3629 section 4: no overlong forms, no surrogates, nothing past
 * U+10FFFF. */
size_t td_utf8_valid_prefix(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        size_t len = sequence_length(s[i]);
        if (len == 0 || len > n - i)
            return i;
        for (size_t k = 1; k < len; k++)
            if ((s[i + k] & 0xc0) != 0x80)
                return i;
        if ((s[i] == 0xe0 && s[i + 1] < 0xa0) || (s[i] == 0xed && s[i + 1] >= 0xa0) ||
            (s[i] == 0xf0 && s[i + 1] < 0x90) || (s[i] == 0xf4 && s[i + 1] >= 0x90))
            return i;
        i += len;
    }
    return n;
}

bool td_utf8_valid(const char *s, size_t n)
{
    return td_utf8_valid_prefix(s, n) == n;
}
