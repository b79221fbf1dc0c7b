/* Reads the GPU helper's bench answer (gpu_bench_ask.c's line protocol)
 * into td_bench_gpus, then gives each figure its expected value from the
 * GPU's data-sheet row (data/gpu_peaks.tsv) and the PCIe link it is built
 * for. The bytes come from a child that loaded a driver we do not trust:
 * bounded, and whatever is malformed is ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/bench.h"
#include "bench/bench.h"

enum { MAX_GPUS = 16 };

static struct td_bench_gpu *gpu_at(struct td_bench_gpus *g, int index)
{
    for (size_t i = 0; i < g->n_gpus; i++)
        if (g->gpus[i].index == index)
            return &g->gpus[i];
    return NULL;
}

static void init_gpu(struct td_bench_gpu *x, int index)
{
    memset(x, 0, sizeof *x);
    x->index = index;
    x->pcie_gen = x->pcie_width = x->pcie_max_gen = x->pcie_max_width = -1;
    x->sm_mhz = x->mem_mhz = x->temperature_c = -1;
    x->power_limit_w = -1;
    x->ecc_errors = x->retired_pages = x->xid_errors = -1;
    struct td_bench_figure *f[] = {&x->h2d_pinned,   &x->d2h_pinned, &x->h2d_pageable,
                                   &x->d2h_pageable, &x->d2d,        &x->fp32_fma};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) {
        f[i]->unit = f[i] == &x->fp32_fma ? "GFLOP/s" : "GB/s";
        f[i]->threshold = 0.8;
        f[i]->source = "unknown";
    }
}

static struct td_bench_figure *figure_named(struct td_bench_gpu *x, const char *name)
{
    static const char *const names[] = {"h2d_pinned",   "d2h_pinned", "h2d_pageable",
                                        "d2h_pageable", "d2d",        "fp32_fma"};
    struct td_bench_figure *f[] = {&x->h2d_pinned,   &x->d2h_pinned, &x->h2d_pageable,
                                   &x->d2h_pageable, &x->d2d,        &x->fp32_fma};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return f[i];
    return NULL;
}

/* "nvml 0 pcie 4 16 4 16" and the other NVML lines, after the index. */
static void nvml_line(struct td_bench_gpu *x, const char *what, const char *rest)
{
    unsigned a, b, c, d;
    unsigned long long v;
    if (strcmp(what, "pcie") == 0 && sscanf(rest, "%u %u %u %u", &a, &b, &c, &d) == 4 && a < 16 &&
        b <= 32 && c < 16 && d <= 32) {
        x->pcie_gen = (int)a;
        x->pcie_width = (int)b;
        x->pcie_max_gen = (int)c;
        x->pcie_max_width = (int)d;
    } else if (strcmp(what, "clocks") == 0 && sscanf(rest, "%u %u", &a, &b) == 2 && a < 100000 &&
               b < 100000) {
        x->sm_mhz = (int)a;
        x->mem_mhz = (int)b;
    } else if (strcmp(what, "power_limit_mw") == 0 && sscanf(rest, "%u", &a) == 1) {
        x->power_limit_w = a / 1000.0;
    } else if (strcmp(what, "temperature") == 0 && sscanf(rest, "%u", &a) == 1 && a < 1000) {
        x->temperature_c = (int)a;
    } else if (strcmp(what, "throttle") == 0 && sscanf(rest, "%llu", &v) == 1) {
        x->throttle_reasons = v;
        x->throttle_known = true;
    } else if (strcmp(what, "ecc") == 0 && sscanf(rest, "%llu", &v) == 1 && v < (1ull << 62)) {
        x->ecc_errors = (long long)v;
    } else if (strcmp(what, "retired") == 0 && sscanf(rest, "%u", &a) == 1) {
        x->retired_pages = a;
    }
}

static void parse_line(char *line, struct td_bench_gpus *g, struct td_arena *arena)
{
    char key[32], what[64];
    int index, used = 0;
    if (sscanf(line, "%31s %d%n", key, &index, &used) != 2)
        return;
    const char *rest = line + used;
    while (*rest == ' ')
        rest++;
    if (strcmp(key, "bench_gpu") == 0) {
        if (gpu_at(g, index) || g->n_gpus >= MAX_GPUS || index < 0)
            return;
        struct td_bench_gpu *x = &g->gpus[g->n_gpus++];
        init_gpu(x, index);
        const char *name = strstr(rest, "name="), *pci = strstr(rest, "pci=");
        x->name = name ? td_arena_strdup(arena, name + 5) : NULL;
        if (pci && pci[4] != '-' && (!name || pci < name))
            x->pci = td_arena_strndup(arena, pci + 4, strcspn(pci + 4, " "));
        return;
    }
    struct td_bench_gpu *x = gpu_at(g, index);
    if (!x)
        return;
    if (strcmp(key, "bench") == 0 && sscanf(rest, "%63s", what) == 1) {
        struct td_bench_figure *f = figure_named(x, what);
        double v = atof(rest + strlen(what));
        if (f && v > 0 && v < 1e9) {
            f->measured = true;
            f->value = v;
        }
    } else if (strcmp(key, "nvml") == 0 && sscanf(rest, "%63s", what) == 1) {
        nvml_line(x, what, rest + strlen(what));
    } else if (strcmp(key, "stability") == 0) {
        int iters, errors;
        double first, last;
        if (sscanf(rest, "%d %d %lf %lf", &iters, &errors, &first, &last) == 4 && iters >= 0 &&
            errors >= 0) {
            x->stability_iterations = iters;
            x->stability_errors = errors;
            x->stability_drift = first > 0 && last > 0 ? (first - last) / first : 0;
        }
    } else if (strcmp(key, "bench_error") == 0 && !x->error) {
        char call[64];
        int code = 0;
        if (sscanf(rest, "%63s %d", call, &code) == 2) {
            char e[128];
            snprintf(e, sizeof e, "%s returned %d", call, code);
            x->error = td_arena_strdup(arena, e);
        }
    } else if (strcmp(key, "step") == 0 && sscanf(rest, "%63s", what) == 1) {
        x->last_step = td_arena_strdup(arena, what);
        g->last_gpu = index;
    }
}

