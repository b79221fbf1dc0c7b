/* src/probe/ (its own files) is the top that combines the probes below
 * it (python/, install/, gpu/, system/, sharing probe.c) with the tracer
 * into check's diagnosis (here) and its rules (rules*.c, winrules.c).
 *
 * The diagnosis behind `check` (probe/diagnose.h): the probes, each torch's
 * import closure, the rules, and --live's confirmation, in that order. */
#include "base/clock.h"
#include "base/compat.h"
#include "probe/diagnose.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/thread.h"
#include "graph/target.h"
#include "probe/system/apiset.h"
#include "probe/install/closure_checks.h"
#include "probe/gpu/gpu_code.h"
#include "probe/install/provider.h"
#include "probe/python/pyfs.h"
#include "probe/rules.h"

/* Sizes of every file always; by size, hashes of none (a file newer than its
 * manifest is hashed whatever its size, torch_integrity.c): hashing Debian's
 * 20 MB of sources under 1 MiB took 50 ms, more than the rest of check. */
enum { CHECK_HASH_LIMIT = 0 };

static const char *env_get(const struct td_diagnose_request *a, const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = a->envp; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static double now_ms(void)
{
    return td_monotonic_s() * 1e3;
}

/* The import closure of torch T, built as `deps` builds it (graph/target.h),
 * in the environment this process would give Python. The probes name
 * files on the target; the graph reads them through host paths. */
static struct td_graph *torch_closure(const struct td_diagnose_request *a,
                                      const struct td_probe_ctx *ctx, const struct td_torch *t,
                                      const struct td_python *py, struct td_arena *arena)
{
    char torch[4096], python[4096];
    const char *exe = py ? (py->real ? py->real : py->exe) : NULL;
    struct td_graph *g = td_arena_alloc(arena, sizeof *g);
    if (!g || !td_pyfs_host(ctx, t->dir, torch, sizeof torch))
        return NULL;
    if (exe && !td_pyfs_host(ctx, exe, python, sizeof python))
        exe = NULL;
    bool windows = strcmp(td_host_platform(), "windows") == 0;
    for (char *c = torch; windows && *c; c++) /* the probes write '/'; Windows paths are '\' */
        if (*c == '/')
            *c = '\\';
    struct td_target_request r = {
        .torch_dir = td_arena_strdup(arena, torch),
        .platform = td_host_platform(),
        .root = a->root,
        .python = exe ? td_arena_strdup(arena, python) : NULL,
        .symbols = a->symbols ? TD_SYMBOLS_ALL : TD_SYMBOLS_VERSIONS,
        .envp = a->envp,
        .live_apisets = a->root ? NULL : td_probe_live_apisets(), /* this system's schema */
    };
    struct td_err err = {0};
    if (td_target_build(&r, g, arena, &err) != 0) {
        td_graph_free(g);
        return NULL;
    }
    td_name_providers(g, py ? py->exe : NULL);
    return g;
}

/* The fat binaries of T's closure, judged for every GPU; each read only
 * until every GPU has SASS (whole when CUDA_FORCE_PTX_JIT makes SASS not
 * count), the packages named only of the libraries read whole (a finding
 * may name them). */
static void read_gpu_code(const struct td_diagnose_request *a, const struct td_probe_ctx *ctx,
                          struct td_torch *t, const struct td_graph *g,
                          const struct td_gpu_info *gpu, const char *os, struct td_arena *arena)
{
    char cuda[16];
    const char *force = env_get(a, "CUDA_FORCE_PTX_JIT"),
               *disable = env_get(a, "CUDA_DISABLE_PTX_JIT");
    struct td_gpu_code_env env = {.driver_cuda = td_gpu_driver_cuda(gpu, os, cuda, sizeof cuda),
                                  .force_ptx_jit = force && strcmp(force, "1") == 0,
                                  .disable_ptx_jit = disable && strcmp(disable, "1") == 0};
    struct td_gpu_code_for q = {.gpus = gpu->gpus, .n = env.force_ptx_jit ? 0 : gpu->n_gpus};
    t->n_gpu_code = td_gpu_code_of_closure(g, &q, arena, &t->gpu_code);
    td_gpu_code_judge_all(t->gpu_code, t->n_gpu_code, gpu, &env, arena);
    td_gpu_code_packages(ctx, t, t->gpu_code, t->n_gpu_code);
}

/* The variables of this environment the catalogue knows, as NAME=value. */
static void known_env(const struct td_diagnose_request *a, struct td_check_report *r,
                      struct td_arena *arena)
{
    size_t n = 0;
    for (const char *const *e = a->envp; *e; e++)
        n++;
    r->env = td_arena_array(arena, n + 1, sizeof *r->env);
    for (const char *const *e = a->envp; r->env && *e; e++) {
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

/* The installs' integrity checks (td_probe_torch_integrity), on a thread
 * of their own while the import closures are built: they are stat and
 * readdir calls, the closure mostly reads tables and binds, and the two
 * together kept check on one core. Findings go to a list of their own,
 * appended where td_probe_torch would have put them; what they keep (the
 * leftovers' strings) lives in the report's integrity_arena, as the
 * arena is not shared between threads. */
struct integrity_job {
    struct td_probe_ctx ctx;      /* the closure's, with an arena of its own (leftovers' strings) */
    struct td_thread_claim claim; /* lowered while the closure runs (base/thread.h) */
    const struct td_check_report *r;
    uint64_t hash_limit;
    struct td_findings found;
};

static void *integrity_thread(void *arg)
{
    struct integrity_job *j = arg;
    td_thread_claim_lower(&j->claim);
    td_probe_torch_integrity(&j->ctx, j->r->pythons, j->r->torch, j->r->n_torch, j->hash_limit,
                             &j->found);
    return NULL;
}

/* The GPU probe (a child that loads the driver, with a timeout: tens to
 * hundreds of ms where there is a GPU) needs nothing the others find, and
 * they nothing of it: it runs beside them, its strings in an arena of its
 * own. */
struct gpu_job {
    struct td_probe_ctx ctx;
    struct td_check_report *r;
};

static void *gpu_thread(void *arg)
{
    struct gpu_job *j = arg;
    td_probe_gpu(&j->ctx, &j->r->gpu);
    return NULL;
}

static void probe_all(const struct td_diagnose_request *a, struct td_check_report *r,
                      struct td_arena *arena)
{
    struct td_probe_ctx ctx = {
        .root = a->root, .arena = arena, .timeout_ms = a->timeout_ms, .envp = a->envp};
    r->os = td_host_platform();
    struct gpu_job gpu = {.ctx = ctx, .r = r};
    gpu.ctx.arena = &r->gpu_arena;
    pthread_t gpu_probe;
    bool gpu_threaded = !a->no_gpu && pthread_create(&gpu_probe, NULL, gpu_thread, &gpu) == 0;
    if (!a->no_gpu && !gpu_threaded)
        gpu_thread(&gpu);
    r->gpu_probed = !a->no_gpu;
    td_probe_system(&ctx, &r->sys);
    td_probe_environment(&ctx, &r->environment);
    td_probe_windows(&ctx, &r->win);
    td_probe_cpu(&ctx, &r->cpu);
    td_probe_pythons(&ctx, a->python, &r->pythons, &r->n_py);
    td_probe_torch_installs(&ctx, r->pythons, r->n_py, &r->torch, &r->n_torch, &r->findings);
    struct integrity_job job = {
        .ctx = ctx, .r = r, .hash_limit = a->verify ? UINT64_MAX : CHECK_HASH_LIMIT};
    job.ctx.arena = &r->integrity_arena;
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, integrity_thread, &job) == 0;
    if (!threaded) {
        td_thread_claim_restore(&job.claim); /* this thread's own priority stays */
        integrity_thread(&job);
    }
    r->graphs = td_arena_array(arena, r->n_torch + 1, sizeof *r->graphs);
    for (size_t i = 0; r->graphs && i < r->n_torch; i++) {
        const struct td_torch *t = &r->torch[i];
        r->graphs[i] =
            torch_closure(a, &ctx, t, t->python < r->n_py ? &r->pythons[t->python] : NULL, arena);
    }
    td_thread_claim_restore(&job.claim); /* what is left is waited for now */
    if (threaded)
        pthread_join(thread, NULL);
    td_torch_absorb(NULL, &job.found, &r->findings);
    td_findings_free(&job.found);
    for (size_t i = 0; r->graphs && i < r->n_torch; i++) {
        struct td_torch *t = &r->torch[i];
        const struct td_python *py = t->python < r->n_py ? &r->pythons[t->python] : NULL;
        if (r->graphs[i])
            td_torch_absorb(t, &r->graphs[i]->findings, &r->findings);
        td_torch_leftovers(t, r->graphs[i], &r->findings);
        td_conda_integrity(&ctx, t, py, r->graphs[i], job.hash_limit, &r->findings);
        td_debian_integrity(&ctx, t, r->graphs[i], job.hash_limit, &r->findings);
    }
    if (gpu_threaded)
        pthread_join(gpu_probe, NULL);
    for (size_t i = 0; r->graphs && i < r->n_torch; i++)
        if (r->graphs[i] && r->torch[i].cuda && r->gpu_probed && r->gpu.status == TD_GPU_OK)
            read_gpu_code(a, &ctx, &r->torch[i], r->graphs[i], &r->gpu, r->os, arena);
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
 * (trace/replay.h), each error code held against the static closure. */
static void live_replay(const struct td_diagnose_request *a, struct td_check_report *r,
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
static void live(const struct td_diagnose_request *a, struct td_check_report *r,
                 struct td_arena *arena)
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
    bool model = g && td_trace_build_model(tr, a->envp, g, arena, &gerr) == 0;
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

/* The environment's findings; when one of them says why the GPU is out of
 * reach (a container started without it, WSL's libcuda shadowed), the
 * torch rule's "no NVIDIA driver" says the same thing again and goes. */
static void judge_environment(struct td_check_report *r, size_t torch_from)
{
    const char *cuda = NULL;
    for (size_t i = 0; i < r->n_torch && !cuda; i++)
        cuda = r->torch[i].cuda;
    size_t from = r->findings.count;
    td_rules_environment(&r->environment, r->gpu_probed ? &r->gpu : NULL, cuda, &r->findings);
    bool explained = false;
    for (size_t i = from; i < r->findings.count; i++) {
        const char *k = r->findings.items[i].kind;
        explained |=
            r->findings.items[i].severity == TD_SEV_ERROR &&
            (!strcmp(k, TD_KIND_GPU_NOT_VISIBLE) || !strcmp(k, TD_KIND_SHADOWED_LIBRARY) ||
             !strcmp(k, TD_KIND_DRIVER_LIBRARY_MISMATCH) ||
             !strcmp(k, TD_KIND_DEVICE_NOT_ACCESSIBLE) || !strcmp(k, TD_KIND_ENV_VAR_INVALID));
    }
    for (size_t i = from; explained && i-- > torch_from;) {
        const struct td_finding *x = &r->findings.items[i];
        if (i < from && !strcmp(x->kind, TD_KIND_GPU_NOT_VISIBLE) && x->library &&
            !strcmp(x->library, "libcuda.so.1"))
            td_findings_remove(&r->findings, i);
    }
}

/* The job's memory against the first GPU, else the system's RAM; a job
 * that does not fit is an error finding. */
static void estimate_memory(const struct td_facts *x, const struct td_mem_job *job,
                            struct td_check_report *r)
{
    const struct td_gpu *g =
        x->gpu && x->gpu->status == TD_GPU_OK && x->gpu->n_gpus ? &x->gpu->gpus[0] : NULL;
    double cap = g ? (double)g->memory : x->sys ? (double)x->sys->ram_total : 0;
    r->memory_device = g ? g->name : "system RAM";
    r->has_memory = td_mem_estimate(job, cap, &r->memory, r->memory_error, sizeof r->memory_error);
    if (r->has_memory)
        td_mem_finding(&r->memory, r->memory_device, job->workload, &r->findings);
}

static void judge(const struct td_diagnose_request *a, struct td_check_report *r)
{
    struct td_facts x = {.os = r->os,
                         .sys = &r->sys,
                         .cpu = &r->cpu,
                         .gpu = r->gpu_probed ? &r->gpu : NULL,
                         .pythons = r->pythons,
                         .n_py = r->n_py,
                         .torch = r->torch,
                         .n_torch = r->n_torch};
    size_t torch_from = r->findings.count;
    td_rules_torch(&x, &r->findings);
    judge_environment(r, torch_from);
    td_rules_env(&x, (char *const *)a->envp, &r->findings);
    if (r->win.probed) {
        td_rules_vc_runtime(&r->win, r->torch, r->n_torch, &r->findings);
        td_rules_path(env_get(a, "PATH"), dir_exists, NULL, r->win.cuda_path_versions,
                      r->win.n_cuda_path_versions, r->n_torch ? r->torch[0].cuda : NULL,
                      &r->findings);
    }
    if (r->win.probed || r->win.tree) { /* a tree's LongPathsEnabled is unknown (-1) */
        struct td_probe_ctx ctx = {.root = a->root};
        td_rules_long_paths(&ctx, r->torch, r->n_torch, r->win.long_paths_enabled, &r->findings);
    }
    if (a->workload) {
        r->workload = a->workload;
        r->workload_ready = td_rules_workload(&x, a->workload, &r->findings);
    }
    if (a->job)
        estimate_memory(&x, a->job, r);
}

void td_diagnose(const struct td_diagnose_request *q, struct td_check_report *r,
                 struct td_arena *arena)
{
    double t0 = now_ms();
    probe_all(q, r, arena);
    judge(q, r);
    struct td_probe_ctx ctx = {
        .root = q->root, .arena = arena, .envp = q->envp, .dns_budget_ms = q->dns_budget_ms};
    td_probe_distributed(&ctx, r->n_torch ? &r->torch[0] : NULL,
                         r->graphs && r->n_torch ? r->graphs[0] : NULL, q->envp, &r->environment,
                         r->gpu_probed ? r->gpu.links : NULL, r->gpu_probed ? r->gpu.n_links : 0,
                         &r->dist, &r->findings);
    if (q->live)
        live(q, r, arena);
    known_env(q, r, arena);
    r->elapsed_ms = now_ms() - t0;
}

void td_diagnosis_free(struct td_check_report *r, bool at_exit)
{
    for (size_t i = 0; r->graphs && i < r->n_torch; i++)
        if (r->graphs[i]) {
            if (at_exit)
                td_graph_free_at_exit(r->graphs[i]);
            else
                td_graph_free(r->graphs[i]);
        }
    td_findings_free(&r->findings);
    if (r->live)
        td_trace_free(r->live);
    td_arena_free(&r->gpu_arena);
    td_arena_free(&r->integrity_arena);
}
