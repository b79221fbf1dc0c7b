/* torchdoctor snapshot: check's report of this machine plus what a later
 * diff needs (every distribution, the closure's files, the search paths),
 * as one JSON document; appended to a change log (--log) with what changed
 * since its last line; or turned into a restore script. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "report/diff.h"
#include "report/snapshot.h"

extern char **environ;

struct snapshot_args {
    const char *python, *output, *root, *log, *restore;
    bool verify, redact, no_gpu, symbols;
    int timeout_ms;
};

/* --restore-script: the file's ending says which shell. */
static const char *restore_check(const char *v)
{
    enum td_restore_shell shell;
    return td_restore_shell_of(v, &shell) ? NULL : "a file name ending in .sh, .ps1 or .bat";
}

#define AT(field, ctype) TD_AT(struct snapshot_args, field, ctype)
static const struct td_option snapshot_options[] = {
    {.name = "--python",
     .type = TD_ARG_FILE,
     .value = "EXE",
     .help = "only this interpreter",
     .at = AT(python, const char *)},
    {.name = "--output",
     .alias = 'o',
     .type = TD_ARG_FILE,
     .value = "FILE",
     .help = "write the snapshot to FILE (default: standard output)",
     .at = AT(output, const char *)},
    {.name = "--verify",
     .type = TD_ARG_FLAG,
     .help = "also record each closure file's SHA-256",
     .at = AT(verify, bool)},
    {.name = "--redact",
     .type = TD_ARG_FLAG,
     .help = "hide the user name and host name too",
     .at = AT(redact, bool)},
    {.name = "--log",
     .type = TD_ARG_FILE,
     .value = "FILE",
     .help = "append the snapshot to FILE as one line and print what changed since its last "
             "line (see `torchdoctor log`)",
     .at = AT(log, const char *)},
    {.name = "--restore-script",
     .type = TD_ARG_FILE,
     .value = "FILE",
     .check = restore_check,
     .help = "write the commands that reinstall the environment's packages at their versions, "
             "each torch build from its variant's index (sh, PowerShell or cmd by FILE's "
             "ending); written for you to read and run, never run here",
     .at = AT(restore, const char *)},
    {.name = "--symbols",
     .type = TD_ARG_FLAG,
     .help = "bind every symbol of the torch closure (default: version needs only; a copy of "
             "another build that lacks symbols is then found, at some 0.3 s more)",
     .at = AT(symbols, bool)},
    {.name = "--root",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .must_exist = true,
     .help = "snapshot the system whose root is DIR",
     .at = AT(root, const char *)},
    TD_OPT_NO_GPU(struct snapshot_args, no_gpu),
    TD_OPT_DRIVER_TIMEOUT(struct snapshot_args, timeout_ms),
    {0},
};
#undef AT

static const struct td_example snapshot_examples[] = {
    {"torchdoctor snapshot -o working.json", "record this machine while it works"},
    {"torchdoctor snapshot --log ~/torch-changes.jsonl",
     "append to a change log, say what changed"},
    {"torchdoctor snapshot --restore-script restore.sh", "the commands that rebuild this stack"},
    {0},
};

const struct td_args_spec td_snapshot_args = {
    .command = "snapshot",
    .max_operands = 0,
    .description =
        "Records this machine as one JSON document: everything `check` reports, plus every "
        "distribution of every Python environment (version, installer, index URL), the files of "
        "each torch's import closure (the copy the loader picks, its size), and PATH / "
        "LD_LIBRARY_PATH. Paths under your home folder are written as ~/... Compare two with "
        "`torchdoctor diff OLD.json NEW.json`.",
    .options = snapshot_options,
    .examples = snapshot_examples,
};

/* Writes PATH whole or not at all (outfile.h): BUF, or WRITE(f, ctx). */
static bool write_file(const char *path, const char *buf, size_t len,
                       void (*write)(FILE *f, const void *ctx), const void *ctx)
{
    struct td_outfile o;
    struct td_err err = {0};
    FILE *f = td_outfile_open(&o, path, &err);
    bool ok = f && (write ? (write(f, ctx), true) : fwrite(buf, 1, len, f) == len);
    if (f && !ok) {
        td_err_set(&err, "%s: cannot write: %s", path, strerror(errno));
        td_outfile_abort(&o);
    } else if (f)
        ok = td_outfile_commit(&o, &err);
    if (!ok)
        fprintf(stderr, "torchdoctor snapshot: %s\n", err.set ? err.msg : "cannot write");
    return ok;
}

/* The environment a restore script is for: --python's, else the one whose
 * torch is imported first, else the first. */
static const struct td_snap_env *restore_env(const struct td_check_report *r,
                                             const struct td_snapshot *s)
{
    if (r->n_torch && r->torch[0].python < s->n_envs)
        return &s->envs[r->torch[0].python];
    return s->n_envs ? &s->envs[0] : NULL;
}

struct restore {
    const struct td_check_report *r;
    const struct td_snapshot *s;
    const struct td_snap_env *env;
    enum td_restore_shell shell;
};

static void write_restore_script(FILE *f, const void *ctx)
{
    const struct restore *w = ctx;
    td_restore_script(f, w->r, w->s, w->env, w->shell);
}

