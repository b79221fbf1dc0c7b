/* What the GPU helper measures for `bench` (gpu_ask.h td_gpu_bench): per
 * device, copies between host and device (pinned and pageable) and on the
 * device, timed with CUDA events; the FP32 FMA rate of a kernel shipped
 * here as PTX text and JIT-compiled by the driver (cuModuleLoadData); a
 * stability loop of the same kernel; and what NVML says of the link,
 * clocks, power, temperature, throttling, ECC and retired pages. One line
 * per answer, in the probe's protocol (read by bench_gpu_parse.c):
 *
 *   bench_gpu 0 sms=132 pci=00000000:01:00.0 name=NVIDIA H100 80GB HBM3
 *   step 0 h2d_pinned                 about to do it (a crash names the step)
 *   bench 0 h2d_pinned 24.1           GB/s (GFLOP/s for fp32_fma)
 *   nvml 0 pcie 4 16 4 16             current gen, width, max gen, width
 *   nvml 0 clocks 1980 2619 | power_limit_mw 450000 | temperature 41
 *   nvml 0 throttle 0 | ecc 0 | retired 0
 *   stability 0 100 0 812.5 809.9     iterations, errors, first, last GFLOP/s
 *   bench_error 0 cuMemAlloc_v2 2     a call failed (code)
 *
 * Signatures: CUDA Driver API reference (cuda.h), NVML API reference
 * (nvml.h). Standalone: only the C library. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_ask.h"

#if defined(_WIN32)
#define CUDAAPI __stdcall
#else
#define CUDAAPI
#endif

typedef unsigned long long devptr;
typedef void *handle;

/* The FMA kernel: each thread runs 16 independent FMA chains, 64 FMAs per
 * loop turn, so loop overhead is 3 of 67 instructions; the sum is stored
 * so nothing is optimised away. PTX ISA 6.0 for sm_50 and up: the driver
 * JIT-compiles it for whatever GPU it finds. */
/* (clang-format does not settle on one layout for this macro) */
/* clang-format off */
#define FMA(r) "    fma.rn.f32 %" r ", %" r ", %m, %c;\n"
#define FMA16 \
    FMA("a0") FMA("a1") FMA("a2") FMA("a3") FMA("a4") FMA("a5") FMA("a6") FMA("a7") \
    FMA("a8") FMA("a9") FMA("a10") FMA("a11") FMA("a12") FMA("a13") FMA("a14") FMA("a15")
