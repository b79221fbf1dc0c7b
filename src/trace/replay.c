/* The live replay's answer (replay.h): parsed like any untrusted bytes,
 * then held against the static model of the same torch, so that each code
 * Windows returned becomes a finding that names the file at fault rather
 * than the torch\lib DLL torch happened to be loading. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "trace/replay.h"

enum { MAX_FIELDS = 6, MAX_LOADS = 4096 };

/* Splits LINE (N bytes) at tabs into at most MAX fields; the last takes
 * the rest. Returns the count. */
static int fields(const char *line, size_t n, const char **f, size_t *len, int max)
{
    int k = 0;
    const char *p = line, *end = line + n;
    while (k < max) {
        const char *tab = k == max - 1 ? NULL : memchr(p, '\t', (size_t)(end - p));
        f[k] = p;
        len[k] = (size_t)((tab ? tab : end) - p);
        k++;
        if (!tab)
            break;
        p = tab + 1;
    }
    return k;
}

/* A decimal error code of at most 10 digits, or -1 for "-" / malformed. */
static long code_of(const char *s, size_t n)
{
    long v = 0;
    if (n == 0 || n > 10)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

static bool is(const char *s, size_t n, const char *lit)
{
    return strlen(lit) == n && memcmp(s, lit, n) == 0;
}

bool td_replay_worth_retry(const struct td_replay *r, bool timed_out)
{
    return !timed_out && !r->done && r->n_loads == 0;
}

bool td_replay_parse(const char *text, size_t len, struct td_arena *arena, struct td_replay *out)
{
    size_t cap = 0;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        if (!nl)
            break; /* cut short by a crash or the timeout */
        size_t n = (size_t)(nl - line);
        pos += n + 1;
        if (n && line[n - 1] == '\r')
            n--;
        const char *f[MAX_FIELDS];
        size_t fl[MAX_FIELDS];
        int k = fields(line, n, f, fl, MAX_FIELDS);
        if (k == 1 && is(f[0], fl[0], "done")) {
            out->done = true;
        } else if (k == 3 && is(f[0], fl[0], "dir") && fl[2] > 0) {
            long code = code_of(f[1], fl[1]);
            if (code <= 0 || out->n_failed_dirs >= 64)
                continue;
            if (!out->failed_dirs)
                out->failed_dirs = td_arena_array(arena, 64, sizeof *out->failed_dirs);
            char buf[700];
            snprintf(buf, sizeof buf, "%.*s (error %ld)", (int)(fl[2] > 600 ? 600 : fl[2]), f[2],
                     code);
            if (out->failed_dirs)
                out->failed_dirs[out->n_failed_dirs++] = td_arena_strdup(arena, buf);
        } else if (k == 6 && is(f[0], fl[0], "load") && fl[5] > 0) {
            long code = code_of(f[1], fl[1]);
            if (code < 0 || out->n_loads >= MAX_LOADS)
                continue;
            if (out->n_loads == cap) {
                size_t grown = cap ? cap * 2 : 64;
                struct td_replay_load *l = td_arena_array(arena, grown, sizeof *l);
                if (!l)
                    continue;
                if (cap)
                    memcpy(l, out->loads, cap * sizeof *l);
                out->loads = l;
                cap = grown;
            }
            struct td_replay_load *l = &out->loads[out->n_loads++];
            l->file = td_arena_strndup(arena, f[5], fl[5]);
            l->code = code;
            l->retry = code_of(f[2], fl[2]);
            l->init =
                is(f[3], fl[3], "-") || fl[3] == 0 ? NULL : td_arena_strndup(arena, f[3], fl[3]);
            l->warn_only = is(f[4], fl[4], "warn");
        }
    }
    return out->done;
}

long td_replay_final(const struct td_replay_load *l)
{
    return l->code == 126 && l->retry >= 0 ? l->retry : l->code;
}

/* ---- merging with the static model ---- */

static const char *base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '\\' || *p == '/')
            b = p + 1;
    return b;
}

static bool same_name(const char *a, const char *b)
{
    return a && b && strcasecmp(base_name(a), base_name(b)) == 0;
}

/* The object of G that FILE names (a root, by its path's base name). */
static const struct td_object *object_of(const struct td_graph *g, const char *file)
{
    for (size_t i = 0; g && i < g->count; i++)
        if (same_name(g->objects[i]->path, file))
            return g->objects[i];
    return NULL;
}