static bool write_restore(const char *path, const struct td_check_report *r,
                          const struct td_snapshot *s)
{
    enum td_restore_shell shell;
    const struct td_snap_env *env = restore_env(r, s);
    if (!env) {
        fprintf(stderr, "torchdoctor snapshot: no Python environment found to restore\n");
        return false;
    }
    td_restore_shell_of(path, &shell);
    struct restore what = {r, s, env, shell};
    bool ok = write_file(path, NULL, 0, write_restore_script, &what);
    if (ok)
        fprintf(stderr, "torchdoctor snapshot: wrote %s (read it, then run it yourself)\n", path);
    return ok;
}

/* The last non-empty line of TEXT, as [*START, *START + *LEN). */
static bool last_line(const char *text, size_t n, const char **start, size_t *len)
{
    while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    if (n == 0)
        return false;
    size_t b = n;
    while (b && text[b - 1] != '\n')
        b--;
    *start = text + b, *len = n - b;
    return true;
}

static void say_waiting(const char *path)
{
    fprintf(stderr, "torchdoctor snapshot: %s is locked by another snapshot; waiting for it\n",
            path);
}

/* --log: under the log's lock, what changed since its last complete entry,
 * then the line appended in one write (docs/snapshot.md, "The change log
 * survives"). An entry a killed snapshot left cut short is kept as it is
 * (`log` names it) and never compared with. */
static bool append_log(const char *path, const char *line, size_t len)
{
    struct td_err err = {0};
    size_t old_len = 0;
    int fd = td_log_open(path, say_waiting, &err);
    char *old = fd >= 0 ? td_log_read(fd, path, SIZE_MAX / 2, &old_len, &err) : NULL;
    const char *prev;
    size_t prev_len;
    struct td_arena arena = {0};
    struct td_snap_doc a = {0}, b = {0};
    char summary[1024] = "first entry";
    bool ok = old != NULL;
    const char *end = old ? old + old_len : NULL;
    while (ok && last_line(old, old_len, &prev, &prev_len)) {
        struct td_err bad = {0};
        old_len = (size_t)(prev - old);
        if (prev + prev_len == end && end[-1] != '\n')
            continue; /* cut short by a killed writer: no newline after it */
        if (td_snapshot_read(prev, prev_len, &a, &arena, &bad) != 0) {
            td_snap_doc_free(&a);
            continue; /* not a complete snapshot: compare with the one before */
        }
        if (td_snapshot_read(line, len, &b, &arena, &err) != 0) {
            ok = false;
            break;
        }
        struct td_diff d = {0};
        td_snapshot_diff(&a, &b, &d, &arena);
        td_diff_summary(&d, summary, sizeof summary);
        td_diff_free(&d);
        break;
    }
    ok = ok && td_log_append(fd, path, line, len, &err);
    td_log_close(fd);
    if (ok)
        printf("%s: %s\n", path, summary);
    else
        fprintf(stderr, "torchdoctor snapshot: %s\n", err.msg);
    td_snap_doc_free(&a);
    td_snap_doc_free(&b);
    td_arena_free(&arena);
    free(old);
    return ok;
}

static bool emit(const struct snapshot_args *a, const struct td_check_report *real,
                 const struct td_snapshot *s)
{
    const char *home = getenv("HOME");
    const char *user = a->redact ? getenv("USER") : NULL;
    const char *host = a->redact ? real->sys.hostname : NULL;
    /* --redact: the hostname field hidden at the source too, since a short
     * name ("vm") is not replaced in the text, where it would mangle words. */
    struct td_check_report shown = *real;
    if (host)
        shown.sys.hostname = "<host>";
    const struct td_check_report *r = &shown;
    bool ok = true;
    size_t len;
    if (a->output || (!a->log && !a->restore)) {
        char *doc = td_snapshot_text(r, s, true, home, user, host, &len);
        ok = doc && (a->output ? write_file(a->output, doc, len, NULL, NULL)
                               : fwrite(doc, 1, len, stdout) == len);
        free(doc);
    }
    if (ok && a->log) {
        char *line = td_snapshot_text(r, s, false, home, user, host, &len);
        ok = line && append_log(a->log, line, len);
        free(line);
    }
    if (ok && a->restore)
        ok = write_restore(a->restore, r, s);
    return ok;
}

int td_cmd_snapshot(int argc, char **argv)
{
    struct snapshot_args a = {0};
    struct td_operands none;
    int status = td_args_parse(&td_snapshot_args, argc, argv, &a, &none);
    if (status != TD_ARGS_CONTINUE)
        return status;
    struct td_diagnose_request q = {.python = a.python,
                                    .root = a.root,
                                    .envp = (const char *const *)environ,
                                    .no_gpu = a.no_gpu,
                                    .symbols = a.symbols,
                                    .timeout_ms = a.timeout_ms};
    struct td_arena arena = {0};
    struct td_check_report r = {0};
    struct td_snapshot s = {0};
    td_snapshot_take(&q, a.verify, &r, &s, &arena);
    int rc = !emit(&a, &r, &s)                              ? TD_EXIT_USAGE
             : td_findings_count(&r.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS
                                                            : TD_EXIT_OK;
    td_diagnosis_free(&r, true);
    td_arena_free(&arena);
    return rc;
}
