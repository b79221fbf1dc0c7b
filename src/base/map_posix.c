/* Read-only mmap of an input file (PROT_READ only, MAP_PRIVATE): POSIX. */
#include "base/map.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int td_map_open(const char *path, struct td_map *m, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    int rc = -1;
    if (fstat(fd, &st) != 0) {
        td_err_set(err, "%s: cannot stat: %s", path, strerror(errno));
        goto out;
    }
    if (S_ISDIR(st.st_mode)) {
        td_err_set(err, "%s: is a directory", path);
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        td_err_set(err, "%s: not a regular file", path);
        goto out;
    }
    rc = td_map_fd(fd, (uint64_t)st.st_size, path, m, err);
out:
    close(fd);
    return rc;
}

int td_map_fd(int fd, uint64_t size, const char *path, struct td_map *m, struct td_err *err)
{
    memset(m, 0, sizeof *m);
    if (size == 0) {
        static const uint8_t empty[1];
        m->data = empty;
        return 0;
    }
    if ((uint64_t)(size_t)size != size) {
        td_err_set(err, "%s: too large to map", path);
        return -1;
    }
    void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
        td_err_set(err, "%s: cannot map: %s", path, strerror(errno));
        return -1;
    }
    m->data = p;
    m->size = (size_t)size;
    m->mapped = 1;
    return 0;
}

void td_map_close(struct td_map *m)
{
    if (m->mapped && m->data)
        munmap((void *)(m->data - m->lead), m->size + m->lead);
    memset(m, 0, sizeof *m);
}

void *td_map_scratch(size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void td_map_scratch_free(void *p, size_t size)
{
    if (p)
        munmap(p, size);
}

bool td_file_identity(const char *path, uint64_t *dev, uint64_t *ino)
{
    struct stat st;
    bool ok = stat(path, &st) == 0;
    *dev = ok ? (uint64_t)st.st_dev : 0;
    *ino = ok ? (uint64_t)st.st_ino : 0;
    return ok;
}

void td_map_release(const struct td_map *m, uint64_t off, uint64_t len)
{
    if (!m->mapped || off >= m->size)
        return;
    if (len > m->size - off)
        len = m->size - off;
    /* Only whole pages inside the range: the ends may still be in use. */
    long page = sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)(m->data + off), end = start + (uintptr_t)len;
    uintptr_t a = (start + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
    uintptr_t b = end & ~((uintptr_t)page - 1);
    if (page > 0 && b > a)
        madvise((void *)a, b - a, MADV_DONTNEED);
}
