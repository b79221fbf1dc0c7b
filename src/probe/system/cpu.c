/* The CPU probe: vendor, brand, logical CPUs, the SIMD features torch's
 * kernels dispatch on, and the x86-64 micro-architecture level. On x86 the
 * features come from cpuid (Intel SDM vol. 2A "CPUID"; AMD APM vol. 3
 * appendix E), and the AVX families count only when the OS enables their
 * register state in XCR0 (Intel SDM vol. 1 13.3 "Enabling the XSAVE
 * feature set"), as the kernel's /proc/cpuinfo and glibc's "usable"
 * features do. Elsewhere the kernel's /proc/cpuinfo "Features" line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/data.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

#ifdef _WIN32
#include <windows.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define TD_X86 1
#endif

static const char *const feature_names[TD_CPU_FEATURE_COUNT] = {
    [TD_CPU_SSE3] = "sse3",
    [TD_CPU_SSSE3] = "ssse3",
    [TD_CPU_SSE4_1] = "sse4_1",
    [TD_CPU_SSE4_2] = "sse4_2",
    [TD_CPU_POPCNT] = "popcnt",
    [TD_CPU_AVX] = "avx",
    [TD_CPU_AVX2] = "avx2",
    [TD_CPU_FMA] = "fma",
    [TD_CPU_BMI2] = "bmi2",
    [TD_CPU_F16C] = "f16c",
    [TD_CPU_AVX512F] = "avx512f",
    [TD_CPU_AVX512BW] = "avx512bw",
    [TD_CPU_AVX512VL] = "avx512vl",
    [TD_CPU_AVX512DQ] = "avx512dq",
    [TD_CPU_AVX512CD] = "avx512cd",
    [TD_CPU_AVX512_VNNI] = "avx512_vnni",
    [TD_CPU_AVX512_BF16] = "avx512_bf16",
    [TD_CPU_AVX_VNNI] = "avx_vnni",
    [TD_CPU_AMX_TILE] = "amx_tile",
    [TD_CPU_AMX_BF16] = "amx_bf16",
    [TD_CPU_AMX_INT8] = "amx_int8",
    [TD_CPU_NEON] = "neon",
    [TD_CPU_SVE] = "sve",
};

const char *td_cpu_feature_name(enum td_cpu_feature f)
{
    return (unsigned)f < TD_CPU_FEATURE_COUNT ? feature_names[f] : "unknown";
}

static unsigned logical_cpus(void)
{
#ifdef _WIN32
    SYSTEM_INFO si;
    GetSystemInfo(&si);
    return (unsigned)si.dwNumberOfProcessors;
#else
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (unsigned)n : 0;
#endif
}

#ifdef TD_X86

/* Register state a feature needs enabled in XCR0. */
enum xstate {
    XS_NONE = 0,
    XS_AVX = 0x6,     /* SSE | AVX (YMM upper halves) */
    XS_AVX512 = 0xe6, /* and opmask, ZMM_Hi256, Hi16_ZMM */
    XS_AMX = 0x60000, /* XTILECFG | XTILEDATA */
};

/* Where each feature's bit is: leaf, subleaf, register (a b c d), bit. */
struct cpuid_bit {
    const char *name;
    uint32_t leaf, subleaf;
    char reg;
    uint8_t bit;
    uint32_t xstate;
};

