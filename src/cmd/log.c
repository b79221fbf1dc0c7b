/* torchdoctor log: the entries of a change log written by `snapshot --log`,
 * one line each with what changed since the entry before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "report/diff.h"

struct log_args {
    const char *file, *format;
};

static void usage(FILE *out)
{
    fprintf(out, "usage: torchdoctor log FILE [--format text|json]\n"
                 "\n"
                 "Lists the entries of a change log that `torchdoctor snapshot --log FILE` wrote,\n"
                 "each with when it was taken and a one-line summary of what changed since the\n"
                 "entry before (see `torchdoctor diff` for the whole of one change).\n"
                 "\n"
                 "Exit status: 0 listed, 2 the file or one of its lines could not be read.\n");
}

/* 0, 1 for --help (printed), -1 for bad usage (said). */
static int parse_args(int argc, char **argv, struct log_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            return 1;
        } else if (strcmp(s, "--format") == 0 && i + 1 < argc) {
            a->format = argv[++i];
        } else if (s[0] != '-' && !a->file) {
            a->file = s;
        } else {
            fprintf(stderr, "torchdoctor log: unknown option or missing value: '%s'\n", s);
            return -1;
        }
    }
    if (!a->file) {
        fprintf(stderr, "torchdoctor log: which file? usage: torchdoctor log FILE\n");
        return -1;
    }
    if (strcmp(a->format, "text") && strcmp(a->format, "json")) {
        fprintf(stderr, "torchdoctor log: --format must be text or json\n");
        return -1;
    }
    return 0;
}

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

/* Every non-empty line of TEXT read and compared with the one before; 0,
 * or -1 (said) at the first line that is not a snapshot. */
static int read_entries(const char *file, char *text, struct td_log_entry **out, size_t *n,
                        struct td_arena *arena)
{
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
                fprintf(stderr, "torchdoctor log: %s:%zu: %s\n", file, line, err.msg);
                rc = -1;
                break;
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
    return rc;
}

int td_cmd_log(int argc, char **argv)
{
    struct log_args a = {.format = "text"};
    int parsed = parse_args(argc, argv, &a);
    if (parsed != 0)
        return parsed > 0 ? TD_EXIT_OK : TD_EXIT_USAGE;
    struct td_err err = {0};
    size_t len, n = 0;
    char *text = td_snapshot_file(a.file, &len, &err);
    if (!text) {
        fprintf(stderr, "torchdoctor log: %s\n", err.msg);
        return TD_EXIT_USAGE;
    }
    struct td_arena arena = {0};
    struct td_log_entry *entries = NULL;
    int rc = read_entries(a.file, text, &entries, &n, &arena) == 0 ? TD_EXIT_OK : TD_EXIT_USAGE;
    if (rc == TD_EXIT_OK && strcmp(a.format, "json") == 0)
        td_log_json(entries, n, stdout);
    else if (rc == TD_EXIT_OK)
        td_log_text(entries, n, stdout);
    td_arena_free(&arena);
    free(text);
    return rc;
}
