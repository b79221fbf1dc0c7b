/* Breadth-first closure: objects are loaded in the order ld.so and the
 * Windows loader use (a needer's dependencies in its own order, level by
 * level), each once; cycles end because a loaded object is never queued
 * again. Findings for everything that could not be resolved. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/compat.h"
#include "graph/graph.h"

int td_graph_add_object(struct td_graph *g, struct td_object *o)
{
    if (g->count == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        struct td_object **grown = realloc(g->objects, cap * sizeof *grown);
        if (!grown)
            return -1;
        g->objects = grown;
        g->cap = cap;
    }
    o->index = (uint32_t)g->count;
    g->objects[g->count++] = o;
    if (g->on_add)
        g->on_add(g, o);
    return 0;
}

static struct td_edge *add_edge(struct td_graph *g)
{
    if (g->n_edges == g->edges_cap) {
        size_t cap = g->edges_cap ? g->edges_cap * 2 : 256;
        struct td_edge *grown = realloc(g->edges, cap * sizeof *grown);
        if (!grown)
            return NULL;
        g->edges = grown;
        g->edges_cap = cap;
    }
    struct td_edge *e = &g->edges[g->n_edges++];
    memset(e, 0, sizeof *e);
    return e;
}

struct td_object *td_graph_find(const struct td_graph *g, const char *name)
{
    for (size_t i = 0; i < g->count; i++) {
        const struct td_object *o = g->objects[i];
        if ((o->identity && strcmp(o->identity, name) == 0) || strcmp(o->name, name) == 0)
            return g->objects[i];
    }
    return NULL;
}

/* The dependency names of an object, in the order its loader processes them. */
struct dep {
    const char *name;
    bool delay, weak;
};

static size_t list_deps(struct td_object *o, struct dep **out, struct td_findings *f)
{
    size_t n = 0;
    struct dep *d = NULL;
    switch (o->kind) {
    case TD_FILE_ELF:
        d = td_arena_array(&o->arena, o->u.elf.needed_count + 1, sizeof *d);
        for (uint32_t i = 0; d && i < o->u.elf.needed_count; i++)
            d[n++] = (struct dep){o->u.elf.needed[i], false, false};
        break;
    case TD_FILE_PE: {
        struct td_pe_import_dll *imp = NULL, *del = NULL;
        size_t ni = 0, nd = 0;
        struct td_err e1 = {0}, e2 = {0};
        td_pe_imports(&o->u.pe, false, &imp, &ni, &e1);
        td_pe_imports(&o->u.pe, true, &del, &nd, &e2);
        if (e1.set || e2.set)
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_UNREADABLE_FILE, o->path, NULL, NULL, NULL,
                            "%s: import table not parsed: %s", o->path, e1.set ? e1.msg : e2.msg);
        d = td_arena_array(&o->arena, ni + nd + 1, sizeof *d);
        for (size_t i = 0; d && i < ni; i++)
            d[n++] = (struct dep){imp[i].name, false, false};
        for (size_t i = 0; d && i < nd; i++)
            d[n++] = (struct dep){del[i].name, true, false};
        break;
    }
    case TD_FILE_MACHO:
    case TD_FILE_MACHO_FAT:
        d = td_arena_array(&o->arena, o->u.macho.ndylibs + 1, sizeof *d);
        for (size_t i = 0; d && i < o->u.macho.ndylibs; i++) {
            const struct td_macho_dylib *y = &o->u.macho.dylibs[i];
            d[n++] = (struct dep){y->name, y->kind == TD_MACHO_DYLIB_LAZY,
                                  y->kind == TD_MACHO_DYLIB_WEAK};
        }
        break;
    default:
        break;
    }
    *out = d;
    return n;
}

/* Windows: the PATH directory holding NAME, for a DLL the chosen profile
 * does not find; NULL when PATH has none. Python >= 3.8 resolves extension
 * dependencies without PATH (pytorch-facts.md section 5). */
static const char *in_path_dir(struct td_graph *g, const char *name, char *dir, size_t cap)
{
    const char *list = td_config_env(&g->cfg, "PATH");
    while (list && *list) {
        size_t n = strcspn(list, ";");
        char target[4096], host[4096];
        if (n && n < cap &&
            snprintf(target, sizeof target, "%.*s\\%s", (int)n, list, name) < (int)sizeof target &&
            td_host_path(&g->cfg, target, host, sizeof host) && access(host, R_OK) == 0) {
            snprintf(dir, cap, "%.*s", (int)n, list);
            return dir;
        }
        list += n + (list[n] == ';');
    }
    return NULL;
}

