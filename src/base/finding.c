/* The list of findings a command collects before a report writer shows it. */
#include "base/finding.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *copy(struct td_arena *a, const char *s)
{
    return s ? td_arena_strdup(a, s) : NULL;
}

struct td_finding *td_findings_add(struct td_findings *f, enum td_severity sev, const char *kind,
                                   const char *library, const char *needed_by, const char *symbol,
                                   const char *fix, const char *detail_fmt, ...)
{
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        struct td_finding *items = realloc(f->items, cap * sizeof *items);
        if (!items)
            return NULL;
        f->items = items;
        f->cap = cap;
    }
    char detail[1024];
    va_list ap;
    va_start(ap, detail_fmt);
    vsnprintf(detail, sizeof detail, detail_fmt, ap);
    va_end(ap);

    struct td_finding *x = &f->items[f->count++];
    x->severity = sev;
    x->kind = kind;
    x->library = copy(&f->arena, library);
    x->needed_by = copy(&f->arena, needed_by);
    x->symbol = copy(&f->arena, symbol);
    x->fix = copy(&f->arena, fix);
    x->detail = copy(&f->arena, detail);
    return x;
}

size_t td_findings_count(const struct td_findings *f, enum td_severity sev)
{
    size_t n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += f->items[i].severity == sev;
    return n;
}

const char *td_severity_name(enum td_severity sev)
{
    switch (sev) {
    case TD_SEV_ERROR:
        return "error";
    case TD_SEV_WARNING:
        return "warning";
    case TD_SEV_INFO:
        return "info";
    }
    return "info";
}

void td_findings_remove(struct td_findings *f, size_t i)
{
    if (i >= f->count)
        return;
    memmove(&f->items[i], &f->items[i + 1], (f->count - i - 1) * sizeof *f->items);
    f->count--;
}

void td_findings_free(struct td_findings *f)
{
    free(f->items);
    td_arena_free(&f->arena);
    memset(f, 0, sizeof *f);
}
