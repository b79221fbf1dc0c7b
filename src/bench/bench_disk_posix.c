/* bench's disk part: the sequential read speed of the disk that holds
 * torch, the rate at which a model's weights and torch's own libraries
 * come in. It reads a big torch library with O_DIRECT, so the disk is
 * measured and not the page cache; where the file system refuses O_DIRECT
 * (tmpfs, some overlays) the file's cached pages are dropped first with
 * posix_fadvise(POSIX_FADV_DONTNEED), and mincore(2) says how much of it
 * was still cached. Reading changes nothing on the system. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"

enum { CHUNK = 8 << 20, PAGE_ALIGN = 4096 };

/* The fraction of PATH's pages in the page cache (mincore), or -1. */
static double cached_fraction(int fd, uint64_t size)
{
    long page = sysconf(_SC_PAGESIZE);
    if (size == 0 || page <= 0)
        return -1;
    void *m = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -1;
    size_t pages = (size_t)((size + (uint64_t)page - 1) / (uint64_t)page), in = 0;
    unsigned char *vec = malloc(pages);
    double out = -1;
    if (vec && mincore(m, (size_t)size, vec) == 0) {
        for (size_t i = 0; i < pages; i++)
            in += vec[i] & 1;
        out = (double)in / (double)pages;
    }
    free(vec);
    munmap(m, (size_t)size);
    return out;
}

/* Reads FD to its end (or CAP bytes) in CHUNK reads into BUF; the bytes
 * read, or -1 when a read fails with ERRNO. */
static long long read_all(int fd, char *buf, uint64_t cap)
{
    long long total = 0;
    while ((uint64_t)total < cap) {
        ssize_t n = read(fd, buf, CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        total += n;
    }
    return total;
}

static void fail(struct td_bench_disk *d, struct td_arena *arena, const char *what,
                 const char *path)
{
    char why[600];
    snprintf(why, sizeof why, "not measured: %s %s: %s", what, path, strerror(errno));
    d->read.source = td_arena_strdup(arena, why);
}

void td_bench_disk_run(const struct td_bench_options *o, const char *path, struct td_bench_disk *d,
                       struct td_arena *arena)
{
    uint64_t cap = o->quick ? 256ull << 20 : 2048ull << 20;
    d->read.unit = "MB/s";
    d->read.threshold = 0.5;
    d->cached = -1;
    d->path = path ? td_arena_strdup(arena, path) : NULL;
    if (!path) {
        d->read.source = "not measured: no torch installation found to read";
        return;
    }
    if (o->progress)
        o->progress(o->progress_ctx, "disk: sequential read of a torch library");
    char *buf = NULL;
    if (posix_memalign((void **)&buf, PAGE_ALIGN, CHUNK) != 0) {
        d->read.source = "not measured: out of memory";
        return;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        fail(d, arena, "cannot open", path);
        goto out;
    }
    d->cached = cached_fraction(fd, (uint64_t)st.st_size);
    int direct = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
    double t0 = td_bench_now();
    long long n = direct >= 0 ? read_all(direct, buf, cap) : -1;
    double dt = td_bench_now() - t0;
    if (direct >= 0)
        close(direct);
    if (n > 0) {
        d->method = "O_DIRECT (the page cache bypassed)";
    } else {
        /* No O_DIRECT here: drop the file's clean cached pages, then read. */
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        d->cached = cached_fraction(fd, (uint64_t)st.st_size);
        d->method = "posix_fadvise(DONTNEED), then a plain read (O_DIRECT refused)";
        t0 = td_bench_now();
        n = read_all(fd, buf, cap);
        dt = td_bench_now() - t0;
        if (n < 0) {
            fail(d, arena, "cannot read", path);
            goto out;
        }
    }
    d->bytes = (uint64_t)n;
    d->read.measured = n > 0 && dt > 0;
    d->read.value = d->read.measured ? (double)n / dt * 1e-6 : 0;
    if (d->method[0] == 'p' && d->cached > 0.1)
        d->read.source = "unknown; and part of the file stayed in the page cache (another "
                         "process maps it), so this is partly the cache's speed";
    else
        d->read.source = "unknown: the disk's rated speed is not readable without its model "
                         "data sheet";
out:
    if (fd >= 0)
        close(fd);
    free(buf);
}