static bool found_only_via_path(struct td_graph *g, const struct td_edge *e)
{
    char dir[4096];
    if (g->cfg.platform != TD_PLATFORM_WINDOWS)
        return false;
    if (e->to && e->res.newly_opened && e->res.rule == TD_RULE_PATH_ENV &&
        g->cfg.profile == TD_PROFILE_TORCH_IMPORT) {
        td_findings_add(&g->findings, TD_SEV_WARNING, TD_KIND_FOUND_ONLY_VIA_PATH, e->to->path,
                        e->from->path, NULL,
                        "put the DLL next to the one that needs it, or add its folder with "
                        "os.add_dll_directory() before importing",
                        "%s loads only through PATH, after torch's LoadLibraryExW(0x1100) failed "
                        "with error 126 and it retried with PATH; any other loader of %s fails",
                        e->name, e->from->name);
        return false;
    }
    if (e->to || !in_path_dir(g, e->name, dir, sizeof dir))
        return false;
    char fix[4600];
    snprintf(fix, sizeof fix,
             "os.add_dll_directory(r\"%s\") before the import (PATH is not "
             "searched for extension modules since Python 3.8)",
             dir);
    td_findings_add(&g->findings, e->delay ? TD_SEV_WARNING : TD_SEV_ERROR,
                    TD_KIND_FOUND_ONLY_VIA_PATH, e->name, e->from->path, NULL, fix,
                    "%s is in %s on PATH, but the %s profile does not search PATH "
                    "(LOAD_LIBRARY_SEARCH_* flags)",
                    e->name, dir, td_profile_name(g->cfg.profile));
    return true;
}

/* Findings for one edge: missing, wrong architecture, skipped candidates, stubs. */
static void edge_findings(struct td_graph *g, const struct td_edge *e)
{
    char fix[512];
    const struct td_resolution *r = &e->res;
    size_t wrong = 0;
    const struct td_probe *first_wrong = NULL;
    for (size_t i = 0; i < r->n_probes; i++) {
        enum td_verdict v = r->probes[i].verdict;
        /* Cache entries of other ABIs (libc6,x32 next to libc6,x86-64) are
         * how ld.so.cache works, not candidates anyone put in the way. */
        if ((v == TD_VERDICT_WRONG_CLASS || v == TD_VERDICT_WRONG_MACHINE) &&
            r->probes[i].rule != TD_RULE_LD_CACHE) {
            wrong++;
            if (!first_wrong)
                first_wrong = &r->probes[i];
        }
    }
    const struct td_probe *last = r->n_probes ? &r->probes[r->n_probes - 1] : NULL;
    if (r->in_shared_cache)
        return; /* resolved by the dyld shared cache; its symbols are not checked */
    if (found_only_via_path(g, e))
        return;
    /* Both loaders stop at a file that is not a library of their format:
     * Windows with error 193, ld.so with "invalid ELF header". */
    if (!e->to && last && last->verdict == TD_VERDICT_NOT_A_LIBRARY) {
        bool win = g->cfg.platform == TD_PLATFORM_WINDOWS;
        td_findings_add(&g->findings, e->delay ? TD_SEV_WARNING : TD_SEV_ERROR,
                        TD_KIND_NOT_A_LIBRARY, e->name, e->from->path, NULL,
                        win ? "replace the file with the real DLL (reinstall the package it "
                              "belongs to)"
                            : "remove or rename that file (a linker script or a broken copy): "
                              "the loader takes it and stops",
                        "%s is not a %s (%s): %s", last->path, win ? "PE image" : "shared library",
                        last->detail ? last->detail : "another kind of file",
                        win ? "Windows stops the load with ERROR_BAD_EXE_FORMAT (WinError 193)"
                            : "ld.so stops the whole load there instead of searching on");
        return;
    }
    if (r->fatal_wrong_machine && first_wrong) {
        td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, e->name,
                        e->from->path, NULL,
                        "replace it with the build for this architecture (64-bit Python needs "
                        "64-bit DLLs)",
                        "%s is %s: Windows stops the load with ERROR_BAD_EXE_FORMAT (WinError 193)",
                        first_wrong->path,
                        first_wrong->detail ? first_wrong->detail : "built for another machine");
        return;
    }
    if (!e->to && !wrong && !e->delay && g->cfg.platform == TD_PLATFORM_LINUX &&
        td_graph_runpath_not_inherited(g, e))
        return;
    if (!e->to) {
        /* DESIGN.md: a need only a delay-load, lazy or weak load has is still
         * reported, as a warning rather than an error. */
        enum td_severity sev = e->weak || e->delay ? TD_SEV_WARNING : TD_SEV_ERROR;
        const char *kind = wrong ? TD_KIND_WRONG_ARCHITECTURE : TD_KIND_MISSING_LIBRARY;
        if (wrong)
            td_findings_add(&g->findings, sev, kind, e->name, e->from->path, NULL,
                            "install the build of this library for the same architecture as the "
                            "program",
                            "%s was found only as %s (%s), which the loader skips; %zu places "
                            "tried",
                            e->name, first_wrong->path,
                            first_wrong->detail ? first_wrong->detail : "wrong architecture",
                            r->n_probes);
        else {
            g->loader.ops->fix_missing(e->name, fix, sizeof fix);
            td_findings_add(&g->findings, sev, kind, e->name, e->from->path, NULL, fix,
                            "%s%s is not found in any of the %zu places the loader tries", e->name,
                            e->delay  ? " (delay-loaded: fails at first use)"
                            : e->weak ? " (weak: the program runs without it)"
                                      : "",
                            r->n_probes);
        }
        return;
    }
    if (wrong && first_wrong)
        td_findings_add(&g->findings, TD_SEV_INFO, TD_KIND_WRONG_ARCHITECTURE, first_wrong->path,
                        e->from->path, NULL, NULL,
                        "%s (%s) comes earlier in the search and is skipped; %s is used",
                        first_wrong->path, first_wrong->detail ? first_wrong->detail : "wrong arch",
                        e->to->path);
    if (e->to->is_stub && e->res.newly_opened)
        td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_STUB_LIBRARY, e->to->path,
                        e->from->path, NULL,
                        "remove the stubs directory from the library path (LD_LIBRARY_PATH); the "
                        "real library comes with the driver",
                        "%s is a link-time stub, not the real library: calls into it fail "
                        "(CUDA_ERROR_STUB_LIBRARY)",
                        e->to->path);
}

