/* Renders a bench run (report/bench.h). Every view walks the same list of
 * figures (each_figure), so text, JSON and markdown name the same things;
 * a figure is {value, unit, expected, ratio, source} with null where it was
 * not measured or its peak is unknown. */
#include <stdio.h>
#include <string.h>

#include "report/bench.h"
#include "report/envelope.h"

/* ---- the figures, in report order ---- */

struct row {
    const char *section; /* "cpu", "memory", "disk", "torch", "gpu" */
    const char *key;     /* the JSON key: "gemm_fp32_1core" */
    const char *label;   /* words: "FP32 GEMM, 1 core" */
    const struct td_bench_figure *f;
};

typedef void (*row_fn)(void *ctx, const struct row *r);

static void each_host_figure(const struct td_bench *b, row_fn fn, void *ctx)
{
    const struct row rows[] = {
        {"cpu", "gemm_fp32_1core", "FP32 GEMM, 1 core", &b->cpu.gemm_1core},
        {"cpu", "gemm_fp32_all", "FP32 GEMM, every core", &b->cpu.gemm_all},
        {"memory", "read", "memory read", &b->memory.read},
        {"memory", "copy", "memory copy", &b->memory.copy},
        {"memory", "triad", "memory triad", &b->memory.triad},
        {"disk", "read", "disk sequential read", &b->disk.read},
        {"torch", "matmul_fp32", "torch FP32 matmul (CPU)", &b->import.matmul_fp32},
        {"torch", "cuda_fp32", "torch FP32 matmul (GPU)", &b->import.cuda_fp32},
        {"torch", "cuda_tf32", "torch TF32 matmul (GPU)", &b->import.cuda_tf32},
        {"torch", "cuda_bf16", "torch BF16 matmul (GPU)", &b->import.cuda_bf16},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (strncmp(rows[i].key, "cuda_", 5) != 0 || rows[i].f->measured) /* torch saw a GPU */
            fn(ctx, &rows[i]);
}

static void each_gpu_figure(const struct td_bench_gpu *g, row_fn fn, void *ctx)
{
    const struct row rows[] = {
        {"gpu", "h2d_pinned", "host to device, pinned", &g->h2d_pinned},
        {"gpu", "d2h_pinned", "device to host, pinned", &g->d2h_pinned},
        {"gpu", "h2d_pageable", "host to device, pageable", &g->h2d_pageable},
        {"gpu", "d2h_pageable", "device to host, pageable", &g->d2h_pageable},
        {"gpu", "d2d", "device to device", &g->d2d},
        {"gpu", "fp32_fma", "FP32 FMA kernel", &g->fp32_fma},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fn(ctx, &rows[i]);
}

static bool has_expected(const struct td_bench_figure *f)
{
    return f->measured && f->expected > 0;
}

/* ---- JSON ---- */

static void json_figure(struct td_jsonw *w, const char *key, const struct td_bench_figure *f)
{
    td_jw_key(w, key);
    td_jw_begin_object_inline(w);
    td_jw_key(w, "value");
    if (f->measured)
        td_jw_fixed(w, f->value, 3);
    else
        td_jw_null(w);
    td_jw_kstr(w, "unit", f->unit ? f->unit : "");
    td_jw_key(w, "expected");
    if (f->expected > 0)
        td_jw_fixed(w, f->expected, 3);
    else
        td_jw_null(w);
    td_jw_key(w, "ratio");
    if (has_expected(f))
        td_jw_fixed(w, f->value / f->expected, 3);
    else
        td_jw_null(w);
    td_jw_kstr(w, "source", f->source ? f->source : "unknown");
    td_jw_end_object(w);
}

static void json_num_or_null(struct td_jsonw *w, const char *key, double v, bool known, int dec)
{
    td_jw_key(w, key);
    if (known)
        td_jw_fixed(w, v, dec);
    else
        td_jw_null(w);
}

static void json_int_or_null(struct td_jsonw *w, const char *key, long long v)
{
    td_jw_key(w, key);
    if (v >= 0)
        td_jw_int(w, v);
    else
        td_jw_null(w);
}

static void json_cpu(struct td_jsonw *w, const struct td_bench_cpu *c)
{
    td_jw_key(w, "cpu");
    td_jw_begin_object(w);
    json_figure(w, "gemm_fp32_1core", &c->gemm_1core);
    json_figure(w, "gemm_fp32_all", &c->gemm_all);
    td_jw_kstr(w, "isa", c->isa);
    td_jw_kint(w, "threads", c->threads);
    td_jw_kint(w, "cores", c->peak.cores);
    td_jw_kint(w, "size", (int64_t)c->size);
    td_jw_kstr(w, "uarch", c->peak.uarch);
    json_num_or_null(w, "frequency_mhz", c->peak.mhz, c->peak.mhz > 0, 0);
    td_jw_kstr(w, "frequency_source", c->peak.mhz_from);
    td_jw_kbool(w, "hypervisor", c->peak.hypervisor);
    td_jw_end_object(w);
}

static void json_memory_disk(struct td_jsonw *w, const struct td_bench *b)
{
    td_jw_key(w, "memory");
    td_jw_begin_object(w);
    json_figure(w, "read", &b->memory.read);
    json_figure(w, "copy", &b->memory.copy);
    json_figure(w, "triad", &b->memory.triad);
    td_jw_kuint(w, "array_bytes", b->memory.array_bytes);
    json_int_or_null(w, "llc_bytes", b->memory.llc_bytes ? (long long)b->memory.llc_bytes : -1);
    td_jw_end_object(w);
    td_jw_key(w, "disk");
    td_jw_begin_object(w);
    td_jw_kstr(w, "path", b->disk.path);
    json_figure(w, "read", &b->disk.read);
    td_jw_kstr(w, "method", b->disk.method);
    td_jw_kuint(w, "bytes", b->disk.bytes);
    json_num_or_null(w, "cached_fraction", b->disk.cached, b->disk.cached >= 0, 3);
    td_jw_end_object(w);
}

static void json_import(struct td_jsonw *w, const struct td_bench_import *imp)
{
    td_jw_key(w, "import");
    td_jw_begin_object(w);
    td_jw_kstr(w, "python", imp->python);
    json_num_or_null(w, "seconds", imp->seconds, imp->seconds >= 0, 3);
    td_jw_kuint(w, "libraries", imp->libraries);
    /* LD_AUDIT sees searches and mappings, not constructors: no init time. */
    td_jw_key(w, "init_seconds");
    td_jw_null(w);
    json_num_or_null(w, "map_seconds", imp->map_seconds, imp->libraries > 0, 3);
    td_jw_key(w, "slowest");
    td_jw_begin_array(w);
    for (size_t i = 0; i < imp->n_slowest; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", imp->slowest[i].path);
        td_jw_key(w, "seconds");
        td_jw_fixed(w, imp->slowest[i].seconds, 4);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_kstr(w, "error", imp->error);
    td_jw_end_object(w);
    td_jw_key(w, "torch");
    td_jw_begin_object(w);
    /* matmul_* are the figures on DEVICE: the GPU when torch used one. */
    bool gpu = imp->cuda_fp32.measured;
    td_jw_kstr(w, "device", gpu ? "cuda:0" : imp->python && !imp->error ? imp->device : NULL);
    td_jw_kstr(w, "device_name", gpu ? imp->cuda_device : NULL);
    td_jw_kstr(w, "blas", imp->blas);
    td_jw_kstr(w, "blas_kind", imp->blas_kind);
    td_jw_kstr(w, "blas_info", imp->blas_info);
    td_jw_kint(w, "size", gpu ? imp->cuda_size : imp->matmul_size);
    json_figure(w, "matmul_fp32", gpu ? &imp->cuda_fp32 : &imp->matmul_fp32);
    if (gpu) {
        json_figure(w, "matmul_tf32", &imp->cuda_tf32);
        json_figure(w, "matmul_bf16", &imp->cuda_bf16);
        json_figure(w, "cpu_matmul_fp32", &imp->matmul_fp32);
        td_jw_kint(w, "cpu_size", imp->matmul_size);
    } else { /* TF32 and BF16 are GPU paths */
        td_jw_key(w, "matmul_tf32");
        td_jw_null(w);
        td_jw_key(w, "matmul_bf16");
        td_jw_null(w);
    }
    td_jw_end_object(w);
}

static void json_gpu(struct td_jsonw *w, const struct td_bench_gpu *g)
{
    td_jw_begin_object(w);
    td_jw_kint(w, "index", g->index);
    td_jw_kstr(w, "name", g->name);
    td_jw_kstr(w, "error", g->error);
    json_figure(w, "h2d_pinned", &g->h2d_pinned);
    json_figure(w, "d2h_pinned", &g->d2h_pinned);
    json_figure(w, "h2d_pageable", &g->h2d_pageable);
    json_figure(w, "d2h_pageable", &g->d2h_pageable);
    json_figure(w, "d2d", &g->d2d);
    json_figure(w, "fp32_fma", &g->fp32_fma);
    td_jw_key(w, "pcie");
    td_jw_begin_object_inline(w);
    json_int_or_null(w, "generation", g->pcie_gen);
    json_int_or_null(w, "width", g->pcie_width);
    json_int_or_null(w, "max_generation", g->pcie_max_gen);
    json_int_or_null(w, "max_width", g->pcie_max_width);
    td_jw_end_object(w);
    td_jw_key(w, "clocks_mhz");
    td_jw_begin_object_inline(w);
    json_int_or_null(w, "sm", g->sm_mhz);
    json_int_or_null(w, "mem", g->mem_mhz);
    td_jw_end_object(w);
    json_num_or_null(w, "power_limit_w", g->power_limit_w, g->power_limit_w >= 0, 1);
    json_int_or_null(w, "temperature_c", g->temperature_c);
    td_jw_key(w, "throttle_reasons");
    if (g->throttle_known)
        td_jw_hex(w, g->throttle_reasons);
    else
        td_jw_null(w);
    json_int_or_null(w, "ecc_errors", g->ecc_errors);
    json_int_or_null(w, "retired_pages", g->retired_pages);
    json_int_or_null(w, "xid_errors", g->xid_errors);
    td_jw_key(w, "stability");
    td_jw_begin_object_inline(w);
    td_jw_kint(w, "iterations", g->stability_iterations);
    td_jw_kint(w, "errors", g->stability_errors);
    td_jw_key(w, "drift");
    td_jw_fixed(w, g->stability_drift, 4);
    td_jw_end_object(w);
    td_jw_end_object(w);
}

void td_bench_json(const struct td_bench *b, FILE *out, bool pretty)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, pretty);
    td_envelope_begin(&w, "bench", td_host_platform());
    td_envelope_host(&w, b->host);
    td_envelope_findings(&w, &b->findings);
    td_jw_key(&w, "bench");
    td_jw_begin_object(&w);
    json_cpu(&w, &b->cpu);
    json_memory_disk(&w, b);
    json_import(&w, &b->import);
    td_jw_key(&w, "gpus");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < b->gpu.n_gpus; i++)
        json_gpu(&w, &b->gpu.gpus[i]);
    td_jw_end_array(&w);
    td_jw_kbool(&w, "gpu_probed", b->gpu.probed);
    td_jw_kstr(&w, "gpu_status", b->gpu.status);
    td_jw_key(&w, "elapsed_seconds");
    td_jw_fixed(&w, b->elapsed_s, 2);
    td_jw_end_object(&w);
    td_envelope_end(&w);
}

