/* bench's torch part: `import torch` with the discovered interpreter, run
 * under trace (trace/trace.h) so the timeline says where the time goes
 * (libraries mapped, the slowest to find and map), then a square FP32
 * matmul through torch, timed by Python itself, and the BLAS library the
 * process really mapped. Results come back on the child's stderr, which
 * the trace reads (as check --live does). When torch sees a GPU, the
 * same run times FP32, TF32 and BF16 matmuls on it. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "bench/bench.h"
#include "probe/probe.h"
#include "trace/trace.h"

/* N and the time budget are filled in; the rest is fixed. */
static const char script_fmt[] =
    "import sys, time\n"
    "t = time.perf_counter()\n"
    "import torch\n"
    "sys.stderr.write('td-bench import_s=%%.6f\\n' %% (time.perf_counter() - t))\n"
    "try:\n"
    "    info = [w for w in torch.__config__.show().replace(',', ' ').split()\n"
    "            if w.startswith('BLAS_INFO=')]\n"
    "    sys.stderr.write('td-bench %%s\\n' %% (info[0] if info else 'BLAS_INFO=-'))\n"
    "except Exception:\n"
    "    pass\n"
    "n = %d\n"
    "a = torch.rand(n, n)\n"
    "b = torch.rand(n, n)\n"
    "torch.mm(a, b)\n"
    "best, began = 0.0, time.perf_counter()\n"
    "for rep in range(50):\n"
    "    t = time.perf_counter()\n"
    "    torch.mm(a, b)\n"
    "    best = max(best, 2.0 * n ** 3 / (time.perf_counter() - t) / 1e9)\n"
    "    if time.perf_counter() - began > %.2f:\n"
    "        break\n"
    "sys.stderr.write('td-bench matmul_fp32=%%.4f n=%%d threads=%%d\\n' %% (best, n, "
    "torch.get_num_threads()))\n"
    /* The GPU: FP32 (TF32 off), TF32, BF16; each best of 10 after a warm-up. */
    "if %d and torch.cuda.is_available():\n"
    "    n = %d\n"
    "    sys.stderr.write('td-bench cuda_device=%%s\\n' %% torch.cuda.get_device_name(0))\n"
    "    for name, dt, tf32 in (('fp32', torch.float32, False), ('tf32', torch.float32, True),\n"
    "                           ('bf16', torch.bfloat16, False)):\n"
    "        torch.backends.cuda.matmul.allow_tf32 = tf32\n"
    "        a = torch.rand(n, n, device='cuda').to(dt)\n"
    "        b = torch.rand(n, n, device='cuda').to(dt)\n"
    "        torch.mm(a, b)\n"
    "        torch.cuda.synchronize()\n"
    "        best = 0.0\n"
    "        for rep in range(10):\n"
    "            t = time.perf_counter()\n"
    "            torch.mm(a, b)\n"
    "            torch.cuda.synchronize()\n"
    "            best = max(best, 2.0 * n ** 3 / (time.perf_counter() - t) / 1e9)\n"
    "        sys.stderr.write('td-bench cuda_%%s=%%.1f n=%%d\\n' %% (name, best, n))\n";

void td_bench_find_python(const char *python, struct td_bench_import *imp, struct td_arena *arena)
{
    struct td_probe_ctx ctx = {.arena = arena};
    struct td_python *py = NULL;
    struct td_torch *torch = NULL;
    size_t n_py = 0, n_torch = 0;
    struct td_findings ignored = {0};
    td_probe_pythons(&ctx, python, &py, &n_py);
    td_probe_torch_installs(&ctx, py, n_py, &torch, &n_torch, &ignored); /* no integrity */
    td_findings_free(&ignored);
    if (n_torch && torch[0].python < n_py) {
        imp->python = py[torch[0].python].exe;
        imp->torch_dir = torch[0].dir;
        imp->installer = torch[0].installer;
    } else if (python) {
        imp->python = python;
        imp->error = "no torch on this interpreter's sys.path";
    } else {
        imp->error = "no Python interpreter with torch was found";
    }
}

static int by_load_time(const void *a, const void *b)
{
    const struct td_trace_lib *x = *(const struct td_trace_lib *const *)a;
    const struct td_trace_lib *y = *(const struct td_trace_lib *const *)b;
    return x->load_ns < y->load_ns ? 1 : x->load_ns > y->load_ns ? -1 : 0;
}

/* Libraries mapped, their summed search-and-map time, the slowest. */
static void timeline(const struct td_trace *tr, struct td_bench_import *imp, struct td_arena *arena)
{
    const struct td_trace_lib **loaded = calloc(tr->n_libs + 1, sizeof *loaded);
    size_t n = 0;
    uint64_t map_ns = 0;
    for (size_t i = 0; loaded && i < tr->n_libs; i++) {
        const struct td_trace_lib *l = &tr->libs[i];
        if (l->status != TD_TLIB_LOADED || !l->path)
            continue;
        loaded[n++] = l;
        map_ns += l->load_ns;
    }
    imp->libraries = n;
    imp->map_seconds = (double)map_ns * 1e-9;
    if (loaded)
        qsort(loaded, n, sizeof *loaded, by_load_time);
    for (size_t i = 0; i < n && i < TD_BENCH_SLOWEST; i++) {
        imp->slowest[i].path = td_arena_strdup(arena, loaded[i]->path);
        imp->slowest[i].seconds = (double)loaded[i]->load_ns * 1e-9;
        imp->n_slowest++;
    }
    free(loaded);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/'), *b = strrchr(path, '\\');
    if (b && (!s || b > s))
        s = b;
    return s ? s + 1 : path;
}