/* td_object_open, headers only when nothing will read symbols. */
static struct td_object *open_file(const struct td_graph *g, const char *path, struct td_err *err)
{
    struct td_map map;
    uint64_t dev, ino;
    if (td_map_open(path, &map, err) != 0)
        return NULL;
    td_file_identity(path, &dev, &ino);
    return td_object_from_map(&map, dev, ino, path, NULL, g->cfg.headers_only, err);
}

/* A root the loader would not load at all (a DLL of another machine than
 * the process): the error names it, and its needs are not followed. */
static void refuse_root(struct td_graph *g, struct td_object *o)
{
    char why[256];
    if (!g->loader.ops->refuses_root ||
        !g->loader.ops->refuses_root(&g->loader, o, why, sizeof why))
        return;
    o->refused = true;
    /* A torch file of the wrong machine: the wheel is broken or mixed. */
    const char *fix = g->cfg.profile == TD_PROFILE_TORCH_IMPORT
                          ? "pip install --force-reinstall --no-cache-dir torch  (with the "
                            "--index-url of your CUDA variant, as `torchdoctor compat` prints it)"
                          : "replace it with the build for the process's architecture (64-bit "
                            "Python needs 64-bit DLLs)";
    td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, o->path, NULL, NULL,
                    fix, "%s is %s: loading it fails, and the import with it", o->path, why);
}

static int open_roots(struct td_graph *g, const char *const *roots, size_t n, struct td_err *err)
{
    for (size_t i = 0; i < n; i++) {
        struct td_object *o = open_file(g, roots[i], err);
        if (!o)
            return -1;
        o->found_via = TD_RULE_ROOT;
        refuse_root(g, o);
        if (td_graph_add_object(g, o) != 0) {
            td_object_free(o);
            td_err_set(err, "out of memory");
            return -1;
        }
    }
    g->n_roots = n;
    g->loader.main = g->objects[0];
    return 0;
}

/* Windows: python.exe's own modules (the scope tail, loaded when Python
 * started) are in the loaded-module list ahead of the load order. */
