/* Cleaning a pasted error message before it is matched: terminal colour
 * codes and carriage returns go, lines that a terminal or a logger wrapped
 * are joined again, and doubled backslashes (Python's repr of a Windows
 * path) are halved. */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/text.h"
#include "kb/errors.h"

enum {
    WRAP_MIN_WIDTH = 40,  /* narrower "widths" are ordinary short lines */
    LOGGER_INDENT = 16,   /* a logger's continuation lines start under its message column */
    MAX_QUOTE_JOINS = 8,  /* a quoted path wraps over a few lines, not a whole page */
    SOFT_WRAP_MIN = 20,   /* a line broken by a window is not a short one */
    SOFT_WRAP_BLANKS = 3, /* empty lines a copy may put after such a break */
    URL_ESCAPES_MIN = 3,  /* percent-escapes that make a run an encoded message */
};

/* ECMA-48: CSI (ESC [) runs to a final byte 0x40..0x7E; OSC (ESC ]) to BEL
 * or ESC \; any other ESC takes one more byte. Returns the bytes to skip. */
static size_t escape_len(const char *s, size_t n)
{
    if (n < 2)
        return n;
    size_t i = 2;
    if (s[1] == '[') {
        while (i < n && !((unsigned char)s[i] >= 0x40 && (unsigned char)s[i] <= 0x7e))
            i++;
        return i < n ? i + 1 : n;
    }
    if (s[1] == ']') {
        while (i < n && s[i] != '\a' && !(s[i] == 0x1b && i + 1 < n && s[i + 1] == '\\'))
            i++;
        return i >= n ? n : s[i] == '\a' ? i + 1 : i + 2;
    }
    return 2;
}

/* Pass 1: escapes out, CR and CRLF to LF. */
static size_t strip(const char *in, size_t len, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        if (in[i] == 0x1b) {
            i += escape_len(in + i, len - i);
        } else if (in[i] == '\r') {
            out[o++] = '\n';
            i += (i + 1 < len && in[i + 1] == '\n') ? 2 : 1;
        } else if (in[i] == '\0') {
            i++;
        } else {
            out[o++] = in[i++];
        }
    }
    out[o] = '\0';
    return o;
}

static size_t digits_at(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    return i;
}

/* The length of a log timestamp at S ("2025-03-14 09:26:53,589",
 * "[2025-03-14T09:26:53.589Z]", "2025-05-12T01:48:43.608585") with what a
 * logger puts after it (" - ", " | ", ": ", a level word), or 0. */
static size_t timestamp_len(const char *s, size_t n)
{
    size_t i = s[0] == '[' ? 1 : 0;
    static const size_t parts[] = {4, 2, 2, 2, 2, 2};
    static const char seps[] = "--T::";
    for (size_t k = 0; k < 6; k++) {
        if (digits_at(s + i, n - i) != parts[k])
            return 0;
        i += parts[k];
        if (k < 5) {
            if (i >= n || !(s[i] == seps[k] || (k == 2 && s[i] == ' ')))
                return 0;
            i++;
        }
    }
    if (i < n && (s[i] == '.' || s[i] == ','))
        i += 1 + digits_at(s + i + 1, n - i - 1);
    if (i < n && s[i] == 'Z')
        i++;
    else if (i + 5 < n && (s[i] == '+' || s[i] == '-') && digits_at(s + i + 1, 2) == 2)
        i += s[i + 3] == ':' ? 6 : 5;
    if (s[0] == '[' && i < n && s[i] == ']')
        i++;
    static const char *const levels[] = {"CRITICAL", "ERROR", "WARNING", "WARN", "INFO", "DEBUG"};
    for (int pass = 0; pass < 2; pass++) {
        while (i < n && (s[i] == ' ' || s[i] == '-' || s[i] == '|' || s[i] == ':' || s[i] == '\t'))
            i++;
        while (pass == 1 && i >= 2 && s[i - 1] == ' ' && s[i - 2] == ' ')
            i--; /* the message's own indentation ("  File ...") stays */
        for (size_t k = 0; pass == 0 && k < sizeof levels / sizeof levels[0]; k++) {
            size_t l = strlen(levels[k]);
            if (i + l < n && strncmp(s + i, levels[k], l) == 0 &&
                !isalpha((unsigned char)s[i + l])) {
                i += l;
                break;
            }
        }
    }
    return i;
}

static bool letter(unsigned char c)
{
    return isalpha(c) || c >= 0x80;
}

/* Whether the right single quote at S[I] (K bytes) is an apostrophe of a
 * word other than an English contraction: after a letter and before a
 * small one (ASCII, or a byte of a non-ASCII character: "n’est",
 * "d’entrée"), and not before an English ending ("can’t", "couldn’t",
 * "it’s"), which a loader's message spells with the ASCII one. A quote
 * glued to a capital is a quote ("version’GLIBC_2.28’"). */
/* Whether the letters right before S[I] are a Python string's prefix
 * standing alone (u'...', b'...', rb'...': Python 2's repr of a path,
 * "u'face.dll'"): the quote after it opens the string. */
static bool after_string_prefix(const unsigned char *s, size_t i)
{
    size_t w = i;
    while (w > 0 && isalpha(s[w - 1]) && i - w < 3)
        w--;
    if (w == i || i - w > 2 ||
        (w > 0 && (isalnum(s[w - 1]) || s[w - 1] == '_' || s[w - 1] >= 0x80)))
        return false;
    for (size_t c = w; c < i; c++)
        if (!strchr("uUbBrRfF", s[c]))
            return false;
    return true;
}