/* Which implementation a BLAS file is, by its real name and directory
 * (Debian installs each libblas.so.3 alternative in its own directory:
 * blas/ is the netlib reference, openblas-pthread/, blis-openmp/, ...). */
static const char *blas_kind(const char *real)
{
    const char *name = base_name(real);
    if (strstr(name, "openblas") || strstr(real, "/openblas"))
        return "openblas";
    if (strstr(name, "blis") || strstr(real, "/blis"))
        return "blis";
    if (strstr(name, "mkl"))
        return "mkl";
    if (strstr(name, "flexiblas"))
        return "flexiblas";
    if (strstr(real, "/atlas/") || strstr(name, "atlas"))
        return "atlas";
    if (strncmp(name, "libblas.so", 10) == 0 || strcmp(name, "libblas.dll") == 0)
        return "netlib reference";
    return NULL;
}

static bool is_blas_name(const char *name)
{
    return strstr(name, "blas") || strncmp(name, "libmkl_", 7) == 0 || strstr(name, "blis");
}

/* The BLAS the traced process mapped (the first one, by load order). */
static void find_blas(const struct td_trace *tr, struct td_bench_import *imp,
                      struct td_arena *arena)
{
    for (size_t i = 0; i < tr->n_libs; i++) {
        const struct td_trace_lib *l = &tr->libs[i];
        if (l->status != TD_TLIB_LOADED || !l->path || !is_blas_name(base_name(l->path)))
            continue;
        char real[PATH_MAX];
        const char *path = realpath(l->path, real) ? real : l->path;
        imp->blas = td_arena_strdup(arena, path);
        imp->blas_kind = blas_kind(path);
        return;
    }
}

/* The "td-bench" lines of the child's stderr. */
static void parse_results(const char *tail, struct td_bench_import *imp, struct td_arena *arena)
{
    const char *s;
    if (!tail)
        return;
    if ((s = strstr(tail, "td-bench import_s=")))
        imp->seconds = atof(s + 18);
    if ((s = strstr(tail, "td-bench BLAS_INFO=")) && s[19] != '-')
        imp->blas_info = td_arena_strndup(arena, s + 19, strcspn(s + 19, "\r\n"));
    struct td_bench_figure *cuda[] = {&imp->cuda_fp32, &imp->cuda_tf32, &imp->cuda_bf16};
    static const char *const keys[] = {
        "td-bench cuda_fp32=", "td-bench cuda_tf32=", "td-bench cuda_bf16="};
    for (int i = 0; i < 3; i++)
        if ((s = strstr(tail, keys[i]))) {
            cuda[i]->value = atof(s + strlen(keys[i]));
            cuda[i]->measured = cuda[i]->value > 0;
            const char *n = strstr(s, " n=");
            imp->cuda_size = n ? atoi(n + 3) : 0;
        }
    if ((s = strstr(tail, "td-bench cuda_device=")))
        imp->cuda_device = td_arena_strndup(arena, s + 21, strcspn(s + 21, "\r\n"));
    if ((s = strstr(tail, "td-bench matmul_fp32="))) {
        imp->matmul_fp32.value = atof(s + 21);
        imp->matmul_fp32.measured = imp->matmul_fp32.value > 0;
        const char *n = strstr(s, " n=");
        imp->matmul_size = n ? atoi(n + 3) : 0;
        const char *th = strstr(s, " threads=");
        imp->torch_threads = th ? atoi(th + 9) : 0;
    }
}

void td_bench_import_run(const struct td_bench_options *o, struct td_bench_import *imp,
                         struct td_arena *arena)
{
    imp->seconds = -1;
    imp->matmul_fp32.unit = "GFLOP/s";
    imp->matmul_fp32.threshold = 0.5;
    imp->device = "cpu";
    struct td_bench_figure *cuda[] = {&imp->cuda_fp32, &imp->cuda_tf32, &imp->cuda_bf16};
    for (int i = 0; i < 3; i++) {
        cuda[i]->unit = "GFLOP/s";
        cuda[i]->threshold = 0.5;
        cuda[i]->source = "unknown: the tensor-core peaks are not in data/gpu_peaks.tsv";
    }
    td_bench_find_python(o->python, imp, arena);
    if (!imp->python || imp->error)
        return;
    if (o->progress)
        o->progress(o->progress_ctx, "torch: import and an FP32 matmul");
    char code[sizeof script_fmt + 64];
    snprintf(code, sizeof code, script_fmt, o->quick ? 512 : 1024, o->quick ? 0.5 : 2.0,
             o->no_gpu ? 0 : 1, o->quick ? 2048 : 8192);
    const char *argv[] = {imp->python, "-c", code, NULL};
    struct td_trace_options opts = {.timeout_ms = o->quick ? 60 * 1000 : 120 * 1000};
    struct td_trace tr;
    struct td_err err = {0};
    if (td_trace_run(argv, &opts, &tr, &err) != 0) {
        imp->error = td_arena_strdup(arena, err.msg);
        td_trace_free(&tr);
        return;
    }
    timeline(&tr, imp, arena);
    find_blas(&tr, imp, arena);
    parse_results(tr.stderr_tail, imp, arena);
    if (imp->seconds < 0) {
        char why[600];
        snprintf(why, sizeof why, "import torch did not finish%s%s",
                 tr.timed_out                      ? " (timed out)"
                 : tr.failed && tr.failed->message ? ": "
                                                   : "",
                 !tr.timed_out && tr.failed && tr.failed->message ? tr.failed->message : "");
        imp->error = td_arena_strdup(arena, why);
    }
    td_trace_free(&tr);
}