/* clang-format on */
const char td_gpu_fma_ptx[] = "//\n// torchdoctor bench: FP32 FMA throughput\n//\n"
                              ".version 6.0\n"
                              ".target sm_50\n"
                              ".address_size 64\n"
                              "\n"
                              ".visible .entry td_fma(.param .u64 out, .param .u32 iters)\n"
                              "{\n"
                              "    .reg .pred %p;\n"
                              "    .reg .f32 %a<16>;\n"
                              "    .reg .f32 %m, %c, %s;\n"
                              "    .reg .u32 %i, %n, %t, %nt, %cta;\n"
                              "    .reg .u64 %addr, %off;\n"
                              "    mov.u32 %t, %tid.x;\n"
                              "    mov.u32 %nt, %ntid.x;\n"
                              "    mov.u32 %cta, %ctaid.x;\n"
                              "    mad.lo.u32 %t, %cta, %nt, %t;\n"
                              "    cvt.rn.f32.u32 %s, %t;\n"
                              "    add.f32 %a0, %s, 0f3F800000;\n"
                              "    add.f32 %a1, %a0, 0f3F800000;\n"
                              "    add.f32 %a2, %a1, 0f3F800000;\n"
                              "    add.f32 %a3, %a2, 0f3F800000;\n"
                              "    add.f32 %a4, %a3, 0f3F800000;\n"
                              "    add.f32 %a5, %a4, 0f3F800000;\n"
                              "    add.f32 %a6, %a5, 0f3F800000;\n"
                              "    add.f32 %a7, %a6, 0f3F800000;\n"
                              "    add.f32 %a8, %a7, 0f3F800000;\n"
                              "    add.f32 %a9, %a8, 0f3F800000;\n"
                              "    add.f32 %a10, %a9, 0f3F800000;\n"
                              "    add.f32 %a11, %a10, 0f3F800000;\n"
                              "    add.f32 %a12, %a11, 0f3F800000;\n"
                              "    add.f32 %a13, %a12, 0f3F800000;\n"
                              "    add.f32 %a14, %a13, 0f3F800000;\n"
                              "    add.f32 %a15, %a14, 0f3F800000;\n"
                              "    mov.f32 %m, 0f3F7FFFEF;\n" /* 0.999999, keeps values bounded */
                              "    mov.f32 %c, 0f3A83126F;\n" /* 0.001 */
                              "    ld.param.u32 %n, [iters];\n"
                              "    mov.u32 %i, 0;\n"
                              "LOOP:\n" FMA16 FMA16 FMA16 FMA16 "    add.u32 %i, %i, 1;\n"
                              "    setp.lt.u32 %p, %i, %n;\n"
                              "    @%p bra LOOP;\n"
                              "    add.f32 %s, %a0, %a1;\n"
                              "    add.f32 %s, %s, %a2;\n"
                              "    add.f32 %s, %s, %a3;\n"
                              "    add.f32 %s, %s, %a4;\n"
                              "    add.f32 %s, %s, %a5;\n"
                              "    add.f32 %s, %s, %a6;\n"
                              "    add.f32 %s, %s, %a7;\n"
                              "    add.f32 %s, %s, %a8;\n"
                              "    add.f32 %s, %s, %a9;\n"
                              "    add.f32 %s, %s, %a10;\n"
                              "    add.f32 %s, %s, %a11;\n"
                              "    add.f32 %s, %s, %a12;\n"
                              "    add.f32 %s, %s, %a13;\n"
                              "    add.f32 %s, %s, %a14;\n"
                              "    add.f32 %s, %s, %a15;\n"
                              "    ld.param.u64 %addr, [out];\n"
                              "    cvta.to.global.u64 %addr, %addr;\n"
                              "    mul.wide.u32 %off, %t, 4;\n"
                              "    add.u64 %addr, %addr, %off;\n"
                              "    st.global.f32 [%addr], %s;\n"
                              "    ret;\n"
                              "}\n";

enum {
    FMA_PER_TURN = 64,
    BLOCK = 256,
    BLOCKS_PER_SM = 16,
    ATTR_SM_COUNT = 16, /* CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT */
    ATTR_PCI_BUS_ID = 33,
    ATTR_PCI_DEVICE_ID = 34,
    ATTR_PCI_DOMAIN_ID = 50,
};

/* The driver entry points, looked up once. */
struct cu {
    int(CUDAAPI *init)(unsigned);
    int(CUDAAPI *count)(int *);
    int(CUDAAPI *get)(int *, int);
    int(CUDAAPI *name)(char *, int, int);
    int(CUDAAPI *attr)(int *, int, int);
    int(CUDAAPI *ctx_create)(handle *, unsigned, int);
    int(CUDAAPI *ctx_destroy)(handle);
    int(CUDAAPI *ctx_sync)(void);
    int(CUDAAPI *mem_alloc)(devptr *, size_t);
    int(CUDAAPI *mem_free)(devptr);
    int(CUDAAPI *host_alloc)(void **, size_t);
    int(CUDAAPI *host_free)(void *);
    int(CUDAAPI *htod)(devptr, const void *, size_t);
    int(CUDAAPI *dtoh)(void *, devptr, size_t);
    int(CUDAAPI *dtod)(devptr, devptr, size_t);
    int(CUDAAPI *event_create)(handle *, unsigned);
    int(CUDAAPI *event_record)(handle, handle);
    int(CUDAAPI *event_sync)(handle);
    int(CUDAAPI *event_elapsed)(float *, handle, handle);
    int(CUDAAPI *event_destroy)(handle);
    int(CUDAAPI *module_load)(handle *, const void *);
    int(CUDAAPI *module_function)(handle *, handle, const char *);
    int(CUDAAPI *module_unload)(handle);
    int(CUDAAPI *launch)(handle, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                         unsigned, handle, void **, void **);
};