static bool pe_interpreter(const struct td_graph *g)
{
    return g->interpreter && g->interpreter->kind == TD_FILE_PE;
}

struct td_loaded td_graph_loaded(struct td_graph *g)
{
    size_t n = g->n_scope_tail + g->count;
    if (!pe_interpreter(g) || !g->n_scope_tail)
        return (struct td_loaded){g->objects, g->count};
    if (n > g->loaded_cap) {
        struct td_object **grown = realloc(g->loaded_buf, (n + 64) * sizeof *grown);
        if (!grown)
            return (struct td_loaded){g->objects, g->count};
        g->loaded_buf = grown, g->loaded_cap = n + 64;
    }
    memcpy(g->loaded_buf, g->scope_tail, g->n_scope_tail * sizeof *g->loaded_buf);
    memcpy(g->loaded_buf + g->n_scope_tail, g->objects, g->count * sizeof *g->loaded_buf);
    return (struct td_loaded){g->loaded_buf, n};
}

/* E was answered by one of python.exe's modules: it joins the graph (the
 * report lists it, found among the modules python.exe loaded) and leaves
 * the tail. */
static void adopt_tail_object(struct td_graph *g, struct td_edge *e)
{
    for (size_t i = 1; i < g->n_scope_tail; i++) /* [0], python.exe, is never a dependency */
        if (g->scope_tail[i] == e->to) {
            memmove(&g->scope_tail[i], &g->scope_tail[i + 1],
                    (g->n_scope_tail - i - 1) * sizeof *g->scope_tail);
            g->n_scope_tail--;
            e->to->depth = e->from->depth + 1;
            e->to->found_via = TD_RULE_ALREADY_LOADED;
            e->to->found_origin = g->interpreter->path;
            if (td_graph_add_object(g, e->to) != 0)
                e->to = NULL; /* still freed with the tail */
            return;
        }
}

/* "python310.dll" of an extension in a 3.11 process: the DLL of another
 * CPython (not python3.dll, the stable ABI's). */
static bool other_python_dll(const struct td_graph *g, const char *name, char *mine, size_t cap)
{
    unsigned minor;
    char tail[8];
    if (!pe_interpreter(g) ||
        sscanf(name, "%*1[pP]%*1[yY]%*1[tT]%*1[hH]%*1[oO]%*1[nN]3%u%7s", &minor, tail) != 2 ||
        strcasecmp(tail, ".dll") != 0)
        return false;
    for (size_t i = 0; i < g->n_scope_tail + g->count; i++) {
        const struct td_object *o =
            i < g->n_scope_tail ? g->scope_tail[i] : g->objects[i - g->n_scope_tail];
        unsigned m;
        char t[8];
        if ((o->loader == g->interpreter || o->found_origin == g->interpreter->path) &&
            sscanf(o->name, "%*1[pP]%*1[yY]%*1[tT]%*1[hH]%*1[oO]%*1[nN]3%u%7s", &m, t) == 2 &&
            strcasecmp(t, ".dll") == 0) {
            snprintf(mine, cap, "%s", o->name);
            return m != minor;
        }
    }
    return false;
}

static void python_mismatch(struct td_graph *g, const struct td_edge *e, const char *mine)
{
    char fix[512];
    snprintf(fix, sizeof fix,
             "install the build of this extension made for the Python of %s (its cpXY wheel "
             "tag must match %s), or run it with the Python it was built for",
             g->interpreter->path, mine);
    td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_PYTHON_ABI_MISMATCH, e->name, e->from->path,
                    NULL, fix,
                    "%s imports %s, but %s runs on %s: the extension was built for another "
                    "Python (%s)",
                    e->from->name, e->name, g->interpreter->path, mine,
                    e->to ? "two Pythons in one process" : "LoadLibraryExW fails with error 126");
}

