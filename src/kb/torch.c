/* torch releases, their official wheels and what pairs with them, from
 * torch_releases, torch_cuda_builds, torch_wheel_indexes and
 * torch_companions (PyTorch RELEASE.md, pytorch.org, vision/audio docs). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

static int parts(const char *v)
{
    int n = 1;
    for (; *v && *v != '+'; v++)
        n += *v == '.';
    return n;
}

/* The release line "2.5" of "2.5.1+cu124". */
static const char *line_of(const char *torch, char out[TD_KB_STR])
{
    return td_version_trim(torch, 2, out, TD_KB_STR);
}

bool td_kb_torch_python_range(const char *torch, char min[TD_KB_STR], char max[TD_KB_STR])
{
    const char *cols[] = {"torch", "python_min", "python_max", NULL};
    char want[TD_KB_STR];
    struct td_table k;
    if (!torch || !td_table_open(&k, "torch_releases", cols))
        return false;
    line_of(torch, want);
    while (td_table_next(&k)) {
        if (td_version_cmp(td_table_cell(&k, 0), want) != 0 || !kb_value(&k, 1) || !kb_value(&k, 2))
            continue;
        kb_copy(min, TD_KB_STR, kb_value(&k, 1));
        kb_copy(max, TD_KB_STR, kb_value(&k, 2));
        return true;
    }
    return false;
}

/* True when PYTHON names a free-threaded build ("3.13t"). */
static bool free_threaded(const char *python)
{
    size_t n = strlen(python);
    return n && (python[n - 1] == 't' || python[n - 1] == 'T');
}

bool td_kb_torch_python_ok(const char *torch, const char *python)
{
    const char *cols[] = {"torch", "python_min", "python_max", "python_experimental", NULL};
    char want[TD_KB_STR], py[TD_KB_STR];
    struct td_table k;
    if (!torch || !python || !td_table_open(&k, "torch_releases", cols))
        return false;
    line_of(torch, want);
    td_version_trim(python, 2, py, sizeof py); /* "3.11.4" -> "3.11"; "3.13t" stays */
    while (td_table_next(&k)) {
        if (td_version_cmp(td_table_cell(&k, 0), want) != 0)
            continue;
        const char *exp = td_table_cell(&k, 3);
        if (!kb_empty(exp) && strcasecmp(exp, py) == 0)
            return true;
        /* A free-threaded interpreter has its own ABI (cp313t): only the
         * matrix's experimental entry covers it. */
        if (free_threaded(py))
            return false;
        return td_version_satisfies(py, td_table_cell(&k, 1)) &&
               td_version_satisfies(py, td_table_cell(&k, 2));
    }
    return false;
}

/* The torch_companions row for (TORCH, PACKAGE): a minor or exact row
 * before an "and later" (min) row; among exact rows for a release line
 * ("2.4"), the newest patch. Copies the row's version and match. */
static bool companion_row(const char *torch, const char *package, char version[TD_KB_STR],
                          char match[16])
{
    const char *cols[] = {"torch", "match", "package", "version", NULL};
    struct td_table k;
    char best_torch[TD_KB_STR] = "";
    int best_rank = 0; /* 2 minor/exact, 1 min */
    if (!torch || !package || !td_table_open(&k, "torch_companions", cols))
        return false;
    bool whole = parts(torch) >= 3;
    while (td_table_next(&k)) {
        if (strcmp(td_table_cell(&k, 2), package) != 0)
            continue;
        const char *row = td_table_cell(&k, 0), *m = td_table_cell(&k, 1);
        int rank = 0;
        if (strcmp(m, "minor") == 0)
            rank = td_version_has_prefix(torch, row) ? 2 : 0;
        else if (strcmp(m, "exact") == 0)
            rank = (whole ? td_version_cmp(torch, row) == 0 : td_version_has_prefix(row, torch))
                       ? 2
                       : 0;
        else if (strcmp(m, "min") == 0)
            rank = td_version_cmp(torch, row) >= 0 || td_version_has_prefix(row, torch) ? 1 : 0;
        if (!rank || rank < best_rank ||
            (rank == best_rank && td_version_cmp(row, best_torch) <= 0))
            continue;
        best_rank = rank;
        kb_copy(best_torch, sizeof best_torch, row);
        kb_copy(version, TD_KB_STR, td_table_cell(&k, 3));
        kb_copy(match, 16, m);
    }
    return best_rank > 0;
}

const char *td_kb_companion_version(const char *torch, const char *package, char *out, size_t cap)
{
    char version[TD_KB_STR], match[16];
    if (!companion_row(torch, package, version, match))
        return NULL;
    return kb_copy(out, cap, version);
}