/* Whether the token right before S[I] ends in a library file's extension
 * (".dll", ".pyd", ".dylib", ".so", ".so.8"): a quote after a file's name
 * closes it, whatever follows ("cusolver64_10.dll’。"). */
static bool after_library_name(const unsigned char *s, size_t i)
{
    size_t e = i;
    while (e > 0 && (isdigit(s[e - 1]) || s[e - 1] == '.'))
        e--; /* a soname's version: ".so.8", ".so.12.1" */
    static const char *const exts[] = {".dll", ".DLL", ".pyd", ".dylib", ".so"};
    for (size_t x = 0; x < sizeof exts / sizeof *exts; x++) {
        size_t l = strlen(exts[x]);
        size_t end = strcmp(exts[x], ".so") == 0 ? e : i;
        if (end >= l + 1 && strncmp((const char *)s + end - l, exts[x], l) == 0 &&
            (end == i || s[end] == '.'))
            return true;
    }
    return false;
}

static bool kept_apostrophe(const unsigned char *s, size_t n, size_t i, size_t k)
{
    if (i == 0 || i + k >= n || !letter(s[i - 1]) || !(islower(s[i + k]) || s[i + k] >= 0x80) ||
        after_string_prefix(s, i) || after_library_name(s, i))
        return false;
    static const char *const endings[] = {"t", "s", "m", "d", "ll", "re", "ve"};
    for (size_t e = 0; e < sizeof endings / sizeof endings[0]; e++) {
        size_t l = strlen(endings[e]);
        if (i + k + l <= n && strncmp((const char *)s + i + k, endings[e], l) == 0 &&
            (i + k + l == n || !letter(s[i + k + l])))
            return false;
    }
    return true;
}

/* Pass 1c: typographic quotes an editor or a retyping put in place of the
 * loader's ASCII ones ("version ‘GLIBC_2.28’ not found", "Symbol not found:
 * (_x)" / "Referenced from: ‘/path/odin’", “X.dll”) become ' and ", so a
 * file's name ends where the loader's quote ended it. A right single quote
 * that is a word's apostrophe in another language ("n’est") stays, as do
 * the other languages' marks („, «, 「). In place. */
static size_t plain_quotes(char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (i + 2 < n && u[i] == 0xe2 && u[i + 1] == 0x80) {
            unsigned char c = u[i + 2];
            bool single = c == 0x98 || c == 0x9b || (c == 0x99 && !kept_apostrophe(u, n, i, 3));
            if (single || c == 0x9c || c == 0x9d) {
                s[o++] = single ? '\'' : '"';
                i += 3;
                continue;
            }
        }
        s[o++] = s[i++];
    }
    s[o] = '\0';
    return o;
}

/* The length of the quote marks a reply or a test runner put before a
 * line of the message it shows (L is the line, N its length): Markdown's
 * and mail's "> " (nested "> > "), and pytest's "E   " before each line
 * of the exception it reports. A Python prompt (">>> ") is no quote mark. */
static size_t quote_prefix_len(const char *l, size_t n)
{
    size_t i = 0;
    while (i < n && l[i] == '>' && !(i + 1 < n && l[i + 1] == '>') &&
           (i + 1 == n || l[i + 1] == ' '))
        i += i + 1 < n ? 2 : 1;
    if (i == 0 && n >= 4 && l[0] == 'E' && strncmp(l + 1, "   ", 3) == 0)
        i = 4;
    return i;
}

/* Last pass: "\\\\" to "\\" (Python's repr of a Windows path), once the lines
 * are joined, so that a terminal's wrap is measured in the columns it
 * filled and a pair it broke apart is halved too. In place. */
static size_t halve_backslashes(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\\')
            i++;
        s[o++] = s[i++];
    }
    s[o] = '\0';
    return o;
}

/* Whether the line S (N bytes) is wrapped as a JSON record or array
 * ("{...}", "[...]") or as Python's repr of an exception ("E('...')",
 * "E(\"...\")"). */
static bool enveloped(const char *s, size_t n)
{
    while (n && (*s == ' ' || *s == '\t'))
        s++, n--;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    if (n < 2)
        return false;
    if ((s[0] == '{' && s[n - 1] == '}') || (s[0] == '[' && s[n - 1] == ']'))
        return true;
    size_t i = 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
        i++;
    return i > 0 && i + 3 < n && s[i] == '(' && (s[i + 1] == '\'' || s[i + 1] == '"') &&
           s[n - 1] == ')' && s[n - 2] == s[i + 1];
}

/* Whether the line S (N bytes) is a message escaped whole, as a JSON log
 * or Python's repr prints one on a single line ("{\"msg\": \"dlopen(...):
 * Library not loaded: X\\nReferenced from: Y\\n...\"}"): every backslash on
 * it starts an escape (a Windows path written with single backslashes,
 * "C:\\Users\\nadia", has others), and it holds two escaped line breaks or
 * more, or one inside such a record's or repr's brackets (enveloped). */
static bool escaped_line(const char *s, size_t n)
{
    size_t breaks = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\')
            continue;
        if (i + 1 >= n || !strchr("ntr\"'\\/u", s[i + 1]))
            return false;
        breaks += s[i + 1] == 'n';
        i++;
    }
    return breaks >= 2 || (breaks == 1 && enveloped(s, n));
}

/* Whether S (N bytes) holds an escaped double quote (\\"), escapes read
 * in pairs ("\\\\" then a bare quote is none). */
