/* Views of bench --workload: the run (blocks, load, rounds, peak), then the
 * verdicts a user acts on (memory, speed and stability, against a healthy
 * machine) and the findings (text); the "bench_workload" section (JSON). */
#include <stdio.h>
#include <string.h>

#include "report/bench.h"
#include "report/check.h"
#include "report/envelope.h"
#include "report/jsonw.h"

static double gbytes(double b)
{
    return b / (1024.0 * 1024.0 * 1024.0);
}

/* Seconds as a person reads them: "0.0123", "2.31", "1104". */
static const char *secs(double v, char *out, size_t cap)
{
    snprintf(out, cap, v >= 100 ? "%.0f" : "%.3g", v);
    return out;
}

/* "35 s", "4.2 min", "2.1 h" */
static const char *duration(double s, char *out, size_t cap)
{
    if (s < 90)
        snprintf(out, cap, "%.0f s", s);
    else if (s < 90 * 60)
        snprintf(out, cap, "%.1f min", s / 60);
    else
        snprintf(out, cap, "%.1f h", s / 3600);
    return out;
}

const char *td_workload_speed_verdict(const struct td_bench_workload *w, char *out, size_t cap)
{
    char d[32], m[32];
    bool judged = w->rounds >= 4; /* as the step_unstable finding (workload.c) */
    bool unstable = judged && w->drift_limit_pct > 0 && w->stats.drift_pct > w->drift_limit_pct;
    snprintf(out, cap, "%s s/step, 100 steps \xe2\x89\x88 %s; %s (drift %+.0f%% over %d rounds%s)",
             secs(w->stats.median, m, sizeof m), duration(100 * w->stats.median, d, sizeof d),
             !judged    ? "stability not judged"
             : unstable ? "unstable"
                        : "stable",
             w->stats.drift_pct, w->rounds, judged ? "" : "; 4 or more needed");
    return out;
}

const char *td_workload_peer_verdict(const struct td_bench_workload *w, char *out, size_t cap)
{
    if (w->expected_s <= 0)
        snprintf(out, cap, "no comparison: %s", w->expected_source);
    else if (w->stats.median > w->expected_s * w->slow_factor)
        snprintf(out, cap, "slow: a healthy %s takes about %.3g s/step, this one %.1fx that",
                 w->device_name ? w->device_name : "CPU like this one", w->expected_s,
                 w->stats.median / w->expected_s);
    else
        snprintf(out, cap, "as expected: a healthy %s takes about %.3g s/step (%.1fx)",
                 w->device_name ? w->device_name : "CPU like this one", w->expected_s,
                 w->stats.median / w->expected_s);
    return out;
}

static const char *memory_device(const struct td_bench_workload *w)
{
    return w->device_name ? w->device_name : "system RAM";
}

static void line(const struct td_term *t, enum td_style st, const char *mark, const char *text)
{
    fprintf(t->out, "  %s%s%s %s\n", td_term_style(t, st), mark, td_term_style(t, TD_STYLE_RESET),
            text);
}