const char *td_kb_companion_spec(const char *torch, const char *package, char *out, size_t cap)
{
    char version[TD_KB_STR], match[16];
    if (!companion_row(torch, package, version, match))
        return NULL;
    if (strcmp(match, "min") == 0) {
        snprintf(out, cap, ">=%s", version);
    } else if (strcmp(match, "minor") == 0) {
        char series[TD_KB_STR];
        snprintf(out, cap, "==%s.*", td_version_trim(version, 2, series, sizeof series));
    } else {
        snprintf(out, cap, "==%s", version);
    }
    return out;
}

/* ---- builds ---- */

enum { MAX_BUILDS = 256 };

static bool wanted_torch(const struct td_kb_query *q, const char *torch)
{
    char want[TD_KB_STR];
    return !q->torch || td_version_cmp(line_of(q->torch, want), torch) == 0;
}

/* Fills the driver fields of B and says whether Q's driver runs it:
 * at/above the full minimum, or (when allowed, CUDA >= 11) the floor. A
 * GPU served only through PTX needs the full driver: PTX JIT needs a driver
 * as new as the toolkit that wrote the PTX (CUDA Compatibility guide,
 * "Application Considerations"; cuda_minor_compat.tsv). */
static bool driver_runs(const struct td_kb_query *q, struct td_kb_build *b)
{
    td_kb_cuda_min_driver(b->cuda, q->os, b->driver_min, sizeof b->driver_min, NULL);
    td_kb_cuda_compat_floor(b->cuda, q->os, b->driver_floor, sizeof b->driver_floor, NULL);
    if (!q->driver)
        return true;
    if (b->driver_min[0] && td_version_cmp(q->driver, b->driver_min) >= 0)
        return true;
    if (!q->allow_minor_compat || !b->driver_floor[0] || b->arch == TD_KB_ARCH_PTX ||
        td_version_cmp(q->driver, b->driver_floor) < 0)
        return false;
    b->minor_compat = true;
    return true;
}

static enum td_kb_arch_fit build_arch(const struct td_kb_query *q, const struct td_kb_build *b)
{
    if (!q->cc_major)
        return TD_KB_ARCH_ANY;
    return td_kb_torch_arch_fit(b->torch, b->cuda, q->os, q->cc_major, q->cc_minor);
}

static void add_companions(struct td_kb_build *b)
{
    td_kb_companion_version(b->torch, "torchvision", b->torchvision, sizeof b->torchvision);
    td_kb_companion_version(b->torch, "torchaudio", b->torchaudio, sizeof b->torchaudio);
}

/* CUDA builds from torch_cuda_builds that satisfy Q. */
static size_t cuda_builds(const struct td_kb_query *q, struct td_kb_build *out, size_t n)
{
    const char *cols[] = {"torch", "cuda", "status", "index_url", NULL};
    struct td_table k;
    if (!td_table_open(&k, "torch_cuda_builds", cols))
        return n;
    while (td_table_next(&k) && n < MAX_BUILDS) {
        const char *torch = td_table_cell(&k, 0), *cuda = td_table_cell(&k, 1);
        if (!wanted_torch(q, torch))
            continue;
        if (q->cuda && td_version_cmp(q->cuda, cuda) != 0)
            continue;
        if (q->python && !td_kb_torch_python_ok(torch, q->python))
            continue;
        struct td_kb_build *b = &out[n];
        memset(b, 0, sizeof *b);
        kb_copy(b->torch, sizeof b->torch, torch);
        kb_copy(b->cuda, sizeof b->cuda, cuda);
        char digits[TD_KB_STR / 2];
        size_t d = 0;
        for (const char *c = cuda; *c && d + 1 < sizeof digits; c++)
            if (*c != '.')
                digits[d++] = *c;
        digits[d] = '\0';
        snprintf(b->variant, sizeof b->variant, "cu%s", digits);
        kb_copy(b->index_url, sizeof b->index_url, td_table_cell(&k, 3));
        b->stable = strcmp(td_table_cell(&k, 2), "stable") == 0;
        b->arch = build_arch(q, b);
        if (b->arch == TD_KB_ARCH_NONE || !driver_runs(q, b))
            continue;
        add_companions(b);
        n++;
    }
    return n;
}