void td_graph_resolve_from(struct td_graph *g, size_t start)
{
    for (size_t i = start; i < g->count; i++) {
        struct td_object *o = g->objects[i];
        struct dep *deps = NULL;
        size_t n = o->refused ? 0 : list_deps(o, &deps, &g->findings);
        for (size_t k = 0; k < n; k++) {
            struct td_edge *e = add_edge(g);
            if (!e)
                return;
            e->from = o;
            e->name = deps[k].name;
            e->delay = deps[k].delay;
            e->weak = deps[k].weak;
            struct td_loaded loaded = td_graph_loaded(g);
            struct td_err err = {0};
            if (g->loader.ops->resolve(&g->loader, o, e->name, e->delay, &loaded, &e->res, &err)) {
                td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_UNREADABLE_FILE, e->name,
                                o->path, NULL, NULL, "%s", err.msg);
                continue;
            }
            e->to = e->res.object;
            if (e->to && e->res.newly_opened) {
                e->to->loader = o;
                e->to->depth = o->depth + 1;
                e->to->found_via = e->res.rule;
                e->to->found_origin = e->res.origin;
                if (td_graph_add_object(g, e->to) != 0) {
                    td_object_free(e->to);
                    e->to = NULL;
                }
            } else if (e->to && pe_interpreter(g)) {
                adopt_tail_object(g, e);
            }
            char mine[64];
            if (other_python_dll(g, e->name, mine, sizeof mine))
                python_mismatch(g, e, mine);
            else
                edge_findings(g, e);
        }
    }
}

/* The libraries the loader model preloads, right after the program and
 * before its own needs (Linux: LD_PRELOAD and /etc/ld.so.preload, ld.so(8)
 * "LD_PRELOAD"); one that cannot be found is ignored with a message, not
 * fatal. */
static void load_preloads(struct td_graph *g)
{
    const char **names = NULL;
    int n = g->loader.ops->preloads ? g->loader.ops->preloads(&g->cfg, &g->arena, &names) : 0;
    for (int i = 0; i < n; i++) {
        struct td_edge *e = add_edge(g);
        if (!e)
            return;
        e->from = g->objects[0];
        e->name = names[i];
        struct td_loaded loaded = {g->objects, g->count};
        struct td_err err = {0};
        if (g->loader.ops->resolve(&g->loader, NULL, e->name, false, &loaded, &e->res, &err))
            continue;
        e->to = e->res.object;
        if (!e->to) {
            td_findings_add(&g->findings, TD_SEV_WARNING, TD_KIND_MISSING_LIBRARY, e->name, NULL,
                            NULL, "fix or clear LD_PRELOAD / /etc/ld.so.preload",
                            "preloaded library %s is not found: ld.so prints an error and "
                            "ignores it",
                            e->name);
            continue;
        }
        if (e->res.newly_opened) {
            e->to->found_via = TD_RULE_PRELOAD;
            e->to->loader = g->objects[0];
            e->to->depth = 1;
            if (td_graph_add_object(g, e->to) != 0) {
                td_object_free(e->to);
                e->to = NULL;
            }
        }
    }
}

static bool tail_push(struct td_graph *g, struct td_object *o, size_t *cap)
{
    if (g->n_scope_tail == *cap) {
        size_t grown_cap = *cap ? *cap * 2 : 8;
        struct td_object **grown = realloc(g->scope_tail, grown_cap * sizeof *grown);
        if (!grown)
            return false;
        g->scope_tail = grown, *cap = grown_cap;
    }
    g->scope_tail[g->n_scope_tail++] = o;
    return true;
}

/* Resolves the needs of tail object O (the interpreter or one of its
 * libraries) as the loader does when Python starts; libraries the graph
 * holds already are in scope already, the others join the tail. */
static void resolve_tail_needs(struct td_graph *g, struct td_object *o, size_t *cap)
{
    struct td_findings ignored = {0}; /* the interpreter's own problems are not the target's */
    struct dep *deps;
    size_t n = list_deps(o, &deps, &ignored);
    struct td_object **all = malloc((td_graph_scope_size(g) + n + 1) * sizeof *all);
    for (size_t k = 0; all && k < n; k++) {
        memcpy(all, g->objects, g->count * sizeof *all);
        memcpy(all + g->count, g->scope_tail, g->n_scope_tail * sizeof *all);
        struct td_loaded loaded = {all, td_graph_scope_size(g)};
        struct td_resolution res = {0};
        struct td_err err = {0};
        if (g->loader.ops->resolve(&g->loader, o, deps[k].name, false, &loaded, &res, &err) ||
            !res.object || !res.newly_opened)
            continue;
        res.object->loader = o;
        if (!tail_push(g, res.object, cap))
            td_object_free(res.object);
    }
    free(all);
    td_findings_free(&ignored);
}