static const struct cpuid_bit cpuid_bits[] = {
    {"fpu", 1, 0, 'd', 0, XS_NONE},
    {"cx8", 1, 0, 'd', 8, XS_NONE},
    {"cmov", 1, 0, 'd', 15, XS_NONE},
    {"mmx", 1, 0, 'd', 23, XS_NONE},
    {"fxsr", 1, 0, 'd', 24, XS_NONE},
    {"sse", 1, 0, 'd', 25, XS_NONE},
    {"sse2", 1, 0, 'd', 26, XS_NONE},
    {"sse3", 1, 0, 'c', 0, XS_NONE},
    {"ssse3", 1, 0, 'c', 9, XS_NONE},
    {"fma", 1, 0, 'c', 12, XS_AVX},
    {"cx16", 1, 0, 'c', 13, XS_NONE},
    {"sse4_1", 1, 0, 'c', 19, XS_NONE},
    {"sse4_2", 1, 0, 'c', 20, XS_NONE},
    {"movbe", 1, 0, 'c', 22, XS_NONE},
    {"popcnt", 1, 0, 'c', 23, XS_NONE},
    {"xsave", 1, 0, 'c', 26, XS_NONE},
    {"osxsave", 1, 0, 'c', 27, XS_NONE},
    {"avx", 1, 0, 'c', 28, XS_AVX},
    {"f16c", 1, 0, 'c', 29, XS_AVX},
    {"bmi1", 7, 0, 'b', 3, XS_NONE},
    {"avx2", 7, 0, 'b', 5, XS_AVX},
    {"bmi2", 7, 0, 'b', 8, XS_NONE},
    {"avx512f", 7, 0, 'b', 16, XS_AVX512},
    {"avx512dq", 7, 0, 'b', 17, XS_AVX512},
    {"avx512cd", 7, 0, 'b', 28, XS_AVX512},
    {"avx512bw", 7, 0, 'b', 30, XS_AVX512},
    {"avx512vl", 7, 0, 'b', 31, XS_AVX512},
    {"avx512_vnni", 7, 0, 'c', 11, XS_AVX512},
    {"amx_bf16", 7, 0, 'd', 22, XS_AMX},
    {"amx_tile", 7, 0, 'd', 24, XS_AMX},
    {"amx_int8", 7, 0, 'd', 25, XS_AMX},
    {"avx_vnni", 7, 1, 'a', 4, XS_AVX},
    {"avx512_bf16", 7, 1, 'a', 5, XS_AVX512},
    {"lahf", 0x80000001, 0, 'c', 0, XS_NONE},  /* LAHF/SAHF in 64-bit mode */
    {"lzcnt", 0x80000001, 0, 'c', 5, XS_NONE}, /* AMD's ABM bit */
};

/* Everything cpuid says, read once. */
struct cpuid_view {
    uint32_t max_leaf, max_ext, max_sub7;
    uint32_t xcr0;
};

static bool cpuid_reg(const struct cpuid_view *v, uint32_t leaf, uint32_t sub, char reg,
                      uint32_t *out)
{
    unsigned a, b, c, d;
    bool ext = leaf >= 0x80000000u;
    if ((!ext && leaf > v->max_leaf) || (ext && leaf > v->max_ext) ||
        (leaf == 7 && sub > v->max_sub7))
        return false;
    __cpuid_count(leaf, sub, a, b, c, d);
    *out = reg == 'a' ? a : reg == 'b' ? b : reg == 'c' ? c : d;
    return true;
}

/* True when cpuid names feature NAME and the OS enables its state. */
static bool has_feature(const struct cpuid_view *v, const char *name)
{
    for (size_t i = 0; i < sizeof cpuid_bits / sizeof cpuid_bits[0]; i++) {
        const struct cpuid_bit *c = &cpuid_bits[i];
        if (strcmp(c->name, name) != 0)
            continue;
        uint32_t r;
        if (!cpuid_reg(v, c->leaf, c->subleaf, c->reg, &r) || !(r >> c->bit & 1))
            return false;
        return (v->xcr0 & c->xstate) == c->xstate;
    }
    return false;
}

static void read_view(struct cpuid_view *v)
{
    unsigned a, b, c, d;
    memset(v, 0, sizeof *v);
    v->max_leaf = __get_cpuid_max(0, NULL);
    v->max_ext = __get_cpuid_max(0x80000000u, NULL);
    if (v->max_leaf >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        v->max_sub7 = a;
    }
    uint32_t ecx1 = 0;
    /* XGETBV is only valid when the OS set CR4.OSXSAVE (cpuid 1 ECX bit 27). */
    if (cpuid_reg(v, 1, 0, 'c', &ecx1) && (ecx1 >> 27 & 1)) {
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        (void)hi;
        v->xcr0 = lo;
    }
}

