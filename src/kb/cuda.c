/* CUDA toolkit <-> driver questions, answered from cuda_driver_minimums
 * (NVIDIA release notes Table 3) and cuda_minor_compat (the CUDA
 * Compatibility guide's minor-version-compatibility floors). */
#include <stdio.h>
#include <string.h>

#include "base/version.h"
#include "kb/kb.h"
#include "kb/table.h"

/* Where the source of the last answer is kept: the cells of a row live
 * only as long as its line buffer. */
static _Thread_local char last_source[1024];

static const char *driver_column(const char *os)
{
    return strcmp(kb_os(os), "windows") == 0 ? "windows_min" : "linux_min";
}

const char *td_kb_cuda_min_driver(const char *cuda, const char *os, char *out, size_t cap,
                                  const char **source)
{
    const char *cols[] = {"cuda", driver_column(os), "source", NULL};
    struct td_table k;
    bool found = false, not_printed = false;
    if (!cuda || !*cuda || !td_table_open(&k, "cuda_driver_minimums", cols))
        return NULL;
    /* "12.1" covers 12.1.0 and 12.1.1: the newest of their minimums is what
     * every 12.1 toolkit runs with; "12.1.0" names one row. */
    while (td_table_next(&k)) {
        if (!td_version_has_prefix(td_table_cell(&k, 0), cuda))
            continue;
        const char *min = kb_value(&k, 1);
        if (!min) {
            not_printed = true;
        } else if (!found || td_version_cmp(min, out) > 0) {
            kb_copy(out, cap, min);
            kb_copy(last_source, sizeof last_source, td_table_cell(&k, 2));
            found = true;
        }
    }
    if (found) {
        if (source)
            *source = last_source;
        return out;
    }
    /* NVIDIA prints "N/A" for Windows 13.x, and says the installed driver must
     * still meet the minimum: the family's floor (cuda_driver_minimums.tsv). */
    return not_printed ? td_kb_cuda_compat_floor(cuda, os, out, cap, source) : NULL;
}

/* The cuda_minor_compat row of CUDA: "11.0" apart, otherwise its major.
 * Before CUDA 11 there is no minor-version compatibility. */
static bool compat_key(const char *cuda, char *key, size_t cap)
{
    td_version_trim(cuda, 1, key, cap);
    if (td_version_cmp(key, "11") < 0)
        return false;
    if (td_version_has_prefix(cuda, "11.0") && strchr(cuda, '.'))
        kb_copy(key, cap, "11.0");
    return true;
}

const char *td_kb_cuda_compat_floor(const char *cuda, const char *os, char *out, size_t cap,
                                    const char **source)
{
    const char *cols[] = {"cuda_major", driver_column(os), "branch_min", "source", NULL};
    char key[TD_KB_STR];
    struct td_table k;
    if (!cuda || !*cuda || !compat_key(cuda, key, sizeof key) ||
        !td_table_open(&k, "cuda_minor_compat", cols))
        return NULL;
    while (td_table_next(&k)) {
        if (strcmp(td_table_cell(&k, 0), key) != 0)
            continue;
        /* 13.x on Windows has no exact floor in the sources: the branch. */
        const char *v = kb_value(&k, 1) ? kb_value(&k, 1) : kb_value(&k, 2);
        if (!v)
            return NULL;
        kb_copy(last_source, sizeof last_source, td_table_cell(&k, 3));
        if (source)
            *source = last_source;
        return kb_copy(out, cap, v);
    }
    return NULL;
}

const char *td_kb_driver_max_cuda(const char *driver, const char *os, char *out, size_t cap)
{
    const char *cols[] = {"cuda", driver_column(os), NULL};
    struct td_table k;
    bool found = false;
    if (!driver || !*driver || !td_table_open(&k, "cuda_driver_minimums", cols))
        return NULL;
    /* A series counts once its first (GA) toolkit is fully supported:
     * 550.54.14 runs CUDA 12.4 GA, so it answers "12.4". Rows whose
     * minimum is not printed (Windows 13.x) prove nothing and are skipped. */
    while (td_table_next(&k)) {
        const char *min = kb_value(&k, 1);
        if (!min || td_version_cmp(driver, min) < 0)
            continue;
        char series[TD_KB_STR];
        td_version_trim(td_table_cell(&k, 0), 2, series, sizeof series);
        if (!found || td_version_cmp(series, out) > 0)
            kb_copy(out, cap, series);
        found = true;
    }
    return found ? out : NULL;
}

const char *td_kb_cuda_from_int(int v, char *out, size_t cap)
{
    /* cudaDriverGetVersion: 1000 * major + 10 * minor (CUDA Runtime API). */
    if (v <= 0)
        return NULL;
    snprintf(out, cap, "%d.%d", v / 1000, (v % 1000) / 10);
    return out;
}
