/* `torchdoctor bench`: what this machine delivers, measured, beside what
 * its hardware should deliver (DESIGN.md "bench"). Every figure carries
 * its expected value only where the peak is known (a sourced table row and
 * a frequency the hardware states), so a machine whose peak cannot be
 * known gets a number and no verdict. The result is a value; report/bench.h
 * renders it. */
#ifndef TD_PROBE_BENCH_H
#define TD_PROBE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/time_up.h"

#include "base/arena.h"
#include "base/finding.h"
#include "kb/memory.h"
#include "kb/step.h"

/* One measured figure. */
struct td_bench_figure {
    bool measured;      /* false: not measured (why: in source) */
    double value;       /* in unit */
    const char *unit;   /* "GFLOP/s", "GB/s", "MB/s" */
    double expected;    /* <= 0: unknown, no verdict */
    const char *source; /* how expected was derived, or why it is unknown */
    double threshold;   /* below threshold * expected is a finding (0.8, 0.5 for the disk) */
};

/* ---- CPU: our own blocked FP32 GEMM (bench_gemm.c) ---- */

enum td_gemm_isa { TD_GEMM_SCALAR, TD_GEMM_SSE, TD_GEMM_AVX2, TD_GEMM_AVX512, TD_GEMM_ISA_COUNT };

const char *td_gemm_isa_name(enum td_gemm_isa isa); /* "scalar", "sse", "avx2+fma", "avx512f" */
int td_gemm_isa_bits(enum td_gemm_isa isa);         /* vector width: 32, 128, 256, 512 */
bool td_gemm_isa_usable(enum td_gemm_isa isa);      /* this CPU and OS can run it (cpuid) */
enum td_gemm_isa td_gemm_best_isa(void);

/* C (M x N, row-major, leading dimension N) = A (M x K) * B (K x N), with
 * the ISA's kernel. False when out of memory or ISA is not usable. */
bool td_gemm_f32(enum td_gemm_isa isa, size_t m, size_t n, size_t k, const float *a, const float *b,
                 float *c);

/* What the CPU is and what it should reach (bench_cpu.c). */
struct td_cpu_peak {
    const char *vendor; /* "AuthenticAMD" */
    unsigned family, model;
    const char *uarch; /* "Zen 4" (data/cpu_fma_units.tsv), or NULL */
    int fma_units;     /* FP32 FMA pipes per core; 0 unknown */
    int fma_bits;      /* their native width in bits; 0 unknown */
    const char *table_source;
    double mhz;           /* the frequency the peak is computed at; 0 unknown */
    const char *mhz_from; /* "cpuid leaf 0x16", "cpufreq cpuinfo_max_freq", or why unknown */
    unsigned cores;       /* physical cores (sysfs topology), else logical CPUs */
    unsigned threads;     /* logical CPUs we may run on: one GEMM thread each */
    bool hypervisor;      /* cpuid says we run in a VM */
};

void td_cpu_peak_probe(struct td_cpu_peak *p, struct td_arena *arena);
/* The FP32 FLOP/s peak of CORES cores running ISA's kernels: cores x MHz x
 * FMA units x lanes x 2 (an FMA is two operations), where the lanes are
 * the smaller of the ISA's width and the units' native width (Zen 4 runs
 * a 512-bit FMA as two 256-bit halves). 0 when anything is unknown. */
double td_cpu_peak_gflops(const struct td_cpu_peak *p, enum td_gemm_isa isa, unsigned cores);
/* Looks VENDOR/FAMILY/MODEL up in data/cpu_fma_units.tsv into P. */
bool td_cpu_fma_lookup(struct td_cpu_peak *p, struct td_arena *arena);

struct td_bench_cpu {
    struct td_bench_figure gemm_1core, gemm_all;
    const char *isa;
    unsigned threads;
    size_t size; /* the square GEMM's side */
    struct td_cpu_peak peak;
};

/* ---- memory (bench_mem.c): STREAM-like, arrays far beyond the LLC ---- */

