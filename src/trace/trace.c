/* src/trace/ answers "what did the loader really do?": a command run under
 * the tracer (trace_linux.c with the LD_AUDIT module audit/, trace_windows.c
 * under the debugger API), its events folded here, the static model of the
 * same load for comparison (trace_model.c, trace_pe.c), and check --live's
 * replay of torch's DLL loading on Windows (replay*.c). A pipeline above
 * the probes: it uses them, they never call it.
 *
 * What a trace means: the audit events folded into one entry per library
 * asked for, the findings (the failed step, duplicate runtimes) and the
 * comparison with the static model of the same load. Platform-neutral:
 * the tracer (trace_linux.c) fills the events. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/data.h"
#include "base/map.h"
#include "probe/install/provider.h"
#include "trace/trace.h"

/* rtld-audit(7) la_activity: objects are being added / removed. */
enum { LA_ACT_ADD = 1, LA_ACT_DELETE = 2 };

const char *td_trace_via_name(unsigned via)
{
    switch (via) {
    case TD_TRACE_SER_ORIG:
        return "path as given";
    case TD_TRACE_SER_LIBPATH:
        return "LD_LIBRARY_PATH";
    case TD_TRACE_SER_RUNPATH:
        return "RPATH/RUNPATH";
    case TD_TRACE_SER_CONFIG:
        return "ld.so.cache";
    case TD_TRACE_SER_DEFAULT:
        return "default dirs";
    case TD_TRACE_SER_SECURE:
        return "secure dirs";
    default:
        return NULL;
    }
}

const char *td_trace_status_name(enum td_trace_lib_status s)
{
    static const char *const names[] = {"loaded", "unloaded", "already loaded", "missing"};
    return s <= TD_TLIB_MISSING ? names[s] : "?";
}

static const char *base_name(const char *path)
{
    return td_trace_pe_base(path); /* '/' or '\\': a Windows trace names DLLs by C:\\ paths */
}

/* The object with COOKIE when the event happened: the latest one mapped. */
static struct td_trace_lib *by_cookie(struct td_trace *t, uint64_t cookie)
{
    for (size_t i = t->n_libs; i-- > 0;)
        if (t->libs[i].cookie == cookie && t->libs[i].path && t->libs[i].status != TD_TLIB_SAME)
            return &t->libs[i];
    return NULL;
}

/* What ld.so would have thought of a candidate it did not take: the ELF
 * header's class and machine against the program's (glibc open_verify). */
