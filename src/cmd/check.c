/* torchdoctor check: the whole-environment diagnosis. Probes the machine
 * (system, CPU, driver and GPUs in a child, Pythons, torch installs),
 * resolves every torch installation's import closure the way the loader
 * would, holds the facts against the knowledge tables, and prints short
 * sections and the findings, each with its fix. Nothing is imported or
 * changed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/data.h"
#include "cmd/cmd.h"
#include "graph/graph.h"
#include "kb/kb.h"
#include "probe/apiset.h"
#include "probe/rules.h"
#include "report/check.h"
#include "report/envelope.h"
#include "report/fix_script.h"
#include "report/jsonw.h"

extern char **environ;

enum { CHECK_HASH_LIMIT = 0 };

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
            "                    of files up to 1 MiB)\n"
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

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
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

/* The import closure of torch T (torch-import profile), in the
 * environment this process would give Python. */
static struct td_graph *torch_closure(const struct check_args *a, const struct td_torch *t,
                                      const struct td_python *py, struct td_arena *arena)
{
    /* What the loader of this platform reads from the environment. */
    bool windows = strcmp(td_host_platform(), "windows") == 0;
    static const char *const linux_names[] = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
    static const char *const windows_names[] = {"PATH", NULL};
    const char *const *names = windows ? windows_names : linux_names;
    struct td_env_var *env = td_arena_array(arena, 2, sizeof *env);
    size_t n_env = 0;
    for (size_t i = 0; env && i < 2 && names[i]; i++) {
        const char *v = getenv(names[i]);
        if (v)
            env[n_env++] = (struct td_env_var){names[i], v};
    }
    struct td_loader_config *cfg = td_arena_alloc(arena, sizeof *cfg);
    struct td_graph *g = td_arena_alloc(arena, sizeof *g);
    const char *roots[256];
    char probe[4200];
    if (!cfg || !g)
        return NULL;
    *cfg = (struct td_loader_config){.platform = windows ? TD_PLATFORM_WINDOWS : TD_PLATFORM_LINUX,
                                     .profile = TD_PROFILE_TORCH_IMPORT,
                                     .root = a->root,
                                     .env = env,
                                     .n_env = n_env};
    if (windows && !a->root) /* this system: the schema its loader uses */
        cfg->live_apisets = td_probe_live_apisets();
    snprintf(probe, sizeof probe, "%s/lib/_", t->dir);
    for (char *c = probe; windows && *c; c++) /* the probes write '/'; Windows paths are '\' */
        if (*c == '/')
            *c = '\\';
    size_t n = td_torch_import_roots(cfg, probe, roots, 256, arena);
    if (n == 0)
        return NULL;
    struct td_graph_options opts = {.bind_symbols = true,
                                    .versions_only = !a->symbols,
                                    .interpreter = py ? (py->real ? py->real : py->exe) : NULL};
    struct td_err err = {0};
    if (td_graph_build(g, cfg, &opts, roots, n, &err) != 0) {
        td_graph_free(g);
        return NULL;
    }
    return g;
}

static void copy_findings(struct td_findings *to, const struct td_findings *from)
{
    for (size_t i = 0; i < from->count; i++) {
        const struct td_finding *x = &from->items[i];
        td_findings_add(to, x->severity, x->kind, x->library, x->needed_by, x->symbol, x->fix, "%s",
                        x->detail);
    }
}

/* The variables of this environment the catalogue knows, as NAME=value. */
static void known_env(struct td_check_report *r, struct td_arena *arena)
{
    size_t n = 0;
    for (char **e = environ; *e; e++)
        n++;
    r->env = td_arena_array(arena, n + 1, sizeof *r->env);
    for (char **e = environ; r->env && *e; e++) {
        char name[128];
        size_t len = strcspn(*e, "=");
        if (len >= sizeof name)
            continue;
        memcpy(name, *e, len);
        name[len] = '\0';
        if (td_kb_env_known(name))
            r->env[r->n_env++] = *e;
    }
}

