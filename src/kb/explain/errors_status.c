/* A Windows status a text prints in any of the ways programs print a 32-bit
 * code: hex with "0x", Pascal's "$" or none, signed or unsigned decimal
 * (docs/explain.md "Codes in any representation"). Read only where the words
 * before it say it is a status, an exit code, an HRESULT or an error. */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "kb/explain/errors_internal.h"

/* How far before a code the words that say what it is may stand, on its line. */
enum { CONTEXT_SPAN = 48 };

/* Words that make the number after them a status: a process's exit code or
 * status ("exited with code", "exit status", Pascal's "exit-code"), what a
 * call returned, an HRESULT ("Exception from HRESULT:", WinDbg's "HR="), an
 * error or exception code. Each must start a word ("ErrorCode" and
 * "returned" are theirs, "unicode" is not "code"). */
static const char *const status_words[] = {
    "exit", "status", "code", "hresult", "hr=", "hr:", "return", "error", "winerror", "errno",
    "exception", "failed",
    /* an IDE's or a shell's "exit code" in other languages: zh 退出/代码/代碼,
       ja コード, ko 코드, ru код (кодом выхода), es and pt código */
    "\xe9\x80\x80\xe5\x87\xba", "\xe4\xbb\xa3\xe7\xa0\x81", "\xe4\xbb\xa3\xe7\xa2\xbc",
    "\xe3\x82\xb3\xe3\x83\xbc\xe3\x83\x89", "\xec\xbd\x94\xeb\x93\x9c", "\xd0\xba\xd0\xbe\xd0\xb4",
    "c\303\263digo" /* octal: a hex escape would swallow the "d" */};

static bool word_start(const char *text, const char *at)
{
    return at == text || !isalpha((unsigned char)at[-1]);
}

/* Whether a status word stands in the CONTEXT_SPAN bytes before AT on its
 * line. */
static bool said_status(const char *text, const char *at)
{
    const char *s = at;
    while (s > text && s[-1] != '\n' && at - s < CONTEXT_SPAN)
        s--;
    for (const char *c = s; c < at; c++) {
        if (!word_start(text, c))
            continue;
        for (size_t w = 0; w < sizeof status_words / sizeof *status_words; w++) {
            size_t n = strlen(status_words[w]);
            if (c + n <= at && strncasecmp(c, status_words[w], n) == 0)
                return true;
        }
    }
    return false;
}

/* Whether the token that ends at END ends there: not glued to a letter,
 * digit or underscore, nor a version's or an address's next part (".5"). */
static bool token_ends(const char *end)
{
    if (isalnum((unsigned char)*end) || *end == '_')
        return false;
    return !((*end == '.' || *end == ',') && isdigit((unsigned char)end[1]));
}

/* The 32-bit code a token at P spells and its length in *LEN, or false:
 * "0xC0000135", "$C000007B" (Pascal, Delphi), "C0000135" or "8007007E" bare
 * (eight digits, a status's or an HRESULT's leading ones), "3221225781"
 * (unsigned decimal, ten digits), "-1073741515" (signed). */
static bool spelled_code(const char *p, uint32_t *code, size_t *len)
{
    const char *d = p;
    bool prefixed = false, neg = false;
    if ((p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) || p[0] == '$') {
        d = p + (p[0] == '$' ? 1 : 2);
        prefixed = true;
    } else if (p[0] == '-') {
        d = p + 1;
        neg = true;
    }
    size_t hex_digits = strspn(d, "0123456789abcdefABCDEF"), n;
    bool hex = prefixed || (!neg && hex_digits == 8 &&
                            (strncasecmp(d, "c0", 2) == 0 || strncasecmp(d, "8007", 4) == 0));
    if (hex && hex_digits != 8)
        return false;
    n = hex ? hex_digits : strspn(d, "0123456789");
    if ((!hex && n != 10) || !token_ends(d + n))
        return false;
    long long v = strtoll(d, NULL, hex ? 16 : 10);
    if (neg)
        v = -v;
    if (v < INT32_MIN || v > (long long)UINT32_MAX)
        return false;
    *code = (uint32_t)v;
    *len = (size_t)(d + n - p);
    return true;
}

/* Whether CODE is one a status reading keeps: an NTSTATUS of severity error
 * (0xC0000000 and above) or an HRESULT a Win32 error was made into
 * (HRESULT_FROM_WIN32: 0x8007XXXX). */
static bool status_like(uint32_t code)
{
    return (code & 0xF0000000u) == 0xC0000000u || (code & 0xFFFF0000u) == 0x80070000u;
}

size_t td_explain_statuses(const char *text, uint32_t *out, size_t cap)
{
    size_t n = 0;
    for (const char *p = text; *p && n < cap; p++) {
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '-'))
            continue;
        uint32_t code;
        size_t len;
        if (!strchr("0123456789$-abcdefABCDEF", *p) || !spelled_code(p, &code, &len))
            continue;
        if (status_like(code) && said_status(text, p))
            out[n++] = code;
        p += len - 1;
    }
    return n;
}