static bool escaped_quote(const char *s, size_t n)
{
    for (size_t i = 0; i + 1 < n; i++)
        if (s[i] == '\\' && s[i + 1] == '"')
            return true;
        else if (s[i] == '\\')
            i++;
    return false;
}

/* Whether the line S (N bytes) starts a JSON record: "{" and a quoted key
 * (Python's dict repr quotes its keys with "'"). */
static bool json_record(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    return i + 1 < n && s[i] == '{' && s[i + 1] == '"';
}

/* Unescapes, in place, the line of S from *I to END (N: the text's
 * length), writing from *O; moves both on to END. WHOLE: the line is
 * escaped whole (escaped_line), every escape undone; JSON: its bare quotes
 * are the record's and become blanks. Otherwise only a repr's "\\n" before a
 * blank breaks the line. */
static void unescape_line(char *s, size_t n, size_t end, bool whole, bool json, size_t *i,
                          size_t *o)
{
    size_t r = *i, w = *o;
    while (r < end) {
        char c = r + 1 < end && s[r] == '\\' ? s[r + 1] : 0;
        if (json && s[r] == '"') {
            s[w++] = ' ';
            r++;
        } else if (whole && c && strchr("nt\"'/", c)) {
            s[w++] = c == 'n' ? '\n' : c == 't' ? '\t' : c;
            r += 2;
        } else if (whole && c == 'r') {
            r += 2;
        } else if (whole && c == '\\') {
            s[w++] = '\\';
            r += 2;
        } else if (c == 'n' && r + 2 < n && (s[r + 2] == ' ' || s[r + 2] == '\t') &&
                   (r == 0 || s[r - 1] != '\\')) {
            s[w++] = '\n';
            r += 2;
        } else {
            s[w++] = s[r++];
        }
    }
    *i = r, *o = w;
}

/* Pass 1b: a multi-line message printed escaped back to its lines. On a
 * line escaped whole (escaped_line) every "\\n" is a line break and "\\t",
 * "\\\"", "\\'", "\\/" and "\\\\" are their characters; elsewhere a literal backslash-n before a
 * blank is a line break (Python's repr of an exception list, "['dlopen(...): Library not loaded:
 * X\\n  Referenced from: Y']"), never a path's "\\n..." folder. In place. */
static size_t unescape_newlines(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        bool whole = escaped_line(s + i, end - i);
        /* a JSON string's quotes inside are escaped: on a record (or a
         * line that escapes them) the bare ones are the log's own syntax,
         * not the message's (a blank, so no quote seems left open over the
         * lines the breaks make) */
        bool json = whole && (escaped_quote(s + i, end - i) || json_record(s + i, end - i));
        unescape_line(s, n, end, whole, json, &i, &o);
        if (i < n)
            s[o++] = s[i++]; /* the line's own break */
    }
    s[o] = '\0';
    return o;
}

static int hex_value(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The printable ASCII character, line break or tab a "%XX" at s stands for,
 * else -1. */
static int url_escape(const char *s, size_t n)
{
    if (n < 3 || s[0] != '%' || hex_value(s[1]) < 0 || hex_value(s[2]) < 0)
        return -1;
    int c = hex_value(s[1]) * 16 + hex_value(s[2]);
    return (c >= 0x20 && c <= 0x7e) || c == '\n' || c == '\t' ? c : -1;
}

/* Pass 2b, after the joins: a message carried in a URL's query (a tool's "search for existing
 * issues" link, ".../search?q=dlopen%28%2FLibrary%2F...+tried%3A+..."), percent-
 * encoded as RFC 3986 writes it and with "+" for a blank as HTML forms do,
 * back to its words: a run without blanks that holds URL_ESCAPES_MIN or more
 * escapes of printable characters (or of the message's line breaks) is
 * decoded. A path's "%1" or "%PATH%" is no
 * such run. In place. */
static size_t decode_urls(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t end = i;
        while (end < n && !isspace((unsigned char)s[end]))
            end++;
        size_t escapes = 0;
        for (size_t k = i; k < end; k++)
            escapes += url_escape(s + k, end - k) >= 0;
        if (end == i) {
            s[o++] = s[i++];
            continue;
        }
        for (size_t k = i; k < end;) {
            int c = escapes >= URL_ESCAPES_MIN ? url_escape(s + k, end - k) : -1;
            if (c >= 0) {
                s[o++] = (char)c;
                k += 3;
            } else {
                s[o++] = (escapes >= URL_ESCAPES_MIN && s[k] == '+') ? ' ' : s[k];
                k++;
            }
        }
        i = end;
    }
    s[o] = '\0';
    return o;
}

/* Pass 2: the log timestamp at the start of each line goes. In place. */
static size_t strip_timestamps(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t skip = (i == 0 || s[i - 1] == '\n') ? timestamp_len(s + i, n - i) : 0;
        if (skip) { /* a timestamp alone on its line leaves the line empty */
            i += skip;
            continue;
        }
        s[o++] = s[i++];
    }
    s[o] = '\0';
    return o;
}

/* Moves S's bytes [FROM, TO) to O, where an in-place pass writes (O <=
 * FROM): the text a markup around it kept. Returns where writing goes on. */
static size_t keep_span(char *s, size_t o, size_t from, size_t to)
{
    memmove(s + o, s + from, to - from);
    return o + (to - from);
}

/* Pass 3: a markdown link the issue tracker made of a file name
 * ("[_ext.cpython-38-x86_64-linux-gnu.so](http://ext.cpython-38…/)") back
 * to its text. In place. */
