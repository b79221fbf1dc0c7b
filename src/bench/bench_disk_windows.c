/* bench's disk part on Windows: a plain sequential read of the torch
 * library (no unbuffered read yet), so a cached file shows the cache's
 * speed; the method says so. */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

enum { CHUNK = 8 << 20 };

void td_bench_disk_run(const struct td_bench_options *o, const char *path, struct td_bench_disk *d,
                       struct td_arena *arena)
{
    d->read.unit = "MB/s";
    d->read.threshold = 0.5;
    d->cached = -1;
    d->path = path ? td_arena_strdup(arena, path) : NULL;
    d->method = "plain read (the file cache may serve it)";
    d->read.source = "unknown: the disk's rated speed is not known";
    FILE *f = path ? fopen(path, "rb") : NULL;
    char *buf = malloc(CHUNK);
    if (!f || !buf) {
        d->read.source = path ? "not measured: cannot open the file" : "not measured: no torch";
        goto out;
    }
    uint64_t cap = o->quick ? 256ull << 20 : 2048ull << 20, total = 0;
    double t0 = td_bench_now();
    size_t n;
    while (total < cap && (n = fread(buf, 1, CHUNK, f)) > 0)
        total += n;
    double dt = td_bench_now() - t0;
    d->bytes = total;
    d->read.measured = total > 0 && dt > 0;
    d->read.value = d->read.measured ? (double)total / dt * 1e-6 : 0;
out:
    if (f)
        fclose(f);
    free(buf);
}
