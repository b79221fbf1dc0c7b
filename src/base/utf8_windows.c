/* UTF-8 inside, UTF-16 at the edges: the one place the Windows build
 * converts between the program's strings (UTF-8) and the ...W functions'
 * (base/utf8.h), and the file system calls of base/compat.h built on it. */
#include "base/utf8.h"
#include "base/compat.h"

#include <errno.h>
#include <io.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <windows.h>

/* The conversions are exact: an invalid sequence fails rather than
 * becoming U+FFFD, so a name is never silently turned into another. */
wchar_t *td_utf8_to_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) != n) {
        free(w);
        w = NULL;
    }
    if (!w)
        errno = EILSEQ;
    return w;
}

char *td_wide_to_utf8(const wchar_t *w)
{
    int n = WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, NULL, 0, NULL, NULL);
    char *s = n > 0 ? malloc((size_t)n) : NULL;
    if (s && WideCharToMultiByte(CP_UTF8, WC_ERR_INVALID_CHARS, w, -1, s, n, NULL, NULL) != n) {
        free(s);
        s = NULL;
    }
    return s;
}

size_t td_wide_to_utf8_buf(const wchar_t *w, char *out, size_t cap)
{
    char *s = td_wide_to_utf8(w);
    size_t n = s ? strlen(s) : 0;
    if (!s || n >= cap) {
        free(s);
        if (cap)
            out[0] = '\0';
        return 0;
    }
    memcpy(out, s, n + 1);
    free(s);
    return n;
}

/* Past MAX_PATH the ...W functions want the "\\?\" form: absolute,
 * backslashes only, no "." or ".." ("Maximum Path Length Limitation",
 * Microsoft Learn), which GetFullPathNameW produces. */
static wchar_t *long_form(const wchar_t *w)
{
    DWORD n = GetFullPathNameW(w, 0, NULL, NULL);
    wchar_t *full = n ? malloc(((size_t)n + 8) * sizeof *full) : NULL;
    if (!full || GetFullPathNameW(w, n, full + 8, NULL) >= n) {
        free(full);
        return NULL;
    }
    const wchar_t *body = full + 8;
    const wchar_t *prefix = L"\\\\?\\";
    if (body[0] == L'\\' && body[1] == L'\\') /* \\server\share\x: \\?\UNC\server\share\x */
        body += 2, prefix = L"\\\\?\\UNC\\";
    size_t plen = wcslen(prefix);
    memmove(full, prefix, plen * sizeof *full);
    memmove(full + plen, body, (wcslen(body) + 1) * sizeof *full);
    return full;
}

wchar_t *td_path_to_wide(const char *path)
{
    wchar_t *w = td_utf8_to_wide(path);
    if (!w || wcslen(w) < MAX_PATH - 12 || wcsncmp(w, L"\\\\?\\", 4) == 0)
        return w; /* 12: CreateDirectory's limit is MAX_PATH less an 8.3 name */
    wchar_t *full = long_form(w);
    free(w);
    return full;
}

char **td_utf8_argv(int argc, wchar_t **wargv)
{
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    for (int i = 0; argv && i < argc; i++)
        if (!(argv[i] = td_wide_to_utf8(wargv[i]))) {
            td_utf8_argv_free(argv);
            return NULL;
        }
    return argv;
}