static const char *candidate_outcome(const char *path, const unsigned char want[20])
{
    unsigned char h[20];
    int fd = td_open_file(path, NULL);
    if (fd < 0)
        return "absent";
    ssize_t n = pread(fd, h, sizeof h, 0);
    close(fd);
    if (n < (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0)
        return "not ELF";
    if (want[0] && h[4] != want[4])
        return "wrong ELF class";
    if (want[0] && (h[18] != want[18] || h[19] != want[19]))
        return "wrong machine";
    return "not taken";
}

/* One file however named: device and inode, or on Windows the volume
 * serial number and file index (mingw's stat has no st_ino). */
static bool same_file(const char *a, const char *b)
{
    uint64_t da, ia, db, ib;
    return a && b && td_file_identity(a, &da, &ia) && td_file_identity(b, &db, &ib) && da == db &&
           ia == ib;
}

/* A search that mapped nothing: a file already loaded under another name
 * (glibc compares device and inode after opening), or nothing usable. */
static void close_search(struct td_trace *t, struct td_trace_lib *l)
{
    l->status = TD_TLIB_MISSING;
    for (size_t i = 0; i < l->n_tries; i++)
        for (size_t j = 0; j < t->n_libs; j++)
            if (t->libs[j].status == TD_TLIB_LOADED &&
                same_file(l->tries[i].path, t->libs[j].path)) {
                l->status = TD_TLIB_SAME;
                l->path = t->libs[j].path;
                l->found_via = l->tries[i].via;
                l->tries[i].outcome = "same file loaded";
                return;
            }
}

static void add_try(struct td_trace *t, struct td_trace_lib *l, const char *path, unsigned via)
{
    struct td_trace_try *grown = td_arena_array(&t->arena, l->n_tries + 1, sizeof *grown);
    if (!grown)
        return;
    if (l->n_tries)
        memcpy(grown, l->tries, l->n_tries * sizeof *grown);
    grown[l->n_tries++] = (struct td_trace_try){path, via, NULL};
    l->tries = grown;
}

void td_trace_build_libraries(struct td_trace *t)
{
    ptrdiff_t pending = -1; /* index of the search under way */
    size_t adds = 0;
    bool first_of_add = false;
    uint64_t delete_t = 0, exit_t = UINT64_MAX;
    for (size_t i = 0; i < t->n_events; i++) {
        const struct td_trace_event *e = &t->events[i];
        switch (e->kind) {
        case TD_TEV_ACTIVITY:
            if (e->flag == LA_ACT_DELETE)
                delete_t = e->t_ns;
            if (e->flag == LA_ACT_ADD)
                first_of_add = ++adds > 1; /* the first add is the program's start */
            else
                first_of_add = false; /* a dlopen of something already loaded maps nothing */
            break;
        case TD_TEV_SEARCH: {
            if (e->flag != TD_TRACE_SER_ORIG) {
                if (pending >= 0)
                    add_try(t, &t->libs[pending], e->path, e->flag);
                break;
            }
            if (pending >= 0)
                close_search(t, &t->libs[pending]);
            const struct td_trace_lib *req = by_cookie(t, e->cookie);
            const char *requester = req ? req->path : NULL; /* add_lib may move REQ */
            struct td_trace_lib *l = td_trace_add_lib(t);
            if (!l)
                return;
            l->name = e->path;
            l->requested_by = requester;
            l->t_ns = e->t_ns;
            pending = (ptrdiff_t)(l - t->libs);
            break;
        }
        case TD_TEV_OPEN: {
            struct td_trace_lib *l = pending >= 0 ? &t->libs[pending] : td_trace_add_lib(t);
            if (!l)
                return;
            if (pending < 0) {
                l->name = base_name(e->path);
                l->t_ns = e->t_ns;
            }
            l->path = e->path;
            l->cookie = e->cookie;
            l->lmid = e->lmid;
            l->status = TD_TLIB_LOADED;
            l->load_ns = e->t_ns - l->t_ns;
            l->dlopened = first_of_add;
            first_of_add = false;
            if (pending >= 0)
                l->found_via = TD_TRACE_SER_ORIG; /* unless a candidate below matches */
            for (size_t k = l->n_tries; k-- > 0;)
                if (strcmp(l->tries[k].path, e->path) == 0) {
                    l->found_via = l->tries[k].via;
                    l->tries[k].outcome = "loaded";
                    break;
                }
            pending = -1;
            break;
        }
        case TD_TEV_CLOSE: {
            struct td_trace_lib *l = by_cookie(t, e->cookie);
            if (l == t->libs && exit_t == UINT64_MAX)
                exit_t = delete_t; /* the program itself goes: the process is exiting */
            if (l && l->status == TD_TLIB_LOADED) {
                l->status = TD_TLIB_UNLOADED;
                l->closed_ns = e->t_ns;
            }
            break;
        }
        case TD_TEV_PREINIT:
            break;
        }
    }
    if (pending >= 0)
        close_search(t, &t->libs[pending]);
    /* Objects closed by the exit (_dl_fini) stayed loaded for the whole run. */
    for (size_t i = 0; i < t->n_libs; i++)
        if (t->libs[i].status == TD_TLIB_UNLOADED && t->libs[i].closed_ns >= exit_t) {
            t->libs[i].status = TD_TLIB_LOADED;
            t->libs[i].closed_ns = 0;
        }

    /* The program is the first object mapped; candidates are judged
     * against its ELF class and machine. */
    unsigned char want[20] = {0};
    for (size_t i = 0; i < t->n_libs && !t->program; i++)
        if (t->libs[i].path) {
            t->program = t->libs[i].path;
            int fd = open(t->program, O_RDONLY | O_CLOEXEC);
            if (fd >= 0 && pread(fd, want, sizeof want, 0) != (ssize_t)sizeof want)
                memset(want, 0, sizeof want);
            if (fd >= 0)
                close(fd);
        }
    for (size_t i = 0; i < t->n_libs; i++)
        for (size_t k = 0; k < t->libs[i].n_tries; k++)
            if (!t->libs[i].tries[k].outcome)
                t->libs[i].tries[k].outcome = candidate_outcome(t->libs[i].tries[k].path, want);
}

size_t td_trace_roots(const struct td_trace *t, const char **roots, size_t cap)
{
    size_t n = 0;
    if (t->program && n < cap)
        roots[n++] = t->program;
    for (size_t i = 0; i < t->n_libs && n < cap; i++)
        if (t->libs[i].dlopened && t->libs[i].path &&
            (t->libs[i].path[0] == '/' || (t->windows && t->libs[i].path[1] == ':')))
            roots[n++] = t->libs[i].path;
    return n;
}

/* ---- ld.so / dlerror / Python error lines (data/ldso_errors.tsv; Python's
 * [WinError N] lines too) ---- */

static const char *group(struct td_trace *t, const char *line, const regmatch_t *m,
                         const char *cell)
{
    int i = cell[0] >= '1' && cell[0] <= '9' && !cell[1] ? cell[0] - '0' : -1;
    if (i < 0 || m[i].rm_so < 0)
        return NULL;
    return td_arena_strndup(&t->arena, line + m[i].rm_so, (size_t)(m[i].rm_eo - m[i].rm_so));
}

bool td_trace_parse_error(struct td_trace *t, const char *line)
{
    size_t len;
    const char *text = td_data_table("ldso_errors", &len);
    if (!text)
        return false;
    struct td_tsv tsv;
    char row[2048];
    const char *c[8];
    td_tsv_open(&tsv, text, len);
    int n = td_tsv_next(&tsv, row, sizeof row, c, 8);
    int kind = td_tsv_column(c, n, "kind"), pat = td_tsv_column(c, n, "pattern"),
        lib = td_tsv_column(c, n, "library"), need = td_tsv_column(c, n, "needed_by"),
        sym = td_tsv_column(c, n, "symbol");
    if (kind < 0 || pat < 0 || lib < 0 || need < 0 || sym < 0)
        return false;
    while ((n = td_tsv_next(&tsv, row, sizeof row, c, 8)) > sym) {
        regex_t re;
        regmatch_t m[10];
        if (regcomp(&re, c[pat], REG_EXTENDED) != 0)
            continue;
        int hit = regexec(&re, line, 10, m, 0);
        regfree(&re);
        if (hit != 0)
            continue;
        struct td_trace_failure *f = t->failed;
        if (!f && !(f = t->failed = td_arena_alloc(&t->arena, sizeof *f)))
            return false;
        static const char *const kinds[] = {
            TD_KIND_MISSING_LIBRARY,    TD_KIND_MISSING_SYMBOL, TD_KIND_MISSING_SYMBOL_VERSION,
            TD_KIND_WRONG_ARCHITECTURE, TD_KIND_NOT_A_LIBRARY,  TD_KIND_INIT_FAILURE};
        f->kind = TD_KIND_MISSING_LIBRARY;
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
            if (strcmp(c[kind], kinds[k]) == 0)
                f->kind = kinds[k];
        f->library = group(t, line, m, c[lib]);
        f->needed_by = group(t, line, m, c[need]);
        f->symbol = group(t, line, m, c[sym]);
        f->message = td_arena_strdup(&t->arena, line);
        f->lib = NULL;
        return true;
    }
    return false;
}

/* ---- findings ---- */

/* "44 places (LD_LIBRARY_PATH, default dirs); skipped /x/libwa.so (wrong ELF
 * class)": what a search tried, in one line, into OUT. */
static const char *tried_summary(const struct td_trace_lib *l, char *out, size_t cap)
{
    unsigned vias = 0;
    for (size_t i = 0; i < l->n_tries; i++)
        vias |= l->tries[i].via;
    size_t len = (size_t)snprintf(out, cap, "%zu place%s", l->n_tries, l->n_tries == 1 ? "" : "s");
    for (unsigned bit = 1, first = 1; bit && bit <= TD_TRACE_SER_SECURE && len < cap; bit <<= 1)
        if ((vias & bit) && td_trace_via_name(bit)) {
            len += (size_t)snprintf(out + len, cap - len, "%s%s", first ? " (" : ", ",
                                    td_trace_via_name(bit));
            first = 0;
        }
    if (vias && len < cap)
        len += (size_t)snprintf(out + len, cap - len, ")");
    for (size_t i = 0; i < l->n_tries && len < cap; i++)
        if (strcmp(l->tries[i].outcome, "absent") != 0)
            len += (size_t)snprintf(out + len, cap - len, "; %s: %s", l->tries[i].path,
                                    l->tries[i].outcome);
    return out;
}

/* Names compare exactly on Linux, without regard to case on Windows. */
static bool same_name(const struct td_trace *t, const char *a, const char *b)
{
    return t->windows ? strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

/* The library of the trace the failure message names. */
static const struct td_trace_lib *failed_lib(const struct td_trace *t,
                                             const struct td_trace_failure *f)
{
    const char *want = f->library ? f->library : f->needed_by;
    for (size_t i = t->n_libs; want && i-- > 0;) {
        const struct td_trace_lib *l = &t->libs[i];
        if (l->status == TD_TLIB_LOADED && f->library)
            continue; /* a name that loaded is not the failed one */
        if (same_name(t, l->name, want) || (l->path && same_name(t, l->path, want)))
            return l;
        for (size_t k = 0; k < l->n_tries; k++)
            if (same_name(t, l->tries[k].path, want))
                return l;
    }
    return NULL;
}

/* The Windows wording: the loader's own terms, fixes that name DLLs. */
static void failure_finding_pe(struct td_trace *t, const struct td_trace_failure *f,
                               enum td_severity sev, const char *lib)
{
    char tried[2048], fix[1024];
    const char *by = f->needed_by ? f->needed_by : lib;
    if (strcmp(f->kind, TD_KIND_MISSING_LIBRARY) == 0) {
        td_provider_fix(lib, f->needed_by, true, fix, sizeof fix);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s was not found%s%s: %s (%s)", lib, f->needed_by ? ", needed by " : "",
                        f->needed_by ? f->needed_by : "",
                        f->lib && f->lib->n_tries ? tried_summary(f->lib, tried, sizeof tried)
                                                  : "no DLL mapped answers to that name",
                        f->message);
    } else if (strcmp(f->kind, TD_KIND_WRONG_ARCHITECTURE) == 0) {
        snprintf(fix, sizeof fix,
                 "torchdoctor inspect \"%s\"  # shows its machine; install the build of %s for "
                 "this process's architecture, and take the other one off the search path",
                 lib, base_name(lib));
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s is an image for another machine than %s: the loader stops at the "
                        "first file of that name (error 193; %s)",
                        lib, t->program ? t->program : "the program", f->message);
    } else if (strcmp(f->kind, TD_KIND_INIT_FAILURE) == 0) {
        snprintf(fix, sizeof fix,
                 "torchdoctor deps \"%s\"  # its imports resolve, its own start does not: "
                 "reinstall the package it belongs to (for torch's DLLs, also the current VC++ "
                 "redistributable)",
                 lib);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s was mapped, then its DllMain (or a static initialiser) failed on "
                        "DLL_PROCESS_ATTACH and the loader unloaded it (error 1114; %s)",
                        lib, f->message);
    } else if (strcmp(f->kind, TD_KIND_NOT_A_LIBRARY) == 0) {
        snprintf(fix, sizeof fix,
                 "move \"%s\" \"%s.broken\"  # or reinstall the package it "
                 "belongs to",
                 lib, lib);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s is not a PE image: the loader stops at it (%s)", lib, f->message);
    } else {
        snprintf(fix, sizeof fix,
                 "torchdoctor deps \"%s\"  # binds every import and names the one missing; "
                 "install the matching version of the DLL that should export it",
                 by);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, f->symbol, fix,
                        "an import of %s is not exported by the DLL that was loaded for it: "
                        "another copy was found first (%s)",
                        by, f->message);
    }
}

