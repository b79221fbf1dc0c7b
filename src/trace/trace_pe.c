/* The Windows half of `trace` that needs no Windows: the debugger's events
 * (trace_windows.c) folded into the libraries of struct td_trace. A debug
 * event says which image was mapped, not who asked for it or where the
 * loader looked, so the requester comes from the import tables of the
 * images mapped before it, and a failed load is named from the import that
 * no mapped image answers. Loader snaps, when the user turned them on, add
 * the paths tried and the failed step as the loader states it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/data.h"
#include "loader/loader.h"
#include "trace/trace.h"

enum { MZ_PE_PROBE = 4096 };

const char *td_trace_pe_base(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '\\' || *p == '/')
            b = p + 1;
    return b;
}

/* Contracts the loader resolves to a host DLL without mapping a file of
 * that name (docs/windows-loader.md, API sets). */
static bool is_api_set(const char *name)
{
    return strncasecmp(name, "api-", 4) == 0 || strncasecmp(name, "ext-", 4) == 0;
}

/* The DLL names an image imports (delay imports after the others), copied
 * into the trace's arena; none when the file cannot be read as PE. */
struct imports {
    const char **names;
    size_t n, n_static; /* names[0 .. n_static) from the import directory */
    uint16_t machine;
};

static void read_imports(struct td_trace *t, const char *path, struct imports *out)
{
    memset(out, 0, sizeof *out);
    struct td_err err = {0};
    struct td_object *o = td_object_open(path, NULL, NULL, &err);
    if (!o)
        return;
    if (o->kind == TD_FILE_PE) {
        out->machine = o->u.pe.machine;
        struct td_pe_import_dll *dlls[2] = {NULL, NULL};
        size_t n[2] = {0, 0};
        for (int d = 0; d < 2; d++)
            if (td_pe_imports(&o->u.pe, d == 1, &dlls[d], &n[d], &err) != 0)
                n[d] = 0;
        out->names = td_arena_array(&t->arena, n[0] + n[1] + 1, sizeof *out->names);
        for (int d = 0; out->names && d < 2; d++) {
            for (size_t i = 0; i < n[d]; i++)
                if (dlls[d][i].name)
                    out->names[out->n++] = td_arena_strdup(&t->arena, dlls[d][i].name);
            if (d == 0)
                out->n_static = out->n;
        }
    }
    td_object_free(o);
}

/* The import of IMP that names the file PATH, or NULL. */
static const char *imported_as(const struct imports *imp, const char *path)
{
    const char *base = td_trace_pe_base(path);
    for (size_t i = 0; i < imp->n; i++)
        if (strcasecmp(imp->names[i], base) == 0)
            return imp->names[i];
    return NULL;
}

/* A mapped image (at any time of the run) answers to NAME. */
static bool answered(const struct td_trace *t, size_t n_mapped, const char *name)
{
    for (size_t i = 0; i < n_mapped; i++)
        if (t->libs[i].path && strcasecmp(td_trace_pe_base(t->libs[i].path), name) == 0)
            return true;
    return false;
}

/* What the loader thinks of a file it did not take, from its headers. */
static const char *pe_outcome(const char *path, uint16_t want_machine)
{
    unsigned char h[MZ_PE_PROBE];
    FILE *f = fopen(path, "rb");
    if (!f)
        return "absent";
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    if (n < 64 || h[0] != 'M' || h[1] != 'Z')
        return "not PE";
    uint32_t off =
        (uint32_t)h[60] | (uint32_t)h[61] << 8 | (uint32_t)h[62] << 16 | (uint32_t)h[63] << 24;
    if (off > n - 6 || memcmp(h + off, "PE\0\0", 4) != 0)
        return "not PE";
    uint16_t machine = (uint16_t)(h[off + 4] | h[off + 5] << 8);
    if (want_machine && machine != want_machine)
        return "wrong machine";
    return "not taken";
}

static bool same_path(const char *a, const char *b)
{
    return a && b && strcasecmp(a, b) == 0;
}

