/* torchdoctor check: the whole-environment diagnosis. Probes the machine
 * (system, CPU, driver and GPUs in a child, Pythons, torch installs),
 * resolves every torch installation's import closure the way the loader
 * would, holds the facts against the knowledge tables, and prints short
 * sections and the findings, each with its fix. Nothing is imported or
 * changed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/compat.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "cmd/job.h"
#include "kb/kb.h"
#include "kb/memory.h"
#include "report/check.h"
#include "report/envelope.h"
#include "report/fix_script.h"
#include "report/jsonw.h"

extern char **environ;

struct check_args {
    const char *python, *format, *output, *root, *color;
    struct td_job_args job; /* --workload and the job's sizing */
    bool redact, verify, no_gpu, symbols, no_symbols, live, verbose, health;
    int timeout_ms, dns_timeout_ms;
    double live_timeout_s;
};

static const char *const check_formats[] = {"text", "json", "jsonl", "markdown", "html", NULL};

#define AT(field, ctype) TD_AT(struct check_args, field, ctype)
static const struct td_option check_options[] = {
    {.name = "--python",
     .type = TD_ARG_FILE,
     .value = "EXE",
     .help = "check this interpreter only (a path on the target: under --root, inside DIR)",
     .at = AT(python, const char *)},
    {.name = "--workload",
     .type = TD_ARG_CHOICE,
     .value = "NAME",
     .values = td_job_workload_value,
     .help = "readiness for a training job, and the memory it needs against the GPU's (or the "
             "RAM without one); 'list' shows them with their needs and sources",
     .at = AT(job.workload, const char *)},
    TD_OPT_JOB(struct check_args, job),
    TD_OPT_FORMAT(struct check_args, format, check_formats,
                  "the report's form: text (coloured on a terminal), json (docs/schema.md), jsonl "
                  "(the same JSON on one line, for srun and fleet), markdown, to paste into a bug "
                  "report, or html"),
    {.name = "--output",
     .alias = 'o',
     .type = TD_ARG_FILE,
     .value = "FILE",
     .help = "write the report to FILE; FILE ending in .sh, .ps1 or .bat gets a script of the "
             "fixes instead, for you to read and run (fix.bat /dry-run prints its commands)",
     .at = AT(output, const char *)},
    {.name = "--redact",
     .type = TD_ARG_FLAG,
     .help = "hide the user name, home directory and host name (the report is then plain "
             "text)",
     .at = AT(redact, bool)},
    {.name = "--verify",
     .type = TD_ARG_FLAG,
     .help = "hash every file against RECORD, on every core (without it: the sizes of all, "
             "the hashes of files changed after install)",
     .at = AT(verify, bool)},
    {.name = "--verbose",
     .type = TD_ARG_FLAG,
     .help = "also list every CUDA library's GPU architectures and the sections they lie in",
     .at = AT(verbose, bool)},
    {.name = "--no-symbols",
     .type = TD_ARG_FLAG,
     .help = "check only the version needs of the torch closure (without it: every symbol is "
             "bound, names and versions, the interpreter's own libraries in scope)",
     .at = AT(no_symbols, bool)},
    {.name = "--symbols",
     .type = TD_ARG_FLAG,
     .help = "bind every symbol (the default; kept for scripts that pass it)",
     .at = AT(symbols, bool)},
    TD_OPT_NO_GPU(struct check_args, no_gpu),
    TD_OPT_DRIVER_TIMEOUT(struct check_args, timeout_ms),
    {.name = "--dns-timeout",
     .type = TD_ARG_INT,
     .value = "MS",
     .min = 1,
     .max = 10000,
     .def = "300",
     .help = "how long the MASTER_ADDR lookup may wait for DNS servers, all waits together, in "
             "milliseconds (no answer within it: \"unknown\", never \"does not resolve\")",
     .at = AT(dns_timeout_ms, int)},
    {.name = "--root",
     .type = TD_ARG_DIR,
     .value = "DIR",
     .must_exist = true,
     .help = "diagnose the system whose root is DIR (an image, a test tree)",
     .at = AT(root, const char *)},
    TD_OPT_COLOR(struct check_args, color),
    {.name = "--health",
     .type = TD_ARG_FLAG,
     .help = "for Slurm's HealthCheckProgram and NHC: only the version needs of the closure "
             "(as --no-symbols), then one line fit for a drain reason and exit 0 (healthy) or 1; "
             "on 1 also the `scontrol update nodename=... state=drain reason=...` line, printed, "
             "never run (docs/fleet.md)",
     .at = AT(health, bool)},
    {.name = "--live",
     .type = TD_ARG_FLAG,
     .help = "also run `import torch` (and torch.cuda.is_available() when a GPU answers) under "
             "`trace`, with the interpreter that owns the torch, and compare what it loaded with "
             "the static model. On Windows it first replays torch's DLL loads (LoadLibraryExW of "
             "every torch\\lib\\*.dll, which runs their DllMain) in a child and turns each "
             "WinError 126/127/193/1114 into a finding",
     .at = AT(live, bool)},
    {.name = "--live-timeout",
     .type = TD_ARG_NUMBER,
     .value = "SEC",
     .min = 0.1,
     .max = 86400,
     .def = "120",
     .help = "how long --live may take, in seconds",
     .at = AT(live_timeout_s, double)},
    {0},
};
#undef AT

