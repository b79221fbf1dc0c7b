/* /dev/shm's size (probe/distributed/distributed.h): the one place it is
 * read, for the distributed checks and the container probes alike. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef _WIN32
#include <sys/statvfs.h>
#endif

#include "probe/distributed/distributed.h"
#include "probe/probe_util.h"

/* tmpfs's size= option: bytes, or with a k, m, g suffix (tmpfs(5)); a
 * percentage of RAM is left unknown (0). */
static uint64_t tmpfs_size(const char *opts, size_t len)
{
    const char *p = opts, *end = opts + len;
    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        if (stop - p > 5 && strncmp(p, "size=", 5) == 0) {
            char num[32];
            size_t n = (size_t)(stop - p - 5);
            if (n == 0 || n >= sizeof num)
                return 0;
            memcpy(num, p + 5, n);
            num[n] = '\0';
            char *unit;
            unsigned long long v = strtoull(num, &unit, 10);
            int shift = *unit == 'k' || *unit == 'K'   ? 10
                        : *unit == 'm' || *unit == 'M' ? 20
                        : *unit == 'g' || *unit == 'G' ? 30
                        : *unit == '\0'                ? 0
                                                       : -1;
            return shift < 0 || v > (UINT64_MAX >> shift) ? 0 : (uint64_t)v << shift;
        }
        p = stop + 1;
    }
    return 0;
}

uint64_t td_probe_shm_size(const struct td_probe_ctx *ctx, const char **from)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/self/mounts", TD_PROBE_READ_CAP, &len);
    uint64_t size = 0;
    /* "tmpfs /dev/shm tmpfs rw,nosuid,size=65536k 0 0": the last such line wins. */
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char dev[256], dir[256], type[64], opts[1024];
        if (sscanf(line, "%255s %255s %63s %1023s", dev, dir, type, opts) == 4 &&
            strcmp(dir, "/dev/shm") == 0 && strcmp(type, "tmpfs") == 0) {
            uint64_t s = tmpfs_size(opts, strlen(opts));
            if (s) {
                size = s;
                *from = "/proc/self/mounts";
            }
        }
        if (!next)
            break;
    }
    free(text);
#ifndef _WIN32
    struct statvfs v;
    if (!size && (!ctx->root || strcmp(ctx->root, "/") == 0) && statvfs("/dev/shm", &v) == 0 &&
        v.f_blocks) {
        size = (uint64_t)v.f_blocks * v.f_frsize;
        *from = "statvfs(/dev/shm)";
    }
#endif
    return size;
}
