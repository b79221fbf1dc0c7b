/* src/bench/ answers "how fast is this machine for torch, against what
 * it should reach?": CPU and GEMM (bench_cpu.c, bench_gemm.c), memory,
 * disk, torch's import (through src/trace/), the GPUs through the driver
 * (bench_gpu_*.c) and the verdicts (bench_verdict.c). A pipeline above the
 * probes and the tracer.
 *
 * The whole `bench` run (bench/bench.h): CPU, memory, torch's import and
 * matmul, the disk under torch, the GPUs through the driver, then the
 * verdicts. Each part fills its own section; what one part cannot measure
 * it says in that section and the others still run. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bench/bench.h"
#include "probe/probe.h"

/* The largest file in DIR whose name starts with PREFIX and names a shared
 * library, into BEST (its size in *BEST_SIZE, kept when larger). */
static void largest_library(const char *dir, const char *prefix, char *best, size_t cap,
                            long long *best_size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (strncmp(e->d_name, prefix, strlen(prefix)) != 0 ||
            (!strstr(e->d_name, ".so") && !strstr(e->d_name, ".dll")))
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > *best_size) {
            *best_size = st.st_size;
            snprintf(best, cap, "%s", path);
        }
    }
    if (d)
        closedir(d);
}

/* A big torch library to read: the largest in torch/lib (wheels, conda),
 * else libtorch_cpu in the system's library directories (Debian's
 * python3-torch keeps it in /usr/lib/<triplet>). */
static const char *torch_library(const char *torch_dir, struct td_arena *arena)
{
    static const char *const system_dirs[] = {
        "/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib", NULL};
    char best[4096] = "", dir[4096];
    long long size = 0;
    if (!torch_dir)
        return NULL;
    snprintf(dir, sizeof dir, "%s/lib", torch_dir);
    largest_library(dir, "", best, sizeof best, &size);
    for (const char *const *s = system_dirs; size < (16 << 20) && *s; s++)
        largest_library(*s, "libtorch_cpu", best, sizeof best, &size);
    return best[0] ? td_arena_strdup(arena, best) : NULL;
}

/* torch's matmul is held against what our own kernel reached on as many
 * cores as torch uses: a tuned BLAS beats a simple blocked kernel, so far
 * less means the BLAS is the problem. Half, not 80%: both runs share a
 * machine whose load we do not control, and torch splits one matrix where
 * we run one per thread. */
static void torch_expectation(struct td_bench *b, struct td_arena *arena)
{
    struct td_bench_figure *m = &b->import.matmul_fp32;
    const struct td_bench_cpu *c = &b->cpu;
    if (!m->measured)
        return;
    if (!c->gemm_1core.measured || !c->gemm_all.measured) {
        m->source = "unknown: bench's own GEMM was not measured";
        return;
    }
    unsigned threads = b->import.torch_threads > 0 ? (unsigned)b->import.torch_threads : 1;
    bool all = threads >= c->threads;
    char src[300];
    m->expected = all ? c->gemm_all.value : c->gemm_1core.value * threads;
    snprintf(src, sizeof src,
             "bench's own %s GEMM measured on this CPU just before, on %u thread%s as torch "
             "uses; a BLAS should reach at least half of it",
             c->isa, all ? c->threads : threads, (all ? c->threads : threads) == 1 ? "" : "s");
    m->source = td_arena_strdup(arena, src);
}

/* torch's FP32 matmul on the GPU against the FMA kernel the driver API ran
 * on the same GPU just before: does torch get what the driver gets? */
static void torch_gpu_expectation(struct td_bench *b, struct td_arena *arena)
{
    struct td_bench_figure *m = &b->import.cuda_fp32;
    const struct td_bench_gpu *g = b->gpu.n_gpus ? &b->gpu.gpus[0] : NULL;
    if (!m->measured)
        return;
    m->source = "unknown: the driver API's FMA kernel was not measured on GPU 0";
    if (!g || !g->fp32_fma.measured)
        return;
    char src[300];
    m->expected = g->fp32_fma.value;
    snprintf(src, sizeof src,
             "bench's FMA kernel through the driver API on GPU 0 just before (%.0f GFLOP/s); "
             "cuBLAS should reach at least half of it",
             g->fp32_fma.value);
    m->source = td_arena_strdup(arena, src);
}

void td_bench_run(const struct td_bench_options *o, struct td_bench *b, struct td_arena *arena)
{
    double t0 = td_bench_now();
    memset(b, 0, sizeof *b);
    b->host = td_probe_hostname(arena);
    td_bench_cpu_run(o, &b->cpu, arena);
    td_bench_memory_run(o, b->cpu.threads, &b->memory, arena);
    td_bench_import_run(o, &b->import, arena);
    torch_expectation(b, arena);
    td_bench_disk_run(o, torch_library(b->import.torch_dir, arena), &b->disk, arena);
    b->gpu.probed = !o->no_gpu;
    if (!o->no_gpu)
        td_bench_gpu_run(o, &b->gpu, arena);
    torch_gpu_expectation(b, arena);
    td_bench_verdicts(b);
    b->elapsed_s = td_bench_now() - t0;
}

void td_bench_free(struct td_bench *b)
{
    td_findings_free(&b->findings);
}
