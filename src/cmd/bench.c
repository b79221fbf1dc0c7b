/* torchdoctor bench: measure what this machine delivers (CPU GEMM, memory,
 * disk, import torch and its matmul, GPUs through the driver) beside what
 * its hardware should deliver, with a verdict where the peak is known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "cmd/job.h"
#include "bench/bench.h"
#include "report/bench.h"

struct bench_args {
    struct td_bench_options opts;
    const char *format, *color;
    struct td_job_args job; /* --workload and the job's sizing */
    int rounds, hidden, tokens;
    double timeout_s;
};

static const char *const bench_formats[] = {"text", "json", "jsonl", "markdown", NULL};

#define AT(field, ctype) TD_AT(struct bench_args, field, ctype)
static const struct td_option bench_options[] = {
    {.name = "--quick",
     .type = TD_ARG_FLAG,
     .help = "smaller sizes, fewer repeats: under 10 s",
     .at = AT(opts.quick, bool)},
    {.name = "--no-gpu",
     .type = TD_ARG_FLAG,
     .help = "do not load the GPU driver",
     .at = AT(opts.no_gpu, bool)},
    {.name = "--python",
     .type = TD_ARG_FILE,
     .value = "EXE",
     .must_exist = true,
     .help = "the interpreter to import torch with (default: the one that owns the first torch "
             "found)",
     .at = AT(opts.python, const char *)},
    {.name = "--iterations",
     .type = TD_ARG_INT,
     .value = "N",
     .min = 1,
     .max = 100000,
     .help = "launches of the GPU stability loop (default 100, 10 with --quick)",
     .at = AT(opts.iterations, int)},
    {.name = "--workload",
     .type = TD_ARG_CHOICE,
     .value = "NAME",
     .values = td_job_workload_value_no_list,
     .help = "instead of the machine's figures: run one block of each stage of this training job "
             "(check --workload list) forward and backward through the discovered torch, at the "
             "job's shapes and dtype, and report s/step extrapolated to the model, peak memory, "
             "stability and the verdicts (docs/bench.md)",
     .at = AT(job.workload, const char *)},
    TD_OPT_JOB(struct bench_args, job),
    {.name = "--rounds",
     .type = TD_ARG_INT,
     .value = "N",
     .min = 1,
     .max = 100000,
     .help = "with --workload: timed rounds after one warm-up (default 5; 100 for a stability "
             "test)",
     .at = AT(rounds, int)},
    {.name = "--hidden",
     .type = TD_ARG_INT,
     .value = "H",
     .min = 8,
     .max = 65536,
     .help = "with --workload: run the blocks at this width instead of the model's (a quick "
             "trial; the times are then of that shape)",
     .at = AT(hidden, int)},
    {.name = "--tokens",
     .type = TD_ARG_INT,
     .value = "N",
     .min = 1,
     .max = 1048576,
     .help = "with --workload: run the blocks on about this many image tokens instead of the "
             "resolution's (a quick trial)",
     .at = AT(tokens, int)},
    {.name = "--timeout",
     .type = TD_ARG_NUMBER,
     .value = "S",
     .min = 1,
     .max = 86400,
     .help = "with --workload: kill the step's child after S seconds without a word from it "
             "(default 600)",
     .at = AT(timeout_s, double)},
    TD_OPT_FORMAT(
        struct bench_args, format, bench_formats,
        "the report's form: text, json (docs/schema.md), jsonl (the same JSON on one line, "
        "for srun and fleet) or markdown"),
    TD_OPT_COLOR(struct bench_args, color),
    {0},
};
#undef AT

static const struct td_example bench_examples[] = {
    {"torchdoctor bench --quick", "the figures and verdicts in under 10 s"},
    {"torchdoctor bench --no-gpu --format json", "CPU, memory, disk and import torch, as JSON"},
    {"torchdoctor bench --workload flux-lora --rounds 100",
     "will my FLUX LoRA fit, how fast will it go, and is this machine stable over 100 rounds?"},
    {0},
};

const struct td_args_spec td_bench_args = {
    .command = "bench",
    .max_operands = 0,
    .description =
        "Measures this machine and compares each figure with the peak its hardware should reach: "
        "FP32 GEMM of our own kernel on one core and on all (vs cores x clock x FMA units x "
        "vector width), memory read/copy/triad bandwidth, the sequential read speed of the disk "
        "holding torch, how long `import torch` takes and which libraries take it, torch's own "
        "FP32 matmul and the BLAS library it really loads, and, when a GPU answers, host<->device "
        "and device copies, an FP32 FMA kernel and a stability loop in a crash-isolated child, "
        "with the PCIe link, clocks and health from NVML. A figure whose peak cannot be known (a "
        "VM hides its clock) has no expected value and no verdict; one under 80% of its expected "
        "value (50% for the disk) is a performance_below_expected warning naming the likely "
        "cause.\n\nWith --workload NAME it answers for a training job instead: will it fit "
        "(check's memory estimate against the GPU's memory, or the RAM), how fast will it go "
        "(one block of each stage run forward and backward through the discovered torch at the "
        "job's shapes and dtype, the time extrapolated to the model), is the machine stable "
        "over the rounds (median, IQR, drift), and is it as fast as a healthy machine of its "
        "kind (the GPU's BF16 peak, or this CPU's own GEMM).\n\nA progress line goes to "
        "stderr when it is a terminal; with --workload a bar, once the child has reported 2 s "
        "of work.",
    .options = bench_options,
    .examples = bench_examples,
    .exit_status = "0 no error finding (warnings included), 1 an error finding (a GPU that "
                   "crashed or hung; with --workload, a job that will not fit), 2 bad usage, or "
                   "--workload's step could not be run (no torch, the child crashed, hung or "
                   "spoke no protocol).",
};

