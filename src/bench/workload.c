/* bench --workload: the job's blocks run through the discovered torch.
 * The memory estimate (kb/memory.h) says which architecture and settings
 * the job has, the plan (kb/step.h) which blocks at which shapes; the
 * child (workload_script.c, started by workload_posix.c with the
 * interpreter check finds) builds one block of each stage, runs a warm-up
 * and the rounds, and says each on one line:
 *   td-step hello 1                  first, before torch is imported
 *   td-step torch VERSION IMPORT_S
 *   td-step device cpu|cuda BYTES NAME...   (the GPU's memory, or RAM)
 *   td-step attention sdpa|math
 *   td-step dtype DTYPE WHY...       (WHY "-" when it is the job's)
 *   td-step stage I LOAD_S PARAMS    one per stage, built
 *   td-step warmup SECONDS
 *   td-step round I T0 T1 ...        one block of each stage, seconds
 *   td-step peak BYTES SOURCE        on a GPU: the allocator's peak
 *   td-step done
 *   td-step error MESSAGE...         then it exits
 * Any other line is a child that does not speak the protocol: it is
 * killed and the run fails. The times are extrapolated to the network
 * (blocks x block time) and judged against what a healthy machine of the
 * kind does (data/gpu_peaks.tsv, or bench's own GEMM on a CPU). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "kb/bench.h"
#include "kb/kb.h"

/* The number at *P (advancing it past the word), or NAN. */
static double word_num(const char **p)
{
    char *end;
    while (**p == ' ')
        (*p)++;
    double v = strtod(*p, &end);
    if (end == *p || (*end && *end != ' ') || !isfinite(v) || v < 0)
        return NAN;
    *p = end;
    while (**p == ' ')
        (*p)++;
    return v;
}

/* The word at *P into OUT (advancing), or "" at the end. */
static const char *word(const char **p, char *out, size_t cap)
{
    while (**p == ' ')
        (*p)++;
    size_t n = strcspn(*p, " ");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), *p);
    *p += n;
    while (**p == ' ')
        (*p)++;
    return out;
}

static bool parse(struct td_workload_reader *r, const char *line)
{
    struct td_bench_workload *w = r->w;
    char key[32], tok[64];
    const char *p = line + 8;
    if (strncmp(line, "td-step ", 8) != 0)
        return false;
    word(&p, key, sizeof key);
    if (!r->hello)
        return strcmp(key, "hello") == 0 && strcmp(p, "1") == 0 && (r->hello = true);
    if (strcmp(key, "torch") == 0) {
        w->torch_version = td_arena_strdup(r->arena, word(&p, tok, sizeof tok));
        w->import_s = word_num(&p);
        r->said_s += w->import_s;
        return !isnan(w->import_s);
    }
    if (strcmp(key, "device") == 0) {
        w->device = td_arena_strdup(r->arena, word(&p, tok, sizeof tok));
        w->device_bytes = word_num(&p);
        w->device_name = strcmp(p, "-") != 0 && *p ? td_arena_strdup(r->arena, p) : NULL;
        return !isnan(w->device_bytes) && (!strcmp(w->device, "cpu") || !strcmp(w->device, "cuda"));
    }
    if (strcmp(key, "attention") == 0) {
        w->attention = td_arena_strdup(r->arena, p);
        return true;
    }
    if (strcmp(key, "dtype") == 0) {
        w->dtype = td_arena_strdup(r->arena, word(&p, tok, sizeof tok));
        w->dtype_why = strcmp(p, "-") != 0 && *p ? td_arena_strdup(r->arena, p) : NULL;
        return td_mem_precision_bytes(w->dtype) > 0;
    }
    if (strcmp(key, "stage") == 0) {
        double i = word_num(&p), load = word_num(&p), params = word_num(&p);
        if (!w->torch_version || !w->device || !w->attention || !w->dtype)
            return false; /* the stages come after what they run on */
        if (isnan(i) || isnan(load) || isnan(params) || i != (double)r->stages_said ||
            r->stages_said >= (int)w->plan.n)
            return false;
        w->stage_params[r->stages_said++] = params;
        w->load_s += load;
        r->said_s += load;
        return true;
    }
    if (strcmp(key, "warmup") == 0) {
        w->warmup_s = word_num(&p);
        r->said_s += w->warmup_s;
        return !isnan(w->warmup_s) && r->stages_said == (int)w->plan.n && (r->warm = true);
    }
    if (strcmp(key, "round") == 0) {
        double i = word_num(&p), block = 0, step = 0;
        if (isnan(i) || i != (double)w->rounds || w->rounds >= w->rounds_asked || !r->warm)
            return false;
        for (size_t s = 0; s < w->plan.n; s++) {
            double t = word_num(&p);
            if (isnan(t))
                return false;
            block += t;
            step += t * w->plan.stages[s].blocks;
            w->stage_s[(size_t)w->rounds * w->plan.n + s] = t;
        }
        if (*p)
            return false; /* more times than stages */
        w->block_s[w->rounds] = block;
        w->step_s[w->rounds++] = step;
        r->said_s += block;
        return true;
    }
    if (strcmp(key, "peak") == 0) {
        w->peak_bytes = word_num(&p);
        w->peak_source = td_arena_strdup(r->arena, p);
        return !isnan(w->peak_bytes);
    }
    if (strcmp(key, "done") == 0)
        return w->rounds == w->rounds_asked && (r->done = true);
    if (strcmp(key, "error") == 0) {
        r->error = td_arena_strdup(r->arena, p);
        return true;
    }
    return false;
}

