/* Whole-closure checks that no single resolution shows: a dependency that
 * only an ancestor's DT_RUNPATH would have found, a copy earlier in the
 * search that shadows the one the requester ships (env_shadow.c), and two runtimes of a
 * family that must be unique in a process (data/runtime_families.tsv). */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/data.h"
#include "graph/graph.h"

static bool file_at(const struct td_graph *g, const char *dir, const char *name, struct stat *st)
{
    char target[4096], host[4096];
    if (snprintf(target, sizeof target, "%s/%s", dir, name) >= (int)sizeof target)
        return false;
    return td_host_path(&g->cfg, target, host, sizeof host) && stat(host, st) == 0 &&
           S_ISREG(st->st_mode);
}

/* Calls FN for each directory of a colon-separated DT_RUNPATH/DT_RPATH of
 * O, with $ORIGIN (and ${ORIGIN}) expanded to O's directory (ld.so(8)
 * "Dynamic string tokens"); other tokens are left to the loader model. */
static bool each_dir(const struct td_object *o, const char *paths,
                     bool (*fn)(const char *dir, void *ctx), void *ctx)
{
    char origin[4096], cwd[2048];
    /* A root named relative to the current directory: $ORIGIN is absolute. */
    if (o->path[0] != '/' && getcwd(cwd, sizeof cwd))
        snprintf(origin, sizeof origin, "%s/%s", cwd, o->path);
    else
        snprintf(origin, sizeof origin, "%s", o->path);
    char *slash = strrchr(origin, '/');
    if (slash)
        *slash = '\0';
    for (const char *p = paths; p && *p;) {
        size_t n = strcspn(p, ":");
        char dir[4096] = "";
        size_t len = 0;
        for (size_t i = 0; i < n && len + 1 < sizeof dir;) {
            size_t tok = !strncmp(p + i, "$ORIGIN", 7)     ? 7
                         : !strncmp(p + i, "${ORIGIN}", 9) ? 9
                                                           : 0;
            if (tok) {
                len += (size_t)snprintf(dir + len, sizeof dir - len, "%s", origin);
                i += tok;
            } else {
                dir[len++] = p[i++];
                dir[len] = '\0';
            }
        }
        if (len && fn(dir, ctx))
            return true;
        p += n + (p[n] == ':');
    }
    return false;
}

struct look {
    const struct td_graph *g;
    const char *name;
    char found[4096];
    struct stat st;
};

static bool look_in(const char *dir, void *ctx)
{
    struct look *l = ctx;
    if (!file_at(l->g, dir, l->name, &l->st))
        return false;
    snprintf(l->found, sizeof l->found, "%s/%s", dir, l->name);
    return true;
}

/* ld.so(8): DT_RUNPATH directories serve only the object's own DT_NEEDED
 * entries, "unlike DT_RPATH, which is applied to searches for all children". */
bool td_graph_runpath_not_inherited(struct td_graph *g, const struct td_edge *e)
{
    for (const struct td_object *a = e->from->loader; a; a = a->loader) {
        if (a->kind != TD_FILE_ELF || !a->u.elf.runpath)
            continue;
        struct look l = {g, e->name, "", {0}};
        if (!each_dir(a, a->u.elf.runpath, look_in, &l))
            continue;
        td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_RUNPATH_NOT_INHERITED, e->name,
                        e->from->path, NULL,
                        "give the library that needs it its own DT_RUNPATH (patchelf "
                        "--set-rpath on a copy), or preload it before importing",
                        "%s exists at %s, reachable only through the DT_RUNPATH of %s, which "
                        "does not apply to the needs of %s",
                        e->name, l.found, a->name, e->from->name);
        return true;
    }
    return false;
}

static bool platform_matches(const char *platform, enum td_platform p)
{
    return strcmp(platform, "any") == 0 || strcmp(platform, td_platform_name(p)) == 0;
}

static void duplicate_runtimes(struct td_graph *g)
{
    static const char *const cols[] = {"family", "library", "platform", NULL};
    struct td_table t;
    if (!td_table_open(&t, "runtime_families", cols))
        return;
    const struct td_object *first_of_family = NULL;
    char family[64] = "";
    while (td_table_next(&t)) {
        const char *fam = td_table_cell(&t, 0), *lib = td_table_cell(&t, 1);
        if (!platform_matches(td_table_cell(&t, 2), g->cfg.platform))
            continue;
        if (strcmp(family, fam) != 0) {
            snprintf(family, sizeof family, "%s", fam);
            first_of_family = NULL;
        }
        for (size_t i = 0; i < g->count; i++) {
            const struct td_object *o = g->objects[i];
            const char *base = strrchr(o->path, '/') ? strrchr(o->path, '/') + 1 : o->path;
            if (fnmatch(lib, base, FNM_CASEFOLD) != 0)
                continue;
            if (!first_of_family) {
                first_of_family = o;
                continue;
            }
            if (o == first_of_family)
                continue;
            td_findings_add(&g->findings, TD_SEV_WARNING, TD_KIND_DUPLICATE_RUNTIME, o->path, NULL,
                            NULL,
                            "keep one runtime of the family: install the packages built against "
                            "the same one (e.g. nomkl builds, or torch and numpy from the same "
                            "channel)",
                            "two %s runtimes in one process: %s and %s", family,
                            first_of_family->path, o->path);
        }
    }
}

void td_graph_analyze(struct td_graph *g)
{
    duplicate_runtimes(g);
}