static size_t unlink_markdown(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        if (s[i] == '[') {
            size_t close = i + 1;
            while (close < n && s[close] != ']' && s[close] != '[' && s[close] != '\n')
                close++;
            if (close + 1 < n && s[close] == ']' && s[close + 1] == '(' &&
                strncmp(s + close + 2, "http", 4) == 0) {
                size_t end = close + 2;
                while (end < n && s[end] != ')' && s[end] != '\n')
                    end++;
                if (end < n && s[end] == ')') {
                    o = keep_span(s, o, i + 1, close);
                    i = end + 1;
                    continue;
                }
            }
        }
        s[o++] = s[i++];
    }
    s[o] = '\0';
    return o;
}

/* Whether only blanks stand between the start of the N bytes at S and a
 * line break or the text's edge. */
static bool line_break_follows(const char *s, size_t n)
{
    size_t j = 0;
    while (j < n && (s[j] == ' ' || s[j] == '\t'))
        j++;
    return j == n || s[j] == '\n';
}

/* HTML's character references and line-break tags a web page, a mail or a
 * tracker's export left in a pasted message ("cannot load library
 * &#39;libcairo.so.2&#39;", "...cannot open<br>shared object file") back to the
 * characters they stand for; a tag beside a line break that is there
 * already goes (a paste that marked each line's end, "library: <br/>" and
 * the message's next line). In place; returns the new length. */
static size_t decode_html(char *s, size_t n)
{
    static const struct {
        const char *ref;
        char c;
    } refs[] = {{"&quot;", '"'},  {"&#34;", '"'}, {"&#39;", '\''}, {"&#x27;", '\''},
                {"&apos;", '\''}, {"&lt;", '<'},  {"&gt;", '>'},   {"&amp;", '&'}};
    static const char *const breaks[] = {"<br>", "<br/>", "<br />"};
    size_t o = 0;
    bool blank_line_so_far = true; /* only blanks written since the last line break */
    for (size_t i = 0; i < n;) {
        size_t k = 0;
        char c = s[i];
        for (size_t r = 0; s[i] == '&' && !k && r < sizeof refs / sizeof refs[0]; r++)
            if (strncmp(s + i, refs[r].ref, strlen(refs[r].ref)) == 0)
                k = strlen(refs[r].ref), c = refs[r].c;
        for (size_t b = 0; s[i] == '<' && !k && b < sizeof breaks / sizeof breaks[0]; b++)
            if (strncasecmp(s + i, breaks[b], strlen(breaks[b])) == 0)
                k = strlen(breaks[b]), c = '\n';
        i += k ? k : 1;
        if (c == '\n' && k && (blank_line_so_far || line_break_follows(s + i, n - i)))
            continue; /* the line breaks there already: the tag only marked it */
        s[o++] = c;
        if (c == '\n')
            blank_line_so_far = true;
        else if (c != ' ' && c != '\t')
            blank_line_so_far = false;
    }
    s[o] = '\0';
    return o;
}

/* Whether the "**" at I of S (N bytes) can open Markdown's strong emphasis:
 * after a blank, a bracket or the start, before a character that starts a
 * word or a path (not a blank, a star, a slash or a dot: "**kwargs" has no
 * closing pair, "**" before a slash is a glob). */
static bool strong_opens(const char *s, size_t n, size_t i)
{
    return (i == 0 || strchr(" \t\n([", s[i - 1])) && i + 2 < n && !strchr(" \t\n*/\\.", s[i + 2]);
}

/* Where the "**" that closes the emphasis opened at I is, on the same line:
 * after a character that is no blank, star or slash, before a blank, the
 * line's end or a punctuation mark ("**libcudart.so.12**:"); 0 when there
 * is none, or when a star of another kind comes first. */
static size_t strong_closes(const char *s, size_t n, size_t i)
{
    for (size_t j = i + 3; j + 1 < n && s[j] != '\n'; j++) {
        if (s[j] != '*')
            continue;
        if (s[j + 1] == '*' && !strchr(" \t*/\\", s[j - 1]) &&
            (j + 2 == n || strchr(" \t\n:;,.!?)]'\"", s[j + 2])))
            return j;
        return 0;
    }
    return 0;
}

/* Last pass: Markdown's strong emphasis around a file or a word of the
 * message ("error while loading shared libraries: **libcudart.so.12**: ...",
 * "The specified **module** could not be found") goes, its text stays.
 * Only the doubled star: a lone star or underscore is a glob's ("*.dll",
 * "lib*.so*") or a name's ("__init__.py", "__nvJitLinkComplete_12_4") as
 * often as emphasis. In place. */
static size_t drop_strong_emphasis(char *s, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t close;
        if (s[i] == '*' && i + 1 < n && s[i + 1] == '*' && strong_opens(s, n, i) &&
            (close = strong_closes(s, n, i)) != 0) {
            o = keep_span(s, o, i + 2, close);
            i = close + 2;
            continue;
        }
        s[o++] = s[i++];
    }
    s[o] = '\0';
    return o;
}

/* CPython's "DLL load failed" (Python/dynload_win.c: "DLL load failed while
 * importing %U: %s", before 3.8 "DLL load failed: %s") as a user retyped it:
 * in another case ("Dll load failed", "dll load failed") or without its blank
 * ("DLLLoad failed"). Where the format goes on (" while importing", ":"), the
 * words are put back as the format prints them, so that every later reading
 * of that message finds its own words; prose that only says a DLL load
 * failed ("dll load failed with errorcode ...") is left alone. Returns S, or
 * a copy from A when a blank was put back. */
