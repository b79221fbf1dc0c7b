/* torchdoctor check: the whole-environment diagnosis. Probes the machine
 * (system, CPU, driver and GPUs in a child, Pythons, torch installs),
 * resolves every torch installation's import closure the way the loader
 * would, holds the facts against the knowledge tables, and prints short
 * sections and the findings, each with its fix. Nothing is imported or
 * changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/compat.h"
#include "cmd/cmd.h"
#include "kb/kb.h"
#include "report/check.h"
#include "report/envelope.h"
#include "report/fix_script.h"
#include "report/jsonw.h"

extern char **environ;

struct check_args {
    const char *python, *workload, *format, *output, *root, *color;
    bool redact, verify, no_gpu, symbols, live;
    int timeout_ms, live_timeout_ms;
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor check [--python EXE] [--workload NAME|list] [--format "
            "text|json|markdown]\n"
            "                         [-o FILE] [--redact] [--verify] [--symbols] [--no-gpu]\n"
            "                         [--timeout MS] [--root DIR] [--color WHEN]\n"
            "                         [--live [--live-timeout SEC]]\n"
            "\n"
            "Says whether PyTorch on this machine will load and use the GPU, and if not, why and\n"
            "what to paste, without importing torch: the system, CPU, NVIDIA driver and GPUs\n"
            "(probed in a child process with a timeout), every Python and torch installation,\n"
            "each torch's import closure resolved as the loader would, the environment.\n"
            "\n"
            "  --python EXE      check this interpreter only\n"
            "  --workload NAME   readiness for a training job (flux-lora, sdxl-lora, ...);\n"
            "                    'list' shows them with their needs and sources\n"
            "  -o FILE           write the report to FILE; FILE ending in .sh, .ps1 or .bat\n"
            "                    gets a script of the fixes instead, for you to read and run\n"
            "                    (fix.bat /dry-run prints its commands)\n"
            "  --redact          hide the user name, home directory and host name\n"
            "  --verify          hash every file against RECORD (default: sizes of all, hashes\n"
            "                    of files changed after install)\n"
            "  --symbols         bind every symbol of the torch closure (default: version needs)\n"
            "  --no-gpu          do not load the NVIDIA driver, even in a child\n"
            "  --timeout MS      how long the driver probe may take (default 5000)\n"
            "  --live            also run `import torch` (and torch.cuda.is_available() when a\n"
            "                    GPU answers) under `trace`, with the interpreter that owns the\n"
            "                    torch, and compare what it loaded with the static model.\n"
            "                    On Windows it first replays torch's DLL loads (LoadLibraryExW\n"
            "                    of every torch\\lib\\*.dll, which runs their DllMain) in a child\n"
            "                    and turns each WinError 126/127/193/1114 into a finding\n"
            "  --live-timeout S  how long that may take (default 120)\n"
            "  --root DIR        diagnose the system whose root is DIR (an image, a test tree)\n"
            "\n"
            "Exit status: 0 no error found, 1 an error finding, 2 the tool could not do it.\n");
}

static int parse_args(int argc, char **argv, struct check_args *a)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name) (strcmp(s, name) == 0 && v && ++i)
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            exit(TD_EXIT_OK);
        } else if (strcmp(s, "--redact") == 0) {
            a->redact = true;
        } else if (strcmp(s, "--verify") == 0) {
            a->verify = true;
        } else if (strcmp(s, "--no-gpu") == 0) {
            a->no_gpu = true;
        } else if (strcmp(s, "--symbols") == 0) {
            a->symbols = true;
        } else if (strcmp(s, "--live") == 0) {
            a->live = true;
        } else if (OPT("--live-timeout")) {
            a->live_timeout_ms = (int)(atof(v) * 1000);
        } else if (OPT("--python")) {
            a->python = v;
        } else if (OPT("--workload")) {
            a->workload = v;
        } else if (OPT("--format")) {
            a->format = v;
        } else if (OPT("-o") || OPT("--output")) {
            a->output = v;
        } else if (OPT("--root")) {
            a->root = v;
        } else if (OPT("--color")) {
            a->color = v;
        } else if (OPT("--timeout")) {
            a->timeout_ms = atoi(v);
        } else {
            fprintf(stderr, "torchdoctor check: unknown option or missing value: '%s'\n", s);
            return -1;
        }
#undef OPT
    }
    const char *f = a->format;
    if (strcmp(f, "text") && strcmp(f, "json") && strcmp(f, "markdown")) {
        fprintf(stderr, "torchdoctor check: --format must be text, json or markdown\n");
        return -1;
    }
    return 0;
}

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

static void render(const struct check_args *a, const struct td_check_report *r, FILE *out,
                   bool to_terminal)
{
    if (strcmp(a->format, "json") == 0) {
        td_check_json(r, out);
    } else if (strcmp(a->format, "markdown") == 0) {
        td_check_markdown(r, out);
    } else {
        struct td_term t;
        td_term_init(&t, out, to_terminal ? a->color : "never");
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
    if (script)
        td_fix_script(mem, &r->findings, shell);
    else
        render(a, r, mem, !o && !a->redact && isatty(STDOUT_FILENO));
    size_t len;
    char *buf = td_memstream_close(&ms, &len);
    if (!buf)
        return -1;
    if (a->redact)
        buf = redact(buf, &len, r);
    FILE *out = o ? fopen(o, "w") : stdout;
    if (!out) {
        fprintf(stderr, "torchdoctor check: cannot write %s\n", o);
        free(buf);
        return -1;
    }
    fwrite(buf, 1, len, out);
    free(buf);
    if (o) {
        fclose(out);
        fprintf(stderr, "torchdoctor check: wrote %s\n", o);
    }
    return 0;
}

int td_cmd_check(int argc, char **argv)
{
    struct check_args a = {.format = "text", .color = "auto"};
    if (parse_args(argc, argv, &a) != 0)
        return TD_EXIT_USAGE;
    if (a.workload && strcmp(a.workload, "list") == 0)
        return list_workloads(a.format);
    struct td_kb_workload w;
    if (a.workload && !td_kb_workload(a.workload, &w)) {
        fprintf(stderr, "torchdoctor check: unknown workload '%s' (see --workload list)\n",
                a.workload);
        return TD_EXIT_USAGE;
    }
    struct td_diagnose_request q = {.python = a.python,
                                    .root = a.root,
                                    .workload = a.workload ? &w : NULL,
                                    .envp = (const char *const *)environ,
                                    .no_gpu = a.no_gpu,
                                    .symbols = a.symbols,
                                    .verify = a.verify,
                                    .live = a.live,
                                    .timeout_ms = a.timeout_ms,
                                    .live_timeout_ms = a.live_timeout_ms};
    struct td_arena arena = {0};
    struct td_check_report r = {0};
    td_diagnose(&q, &r, &arena);
    int rc = emit(&a, &r) != 0                              ? TD_EXIT_USAGE
             : td_findings_count(&r.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS
                                                            : TD_EXIT_OK;
    /* The process exits next: the closures' mappings go with it. */
    td_diagnosis_free(&r, true);
    td_arena_free(&arena);
    return rc;
}
