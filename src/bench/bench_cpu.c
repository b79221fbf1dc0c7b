/* bench's CPU part: what the CPU is (cpuid signature, cores, the frequency
 * the hardware states), the FP32 peak that implies (data/cpu_fma_units.tsv),
 * and our GEMM (bench_gemm.c) measured on one thread and on one thread per
 * logical CPU. A frequency the hypervisor makes up is not a frequency: in a
 * VM only cpuid leaf 0x16 or cpufreq count, else the peak stays unknown. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kb/bench.h"
#include "bench/bench.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TD_X86 1
#endif
#ifdef __linux__
#include <sched.h>
#endif
#ifdef _WIN32
#include <windows.h>
#endif

static void read_signature(struct td_cpu_peak *p, struct td_arena *arena)
{
#ifdef TD_X86
    unsigned a, b, c, d;
    char vendor[13];
    __cpuid(0, a, b, c, d);
    unsigned max_leaf = a;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    p->vendor = td_arena_strdup(arena, vendor);
    __cpuid(1, a, b, c, d);
    /* Intel SDM vol. 2A, CPUID leaf 1 EAX: display family and model. */
    unsigned base_family = a >> 8 & 0xf, base_model = a >> 4 & 0xf;
    p->family = base_family == 0xf ? base_family + (a >> 20 & 0xff) : base_family;
    p->model =
        base_family == 6 || base_family == 0xf ? (a >> 16 & 0xf) << 4 | base_model : base_model;
    p->hypervisor = c >> 31 & 1;
    if (max_leaf >= 0x16) {
        __cpuid(0x16, a, b, c, d);
        if ((b & 0xffff) > 0) { /* leaf 0x16 EBX: maximum frequency in MHz */
            p->mhz = b & 0xffff;
            p->mhz_from = "cpuid leaf 0x16 (maximum frequency)";
        }
    }
#else
    (void)arena;
    (void)p;
#endif
}

/* cpufreq's cpuinfo_max_freq (kHz), the hardware's limit. */
static void read_cpufreq(struct td_cpu_peak *p)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    unsigned long khz = 0;
    if (!f)
        return;
    if (fscanf(f, "%lu", &khz) == 1 && khz > 100000) {
        p->mhz = khz / 1000.0;
        p->mhz_from = "cpufreq cpuinfo_max_freq";
    }
    fclose(f);
}

/* /proc/cpuinfo's "cpu MHz" on bare metal without cpufreq: the kernel's
 * measured (base) clock, so a turbo core may beat it. */
static void read_proc_cpuinfo(struct td_cpu_peak *p)
{
    struct td_arena arena = {0};
    struct td_probe_ctx ctx = {.arena = &arena};
    size_t len;
    char *text = td_probe_slurp(&ctx, "/proc/cpuinfo", TD_PROBE_READ_CAP, &len);
    char v[64];
    if (text && td_parse_cpuinfo_field(text, len, "cpu MHz", v, sizeof v) && atof(v) > 100) {
        p->mhz = atof(v);
        p->mhz_from = "/proc/cpuinfo cpu MHz (no cpufreq; the base clock, turbo may exceed it)";
    }
    free(text);
    td_arena_free(&arena);
}

/* Logical CPUs this process may run on. */
static unsigned usable_cpus(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
#ifdef _WIN32
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return si.dwNumberOfProcessors > 0 ? (unsigned)si.dwNumberOfProcessors : 1;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 1;
#endif
}

/* Physical cores: distinct (package, core) pairs of sysfs topology. */
static unsigned physical_cores(unsigned logical)
{
    enum { MAX = 1024 };
    static long seen[MAX];
    unsigned n = 0;
    for (unsigned cpu = 0; cpu < MAX; cpu++) {
        char path[128];
        long pkg = -1, core = -1;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/topology/core_id", cpu);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        if (fscanf(f, "%ld", &core) != 1)
            core = -1;
        fclose(f);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%u/topology/physical_package_id",
                 cpu);
        if ((f = fopen(path, "r"))) {
            if (fscanf(f, "%ld", &pkg) != 1)
                pkg = -1;
            fclose(f);
        }
        long key = pkg * 100000 + core;
        bool dup = false;
        for (unsigned i = 0; i < n && !dup; i++)
            dup = seen[i] == key;
        if (!dup && core >= 0)
            seen[n++] = key;
    }
    return n > 0 && n <= logical ? n : logical;
}

