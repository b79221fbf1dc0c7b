/* POSIX/GNU calls missing from mingw-w64, as small as the program's use
 * of them allows (base/compat.h). */
#include "base/compat.h"
#include "base/ere.h"
#include "base/utf8.h"

#include <ctype.h>
#include <errno.h>
#include <io.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>

#include <windows.h>

void *memrchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    while (n > 0)
        if (p[--n] == (unsigned char)c)
            return (void *)(p + n);
    return NULL;
}

/* Only one thread reads through a descriptor at a time here, so a seek
 * then a read is what pread would do. */
ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
    if (_lseeki64(fd, offset, SEEK_SET) < 0)
        return -1;
    unsigned int n = count > INT_MAX ? INT_MAX : (unsigned int)count;
    return _read(fd, buf, n);
}

char *realpath(const char *path, char *resolved)
{
    wchar_t *w = td_path_to_wide(path), full[32768];
    DWORD n = w ? GetFullPathNameW(w, sizeof full / sizeof full[0], full, NULL) : 0;
    bool exists = n > 0 && n < sizeof full / sizeof full[0] &&
                  GetFileAttributesW(full) != INVALID_FILE_ATTRIBUTES;
    free(w);
    const wchar_t *shown = full;
    if (exists && wcsncmp(full, L"\\\\?\\", 4) == 0)
        shown = full + 4; /* the caller gave the long form; it wants a plain path back */
    char *out = exists ? td_wide_to_utf8(shown) : NULL;
    if (!out)
        return NULL;
    for (char *p = out; *p; p++)
        if (*p == '\\')
            *p = '/';
    if (resolved) { /* the caller's buffer is PATH_MAX bytes, as POSIX says */
        size_t len = strlen(out);
        bool fits = len < PATH_MAX;
        if (fits)
            memcpy(resolved, out, len + 1);
        free(out);
        return fits ? resolved : NULL;
    }
    return out;
}

static bool same_char(char a, char b, int flags)
{
    if (flags & FNM_CASEFOLD)
        return tolower((unsigned char)a) == tolower((unsigned char)b);
    return a == b;
}

/* Matches the bracket expression at *PAT against C and moves *PAT past it. */
static bool in_class(const char **pat, char c, int flags)
{
    const char *p = *pat + 1;
    bool negate = *p == '!' || *p == '^', found = false;
    if (negate)
        p++;
    for (bool first = true; *p && (first || *p != ']'); first = false, p++) {
        if (p[1] == '-' && p[2] && p[2] != ']') {
            unsigned char lo = (unsigned char)p[0], hi = (unsigned char)p[2];
            unsigned char x = (unsigned char)c;
            if (flags & FNM_CASEFOLD)
                x = (unsigned char)tolower(x), lo = (unsigned char)tolower(lo),
                hi = (unsigned char)tolower(hi);
            found |= x >= lo && x <= hi;
            p += 2;
        } else {
            found |= same_char(*p, c, flags);
        }
    }
    *pat = *p ? p + 1 : p;
    return found != negate;
}

int fnmatch(const char *pattern, const char *string, int flags)
{
    const char *p = pattern, *s = string, *star = NULL, *resume = NULL;
    while (*s) {
        if (*p == '*') {
            star = ++p, resume = s;
            continue;
        }
        const char *next = p;
        bool ok = *p == '?'   ? (next = p + 1, true)
                  : *p == '[' ? in_class(&next, *s, flags)
                  : *p        ? (next = p + 1, same_char(*p, *s, flags))
                              : false;
        if (ok) {
            p = next, s++;
        } else if (star) {
            p = star, s = ++resume; /* let the last '*' take one more character */
        } else {
            return FNM_NOMATCH;
        }
    }
    while (*p == '*')
        p++;
    return *p ? FNM_NOMATCH : 0;
}