/* Marks in SEEN (one flag per object index) what ROOT loads, itself included. */
static void closure_of(const struct td_graph *g, const struct td_object *root, bool *seen)
{
    if (!root || root->index >= g->count)
        return;
    seen[root->index] = true;
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < g->n_edges; i++) {
            const struct td_edge *e = &g->edges[i];
            if (e->to && e->to->index < g->count && e->from->index < g->count &&
                seen[e->from->index] && !seen[e->to->index])
                seen[e->to->index] = grew = true;
        }
    }
}

/* Whether NEEDED_BY (a path or name) is one of the objects in SEEN. */
static bool in_closure(const struct td_graph *g, const bool *seen, const char *needed_by)
{
    for (size_t i = 0; needed_by && i < g->count; i++)
        if (seen[i] && same_name(g->objects[i]->path, needed_by))
            return true;
    return false;
}

static bool already(const struct td_findings *f, const char *kind, const char *library)
{
    for (size_t i = 0; i < f->count; i++)
        if (strcmp(f->items[i].kind, kind) == 0 && same_name(f->items[i].library, library))
            return true;
    return false;
}

/* The static model's findings of KIND within FILE's closure, as a list of
 * "library" (or "library!symbol") into OUT; the first one into *FIRST. */
static size_t static_findings(const struct td_graph *g, const char *file, const char *kind,
                              const struct td_finding **first, char *out, size_t cap)
{
    size_t n = 0, used = 0;
    *first = NULL;
    out[0] = '\0';
    const struct td_object *root = object_of(g, file);
    bool *seen = root ? calloc(g->count, 1) : NULL;
    if (!seen)
        return 0;
    closure_of(g, root, seen);
    for (size_t i = 0; i < g->findings.count; i++) {
        const struct td_finding *x = &g->findings.items[i];
        if (strcmp(x->kind, kind) != 0 ||
            !(in_closure(g, seen, x->needed_by) || same_name(x->library, file)))
            continue;
        if (!*first)
            *first = x;
        if (used + 4 < cap) {
            int w = snprintf(out + used, cap - used, "%s%s%s%s", n ? ", " : "",
                             base_name(x->library ? x->library : "?"), x->symbol ? "!" : "",
                             x->symbol ? x->symbol : "");
            used = w > 0 && (size_t)w < cap - used ? used + (size_t)w : cap - 1;
        }
        n++;
    }
    free(seen);
    return n;
}

static const char *const reinstall =
    "pip install --force-reinstall --no-cache-dir torch  (with the --index-url of your CUDA "
    "variant, as `torchdoctor compat` prints it)";

/* pytorch-facts §8.3: the documented cause of torch's 1114 is an older
 * msvcp140.dll than its build needs (pytorch#196987). */
static const char *const vc_redist = "winget install Microsoft.VCRedist.2015+.x64";