void td_cpu_peak_probe(struct td_cpu_peak *p, struct td_arena *arena)
{
    memset(p, 0, sizeof *p);
    read_signature(p, arena);
    if (p->mhz <= 0)
        read_cpufreq(p);
    if (p->mhz <= 0 && !p->hypervisor)
        read_proc_cpuinfo(p);
    if (p->mhz <= 0)
        p->mhz_from = p->hypervisor ? "unknown: a virtual machine (cpuid hypervisor bit) with no "
                                      "cpuid leaf 0x16 and no cpufreq; /proc/cpuinfo's MHz is "
                                      "the host's TSC rate, not the core's clock"
                                    : "unknown: no cpuid leaf 0x16, cpufreq or /proc/cpuinfo MHz";
    p->threads = usable_cpus();
    p->cores = physical_cores(p->threads);
    struct td_kb_cpu_fma row;
    if (td_kb_cpu_fma(p->vendor, p->family, p->model, &row)) {
        p->uarch = td_arena_strdup(arena, row.uarch);
        p->fma_units = row.units;
        p->fma_bits = row.bits;
        p->table_source = td_arena_strdup(arena, row.source);
    }
}

double td_cpu_peak_gflops(const struct td_cpu_peak *p, enum td_gemm_isa isa, unsigned cores)
{
    int bits = td_gemm_isa_bits(isa);
    if (p->mhz <= 0 || p->fma_units <= 0 || p->fma_bits <= 0 || cores == 0 || isa == TD_GEMM_SCALAR)
        return 0;
    int lanes = (bits < p->fma_bits ? bits : p->fma_bits) / 32;
    /* SSE has no FMA: a multiply and an add issue on the two pipes instead. */
    double per_cycle =
        isa == TD_GEMM_SSE ? (double)lanes * p->fma_units : (double)lanes * p->fma_units * 2;
    return cores * p->mhz * 1e-3 * per_cycle;
}

/* ---- measurement ---- */

/* Holds workers until every one is started, so they run at the same time. */
struct start_gate {
    pthread_mutex_t lock;
    pthread_cond_t opened;
    bool open;
};

static void gate_wait(struct start_gate *g)
{
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->opened, &g->lock);
    pthread_mutex_unlock(&g->lock);
}

static void gate_open(struct start_gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->open = true;
    pthread_cond_broadcast(&g->opened);
    pthread_mutex_unlock(&g->lock);
}

struct gemm_job {
    enum td_gemm_isa isa;
    size_t n;
    double min_seconds;
    struct start_gate *gate;
    double gflops; /* out: best of the repeats */
    bool ok;
};

/* Repeats an N x N x N GEMM until MIN_SECONDS have passed; the best run. */
static void *gemm_worker(void *arg)
{
    struct gemm_job *j = arg;
    size_t nn = j->n * j->n;
    float *a = malloc(nn * sizeof *a), *b = malloc(nn * sizeof *b), *c = malloc(nn * sizeof *c);
    j->ok = a && b && c;
    for (size_t i = 0; j->ok && i < nn; i++) {
        a[i] = (float)(i % 7) * 0.25f;
        b[i] = (float)(i % 5) * 0.5f;
    }
    if (j->gate)
        gate_wait(j->gate);
    double best = 0, began = td_bench_now();
    for (int rep = 0; j->ok && (rep < 2 || td_bench_now() - began < j->min_seconds); rep++) {
        double t0 = td_bench_now();
        j->ok = td_gemm_f32(j->isa, j->n, j->n, j->n, a, b, c);
        double dt = td_bench_now() - t0;
        double rate = dt > 0 ? 2.0 * (double)j->n * nn / dt * 1e-9 : 0;
        if (rate > best)
            best = rate;
    }
    j->gflops = best;
    free(a);
    free(b);
    free(c);
    return NULL;
}

