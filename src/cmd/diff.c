/* torchdoctor diff: what changed between two snapshots (or a snapshot and
 * this machine now), each change ranked breaks / risky / neutral by the
 * findings it causes, and the findings that are new. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "report/diff.h"
#include "report/snapshot.h"

extern char **environ;

struct diff_args {
    const char *old, *new, *format, *python, *root;
    bool no_gpu;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor diff OLD.json [NEW.json] [--format text|json|markdown]\n"
            "                        [--python EXE] [--root DIR] [--no-gpu]\n"
            "\n"
            "Says what changed between two `torchdoctor snapshot` documents, or between OLD and\n"
            "this machine now when NEW is left out (--python, --root and --no-gpu then say how\n"
            "to take it). Each change is ranked: breaks (it causes a finding NEW has and OLD had\n"
            "not), risky (a package or native library changed, no new finding), neutral\n"
            "(counted). Each says before, after, why it matters and which finding it causes.\n"
            "\n"
            "Exit status: 0 no new error finding, 1 NEW has an error finding OLD had not,\n"
            "2 a snapshot could not be read.\n");
}

/* 0, 1 for --help (printed), -1 for bad usage (said). */
static int parse_args(int argc, char **argv, struct diff_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        const char **slot = strcmp(s, "--format") == 0   ? &a->format
                            : strcmp(s, "--python") == 0 ? &a->python
                            : strcmp(s, "--root") == 0   ? &a->root
                                                         : NULL;
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (slot && v) {
            *slot = v, i++;
        } else if (strcmp(s, "--no-gpu") == 0) {
            a->no_gpu = true;
        } else if (s[0] != '-' && !a->old) {
            a->old = s;
        } else if (s[0] != '-' && !a->new) {
            a->new = s;
        } else {
            fprintf(stderr, "torchdoctor diff: unknown option, missing value or third file: '%s'\n",
                    s);
            return -1;
        }
    }
    if (!a->old) {
        fprintf(stderr, "torchdoctor diff: which snapshot? usage: torchdoctor diff OLD.json "
                        "[NEW.json]\n");
        return -1;
    }
    const char *f = a->format;
    if (strcmp(f, "text") && strcmp(f, "json") && strcmp(f, "markdown")) {
        fprintf(stderr, "torchdoctor diff: --format must be text, json or markdown\n");
        return -1;
    }
    return 0;
}

static bool read_doc(const char *path, struct td_snap_doc *d, struct td_arena *arena)
{
    struct td_err err = {0};
    size_t len;
    char *text = td_snapshot_file(path, &len, &err);
    bool ok = text && td_snapshot_read(text, len, d, arena, &err) == 0;
    if (!ok)
        fprintf(stderr, "torchdoctor diff: %s: %s\n", path, err.msg);
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
    } else {
        struct td_term t;
        td_term_init(&t, stdout, isatty(STDOUT_FILENO) ? "auto" : "never");
        td_diff_text(d, &t);
    }
}

int td_cmd_diff(int argc, char **argv)
{
    struct diff_args a = {.format = "text"};
    int parsed = parse_args(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? TD_EXIT_OK : TD_EXIT_USAGE;
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