static char *restore_dll_load_failed(char *s, size_t n, struct td_arena *a)
{
    static const char canon[] = "DLL load failed";
    /* 16 places: a traceback repeats the message a few times; past that,
     * on a hostile text, the rest stay as typed and nothing grows */
    size_t grow = 0, at[16], na = 0;
    for (size_t i = 0; i + 14 <= n && na < sizeof at / sizeof at[0]; i++) {
        if ((i > 0 && isalnum((unsigned char)s[i - 1])) || strncasecmp(s + i, "dll", 3) != 0)
            continue;
        size_t j = i + 3 + (s[i + 3] == ' ');
        if (strncasecmp(s + j, "load failed", 11) != 0)
            continue;
        const char *after = s + j + 11;
        if (*after != ':' && strncasecmp(after, " while importing", 16) != 0)
            continue;
        if (j - i == 4 && strncmp(s + i, canon, 15) == 0)
            continue; /* already the format's own words */
        at[na++] = i;
        grow += j == i + 3;
    }
    if (na == 0)
        return s;
    char *out = grow ? td_arena_alloc(a, n + grow + 1) : s;
    if (!out)
        return s;
    size_t o = 0, from = 0;
    for (size_t k = 0; k < na; k++) {
        size_t i = at[k], j = i + 3 + (s[i + 3] == ' ');
        memmove(out + o, s + from, i - from);
        o += i - from;
        memcpy(out + o, canon, 15);
        o += 15;
        from = j + 11;
    }
    memmove(out + o, s + from, n - from);
    out[o + n - from] = '\0';
    return out;
}

struct line {
    const char *s;
    size_t raw;     /* bytes up to the line break */
    size_t len;     /* without trailing blanks */
    size_t columns; /* code points before trimming: what the terminal filled */
    size_t indent;
    size_t base; /* the least indent of its block's lines up to it (a block
                    ends at an empty line or a Markdown fence) */
    int quotes;
    size_t quoted; /* the quote marks before it (quote_prefix_len), counted in columns */
};

static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

/* Widths terminals open with (xterm, Windows console: 80; 100, 120, 132 are
 * the other sizes terminal emulators offer). */
static const size_t terminal_widths[] = {80, 100, 120, 132};

/* Whether line L is a Markdown code fence (three or more backticks or
 * tildes at its start, after its indent). */
static bool fence(const struct line *l)
{
    const char *s = l->s + l->indent;
    size_t n = l->len - l->indent;
    return n >= 3 && (s[0] == '`' || s[0] == '~') && s[1] == s[0] && s[2] == s[0];
}

/* Whether line L ends with a whole library file's name (".dylib", ".dll",
 * ".pyd", ".so"): a list of the files a loader tried, one a line, gives
 * lines of one length that differ in a digit (torchcodec's
 * "libtorchcodec_core7.dylib" ... "core6.dylib"), and a line that ends where
 * a file's name ends is no evidence of a terminal's wrap. */
static bool ends_with_library(const struct line *l)
{
    static const char *const suffixes[] = {".dylib", ".dll", ".DLL", ".pyd", ".so"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t k = strlen(suffixes[i]);
        if (l->len > k && memcmp(l->s + l->len - k, suffixes[i], k) == 0)
            return true;
    }
    return false;
}

/* Whether line K's next line could be the rest of K, broken by a terminal:
 * not empty, no fence, and indented no deeper than K's block's margin and a
 * blank (K + 1 < the number of lines). */
static bool goes_on(const struct line *l, size_t k)
{
    return l[k + 1].len > 0 && !fence(&l[k + 1]) && l[k + 1].indent <= l[k].base + 1;
}

static int by_size(const void *x, const void *y)
{
    size_t a = *(const size_t *)x, b = *(const size_t *)y;
    return (a > b) - (a < b);
}

/* Whether V stands at least twice among the N sizes of sorted S. */
static bool twice_in(const size_t *s, size_t n, size_t v)
{
    size_t lo = 0, hi = n; /* to the first not below V */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo + 1 < n && s[lo] == v && s[lo + 1] == v;
}

/* The terminal width the text was wrapped at: the longest line length that
 * at least two different lines fill exactly, the last line not counted (it
 * is where the text ended, not where the terminal broke it: a two-line text
 * whose halves happen to be as long is not wrapped), nor a line the program
 * printed again before its message's next indented line (dyld's lazy-binding
 * failure repeats its "Referenced from:" line, and "  Expected in:" follows:
 * one line twice is no width; a wrapped piece repeated goes on at column 0),
 * nor a line followed by an empty one or a Markdown fence (a broken line
 * goes on, and a fence is a line of its own), nor a line whose next line is
 * indented deeper than its block's least indent: a terminal goes on at the
 * row's first column, whatever the broken line's indent, so the piece it
 * broke off starts at the paste's own margin (a block indented as a whole
 * keeps that margin, and a break at a blank leaves one more), while a
 * message's next field is indented under its first line (dyld's
 * "  Referenced from:" and "  Expected in:" under "dyld: Symbol not found:
 * ____chkstk_darwin", all three 41 columns by chance), nor a line that ends
 * with a library file's name (ends_with_library); 0 when none. */