struct nv {
    int (*init)(void);
    int (*by_pci)(const char *, handle *);
    int (*pcie_gen)(handle, unsigned *);
    int (*pcie_width)(handle, unsigned *);
    int (*pcie_max_gen)(handle, unsigned *);
    int (*pcie_max_width)(handle, unsigned *);
    int (*clock)(handle, int, unsigned *);
    int (*power_limit)(handle, unsigned *);
    int (*temperature)(handle, int, unsigned *);
    int (*throttle)(handle, unsigned long long *);
    int (*ecc)(handle, int, int, unsigned long long *);
    int (*retired)(handle, int, unsigned *, unsigned long long *);
};

/* Stores LIB's NAME in the function pointer at SLOT (POSIX: function and
 * object pointers have one size); counts what is missing. */
static void lookup(const struct td_gpu_ask *ask, void *lib, const char *name, void *slot,
                   int *missing)
{
    void *p = ask->sym(lib, name);
    if (!p)
        (*missing)++;
    memcpy(slot, &p, sizeof p);
}

#define LOOKUP(lib, field, name) lookup(ask, lib, name, &(field), &missing)

static int load_cuda(const struct td_gpu_ask *ask, void *lib, struct cu *c)
{
    int missing = 0;
    LOOKUP(lib, c->init, "cuInit");
    LOOKUP(lib, c->count, "cuDeviceGetCount");
    LOOKUP(lib, c->get, "cuDeviceGet");
    LOOKUP(lib, c->name, "cuDeviceGetName");
    LOOKUP(lib, c->attr, "cuDeviceGetAttribute");
    LOOKUP(lib, c->ctx_create, "cuCtxCreate_v2");
    LOOKUP(lib, c->ctx_destroy, "cuCtxDestroy_v2");
    LOOKUP(lib, c->ctx_sync, "cuCtxSynchronize");
    LOOKUP(lib, c->mem_alloc, "cuMemAlloc_v2");
    LOOKUP(lib, c->mem_free, "cuMemFree_v2");
    LOOKUP(lib, c->host_alloc, "cuMemAllocHost_v2");
    LOOKUP(lib, c->host_free, "cuMemFreeHost");
    LOOKUP(lib, c->htod, "cuMemcpyHtoD_v2");
    LOOKUP(lib, c->dtoh, "cuMemcpyDtoH_v2");
    LOOKUP(lib, c->dtod, "cuMemcpyDtoD_v2");
    LOOKUP(lib, c->event_create, "cuEventCreate");
    LOOKUP(lib, c->event_record, "cuEventRecord");
    LOOKUP(lib, c->event_sync, "cuEventSynchronize");
    LOOKUP(lib, c->event_elapsed, "cuEventElapsedTime");
    LOOKUP(lib, c->event_destroy, "cuEventDestroy_v2");
    LOOKUP(lib, c->module_load, "cuModuleLoadData");
    LOOKUP(lib, c->module_function, "cuModuleGetFunction");
    LOOKUP(lib, c->module_unload, "cuModuleUnload");
    LOOKUP(lib, c->launch, "cuLaunchKernel");
    return missing ? -1 : 0;
}

static void load_nvml(const struct td_gpu_ask *ask, struct nv *n)
{
    void *lib = NULL;
    char why[256];
    int missing = 0;
    memset(n, 0, sizeof *n);
    for (const char *const *name = ask->nvml_libs; !lib && name && *name; name++)
        lib = ask->open(*name, why, sizeof why);
    if (!lib)
        return;
    LOOKUP(lib, n->init, "nvmlInit_v2");
    LOOKUP(lib, n->by_pci, "nvmlDeviceGetHandleByPciBusId_v2");
    LOOKUP(lib, n->pcie_gen, "nvmlDeviceGetCurrPcieLinkGeneration");
    LOOKUP(lib, n->pcie_width, "nvmlDeviceGetCurrPcieLinkWidth");
    LOOKUP(lib, n->pcie_max_gen, "nvmlDeviceGetMaxPcieLinkGeneration");
    LOOKUP(lib, n->pcie_max_width, "nvmlDeviceGetMaxPcieLinkWidth");
    LOOKUP(lib, n->clock, "nvmlDeviceGetClockInfo");
    LOOKUP(lib, n->power_limit, "nvmlDeviceGetEnforcedPowerLimit");
    LOOKUP(lib, n->temperature, "nvmlDeviceGetTemperature");
    LOOKUP(lib, n->throttle, "nvmlDeviceGetCurrentClocksThrottleReasons");
    LOOKUP(lib, n->ecc, "nvmlDeviceGetTotalEccErrors");
    LOOKUP(lib, n->retired, "nvmlDeviceGetRetiredPages");
    (void)missing; /* each NVML answer is optional */
    if (!n->init || n->init() != 0)
        n->by_pci = NULL; /* no device handles: nothing below is asked */
}

