/* bench's memory part, after STREAM (McCalpin, "STREAM: Sustainable Memory
 * Bandwidth in High Performance Computers"): read (a sum), copy (a = b) and
 * triad (a = b + s*c) over arrays of doubles each at least four times the
 * last-level cache, one thread per logical CPU on its own slice, best of
 * several passes. Bytes are counted as STREAM does: copy moves 2 words per
 * element, triad 3, read 1. The expected bandwidth needs the memory's type,
 * speed and channels (SMBIOS, root only), so it is unknown here. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"

enum kernel { K_INIT, K_READ, K_COPY, K_TRIAD };

struct slice {
    enum kernel k;
    double *a, *b, *c;
    size_t n;
    double sum; /* K_READ's result, so the reads cannot be dropped */
};

static void *run_slice(void *arg)
{
    struct slice *s = arg;
    double *a = s->a, *b = s->b, *c = s->c;
    size_t n = s->n;
    switch (s->k) {
    case K_INIT: /* first touch by the thread that will use the pages */
        for (size_t i = 0; i < n; i++) {
            a[i] = 1.0;
            b[i] = 2.0;
            c[i] = 0.5;
        }
        break;
    case K_READ: {
        /* Eight independent sums, so the adds' latency never limits the reads. */
        double acc[8] = {0};
        size_t i = 0;
        for (; i + 8 <= n; i += 8)
            for (int j = 0; j < 8; j++)
                acc[j] += b[i + j];
        for (; i < n; i++)
            acc[0] += b[i];
        for (int j = 0; j < 8; j++)
            s->sum += acc[j];
        break;
    }
    case K_COPY:
        for (size_t i = 0; i < n; i++)
            a[i] = b[i];
        break;
    case K_TRIAD:
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] + 3.0 * c[i];
        break;
    }
    return NULL;
}

/* Runs kernel K on THREADS slices of the arrays; its wall time in seconds,
 * or -1 when a thread could not be started. */
static double pass(enum kernel k, double *a, double *b, double *c, size_t n, unsigned threads)
{
    struct slice s[256];
    pthread_t tid[256];
    if (threads > 256)
        threads = 256;
    size_t per = n / threads;
    double t0 = td_bench_now();
    unsigned started = 0;
    bool ok = true;
    for (unsigned i = 0; i < threads; i++) {
        size_t from = i * per, len = i + 1 == threads ? n - from : per;
        s[i] = (struct slice){k, a + from, b + from, c + from, len, 0};
        if (i + 1 == threads) {
            run_slice(&s[i]);
        } else if (pthread_create(&tid[i], NULL, run_slice, &s[i]) == 0) {
            started++;
        } else {
            ok = false;
            break;
        }
    }
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    double dt = td_bench_now() - t0;
    volatile double sink = 0;
    for (unsigned i = 0; i < threads; i++)
        sink += s[i].sum;
    (void)sink;
    return ok ? dt : -1;
}

/* The largest cache sysfs lists for CPU 0, in bytes; 0 unknown. */
static uint64_t llc_bytes(void)
{
    uint64_t best = 0;
    for (int i = 0; i < 16; i++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        unsigned long v = 0;
        char unit = 0;
        if (fscanf(f, "%lu%c", &v, &unit) >= 1) {
            uint64_t bytes = v * (unit == 'K' ? 1024ull : unit == 'M' ? 1048576ull : 1ull);
            if (bytes > best)
                best = bytes;
        }
        fclose(f);
    }
    return best;
}

/* Each array's size: four times the LLC (32 MiB assumed when unknown), at
 * least 64 MiB, at most an eighth of the memory now available. */
static uint64_t array_size(uint64_t llc)
{
    uint64_t want = 4 * (llc ? llc : 32ull << 20);
    if (want < 64ull << 20)
        want = 64ull << 20;
#ifdef _SC_AVPHYS_PAGES
    long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0 && want > (uint64_t)pages * (uint64_t)page / 8 / 3)
        want = (uint64_t)pages * (uint64_t)page / 8 / 3;
#endif
    return want / 64 * 64;
}

static void figure(struct td_bench_figure *f, double best_s, double bytes, const char *source)
{
    f->measured = best_s > 0;
    f->value = best_s > 0 ? bytes / best_s * 1e-9 : 0;
    f->unit = "GB/s";
    f->expected = 0;
    f->threshold = 0.8;
    f->source = source;
}

void td_bench_memory_run(const struct td_bench_options *o, unsigned threads,
                         struct td_bench_memory *m, struct td_arena *arena)
{
    static const char unknown[] = "unknown: the memory's type, speed and channel count are in "
                                  "SMBIOS (root only); not read";
    m->llc_bytes = llc_bytes();
    m->array_bytes = array_size(m->llc_bytes);
    size_t n = (size_t)(m->array_bytes / sizeof(double));
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    (void)arena;
    if (o->progress)
        o->progress(o->progress_ctx, "memory: read, copy, triad");
    if (!a || !b || !c || threads == 0 || pass(K_INIT, a, b, c, n, threads) < 0) {
        const char *why = "not measured: out of memory or no thread";
        figure(&m->read, 0, 0, why);
        figure(&m->copy, 0, 0, why);
        figure(&m->triad, 0, 0, why);
        goto out;
    }
    static const enum kernel kernels[] = {K_READ, K_COPY, K_TRIAD};
    double best[3] = {0, 0, 0};
    int passes = o->quick ? 3 : 8;
    for (int r = 0; r < passes; r++)
        for (int k = 0; k < 3; k++) {
            double dt = pass(kernels[k], a, b, c, n, threads);
            if (dt > 0 && (best[k] == 0 || dt < best[k]))
                best[k] = dt;
        }
    double bytes = (double)n * sizeof(double);
    figure(&m->read, best[0], bytes, unknown);
    figure(&m->copy, best[1], 2 * bytes, unknown);
    figure(&m->triad, best[2], 3 * bytes, unknown);
out:
    free(a);
    free(b);
    free(c);
}
