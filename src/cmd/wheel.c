/* torchdoctor wheel FILE.whl...|DIR: what a wheel will do on the machines
 * its tags claim, before anyone installs it (docs/wheel.md). Parses the
 * options, reads each wheel (probe/wheel), runs the rules (kb/wheel),
 * renders (report/wheel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "probe/wheel/wheel.h"
#include "report/term.h"
#include "report/wheel.h"

struct wheel_args {
    const char *format, *color;
};

static const char *const wheel_formats[] = {"text", "json", "markdown", NULL};

#define AT(field, ctype) TD_AT(struct wheel_args, field, ctype)
static const struct td_option wheel_options[] = {
    TD_OPT_FORMAT(struct wheel_args, format, wheel_formats,
                  "the report's form: text, json (docs/schema.md) or markdown"),
    TD_OPT_COLOR(struct wheel_args, color),
    {0},
};
#undef AT

static const struct td_example wheel_examples[] = {
    {"torchdoctor wheel dist/xformers-0.0.28-cp311-cp311-manylinux_2_28_x86_64.whl",
     "its tags against its binaries, needs, symbol versions, RECORD and CUDA code"},
    {"torchdoctor wheel --format json dist/", "every wheel of a folder, as JSON"},
    {0},
};

const struct td_args_spec td_wheel_args = {
    .command = "wheel",
    .operands = "FILE.whl...|DIR",
    .min_operands = 1,
    .max_operands = -1,
    .description =
        "Reads a wheel without installing or extracting it and says what it will do on the "
        "machines its tags claim: each platform tag (manylinux, musllinux, win32/win_amd64/"
        "win_arm64, macosx) against every binary's machine and OS; each extension module's "
        "Python ABI against the wheel's Python and ABI tags, and abi3 modules' use of symbols "
        "outside the limited API; the libraries each binary needs that the wheel does not "
        "carry, against the platform's policy and torch's own libraries when the wheel "
        "requires torch; symbol versions (GLIBC, GLIBCXX, CXXABI) and the macOS minimum newer "
        "than the tag; vendored runtimes that collide with torch's (OpenMP, CUDA runtime, "
        "cuDNN, libstdc++), auditwheel-renamed copies included; RECORD hashes, files outside "
        "RECORD, sizes by kind and the debug info strip would remove; the CUDA architectures "
        "of every fat binary against the torch build it was made for.\n\n"
        "A directory stands for its *.whl files. Members are streamed once with bounded "
        "memory (docs/wheel.md).",
    .options = wheel_options,
    .examples = wheel_examples,
    .exit_status = "0 no error finding, 1 an error finding, 2 a wheel could not be read.",
};

int td_cmd_wheel(int argc, char **argv)
{
    struct wheel_args a = {0};
    struct td_operands ops;
    int status = td_args_parse(&td_wheel_args, argc, argv, &a, &ops);
    if (status != TD_ARGS_CONTINUE)
        return status;
    struct td_wheel_paths paths;
    struct td_err err = {0};
    if (td_wheel_paths((const char *const *)ops.v, (size_t)ops.n, &paths, &err) != 0) {
        fprintf(stderr, "torchdoctor wheel: %s\n", err.msg);
        return TD_EXIT_USAGE;
    }
    struct td_wheel_facts *wheels = calloc(paths.n ? paths.n : 1, sizeof *wheels);
    struct td_findings findings = {0};
    size_t n = 0;
    status = TD_EXIT_OK;
    for (size_t i = 0; wheels && i < paths.n; i++) {
        struct td_err e = {0};
        if (td_wheel_read(paths.v[i], &wheels[n], &e) != 0) {
            fprintf(stderr, "torchdoctor wheel: %s\n", e.msg);
            td_wheel_facts_free(&wheels[n]);
            status = TD_EXIT_USAGE;
            continue;
        }
        td_kb_wheel_check(&wheels[n++], &findings);
    }
    struct td_wheel_report r = {wheels, n, &findings};
    if (n == 0 && status == TD_EXIT_USAGE) {
        /* Nothing read: the errors above are the answer, not "No findings." */
    } else if (strcmp(a.format, "json") == 0) {
        td_wheel_json(&r, stdout);
    } else if (strcmp(a.format, "markdown") == 0) {
        td_wheel_markdown(&r, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a.color);
        td_wheel_text(&r, &t);
    }
    fflush(stdout);
    if (status == TD_EXIT_OK && td_findings_count(&findings, TD_SEV_ERROR))
        status = TD_EXIT_FINDINGS;
    for (size_t i = 0; i < n; i++)
        td_wheel_facts_free(&wheels[i]);
    free(wheels);
    td_findings_free(&findings);
    td_wheel_paths_free(&paths);
    return wheels ? status : TD_EXIT_USAGE;
}
