/* torchdoctor trace -- COMMAND: run the command under the LD_AUDIT tracer
 * (Linux) or a debugger (Windows), report what the loader really did, and compare it with the
 * static model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "graph/graph.h"
#include "probe/trace.h"
#include "report/trace.h"

extern char **environ;

enum { MAX_ROOTS = 4096 };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor trace [--format text|json|markdown] [--timeout SEC]\n"
            "                         [--color WHEN] [--quiet] -- COMMAND [ARG...]\n"
            "\n"
            "Runs COMMAND with an LD_AUDIT module that records every place ld.so searched,\n"
            "every library it mapped (when, how it was found, who asked for it) and every\n"
            "unload, reads the error ld.so or Python printed, and compares the real load with\n"
            "the static model of torchdoctor deps (same environment) library by library.\n"
            "On Windows COMMAND runs under a debugger instead: the loader's debug events give\n"
            "each DLL mapped and unmapped, the import tables who asked for it, and Python's\n"
            "[WinError N] line, the exit code or loader snaps (gflags +sls) the failed step.\n"
            "The command's stdout goes to stderr, so the report alone is on stdout.\n"
            "\n"
            "  --timeout SEC  kill the command after SEC seconds (default: no limit)\n"
            "  --quiet        do not copy the command's stderr to ours as it runs\n"
            "\n"
            "Exit status: 0 the load went through and no error finding, 1 the traced load\n"
            "failed or an error finding, 2 the command could not be run.\n");
}

int td_cmd_trace(int argc, char **argv)
{
    const char *format = "text", *color = "auto";
    struct td_trace_options opts = {.echo_stderr = true};
    int i = 1;
    for (; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(s, "--") == 0) {
            i++;
            break;
        } else if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return TD_EXIT_OK;
        } else if (strcmp(s, "--quiet") == 0) {
            opts.echo_stderr = false;
        } else if (strcmp(s, "--format") == 0 && v) {
            format = argv[++i];
        } else if (strcmp(s, "--color") == 0 && v) {
            color = argv[++i];
        } else if (strcmp(s, "--timeout") == 0 && v) {
            char *end;
            double sec = strtod(argv[++i], &end);
            if (*end || sec <= 0 || sec > 86400) {
                fprintf(stderr, "torchdoctor trace: --timeout wants seconds, not '%s'\n", v);
                return TD_EXIT_USAGE;
            }
            opts.timeout_ms = (int)(sec * 1000);
        } else if (s[0] == '-') {
            fprintf(stderr, "torchdoctor trace: unknown option or missing value: '%s'\n", s);
            return TD_EXIT_USAGE;
        } else {
            break; /* the command starts here (the "--" is optional) */
        }
    }
    if (i >= argc) {
        usage(stderr);
        return TD_EXIT_USAGE;
    }
    if (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "markdown")) {
        fprintf(stderr, "torchdoctor trace: --format must be text, json or markdown\n");
        return TD_EXIT_USAGE;
    }

    struct td_trace tr;
    struct td_err err = {0};
    if (td_trace_run((const char *const *)argv + i, &opts, &tr, &err) != 0) {
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
