/* Output files: a report renamed into place when whole, a log appended to
 * under a lock (outfile.h). */
#include "base/outfile.h"
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef _WIN32
#include <io.h>
#include <windows.h>

#include "base/utf8.h"
#else
#include <sys/file.h>
#endif

/* A new file TMP beside PATH, opened for writing. */
static FILE *open_beside(const char *path, char *tmp, size_t cap)
{
#ifdef _WIN32
    static unsigned serial;
    snprintf(tmp, cap, "%s.td-%lu-%u.tmp", path, (unsigned long)GetCurrentProcessId(), serial++);
    wchar_t *w = td_path_to_wide(tmp);
    /* Text mode, as fopen(path, "w") wrote reports before: a .bat needs CRLF. */
    FILE *f = w ? _wfopen(w, L"wx") : NULL;
    free(w);
    return f;
#else
    snprintf(tmp, cap, "%s.td-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return NULL;
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask); /* as fopen would have created it */
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(tmp);
    }
    return f;
#endif
}

static bool replace(const char *tmp, const char *path)
{
#ifdef _WIN32
    wchar_t *from = td_path_to_wide(tmp), *to = td_path_to_wide(path);
    bool ok = from && to && MoveFileExW(from, to, MOVEFILE_REPLACE_EXISTING);
    free(from);
    free(to);
    return ok;
#else
    return rename(tmp, path) == 0;
#endif
}

FILE *td_outfile_open(struct td_outfile *o, const char *path, struct td_err *err)
{
    memset(o, 0, sizeof *o);
    if (strlen(path) >= sizeof o->path) {
        td_err_set(err, "%s: cannot write: the name is too long", path);
        return NULL;
    }
    memcpy(o->path, path, strlen(path) + 1);
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        o->f = fopen(path, "wb"); /* a device or a FIFO: written in place */
    else
        o->f = open_beside(path, o->tmp, sizeof o->tmp);
    if (!o->f)
        td_err_set(err, "%s: cannot write: %s", path, strerror(errno));
    return o->f;
}

bool td_outfile_commit(struct td_outfile *o, struct td_err *err)
{
    bool ok = fflush(o->f) == 0 && !ferror(o->f);
    int e = errno;
#ifndef _WIN32
    if (ok && o->tmp[0] && fsync(fileno(o->f)) != 0)
        ok = false, e = errno;
#endif
    if (fclose(o->f) != 0 && ok)
        ok = false, e = errno;
    o->f = NULL;
    if (ok && o->tmp[0] && !replace(o->tmp, o->path))
        ok = false, e = errno;
    if (!ok) {
        td_err_set(err, "%s: cannot write: %s", o->path, strerror(e ? e : EIO));
        if (o->tmp[0])
            remove(o->tmp);
    }
    return ok;
}

void td_outfile_abort(struct td_outfile *o)
{
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0])
        remove(o->tmp);
}

#ifdef _WIN32
static bool lock(int fd, bool wait)
{
    OVERLAPPED at = {0};
    DWORD how = LOCKFILE_EXCLUSIVE_LOCK | (wait ? 0 : LOCKFILE_FAIL_IMMEDIATELY);
    return LockFileEx((HANDLE)_get_osfhandle(fd), how, 0, MAXDWORD, MAXDWORD, &at);
}
#else
static bool lock(int fd, bool wait)
{
    int rc;
    while ((rc = flock(fd, LOCK_EX | (wait ? 0 : LOCK_NB))) != 0 && errno == EINTR)
        ;
    return rc == 0;
}
#endif

int td_log_open(const char *path, void (*waiting)(const char *path), struct td_err *err)
{
#ifdef _WIN32
    wchar_t *w = td_path_to_wide(path);
    int fd = w ? _wopen(w, O_RDWR | O_CREAT | O_APPEND | O_BINARY | O_NOINHERIT, 0644) : -1;
    free(w);
#else
    int fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC | O_NONBLOCK, 0644);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        close(fd);
        td_err_set(err, "%s: not a regular file: a log must be one", path);
        return -1;
    }
    if (fd >= 0)
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
#endif
    if (fd < 0) {
        td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!lock(fd, false)) {
        if (waiting)
            waiting(path);
        if (!lock(fd, true)) {
            td_err_set(err, "%s: cannot lock: %s", path, strerror(errno));
            close(fd);
            return -1;
        }
    }
    return fd;
}

char *td_log_read(int fd, const char *path, size_t max, size_t *len, struct td_err *err)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_size > max) {
        td_err_set(err, "%s: cannot read: %s", path,
                   (uint64_t)st.st_size > max ? "too large" : strerror(errno));
        return NULL;
    }
    size_t n = (size_t)st.st_size, done = 0;
    char *buf = malloc(n + 1);
    while (buf && done < n) {
        ssize_t r = pread(fd, buf + done, n - done, (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        done += (size_t)r;
    }
    if (!buf || done < n) {
        td_err_set(err, "%s: cannot read: %s", path, buf ? "it shrank" : "out of memory");
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w, n -= (size_t)w;
    }
    return true;
}

bool td_log_append(int fd, const char *path, const char *entry, size_t len, struct td_err *err)
{
    struct stat st;
    char last = '\n';
    bool newline = len == 0 || entry[len - 1] != '\n';
    bool ok = fstat(fd, &st) == 0 &&
              (st.st_size == 0 || pread(fd, &last, 1, (off_t)(st.st_size - 1)) == 1);
    char *whole = ok ? malloc(len + 2) : NULL;
    if (whole) {
        size_t n = 0;
        if (last != '\n')
            whole[n++] = '\n'; /* ends the entry a killed writer cut short */
        memcpy(whole + n, entry, len);
        n += len;
        if (newline)
            whole[n++] = '\n';
        ok = write_all(fd, whole, n);
#ifndef _WIN32
        ok = ok && fsync(fd) == 0;
#endif
    }
    if (!ok || !whole)
        td_err_set(err, "%s: cannot append: %s", path, whole ? strerror(errno) : "out of memory");
    free(whole);
    return ok && whole;
}

void td_log_close(int fd)
{
    if (fd >= 0)
        close(fd); /* the lock goes with the descriptor */
}