static void add_try(struct td_trace *t, struct td_trace_lib *l, const char *path,
                    const char *outcome)
{
    struct td_trace_try *grown = td_arena_array(&t->arena, l->n_tries + 1, sizeof *grown);
    if (!grown)
        return;
    if (l->n_tries)
        memcpy(grown, l->tries, l->n_tries * sizeof *grown);
    grown[l->n_tries++] = (struct td_trace_try){path, 0, outcome};
    l->tries = grown;
}

/* Loader snaps name each path tried (SEARCH events, flag 0): those whose
 * file name is the library's become its tries. */
static void attach_tries(struct td_trace *t, struct td_trace_lib *l, uint16_t machine)
{
    for (size_t i = 0; i < t->n_events; i++) {
        const struct td_trace_event *e = &t->events[i];
        if (e->kind != TD_TEV_SEARCH || e->flag == TD_TRACE_SER_ORIG ||
            strcasecmp(td_trace_pe_base(e->path), td_trace_pe_base(l->name)) != 0)
            continue;
        bool hit = l->status != TD_TLIB_MISSING && same_path(e->path, l->path);
        add_try(t, l, e->path, hit ? "loaded" : pe_outcome(e->path, machine));
    }
}

/* The mapped library the failure's path or name designates, or NULL. */
static struct td_trace_lib *named_lib(struct td_trace *t, size_t n, const char *what)
{
    for (size_t i = n; what && i-- > 0;)
        if (same_path(t->libs[i].path, what) ||
            strcasecmp(td_trace_pe_base(t->libs[i].path), td_trace_pe_base(what)) == 0)
            return &t->libs[i];
    return NULL;
}

static struct td_trace_lib *add_missing(struct td_trace *t, const char *name,
                                        const char *requested_by, uint64_t t_ns)
{
    struct td_trace_lib *l = td_trace_add_lib(t);
    if (!l)
        return NULL;
    l->name = name;
    l->requested_by = requested_by;
    l->status = TD_TLIB_MISSING;
    l->t_ns = t_ns;
    return l;
}

/* A failed load: Windows' message names the DLL being loaded (or nothing,
 * for the program's own imports); the DLL missing is the import of that
 * DLL, or of any image mapped, that no image mapped answers. */
static void name_failure(struct td_trace *t, const struct imports *imp, size_t n_mapped)
{
    struct td_trace_failure *f = t->failed;
    if (!f)
        return;
    uint16_t machine = n_mapped ? imp[0].machine : 0;
    struct td_trace_lib *named = named_lib(t, n_mapped, f->library ? f->library : f->needed_by);
    if (named && f->library) {
        f->library = named->path; /* the loader's spelling of the path */
        if (!f->needed_by)
            f->needed_by = named->requested_by;
    }
    /* Error 193 is also what a file that is not PE at all gives. */
    if (f->library && !named && strcmp(f->kind, TD_KIND_WRONG_ARCHITECTURE) == 0 &&
        strcmp(pe_outcome(f->library, machine), "not PE") == 0)
        f->kind = TD_KIND_NOT_A_LIBRARY;
    if (strcmp(f->kind, TD_KIND_MISSING_LIBRARY) != 0) {
        if (!named && f->library) {
            /* Never mapped (a wrong-machine or non-PE file): its header says why. */
            struct td_trace_lib *l =
                add_missing(t, td_trace_pe_base(f->library), NULL, t->duration_ns);
            if (l) {
                add_try(t, l, f->library, pe_outcome(f->library, machine));
                attach_tries(t, l, machine);
            }
        }
        return;
    }
    if (f->library && !named) {
        /* The DLL asked for was not mapped: it is the missing one, unless
         * the snaps already named it as an import of a mapped image. */
        if (f->needed_by && named_lib(t, n_mapped, f->needed_by))
            f->needed_by = named_lib(t, n_mapped, f->needed_by)->path;
        struct td_trace_lib *l =
            add_missing(t, td_trace_pe_base(f->library), f->needed_by, t->duration_ns);
        if (l) {
            if (strchr(f->library, '\\') || strchr(f->library, '/'))
                add_try(t, l, f->library, pe_outcome(f->library, machine));
            attach_tries(t, l, machine);
        }
        return;
    }
    /* The named DLL's imports first, then every image's, in load order. */
    const char *first = NULL, *first_by = NULL;
    for (size_t pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n_mapped; i++) {
            struct td_trace_lib *l = &t->libs[i];
            if ((pass == 0) != (l == named))
                continue;
            for (size_t k = 0; k < imp[i].n_static; k++) {
                const char *name = imp[i].names[k];
                if (is_api_set(name) || answered(t, n_mapped, name))
                    continue;
                bool dup = false;
                for (size_t j = n_mapped; j < t->n_libs; j++)
                    dup |= strcasecmp(t->libs[j].name, name) == 0;
                if (dup)
                    continue;
                const char *by = l->path;
                struct td_trace_lib *m = add_missing(t, name, by, l->t_ns);
                if (m)
                    attach_tries(t, m, machine);
                if (!first)
                    first = name, first_by = by;
            }
        }
    if (first) {
        f->library = first;
        f->needed_by = first_by;
    }
}

