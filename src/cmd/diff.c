/* torchdoctor diff: what changed between two snapshots (or a snapshot and
 * this machine now), each change ranked breaks / risky / neutral by the
 * findings it causes, and the findings that are new. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "report/diff.h"
#include "report/snapshot.h"

extern char **environ;

struct diff_args {
    const char *old, *new, *format, *python, *root;
    bool no_gpu;
};

static const char *const diff_formats[] = {"text", "json", "markdown", "html", NULL};

#define AT(field, ctype) TD_AT(struct diff_args, field, ctype)
static const struct td_option diff_options[] = {
    TD_OPT_FORMAT(struct diff_args, format, diff_formats,
                  "the report's form: text, json (docs/schema.md), markdown or html (one "
                  "self-contained page)"),
    {.name = "--python",
     .type = TD_ARG_FILE,
     .value = "EXE",
     .help = "without NEW: take this machine's snapshot for this interpreter only",
     .at = AT(python, const char *)},
    {.name = "--root",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .must_exist = true,
     .help = "without NEW: take the snapshot of the system whose root is DIR",
     .at = AT(root, const char *)},
    {.name = "--no-gpu",
     .type = TD_ARG_FLAG,
     .help = "without NEW: do not load the NVIDIA driver, even in a child",
     .at = AT(no_gpu, bool)},
    {0},
};
#undef AT

static const struct td_example diff_examples[] = {
    {"torchdoctor diff working.json", "what changed on this machine since working.json"},
    {"torchdoctor diff before.json after.json --format markdown",
     "two snapshots, for a bug report"},
    {0},
};

const struct td_args_spec td_diff_args = {
    .command = "diff",
    .operands = "OLD.json [NEW.json]",
    .min_operands = 1,
    .max_operands = 2,
    .description =
        "Says what changed between two `torchdoctor snapshot` documents, or between OLD and this "
        "machine now when NEW is left out (--python, --root and --no-gpu then say how to take "
        "it). Each change is ranked: breaks (it causes a finding NEW has and OLD had not), risky "
        "(a package or native library changed, no new finding), neutral (counted). Each says "
        "before, after, why it matters and which finding it causes.",
    .options = diff_options,
    .examples = diff_examples,
    .exit_status = "0 no new error finding, 1 NEW has an error finding OLD had not, 2 a snapshot "
                   "could not be read.",
};

static bool read_doc(const char *path, struct td_snap_doc *d, struct td_arena *arena)
{
    struct td_err err = {0};
    size_t len;
    char *text = td_snapshot_file(path, &len, &err); /* its errors name the file */
    bool ok = text && td_snapshot_read(text, len, d, arena, &err) == 0;
    if (!ok)
        fprintf(stderr, "torchdoctor diff: %s%s%s\n", text ? path : "", text ? ": " : "", err.msg);
    free(text);
    return ok;
}

/* NEW is this machine now: snapshot it as `snapshot` would, then read that. */
static bool read_now(const struct diff_args *a, struct td_snap_doc *d, struct td_arena *arena)
{
    struct td_diagnose_request q = {.python = a->python,
                                    .root = a->root,
                                    .envp = (const char *const *)environ,
                                    .no_gpu = a->no_gpu};
    struct td_check_report r = {0};
    struct td_snapshot s = {0};
    struct td_err err = {0};
    size_t len;
    td_snapshot_take(&q, false, &r, &s, arena);
    char *text = td_snapshot_text(&r, &s, false, getenv("HOME"), NULL, NULL, &len);
    bool ok = text && td_snapshot_read(text, len, d, arena, &err) == 0;
    if (!ok)
        fprintf(stderr, "torchdoctor diff: this machine's snapshot: %s\n", err.msg);
    free(text);
    td_diagnosis_free(&r, true);
    return ok;
}

static void render(const struct diff_args *a, const struct td_diff *d, const char *old_taken,
                   const char *new_taken)
{
    if (strcmp(a->format, "json") == 0) {
        td_diff_json(d, old_taken, new_taken, stdout);
    } else if (strcmp(a->format, "markdown") == 0) {
        td_diff_markdown(d, stdout);
    } else if (strcmp(a->format, "html") == 0) {
        td_diff_html(d, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, isatty(STDOUT_FILENO) ? "auto" : "never");
        td_diff_text(d, &t);
    }
}

int td_cmd_diff(int argc, char **argv)
{
    struct diff_args a = {0};
    struct td_operands files;
    int status = td_args_parse(&td_diff_args, argc, argv, &a, &files);
    if (status != TD_ARGS_CONTINUE)
        return status;
    a.old = files.v[0];
    a.new = files.n > 1 ? files.v[1] : NULL;
    struct td_arena arena = {0};
    struct td_snap_doc old = {0}, new = {0};
    struct td_diff d = {0};
    int rc = TD_EXIT_USAGE;
    if (read_doc(a.old, &old, &arena) &&
        (a.new ? read_doc(a.new, &new, &arena) : read_now(&a, &new, &arena))) {
        td_snapshot_diff(&old, &new, &d, &arena);
        render(&a, &d, old.taken_at, new.taken_at);
        rc = td_findings_count(&d.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    }
    td_diff_free(&d);
    td_snap_doc_free(&old);
    td_snap_doc_free(&new);
    td_arena_free(&arena);
    return rc;
}