/* What NVML says of device DEV (found by its PCI address); asked while the
 * GPU is busy, since an idle link trains down to Gen1. */
static void nvml_report(const struct td_gpu_ask *ask, const struct nv *n, int index,
                        const char *pci)
{
    handle h = NULL;
    unsigned a, b, c, d;
    unsigned long long v;
    if (!n->by_pci || n->by_pci(pci, &h) != 0)
        return;
    if (n->pcie_gen && n->pcie_width && n->pcie_max_gen && n->pcie_max_width &&
        n->pcie_gen(h, &a) == 0 && n->pcie_width(h, &b) == 0 && n->pcie_max_gen(h, &c) == 0 &&
        n->pcie_max_width(h, &d) == 0)
        td_gpu_say(ask, "nvml %d pcie %u %u %u %u", index, a, b, c, d);
    /* nvmlClockType_t: NVML_CLOCK_SM 1, NVML_CLOCK_MEM 2. */
    if (n->clock && n->clock(h, 1, &a) == 0 && n->clock(h, 2, &b) == 0)
        td_gpu_say(ask, "nvml %d clocks %u %u", index, a, b);
    if (n->power_limit && n->power_limit(h, &a) == 0)
        td_gpu_say(ask, "nvml %d power_limit_mw %u", index, a);
    if (n->temperature && n->temperature(h, 0, &a) == 0) /* NVML_TEMPERATURE_GPU */
        td_gpu_say(ask, "nvml %d temperature %u", index, a);
    if (n->throttle && n->throttle(h, &v) == 0)
        td_gpu_say(ask, "nvml %d throttle %llu", index, v);
    /* NVML_MEMORY_ERROR_TYPE_UNCORRECTED 1, NVML_AGGREGATE_ECC 1. */
    if (n->ecc && n->ecc(h, 1, 1, &v) == 0)
        td_gpu_say(ask, "nvml %d ecc %llu", index, v);
    unsigned single = 0, dbl = 0;
    /* Page retirement causes: multiple single-bit 0, double-bit 1; a zero
     * count asks for the number only (NVML_ERROR_INSUFFICIENT_SIZE, 7, is
     * its answer when there are some). */
    if (n->retired) {
        int r0 = n->retired(h, 0, &single, NULL), r1 = n->retired(h, 1, &dbl, NULL);
        if ((r0 == 0 || r0 == 7) && (r1 == 0 || r1 == 7))
            td_gpu_say(ask, "nvml %d retired %u", index, single + dbl);
    }
}

/* The milliseconds between two events around REPS copies of KIND. */
static int time_copies(const struct cu *c, int kind, devptr dst, devptr src, void *host,
                       size_t bytes, int reps, float *ms)
{
    handle e0 = NULL, e1 = NULL;
    int rc = c->event_create(&e0, 0);
    if (rc == 0)
        rc = c->event_create(&e1, 0);
    if (rc == 0)
        rc = c->event_record(e0, NULL);
    for (int r = 0; rc == 0 && r < reps; r++)
        rc = kind == 0   ? c->htod(dst, host, bytes)
             : kind == 1 ? c->dtoh(host, src, bytes)
                         : c->dtod(dst, src, bytes);
    if (rc == 0)
        rc = c->event_record(e1, NULL);
    if (rc == 0)
        rc = c->event_sync(e1);
    if (rc == 0)
        rc = c->event_elapsed(ms, e0, e1);
    if (e0)
        c->event_destroy(e0);
    if (e1)
        c->event_destroy(e1);
    return rc;
}

struct run {
    const struct td_gpu_ask *ask;
    const struct cu *c;
    int index;
    bool quick;
};