/* The data-sheet expectations for X. */
static void expectations(struct td_bench_gpu *x, struct td_arena *arena)
{
    struct td_kb_gpu_peak peak;
    char src[600];
    bool known = x->name && td_kb_gpu_peak(x->name, &peak);
    int gen = known ? peak.pcie_gen : x->pcie_max_gen,
        width = known ? peak.pcie_width : x->pcie_max_width;
    double link = td_kb_pcie_gbs(gen, width);
    if (link > 0) {
        snprintf(src, sizeof src, "PCIe Gen%d x%d after line encoding (PCI-SIG), %s", gen, width,
                 known ? peak.source : "the link NVML reports as the maximum");
        x->h2d_pinned.expected = x->d2h_pinned.expected = link;
        x->h2d_pinned.source = x->d2h_pinned.source = td_arena_strdup(arena, src);
    }
    x->h2d_pageable.source = x->d2h_pageable.source =
        "none: pageable copies go through a staging buffer; compare with the pinned figure";
    if (!known) {
        x->d2d.source = x->fp32_fma.source = "unknown: this GPU is not in data/gpu_peaks.tsv";
        return;
    }
    x->d2d.expected = peak.mem_gbs;
    snprintf(src, sizeof src, "memory bandwidth %.0f GB/s (a copy reads and writes each byte), %s",
             peak.mem_gbs, peak.source);
    x->d2d.source = td_arena_strdup(arena, src);
    x->fp32_fma.expected = peak.fp32_tflops * 1000;
    snprintf(src, sizeof src, "%d SMs at %d MHz boost: %.1f TFLOP/s FP32, %s", peak.sms,
             peak.boost_mhz, peak.fp32_tflops, peak.source);
    x->fp32_fma.source = td_arena_strdup(arena, src);
}

/* "nolib libcuda.so.1 REASON": no driver to measure. */
static void no_driver(struct td_bench_gpus *g, const char *rest, struct td_arena *arena)
{
    char status[600];
    size_t lib = strcspn(rest, " ");
    snprintf(status, sizeof status, "not measured: no NVIDIA driver (%.*s cannot be loaded: %s)",
             (int)(lib > 64 ? 64 : lib), rest, rest[lib] ? rest + lib + 1 : "not found");
    g->status = td_arena_strdup(arena, status);
}

void td_bench_gpu_parse(const char *text, size_t len, struct td_bench_gpus *g,
                        struct td_arena *arena)
{
    if (!g->gpus)
        g->gpus = td_arena_array(arena, MAX_GPUS, sizeof *g->gpus);
    if (!g->gpus)
        return;
    char line[1024];
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        if (!nl)
            break; /* a line cut short by a crash is not an answer */
        size_t n = (size_t)(nl - (text + pos));
        if (n < sizeof line) {
            memcpy(line, text + pos, n);
            line[n] = '\0';
            if (strncmp(line, "nolib ", 6) == 0)
                no_driver(g, line + 6, arena);
            else
                parse_line(line, g, arena);
        }
        pos += n + 1;
    }
    for (size_t i = 0; i < g->n_gpus; i++)
        expectations(&g->gpus[i], arena);
}

/* The kernel writes the domain with four digits ("PCI:0000:01:00"), NVML
 * with eight: compare domain, bus and device as numbers. */
long long td_bench_count_xids(const char *text, size_t len, const char *pci)
{
    unsigned dom, bus, dev, d2, b2, v2;
    long long n = 0;
    if (!pci || sscanf(pci, "%x:%x:%x", &dom, &bus, &dev) != 3)
        return -1;
    const char *end = text + len;
    for (const char *p = text; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n_line = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char line[512];
        size_t c = n_line < sizeof line - 1 ? n_line : sizeof line - 1;
        memcpy(line, p, c);
        line[c] = '\0';
        const char *x = strstr(line, "NVRM: Xid (PCI:");
        if (x && sscanf(x + 15, "%x:%x:%x", &d2, &b2, &v2) == 3 && d2 == dom && b2 == bus &&
            v2 == dev)
            n++;
        p += n_line + 1;
    }
    return n;
}

void td_bench_gpu_ended(struct td_bench_gpus *g, const char *how, struct td_arena *arena)
{
    g->failed = true;
    g->status = td_arena_strdup(arena, how);
    for (size_t i = 0; i < g->n_gpus; i++) {
        struct td_bench_gpu *x = &g->gpus[i];
        if (x->index != g->last_gpu || x->error)
            continue;
        char e[800];
        snprintf(e, sizeof e, "%s during %s", how, x->last_step ? x->last_step : "setup");
        x->error = td_arena_strdup(arena, e);
    }
}