struct td_bench_memory {
    struct td_bench_figure read, copy, triad;
    uint64_t array_bytes; /* each of the three arrays */
    uint64_t llc_bytes;   /* the last-level cache, 0 unknown */
};

/* ---- disk (bench_disk_*.c) ---- */

struct td_bench_disk {
    const char *path;   /* the file read (a big torch library) */
    uint64_t bytes;     /* read */
    const char *method; /* "O_DIRECT", "posix_fadvise(DONTNEED)", "plain read" */
    double cached;      /* fraction of the file in the page cache before the read; -1 unknown */
    struct td_bench_figure read;
};

/* ---- import torch, traced (bench_import.c) ---- */

struct td_bench_slow_lib {
    const char *path;
    double seconds;
};

enum { TD_BENCH_SLOWEST = 5 };

struct td_bench_import {
    const char *python;    /* NULL: no interpreter with torch was found */
    const char *torch_dir; /* the torch it imports (the static model's first on sys.path) */
    const char *installer; /* "debian", "pip", "conda": which fix applies */
    const char *error;     /* why it did not import, or NULL */
    double seconds;        /* `import torch` as Python timed it; < 0 unknown */
    size_t libraries;      /* shared objects mapped */
    double map_seconds; /* sum over libraries of asked-for -> mapped (la_objsearch..la_objopen) */
    struct td_bench_slow_lib slowest[TD_BENCH_SLOWEST];
    size_t n_slowest;
    /* through torch (the same run): a square FP32 matmul */
    const char *device;    /* "cpu" */
    const char *blas;      /* the BLAS library file torch's process has mapped */
    const char *blas_kind; /* "netlib reference", "openblas", "blis", "mkl", or NULL */
    const char *blas_info; /* torch.__config__.show()'s BLAS_INFO ("open", "mkl"), or NULL */
    struct td_bench_figure matmul_fp32;
    int matmul_size;
    int torch_threads; /* torch.get_num_threads() */
    /* on GPU 0, when torch sees one (and not --no-gpu) */
    const char *cuda_device; /* torch.cuda.get_device_name(0), or NULL */
    struct td_bench_figure cuda_fp32, cuda_tf32, cuda_bf16;
    int cuda_size;
};

/* ---- GPUs through the driver API, in the helper child (bench_gpu_*.c) ---- */

struct td_bench_gpu {
    int index;
    const char *name;
    const char *pci;       /* "00000000:01:00.0" (NVML's form), or NULL */
    const char *error;     /* the driver call that failed, or the child's end; NULL when whole */
    const char *last_step; /* the last step the helper started ("fp32_fma") */
    struct td_bench_figure h2d_pinned, d2h_pinned, h2d_pageable, d2h_pageable, d2d, fp32_fma;
    int pcie_gen, pcie_width, pcie_max_gen, pcie_max_width; /* -1 unknown */
    int sm_mhz, mem_mhz;                                    /* -1 unknown */
    double power_limit_w;                                   /* < 0 unknown */
    int temperature_c;                                      /* -1 unknown */
    uint64_t throttle_reasons;                              /* NVML bit mask */
    bool throttle_known;
    long long ecc_errors, retired_pages, xid_errors; /* -1 unknown */
    int stability_iterations, stability_errors;
    double stability_drift; /* (first - last) / first of the FMA rate; < 0: faster at the end */
};

struct td_bench_gpus {
    bool probed;        /* false: --no-gpu */
    const char *status; /* "no driver", "crashed: killed by SIGSEGV", "timeout", NULL: answered */
    struct td_bench_gpu *gpus;
    size_t n_gpus;
    int last_gpu; /* the device the helper was last working on */
    bool failed;  /* the helper crashed, hung or ended early: status says how */
};

/* ---- the whole run (bench.c) ---- */

