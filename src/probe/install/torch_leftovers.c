/* Leftover libraries told with the import closure: a copy of libcudnn.so.8
 * that no RECORD lists beside the listed libcudnn.so.9 is named with the
 * copy the loader actually maps for that library, as the graph resolved it,
 * and with whether the leftover itself is loaded (and by whom). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probe/install/closure_checks.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

/* Same target path once normalised (td_pyfs_lexical); Windows paths
 * without regard to case. */
static bool same_path(const char *a, const char *b, struct td_arena *tmp)
{
    bool windows = strchr(a, '\\') || strchr(b, '\\') || strchr(a, ':');
    char *x = td_pyfs_lexical(tmp, a), *y = td_pyfs_lexical(tmp, b);
    return x && y && (windows ? strcasecmp(x, y) : strcmp(x, y)) == 0;
}

static const char *file_name(const char *path)
{
    const char *s = strrchr(path, '/'), *b = strrchr(path, '\\');
    s = b > s ? b : s;
    return s ? s + 1 : path;
}

/* The object of G at PATH, or NULL. */
static const struct td_object *object_at(const struct td_graph *g, const char *path,
                                         struct td_arena *tmp)
{
    for (size_t i = 0; i < g->count; i++)
        if (g->objects[i]->path && same_path(g->objects[i]->path, path, tmp))
            return g->objects[i];
    return NULL;
}

/* The first object of G (load order) that is another copy of library STEM. */
static const struct td_object *copy_of(const struct td_graph *g, const char *stem,
                                       const struct td_object * not )
{
    for (size_t i = 0; i < g->count; i++) {
        const struct td_object *o = g->objects[i];
        char s[128];
        if (o != not &&o->path && td_library_stem(file_name(o->path), s, sizeof s) &&
            strcmp(s, stem) == 0)
            return o;
    }
    return NULL;
}

/* The first object whose dependency the loader satisfied with O. */
static const struct td_object *needer(const struct td_graph *g, const struct td_object *o)
{
    for (size_t i = 0; i < g->n_edges; i++)
        if (g->edges[i].to == o && g->edges[i].from)
            return g->edges[i].from;
    return NULL;
}

static void report(const struct td_torch *t, const struct td_leftover *l, const struct td_graph *g,
                   struct td_findings *f, struct td_arena *tmp)
{
    char stem[128], picked[1024], fix[TD_PYFS_PATH_MAX + 16];
    if (!td_library_stem(file_name(l->path), stem, sizeof stem))
        return;
    const struct td_object *self = g ? object_at(g, l->path, tmp) : NULL;
    const struct td_object *other = g ? copy_of(g, stem, self) : NULL;
    const struct td_object *by = self ? needer(g, self) : NULL;
    if (other)
        snprintf(picked, sizeof picked, "the import maps %s (%s) for %s",
                 td_pyfs_lexical(tmp, other->path),
                 other->found_via == TD_RULE_ROOT ? "loaded by the import itself"
                                                  : td_rule_name(other->found_via),
                 stem);
    else
        snprintf(picked, sizeof picked, "the import maps no other copy of %s", stem);
    td_remove_cmd(l->path, false, fix, sizeof fix);
    const char *loaded = !self ? "; the leftover itself is not loaded"
                         : by  ? "; the leftover is loaded too, because "
                               : "; the leftover is loaded too, as torch loads every library "
                                 "in its folder";
    td_findings_add(
        f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, l->path, t->dir, NULL, by ? l->reinstall : fix,
        "%s is in no RECORD: a leftover beside %s, another version of the same "
        "library that %s installed; %s%s%s%s",
        l->path, l->listed, l->owner, picked, loaded, by ? td_pyfs_lexical(tmp, by->path) : "",
        by ? " needs it by that name (built for the old version: reinstall it)" : "");
}

void td_torch_leftovers(const struct td_torch *t, const struct td_graph *g, struct td_findings *f)
{
    struct td_arena tmp = {0};
    for (size_t i = 0; i < t->n_leftovers; i++)
        report(t, &t->leftovers[i], g, f, &tmp);
    td_arena_free(&tmp);
}