/* CPU builds: every release in torch_releases on the cpu index. */
static size_t cpu_builds(const struct td_kb_query *q, struct td_kb_build *out, size_t n)
{
    const char *icols[] = {"variant", "index_url", "platforms", NULL};
    char index[160] = "";
    struct td_table k;
    if (td_table_open(&k, "torch_wheel_indexes", icols))
        while (td_table_next(&k))
            if (strcmp(td_table_cell(&k, 0), "cpu") == 0 &&
                strstr(td_table_cell(&k, 2), kb_os(q->os)))
                kb_copy(index, sizeof index, td_table_cell(&k, 1));
    const char *cols[] = {"torch", NULL};
    if (!index[0] || !td_table_open(&k, "torch_releases", cols))
        return n;
    while (td_table_next(&k) && n < MAX_BUILDS) {
        const char *torch = td_table_cell(&k, 0);
        if (!wanted_torch(q, torch) || (q->python && !td_kb_torch_python_ok(torch, q->python)))
            continue;
        struct td_kb_build *b = &out[n];
        memset(b, 0, sizeof *b);
        kb_copy(b->torch, sizeof b->torch, torch);
        kb_copy(b->variant, sizeof b->variant, "cpu");
        kb_copy(b->index_url, sizeof b->index_url, index);
        b->stable = true;
        add_companions(b);
        n++;
    }
    return n;
}

static int newest_first(const void *pa, const void *pb)
{
    const struct td_kb_build *a = pa, *b = pb;
    int c = td_version_cmp(b->torch, a->torch);
    return c ? c : td_version_cmp(b->cuda, a->cuda);
}

/* The builds that satisfy Q, newest first, into ALL (room for MAX_BUILDS). */
static size_t sorted_builds(const struct td_kb_query *q, struct td_kb_build *all)
{
    size_t n =
        q->cuda && strcmp(q->cuda, "cpu") == 0 ? cpu_builds(q, all, 0) : cuda_builds(q, all, 0);
    qsort(all, n, sizeof all[0], newest_first);
    return n;
}

/* The rows are gathered on the heap, not in a thread-local array: 256
 * builds are 158 KB, which every thread of the program would zero at its
 * start (glibc initialises static TLS whole). */
size_t td_kb_builds(const struct td_kb_query *q, struct td_kb_build *out, size_t cap)
{
    if (cap >= MAX_BUILDS)
        return sorted_builds(q, out);
    struct td_kb_build *all = malloc(MAX_BUILDS * sizeof *all);
    if (!all)
        return 0;
    size_t n = sorted_builds(q, all);
    for (size_t i = 0; i < n && i < cap; i++)
        out[i] = all[i];
    free(all);
    return n;
}

const struct td_kb_build *td_kb_pick(const struct td_kb_build *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i].arch != TD_KB_ARCH_UNKNOWN)
            return &b[i];
    return n ? &b[0] : NULL;
}

bool td_kb_pick_build(const struct td_kb_query *q, struct td_kb_build *out)
{
    struct td_kb_build *all = malloc(MAX_BUILDS * sizeof *all);
    if (!all)
        return false;
    struct td_kb_query x = *q;
    x.allow_minor_compat = true;
    const struct td_kb_build *b = td_kb_pick(all, sorted_builds(&x, all));
    if (b)
        *out = *b;
    free(all);
    return b != NULL;
}

const char *td_kb_pip_command(const struct td_kb_build *b, const char *python, char *out,
                              size_t cap)
{
    return td_kb_pip_command_with(b, python, true, true, out, cap);
}

const char *td_kb_pip_command_with(const struct td_kb_build *b, const char *python,
                                   bool with_vision, bool with_audio, char *out, size_t cap)
{
    char pip[300], vision[TD_KB_STR + 16] = "", audio[TD_KB_STR + 16] = "";
    if (!python || !*python)
        snprintf(pip, sizeof pip, "pip");
    else if (python[0] >= '0' && python[0] <= '9')
        snprintf(pip, sizeof pip, "python%s -m pip", python); /* "3.11" */
    else if (strpbrk(python, "/\\ "))
        snprintf(pip, sizeof pip, "\"%s\" -m pip", python);
    else
        snprintf(pip, sizeof pip, "%s -m pip", python);
    char spec[TD_KB_STR];
    if (with_vision && td_kb_companion_spec(b->torch, "torchvision", spec, sizeof spec))
        snprintf(vision, sizeof vision, " \"torchvision%s\"", spec);
    if (with_audio && td_kb_companion_spec(b->torch, "torchaudio", spec, sizeof spec))
        snprintf(audio, sizeof audio, " \"torchaudio%s\"", spec);
    /* Quoted: the ".*" and ">=" must reach pip unexpanded in any shell. */
    snprintf(out, cap, "%s install \"torch==%s.*\"%s%s --index-url %s", pip, b->torch, vision,
             audio, b->index_url);
    return out;
}
