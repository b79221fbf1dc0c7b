/* The NVIDIA driver probe on Windows (probe.h). nvcuda.dll and nvml.dll are
 * loaded in a child, torchdoctor.exe itself in its hidden `__gpu` mode
 * (child.h), which asks what probe/gpu/gpu_ask.c asks (or, for bench, measures
 * what gpu_bench_ask.c measures) and answers in the
 * Linux helper's line protocol, so td_gpu_parse_answer reads both. A
 * driver that crashes the child (an exit code such as 0xC0000005) is
 * CRASHED, one that hangs is killed at the timeout (TIMEOUT). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "base/utf8.h"
#include "probe/system/child.h"
#include "probe/gpu/gpu_ask.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

#define ANSWER_CAP ((size_t)64 << 10)
#define DEFAULT_TIMEOUT_MS 5000

/* ---- the child ---- */

static void *open_lib(const char *name, char *why, size_t cap)
{
    wchar_t *w = td_utf8_to_wide(name); /* NVSMI's folder may be a non-ASCII %ProgramFiles% */
    HMODULE h = w ? LoadLibraryW(w) : NULL;
    free(w);
    if (!h)
        snprintf(why, cap, "LoadLibrary failed with error %lu", (unsigned long)GetLastError());
    return h;
}

static void *sym(void *lib, const char *name)
{
    FARPROC p = GetProcAddress((HMODULE)lib, name);
    void *v;
    memcpy(&v, &p, sizeof v);
    return v;
}

int td_gpu_child(void)
{
    /* NVML: System32 (DCH drivers; the standard search finds it there),
     * else the NVSMI folder of older standard drivers (NVML API reference,
     * data/windows_runtime_dlls.tsv nvml.dll). */
    char nvsmi[PATH_MAX];
    const char *pf = getenv("ProgramW6432");
    if (!pf || !*pf)
        pf = getenv("ProgramFiles");
    snprintf(nvsmi, sizeof nvsmi, "%s\\NVIDIA Corporation\\NVSMI\\nvml.dll",
             pf && *pf ? pf : "C:\\Program Files");
    const char *const nvml[] = {"nvml.dll", nvsmi, NULL};
    const struct td_gpu_ask ask = {.open = open_lib,
                                   .sym = sym,
                                   .write = td_child_say,
                                   .cuda_lib = "nvcuda.dll",
                                   .nvml_libs = nvml};
    td_child_quiet();
    /* stdin: empty for the probe's questions, "bench ITERATIONS QUICK" for
     * bench's measurements (bench_gpu_windows.c). */
    char line[64] = "";
    int iterations = 0, quick = 0;
    if (fgets(line, sizeof line, stdin) && sscanf(line, "bench %d %d", &iterations, &quick) == 2)
        td_gpu_bench(&ask, iterations, quick != 0);
    else
        td_gpu_ask(&ask);
    fflush(NULL);
    ExitProcess(0); /* no driver's DLL_PROCESS_DETACH may hang us: TerminateProcess-like */
}

/* ---- the parent ---- */

static void set_detail(const struct td_probe_ctx *ctx, struct td_gpu_info *out,
                       enum td_gpu_status st, const char *detail)
{
    out->status = st;
    out->status_detail = td_arena_strdup(ctx->arena, detail);
}

int td_probe_gpu(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    memset(out, 0, sizeof *out);
    wchar_t wfound[MAX_PATH];
    char found[PATH_MAX];
    DWORD n = SearchPathW(NULL, L"nvcuda.dll", NULL, MAX_PATH, wfound, NULL);
    if (n > 0 && n < MAX_PATH && td_wide_to_utf8_buf(wfound, found, sizeof found)) {
        out->libcuda = td_arena_strdup(ctx->arena, found);
        out->libcuda_via = "standard search order";
    }
    int timeout = ctx->timeout_ms > 0 ? ctx->timeout_ms : DEFAULT_TIMEOUT_MS;
    char *buf = malloc(ANSWER_CAP);
    struct td_child_outcome o;
    char detail[400], words[160];
    if (!buf) {
        set_detail(ctx, out, TD_GPU_CRASHED, "out of memory");
        return 0;
    }
    size_t got = td_child_run("__gpu", "", 0, timeout, buf, ANSWER_CAP, &o);
    bool done = td_gpu_parse_answer(buf, got, ctx->arena, out);
    free(buf);
    if (!o.started) {
        snprintf(detail, sizeof detail, "the GPU probe's child could not be started: %s", o.why);
        set_detail(ctx, out, TD_GPU_CRASHED, detail);
    } else if (o.timed_out) {
        set_detail(ctx, out, TD_GPU_TIMEOUT,
                   td_gpu_timeout_detail(timeout, "child", detail, sizeof detail));
    } else if (!done || (o.exited && o.exit_code != 0)) {
        snprintf(detail, sizeof detail, "the GPU probe's child ended with %s%s",
                 td_child_exit_words(o.exit_code, words, sizeof words),
                 done ? "" : " before answering");
        set_detail(ctx, out, TD_GPU_CRASHED, detail);
    }
    return 0;
}
