/* diff of two snapshots read back (snapshot/snapshot.h): the facts that
 * differ, the findings NEW has and OLD had not, and each change ranked by
 * data/change_impacts.tsv — it breaks when a new finding is of a kind it can
 * cause (and, where the table asks, names it). */
#include "snapshot/snapshot.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int key_cmp(const struct td_snap_fact *x, const struct td_snap_fact *y)
{
    int c = strcmp(x->area, y->area);
    c = c ? c : strcmp(x->environment, y->environment);
    return c ? c : strcmp(x->item, y->item);
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool had_finding(const struct td_findings *old, const struct td_finding *x)
{
    for (size_t i = 0; i < old->count; i++) {
        const struct td_finding *o = &old->items[i];
        if (o->severity == x->severity && strcmp(o->kind, x->kind) == 0 &&
            same_str(o->library, x->library))
            return true;
    }
    return false;
}

static void new_findings(const struct td_snap_doc *old, const struct td_snap_doc *new,
                         struct td_findings *out)
{
    for (size_t i = 0; i < new->findings.count; i++) {
        const struct td_finding *x = &new->findings.items[i];
        if (!had_finding(&old->findings, x))
            td_findings_add(out, x->severity, x->kind, x->library, x->needed_by, x->symbol, x->fix,
                            "%s", x->detail);
    }
}

/* HAY holds NEEDLE, ignoring case and counting '-' and '_' as one. */
static bool mentions(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; hay && n && *hay; hay++) {
        size_t k = 0;
        for (; k < n && hay[k]; k++) {
            char a = (char)tolower((unsigned char)hay[k]),
                 b = (char)tolower((unsigned char)needle[k]);
            if (a != b && !((a == '-' || a == '_') && (b == '-' || b == '_')))
                break;
        }
        if (k == n)
            return true;
    }
    return false;
}

static bool names_item(const struct td_finding *x, const char *item)
{
    return mentions(x->library, item) || mentions(x->needed_by, item) || mentions(x->detail, item);
}

/* The item as the table names it: a package's second copy is "name@where". */
static const char *table_item(const struct td_change *c, char *out, size_t cap)
{
    size_t n = strcspn(c->item, "@");
    snprintf(out, cap, "%.*s", (int)n, c->item);
    return out;
}

static void rank(struct td_change *c, const struct td_findings *fresh, struct td_arena *a)
{
    char item[256];
    struct td_kb_change k;
    if (!td_kb_change(c->area, table_item(c, item, sizeof item), &k)) {
        c->impact = TD_IMPACT_NEUTRAL;
        c->detail = "not a fact the loaders or torch depend on";
        return;
    }
    c->detail = td_arena_strdup(a, k.detail);
    c->finding_kinds = td_arena_array(a, fresh->count + 1, sizeof *c->finding_kinds);
    for (size_t i = 0; c->finding_kinds && i < fresh->count; i++) {
        const struct td_finding *x = &fresh->items[i];
        if (!td_kb_kind_listed(k.kinds, x->kind) || !(k.match_any || names_item(x, item)))
            continue;
        bool dup = false;
        for (size_t j = 0; j < c->n_kinds && !dup; j++)
            dup = strcmp(c->finding_kinds[j], x->kind) == 0;
        if (!dup)
            c->finding_kinds[c->n_kinds++] = x->kind;
    }
    c->impact = c->n_kinds ? TD_IMPACT_BREAKS : k.otherwise;
}

/* The order areas are listed in within one impact: what torch runs on
 * first, and a cause before its effect (an LD_LIBRARY_PATH entry before the
 * library it puts in the closure). */
static int area_rank(const char *area)
{
    static const char *const order[] = {"driver", "gpu",    "package", "env",
                                        "native", "python", "system"};
    for (int i = 0; i < (int)(sizeof order / sizeof order[0]); i++)
        if (strcmp(order[i], area) == 0)
            return i;
    return 99;
}

static int change_cmp(const void *a, const void *b)
{
    const struct td_change *x = a, *y = b;
    if (x->impact != y->impact)
        return (int)x->impact - (int)y->impact;
    int c = area_rank(x->area) - area_rank(y->area);
    c = c ? c : strcmp(x->environment, y->environment);
    return c ? c : strcmp(x->item, y->item);
}

static void push(struct td_diff *d, const struct td_snap_fact *f, const char *before,
                 const char *after)
{
    d->changes[d->n_changes++] = (struct td_change){.area = f->area,
                                                    .item = f->item,
                                                    .environment = f->environment,
                                                    .before = before,
                                                    .after = after};
}

void td_snapshot_diff(const struct td_snap_doc *old, const struct td_snap_doc *new,
                      struct td_diff *d, struct td_arena *arena)
{
    new_findings(old, new, &d->findings);
    d->changes = td_arena_array(arena, old->n_facts + new->n_facts + 1, sizeof *d->changes);
    if (!d->changes)
        return;
    size_t i = 0, k = 0;
    while (i < old->n_facts || k < new->n_facts) {
        const struct td_snap_fact *o = i < old->n_facts ? &old->facts[i] : NULL;
        const struct td_snap_fact *n = k < new->n_facts ? &new->facts[k] : NULL;
        int c = !o ? 1 : !n ? -1 : key_cmp(o, n);
        if (c < 0)
            push(d, o, o->value, NULL), i++;
        else if (c > 0)
            push(d, n, NULL, n->value), k++;
        else {
            if (strcmp(o->value, n->value) != 0)
                push(d, n, o->value, n->value);
            i++, k++;
        }
    }
    for (size_t j = 0; j < d->n_changes; j++) {
        rank(&d->changes[j], &d->findings, arena);
        d->count[d->changes[j].impact]++;
    }
    if (d->n_changes)
        qsort(d->changes, d->n_changes, sizeof *d->changes, change_cmp);
}

void td_diff_free(struct td_diff *d)
{
    td_findings_free(&d->findings);
}