static int copy_step(const struct run *r, const char *name, int kind, devptr dst, devptr src,
                     void *host, size_t bytes, int reps)
{
    float ms = 0;
    td_gpu_say(r->ask, "step %d %s", r->index, name);
    int rc = time_copies(r->c, kind, dst, src, host, bytes, reps, &ms);
    if (rc != 0) {
        td_gpu_say(r->ask, "bench_error %d %s %d", r->index, name, rc);
        return rc;
    }
    /* A device-to-device copy reads and writes each byte (bandwidthTest counts it so). */
    double moved = (double)bytes * reps * (kind == 2 ? 2 : 1);
    if (ms > 0)
        td_gpu_say(r->ask, "bench %d %s %.3f", r->index, name, moved / (ms * 1e-3) * 1e-9);
    return 0;
}

/* Copies between pinned, pageable and device memory. */
static void copies(const struct run *r)
{
    const struct cu *c = r->c;
    size_t bytes = (size_t)(r->quick ? 64 : 256) << 20;
    int reps = r->quick ? 2 : 5, rc;
    devptr d0 = 0, d1 = 0;
    void *pinned = NULL, *pageable = malloc(bytes);
    if ((rc = c->mem_alloc(&d0, bytes)) != 0 || (rc = c->mem_alloc(&d1, bytes)) != 0) {
        td_gpu_say(r->ask, "bench_error %d cuMemAlloc_v2 %d", r->index, rc);
        goto out;
    }
    if ((rc = c->host_alloc(&pinned, bytes)) != 0) {
        td_gpu_say(r->ask, "bench_error %d cuMemAllocHost_v2 %d", r->index, rc);
        pinned = NULL;
    }
    if (pinned) {
        memset(pinned, 1, bytes);
        copy_step(r, "h2d_pinned", 0, d0, 0, pinned, bytes, reps);
        copy_step(r, "d2h_pinned", 1, 0, d0, pinned, bytes, reps);
    }
    if (pageable) {
        memset(pageable, 1, bytes);
        copy_step(r, "h2d_pageable", 0, d0, 0, pageable, bytes, reps);
        copy_step(r, "d2h_pageable", 1, 0, d0, pageable, bytes, reps);
    }
    copy_step(r, "d2d", 2, d1, d0, NULL, bytes, reps * 2);
out:
    if (d0)
        c->mem_free(d0);
    if (d1)
        c->mem_free(d1);
    if (pinned)
        c->host_free(pinned);
    free(pageable);
}

/* One launch of the FMA kernel with ITERS loop turns: its GFLOP/s, or < 0. */
static double fma_launch(const struct run *r, handle fn, devptr out, unsigned blocks,
                         unsigned iters, int *rc)
{
    const struct cu *c = r->c;
    handle e0 = NULL, e1 = NULL;
    void *params[] = {&out, &iters};
    float ms = 0;
    *rc = c->event_create(&e0, 0);
    if (*rc == 0)
        *rc = c->event_create(&e1, 0);
    if (*rc == 0)
        *rc = c->event_record(e0, NULL);
    if (*rc == 0)
        *rc = c->launch(fn, blocks, 1, 1, BLOCK, 1, 1, 0, NULL, params, NULL);
    if (*rc == 0)
        *rc = c->event_record(e1, NULL);
    if (*rc == 0)
        *rc = c->event_sync(e1);
    if (*rc == 0)
        *rc = c->event_elapsed(&ms, e0, e1);
    if (e0)
        c->event_destroy(e0);
    if (e1)
        c->event_destroy(e1);
    double flops = (double)blocks * BLOCK * iters * FMA_PER_TURN * 2;
    return *rc == 0 && ms > 0 ? flops / (ms * 1e-3) * 1e-9 : -1;
}

/* The FMA rate, then the stability loop: ITERATIONS launches, their errors
 * and how the rate moved from the first to the last. */
