/* The cell conventions of the knowledge tables (docs/data.md). */
#include "kb/table.h"

#include <stdio.h>
#include <string.h>

const char *kb_value(const struct td_table *k, int i)
{
    const char *s = td_table_cell(k, i);
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
