/* torchdoctor trace -- COMMAND: run the command under the LD_AUDIT tracer
 * (Linux) or a debugger (Windows), report what the loader really did, and compare it with the
 * static model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "graph/graph.h"
#include "trace/trace.h"
#include "report/trace.h"

extern char **environ;

enum { MAX_ROOTS = 4096 };

struct trace_args {
    const char *format, *color;
    double timeout_s;
    bool quiet;
};

static const char *const trace_formats[] = {"text", "json", "markdown", NULL};

#define AT(field, ctype) TD_AT(struct trace_args, field, ctype)
static const struct td_option trace_options[] = {
    TD_OPT_FORMAT(struct trace_args, format, trace_formats,
                  "the report's form: text, json (docs/schema.md) or markdown"),
    {.name = "--timeout",
     .type = TD_ARG_NUMBER,
     .value = "SEC",
     .min = 0.01,
     .max = 86400,
     .help = "kill the command after SEC seconds (without it: no limit)",
     .at = AT(timeout_s, double)},
    TD_OPT_COLOR(struct trace_args, color),
    {.name = "--quiet",
     .type = TD_ARG_FLAG,
     .help = "do not copy the command's stderr to ours as it runs",
     .at = AT(quiet, bool)},
    {0},
};
#undef AT

static const struct td_example trace_examples[] = {
    {"torchdoctor trace -- python3 -c 'import torch'",
     "what ld.so really loaded for `import torch`, and where it differs from deps"},
    {"torchdoctor trace --format json --timeout 60 -- python3 train.py --help",
     "the same for a script, as JSON, killed after a minute"},
    {0},
};

const struct td_args_spec td_trace_args = {
    .command = "trace",
    .operands = "[--] COMMAND [ARG...]",
    .min_operands = 1,
    .max_operands = -1,
    .operands_end_options = true,
    .description =
        "Runs COMMAND with an LD_AUDIT module that records every place ld.so searched, every "
        "library it mapped (when, how it was found, who asked for it) and every unload, reads "
        "the error ld.so or Python printed, and compares the real load with the static model of "
        "torchdoctor deps (same environment) library by library. On Windows COMMAND runs under "
        "a debugger instead: the loader's debug events give each DLL mapped and unmapped, the "
        "import tables who asked for it, and Python's [WinError N] line, the exit code or "
        "loader snaps (gflags +sls) the failed step. The command's stdout goes to stderr, so "
        "the report alone is on stdout.",
    .options = trace_options,
    .examples = trace_examples,
    .exit_status = "0 the load went through and no error finding, 1 the traced load failed or an "
                   "error finding, 2 the command could not be run.",
};

int td_cmd_trace(int argc, char **argv)
{
    struct trace_args a = {0};
    struct td_operands command;
    int status = td_args_parse(&td_trace_args, argc, argv, &a, &command);
    if (status != TD_ARGS_CONTINUE)
        return status;
    struct td_trace_options opts = {.echo_stderr = !a.quiet,
                                    .timeout_ms = (int)(a.timeout_s * 1000)};
    const char *format = a.format, *color = a.color;

    struct td_trace tr;
    struct td_err err = {0};
    if (td_trace_run((const char *const *)command.v, &opts, &tr, &err) != 0) {
        fprintf(stderr, "torchdoctor trace: %s\n", err.msg);
        td_trace_free(&tr);
        return TD_EXIT_USAGE;
    }
    struct td_graph g = {0};
    struct td_err gerr = {0};
    struct td_arena model_arena = {0};
    bool have_model =
        td_trace_build_model(&tr, (const char *const *)environ, &g, &model_arena, &gerr) == 0;
    td_trace_analyze(&tr, have_model ? &g : NULL);

    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    if (strcmp(format, "json") == 0) {
        td_trace_json(&tr, stdout);
    } else if (strcmp(format, "markdown") == 0) {
        td_trace_markdown(&tr, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, color);
        td_trace_text(&tr, &t);
    }
    fflush(stdout);
    bool failed = td_findings_count(&tr.findings, TD_SEV_ERROR) > 0;
    td_graph_free_at_exit(&g);
    td_arena_free(&model_arena);
    td_trace_free(&tr);
    return failed ? TD_EXIT_FINDINGS : TD_EXIT_OK;
}