void td_bench_workload_text(const struct td_bench_workload *w, const struct td_term *t)
{
    const struct td_step_plan *p = &w->plan;
    char buf[1024];
    fprintf(t->out, "%sWorkload %s: one block of each stage, through torch %s (%s) on %s%s%s\n",
            td_term_style(t, TD_STYLE_BOLD), w->workload, w->torch_version, w->python,
            w->device_name ? w->device_name : w->device, td_term_style(t, TD_STYLE_RESET), "");
    fprintf(t->out, "  dtype %s%s%s%s, %s, batch %d, %s attention\n", w->dtype,
            w->dtype_why ? " instead of " : "", w->dtype_why ? w->dtype_asked : "",
            w->dtype_why ? "" : " (the job's)",
            p->lora_rank ? "LoRA (frozen weights)" : "full fine-tuning", p->batch, w->attention);
    if (w->dtype_why)
        fprintf(t->out, "    why: %s\n", w->dtype_why);
    if (p->overridden)
        fprintf(t->out, "  shapes overridden (--hidden/--tokens): the times are of these shapes, "
                        "not the job's\n");
    for (size_t i = 0; i < p->n; i++) {
        const struct td_step_stage *s = &p->stages[i];
        fprintf(t->out,
                "  %2d x %-6s %-14s hidden %d, %d heads, %d image + %d text tokens, %.3g "
                "parameters: median %.3g s\n",
                s->blocks, s->block, s->name, s->hidden, s->heads, s->image_tokens, s->text_tokens,
                w->stage_params[i], w->stage_median_s[i]);
    }
    fprintf(t->out, "  load: import torch %.2f s, blocks built in %.3f s, warm-up step %.3f s\n",
            w->import_s, w->load_s, w->warmup_s);
    size_t n = 0;
    for (size_t i = 0; i < p->n && n < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d x %.3g s", i ? " + " : "",
                              p->stages[i].blocks, w->stage_median_s[i]);
    char a[5][32];
    fprintf(t->out,
            "  step: %s s/step = %s (extrapolated: blocks x one block's time; the embeddings, "
            "final layer, text encoders, VAE and the optimizer step are not counted)\n",
            secs(w->stats.median, a[0], sizeof a[0]), buf);
    fprintf(t->out,
            "  rounds: %d after a warm-up: median %s s, IQR %s-%s s, min-max %s-%s s, "
            "drift %+.1f%% (median of the last %zu round%s against the first)\n",
            w->rounds, a[0], secs(w->stats.q1, a[1], sizeof a[1]),
            secs(w->stats.q3, a[2], sizeof a[2]), secs(w->stats.min, a[3], sizeof a[3]),
            secs(w->stats.max, a[4], sizeof a[4]), w->stats.drift_pct, w->stats.quarter,
            w->stats.quarter == 1 ? "" : "s");
    fprintf(t->out, "  peak memory: %.2f GB (%s)\n", gbytes(w->peak_bytes), w->peak_source);
    fprintf(t->out, "  FLOPs: %.3g a step; %s\n", p->flops, p->formula);
    fprintf(t->out, "%sVerdicts%s\n", td_term_style(t, TD_STYLE_BOLD),
            td_term_style(t, TD_STYLE_RESET));
    if (w->has_memory) {
        td_check_memory_verdict(&w->memory, memory_device(w), buf, sizeof buf);
        line(t, w->memory.fits ? TD_STYLE_GREEN : TD_STYLE_RED, w->memory.fits ? "✓" : "✗", buf);
    } else {
        snprintf(buf, sizeof buf, "no memory estimate: %s", w->memory_error);
        line(t, TD_STYLE_DIM, "-", buf);
    }
    bool unstable =
        w->rounds >= 4 && w->drift_limit_pct > 0 && w->stats.drift_pct > w->drift_limit_pct;
    td_workload_speed_verdict(w, buf, sizeof buf);
    line(t, unstable ? TD_STYLE_YELLOW : TD_STYLE_GREEN, unstable ? "!" : "✓", buf);
    bool slow = w->expected_s > 0 && w->stats.median > w->expected_s * w->slow_factor;
    td_workload_peer_verdict(w, buf, sizeof buf);
    line(t,
         slow                ? TD_STYLE_YELLOW
         : w->expected_s > 0 ? TD_STYLE_GREEN
                             : TD_STYLE_DIM,
         slow                ? "!"
         : w->expected_s > 0 ? "✓"
                             : "-",
         buf);
    if (w->expected_s > 0)
        fprintf(t->out, "    expected from: %s\n", w->expected_source);
    fprintf(t->out, "\n");
    if (w->findings.count)
        td_findings_text(t, &w->findings);
    fprintf(t->out, "bench --workload took %.1f s\n", w->elapsed_s);
}

static void knum(struct td_jsonw *jw, const char *key, double v, bool known)
{
    td_jw_key(jw, key);
    if (known)
        td_jw_fixed(jw, v, v != 0 && v < 1 ? 9 : 3);
    else
        td_jw_null(jw);
}

static void json_series(struct td_jsonw *jw, const char *key, const double *v, int n)
{
    td_jw_key(jw, key);
    td_jw_begin_array(jw);
    for (int i = 0; i < n; i++)
        td_jw_fixed(jw, v[i], 9);
    td_jw_end_array(jw);
}

static void json_stages(struct td_jsonw *jw, const struct td_bench_workload *w)
{
    td_jw_key(jw, "stages");
    td_jw_begin_array(jw);
    for (size_t i = 0; i < w->plan.n; i++) {
        const struct td_step_stage *s = &w->plan.stages[i];
        td_jw_begin_object(jw);
        td_jw_kstr(jw, "name", s->name);
        td_jw_kstr(jw, "block", s->block);
        td_jw_kint(jw, "blocks", s->blocks);
        td_jw_kint(jw, "hidden", s->hidden);
        td_jw_kint(jw, "heads", s->heads);
        td_jw_kint(jw, "image_tokens", s->image_tokens);
        td_jw_kint(jw, "text_tokens", s->text_tokens);
        knum(jw, "params", w->stage_params[i], true);
        knum(jw, "flops", s->flops, true);
        knum(jw, "median_s", w->stage_median_s[i], true);
        td_jw_end_object(jw);
    }
    td_jw_end_array(jw);
}

