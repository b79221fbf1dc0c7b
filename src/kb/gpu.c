/* GPUs and CUDA architectures: a GPU's compute capability by name
 * (gpu_compute_capability), the arches inside official wheels
 * (torch_cuda_arch_list), and whether code for some arches runs on a GPU. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

/* NAME without a leading "NVIDIA " (nvidia-smi prints it, the table does
 * for some rows only). */
static const char *bare_name(const char *name)
{
    while (*name == ' ')
        name++;
    return strncasecmp(name, "NVIDIA ", 7) == 0 ? name + 7 : name;
}

static bool word_edge(char c)
{
    return c == '\0' || !isalnum((unsigned char)c);
}

/* Where NEEDLE occurs in HAY as whole words (case-insensitive), or -1. */
static long find_words(const char *hay, const char *needle)
{
    size_t n = strlen(needle), h = strlen(hay);
    for (size_t i = 0; n && i + n <= h; i++)
        if (strncasecmp(hay + i, needle, n) == 0 && (i == 0 || word_edge(hay[i - 1])) &&
            word_edge(hay[i + n]))
            return (long)i;
    return -1;
}

bool td_kb_gpu_cc(const char *name, int *major, int *minor)
{
    const char *cols[] = {"name", "compute_capability", NULL};
    struct td_table k;
    if (!name || !td_table_open(&k, "gpu_compute_capability", cols))
        return false;
    const char *want = bare_name(name);
    size_t best = 0;
    /* The longest table name found inside WANT wins ("RTX 4070 Ti" before
     * "RTX 4070"); a name the user shortened ("RTX 4090") may also be the
     * end of a table name ("GeForce RTX 4090"). */
    while (td_table_next(&k)) {
        const char *row = bare_name(td_table_cell(&k, 0));
        size_t len = strlen(row), score = 0;
        if (find_words(want, row) >= 0) {
            score = 2 * len + 1;
        } else {
            size_t wl = strlen(want);
            if (wl >= 3 && wl < len && strcasecmp(row + len - wl, want) == 0 &&
                word_edge(row[len - wl - 1]))
                score = 2 * wl;
        }
        int ma, mi;
        if (score > best && td_kb_parse_cc(td_table_cell(&k, 1), &ma, &mi)) {
            best = score;
            *major = ma;
            *minor = mi;
        }
    }
    return best > 0;
}

bool td_kb_parse_cc(const char *s, int *major, int *minor)
{
    if (!s)
        return false;
    if (strncmp(s, "sm_", 3) == 0)
        s += 3;
    else if (strncmp(s, "compute_", 8) == 0)
        s += 8;
    const char *dot = strchr(s, '.');
    char *end;
    if (dot) {
        long ma = strtol(s, &end, 10);
        if (end != dot || !isdigit((unsigned char)dot[1]))
            return false;
        long mi = strtol(dot + 1, &end, 10);
        if (ma <= 0 || ma > 99 || mi < 0 || mi > 9)
            return false;
        *major = (int)ma, *minor = (int)mi;
        return *end == '\0' || *end == 'a' || *end == 'f' || *end == '+';
    }
    /* "89", "120": the last digit is the minor (nvcc's sm_XY naming). */
    size_t n = strspn(s, "0123456789");
    if (n < 2 || n > 3 || (s[n] && s[n] != 'a' && s[n] != 'f'))
        return false;
    long v = strtol(s, NULL, 10);
    *major = (int)(v / 10), *minor = (int)(v % 10);
    return *major > 0;
}

static const char *arch_platform(const char *os)
{
    if (os && strncmp(os, "linux_", 6) == 0)
        return os; /* linux_x86_64, linux_aarch64 */
    return strcmp(kb_os(os), "windows") == 0 ? "windows" : "linux_x86_64";
}

/* Splits "5.0;6.0;9.0" into ARCHES; returns the count. */
static size_t split_arches(const char *list, char arches[][8], size_t cap)
{
    size_t n = 0;
    while (*list && n < cap) {
        size_t len = strcspn(list, ";");
        if (len && len < 8) {
            memcpy(arches[n], list, len);
            arches[n++][len] = '\0';
        }
        list += len + (list[len] == ';');
    }
    return n;
}