static size_t wrap_width(const struct line *l, size_t n)
{
    size_t best = 0, n_wide = 0;
    size_t *wide = n > 1 ? malloc((n - 1) * sizeof *wide) : NULL;
    for (size_t k = 0; wide && k + 1 < n; k++)
        if (goes_on(l, k))
            wide[n_wide++] = l[k].columns;
    if (wide)
        qsort(wide, n_wide, sizeof *wide, by_size);
    for (size_t i = 0; i + 1 < n; i++) {
        if (l[i].columns < WRAP_MIN_WIDTH || l[i].columns <= best || ends_with_library(&l[i]))
            continue;
        /* only lines that go on and are as wide count: fewer than two, and
         * the count below cannot reach two (a text of one-width lines
         * between blanks asked the question of every line in vain) */
        if (wide && !twice_in(wide, n_wide, l[i].columns))
            continue;
        size_t same = 0;
        for (size_t k = 0; k + 1 < n && same < 2; k++)
            same += l[k].columns == l[i].columns && goes_on(l, k) &&
                    (k == i || l[k].raw != l[i].raw || memcmp(l[k].s, l[i].s, l[i].raw) != 0 ||
                     l[k + 1].indent < 2);
        if (same >= 2)
            best = l[i].columns;
    }
    free(wide);
    if (best)
        return best;
    /* one long line broken once: a line exactly as wide as a common terminal
     * (80 columns and the other usual widths), followed by more text, with at
     * most the one blank the terminal broke at between them */
    for (size_t i = 0; i + 1 < n; i++)
        for (size_t k = 0; k < sizeof terminal_widths / sizeof terminal_widths[0]; k++)
            if (l[i].columns == terminal_widths[k] && l[i].raw <= l[i].len + 1 && l[i + 1].len &&
                l[i + 1].indent + (l[i].raw - l[i].len) <= 1 && !l[i + 1].quoted &&
                l[i + 1].s[l[i + 1].indent] != '>' && l[i + 1].s[0] != '\t')
                return l[i].columns;
    return 0;
}

/* Whether a line of m bytes that ends inside a path goes on in the next one,
 * as a word-wrapper breaks a long line after a hyphen (a gem's or package's
 * "name-1.2.3" folder): the line's last run (after its last blank, quote or
 * parenthesis) holds a '/' and ends in '-', and the next line starts at its
 * first column with a name, not a path's start (a '/', '~', '.', a drive or
 * a scheme), whose first run reaches a '/' before any blank, quote, comma,
 * colon or parenthesis. */
static bool path_goes_on(const char *s, size_t m, const struct line *next)
{
    if (m < 2 || next->indent != 0 || next->len < 2 || s[m - 1] != '-')
        return false;
    size_t b = m;
    while (b > 0 && !strchr(" \t'\"`(", s[b - 1]))
        b--;
    if (!memchr(s + b, '/', m - b))
        return false;
    if (!isalnum((unsigned char)next->s[0]))
        return false;
    for (size_t k = 0; k < next->len; k++) {
        char c = next->s[k];
        if (c == '/')
            return true;
        if (strchr(" \t'\"`(),:\\", c))
            return false;
    }
    return false;
}

/* Whether line L starts with a path from a drive ("C:\\", "c:/"). */
static bool drive_path(const struct line *l)
{
    return l->len >= 3 && l->indent == 0 && isalpha((unsigned char)l->s[0]) && l->s[1] == ':' &&
           (l->s[2] == '\\' || l->s[2] == '/');
}

/* The code point of the UTF-8 character at S (N bytes left), its length in
 * *LEN; 0 when S holds none. */
static unsigned utf8_at(const unsigned char *s, size_t n, size_t *len)
{
    *len = 1;
    if (s[0] < 0x80)
        return s[0];
    size_t k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!k || k > n)
        return 0;
    unsigned u = s[0] & (0x7f >> k);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        u = u << 6 | (s[i] & 0x3f);
    }
    *len = k;
    return u;
}

/* The byte (0x80-0xFF) whose glyph is U in the consoles' OEM code pages
 * 437 and 850 (data/codepages.tsv), else 0. */
static unsigned char oem_byte(unsigned u)
{
    static uint16_t units[2][128];
    static bool loaded;
    if (!loaded) {
        loaded = true;
        td_text_codepage_high(437, units[0]);
        td_text_codepage_high(850, units[1]);
    }
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < 128; i++)
            if (units[c][i] == u)
                return (unsigned char)(0x80 + i);
    return 0;
}

/* UTF-8 that a Windows console showed in its OEM code page and the user
 * copied from there: each byte of a two-byte character became the glyph of
 * that byte in code page 437 or 850 ("Não" -> "N├úo", "módulo" ->
 * "m├│dulo"). A pair of glyphs whose bytes are a UTF-8 lead (0xC2-0xDF)
 * and a continuation (0x80-0xBF), next to an ASCII letter, is made the
 * character again; box drawing (├──) has no continuation after its lead. */
static size_t undo_oem_mojibake(char *s, size_t n)
{
    const unsigned char *u8 = (const unsigned char *)s;
    bool any = false;
    for (size_t i = 0; i + 1 < n && !any; i++)
        any = u8[i] == 0xe2 && u8[i + 1] >= 0x94 && u8[i + 1] <= 0x96; /* U+2500-U+25BF */
    if (!any)
        return n;
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t l1, l2 = 0;
        unsigned c1 = utf8_at(u8 + i, n - i, &l1);
        unsigned c2 = c1 >= 0x80 && i + l1 < n ? utf8_at(u8 + i + l1, n - i - l1, &l2) : 0;
        unsigned char b1 = c1 >= 0x80 ? oem_byte(c1) : 0, b2 = c2 >= 0x80 ? oem_byte(c2) : 0;
        bool letter_near = (o > 0 && isalpha((unsigned char)s[o - 1])) ||
                           (i + l1 + l2 < n && isalpha(u8[i + l1 + l2]));
        if (b1 >= 0xc2 && b1 <= 0xdf && b2 >= 0x80 && b2 <= 0xbf && letter_near) {
            s[o++] = (char)b1;
            s[o++] = (char)b2;
            i += l1 + l2;
            continue;
        }
        memmove(s + o, s + i, l1);
        o += l1;
        i += l1;
    }
    return o;
}

