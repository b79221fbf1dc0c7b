/* Read-only mapping of an input file on Windows: CreateFileMapping with
 * PAGE_READONLY and a FILE_MAP_READ view, the counterpart of map_posix.c. */
#include "base/map.h"
#include "base/compat.h"
#include "base/utf8.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <windows.h>

/* The message of GetLastError(), on one line, in UTF-8. */
static const char *last_error(char *out, size_t cap)
{
    return td_win_error_text(GetLastError(), out, cap);
}

/* CreateFileW on PATH (UTF-8; the long form past MAX_PATH). */
static HANDLE open_file(const char *path, DWORD access, DWORD flags)
{
    wchar_t *w = td_path_to_wide(path);
    if (!w) {
        SetLastError(ERROR_NO_UNICODE_TRANSLATION);
        return INVALID_HANDLE_VALUE;
    }
    HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                           OPEN_EXISTING, flags, NULL);
    free(w);
    return h;
}

int td_map_open(const char *path, struct td_map *m, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    char why[256];
    struct stat st;
    if (stat(path, &st) != 0) {
        td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        td_err_set(err, "%s: is a directory", path);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        td_err_set(err, "%s: not a regular file", path);
        return -1;
    }
    /* Others may keep writing or even delete the file while we read it,
     * as they may on Linux. */
    HANDLE file = open_file(path, GENERIC_READ, FILE_ATTRIBUTE_NORMAL);
    if (file == INVALID_HANDLE_VALUE) {
        td_err_set(err, "%s: cannot open: %s", path, last_error(why, sizeof why));
        return -1;
    }
    int rc = -1;
    HANDLE mapping = NULL;
    LARGE_INTEGER size;
    if (!GetFileSizeEx(file, &size)) {
        td_err_set(err, "%s: cannot stat: %s", path, last_error(why, sizeof why));
        goto out;
    }
    if (size.QuadPart == 0) {
        static const uint8_t empty[1];
        m->data = empty;
        rc = 0;
        goto out;
    }
    if ((uint64_t)size.QuadPart > SIZE_MAX) {
        td_err_set(err, "%s: %llu bytes do not fit in this 32-bit process", path,
                   (unsigned long long)size.QuadPart);
        goto out;
    }
    mapping = CreateFileMappingW(file, NULL, PAGE_READONLY, 0, 0, NULL);
    const void *view = mapping ? MapViewOfFile(mapping, FILE_MAP_READ, 0, 0, 0) : NULL;
    if (!view) {
        td_err_set(err, "%s: cannot map: %s", path, last_error(why, sizeof why));
        goto out;
    }
    m->data = view;
    m->size = (size_t)size.QuadPart;
    m->mapped = 1;
    rc = 0;
out:
    /* The view keeps the mapping alive; neither handle is needed after. */
    if (mapping)
        CloseHandle(mapping);
    CloseHandle(file);
    return rc;
}

void td_map_close(struct td_map *m)
{
    if (m->mapped && m->data)
        UnmapViewOfFile(m->data);
    memset(m, 0, sizeof *m);
}

void *td_map_scratch(size_t size)
{
    return VirtualAlloc(NULL, size, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

void td_map_scratch_free(void *p, size_t size)
{
    if (p)
        VirtualFree(p, 0, MEM_RELEASE);
}

/* Windows has no st_ino (mingw's stat leaves it 0): the volume serial
 * number and the 64-bit file index name a file on NTFS and FAT alike
 * (BY_HANDLE_FILE_INFORMATION, "GetFileInformationByHandle"). */
bool td_file_identity(const char *path, uint64_t *dev, uint64_t *ino)
{
    *dev = *ino = 0;
    HANDLE file = open_file(path, 0, FILE_FLAG_BACKUP_SEMANTICS);
    if (file == INVALID_HANDLE_VALUE)
        return false;
    BY_HANDLE_FILE_INFORMATION info;
    bool ok = GetFileInformationByHandle(file, &info) != 0;
    if (ok) {
        *dev = info.dwVolumeSerialNumber;
        *ino = ((uint64_t)info.nFileIndexHigh << 32) | info.nFileIndexLow;
    }
    CloseHandle(file);
    return ok;
}

void td_map_release(const struct td_map *m, uint64_t off, uint64_t len)
{
    (void)m;
    (void)off;
    (void)len;
}

int td_open_file(const char *path, struct td_err *err)
{
    struct td_err ignore = {0};
    struct stat st;
    err = err ? err : &ignore;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_BINARY);
    if (fd < 0) {
        td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0)
        td_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
    else if (S_ISREG(st.st_mode))
        return fd;
    else
        td_err_set(err, S_ISDIR(st.st_mode) ? "%s: is a directory" : "%s: not a regular file",
                   path);
    close(fd);
    errno = EINVAL;
    return -1;
}

bool td_map_shrank(const struct td_map *m)
{
    (void)m;
    return false;
}