static const struct td_example check_examples[] = {
    {"torchdoctor check", "diagnose every Python and torch on this machine"},
    {"torchdoctor check --python venv/bin/python --workload flux-lora",
     "one interpreter, and whether it is ready for FLUX.1 LoRA training"},
    {"torchdoctor check --workload flux-lora --model FLUX.1-dev --precision fp8",
     "whether FLUX.1 LoRA training fits this GPU with fp8 base weights, and why"},
    {"torchdoctor check --format markdown --redact", "a report to paste into a bug report"},
    {"torchdoctor check -o fix.sh", "the fixes as a script, to read and then run"},
    {"torchdoctor check --health", "Slurm's HealthCheckProgram: one line, exit 0 or 1"},
    {0},
};

const struct td_args_spec td_check_args = {
    .command = "check",
    .max_operands = 0,
    .description =
        "Says whether PyTorch on this machine will load and use the GPU, and if not, why and "
        "what to paste, without importing torch: the system, CPU, NVIDIA driver and GPUs "
        "(probed in a child process with a timeout), every Python and torch installation, "
        "each torch's import closure resolved as the loader would, the environment.",
    .options = check_options,
    .examples = check_examples,
};

static int list_workloads(const char *format)
{
    struct td_kb_workload w[64];
    size_t n = td_kb_workloads(w, 64);
    if (n > 64)
        n = 64;
    if (strcmp(format, "json") != 0) {
        for (size_t i = 0; i < n; i++) {
            char needs[256];
            printf("%-18s %s: %s\n%18s source: %s\n", w[i].slug, w[i].name,
                   td_check_workload_needs(&w[i], needs, sizeof needs), "", w[i].source);
        }
        return TD_EXIT_OK;
    }
    static struct td_jsonw jw;
    static const struct td_findings none;
    td_jw_init(&jw, stdout, true);
    td_envelope_begin(&jw, "check", td_host_platform());
    td_jw_key(&jw, "workloads");
    td_jw_begin_array(&jw);
    for (size_t i = 0; i < n; i++) {
        td_jw_begin_object(&jw);
        td_jw_kstr(&jw, "slug", w[i].slug);
        td_jw_kstr(&jw, "name", w[i].name);
        td_jw_key(&jw, "vram_min_gb");
        if (w[i].vram_min_gb > 0)
            td_jw_fixed(&jw, w[i].vram_min_gb, 1);
        else
            td_jw_null(&jw);
        td_jw_key(&jw, "vram_rec_gb");
        if (w[i].vram_rec_gb > 0)
            td_jw_fixed(&jw, w[i].vram_rec_gb, 1);
        else
            td_jw_null(&jw);
        td_jw_key(&jw, "ram_min_gb");
        if (w[i].ram_min_gb > 0)
            td_jw_fixed(&jw, w[i].ram_min_gb, 1);
        else
            td_jw_null(&jw);
        td_jw_key(&jw, "disk_gb");
        if (w[i].disk_gb > 0)
            td_jw_fixed(&jw, w[i].disk_gb, 1);
        else
            td_jw_null(&jw);
        td_jw_kstr(&jw, "source", w[i].source);
        td_jw_end_object(&jw);
    }
    td_jw_end_array(&jw);
    td_envelope_findings(&jw, &none);
    td_envelope_end(&jw);
    return TD_EXIT_OK;
}

