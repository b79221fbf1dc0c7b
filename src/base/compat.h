/* What differs between the machines torchdoctor runs on: the few POSIX/GNU
 * calls that mingw-w64's C library lacks (compat_windows.c; elsewhere only
 * the system headers, so Linux builds use libc's own), and how this
 * machine separates the components of its own paths. */
#ifndef TD_BASE_COMPAT_H
#define TD_BASE_COMPAT_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef _WIN32
/* Windows descriptors: not inherited by children; binary, untranslated reads. */
#define O_CLOEXEC O_NOINHERIT
#define FNM_NOMATCH 1
#define FNM_CASEFOLD (1 << 4)

void *memrchr(const void *s, int c, size_t n);
ssize_t pread(int fd, void *buf, size_t count, off_t offset);
/* GetFullPathName, with '/' separators (no symbolic links are followed). */
char *realpath(const char *path, char *resolved);
/* '*', '?' and '[...]' (with '!' or '^'), FLAGS 0 or FNM_CASEFOLD. */
int fnmatch(const char *pattern, const char *string, int flags);
/* Rewrites the last component of PATH as it is spelled on disk (names
 * match without regard to case here); false when there is no such file. */
bool td_host_spelling(char *path);
#else
#include <fnmatch.h>
#define O_BINARY 0
#endif

/* A separator of this machine's paths: '/', and on Windows '\\' too. */
#ifdef _WIN32
#define TD_HOST_SEP(c) ((c) == '/' || (c) == '\\')
#else
#define TD_HOST_SEP(c) ((c) == '/')
#endif

/* The last separator in PATH (a path of this machine), or NULL. */
static inline char *td_host_last_sep(const char *path)
{
    const char *last = NULL;
    for (const char *p = path; *p; p++)
        if (TD_HOST_SEP(*p))
            last = p;
    return (char *)last;
}

#endif