/* "[3/6] memory: read, copy, triad", rewritten in place on the terminal. */
static void progress(void *ctx, const char *step)
{
    int *n = ctx;
    fprintf(stderr, "\r\033[K[%d] %s ...", ++*n, step);
    fflush(stderr);
}

/* A bar, rewritten in place, once the child has reported 2 s of work. */
struct bar {
    bool shown;
};

static void workload_progress(void *ctx, int done, int rounds, double child_s)
{
    struct bar *b = ctx;
    if (child_s < 2 && !b->shown)
        return;
    b->shown = true;
    int width = 30, fill = rounds > 0 ? done * width / rounds : 0;
    fprintf(stderr, "\r\033[K[%.*s%*s] round %d/%d, %.1f s of work reported", fill,
            "##############################", width - fill, "", done, rounds, child_s);
    fflush(stderr);
}

static int run_workload(const struct bench_args *a)
{
    struct td_workload_options o = {.hidden = a->hidden,
                                    .tokens = a->tokens,
                                    .rounds = a->rounds,
                                    .python = a->opts.python,
                                    .no_gpu = a->opts.no_gpu,
                                    .stall_ms = (int)(a->timeout_s * 1000)};
    if (!td_job_from_args(&a->job, "bench", &o.job))
        return TD_EXIT_USAGE;
    struct bar bar = {0};
    if (isatty(2)) {
        o.progress = workload_progress;
        o.progress_ctx = &bar;
    }
    struct td_arena arena = {0};
    struct td_bench_workload w;
    bool ran = td_bench_workload_run(&o, &w, &arena);
    if (bar.shown)
        fprintf(stderr, "\r\033[K");
    int rc = TD_EXIT_USAGE;
    if (!ran) {
        fprintf(stderr, "torchdoctor bench: --workload %s: %s\n", a->job.workload, w.error);
    } else {
        if (strcmp(a->format, "json") == 0 || strcmp(a->format, "jsonl") == 0) {
            td_bench_workload_json(&w, stdout, strcmp(a->format, "json") == 0);
        } else {
            struct td_term t;
            td_term_init(&t, stdout, a->color);
            td_bench_workload_text(&w, &t);
        }
        fflush(stdout);
        rc = td_findings_count(&w.findings, TD_SEV_ERROR) > 0 ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    }
    td_bench_workload_free(&w);
    td_arena_free(&arena);
    return rc;
}

int td_cmd_bench(int argc, char **argv)
{
    struct bench_args a = {.job.lora_rank = -1};
    struct td_operands none;
    int rc = td_args_parse(&td_bench_args, argc, argv, &a, &none);
    if (rc != TD_ARGS_CONTINUE)
        return rc;
    if (a.job.workload && strcmp(a.format, "markdown") == 0) {
        fprintf(stderr, "torchdoctor bench: --workload writes text or json, not markdown\n");
        return TD_EXIT_USAGE;
    }
    if (a.job.workload)
        return run_workload(&a);
    if (a.rounds || a.hidden || a.tokens || a.timeout_s > 0 || a.job.model || a.job.batch ||
        a.job.resolution || a.job.precision || a.job.optimizer || a.job.lora_rank >= 0 ||
        a.job.checkpointing || a.job.no_checkpointing) {
        fprintf(stderr, "torchdoctor bench: --rounds, --hidden, --tokens, --timeout and the "
                        "job's sizing options need --workload\n");
        return TD_EXIT_USAGE;
    }
    int steps = 0;
    if (isatty(2)) {
        a.opts.progress = progress;
        a.opts.progress_ctx = &steps;
    }
    struct td_arena arena = {0};
    struct td_bench b;
    td_bench_run(&a.opts, &b, &arena);
    if (steps)
        fprintf(stderr, "\r\033[K");
    if (strcmp(a.format, "json") == 0 || strcmp(a.format, "jsonl") == 0) {
        td_bench_json(&b, stdout, strcmp(a.format, "json") == 0);
    } else if (strcmp(a.format, "markdown") == 0) {
        td_bench_markdown(&b, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a.color);
        td_bench_text(&b, &t);
    }
    fflush(stdout);
    bool failed = td_findings_count(&b.findings, TD_SEV_ERROR) > 0;
    td_bench_free(&b);
    td_arena_free(&arena);
    return failed ? TD_EXIT_FINDINGS : TD_EXIT_OK;
}