/* THREADS independent GEMMs at once: their summed rate (0 when a thread
 * could not be started or ran out of memory). */
static double gemm_rate(enum td_gemm_isa isa, size_t n, unsigned threads, double min_seconds)
{
    struct gemm_job *jobs = calloc(threads, sizeof *jobs);
    pthread_t *tids = calloc(threads, sizeof *tids);
    struct start_gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    double total = 0;
    unsigned started = 0;
    for (unsigned i = 0; jobs && tids && i < threads; i++, started++) {
        jobs[i] = (struct gemm_job){
            .isa = isa, .n = n, .min_seconds = min_seconds, .gate = threads > 1 ? &gate : NULL};
        if (threads == 1)
            gemm_worker(&jobs[i]);
        else if (pthread_create(&tids[i], NULL, gemm_worker, &jobs[i]) != 0)
            break;
    }
    gate_open(&gate);
    for (unsigned i = 0; threads > 1 && i < started; i++)
        pthread_join(tids[i], NULL);
    for (unsigned i = 0; i < started; i++)
        total += jobs[i].ok ? jobs[i].gflops : 0;
    bool whole = started == threads;
    for (unsigned i = 0; whole && i < started; i++)
        whole = jobs[i].ok;
    free(jobs);
    free(tids);
    return whole ? total : 0;
}

static void gemm_figure(struct td_bench_figure *f, double value, double peak,
                        const struct td_cpu_peak *p, enum td_gemm_isa isa, unsigned cores,
                        struct td_arena *arena)
{
    char src[700];
    f->measured = value > 0;
    f->value = value;
    f->unit = "GFLOP/s";
    f->threshold = 0.8;
    f->expected = peak;
    if (peak > 0)
        snprintf(src, sizeof src,
                 "%u core%s x %.0f MHz (%s) x %d FMA units x %d FP32 lanes (%s on %d-bit units) x "
                 "2; %s: %s",
                 cores, cores == 1 ? "" : "s", p->mhz, p->mhz_from, p->fma_units,
                 (td_gemm_isa_bits(isa) < p->fma_bits ? td_gemm_isa_bits(isa) : p->fma_bits) / 32,
                 td_gemm_isa_name(isa), p->fma_bits, p->uarch, p->table_source);
    else if (!p->uarch)
        snprintf(src, sizeof src,
                 "unknown: %s family %u model %u is not in data/cpu_fma_units.tsv; frequency: %s",
                 p->vendor ? p->vendor : "this CPU", p->family, p->model, p->mhz_from);
    else if (p->fma_units <= 0)
        snprintf(src, sizeof src, "unknown: %s's FMA unit count depends on the model (%s)",
                 p->uarch, p->table_source);
    else
        snprintf(src, sizeof src, "%s (%s: %d x %d-bit FMA units)", p->mhz_from, p->uarch,
                 p->fma_units, p->fma_bits);
    f->source = td_arena_strdup(arena, src);
}

void td_bench_cpu_run(const struct td_bench_options *o, struct td_bench_cpu *c,
                      struct td_arena *arena)
{
    td_cpu_peak_probe(&c->peak, arena);
    enum td_gemm_isa isa = td_gemm_best_isa();
    c->isa = td_gemm_isa_name(isa);
    c->threads = c->peak.threads;
    c->size = o->quick ? 384 : 1024;
    double min_s = o->quick ? 0.15 : 0.8;
    if (o->progress)
        o->progress(o->progress_ctx, "CPU: FP32 GEMM on 1 thread");
    double one = gemm_rate(isa, c->size, 1, min_s);
    gemm_figure(&c->gemm_1core, one, td_cpu_peak_gflops(&c->peak, isa, 1), &c->peak, isa, 1, arena);
    if (o->progress)
        o->progress(o->progress_ctx, "CPU: FP32 GEMM on every CPU");
    double all = gemm_rate(isa, c->size, c->threads, min_s);
    /* SMT siblings share a core's FMA units: the peak counts cores. */
    gemm_figure(&c->gemm_all, all, td_cpu_peak_gflops(&c->peak, isa, c->peak.cores), &c->peak, isa,
                c->peak.cores, arena);
}
