/* torchdoctor bench: measure what this machine delivers (CPU GEMM, memory,
 * disk, import torch and its matmul, GPUs through the driver) beside what
 * its hardware should deliver, with a verdict where the peak is known. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "probe/bench.h"
#include "report/bench.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor bench [--quick] [--no-gpu] [--python EXE] [--iterations N]\n"
            "                         [--format text|json|markdown] [--color WHEN]\n"
            "\n"
            "Measures this machine and compares each figure with the peak its hardware should\n"
            "reach: FP32 GEMM of our own kernel on one core and on all (vs cores x clock x FMA\n"
            "units x vector width), memory read/copy/triad bandwidth, the sequential read speed\n"
            "of the disk holding torch, how long `import torch` takes and which libraries\n"
            "take it, torch's own FP32 matmul and the BLAS library it really loads, and, when a\n"
            "GPU answers, host<->device and device copies, an FP32 FMA kernel and a stability\n"
            "loop in a crash-isolated child, with the PCIe link, clocks and health from NVML.\n"
            "A figure whose peak cannot be known (a VM hides its clock) has no expected value\n"
            "and no verdict; one under 80%% of its expected value (50%% for the disk) is a\n"
            "performance_below_expected warning naming the likely cause.\n"
            "\n"
            "  --quick         smaller sizes, fewer repeats: under 10 s\n"
            "  --no-gpu        do not load the GPU driver\n"
            "  --python EXE    the interpreter to import torch with (default: the one that\n"
            "                  owns the first torch found)\n"
            "  --iterations N  launches of the GPU stability loop (default 100, 10 with --quick)\n"
            "\n"
            "A progress line goes to stderr when it is a terminal.\n"
            "Exit status: 0 no error finding (warnings included), 2 bad usage.\n");
}

struct bench_args {
    struct td_bench_options opts;
    const char *format, *color;
};

/* Parses ARGV into A; returns -1 to go on, else the exit status to return. */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return TD_EXIT_OK;
        } else if (strcmp(s, "--quick") == 0) {
            a->opts.quick = true;
        } else if (strcmp(s, "--no-gpu") == 0) {
            a->opts.no_gpu = true;
        } else if (strcmp(s, "--python") == 0 && v) {
            a->opts.python = argv[++i];
        } else if (strcmp(s, "--format") == 0 && v) {
            a->format = argv[++i];
        } else if (strcmp(s, "--color") == 0 && v) {
            a->color = argv[++i];
        } else if (strcmp(s, "--iterations") == 0 && v) {
            char *end;
            long n = strtol(argv[++i], &end, 10);
            if (*end || n < 1 || n > 100000) {
                fprintf(stderr, "torchdoctor bench: --iterations wants 1..100000, not '%s'\n", v);
                return TD_EXIT_USAGE;
            }
            a->opts.iterations = (int)n;
        } else {
            fprintf(stderr, "torchdoctor bench: unknown option or missing value: '%s'\n", s);
            return TD_EXIT_USAGE;
        }
    }
    if (strcmp(a->format, "text") && strcmp(a->format, "json") && strcmp(a->format, "markdown")) {
        fprintf(stderr, "torchdoctor bench: --format must be text, json or markdown\n");
        return TD_EXIT_USAGE;
    }
#ifdef _WIN32
    const int exe_mode = 0; /* msvcrt's access() knows no X_OK: existence */
#else
    const int exe_mode = X_OK;
#endif
    if (a->opts.python && access(a->opts.python, exe_mode) != 0) {
        fprintf(stderr, "torchdoctor bench: --python %s: not an executable file\n", a->opts.python);
        return TD_EXIT_USAGE;
    }
    return -1;
}

/* "[3/6] memory: read, copy, triad", rewritten in place on the terminal. */
static void progress(void *ctx, const char *step)
{
    int *n = ctx;
    fprintf(stderr, "\r\033[K[%d] %s ...", ++*n, step);
    fflush(stderr);
}

int td_cmd_bench(int argc, char **argv)
{
    struct bench_args a = {.format = "text", .color = "auto"};
    int rc = parse_args(argc, argv, &a);
    if (rc >= 0)
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
    if (strcmp(a.format, "json") == 0) {
        td_bench_json(&b, stdout);
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