static void failure_finding(struct td_trace *t)
{
    struct td_trace_failure *f = t->failed;
    if (!f)
        return;
    f->lib = failed_lib(t, f);
    if (f->lib && !f->needed_by)
        f->needed_by = f->lib->requested_by;
    /* A program that printed the error and went on (an optional library)
     * did not fail to load. */
    enum td_severity sev = t->exit_status == 0 ? TD_SEV_WARNING : TD_SEV_ERROR;
    const char *lib = f->library ? f->library : f->needed_by;
    if (t->windows) {
        failure_finding_pe(t, f, sev, lib ? lib : "?");
        return;
    }
    char tried[2048], fix[1024];
    if (strcmp(f->kind, TD_KIND_MISSING_LIBRARY) == 0) {
        td_provider_fix(lib, f->needed_by, false, fix, sizeof fix);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s was not found: ld.so tried %s", lib,
                        f->lib ? tried_summary(f->lib, tried, sizeof tried) : "(not traced)");
    } else if (strcmp(f->kind, TD_KIND_WRONG_ARCHITECTURE) == 0) {
        snprintf(fix, sizeof fix,
                 "install the build of %s for this machine's architecture (the program is %s); "
                 "remove the other-class copy from the search path",
                 lib, t->program ? t->program : "?");
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "only files of another ELF class answer to %s (%s): ld.so skipped them "
                        "and found nothing else; tried %s",
                        lib, f->message,
                        f->lib ? tried_summary(f->lib, tried, sizeof tried) : "(not traced)");
    } else if (strcmp(f->kind, TD_KIND_NOT_A_LIBRARY) == 0) {
        snprintf(fix, sizeof fix, "mv '%s' '%s.broken'  # or reinstall the package it belongs to",
                 lib, lib);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, NULL, fix,
                        "%s is not a shared library (%s): ld.so stops the search at the first "
                        "such file instead of looking further",
                        lib, f->message);
    } else if (strcmp(f->kind, TD_KIND_MISSING_SYMBOL_VERSION) == 0 && f->library) {
        snprintf(fix, sizeof fix,
                 "torchdoctor deps %s  # shows which copy of %s was expected; put the one "
                 "defining %s first in the search path",
                 f->needed_by ? f->needed_by : lib, base_name(lib), f->symbol ? f->symbol : "?");
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, f->symbol, fix,
                        "%s needs version %s of %s, which the copy loaded (%s) does not define",
                        f->needed_by ? f->needed_by : "?", f->symbol ? f->symbol : "?",
                        base_name(lib), lib);
    } else {
        snprintf(fix, sizeof fix,
                 "torchdoctor deps %s  # shows which library should define it; install the "
                 "matching version of that library",
                 f->needed_by ? f->needed_by : lib);
        td_findings_add(&t->findings, sev, f->kind, lib, f->needed_by, f->symbol, fix,
                        "%s needs symbol %s, which no library loaded defines (%s)",
                        f->needed_by ? f->needed_by : lib, f->symbol ? f->symbol : "?", f->message);
    }
}

