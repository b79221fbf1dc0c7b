/* Reading data/change_impacts.tsv for `diff`, and the wheel index of a
 * torch variant for `snapshot --restore-script`: knowledge as rows, the
 * matching rules here. */
#include "kb/change.h"

#include <stdio.h>
#include <string.h>

#include "kb/table.h"

const char *td_impact_name(enum td_impact i)
{
    return i == TD_IMPACT_BREAKS ? "breaks" : i == TD_IMPACT_RISKY ? "risky" : "neutral";
}

/* ITEM against a row's item cell: exact, "*", or a prefix ending in "*". */
static bool item_matches(const char *pattern, const char *item)
{
    size_t n = strlen(pattern);
    if (n && pattern[n - 1] == '*')
        return strncmp(pattern, item, n - 1) == 0;
    return strcmp(pattern, item) == 0;
}

bool td_kb_change(const char *area, const char *item, struct td_kb_change *out)
{
    static const char *const cols[] = {"area",      "item",   "finding_kinds", "match",
                                       "otherwise", "detail", "source",        NULL};
    struct td_table t;
    if (!td_table_open(&t, "change_impacts", cols))
        return false;
    while (td_table_next(&t)) {
        if (strcmp(td_table_cell(&t, 0), area) != 0 || !item_matches(td_table_cell(&t, 1), item))
            continue;
        kb_copy(out->kinds, sizeof out->kinds, td_table_cell(&t, 2));
        out->match_any = strcmp(td_table_cell(&t, 3), "any") == 0;
        out->otherwise =
            strcmp(td_table_cell(&t, 4), "risky") == 0 ? TD_IMPACT_RISKY : TD_IMPACT_NEUTRAL;
        kb_copy(out->detail, sizeof out->detail, td_table_cell(&t, 5));
        kb_copy(out->source, sizeof out->source, td_table_cell(&t, 6));
        return true;
    }
    return false;
}

bool td_kb_kind_listed(const char *list, const char *kind)
{
    size_t n = strlen(kind);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ";");
        if (len == n && strncmp(p, kind, n) == 0)
            return true;
        p += len + (p[len] == ';');
    }
    return false;
}

/* The index URL of the first row of TABLE whose index_url ends in "/LOCAL"
 * (CUDA builds) or whose variant is LOCAL (the other indexes). */
static const char *index_from(const char *table, const char *local, char *out, size_t cap)
{
    static const char *const cols[] = {"index_url", "variant", NULL};
    struct td_table t;
    if (!td_table_open(&t, table, cols))
        return NULL;
    size_t n = strlen(local);
    while (td_table_next(&t)) {
        const char *url = td_table_cell(&t, 0);
        size_t len = strlen(url);
        bool tail = len > n && url[len - n - 1] == '/' && strcmp(url + len - n, local) == 0;
        if (tail || strcmp(td_table_cell(&t, 1), local) == 0)
            return kb_copy(out, cap, url);
    }
    return NULL;
}

const char *td_kb_variant_index(const char *local, char *out, size_t cap)
{
    if (!local || !*local)
        return NULL;
    const char *url = index_from("torch_cuda_builds", local, out, cap);
    return url ? url : index_from("torch_wheel_indexes", local, out, cap);
}