static void compute(const struct run *r, int sms, int iterations)
{
    const struct cu *c = r->c;
    handle mod = NULL, fn = NULL;
    devptr out = 0;
    unsigned blocks = (unsigned)(sms > 0 ? sms : 1) * BLOCKS_PER_SM;
    int rc;
    td_gpu_say(r->ask, "step %d module", r->index);
    if ((rc = c->module_load(&mod, td_gpu_fma_ptx)) != 0) {
        td_gpu_say(r->ask, "bench_error %d cuModuleLoadData %d", r->index, rc);
        return;
    }
    if ((rc = c->module_function(&fn, mod, "td_fma")) != 0 ||
        (rc = c->mem_alloc(&out, (size_t)blocks * BLOCK * 4)) != 0) {
        td_gpu_say(r->ask, "bench_error %d %s %d", r->index,
                   fn ? "cuMemAlloc_v2" : "cuModuleGetFunction", rc);
        goto out;
    }
    td_gpu_say(r->ask, "step %d fp32_fma", r->index);
    /* Calibrate: a short launch, then one sized to about 20 ms (quick 5 ms). */
    unsigned iters = 64;
    double rate = fma_launch(r, fn, out, blocks, iters, &rc);
    if (rate > 0) {
        double target_flop = rate * 1e9 * (r->quick ? 0.005 : 0.02);
        double per_turn = (double)blocks * BLOCK * FMA_PER_TURN * 2;
        double want = target_flop / per_turn;
        iters = want < 16 ? 16 : want > 1e7 ? 10000000u : (unsigned)want;
        rate = fma_launch(r, fn, out, blocks, iters, &rc);
    }
    if (rate <= 0) {
        td_gpu_say(r->ask, "bench_error %d cuLaunchKernel %d", r->index, rc);
        goto out;
    }
    td_gpu_say(r->ask, "bench %d fp32_fma %.3f", r->index, rate);
    td_gpu_say(r->ask, "step %d stability", r->index);
    double first = -1, last = -1;
    int errors = 0;
    for (int i = 0; i < iterations; i++) {
        double x = fma_launch(r, fn, out, blocks, iters, &rc);
        if (x <= 0) {
            errors++;
            continue;
        }
        if (first < 0)
            first = x;
        last = x;
    }
    td_gpu_say(r->ask, "stability %d %d %d %.3f %.3f", r->index, iterations, errors, first, last);
out:
    if (out)
        c->mem_free(out);
    if (mod)
        c->module_unload(mod);
}

static void device(const struct td_gpu_ask *ask, const struct cu *c, const struct nv *n, int index,
                   int iterations, bool quick)
{
    int dev = 0, sms = 0, bus = 0, slot = 0, domain = 0, rc;
    char name[256] = "", pci[32] = "";
    handle ctx = NULL;
    if ((rc = c->get(&dev, index)) != 0) {
        td_gpu_say(ask, "bench_error %d cuDeviceGet %d", index, rc);
        return;
    }
    c->attr(&sms, ATTR_SM_COUNT, dev);
    if (c->attr(&bus, ATTR_PCI_BUS_ID, dev) == 0 && c->attr(&slot, ATTR_PCI_DEVICE_ID, dev) == 0 &&
        c->attr(&domain, ATTR_PCI_DOMAIN_ID, dev) == 0)
        snprintf(pci, sizeof pci, "%08X:%02X:%02X.0", (unsigned)domain, (unsigned)bus,
                 (unsigned)slot);
    c->name(name, (int)sizeof name - 1, dev);
    td_gpu_say(ask, "bench_gpu %d sms=%d pci=%s name=%s", index, sms, pci[0] ? pci : "-", name);
    if ((rc = c->ctx_create(&ctx, 0, dev)) != 0) {
        td_gpu_say(ask, "bench_error %d cuCtxCreate_v2 %d", index, rc);
        return;
    }
    const struct run r = {ask, c, index, quick};
    copies(&r);
    compute(&r, sms, iterations);
    /* After the loads, while the clocks and the link are still up. */
    nvml_report(ask, n, index, pci);
    c->ctx_destroy(ctx);
}

void td_gpu_bench(const struct td_gpu_ask *ask, int iterations, bool quick)
{
    char why[512];
    struct cu c;
    struct nv n;
    int count = 0, rc;
    void *lib = ask->open(ask->cuda_lib, why, sizeof why);
    if (!lib) {
        td_gpu_say(ask, "nolib %s %s", ask->cuda_lib, why[0] ? why : "not found");
        goto done;
    }
    if (load_cuda(ask, lib, &c) != 0) {
        td_gpu_say(ask, "bench_error -1 missing-entry-point -1");
        goto done;
    }
    if ((rc = c.init(0)) != 0 || (rc = c.count(&count)) != 0) {
        td_gpu_say(ask, "bench_error -1 cuInit %d", rc);
        goto done;
    }
    load_nvml(ask, &n);
    for (int i = 0; i < count && i < 16; i++)
        device(ask, &c, &n, i, iterations, quick);
done:
    td_gpu_say(ask, "done");
}
