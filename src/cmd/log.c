/* torchdoctor log: the entries of a change log written by `snapshot --log`,
 * one line each with what changed since the entry before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/cmd.h"
#include "report/diff.h"

struct log_args {
    const char *file, *format;
};

static const char *const log_formats[] = {"text", "json", NULL};

static const struct td_option log_options[] = {
    TD_OPT_FORMAT(struct log_args, format, log_formats,
                  "the listing's form: text, or json (docs/schema.md)"),
    {0},
};

static const struct td_example log_examples[] = {
    {"torchdoctor log ~/torch-changes.jsonl", "every entry with what changed since the one before"},
    {0},
};

const struct td_args_spec td_log_args = {
    .command = "log",
    .operands = "FILE",
    .min_operands = 1,
    .max_operands = 1,
    .description = "Lists the entries of a change log that `torchdoctor snapshot --log FILE` "
                   "wrote, each with when it was taken and a one-line summary of what changed "
                   "since the entry before (see `torchdoctor diff` for the whole of one change).",
    .options = log_options,
    .examples = log_examples,
    .exit_status = "0 listed, 2 the file could not be read, or some of its entries are "
                   "incomplete (each named; every complete one is still listed).",
};

/* Entry E (line LINE of the file) against the entry before (PREV, or NULL). */
static void fill(struct td_log_entry *e, size_t line, const struct td_snap_doc *doc,
                 const struct td_snap_doc *prev, struct td_arena *arena)
{
    e->line = line;
    e->taken_at = doc->taken_at;
    e->first = prev == NULL;
    if (!prev)
        return;
    struct td_diff d = {0};
    char summary[1024];
    td_snapshot_diff(prev, doc, &d, arena);
    memcpy(e->count, d.count, sizeof e->count);
    e->new_errors = td_findings_count(&d.findings, TD_SEV_ERROR);
    e->summary = td_arena_strdup(arena, td_diff_summary(&d, summary, sizeof summary));
    td_diff_free(&d);
}

/* Every non-empty line of TEXT read and compared with the complete entry
 * before it. A line that is not a whole snapshot (a snapshot killed while
 * appending it leaves one cut short) is said and skipped: returns how many,
 * or -1 when out of memory. */
static int read_entries(const char *file, char *text, struct td_log_entry **out, size_t *n,
                        struct td_arena *arena)
{
    int incomplete = 0;
    size_t lines = 1;
    for (const char *p = text; *p; p++)
        lines += *p == '\n';
    struct td_snap_doc *docs = calloc(lines, sizeof *docs);
    *out = td_arena_array(arena, lines, sizeof **out);
    int rc = docs && *out ? 0 : -1;
    size_t line = 0, k = 0;
    for (char *p = text; rc == 0 && *p;) {
        size_t len = strcspn(p, "\n");
        line++;
        if (len > 0 && !(len == 1 && p[0] == '\r')) {
            struct td_err err = {0};
            if (td_snapshot_read(p, len, &docs[k], arena, &err) != 0) {
                fprintf(stderr,
                        "torchdoctor log: %s:%zu: an incomplete entry, skipped (%zu bytes%s, not "
                        "a whole snapshot: %s)\n",
                        file, line, len, p[len] == '\n' ? "" : " at the end with no newline",
                        err.msg);
                td_snap_doc_free(&docs[k]);
                memset(&docs[k], 0, sizeof docs[k]);
                incomplete++;
                p += len + (p[len] == '\n');
                continue;
            }
            fill(&(*out)[k], line, &docs[k], k ? &docs[k - 1] : NULL, arena);
            k++;
        }
        p += len + (p[len] == '\n');
    }
    for (size_t i = 0; docs && i < lines; i++)
        td_snap_doc_free(&docs[i]);
    free(docs);
    *n = k;
    return rc < 0 ? rc : incomplete;
}

/* A change log is snapshots, one JSON object a line; an entry cut short
 * still begins as one. A text with no line opening with '{' (/etc/passwd)
 * is some other file, said once rather than once per line. An empty log
 * is a log (nothing recorded yet). */
static bool looks_like_log(const char *text)
{
    bool empty = true;
    for (const char *p = text; *p; p++) {
        p += strspn(p, " \t\r");
        if (*p == '{')
            return true;
        empty &= *p == '\n' || !*p;
        p += strcspn(p, "\n");
        if (!*p)
            break;
    }
    return empty;
}

int td_cmd_log(int argc, char **argv)
{
    struct log_args a = {0};
    struct td_operands files;
    int status = td_args_parse(&td_log_args, argc, argv, &a, &files);
    if (status != TD_ARGS_CONTINUE)
        return status;
    a.file = files.v[0];
    struct td_err err = {0};
    size_t len, n = 0;
    char *text = td_snapshot_file(a.file, &len, &err);
    if (!text) {
        fprintf(stderr, "torchdoctor log: %s\n", err.msg);
        return TD_EXIT_USAGE;
    }
    if (!looks_like_log(text)) {
        fprintf(stderr,
                "torchdoctor log: %s is not a change log (no line of it is a snapshot; "
                "`torchdoctor snapshot --log FILE` writes one)\n",
                a.file);
        free(text);
        return TD_EXIT_USAGE;
    }
    struct td_arena arena = {0};
    struct td_log_entry *entries = NULL;
    int incomplete = read_entries(a.file, text, &entries, &n, &arena);
    if (incomplete >= 0 && strcmp(a.format, "json") == 0)
        td_log_json(entries, n, stdout);
    else if (incomplete >= 0)
        td_log_text(entries, n, stdout);
    if (incomplete > 0)
        fprintf(stderr, "torchdoctor log: %s: %zu complete entries listed, %d incomplete skipped\n",
                a.file, n, incomplete);
    int rc = incomplete == 0 ? TD_EXIT_OK : TD_EXIT_USAGE;
    td_arena_free(&arena);
    free(text);
    return rc;
}