static void probe_all(const struct check_args *a, struct td_check_report *r, struct td_arena *arena)
{
    struct td_probe_ctx ctx = {.root = a->root, .arena = arena, .timeout_ms = a->timeout_ms};
    r->os = td_host_platform();
    td_probe_system(&ctx, &r->sys);
    td_probe_windows(&ctx, &r->win);
    td_probe_cpu(&ctx, &r->cpu);
    if (!a->no_gpu) {
        td_probe_gpu(&ctx, &r->gpu);
        r->gpu_probed = true;
    }
    td_probe_pythons(&ctx, a->python, &r->pythons, &r->n_py);
    /* Sizes of every file always; hashes of small files only, unless
     * --verify: hashing Debian's 20 MB of sources under 1 MiB took 50 ms,
     * more than the rest of check. */
    uint64_t limit = a->verify ? UINT64_MAX : CHECK_HASH_LIMIT;
    td_probe_torch(&ctx, r->pythons, r->n_py, limit, &r->torch, &r->n_torch, &r->findings);
    r->graphs = td_arena_array(arena, r->n_torch + 1, sizeof *r->graphs);
    for (size_t i = 0; r->graphs && i < r->n_torch; i++) {
        const struct td_torch *t = &r->torch[i];
        r->graphs[i] =
            torch_closure(a, t, t->python < r->n_py ? &r->pythons[t->python] : NULL, arena);
        if (r->graphs[i])
            copy_findings(&r->findings, &r->graphs[i]->findings);
    }
}

/* What --live runs: the import, timed, then (GPU machines) CUDA. Results go
 * to stderr, which the trace reads (the child's stdout is not captured). */
static const char live_import[] = "import sys, time\n"
                                  "t = time.perf_counter()\n"
                                  "import torch\n"
                                  "sys.stderr.write('td-live import_ms=%.1f version=%s\\n' % "
                                  "((time.perf_counter() - t) * 1e3, torch.__version__))\n";
static const char live_cuda[] =
    "ok = torch.cuda.is_available()\n"
    "sys.stderr.write('td-live cuda=%d devices=%d\\n' % (ok, torch.cuda.device_count() if ok else "
    "0))\n";

static void parse_live(struct td_check_report *r, struct td_arena *arena)
{
    const char *tail = r->live->stderr_tail;
    const char *imp = tail ? strstr(tail, "td-live import_ms=") : NULL;
    const char *cuda = tail ? strstr(tail, "td-live cuda=") : NULL;
    if (imp) {
        r->live_import_ms = atof(imp + 18);
        const char *v = strstr(imp, "version=");
        if (v)
            r->live_version = td_arena_strndup(arena, v + 8, strcspn(v + 8, "\n"));
    }
    if (cuda && r->live_cuda == 0) {
        r->live_cuda = atoi(cuda + 13) ? 1 : 0;
        const char *d = strstr(cuda, "devices=");
        r->live_devices = d ? atoi(d + 8) : 0;
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The static check already said it (same kind, same file by name). */
static bool same_finding(const struct td_findings *f, const struct td_finding *x)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].kind, x->kind) == 0 && f->items[i].library && x->library &&
            strcmp(base_name(f->items[i].library), base_name(x->library)) == 0)
            return true;
    return false;
}

/* check --live on Windows: torch's DLL loads replayed in a child
 * (probe/replay.h), each error code held against the static closure. */
static void live_replay(const struct check_args *a, struct td_check_report *r,
                        const struct td_python *py, struct td_arena *arena)
{
#ifdef _WIN32
    struct td_replay *x = td_arena_alloc(arena, sizeof *x);
    if (!x || !r->graphs || !r->graphs[0])
        return;
    td_replay_run(r->graphs[0], a->live_timeout_ms > 0 ? a->live_timeout_ms : 120 * 1000, arena, x);
    td_replay_findings(x, r->graphs[0], py ? py->exe : NULL, &r->findings);
    r->replay = x;
#else
    (void)a, (void)r, (void)py, (void)arena;
#endif
}