/* Replaces every FROM in BUF (of *LEN bytes, capacity CAP) by TO where
 * FROM is not part of a longer word (a path segment, a host name). */
static char *replace_all(char *buf, size_t *len, const char *from, const char *to, bool word)
{
    size_t nf = strlen(from), nt = strlen(to);
    if (nf == 0)
        return buf;
    size_t cap = *len + 1 + (nt > nf ? (*len / nf + 1) * (nt - nf) : 0);
    char *out = malloc(cap), *o = out;
    if (!out)
        return buf;
    for (size_t i = 0; i < *len;) {
        bool hit = i + nf <= *len && memcmp(buf + i, from, nf) == 0;
        if (hit && word) {
            char before = i ? buf[i - 1] : ' ', after = i + nf < *len ? buf[i + nf] : ' ';
            hit = !(before == '_' || before == '-' || (before >= '0' && before <= '9') ||
                    ((before | 32) >= 'a' && (before | 32) <= 'z')) &&
                  !(after == '_' || after == '-' || (after >= '0' && after <= '9') ||
                    ((after | 32) >= 'a' && (after | 32) <= 'z'));
        }
        if (hit) {
            memcpy(o, to, nt), o += nt, i += nf;
        } else {
            *o++ = buf[i++];
        }
    }
    *o = '\0';
    *len = (size_t)(o - out);
    free(buf);
    return out;
}

/* --redact: the home directory becomes ~, the user name <user> (as a path
 * segment), the host name <host>. */
static char *redact(char *buf, size_t *len, const struct td_check_report *r)
{
    const char *home = getenv("HOME");
    const char *user = getenv("USER");
    if (home && strlen(home) > 1)
        buf = replace_all(buf, len, home, "~", false);
    if (user && *user && strcmp(user, "root") != 0) {
        char from[160], to[16];
        for (int sep = 0; sep < 2; sep++) {
            snprintf(from, sizeof from, "%c%s", sep ? '\\' : '/', user);
            snprintf(to, sizeof to, "%c<user>", sep ? '\\' : '/');
            buf = replace_all(buf, len, from, to, true);
        }
    }
    if (r->sys.hostname && strlen(r->sys.hostname) > 2)
        buf = replace_all(buf, len, r->sys.hostname, "<host>", true);
    return buf;
}

/* The report is rendered into memory first (for --redact), so "auto" is
 * decided here, for the real output: stdout a terminal, no -o, NO_COLOR
 * unset. Redaction matches whole words, which escapes would hide: plain. */
static const char *color_mode(const struct check_args *a)
{
    if (a->redact)
        return "never";
    if (strcmp(a->color, "auto") != 0)
        return a->color;
    return !a->output && isatty(STDOUT_FILENO) && !getenv("NO_COLOR") ? "always" : "never";
}

static void render(const struct check_args *a, const struct td_check_report *r, FILE *out)
{
    if (strcmp(a->format, "json") == 0 || strcmp(a->format, "jsonl") == 0) {
        td_check_json(r, out, strcmp(a->format, "json") == 0);
    } else if (strcmp(a->format, "markdown") == 0) {
        td_check_markdown(r, out);
    } else if (strcmp(a->format, "html") == 0) {
        td_check_html(r, out);
    } else {
        struct td_term t;
        td_term_init(&t, out, color_mode(a));
        td_check_text(r, &t);
    }
}

