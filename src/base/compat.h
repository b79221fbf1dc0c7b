/* What differs between the machines torchdoctor runs on: the few POSIX/GNU
 * calls that mingw-w64's C library lacks (compat_windows.c; elsewhere only
 * the system headers, so Linux builds use libc's own), and how this
 * machine separates the components of its own paths. */
#ifndef TD_BASE_COMPAT_H
#define TD_BASE_COMPAT_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef _WIN32
#include <direct.h>
#include <dirent.h>
#include <io.h>
#include <limits.h>
#include <stdlib.h>

/* The C runtime's narrow calls take the ANSI code page, which cannot name
 * every file and garbles the rest: these UTF-8 versions call the ...W
 * functions (base/utf8_windows.c, "\\?\" paths past MAX_PATH), and the
 * names below make every caller use them (open, which struct members are
 * also called, is replaced by name in utf8_windows.c instead). A path is as long as Windows
 * allows (32767 UTF-16 units), not MAX_PATH bytes. */
FILE *td_fopen(const char *path, const char *mode);
int td_stat(const char *path, struct stat *st);
int td_access(const char *path, int mode);
char *td_getcwd(char *buf, size_t cap);
char *td_getenv(const char *name);
typedef struct td_dir td_dir;
struct td_dirent {
    char d_name[1024]; /* 255 UTF-16 units at most 3 bytes each */
};
td_dir *td_opendir(const char *path);
struct td_dirent *td_readdir(td_dir *d);
int td_closedir(td_dir *d);
#define fopen(p, m) td_fopen(p, m)
/* With _FILE_OFFSET_BITS=64 stat is _stat64 (x64) or _stati64 (x86). */
#ifdef _USE_32BIT_TIME_T
#define _stati64(p, s) td_stat(p, s)
#else
#define _stat64(p, s) td_stat(p, s)
#endif
#define access(p, m) td_access(p, m)
#define getcwd(b, n) td_getcwd(b, n)
#define getenv(n) td_getenv(n)
/* A console stays a terminal while base/console_windows.c relays it. */
int td_isatty(int fd);
#define isatty(fd) td_isatty(fd)
#define DIR td_dir
#define dirent td_dirent
#define opendir(p) td_opendir(p)
#define readdir(d) td_readdir(d)
#define closedir(d) td_closedir(d)
#undef PATH_MAX
#define PATH_MAX 4096

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

/* Symbolic links are not followed anywhere on this build: lstat is stat,
 * readlink fails (EINVAL, "not a link"), and directory entries carry no type. */
#define S_ISLNK(m) 0
static inline int lstat(const char *path, struct stat *st)
{
    return stat(path, st);
}
ssize_t readlink(const char *path, char *buf, size_t cap);
enum { DT_UNKNOWN = 0, DT_DIR = 4, DT_REG = 8 };
#define TD_DIRENT_TYPE(e) ((void)(e), DT_UNKNOWN)
/* Signals by Linux's numbers, as glibc describes ("Illegal instruction")
 * and abbreviates ("ILL") them. */
char *strsignal(int sig);
const char *sigabbrev_np(int sig);

/* POSIX extended regular expressions: mingw-w64 has none, and Debian no
 * mingw regex library, so base/ere.c (a small backtracking matcher,
 * checked against glibc's regexec in tests/base/test_base_ere.c) stands in.
 * Only REG_EXTENDED, REG_NEWLINE and REG_ICASE (compile) and REG_NOTBOL and
 * REG_NOTEOL (exec) are honoured. */
typedef struct {
    void *prog;
    size_t re_nsub;
} regex_t;
typedef long regoff_t;
typedef struct {
    regoff_t rm_so, rm_eo;
} regmatch_t;
enum { REG_EXTENDED = 1, REG_ICASE = 2, REG_NEWLINE = 4, REG_NOSUB = 8 };
enum { REG_NOMATCH = 1, REG_BADPAT = 2, REG_ESPACE = 12 };
enum { REG_NOTBOL = 1, REG_NOTEOL = 2 }; /* regexec's eflags: glibc's values */
int regcomp(regex_t *re, const char *pattern, int cflags);
int regexec(const regex_t *re, const char *string, size_t nmatch, regmatch_t *pmatch, int eflags);
void regfree(regex_t *re);
#else
#include <dirent.h>
#include <fnmatch.h>
#include <regex.h>
#define O_BINARY 0
/* The type of a directory entry (DT_DIR, DT_REG, ...; DT_UNKNOWN: ask stat). */
#define TD_DIRENT_TYPE(e) ((e)->d_type)
#endif

/* An in-memory output stream: open_memstream where libc has it; elsewhere
 * a temporary file read back on close. td_memstream_close returns the
 * bytes written (NUL-terminated, malloc'd; NULL on failure) and their count. */
struct td_memstream {
    FILE *f;
    char *buf; /* open_memstream's */
    size_t len;
};
FILE *td_memstream_open(struct td_memstream *m);
char *td_memstream_close(struct td_memstream *m, size_t *len);

/* A separator of this machine's paths: '/', and on Windows '\\' too. */
#ifdef _WIN32
#define TD_HOST_SEP(c) ((c) == '/' || (c) == '\\')
#else
#define TD_HOST_SEP(c) ((c) == '/')
#endif

/* Whether PATH (of this machine) is absolute: "/x", and on Windows "C:\x",
 * "C:/x" or "\\server\share" too. */
static inline bool td_host_absolute(const char *path)
{
#ifdef _WIN32
    if (((path[0] | 0x20) >= 'a' && (path[0] | 0x20) <= 'z') && path[1] == ':' &&
        TD_HOST_SEP(path[2]))
        return true;
#endif
    return TD_HOST_SEP(path[0]);
}

/* How this machine separates the directories of PATH, and names programs. */
#ifdef _WIN32
#define TD_HOST_PATH_LIST_SEP ";"
#define TD_HOST_EXE_SUFFIX ".exe"
#else
#define TD_HOST_PATH_LIST_SEP ":"
#define TD_HOST_EXE_SUFFIX ""
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

/* The platform torchdoctor itself runs on: "linux", "windows" or "macos"
 * (the reports' envelope, check's diagnosis of this machine, and explain's
 * reading of a text that shows no platform of its own). */
static inline const char *td_host_platform(void)
{
#if defined(_WIN32)
    return "windows";
#elif defined(__APPLE__)
    return "macos";
#else
    return "linux";
#endif
}

#endif