bool td_host_spelling(char *path)
{
    char *base = td_host_last_sep(path);
    base = base ? base + 1 : path;
    WIN32_FIND_DATAW found;
    if (!*base || strpbrk(base, "*?")) /* FindFirstFile would take them as wildcards */
        return false;
    wchar_t *w = td_path_to_wide(path);
    HANDLE h = w ? FindFirstFileW(w, &found) : INVALID_HANDLE_VALUE;
    free(w);
    if (h == INVALID_HANDLE_VALUE)
        return false;
    FindClose(h);
    char spelled[1024];
    /* Case folding keeps a name's length in UTF-8 for all but a few
     * letters; those keep the caller's spelling. */
    if (td_wide_to_utf8_buf(found.cFileName, spelled, sizeof spelled) == strlen(base))
        memcpy(base, spelled, strlen(base));
    return true;
}

ssize_t readlink(const char *path, char *buf, size_t cap)
{
    (void)path, (void)buf, (void)cap;
    errno = EINVAL;
    return -1;
}

/* Linux's signal numbers with glibc's names and descriptions: the signal
 * texts `explain` looks for (kb/errors_fields.c) come from Linux programs,
 * and Windows has no signals of its own to describe. */
static const char *const signals[][2] = {
    {NULL, NULL},
    {"HUP", "Hangup"},
    {"INT", "Interrupt"},
    {"QUIT", "Quit"},
    {"ILL", "Illegal instruction"},
    {"TRAP", "Trace/breakpoint trap"},
    {"ABRT", "Aborted"},
    {"BUS", "Bus error"},
    {"FPE", "Floating point exception"},
    {"KILL", "Killed"},
    {"USR1", "User defined signal 1"},
    {"SEGV", "Segmentation fault"},
    {"USR2", "User defined signal 2"},
    {"PIPE", "Broken pipe"},
    {"ALRM", "Alarm clock"},
    {"TERM", "Terminated"},
    {"STKFLT", "Stack fault"},
    {"CHLD", "Child exited"},
    {"CONT", "Continued"},
    {"STOP", "Stopped (signal)"},
    {"TSTP", "Stopped"},
    {"TTIN", "Stopped (tty input)"},
    {"TTOU", "Stopped (tty output)"},
    {"URG", "Urgent I/O condition"},
    {"XCPU", "CPU time limit exceeded"},
    {"XFSZ", "File size limit exceeded"},
    {"VTALRM", "Virtual timer expired"},
    {"PROF", "Profiling timer expired"},
    {"WINCH", "Window changed"},
    {"IO", "I/O possible"},
    {"PWR", "Power failure"},
    {"SYS", "Bad system call"},
};

char *strsignal(int sig)
{
    if (sig <= 0 || sig >= (int)(sizeof signals / sizeof signals[0]))
        return "Unknown signal";
    return (char *)signals[sig][1];
}

const char *sigabbrev_np(int sig)
{
    if (sig <= 0 || sig >= (int)(sizeof signals / sizeof signals[0]))
        return NULL;
    return signals[sig][0];
}

int regcomp(regex_t *re, const char *pattern, int cflags)
{
    int flags =
        (cflags & REG_NEWLINE ? TD_ERE_NEWLINE : 0) | (cflags & REG_ICASE ? TD_ERE_ICASE : 0);
    re->re_nsub = 0;
    re->prog = (cflags & REG_EXTENDED) ? td_ere_compile(pattern, flags, &re->re_nsub) : NULL;
    return re->prog ? 0 : REG_BADPAT; /* basic REs are not supported */
}

int regexec(const regex_t *re, const char *string, size_t nmatch, regmatch_t *pmatch, int eflags)
{
    struct td_ere_span spans[32];
    size_t n = nmatch < 32 ? nmatch : 32;
    int flags =
        (eflags & REG_NOTBOL ? TD_ERE_NOTBOL : 0) | (eflags & REG_NOTEOL ? TD_ERE_NOTEOL : 0);
    if (!td_ere_exec_flags(re->prog, string, n, spans, flags))
        return REG_NOMATCH;
    for (size_t k = 0; k < nmatch; k++) {
        pmatch[k].rm_so = k < n ? spans[k].so : -1;
        pmatch[k].rm_eo = k < n ? spans[k].eo : -1;
    }
    return 0;
}

void regfree(regex_t *re)
{
    td_ere_free(re->prog);
    re->prog = NULL;
}