struct td_bench_options {
    bool quick;
    bool no_gpu;
    const char *python;        /* --python, or NULL: the interpreter that owns the first torch */
    int iterations;            /* the GPU stability loop; 0: 100 (10 with quick) */
    int timeout_ms;            /* GPU child; 0: 60 s (20 s quick) */
    struct td_time_up time_up; /* tests: an event instead of the clock */
    /* Called before each step ("CPU GEMM, 1 thread"); may be NULL. */
    void (*progress)(void *ctx, const char *step);
    void *progress_ctx;
};

struct td_bench {
    struct td_bench_cpu cpu;
    struct td_bench_memory memory;
    struct td_bench_disk disk;
    struct td_bench_import import;
    struct td_bench_gpus gpu;
    struct td_findings findings;
    double elapsed_s;
    const char *host; /* this machine's name, for fleet */
};

void td_bench_run(const struct td_bench_options *o, struct td_bench *b, struct td_arena *arena);
void td_bench_free(struct td_bench *b);

/* The parts, each filling its own section (strings in ARENA). */
void td_bench_cpu_run(const struct td_bench_options *o, struct td_bench_cpu *c,
                      struct td_arena *arena);
void td_bench_memory_run(const struct td_bench_options *o, unsigned threads,
                         struct td_bench_memory *m, struct td_arena *arena);
void td_bench_disk_run(const struct td_bench_options *o, const char *path, struct td_bench_disk *d,
                       struct td_arena *arena);
/* The interpreter and torch bench uses: PYTHON's (--python), else the one
 * that owns the first torch found (the static model of sys.path, as check
 * finds it). Fills IMP's python, torch_dir, installer, or error. */
void td_bench_find_python(const char *python, struct td_bench_import *imp, struct td_arena *arena);
void td_bench_import_run(const struct td_bench_options *o, struct td_bench_import *imp,
                         struct td_arena *arena);
void td_bench_gpu_run(const struct td_bench_options *o, struct td_bench_gpus *g,
                      struct td_arena *arena);

/* Verdicts (bench_verdict.c): a figure under threshold x expected becomes a
 * performance_below_expected warning naming WHAT and the likely CAUSE. */
bool td_bench_below(const struct td_bench_figure *f);
void td_bench_verdict(struct td_findings *f, const struct td_bench_figure *fig, const char *what,
                      const char *library, const char *cause, const char *fix);
void td_bench_verdicts(struct td_bench *b);

/* XID errors (NVIDIA driver error reports, "NVRM: Xid (PCI:0000:01:00): 79, ...")
 * in kernel log TEXT for the GPU at PCI (NVML's "00000000:01:00.0"). */
long long td_bench_count_xids(const char *text, size_t len, const char *pci);

/* Parses the helper's bench answer (gpu_bench_ask.c's lines) into G. */
void td_bench_gpu_parse(const char *text, size_t len, struct td_bench_gpus *g,
                        struct td_arena *arena);

/* The child ended early (HOW: "the GPU helper was killed by SIGSEGV"): G
 * failed, and the device it was working on gets HOW and the step. */
void td_bench_gpu_ended(struct td_bench_gpus *g, const char *how, struct td_arena *arena);

/* ---- bench --workload: one block of the job, through torch (workload.c) ---- */

struct td_workload_options {
    struct td_mem_job job; /* the job (check --workload's sizing options) */
    int hidden, tokens;    /* > 0: run the blocks at this width / image tokens (a quick trial) */
    int rounds;            /* timed rounds after one warm-up; 0: 5 */
    const char *python;    /* --python, or NULL: the interpreter that owns the first torch */
    bool no_gpu;           /* run on the CPU even when torch sees a GPU */
    int stall_ms;          /* the child is killed after this long without a line; 0: 600 s */
    struct td_time_up time_up; /* tests: an event instead of the clock */
    /* Called after each line the child says, with the rounds done, the
     * rounds asked and the seconds the child has reported so far (import,
     * load, warm-up, rounds); may be NULL. */
    void (*progress)(void *ctx, int done, int rounds, double child_s);
    void *progress_ctx;
};