/* ---- text ---- */

/* 82600, 900, 26.5, 7.39: whole numbers from 100 up, three digits below. */
static const char *number(double v, char *out, size_t cap)
{
    snprintf(out, cap, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    return out;
}

static void text_row(void *ctx, const struct row *r)
{
    const struct td_term *t = ctx;
    const struct td_bench_figure *f = r->f;
    if (!f->measured) {
        fprintf(t->out, "  %-26s %s%-16s%s %s\n", r->label, td_term_style(t, TD_STYLE_DIM), "-",
                td_term_style(t, TD_STYLE_RESET), f->source ? f->source : "not measured");
        return;
    }
    char value[48], expected[64] = "expected unknown", n[32];
    snprintf(value, sizeof value, "%s %s", number(f->value, n, sizeof n), f->unit);
    bool low = td_bench_below(f);
    if (has_expected(f))
        snprintf(expected, sizeof expected, "%3.0f%% of %s", 100 * f->value / f->expected,
                 number(f->expected, n, sizeof n));
    fprintf(t->out, "  %-26s %-16s %s%s%s\n", r->label, value,
            td_term_style(t, low               ? TD_STYLE_YELLOW
                             : has_expected(f) ? TD_STYLE_GREEN
                                               : TD_STYLE_DIM),
            expected, td_term_style(t, TD_STYLE_RESET));
}

static void text_heading(const struct td_term *t, const char *fmt, const char *a, const char *b)
{
    fprintf(t->out, "%s", td_term_style(t, TD_STYLE_BOLD));
    fprintf(t->out, fmt, a ? a : "?", b ? b : "");
    fprintf(t->out, "%s\n", td_term_style(t, TD_STYLE_RESET));
}

static void text_import(const struct td_bench *b, const struct td_term *t)
{
    const struct td_bench_import *imp = &b->import;
    text_heading(t, "import torch (%s)%s", imp->python ? imp->python : "no Python with torch", "");
    if (imp->error)
        fprintf(t->out, "  %s\n", imp->error);
    if (imp->seconds >= 0)
        fprintf(t->out, "  %.2f s, %zu libraries mapped (%.3f s finding and mapping them)\n",
                imp->seconds, imp->libraries, imp->map_seconds);
    for (size_t i = 0; i < imp->n_slowest; i++)
        fprintf(t->out, "    %7.1f ms  %s\n", imp->slowest[i].seconds * 1e3, imp->slowest[i].path);
    if (imp->blas || imp->blas_info)
        fprintf(t->out, "  BLAS: %s%s%s%s%s\n", imp->blas ? imp->blas : "linked into torch",
                imp->blas_kind ? " (" : "", imp->blas_kind ? imp->blas_kind : "",
                imp->blas_kind ? ")" : "", imp->blas_info ? "" : "");
}

static void text_gpus(const struct td_bench *b, const struct td_term *t)
{
    if (!b->gpu.probed) {
        text_heading(t, "GPU%s%s", ": skipped (--no-gpu)", "");
        return;
    }
    if (b->gpu.n_gpus == 0)
        text_heading(t, "GPU: %s%s", b->gpu.status ? b->gpu.status : "none answered", "");
    for (size_t i = 0; i < b->gpu.n_gpus; i++) {
        const struct td_bench_gpu *g = &b->gpu.gpus[i];
        char idx[16];
        snprintf(idx, sizeof idx, "%d", g->index);
        text_heading(t, "GPU %s: %s", idx, g->name);
        if (g->error)
            fprintf(t->out, "  %s\n", g->error);
        each_gpu_figure(g, text_row, (void *)t);
        if (g->pcie_gen > 0)
            fprintf(t->out, "  PCIe Gen%d x%d (max Gen%d x%d)", g->pcie_gen, g->pcie_width,
                    g->pcie_max_gen, g->pcie_max_width);
        if (g->sm_mhz >= 0)
            fprintf(t->out, ", SM %d MHz, memory %d MHz", g->sm_mhz, g->mem_mhz);
        if (g->temperature_c >= 0)
            fprintf(t->out, ", %d C", g->temperature_c);
        if (g->power_limit_w >= 0)
            fprintf(t->out, ", power limit %.0f W", g->power_limit_w);
        fprintf(t->out, "\n  stability: %d launches, %d errors, drift %+.1f%%\n",
                g->stability_iterations, g->stability_errors, 100 * g->stability_drift);
    }
}

struct section_ctx {
    const struct td_term *t;
    const char *section;
};

static void text_section_row(void *ctx, const struct row *r)
{
    const struct section_ctx *s = ctx;
    if (strcmp(r->section, s->section) == 0)
        text_row((void *)s->t, r);
}

static void text_host(const struct td_bench *b, const struct td_term *t)
{
    char what[160];
    snprintf(what, sizeof what, "%s kernel, %u threads on %u cores", b->cpu.isa, b->cpu.threads,
             b->cpu.peak.cores);
    fprintf(t->out, "%sCPU (%s%s%s)%s\n", td_term_style(t, TD_STYLE_BOLD),
            b->cpu.peak.uarch ? b->cpu.peak.uarch : "", b->cpu.peak.uarch ? ", " : "", what,
            td_term_style(t, TD_STYLE_RESET));
    struct section_ctx s = {t, "cpu"};
    each_host_figure(b, text_section_row, &s);
    if (!has_expected(&b->cpu.gemm_1core))
        fprintf(t->out, "  peak: %s\n", b->cpu.gemm_1core.source);
    char arrays[64];
    snprintf(arrays, sizeof arrays, "%llu MiB", (unsigned long long)(b->memory.array_bytes >> 20));
    text_heading(t, "memory (3 arrays of %s%s)", arrays, ", one thread per CPU");
    s.section = "memory";
    each_host_figure(b, text_section_row, &s);
    text_heading(t, "disk (%s)%s", b->disk.path ? b->disk.path : "no torch library", "");
    s.section = "disk";
    each_host_figure(b, text_section_row, &s);
    if (b->disk.method)
        fprintf(t->out, "  read with %s\n", b->disk.method);
}

void td_bench_text(const struct td_bench *b, const struct td_term *t)
{
    text_host(b, t);
    text_import(b, t);
    struct section_ctx s = {t, "torch"};
    each_host_figure(b, text_section_row, &s);
    text_gpus(b, t);
    fprintf(t->out, "\n");
    if (b->findings.count)
        td_findings_text(t, &b->findings);
    else
        fprintf(t->out,
                "%sno figure below its expected value%s (figures without one get no "
                "verdict)\n",
                td_term_style(t, TD_STYLE_GREEN), td_term_style(t, TD_STYLE_RESET));
    fprintf(t->out, "bench took %.1f s\n", b->elapsed_s);
}

/* ---- markdown ---- */

/* Table cells: a '|' would end the cell, a newline the row. */
static void md_cell(FILE *out, const char *s)
{
    for (; s && *s; s++)
        if (*s == '|')
            fputs("\\|", out);
        else
            fputc(*s == '\n' ? ' ' : *s, out);
}

struct md_ctx {
    FILE *out;
    const char *prefix;
};

static void md_row(void *ctx, const struct row *r)
{
    const struct md_ctx *m = ctx;
    const struct td_bench_figure *f = r->f;
    fprintf(m->out, "| %s%s | ", m->prefix, r->label);
    if (f->measured)
        fprintf(m->out, "%.4g %s", f->value, f->unit);
    else
        fputs("-", m->out);
    fputs(" | ", m->out);
    if (f->expected > 0)
        fprintf(m->out, "%.4g %s", f->expected, f->unit);
    else
        fputs("unknown", m->out);
    fputs(" | ", m->out);
    if (has_expected(f))
        fprintf(m->out, "%.0f%%%s", 100 * f->value / f->expected,
                td_bench_below(f) ? " **low**" : "");
    fputs(" | ", m->out);
    md_cell(m->out, f->source);
    fputs(" |\n", m->out);
}

void td_bench_markdown(const struct td_bench *b, FILE *out)
{
    fprintf(out, "## torchdoctor bench\n\n");
    fprintf(out, "CPU: %s kernel, %u threads on %u cores%s%s. ", b->cpu.isa, b->cpu.threads,
            b->cpu.peak.cores, b->cpu.peak.uarch ? ", " : "",
            b->cpu.peak.uarch ? b->cpu.peak.uarch : "");
    if (b->import.seconds >= 0)
        fprintf(out, "`import torch`: %.2f s, %zu libraries (%s).", b->import.seconds,
                b->import.libraries, b->import.python);
    else
        fprintf(out, "`import torch`: %s.", b->import.error ? b->import.error : "not run");
    fprintf(out, "\n\n| figure | measured | expected | ratio | expected from |\n"
                 "|---|---|---|---|---|\n");
    struct md_ctx m = {out, ""};
    each_host_figure(b, md_row, &m);
    for (size_t i = 0; i < b->gpu.n_gpus; i++) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "GPU %d ", b->gpu.gpus[i].index);
        m.prefix = prefix;
        each_gpu_figure(&b->gpu.gpus[i], md_row, &m);
    }
    if (b->findings.count) {
        fprintf(out, "\n### Findings\n\n");
        for (size_t i = 0; i < b->findings.count; i++) {
            const struct td_finding *x = &b->findings.items[i];
            fprintf(out, "- **%s** `%s`: ", td_severity_name(x->severity), x->kind);
            md_cell(out, x->detail);
            if (x->fix) {
                fputs(" Fix: `", out);
                md_cell(out, x->fix);
                fputs("`", out);
            }
            fputs("\n", out);
        }
    }
}
