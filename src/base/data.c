/* Access to the embedded knowledge tables and a small TSV row iterator. */
#include "base/data.h"

#include <string.h>

#include "td_data_gen.h"

const char *td_data_table(const char *name, size_t *len)
{
    for (size_t i = 0; i < td_data_table_count; i++) {
        if (strcmp(td_data_tables[i].name, name) == 0) {
            *len = td_data_tables[i].len;
            return td_data_tables[i].text;
        }
    }
    *len = 0;
    return NULL;
}

void td_tsv_open(struct td_tsv *t, const char *text, size_t len)
{
    t->text = text;
    t->len = text ? len : 0;
    t->pos = 0;
}

int td_tsv_next(struct td_tsv *t, char *line, size_t line_cap, const char **cells, int max)
{
    while (t->pos < t->len) {
        const char *start = t->text + t->pos;
        const char *nl = memchr(start, '\n', t->len - t->pos);
        size_t n = nl ? (size_t)(nl - start) : t->len - t->pos;
        t->pos += n + (nl != NULL);
        if (n && start[n - 1] == '\r')
            n--;
        if (n == 0 || start[0] == '#' || n >= line_cap)
            continue;
        memcpy(line, start, n);
        line[n] = '\0';
        int count = 0;
        for (char *cell = line; count < max;) {
            cells[count++] = cell;
            char *tab = strchr(cell, '\t');
            if (!tab)
                break;
            *tab = '\0';
            cell = tab + 1;
        }
        return count;
    }
    return -1;
}

int td_tsv_column(const char *const *header, int ncells, const char *column)
{
    for (int i = 0; i < ncells; i++)
        if (strcmp(header[i], column) == 0)
            return i;
    return -1;
}

bool td_table_open(struct td_table *t, const char *name, const char *const *columns)
{
    size_t len;
    const char *text = td_data_table(name, &len);
    for (int i = 0; i < TD_TABLE_MAX_NAMED; i++)
        t->col[i] = -1;
    if (!text)
        return false;
    td_tsv_open(&t->tsv, text, len);
    t->ncols = td_tsv_next(&t->tsv, t->line, sizeof t->line, t->cells, TD_TABLE_MAX_COLS);
    if (t->ncols <= 0)
        return false;
    for (int i = 0; columns[i] && i < TD_TABLE_MAX_NAMED; i++)
        t->col[i] = td_tsv_column(t->cells, t->ncols, columns[i]);
    return true;
}

bool td_table_next(struct td_table *t)
{
    int n;
    while ((n = td_tsv_next(&t->tsv, t->line, sizeof t->line, t->cells, TD_TABLE_MAX_COLS)) >= 0)
        if (n == t->ncols)
            return true;
    return false;
}

const char *td_table_cell(const struct td_table *t, int i)
{
    if (i < 0 || i >= TD_TABLE_MAX_NAMED || t->col[i] < 0 || t->col[i] >= t->ncols)
        return "";
    return t->cells[t->col[i]];
}