/* Median, spread and drift of a series of step times (workload_stats.c). */
struct td_workload_stats {
    double median, q1, q3, min, max; /* seconds; quartiles by linear interpolation */
    double drift_pct; /* median of the last quarter against the first, in %: + slower */
    size_t quarter;   /* rounds in each quarter (at least 1) */
};
void td_workload_stats(const double *x, size_t n, struct td_workload_stats *out);

struct td_bench_workload {
    const char *workload;
    const char *python, *torch_dir, *torch_version;
    const char *device;                          /* "cpu", "cuda" */
    const char *device_name;                     /* the GPU's name, or NULL */
    double device_bytes;                         /* the GPU's memory, or the system's RAM */
    const char *dtype_asked, *dtype, *dtype_why; /* why dtype differs from dtype_asked, or NULL */
    const char *attention;                       /* "sdpa", "math" */
    struct td_step_plan plan;
    double import_s, load_s, warmup_s;
    double stage_params[TD_STEP_STAGES]; /* one block's parameters */
    double stage_median_s[TD_STEP_STAGES];
    int rounds_asked, rounds;
    double *block_s; /* per round: one block of each stage */
    double *step_s;  /* per round: extrapolated to the network (blocks x block time) */
    double *stage_s; /* per round, per stage: [round * plan.n + stage] */
    struct td_workload_stats stats; /* of step_s */
    double peak_bytes;              /* 0 unknown */
    const char *peak_source;        /* "torch.cuda.max_memory_allocated", "peak RSS of the child" */
    bool has_memory;
    struct td_mem_estimate memory;
    char memory_error[200];
    double rate_flops;           /* the rate the expectation assumes, FLOP/s; 0 unknown */
    double efficiency;           /* its share a healthy step reaches */
    double expected_s;           /* expected s/step of the network; 0 unknown */
    const char *expected_source; /* how, or why unknown */
    double slow_factor, drift_limit_pct;
    const char *error; /* why the run could not be done (exit 2), or NULL */
    struct td_findings findings;
    double elapsed_s;
};

/* Runs the job's blocks through the discovered torch in a child and judges
 * them; false when the run could not be done (W->error says why). */
bool td_bench_workload_run(const struct td_workload_options *o, struct td_bench_workload *w,
                           struct td_arena *arena);
void td_bench_workload_free(struct td_bench_workload *w);

/* Reading the child's lines (the protocol at the top of workload.c). */
struct td_workload_reader {
    struct td_bench_workload *w; /* its plan set; block_s, step_s, stage_s for rounds_asked */
    const struct td_workload_options *o;
    struct td_arena *arena;
    int stages_said;
    bool hello, warm, done;
    const char *bad;   /* a line that is not the protocol */
    const char *error; /* the child's own error line */
    double said_s;     /* seconds the child has reported */
};
/* One line (LEN bytes, LINE[LEN] == '\0') into R->w; false (R->bad set)
 * when it is not the protocol. */
bool td_workload_read_line(struct td_workload_reader *r, const char *line, size_t len);

/* The Python program of the child (workload_script.c). */
extern const char td_workload_script[];

/* How a line-speaking child ended (workload_posix.c). */
struct td_line_child {
    bool started, timed_out, exited;
    int exit_code;       /* when it exited by itself; -1 otherwise */
    char signal[16];     /* "SEGV" when a signal ended it, else "" */
    double peak_rss;     /* bytes (wait4's ru_maxrss); 0 unknown */
    char why[300];       /* why it could not be started */
    char err_tail[1024]; /* the end of what it wrote on stderr */
};

/* Runs ARGV (ARGV[0] a path), calling LINE for each whole line of its
 * stdout as it arrives (LINE returning false stops reading and kills the
 * child); the child is killed after STALL_MS without a line (TIME_UP, when
 * it has a function, decides instead, asked with all the child has said).
 * Its stderr is kept in OUT->err_tail. */
void td_line_child_run(const char *const *argv, int stall_ms, struct td_time_up time_up,
                       bool (*line)(void *ctx, const char *line, size_t len), void *ctx,
                       struct td_line_child *out);

/* Seconds on a monotonic clock. */
double td_bench_now(void);

#endif