static int emit(const struct check_args *a, const struct td_check_report *r)
{
    const char *o = a->output;
    enum td_shell shell;
    bool script = td_fix_script_shell(o, &shell);
    struct td_memstream ms;
    FILE *mem = td_memstream_open(&ms);
    if (!mem)
        return -1;
    /* --redact: the host field hidden at the source too, since a short name
     * ("vm") is not replaced in the text, where it would mangle words. */
    struct td_check_report shown = *r;
    if (a->redact && shown.sys.hostname)
        shown.sys.hostname = "<host>";
    if (script)
        td_fix_script(mem, &r->findings, shell);
    else
        render(a, &shown, mem);
    size_t len;
    char *buf = td_memstream_close(&ms, &len);
    if (!buf)
        return -1;
    if (a->redact)
        buf = redact(buf, &len, r);
    struct td_outfile file;
    struct td_err err = {0};
    FILE *out = o ? td_outfile_open(&file, o, &err) : stdout;
    bool ok = out && fwrite(buf, 1, len, out) == len;
    free(buf);
    if (o && out && !ok) {
        td_err_set(&err, "%s: cannot write: %s", o, strerror(errno));
        td_outfile_abort(&file);
    } else if (o && out)
        ok = td_outfile_commit(&file, &err);
    if (o && !ok)
        fprintf(stderr, "torchdoctor check: %s\n", err.set ? err.msg : "cannot write the report");
    else if (o)
        fprintf(stderr, "torchdoctor check: wrote %s\n", o);
    return ok || !o ? 0 : -1; /* stdout's errors are main's to say */
}

/* --python names a file of the target: under --root it is looked up there. */
static bool python_exists(const struct check_args *a)
{
    char host[4200];
    snprintf(host, sizeof host, "%s%s", a->root ? a->root : "", a->python);
    if (access(host, F_OK) == 0)
        return true;
    fprintf(stderr, "torchdoctor check: --python must be an existing file%s (got '%s')\n",
            a->root ? " under --root" : "", a->python);
    return false;
}

int td_cmd_check(int argc, char **argv)
{
    struct check_args a = {.job.lora_rank = -1};
    struct td_operands none;
    int status = td_args_parse(&td_check_args, argc, argv, &a, &none);
    if (status != TD_ARGS_CONTINUE)
        return status;
    if (a.job.workload && strcmp(a.job.workload, "list") == 0)
        return list_workloads(a.format);
    if (a.python && !python_exists(&a))
        return TD_EXIT_USAGE;
    struct td_kb_workload w;
    if (a.job.workload && !td_kb_workload(a.job.workload, &w))
        return TD_EXIT_USAGE; /* the table accepted it: cannot happen */
    struct td_mem_job job;
    if (!td_job_from_args(&a.job, "check", &job))
        return TD_EXIT_USAGE;
    struct td_diagnose_request q = {.python = a.python,
                                    .root = a.root,
                                    .workload = a.job.workload ? &w : NULL,
                                    .job = a.job.workload ? &job : NULL,
                                    .envp = (const char *const *)environ,
                                    .no_gpu = a.no_gpu,
                                    /* --symbols: the default; --health: fast */
                                    .symbols = !a.no_symbols && !a.health,
                                    .verify = a.verify && !a.health,
                                    .live = a.live && !a.health,
                                    .timeout_ms = a.timeout_ms,
                                    .live_timeout_ms = (int)(a.live_timeout_s * 1000),
                                    .dns_budget_ms = a.dns_timeout_ms};
    struct td_arena arena = {0};
    struct td_check_report r = {0};
    td_diagnose(&q, &r, &arena);
    r.verbose = a.verbose;
    if (a.health) {
        int health = td_check_health(&r, stdout);
        fflush(stdout);
        td_diagnosis_free(&r, true);
        td_arena_free(&arena);
        return health;
    }
    int rc = emit(&a, &r) != 0                              ? TD_EXIT_USAGE
             : td_findings_count(&r.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS
                                                            : TD_EXIT_OK;
    /* The process exits next: the closures' mappings go with it. */
    td_diagnosis_free(&r, true);
    td_arena_free(&arena);
    return rc;
}
