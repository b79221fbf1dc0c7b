/* Hardware peaks for `bench` (kb/bench.h): table lookups over
 * data/cpu_fma_units.tsv and data/gpu_peaks.tsv, and the PCIe link rate
 * arithmetic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/bench.h"
#include "kb/table.h"

bool td_kb_cpu_fma(const char *vendor, unsigned family, unsigned model, struct td_kb_cpu_fma *out)
{
    const char *cols[] = {"vendor",    "family",   "model_min", "model_max", "uarch",
                          "fma_units", "fma_bits", "source",    NULL};
    struct td_table k;
    memset(out, 0, sizeof *out);
    if (!vendor || !td_table_open(&k, "cpu_fma_units", cols))
        return false;
    while (td_table_next(&k)) {
        if (strcmp(td_table_cell(&k, 0), vendor) != 0 ||
            (unsigned)atoi(td_table_cell(&k, 1)) != family ||
            model < (unsigned)atoi(td_table_cell(&k, 2)) ||
            model > (unsigned)atoi(td_table_cell(&k, 3)))
            continue;
        kb_copy(out->uarch, sizeof out->uarch, td_table_cell(&k, 4));
        out->units = kb_empty(td_table_cell(&k, 5)) ? 0 : atoi(td_table_cell(&k, 5));
        out->bits = atoi(td_table_cell(&k, 6));
        kb_copy(out->source, sizeof out->source, td_table_cell(&k, 7));
        return true;
    }
    return false;
}

static const char *bare_name(const char *name)
{
    while (*name == ' ')
        name++;
    return strncasecmp(name, "NVIDIA ", 7) == 0 ? name + 7 : name;
}

/* True when ROW occurs in NAME, case-insensitively, ending at a word edge. */
static bool names_contain(const char *name, const char *row)
{
    size_t n = strlen(row), h = strlen(name);
    for (size_t i = 0; n && i + n <= h; i++)
        if (strncasecmp(name + i, row, n) == 0 && (name[i + n] == '\0' || name[i + n] == ' '))
            return true;
    return false;
}

bool td_kb_gpu_peak(const char *name, struct td_kb_gpu_peak *out)
{
    const char *cols[] = {"name",     "sms",        "boost_mhz", "fp32_tflops", "mem_gbs",
                          "pcie_gen", "pcie_width", "source",    "bf16_tflops", NULL};
    struct td_table k;
    size_t best = 0;
    memset(out, 0, sizeof *out);
    if (!name || !td_table_open(&k, "gpu_peaks", cols))
        return false;
    const char *want = bare_name(name);
    while (td_table_next(&k)) {
        const char *row = bare_name(td_table_cell(&k, 0));
        size_t len = strlen(row);
        if (len <= best || !names_contain(want, row))
            continue;
        best = len;
        kb_copy(out->name, sizeof out->name, td_table_cell(&k, 0));
        out->sms = atoi(td_table_cell(&k, 1));
        out->boost_mhz = atoi(td_table_cell(&k, 2));
        out->fp32_tflops = atof(td_table_cell(&k, 3));
        out->mem_gbs = atof(td_table_cell(&k, 4));
        out->pcie_gen = atoi(td_table_cell(&k, 5));
        out->pcie_width = atoi(td_table_cell(&k, 6));
        kb_copy(out->source, sizeof out->source, td_table_cell(&k, 7));
        out->bf16_tflops = kb_empty(td_table_cell(&k, 8)) ? 0 : atof(td_table_cell(&k, 8));
    }
    return best > 0;
}

double td_kb_pcie_gbs(int gen, int width)
{
    /* GT/s per lane by generation, and the share left after line encoding. */
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    if (gen < 1 || gen > 6 || width < 1 || width > 32)
        return 0;
    double coding = gen <= 2 ? 8.0 / 10 : gen <= 5 ? 128.0 / 130 : 242.0 / 256; /* gen 6: FLIT */
    return gts[gen] * coding * width / 8;
}