/* x86-64 level: the highest N such that the CPU has every feature that
 * data/x86_64_levels.tsv lists for levels 1..N. */
static int x86_level(const struct cpuid_view *v)
{
    size_t len;
    const char *table = td_data_table("x86_64_levels", &len);
    if (!table)
        return 0;
    bool missing[6] = {false};
    char line[512];
    const char *cells[4];
    struct td_tsv t;
    td_tsv_open(&t, table, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 4);
    int cl = td_tsv_column(cells, n, "level"), cf = td_tsv_column(cells, n, "feature");
    if (cl < 0 || cf < 0)
        return 0;
    int top = 0;
    while ((n = td_tsv_next(&t, line, sizeof line, cells, 4)) >= 0) {
        int level = n > cl && n > cf ? atoi(cells[cl]) : 0;
        if (level < 1 || level > 5)
            continue;
        if (level > top)
            top = level;
        if (!has_feature(v, cells[cf]))
            missing[level] = true;
    }
    int level = 0;
    while (level < top && !missing[level + 1])
        level++;
    return level;
}

static void probe_x86(const struct td_probe_ctx *ctx, struct td_cpu *out)
{
    struct cpuid_view v;
    read_view(&v);
    unsigned a, b, c, d;
    char vendor[13];
    __cpuid(0, a, b, c, d);
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    vendor[12] = '\0';
    out->vendor = td_arena_strdup(ctx->arena, vendor);
    if (v.max_ext >= 0x80000004u) {
        uint32_t brand[13] = {0};
        for (unsigned i = 0; i < 3; i++)
            __cpuid(0x80000002u + i, brand[4 * i], brand[4 * i + 1], brand[4 * i + 2],
                    brand[4 * i + 3]);
        const char *s = (const char *)brand;
        while (*s == ' ')
            s++;
        char trimmed[52];
        snprintf(trimmed, sizeof trimmed, "%s", s);
        for (size_t n = strlen(trimmed); n > 0 && trimmed[n - 1] == ' '; n--)
            trimmed[n - 1] = '\0';
        out->model = trimmed[0] ? td_arena_strdup(ctx->arena, trimmed) : NULL;
    }
    for (int f = 0; f < TD_CPU_FEATURE_COUNT; f++)
        if (has_feature(&v, feature_names[f]))
            out->features |= UINT64_C(1) << f;
    out->x86_level = sizeof(void *) == 8 ? x86_level(&v) : 0; /* levels describe 64-bit code */
}

#endif /* TD_X86 */

#ifndef TD_X86
/* Elsewhere: the kernel's view in /proc/cpuinfo (arm64: "Features: fp asimd
 * ... sve", Documentation/arch/arm64/elf_hwcaps.rst). */
static void probe_cpuinfo(const struct td_probe_ctx *ctx, struct td_cpu *out)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/cpuinfo", TD_PROBE_READ_CAP, &len);
    if (!text)
        return;
    char v[4096];
    if (td_parse_cpuinfo_field(text, len, "Features", v, sizeof v)) {
        if (td_has_word(v, "asimd") || td_has_word(v, "neon"))
            out->features |= UINT64_C(1) << TD_CPU_NEON;
        if (td_has_word(v, "sve"))
            out->features |= UINT64_C(1) << TD_CPU_SVE;
    }
    if (td_parse_cpuinfo_field(text, len, "model name", v, sizeof v) && v[0])
        out->model = td_arena_strdup(ctx->arena, v);
    if (td_parse_cpuinfo_field(text, len, "CPU implementer", v, sizeof v) && v[0])
        out->vendor = td_arena_strdup(ctx->arena, v);
    free(text);
}
#endif

int td_probe_cpu(const struct td_probe_ctx *ctx, struct td_cpu *out)
{
    memset(out, 0, sizeof *out);
    out->logical_cpus = logical_cpus();
#ifdef TD_X86
    probe_x86(ctx, out);
#else
    probe_cpuinfo(ctx, out);
#endif
    return 0;
}