static void one_load(const struct td_replay_load *l, size_t order, bool first_fatal,
                     const struct td_graph *g, const char *who, struct td_findings *f)
{
    long code = td_replay_final(l);
    const struct td_finding *s = NULL;
    char list[600], where[200];
    snprintf(where, sizeof where, "%s",
             first_fatal ? "; import torch raises on this DLL first" : "");
    (void)order;
    if (l->warn_only) {
        if (code != 0 && !already(f, TD_KIND_MISSING_LIBRARY, l->file))
            td_findings_add(f, TD_SEV_WARNING, TD_KIND_MISSING_LIBRARY, l->file,
                            "torch/__init__.py", NULL,
                            "winget install Microsoft.VCRedist.2015+.x64",
                            "ctypes.CDLL(\"%s\") failed with error %ld in the live replay: torch "
                            "prints \"Microsoft Visual C++ Redistributable is not installed\" and "
                            "goes on",
                            l->file, code);
        return;
    }
    if (l->code == 126 && l->retry == 0) {
        static_findings(g, l->file, TD_KIND_FOUND_ONLY_VIA_PATH, &s, list, sizeof list);
        if (!s && !already(f, TD_KIND_FOUND_ONLY_VIA_PATH, l->file))
            td_findings_add(f, TD_SEV_WARNING, TD_KIND_FOUND_ONLY_VIA_PATH, l->file, who, NULL,
                            "os.add_dll_directory() the folder of the dependency before import "
                            "torch, or copy it into torch\\lib",
                            "LoadLibraryExW(0x1100) of %s failed with 126 and only torch's PATH "
                            "retry (LoadLibraryW) loaded it, in the live replay",
                            l->file);
        return;
    }
    switch (code) {
    case 0:
        return;
    case 1114: {
        const char *culprit = l->init && strcmp(l->init, ".") != 0 ? l->init : NULL;
        if (culprit)
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_INIT_FAILURE, culprit, l->file, NULL,
                            vc_redist,
                            "WinError 1114 loading %s in the live replay: the initialiser "
                            "(DllMain, static constructors) of %s, which it imports, or of a DLL "
                            "that one pulls in, failed; %s itself was not reached%s",
                            base_name(l->file), culprit, base_name(l->file), where);
        else if (!already(f, TD_KIND_INIT_FAILURE, l->file)) /* not said as an import's */
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_INIT_FAILURE, l->file, who, NULL, vc_redist,
                            "WinError 1114 loading %s in the live replay: %s%s's own "
                            "initialiser (DllMain, static constructors) returned failure%s",
                            base_name(l->file),
                            l->init ? "every DLL it imports loads alone, so " : "",
                            base_name(l->file), where);
        return;
    }
    case 127: {
        size_t n = static_findings(g, l->file, TD_KIND_MISSING_SYMBOL, &s, list, sizeof list);
        if (!s)
            n = static_findings(g, l->file, TD_KIND_MISSING_ORDINAL, &s, list, sizeof list);
        if (s && already(f, s->kind, s->library))
            return; /* the static model said it; the replay agrees */
        if (s)
            td_findings_add(f, TD_SEV_ERROR, s->kind, s->library, s->needed_by, s->symbol, s->fix,
                            "WinError 127 loading %s in the live replay: %zu procedure%s missing "
                            "(%s)%s",
                            base_name(l->file), n, n == 1 ? "" : "s", list, where);
        else
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_MISSING_SYMBOL, l->file, who, NULL, reinstall,
                            "WinError 127 loading %s in the live replay: a DLL it loads lacks a "
                            "procedure it imports; the static model found none missing, so the "
                            "copy Windows took is not the one the model resolved%s",
                            base_name(l->file), where);
        return;
    }
    case 193: {
        static_findings(g, l->file, TD_KIND_WRONG_ARCHITECTURE, &s, list, sizeof list);
        const struct td_object *o = object_of(g, l->file);
        if (s && already(f, s->kind, s->library))
            return;
        if (s)
            td_findings_add(f, TD_SEV_ERROR, s->kind, s->library, s->needed_by, NULL, s->fix,
                            "WinError 193 loading %s in the live replay: %s%s", base_name(l->file),
                            s->detail, where);
        else
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_WRONG_ARCHITECTURE, l->file, who, NULL,
                            reinstall,
                            "WinError 193 (ERROR_BAD_EXE_FORMAT) loading %s in the live replay: "
                            "it is %s%s, not an image this process can load%s",
                            base_name(l->file), o && o->arch ? "built for " : "not a valid image",
                            o && o->arch ? o->arch : "", where);
        return;
    }
    case 126: {
        size_t n = static_findings(g, l->file, TD_KIND_MISSING_LIBRARY, &s, list, sizeof list);
        if (s && already(f, s->kind, s->library))
            return;
        if (s)
            td_findings_add(f, TD_SEV_ERROR, s->kind, s->library, s->needed_by, NULL, s->fix,
                            "WinError 126 loading %s in the live replay, after torch's PATH retry: "
                            "%zu missing (%s)%s",
                            base_name(l->file), n, list, where);
        else
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_MISSING_LIBRARY, l->file, who, NULL, reinstall,
                            "WinError 126 loading %s in the live replay, after torch's PATH retry; "
                            "the static model finds every dependency, so Windows looked elsewhere "
                            "(a KnownDLL, an API set, a side-by-side manifest)%s",
                            base_name(l->file), where);
        return;
    }
    default:
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_INIT_FAILURE, l->file, who, NULL, reinstall,
                        "LoadLibraryExW of %s failed with Windows error %ld in the live replay%s",
                        base_name(l->file), code, where);
    }
}

void td_replay_findings(const struct td_replay *r, const struct td_graph *g, const char *who,
                        struct td_findings *f)
{
    bool fatal_seen = false;
    if (r->ran && !r->done)
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_INIT_FAILURE, "torch", who, NULL,
                        "run python -c \"import torch\" to see the error",
                        "the live replay of torch's DLL loading did not finish: %s",
                        r->detail ? r->detail : "no answer");
    for (size_t i = 0; i < r->n_loads; i++) {
        const struct td_replay_load *l = &r->loads[i];
        long code = td_replay_final(l);
        bool first = !l->warn_only && code != 0 && !fatal_seen;
        fatal_seen |= first;
        one_load(l, i, first, g, who, f);
    }
}