/* A plain word at S: ASCII letters only, between blanks or punctuation (a
 * word joined to a dot, digit, underscore, slash or dash is a file's or a
 * symbol's). Returns its length, 0 when S starts no plain word. */
static size_t plain_word(const char *line, const char *s, const char *end)
{
    static const char joins[] = "._-\\/@$?%";
    if (s > line && (isalnum((unsigned char)s[-1]) || strchr(joins, s[-1])))
        return 0;
    size_t n = 0;
    while (s + n < end && isalpha((unsigned char)s[n]))
        n++;
    if (n == 0 || (s + n < end && (isdigit((unsigned char)s[n]) || s[n] == '_' || s[n] == '-' ||
                                   s[n] == '\\' || s[n] == '/' || s[n] == '@')))
        return 0;
    if (s + n + 1 < end && s[n] == '.' && !isspace((unsigned char)s[n + 1]))
        return 0; /* "Module.dll": a file's name */
    return n;
}

/* Whether the plain word W of N letters is in title case ("Could", "A"). */
static bool title_word(const char *w, size_t n)
{
    if (!isupper((unsigned char)w[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!islower((unsigned char)w[i]))
            return false;
    return n > 1 || w[0] == 'A';
}

/* Whether the word at W opens a sentence: the line's first word, or one
 * after ". ", ": ", "] ", "- ", "! " or "? ", an opening quote or bracket
 * between them and it ("(or one of its dependencies)" is inside one). */
static bool opens_sentence(const char *line, const char *w)
{
    const char *b = w;
    while (b > line && strchr("\"'`([{", b[-1]))
        b--;
    if (b == line)
        return true;
    return b - line >= 2 && b[-1] == ' ' && strchr(".:]-!?", b[-2]);
}

/* Whether the word at W follows "importing " (CPython names the module
 * there, whose name keeps its case). */
static bool names_a_module(const char *line, const char *w)
{
    return w - line >= 10 && strncasecmp(w - 10, "importing ", 10) == 0;
}

/* The next plain word of LINE at or after *S, before END: its start, its
 * length in *N; NULL when none is left. *S moves past it. */
static const char *next_plain_word(const char *line, const char **s, const char *end, size_t *n)
{
    for (; *s < end; (*s)++) {
        size_t w = plain_word(line, *s, end);
        if (w) {
            const char *at = *s;
            *s += w, *n = w;
            return at;
        }
    }
    return NULL;
}

/* Whether LINE (up to END) is in title case: three title-case words or
 * more, and at least twice as many as words in lower case. */
static bool title_case_line(const char *line, const char *end)
{
    size_t title = 0, lower = 0, n;
    for (const char *s = line, *w; (w = next_plain_word(line, &s, end, &n)) != NULL;) {
        title += title_word(w, n);
        lower += n > 1 && islower((unsigned char)w[0]);
    }
    return title >= 3 && title >= 2 * lower;
}

char *td_explain_sentence_case(const char *text, size_t len, struct td_arena *a)
{
    char *out = NULL;
    const char *stop = text + len;
    for (const char *line = text; line < stop;) {
        const char *nl = memchr(line, '\n', (size_t)(stop - line));
        const char *end = nl ? nl : stop;
        if (title_case_line(line, end)) {
            if (!out && (out = td_arena_alloc(a, len + 1)) != NULL) {
                memcpy(out, text, len);
                out[len] = '\0';
            }
            if (!out)
                return NULL;
            size_t n;
            for (const char *s = line, *w; (w = next_plain_word(line, &s, end, &n)) != NULL;)
                if (title_word(w, n) && !opens_sentence(line, w) && !names_a_module(line, w))
                    out[w - text] = (char)tolower((unsigned char)*w);
        }
        line = end + (end < stop);
    }
    return out;
}

char *td_explain_clean(const char *text, size_t len, struct td_arena *a)
{
    char *flat = td_arena_alloc(a, len + 1);
    char *out = td_arena_alloc(a, len + 1);
    if (!flat || !out)
        return NULL;
    size_t n = decode_html(flat, undo_oem_mojibake(flat, strip(text, len, flat)));
    /* twice: a message escaped inside one escaped again (a repr's list in a
     * JSON record, "[\'...X\\\\n  Referenced from: Y\']") */
    n = strip_timestamps(flat, unescape_newlines(flat, unescape_newlines(flat, n)));
    n = plain_quotes(flat, n);

    size_t count = 1;
    for (size_t i = 0; i < n; i++)
        count += flat[i] == '\n';
    struct line *lines = td_arena_array(a, count, sizeof *lines);
    if (!lines)
        return NULL;
    size_t k = 0;
    for (const char *p = flat; k < count; k++) {
        const char *nl = strchr(p, '\n');
        size_t raw = nl ? (size_t)(nl - p) : strlen(p);
        struct line *l = &lines[k];
        /* a terminal's width counts the quote marks; the message's own
         * lines (and their indentation) start after them */
        l->quoted = quote_prefix_len(p, raw);
        l->s = p + l->quoted;
        l->columns = columns(p, raw);
        l->raw = l->len = raw - l->quoted;
        while (l->len && (l->s[l->len - 1] == ' ' || l->s[l->len - 1] == '\t'))
            l->len--;
        while (l->indent < l->len && l->s[l->indent] == ' ')
            l->indent++;
        for (size_t i = 0; i < l->len; i++)
            l->quotes += l->s[i] == '"';
        p = nl ? nl + 1 : p + raw;
    }
    for (size_t i = 0; i < count; i++) {
        struct line *l = &lines[i];
        bool starts = i == 0 || lines[i - 1].len == 0 || fence(&lines[i - 1]);
        if (l->len == 0)
            l->base = 0;
        else if (starts || l->indent < lines[i - 1].base)
            l->base = l->indent;
        else
            l->base = lines[i - 1].base;
    }

    size_t width = wrap_width(lines, count);
    size_t o = 0, out_line = 0; /* where the output's current line starts */
    int open_quote = 0, quote_joins = 0;
    for (size_t i = 0; i < count; i++) {
        const struct line *l = &lines[i];
        const char *s = l->s;
        size_t m = l->len;
        memcpy(out + o, s, m);
        o += m;
        if (i + 1 == count)
            break;
        open_quote = (open_quote + l->quotes) % 2;
        const struct line *next = &lines[i + 1];
        bool terminal_wrap = width && l->columns == width;
        bool in_quote = open_quote && quote_joins < MAX_QUOTE_JOINS && next->len > 0;
        if (terminal_wrap || in_quote) {
            /* The terminal broke the line where it was full: nothing was lost
             * and nothing is to be added. */
            quote_joins += in_quote;
            if (s[m] == ' ' || s[m] == '\t' || (in_quote && drive_path(next)))
                out[o++] = ' '; /* it broke after a blank, which trimming removed
                                   (a wrapped sentence in quotes, "... in \ndynamic"),
                                   or before a path from a drive, which starts a word
                                   ("... library\nC:\\x\\y.dll") */
            continue;
        }
        quote_joins = 0;
        size_t j = i + 1;
        while (j + 1 < count && lines[j].len == 0 && j - i < SOFT_WRAP_BLANKS)
            j++;
        unsigned char first = (unsigned char)lines[j].s[0];
        /* a loader's label whose value the break put on the next line alone
         * ("Symbol not found: " / "__Py_ZeroStruct") */
        bool label_value = m > 0 && s[m - 1] == ':' && lines[j].len > 1 &&
                           !memchr(lines[j].s, ' ', lines[j].len) &&
                           !memchr(lines[j].s, '\t', lines[j].len);
        if (l->raw > l->len && o - out_line >= SOFT_WRAP_MIN && lines[j].len &&
            lines[j].indent == 0 && (islower(first) || first == '(' || label_value)) {
            /* A copy that kept the blank where the window broke the line (and
             * sometimes an empty line after it): a sentence that goes on in
             * lower case on the next line ("version `GLIBCXX_3.4.20' " /
             * "not found (required by ...)", "incompatible " / "architecture"),
             * or a label's value. */
            out[o++] = ' ';
            i = j - 1;
            continue;
        }
        /* dyld's "\n in IMAGE" after "Expected in: X" is a line of its own (the
         * image dlopen was loading), not a sentence that goes on */
        bool dyld_in =
            next->len > 4 && strncmp(next->s, " in ", 4) == 0 && strchr("/@<", next->s[4]);
        if (l->raw == l->len && o - out_line >= SOFT_WRAP_MIN && next->indent == 1 &&
            next->len > 1 && islower((unsigned char)next->s[1]) && !dyld_in) {
            /* The same break with the blank carried to the start of the next
             * line ("...gnu.so: undefined" / " symbol: _ZN3c10..."): a
             * sentence that goes on in lower case after one blank. */
            out[o++] = ' ';
            lines[i + 1].s += 1;
            lines[i + 1].len -= 1;
            lines[i + 1].raw -= 1;
            lines[i + 1].indent = 0;
            continue;
        }
        if (next->indent == 0 && next->len >= 2 && next->s[0] == ':' && next->s[1] == ' ' &&
            m > 0) {
            /* A line that begins with a message's field separator (dyld's
             * "Library not loaded" / ": libuuid.1.1.dylib") continues the line
             * before it: no message starts a line with ": ". */
            continue;
        }
        if (l->raw == l->len && path_goes_on(s, m, next)) {
            /* A window broke a long path where it was full, inside a folder's
             * name ("…/gems/appmap-" / "0.90.1/lib/appmap/appmap.bundle"):
             * the path goes on with no blank. */
            continue;
        }
        if (next->indent >= LOGGER_INDENT && next->indent < next->len && m > 0) {
            /* A logger continued its message on the next line under the
             * message column: one blank stands for the break. */
            out[o++] = ' ';
            lines[i + 1].s += next->indent;
            lines[i + 1].len -= next->indent;
            continue;
        }
        out[o++] = '\n';
        out_line = o;
    }
    out[o] = '\0';
    o = decode_urls(out, o); /* after the joins: a wrapped link is whole again, and
                                a terminal's width is measured as it printed */
    o = halve_backslashes(out, o);
    o = unlink_markdown(out, o); /* after the joins: a wrapped link is whole again */
    o = drop_strong_emphasis(out, o);
    return restore_dll_load_failed(out, o, a);
}