static void duplicate_runtimes(struct td_trace *t)
{
    size_t len;
    const char *text = td_data_table("runtime_families", &len);
    if (!text)
        return;
    struct td_tsv tsv;
    char line[1024];
    const char *c[8];
    td_tsv_open(&tsv, text, len);
    int n = td_tsv_next(&tsv, line, sizeof line, c, 8);
    int fam = td_tsv_column(c, n, "family"), lib = td_tsv_column(c, n, "library"),
        plat = td_tsv_column(c, n, "platform");
    if (fam < 0 || lib < 0 || plat < 0)
        return;
    const struct td_trace_lib *first = NULL;
    char family[64] = "";
    while ((n = td_tsv_next(&tsv, line, sizeof line, c, 8)) > plat) {
        if (strcmp(c[plat], t->windows ? "windows" : "linux") != 0 && strcmp(c[plat], "any") != 0)
            continue;
        if (strcmp(family, c[fam]) != 0) {
            snprintf(family, sizeof family, "%s", c[fam]);
            first = NULL;
        }
        for (size_t i = 0; i < t->n_libs; i++) {
            const struct td_trace_lib *l = &t->libs[i];
            if (l->status != TD_TLIB_LOADED ||
                fnmatch(c[lib], base_name(l->path), t->windows ? FNM_CASEFOLD : 0) != 0)
                continue;
            if (!first) {
                first = l;
                continue;
            }
            if (l == first || same_file(l->path, first->path))
                continue;
            td_findings_add(&t->findings, TD_SEV_WARNING, TD_KIND_DUPLICATE_RUNTIME, l->path,
                            l->requested_by, NULL,
                            "keep one runtime of the family: install the packages built against "
                            "the same one (e.g. nomkl builds, or torch and numpy from the same "
                            "channel)",
                            "two %s runtimes were loaded into the process: %s and %s", family,
                            first->path, l->path);
        }
    }
}

