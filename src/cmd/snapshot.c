/* torchdoctor snapshot: check's report of this machine plus what a later
 * diff needs (every distribution, the closure's files, the search paths),
 * as one JSON document; appended to a change log (--log) with what changed
 * since its last line; or turned into a restore script. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool write_file(const char *path, const char *mode, const char *buf, size_t len)
{
    FILE *f = fopen(path, mode);
    bool ok = f && fwrite(buf, 1, len, f) == len;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok)
        fprintf(stderr, "torchdoctor snapshot: cannot write %s\n", path);
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
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "torchdoctor snapshot: cannot write %s\n", path);
        return false;
    }
    td_restore_script(f, r, s, env, shell);
    bool ok = fclose(f) == 0;
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

/* --log: what changed since the log's last line, then the line appended. */
static bool append_log(const char *path, const char *line, size_t len)
{
    struct td_err err = {0};
    size_t old_len = 0;
    char *old = td_snapshot_file(path, &old_len, &err);
    const char *prev;
    size_t prev_len;
    struct td_arena arena = {0};
    struct td_snap_doc a = {0}, b = {0};
    char summary[1024] = "first entry";
    bool ok = true;
    if (old && last_line(old, old_len, &prev, &prev_len)) {
        if (td_snapshot_read(prev, prev_len, &a, &arena, &err) != 0 ||
            td_snapshot_read(line, len, &b, &arena, &err) != 0) {
            fprintf(stderr, "torchdoctor snapshot: %s: its last line: %s\n", path, err.msg);
            ok = false;
        } else {
            struct td_diff d = {0};
            td_snapshot_diff(&a, &b, &d, &arena);
            td_diff_summary(&d, summary, sizeof summary);
            td_diff_free(&d);
        }
    }
    if (ok && (ok = write_file(path, "ab", line, len)))
        printf("%s: %s\n", path, summary);
    td_snap_doc_free(&a);
    td_snap_doc_free(&b);
    td_arena_free(&arena);
    free(old);
    return ok;
}

static bool emit(const struct snapshot_args *a, const struct td_check_report *r,
                 const struct td_snapshot *s)
{
    const char *home = getenv("HOME");
    const char *user = a->redact ? getenv("USER") : NULL;
    const char *host = a->redact ? r->sys.hostname : NULL;
    bool ok = true;
    size_t len;
    if (a->output || (!a->log && !a->restore)) {
        char *doc = td_snapshot_text(r, s, true, home, user, host, &len);
        ok = doc && (a->output ? write_file(a->output, "wb", doc, len)
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
