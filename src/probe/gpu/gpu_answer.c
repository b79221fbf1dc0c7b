/* Reads the GPU helper's answer (the line protocol described in
 * gpuhelper/gpu_helper.c) into a td_gpu_info. The bytes come from another
 * process that loaded a driver we do not trust, so they are parsed like
 * any untrusted input: bounded, and whatever is malformed is ignored. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_util.h"

#define MAX_GPUS 64

/* A non-negative decimal number of at most 18 digits at S (N bytes), or -1. */
static long long number(const char *s, size_t n)
{
    long long v = 0;
    if (n == 0 || n > 18)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* Splits the next space-separated word off *P (inside END). */
static bool word(const char **p, const char *end, const char **w, size_t *n)
{
    while (*p < end && **p == ' ')
        (*p)++;
    *w = *p;
    while (*p < end && **p != ' ')
        (*p)++;
    *n = (size_t)(*p - *w);
    return *n > 0;
}

static bool is(const char *w, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(w, lit, n) == 0;
}

static void set_status(struct td_gpu_info *out, struct td_arena *arena, enum td_gpu_status st,
                       const char *detail)
{
    if (out->status != TD_GPU_OK)
        return; /* the first problem explains the rest */
    out->status = st;
    out->status_detail = td_arena_strdup(arena, detail);
}

/* "gpu 0 cc=8.9 mem=... pci=... uuid=... name=REST OF LINE" */
static void gpu_line(const char *p, const char *end, struct td_arena *arena,
                     struct td_gpu_info *out, size_t cap)
{
    const char *w;
    size_t n;
    if (!out->gpus || out->n_gpus >= cap || !word(&p, end, &w, &n) || number(w, n) < 0)
        return;
    struct td_gpu *g = &out->gpus[out->n_gpus++];
    memset(g, 0, sizeof *g);
    g->index = (int)number(w, n);
    while (word(&p, end, &w, &n)) {
        const char *eq = memchr(w, '=', n);
        if (!eq)
            continue;
        size_t kn = (size_t)(eq - w);
        const char *v = eq + 1;
        size_t vn = n - kn - 1;
        if (is(w, kn, "name")) {
            g->name = td_arena_strndup(arena, v, (size_t)(end - v));
            break;
        }
        if (is(w, kn, "cc")) {
            const char *dot = memchr(v, '.', vn);
            long long ma = dot ? number(v, (size_t)(dot - v)) : -1;
            long long mi = dot ? number(dot + 1, vn - (size_t)(dot - v) - 1) : -1;
            if (ma >= 0 && mi >= 0 && ma < 1000 && mi < 1000) {
                g->cc_major = (int)ma;
                g->cc_minor = (int)mi;
            }
        } else if (is(w, kn, "mem")) {
            long long m = number(v, vn);
            g->memory = m > 0 ? (uint64_t)m : 0;
        } else if (is(w, kn, "pci")) {
            g->pci_bus = td_arena_strndup(arena, v, vn);
        } else if (is(w, kn, "uuid")) {
            g->uuid = td_arena_strndup(arena, v, vn);
        }
    }
}

/* "error CALL CODE NAME": cuInit's CUDA_ERROR_NO_DEVICE (100) is what the
 * driver says when it sees no GPU at all (none installed, none made visible
 * by CUDA_VISIBLE_DEVICES or the container runtime): not an init failure. */
static void error_line(const char *p, const char *end, struct td_arena *arena,
                       struct td_gpu_info *out)
{
    const char *call, *code, *name;
    size_t cn, dn, nn;
    if (!word(&p, end, &call, &cn) || !word(&p, end, &code, &dn))
        return;
    if (!word(&p, end, &name, &nn) || is(name, nn, "-"))
        nn = 0;
    char detail[256];
    snprintf(detail, sizeof detail, "%.*s returned %.*s%s%.*s%s", (int)(cn > 64 ? 64 : cn), call,
             (int)(dn > 24 ? 24 : dn), code, nn ? " (" : "", (int)(nn > 80 ? 80 : nn), name,
             nn ? ")" : "");
    bool no_device = is(call, cn, "cuInit") && is(code, dn, "100");
    set_status(out, arena, no_device ? TD_GPU_NO_DEVICE : TD_GPU_INIT_FAILED, detail);
}

/* "0 1 level=10 nvlink=1". */
static void topo_line(const char *p, const char *end, struct td_arena *arena,
                      struct td_gpu_info *out)
{
    enum { MAX_LINKS = 16 * 15 / 2 };
    char text[96];
    size_t n = (size_t)(end - p);
    unsigned a, b;
    int level, nvlink;
    if (n >= sizeof text)
        return;
    memcpy(text, p, n);
    text[n] = '\0';
    if (sscanf(text, "%u %u level=%d nvlink=%d", &a, &b, &level, &nvlink) != 4 || a >= 16 ||
        b >= 16 || level < 0 || level > 100 || nvlink < -1 || nvlink > 1)
        return;
    if (!out->links && !(out->links = td_arena_array(arena, MAX_LINKS, sizeof *out->links)))
        return;
    if (out->n_links < MAX_LINKS)
        out->links[out->n_links++] = (struct td_gpu_link){a, b, level, nvlink};
}

bool td_gpu_parse_answer(const char *text, size_t len, struct td_arena *arena,
                         struct td_gpu_info *out)
{
    bool done = false;
    size_t cap = 0;
    out->status = TD_GPU_OK;
    out->status_detail = NULL;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        if (!nl)
            break; /* a line cut short by a crash is not an answer */
        const char *end = nl, *p = line, *key;
        size_t kn;
        pos += (size_t)(nl - line) + 1;
        if (!word(&p, end, &key, &kn))
            continue;
        while (p < end && *p == ' ')
            p++;
        size_t rest = (size_t)(end - p);
        if (is(key, kn, "done")) {
            done = true;
        } else if (is(key, kn, "nvml_driver") && rest) {
            out->driver_version = td_arena_strndup(arena, p, rest > 64 ? 64 : rest);
        } else if (is(key, kn, "cuda_driver")) {
            long long v = number(p, rest);
            out->cuda_driver_version = v > 0 && v < 1000000 ? (int)v : 0;
        } else if (is(key, kn, "nolib")) {
            char detail[600];
            const char *lib, *why;
            size_t ln, wn;
            word(&p, end, &lib, &ln);
            while (p < end && *p == ' ')
                p++;
            why = p;
            wn = (size_t)(end - p);
            snprintf(detail, sizeof detail, "%.*s cannot be loaded: %.*s", (int)(ln > 64 ? 64 : ln),
                     lib, (int)(wn > 400 ? 400 : wn), why);
            set_status(out, arena, TD_GPU_NO_DRIVER, detail);
        } else if (is(key, kn, "error")) {
            error_line(p, end, arena, out);
        } else if (is(key, kn, "device_count")) {
            long long n = number(p, rest);
            if (n == 0)
                set_status(out, arena, TD_GPU_NO_DEVICE,
                           "the driver sees no GPU (cuDeviceGetCount is 0)");
            if (n > 0 && !out->gpus) {
                cap = n > MAX_GPUS ? MAX_GPUS : (size_t)n;
                out->gpus = td_arena_array(arena, cap, sizeof *out->gpus);
            }
        } else if (is(key, kn, "gpu")) {
            gpu_line(p, end, arena, out, cap);
        } else if (is(key, kn, "topo")) {
            topo_line(p, end, arena, out);
        }
    }
    return done;
}

const char *td_gpu_timeout_detail(int timeout_ms, const char *who, char *out, size_t cap)
{
    if (timeout_ms % 1000 == 0)
        snprintf(out, cap, "no answer within %d s; the %s was killed", timeout_ms / 1000, who);
    else
        snprintf(out, cap, "no answer within %d ms; the %s was killed", timeout_ms, who);
    return out;
}