void td_bench_workload_json(const struct td_bench_workload *w, FILE *out, bool pretty)
{
    static struct td_jsonw jw;
    char buf[1024];
    td_jw_init(&jw, out, pretty);
    td_envelope_begin(&jw, "bench", td_host_platform());
    td_envelope_findings(&jw, &w->findings);
    td_jw_key(&jw, "bench_workload");
    td_jw_begin_object(&jw);
    td_jw_kstr(&jw, "workload", w->workload);
    td_jw_kstr(&jw, "python", w->python);
    td_jw_kstr(&jw, "torch_version", w->torch_version);
    td_jw_kstr(&jw, "device", w->device);
    td_jw_kstr(&jw, "device_name", w->device_name);
    knum(&jw, "device_bytes", w->device_bytes, true);
    td_jw_kstr(&jw, "dtype_asked", w->dtype_asked);
    td_jw_kstr(&jw, "dtype", w->dtype);
    td_jw_kstr(&jw, "dtype_why", w->dtype_why);
    td_jw_kstr(&jw, "attention", w->attention);
    td_jw_kbool(&jw, "shapes_overridden", w->plan.overridden);
    td_jw_kint(&jw, "batch", w->plan.batch);
    td_jw_kint(&jw, "lora_rank", w->plan.lora_rank);
    td_jw_kbool(&jw, "gradient_checkpointing", w->plan.checkpointing);
    json_stages(&jw, w);
    knum(&jw, "import_s", w->import_s, true);
    knum(&jw, "load_s", w->load_s, true);
    knum(&jw, "warmup_s", w->warmup_s, true);
    td_jw_kint(&jw, "rounds_asked", w->rounds_asked);
    td_jw_kint(&jw, "rounds", w->rounds);
    json_series(&jw, "block_s", w->block_s, w->rounds);
    json_series(&jw, "step_s", w->step_s, w->rounds);
    td_jw_key(&jw, "step");
    td_jw_begin_object(&jw);
    knum(&jw, "median_s", w->stats.median, true);
    knum(&jw, "q1_s", w->stats.q1, true);
    knum(&jw, "q3_s", w->stats.q3, true);
    knum(&jw, "min_s", w->stats.min, true);
    knum(&jw, "max_s", w->stats.max, true);
    td_jw_key(&jw, "drift_pct");
    td_jw_fixed(&jw, w->stats.drift_pct, 2);
    td_jw_kuint(&jw, "quarter_rounds", w->stats.quarter);
    td_jw_kstr(&jw, "extrapolation",
               "the sum over stages of blocks x one block's time; embeddings, final layer, text "
               "encoders, VAE and the optimizer step not counted");
    td_jw_end_object(&jw);
    knum(&jw, "flops_per_step", w->plan.flops, true);
    td_jw_kstr(&jw, "flops_formula", w->plan.formula);
    knum(&jw, "peak_bytes", w->peak_bytes, true);
    td_jw_kstr(&jw, "peak_source", w->peak_source);
    td_jw_key(&jw, "expected");
    td_jw_begin_object(&jw);
    knum(&jw, "s_per_step", w->expected_s, w->expected_s > 0);
    knum(&jw, "rate_flops", w->rate_flops, w->rate_flops > 0);
    knum(&jw, "efficiency", w->efficiency, w->efficiency > 0);
    knum(&jw, "slow_factor", w->slow_factor, true);
    knum(&jw, "drift_limit_pct", w->drift_limit_pct, true);
    td_jw_kstr(&jw, "source", w->expected_source);
    td_jw_end_object(&jw);
    if (w->has_memory)
        td_check_json_memory(&jw, &w->memory, memory_device(w));
    td_jw_key(&jw, "verdicts");
    td_jw_begin_object(&jw);
    td_jw_kstr(&jw, "memory",
               w->has_memory
                   ? td_check_memory_verdict(&w->memory, memory_device(w), buf, sizeof buf)
                   : NULL);
    td_jw_kstr(&jw, "speed", td_workload_speed_verdict(w, buf, sizeof buf));
    td_jw_kstr(&jw, "comparison", td_workload_peer_verdict(w, buf, sizeof buf));
    td_jw_end_object(&jw);
    knum(&jw, "elapsed_s", w->elapsed_s, true);
    td_jw_end_object(&jw);
    td_envelope_end(&jw);
}