/* ---- the static model ---- */

static const struct td_edge *model_edge(const struct td_graph *g, const struct td_trace_lib *l,
                                        bool windows)
{
    uint64_t dev, ino;
    bool have = l->requested_by && td_file_identity(l->requested_by, &dev, &ino);
    const struct td_edge *any = NULL;
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (windows ? strcasecmp(e->name, l->name) != 0 : strcmp(e->name, l->name) != 0)
            continue;
        if (have && e->from->dev == dev && e->from->ino == ino)
            return e;
        if (!any)
            any = e;
    }
    return have ? NULL : any;
}

static bool env_differs(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") != 0;
}

static void add_divergence(struct td_trace *t, const struct td_graph *g,
                           const struct td_trace_lib *l, const struct td_edge *e)
{
    struct td_trace_divergence *grown =
        td_arena_array(&t->arena, t->n_divergences + 1, sizeof *grown);
    if (!grown)
        return;
    if (t->n_divergences)
        memcpy(grown, t->divergences, t->n_divergences * sizeof *grown);
    t->divergences = grown;
    struct td_trace_divergence *d = &grown[t->n_divergences++];
    d->name = l->name;
    d->needed_by = l->requested_by;
    d->predicted = e->to ? e->to->path : NULL;
    d->predicted_via = e->to ? td_rule_name(e->res.rule) : NULL;
    d->loaded = l->status == TD_TLIB_MISSING ? NULL : l->path;
    d->loaded_via = l->status == TD_TLIB_MISSING ? NULL : td_trace_via_name(l->found_via);
    const char *model_llp = td_config_env(&g->cfg, "LD_LIBRARY_PATH");
    char why[1024];
    if (env_differs(t->ld_library_path, model_llp))
        snprintf(why, sizeof why,
                 "LD_LIBRARY_PATH differed: the program ran with '%s', the prediction used '%s' "
                 "(set by a launcher such as env or a shell script)",
                 t->ld_library_path ? t->ld_library_path : "", model_llp ? model_llp : "");
    else if (l->status == TD_TLIB_SAME)
        snprintf(why, sizeof why, "ld.so found a file it had already loaded under another name");
    else if (!d->loaded)
        snprintf(why, sizeof why, "ld.so found nothing usable where the model took %s",
                 d->predicted);
    else if (!d->predicted)
        snprintf(why, sizeof why, "the model found no file; ld.so took it via %s",
                 d->loaded_via ? d->loaded_via : "?");
    else
        snprintf(why, sizeof why, "ld.so took it via %s, the model via %s",
                 d->loaded_via ? d->loaded_via : "?", d->predicted_via);
    d->why = td_arena_strdup(&t->arena, why);
}

static void compare_with_model(struct td_trace *t, const struct td_graph *g)
{
    for (size_t i = 0; i < t->n_libs; i++) {
        const struct td_trace_lib *l = &t->libs[i];
        if (!l->requested_by || l->dlopened || strchr(l->name, '/') ||
            (t->windows && strchr(l->name, '\\')))
            continue; /* the program, ld.so, the vDSO, the model's roots, paths */
        const struct td_edge *e = model_edge(g, l, t->windows);
        if (!e)
            continue;
        bool agree =
            l->status == TD_TLIB_MISSING ? !e->to : e->to && same_file(l->path, e->to->host_path);
        if (agree)
            t->n_agreements++;
        else
            add_divergence(t, g, l, e);
        if (t->failed && t->failed->lib == l)
            t->failed->predicted = agree;
    }
}

void td_trace_analyze(struct td_trace *t, const struct td_graph *g)
{
    failure_finding(t);
    if (t->failed)
        t->failed->predicted = -1;
    duplicate_runtimes(t);
    if (g)
        compare_with_model(t, g);
}