void td_trace_build_libraries_pe(struct td_trace *t)
{
    t->windows = true;
    uint64_t breakpoint = UINT64_MAX, prev_open = 0;
    for (size_t i = 0; i < t->n_events; i++) {
        const struct td_trace_event *e = &t->events[i];
        if (e->kind == TD_TEV_PREINIT) {
            breakpoint = e->t_ns; /* a WOW64 process has two: the 32-bit side's is last */
        } else if (e->kind == TD_TEV_OPEN) {
            struct td_trace_lib *l = td_trace_add_lib(t);
            if (!l)
                return;
            l->name = td_trace_pe_base(e->path);
            l->path = e->path;
            l->cookie = e->cookie;
            l->status = TD_TLIB_LOADED;
            l->t_ns = e->t_ns;
            l->load_ns = e->t_ns - prev_open; /* kept only for a DLL with an importer */
            prev_open = e->t_ns;
        } else if (e->kind == TD_TEV_CLOSE) {
            for (size_t k = t->n_libs; k-- > 0;)
                if (t->libs[k].cookie == e->cookie && t->libs[k].status == TD_TLIB_LOADED) {
                    t->libs[k].status = TD_TLIB_UNLOADED;
                    t->libs[k].closed_ns = e->t_ns;
                    break;
                }
        }
    }
    size_t n = t->n_libs;
    if (n)
        t->program = t->libs[0].path;
    struct imports *imp = calloc(n ? n : 1, sizeof *imp);
    if (!imp)
        return;
    for (size_t i = 0; i < n; i++)
        read_imports(t, t->libs[i].path, &imp[i]);
    for (size_t i = 1; i < n; i++) {
        struct td_trace_lib *l = &t->libs[i];
        /* The earliest image mapped before it, still mapped, that imports it. */
        for (size_t j = 0; j < i && !l->requested_by; j++) {
            const struct td_trace_lib *r = &t->libs[j];
            const char *as = imported_as(&imp[j], l->path);
            if (as && (r->status != TD_TLIB_UNLOADED || r->closed_ns >= l->t_ns)) {
                l->requested_by = r->path;
                l->name = as;
            }
        }
        if (!l->requested_by) {
            l->load_ns = 0;
            l->dlopened = l->t_ns > breakpoint;
        }
        /* A LoadLibrary the snaps announced: asked for then, mapped now. */
        for (size_t k = t->n_events; l->dlopened && k-- > 0;) {
            const struct td_trace_event *e = &t->events[k];
            if (e->kind == TD_TEV_SEARCH && e->flag == TD_TRACE_SER_ORIG && e->t_ns <= l->t_ns &&
                strcasecmp(td_trace_pe_base(e->path), td_trace_pe_base(l->path)) == 0) {
                l->load_ns = l->t_ns - e->t_ns;
                l->found_via = 0;
                break;
            }
        }
        attach_tries(t, l, imp[0].machine);
    }
    if (n)
        t->libs[0].load_ns = 0;
    name_failure(t, imp, n);
    free(imp);
}