void td_utf8_argv_free(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

char **td_environ_utf8(void)
{
    wchar_t *block = GetEnvironmentStringsW();
    if (!block)
        return NULL;
    size_t n = 0;
    for (const wchar_t *e = block; *e; e += wcslen(e) + 1)
        n++;
    char **env = calloc(n + 1, sizeof *env);
    size_t k = 0;
    for (const wchar_t *e = block; env && *e; e += wcslen(e) + 1)
        if (*e != L'=' && (env[k] = td_wide_to_utf8(e))) /* "=C:=C:\x": cmd's drive cwds */
            k++;
    FreeEnvironmentStringsW(block);
    return env;
}

const char *td_win_error_text(unsigned long code, char *out, size_t cap)
{
    wchar_t w[512];
    DWORD n = FormatMessageW(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             (DWORD)code, 0, w, sizeof w / sizeof w[0], NULL);
    while (n > 0 && (w[n - 1] == L'\n' || w[n - 1] == L'\r' || w[n - 1] == L'.'))
        w[--n] = L'\0';
    if (n == 0 || td_wide_to_utf8_buf(w, out, cap) == 0)
        snprintf(out, cap, "Windows error %lu", code);
    return out;
}

/* The C runtime's narrow functions take the ANSI code page; these take
 * UTF-8 and call the wide ones. Each returns what the narrow one would. */
FILE *td_fopen(const char *path, const char *mode)
{
    wchar_t *w = td_path_to_wide(path), *wmode = td_utf8_to_wide(mode);
    FILE *f = w && wmode ? _wfopen(w, wmode) : NULL;
    free(w);
    free(wmode);
    return f;
}

/* open itself, defined here so that the C runtime's (in its import
 * library) is not linked: a macro would also rename members called open.
 * Binary unless text is asked for: the C runtime's default is text mode,
 * which turns CRLF into LF and stops at ^Z, so a hash or a header read
 * through a plain open() would see other bytes than the file holds. */
int open(const char *path, int flags, ...)
{
    if (!(flags & O_TEXT))
        flags |= O_BINARY;
    int mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    wchar_t *w = td_path_to_wide(path);
    int fd = w ? _wopen(w, flags, mode) : -1;
    free(w);
    return fd;
}

/* struct stat is _stat64's (x64) or _stati64's (x86): base/compat.h. */
int td_stat(const char *path, struct stat *st)
{
    wchar_t *w = td_path_to_wide(path);
#ifdef _USE_32BIT_TIME_T
    int rc = w ? _wstati64(w, st) : -1;
#else
    int rc = w ? _wstat64(w, st) : -1;
#endif
    free(w);
    return rc;
}

int td_access(const char *path, int mode)
{
    wchar_t *w = td_path_to_wide(path);
    int rc = w ? _waccess(w, mode & ~X_OK) : -1; /* msvcrt rejects X_OK */
    free(w);
    return rc;
}

char *td_getcwd(char *buf, size_t cap)
{
    wchar_t w[32768];
    DWORD n = GetCurrentDirectoryW(sizeof w / sizeof w[0], w);
    if (n == 0 || n >= sizeof w / sizeof w[0] || td_wide_to_utf8_buf(w, buf, cap) == 0) {
        errno = ERANGE;
        return NULL;
    }
    return buf;
}

/* Values are converted once per name and kept, since callers hold on to
 * getenv's pointer; a value that changed gets a new entry. */
struct env_entry {
    struct env_entry *next;
    char *name, *value;
};
static struct env_entry *env_cache;
static SRWLOCK env_lock = SRWLOCK_INIT;

static const char *cached_value(const char *name, const char *value)
{
    for (struct env_entry *e = env_cache; e; e = e->next)
        if (strcmp(e->name, name) == 0 && strcmp(e->value, value) == 0)
            return e->value;
    struct env_entry *e = malloc(sizeof *e);
    if (!e)
        return NULL;
    e->name = strdup(name);
    e->value = strdup(value);
    if (!e->name || !e->value) {
        free(e->name), free(e->value), free(e);
        return NULL;
    }
    e->next = env_cache;
    env_cache = e;
    return e->value;
}

char *td_getenv(const char *name)
{
    wchar_t *wname = td_utf8_to_wide(name);
    DWORD n = wname ? GetEnvironmentVariableW(wname, NULL, 0) : 0;
    wchar_t *w = n ? malloc((size_t)n * sizeof *w) : NULL;
    const char *found = NULL;
    if (w && GetEnvironmentVariableW(wname, w, n) < n) {
        char *value = td_wide_to_utf8(w);
        AcquireSRWLockExclusive(&env_lock);
        found = value ? cached_value(name, value) : NULL;
        ReleaseSRWLockExclusive(&env_lock);
        free(value);
    }
    free(w);
    free(wname);
    return (char *)found;
}

/* Directory listing with FindFirstFileW/FindNextFileW, names in UTF-8. */
struct td_dir {
    HANDLE find;
    WIN32_FIND_DATAW data;
    bool pending; /* data holds an entry not yet returned */
    struct td_dirent entry;
};

td_dir *td_opendir(const char *path)
{
    size_t len = strlen(path);
    char *pattern = malloc(len + 3);
    if (!pattern)
        return NULL;
    memcpy(pattern, path, len);
    bool sep = len > 0 && (path[len - 1] == '/' || path[len - 1] == '\\');
    memcpy(pattern + len, sep ? "*" : "\\*", sep ? 2 : 3);
    wchar_t *w = td_path_to_wide(pattern);
    free(pattern);
    td_dir *d = w ? calloc(1, sizeof *d) : NULL;
    if (d) {
        d->find = FindFirstFileExW(w, FindExInfoBasic, &d->data, FindExSearchNameMatch, NULL, 0);
        d->pending = d->find != INVALID_HANDLE_VALUE;
        if (!d->pending && GetLastError() != ERROR_FILE_NOT_FOUND) {
            free(d); /* no such directory (an empty one still lists "." and "..") */
            d = NULL;
            errno = ENOENT;
        }
    }
    free(w);
    return d;
}

struct td_dirent *td_readdir(td_dir *d)
{
    while (d->pending) {
        bool ok =
            td_wide_to_utf8_buf(d->data.cFileName, d->entry.d_name, sizeof d->entry.d_name) > 0;
        d->pending = FindNextFileW(d->find, &d->data) != 0;
        if (ok)
            return &d->entry;
    }
    return NULL;
}

int td_closedir(td_dir *d)
{
    if (d->find != INVALID_HANDLE_VALUE)
        FindClose(d->find);
    free(d);
    return 0;
}