/* check --live (issue: confirm the static answer by a real load). */
static void live(const struct check_args *a, struct td_check_report *r, struct td_arena *arena)
{
    const struct td_torch *t = r->n_torch ? &r->torch[0] : NULL;
    const struct td_python *py = t && t->python < r->n_py ? &r->pythons[t->python] : NULL;
    if (t)
        live_replay(a, r, py, arena);
    if (!py)
        return;
    bool gpu = r->gpu_probed && r->gpu.status == TD_GPU_OK;
    size_t len = sizeof live_import + sizeof live_cuda;
    char *code = td_arena_alloc(arena, len);
    struct td_trace *tr = td_arena_alloc(arena, sizeof *tr);
    if (!code || !tr)
        return;
    snprintf(code, len, "%s%s", live_import, gpu ? live_cuda : "");
    const char *argv[] = {py->exe, "-c", code, NULL};
    struct td_trace_options opts = {.timeout_ms =
                                        a->live_timeout_ms > 0 ? a->live_timeout_ms : 120 * 1000};
    struct td_err err = {0};
    r->live_python = py->exe;
    r->live_import_ms = -1;
    r->live_cuda = gpu ? 0 : -1;
    if (td_trace_run(argv, &opts, tr, &err) != 0) {
        td_findings_add(&r->findings, TD_SEV_WARNING, TD_KIND_UNREADABLE_FILE, py->exe, NULL, NULL,
                        NULL, "--live could not run %s: %s", py->exe, err.msg);
        return;
    }
    r->live = tr;
    struct td_graph *g = td_arena_alloc(arena, sizeof *g);
    struct td_err gerr = {0};
    bool model = g && td_trace_build_model(tr, g, arena, &gerr) == 0;
    td_trace_analyze(tr, model ? g : NULL);
    parse_live(r, arena);
    for (size_t i = 0; i < tr->findings.count; i++)
        if (!same_finding(&r->findings, &tr->findings.items[i])) {
            const struct td_finding *x = &tr->findings.items[i];
            td_findings_add(&r->findings, x->severity, x->kind, x->library, x->needed_by, x->symbol,
                            x->fix, "%s (seen by --live)", x->detail);
        }
    if (r->live_import_ms < 0 && !tr->failed && tr->findings.count == 0)
        td_findings_add(&r->findings, TD_SEV_ERROR, TD_KIND_INIT_FAILURE, "torch", py->exe, NULL,
                        "run it by hand to see the whole traceback: python -c 'import torch'",
                        "import torch with %s did not finish%s: %s", py->exe,
                        tr->timed_out ? " within the timeout" : "",
                        tr->stderr_tail ? tr->stderr_tail : "no message");
    if (r->live_cuda == 0)
        td_findings_add(&r->findings, TD_SEV_ERROR, TD_KIND_GPU_NOT_VISIBLE, "torch", py->exe, NULL,
                        NULL,
                        "the driver answers, but torch.cuda.is_available() is False in %s (its "
                        "last words: %s)",
                        py->exe, tr->stderr_tail ? tr->stderr_tail : "none");
    if (model)
        td_graph_free_at_exit(g);
}

static bool dir_exists(const char *dir, void *ctx)
{
    struct stat st;
    (void)ctx;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static void judge(const struct check_args *a, struct td_check_report *r, struct td_kb_workload *w)
{
    struct td_facts x = {.os = r->os,
                         .sys = &r->sys,
                         .cpu = &r->cpu,
                         .gpu = r->gpu_probed ? &r->gpu : NULL,
                         .pythons = r->pythons,
                         .n_py = r->n_py,
                         .torch = r->torch,
                         .n_torch = r->n_torch};
    td_rules_torch(&x, &r->findings);
    td_rules_env(&x, environ, &r->findings);
    if (r->win.probed) {
        td_rules_vc_runtime(&r->win, r->torch, r->n_torch, &r->findings);
        td_rules_path(getenv("PATH"), dir_exists, NULL, r->win.cuda_path_versions,
                      r->win.n_cuda_path_versions, r->n_torch ? r->torch[0].cuda : NULL,
                      &r->findings);
    }
    if (a->workload) {
        r->workload = w;
        r->workload_ready = td_rules_workload(&x, w, &r->findings);
    }
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
    double t0 = now_ms();
    struct td_arena arena = {0};
    struct td_check_report r = {0};
    probe_all(&a, &r, &arena);
    judge(&a, &r, &w);
    if (a.live)
        live(&a, &r, &arena);
    known_env(&r, &arena);
    r.elapsed_ms = now_ms() - t0;
    int rc = emit(&a, &r) != 0                              ? TD_EXIT_USAGE
             : td_findings_count(&r.findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS
                                                            : TD_EXIT_OK;
    /* The process exits next: the closures' mappings go with it. */
    for (size_t i = 0; r.graphs && i < r.n_torch; i++)
        if (r.graphs[i])
            td_graph_free_at_exit(r.graphs[i]);
    td_findings_free(&r.findings);
    if (r.live)
        td_trace_free(r.live);
    td_arena_free(&arena);
    return rc;
}
