/* Row iteration over the embedded knowledge tables for the kb module. */
#include "kb/table.h"

#include <stdio.h>
#include <string.h>

bool kb_open(struct kb_table *k, const char *name, const char *const *columns)
{
    size_t len;
    const char *text = td_data_table(name, &len);
    for (int i = 0; i < KB_MAX_NAMED; i++)
        k->col[i] = -1;
    if (!text)
        return false;
    td_tsv_open(&k->tsv, text, len);
    k->ncols = td_tsv_next(&k->tsv, k->line, sizeof k->line, k->cells, KB_MAX_COLS);
    if (k->ncols <= 0)
        return false;
    for (int i = 0; columns[i] && i < KB_MAX_NAMED; i++)
        k->col[i] = td_tsv_column(k->cells, k->ncols, columns[i]);
    return true;
}

bool kb_next(struct kb_table *k)
{
    int n;
    while ((n = td_tsv_next(&k->tsv, k->line, sizeof k->line, k->cells, KB_MAX_COLS)) >= 0)
        if (n == k->ncols)
            return true;
    return false;
}

const char *kb_cell(const struct kb_table *k, int i)
{
    if (i < 0 || i >= KB_MAX_NAMED || k->col[i] < 0 || k->col[i] >= k->ncols)
        return "";
    return k->cells[k->col[i]];
}

const char *kb_value(const struct kb_table *k, int i)
{
    const char *s = kb_cell(k, i);
    if (kb_empty(s))
        return NULL;
    while (*s == '>' || *s == '<' || *s == '=' || *s == ' ')
        s++;
    return *s ? s : NULL;
}

bool kb_empty(const char *cell)
{
    return !cell || !*cell || strcmp(cell, "-") == 0;
}

char *kb_copy(char *out, size_t cap, const char *s)
{
    if (cap)
        snprintf(out, cap, "%s", s ? s : "");
    return out;
}

const char *kb_os(const char *os)
{
    return os && strcmp(os, "windows") == 0 ? "windows" : "linux";
}
