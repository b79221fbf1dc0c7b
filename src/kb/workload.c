/* Training workloads and what they need (workloads.tsv: the toolkits' own
 * documentation, one cited row per job). */
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"
#include "kb/table.h"

static double number(const char *cell)
{
    return kb_empty(cell) ? 0 : strtod(cell, NULL);
}

static void fill(const struct td_table *k, struct td_kb_workload *w)
{
    memset(w, 0, sizeof *w);
    kb_copy(w->slug, sizeof w->slug, td_table_cell(k, 0));
    kb_copy(w->name, sizeof w->name, td_table_cell(k, 1));
    w->vram_min_gb = number(td_table_cell(k, 2));
    w->vram_rec_gb = number(td_table_cell(k, 3));
    w->ram_min_gb = number(td_table_cell(k, 4));
    w->disk_gb = number(td_table_cell(k, 5));
    if (!kb_empty(td_table_cell(k, 6)))
        td_kb_parse_cc(td_table_cell(k, 6), &w->cc_major, &w->cc_minor);
    kb_copy(w->notes, sizeof w->notes, td_table_cell(k, 7));
    kb_copy(w->source, sizeof w->source, td_table_cell(k, 8));
}

static const char *const columns[] = {"slug",       "name",    "vram_min_gb", "vram_rec_gb",
                                      "ram_min_gb", "disk_gb", "cc_min",      "notes",
                                      "source",     NULL};

bool td_kb_workload(const char *slug, struct td_kb_workload *out)
{
    struct td_table k;
    if (!slug || !td_table_open(&k, "workloads", columns))
        return false;
    while (td_table_next(&k))
        if (strcmp(td_table_cell(&k, 0), slug) == 0) {
            fill(&k, out);
            return true;
        }
    return false;
}

size_t td_kb_workloads(struct td_kb_workload *out, size_t cap)
{
    struct td_table k;
    size_t n = 0;
    if (!td_table_open(&k, "workloads", columns))
        return 0;
    for (; td_table_next(&k); n++)
        if (n < cap)
            fill(&k, &out[n]);
    return n;
}
