/* torchdoctor bench: measure what this machine delivers (CPU GEMM, memory,
 * disk, import torch and its matmul, GPUs through the driver) beside what
 * its hardware should deliver, with a verdict where the peak is known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "bench/bench.h"
#include "report/bench.h"

struct bench_args {
    struct td_bench_options opts;
    const char *format, *color;
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
        "cause.\n\nA progress line goes to stderr when it is a terminal.",
    .options = bench_options,
    .examples = bench_examples,
    .exit_status = "0 no error finding (warnings included), 1 an error finding (a GPU that "
                   "crashed or hung), 2 bad usage.",
};

/* "[3/6] memory: read, copy, triad", rewritten in place on the terminal. */
static void progress(void *ctx, const char *step)
{
    int *n = ctx;
    fprintf(stderr, "\r\033[K[%d] %s ...", ++*n, step);
    fflush(stderr);
}

int td_cmd_bench(int argc, char **argv)
{
    struct bench_args a = {0};
    struct td_operands none;
    int rc = td_args_parse(&td_bench_args, argc, argv, &a, &none);
    if (rc != TD_ARGS_CONTINUE)
        return rc;
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