/* ---- NTSTATUS and loader snaps ---- */

bool td_trace_pe_status(struct td_trace *t, uint32_t status, const char *how)
{
    static const char *const cols[] = {"status", "name", "kind", NULL};
    static const char *const kinds[] = {TD_KIND_MISSING_LIBRARY,       TD_KIND_WRONG_ARCHITECTURE,
                                        TD_KIND_MISSING_SYMBOL,        TD_KIND_MISSING_ORDINAL,
                                        TD_KIND_INIT_FAILURE,          TD_KIND_NOT_A_LIBRARY,
                                        TD_KIND_MISSING_SYMBOL_VERSION};
    struct td_table tab;
    if (!td_table_open(&tab, "windows_load_status", cols))
        return false;
    while (td_table_next(&tab)) {
        if ((uint32_t)strtoul(td_table_cell(&tab, 0), NULL, 16) != status)
            continue;
        const char *kind = NULL;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (strcmp(td_table_cell(&tab, 2), kinds[k]) == 0)
                kind = kinds[k];
        if (!kind)
            return false;
        struct td_trace_failure *f = t->failed;
        if (!f && !(f = t->failed = td_arena_alloc(&t->arena, sizeof *f)))
            return false;
        memset(f, 0, sizeof *f);
        char msg[160];
        snprintf(msg, sizeof msg, "%s 0x%08X (%s)", how, (unsigned)status, td_table_cell(&tab, 1));
        f->kind = kind;
        f->message = td_arena_strdup(&t->arena, msg);
        return true;
    }
    return false;
}

/* The text after MARK in LINE, up to END (or the line's end), into the arena. */
static const char *after(struct td_trace *t, const char *line, const char *mark, char end)
{
    const char *p = strstr(line, mark);
    if (!p)
        return NULL;
    p += strlen(mark);
    const char *q = end ? strchr(p, end) : NULL;
    size_t n = q ? (size_t)(q - p) : strcspn(p, "\r\n");
    return td_arena_strndup(&t->arena, p, n);
}

bool td_trace_pe_snap(struct td_trace *t, const char *line, uint64_t t_ns)
{
    /* "LdrpProcessWork - ERROR: Unable to load DLL: "X", Parent Module: "Y", Status: 0x..." */
    if (strstr(line, "Unable to load DLL: \"")) {
        const char *st = after(t, line, "Status: ", 0);
        if (!st || !td_trace_pe_status(t, (uint32_t)strtoul(st, NULL, 16), "loader status"))
            return false;
        struct td_trace_failure *f = t->failed;
        f->library = after(t, line, "Unable to load DLL: \"", '"');
        f->needed_by = after(t, line, "Parent Module: \"", '"');
        f->message = td_arena_strndup(&t->arena, line, strcspn(line, "\r\n"));
        return true;
    }
    /* "LdrLoadDll - ENTER: DLL name: X": a LoadLibrary; "LdrpResolveDllName -
     * ENTER: DLL name: C:\d\x.dll": one path tried. */
    bool request = strstr(line, "LdrLoadDll - ENTER: DLL name: ") != NULL;
    if (!request && !strstr(line, "LdrpResolveDllName - ENTER: DLL name: "))
        return false;
    const char *name = after(t, line, "DLL name: ", 0);
    struct td_trace_event *e = name && *name ? td_trace_add_event(t) : NULL;
    if (e) {
        e->kind = TD_TEV_SEARCH;
        e->t_ns = t_ns;
        e->flag = request ? TD_TRACE_SER_ORIG : 0;
        e->path = name;
    }
    return false;
}