bool td_workload_read_line(struct td_workload_reader *r, const char *line, size_t len)
{
    if (memchr(line, '\0', len) || !parse(r, line)) {
        r->bad = td_arena_strndup(r->arena, line, len > 160 ? 160 : len);
        return false;
    }
    return true;
}

static bool on_line(void *ctx, const char *line, size_t len)
{
    struct td_workload_reader *r = ctx;
    if (!td_workload_read_line(r, line, len))
        return false;
    if (r->o->progress)
        r->o->progress(r->o->progress_ctx, r->w->rounds, r->w->rounds_asked, r->said_s);
    return true;
}

/* "kind:hidden:heads:side:text:context:context_dim,..." for the child. */
static const char *stages_arg(const struct td_step_plan *p, struct td_arena *arena)
{
    char buf[1024] = "";
    size_t n = 0;
    for (size_t i = 0; i < p->n && n < sizeof buf; i++) {
        const struct td_step_stage *s = &p->stages[i];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s:%d:%d:%d:%d:%d:%d", i ? "," : "",
                              s->block, s->hidden, s->heads, s->side, s->text_tokens,
                              s->context_tokens, s->context_dim);
    }
    return td_arena_strdup(arena, buf);
}

static const char *say(struct td_arena *arena, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static const char *say(struct td_arena *arena, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return td_arena_strdup(arena, buf);
}

/* The last line of TAIL (the child's stderr), or "". */
static const char *last_line(const char *tail, char *out, size_t cap)
{
    size_t n = strlen(tail);
    while (n && (tail[n - 1] == '\n' || tail[n - 1] == '\r'))
        n--;
    size_t b = n;
    while (b && tail[b - 1] != '\n')
        b--;
    snprintf(out, cap, "%.*s", (int)(n - b), tail + b);
    return out;
}

/* How the child ended, as W->error; false when it finished. */
static bool ended(const struct td_workload_reader *r, const struct td_line_child *c, int stall_ms,
                  struct td_arena *arena)
{
    struct td_bench_workload *w = r->w;
    char where[96], err[300];
    snprintf(where, sizeof where, "after %d of %d rounds", w->rounds, w->rounds_asked);
    if (!c->started)
        w->error = say(arena, "%s", c->why);
    else if (r->bad)
        w->error = say(arena,
                       "%s does not speak bench's step protocol: it wrote \"%s\" (%s); is it "
                       "the Python that check found?",
                       w->python, r->bad, where);
    else if (r->error)
        w->error = say(arena, "the step failed in torch %s: %s", where, r->error);
    else if (c->timed_out)
        w->error = say(arena, "the step child said nothing for %d s and was killed (%s)",
                       stall_ms / 1000, where);
    else if (c->exited && c->signal[0])
        w->error = say(arena, "the step child was killed by SIG%s %s%s%s", c->signal, where,
                       *c->err_tail ? ": " : "", last_line(c->err_tail, err, sizeof err));
    else if (!r->done || w->rounds != w->rounds_asked)
        w->error = say(arena, "the step child exited with status %d %s before it was done%s%s",
                       c->exit_code, where, *c->err_tail ? ": " : "",
                       last_line(c->err_tail, err, sizeof err));
    return w->error != NULL;
}

/* What a healthy machine of this kind does: the step's FLOPs over the
 * GPU's data-sheet peak, or over bench's own GEMM measured now on the CPU,
 * at the efficiency data/workload_bench.tsv gives. */
static void expectation(struct td_bench_workload *w, struct td_arena *arena)
{
    char eff_src[600];
    bool gpu = strcmp(w->device, "cuda") == 0;
    w->efficiency =
        td_step_threshold(gpu ? "gpu_efficiency" : "cpu_efficiency", eff_src, sizeof eff_src);
    if (w->plan.overridden) {
        w->expected_source = "the shapes were overridden (--hidden, --tokens): blocks that small "
                             "are bound by overheads, not by FLOPs";
        return;
    }
    if (gpu) {
        struct td_kb_gpu_peak pk;
        bool known = td_kb_gpu_peak(w->device_name, &pk);
        double tflops = !known                          ? 0
                        : strcmp(w->dtype, "fp32") == 0 ? pk.fp32_tflops
                                                        : pk.bf16_tflops;
        if (tflops <= 0) {
            w->expected_source =
                say(arena, "unknown: %s has no %s peak in data/gpu_peaks.tsv", w->device_name,
                    strcmp(w->dtype, "fp32") == 0 ? "FP32" : "BF16 tensor-core");
            return;
        }
        w->rate_flops = tflops * 1e12;
        w->expected_source = say(
            arena,
            "%.3g FLOP a step / (%s's %s peak %g TFLOP/s x %.0f%%: data/gpu_peaks.tsv, "
            "data/workload_bench.tsv gpu_efficiency)",
            w->plan.flops, pk.name, strcmp(w->dtype, "fp32") == 0 ? "FP32" : "dense BF16 tensor",
            tflops, w->efficiency * 100);
    } else {
        struct td_bench_options q = {.quick = true};
        struct td_bench_cpu cpu;
        memset(&cpu, 0, sizeof cpu);
        td_bench_cpu_run(&q, &cpu, arena);
        if (!cpu.gemm_all.measured || cpu.gemm_all.value <= 0) {
            w->expected_source = "unknown: bench's own GEMM could not be measured";
            return;
        }
        w->rate_flops = cpu.gemm_all.value * 1e9;
        w->expected_source =
            say(arena,
                "%.3g FLOP a step / (bench's own FP32 GEMM on %u threads, "
                "measured just before: %.1f GFLOP/s x %.0f%%: "
                "data/workload_bench.tsv cpu_efficiency)",
                w->plan.flops, cpu.threads, cpu.gemm_all.value, w->efficiency * 100);
    }
    if (w->efficiency > 0)
        w->expected_s = w->plan.flops / (w->rate_flops * w->efficiency);
}

static void judge(struct td_bench_workload *w, const struct td_workload_options *o)
{
    const char *device = w->device_name ? w->device_name : "system RAM";
    w->has_memory = td_mem_estimate(&o->job, w->device_bytes, &w->memory, w->memory_error,
                                    sizeof w->memory_error);
    if (w->has_memory)
        td_mem_finding(&w->memory, device, w->workload, &w->findings);
    const char *what = w->device_name ? w->device_name : "this CPU";
    if (w->expected_s > 0 && w->slow_factor > 0 && w->stats.median > w->expected_s * w->slow_factor)
        td_findings_add(&w->findings, TD_SEV_WARNING, TD_KIND_PERFORMANCE_BELOW_EXPECTED, what,
                        w->workload, NULL,
                        "look for what slows this machine: throttle reasons and the PCIe link "
                        "(torchdoctor bench), the BLAS torch loads, other processes",
                        "the step takes %.3g s, more than %gx the %.3g s a healthy %s takes (%s)",
                        w->stats.median, w->slow_factor, w->expected_s,
                        w->device_name ? w->device_name : "CPU like this one", w->expected_source);
    if (w->rounds >= 4 && w->drift_limit_pct > 0 && w->stats.drift_pct > w->drift_limit_pct)
        td_findings_add(&w->findings, TD_SEV_WARNING, TD_KIND_STEP_UNSTABLE, what, w->workload,
                        NULL,
                        "a GPU: watch clocks and throttle reasons during the run (torchdoctor "
                        "bench's GPU health); a CPU: other load, frequency scaling",
                        "unstable: the last quarter of the rounds is %.0f%% slower than the first "
                        "(over %d rounds; more than %g%% is named unstable)",
                        w->stats.drift_pct, w->rounds, w->drift_limit_pct);
}

bool td_bench_workload_run(const struct td_workload_options *o, struct td_bench_workload *w,
                           struct td_arena *arena)
{
    double t0 = td_bench_now();
    char err[200];
    memset(w, 0, sizeof *w);
    w->workload = o->job.workload;
    w->rounds_asked = o->rounds > 0 ? o->rounds : 5;
    w->slow_factor = td_step_threshold("slow_factor", NULL, 0);
    w->drift_limit_pct = td_step_threshold("drift_pct", NULL, 0);
    struct td_mem_estimate plan_of;
    if (!td_mem_estimate(&o->job, 0, &plan_of, err, sizeof err) ||
        !td_step_plan(&plan_of, o->hidden, o->tokens, &w->plan, err, sizeof err)) {
        w->error = td_arena_strdup(arena, err);
        return false;
    }
    w->dtype_asked = w->plan.dtype;
    struct td_bench_import imp;
    memset(&imp, 0, sizeof imp);
    td_bench_find_python(o->python, &imp, arena);
    w->python = imp.python;
    w->torch_dir = imp.torch_dir;
    if (!imp.python || imp.error) {
        w->error =
            say(arena, "%s%s%s", imp.error, imp.python ? ": " : "", imp.python ? imp.python : "");
        return false;
    }
    w->block_s = td_arena_array(arena, (size_t)w->rounds_asked, sizeof *w->block_s);
    w->step_s = td_arena_array(arena, (size_t)w->rounds_asked, sizeof *w->step_s);
    w->stage_s = td_arena_array(arena, (size_t)w->rounds_asked * w->plan.n, sizeof *w->stage_s);
    if (!w->block_s || !w->step_s || !w->stage_s) {
        w->error = "out of memory";
        return false;
    }
    char rank[32], ckpt[16], batch[32], rounds[32], slow[48];
    snprintf(rank, sizeof rank, "rank=%d", w->plan.lora_rank);
    snprintf(ckpt, sizeof ckpt, "ckpt=%d", w->plan.checkpointing ? 1 : 0);
    snprintf(batch, sizeof batch, "batch=%d", w->plan.batch);
    snprintf(rounds, sizeof rounds, "rounds=%d", w->rounds_asked);
    snprintf(slow, sizeof slow, "cpu_slowdown=%g", td_step_threshold("cpu_slowdown", NULL, 0));
    const char *argv[] = {w->python,
                          "-c",
                          td_workload_script,
                          o->no_gpu ? "device=cpu" : "device=auto",
                          say(arena, "dtype=%s", w->plan.dtype),
                          rank,
                          ckpt,
                          batch,
                          rounds,
                          slow,
                          say(arena, "stages=%s", stages_arg(&w->plan, arena)),
                          NULL};
    struct td_workload_reader r = {.w = w, .o = o, .arena = arena};
    struct td_line_child c;
    int stall = o->stall_ms > 0 ? o->stall_ms : 600 * 1000;
    td_line_child_run(argv, stall, o->time_up, on_line, &r, &c);
    if (ended(&r, &c, stall, arena))
        return false;
    if (strcmp(w->device, "cpu") == 0 || w->peak_bytes <= 0) {
        w->peak_bytes = c.peak_rss;
        w->peak_source = "peak RSS of the child (wait4), import torch included";
    }
    double *one = td_arena_array(arena, (size_t)w->rounds, sizeof *one);
    for (size_t i = 0; one && i < w->plan.n; i++) {
        struct td_workload_stats st;
        for (int k = 0; k < w->rounds; k++)
            one[k] = w->stage_s[(size_t)k * w->plan.n + i];
        td_workload_stats(one, (size_t)w->rounds, &st);
        w->stage_median_s[i] = st.median;
    }
    td_workload_stats(w->step_s, (size_t)w->rounds, &w->stats);
    expectation(w, arena);
    judge(w, o);
    w->elapsed_s = td_bench_now() - t0;
    return true;
}

void td_bench_workload_free(struct td_bench_workload *w)
{
    td_findings_free(&w->findings);
}