size_t td_kb_torch_arches(const char *torch, const char *cuda, const char *os, char arches[][8],
                          size_t cap, char ptx[8])
{
    const char *cols[] = {"torch", "cuda", "arches", "ptx", "platform", NULL};
    const char *platform = arch_platform(os);
    char line[TD_KB_STR] = "";
    struct td_table k;
    ptx[0] = '\0';
    if (!cuda || !td_table_open(&k, "torch_cuda_arch_list", cols))
        return 0;
    if (torch)
        td_version_trim(torch, 2, line, sizeof line);
    /* A row for this very release wins. Otherwise the build-script
     * snapshots (torch "-") of this CUDA: which release each built is not
     * established and they disagree, so only what every snapshot has is
     * certain -- their intersection, with PTX only if all of them ship it. */
    size_t n = 0;
    int snapshots = 0;
    bool ptx_agrees = true;
    while (td_table_next(&k)) {
        if (td_version_cmp(td_table_cell(&k, 1), cuda) != 0 ||
            strcmp(td_table_cell(&k, 4), platform) != 0)
            continue;
        const char *row_ptx = kb_empty(td_table_cell(&k, 3)) ? "" : td_table_cell(&k, 3);
        if (line[0] && td_version_cmp(td_table_cell(&k, 0), line) == 0 &&
            !kb_empty(td_table_cell(&k, 0))) {
            kb_copy(ptx, 8, row_ptx);
            return split_arches(td_table_cell(&k, 2), arches, cap);
        }
        if (!kb_empty(td_table_cell(&k, 0)))
            continue;
        char mine[32][8];
        size_t m = split_arches(td_table_cell(&k, 2), mine, 32);
        if (snapshots++ == 0) {
            n = 0;
            for (size_t i = 0; i < m && n < cap; i++)
                memcpy(arches[n++], mine[i], 8);
            kb_copy(ptx, 8, row_ptx);
            continue;
        }
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            bool in = false;
            for (size_t j = 0; j < m && !in; j++)
                in = strcmp(arches[i], mine[j]) == 0;
            if (in)
                memmove(arches[kept++], arches[i], 8);
        }
        n = kept;
        ptx_agrees = ptx_agrees && strcmp(ptx, row_ptx) == 0;
    }
    if (!ptx_agrees)
        ptx[0] = '\0';
    return snapshots ? n : 0;
}

/* Whether code for MA.MI runs on MAJOR.MINOR: the rule of
 * data/gpu_code_rules.tsv for its kind (PTX or SASS) and variant ('a'
 * arch-specific, 'f' family-specific, 0 none), each row with its source
 * in NVIDIA's documentation. */
static bool code_runs(bool ptx, char variant, int ma, int mi, int major, int minor)
{
    static const char *const cols[] = {"kind", "variant", "runs_on", NULL};
    const char v[2] = {variant, '\0'};
    struct td_table t;
    if (!td_table_open(&t, "gpu_code_rules", cols))
        return false;
    while (td_table_next(&t)) {
        if (strcmp(td_table_cell(&t, 0), ptx ? "ptx" : "sass") != 0 ||
            strcmp(td_table_cell(&t, 1), variant ? v : "none") != 0)
            continue;
        const char *rule = td_table_cell(&t, 2);
        if (strcmp(rule, "exact") == 0)
            return ma == major && mi == minor;
        if (strcmp(rule, "same_major_minor_ge") == 0)
            return ma == major && mi <= minor;
        if (strcmp(rule, "any_ge") == 0)
            return ma < major || (ma == major && mi <= minor);
    }
    return false;
}

enum td_kb_arch_fit td_kb_arch_fit(const char *const *arches, size_t n, int major, int minor)
{
    bool ptx = false;
    for (size_t i = 0; i < n; i++) {
        const char *a = arches[i];
        int ma, mi;
        if (!td_kb_parse_cc(a, &ma, &mi))
            continue;
        bool is_ptx = strncmp(a, "compute_", 8) == 0;
        bool plus_ptx = strstr(a, "+PTX") != NULL; /* "8.6+PTX": plain PTX beside the cubin */
        size_t len = strcspn(a, "+");
        char variant = len && (a[len - 1] == 'a' || a[len - 1] == 'f') ? a[len - 1] : 0;
        if (!is_ptx && code_runs(false, variant, ma, mi, major, minor))
            return TD_KB_ARCH_SASS;
        if ((is_ptx && code_runs(true, variant, ma, mi, major, minor)) ||
            (plus_ptx && code_runs(true, 0, ma, mi, major, minor)))
            ptx = true;
    }
    return ptx ? TD_KB_ARCH_PTX : TD_KB_ARCH_NONE;
}

enum td_kb_arch_fit td_kb_torch_arch_fit(const char *torch, const char *cuda, const char *os,
                                         int major, int minor)
{
    char arches[32][8], ptx[8];
    size_t n = td_kb_torch_arches(torch, cuda, os, arches, 32, ptx);
    if (n == 0)
        return TD_KB_ARCH_UNKNOWN;
    const char *list[33];
    char ptx_name[16];
    for (size_t i = 0; i < n; i++)
        list[i] = arches[i];
    if (ptx[0]) {
        snprintf(ptx_name, sizeof ptx_name, "compute_%s", ptx);
        list[n++] = ptx_name;
    }
    return td_kb_arch_fit(list, n, major, minor);
}

bool td_kb_arch_runs(const char *const *arches, size_t n, int major, int minor)
{
    return td_kb_arch_fit(arches, n, major, minor) != TD_KB_ARCH_NONE;
}

const char *td_kb_ptx_isa_cuda(int major, int minor, char *out, size_t cap)
{
    static const char *const cols[] = {"ptx_isa", "cuda", NULL};
    struct td_table k;
    char isa[16];
    snprintf(isa, sizeof isa, "%d.%d", major, minor);
    if (!td_table_open(&k, "ptx_isa_cuda", cols))
        return NULL;
    while (td_table_next(&k))
        if (strcmp(td_table_cell(&k, 0), isa) == 0)
            return kb_copy(out, cap, td_table_cell(&k, 1));
    return NULL;
}