/* Windows: python.exe and its own import closure (python3X.dll,
 * vcruntime140.dll beside it), loaded when Python started and so in the
 * loaded-module list of every extension's LoadLibraryExW ([SO] "the
 * system resolves to the already-loaded DLL no matter which directory
 * it's in"), resolved as a started program's imports are: the standard
 * order from python.exe's directory (a loader of their own). */
static void load_pe_interpreter(struct td_graph *g, size_t *cap)
{
    struct td_loader_config cfg = g->cfg;
    cfg.profile = TD_PROFILE_EXE;
    cfg.load_flags = 0;
    cfg.app_dir = NULL;
    cfg.n_dll_dirs = 0; /* os.add_dll_directory comes later */
    struct td_loader exe;
    struct td_err err = {0};
    if (td_loader_init(&exe, &cfg, &err) != 0)
        return;
    exe.main = g->interpreter;
    for (size_t i = 0; i < g->n_scope_tail && i < 256; i++) {
        struct td_findings ignored = {0};
        struct dep *deps;
        size_t n = list_deps(g->scope_tail[i], &deps, &ignored);
        for (size_t k = 0; k < n; k++) {
            struct td_loaded loaded = {g->scope_tail, g->n_scope_tail};
            struct td_resolution res = {0};
            if (deps[k].delay ||
                exe.ops->resolve(&exe, g->scope_tail[i], deps[k].name, false, &loaded, &res,
                                 &err) ||
                !res.object || !res.newly_opened)
                continue;
            res.object->loader = g->scope_tail[i];
            if (!tail_push(g, res.object, cap))
                td_object_free(res.object);
        }
        td_findings_free(&ignored);
    }
    td_loader_fini(&exe);
}

/* The interpreter whose symbols an extension may use, with its own
 * DT_NEEDED closure (DESIGN.md "Python's import"): a shared-libpython
 * build defines the Py* API in libpython3.X.so.1.0, not in the program.
 * Only ELF interpreters; the closure only when every symbol is bound. */
static void load_interpreter(struct td_graph *g)
{
    struct td_err ierr = {0};
    size_t cap = 0;
    g->interpreter = open_file(g, g->opts.interpreter, &ierr);
    if (g->interpreter && g->interpreter->kind == TD_FILE_PE &&
        g->cfg.platform == TD_PLATFORM_WINDOWS) {
        /* python.exe's directory is the application directory of every
         * load (python3.dll of an abi3 extension is found there). */
        const char *sep = td_host_last_sep(g->opts.interpreter);
        if (!g->cfg.app_dir && sep)
            g->cfg.app_dir = td_arena_strndup(&g->arena, g->opts.interpreter,
                                              (size_t)(sep - g->opts.interpreter));
        if (tail_push(g, g->interpreter, &cap))
            load_pe_interpreter(g, &cap);
        return;
    }
    if (g->interpreter && g->interpreter->kind != TD_FILE_ELF) {
        td_object_free(g->interpreter);
        g->interpreter = NULL;
    }
    if (!g->interpreter || !tail_push(g, g->interpreter, &cap))
        return;
    bool whole = g->opts.bind_symbols && !g->opts.versions_only;
    for (size_t i = 0; whole && i < g->n_scope_tail && i < 256; i++)
        resolve_tail_needs(g, g->scope_tail[i], &cap);
}

int td_graph_open(struct td_graph *g, const struct td_loader_config *cfg,
                  const struct td_graph_options *opts, const char *const *roots, size_t n_roots,
                  struct td_err *err)
{
    memset(g, 0, sizeof *g);
    g->cfg = *cfg;
    g->opts = *opts;
    /* Nothing past the headers is read when no symbol is bound: each file
     * is then unmapped as soon as it is parsed (td_object_from_map). */
    g->cfg.headers_only =
        cfg->headers_only || opts->headers_only || (opts->bind_symbols && opts->versions_only);
    if (n_roots == 0) {
        td_err_set(err, "no file to analyse");
        return -1;
    }
    if (td_loader_init(&g->loader, &g->cfg, err) != 0)
        return -1;
    return open_roots(g, roots, n_roots, err);
}

void td_graph_load(struct td_graph *g)
{
    load_preloads(g);
    bool windows = g->objects[0]->kind == TD_FILE_PE;
    if (g->opts.interpreter && windows)
        load_interpreter(g); /* loaded before any extension */
    td_graph_resolve_from(g, 0);
    td_graph_analyze(g);
    if (g->opts.interpreter && !windows)
        load_interpreter(g);
}
