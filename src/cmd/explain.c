/* torchdoctor explain [TEXT | -]: what a pasted error message means (the
 * catalogue row it matches, with its cause, kind, fix and source) and, when
 * the file it names is on this machine (or under --root), what it does not
 * say: the dependency or symbol really missing, from the same dependency
 * graph `deps` builds. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/text.h"
#include "cmd/cmd.h"
#include "cmd/deps_graph.h"
#include "kb/errors.h"
#include "report/envelope.h"

enum {
    INPUT_CAP = 16 << 20, /* a traceback, not a log file */
    MAX_SCAN_DIRS = 16,
    MAX_SCAN_FILES = 512, /* per directory */
    MAX_SHOWN_DIRS = 4,
};

struct explain_args {
    const char *const *texts;
    int n_texts;
    const char *format, *color, *root;
};

/* What the analysis of the named file found, for the report. */
struct local {
    char target[4096]; /* the file analysed, as the message names it */
    char host[4096];   /* where it is on this machine */
    const char *role;  /* "loaded", "requirer", "found by its need" */
    struct td_graph g;
    struct td_arena plan;
    bool built;
    char lines[8][1024]; /* what the message never says, one line each */
    size_t n_lines;
    char input_encoding[24]; /* what the pasted text was decoded from (base/text.h) */
};

/* snprintf whose truncation is expected (paths are cut at the buffer size). */
static int fmt(char *out, size_t cap, const char *format, ...) TD_PRINTF(3, 4);
static int fmt(char *out, size_t cap, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(out, cap, format, ap);
    va_end(ap);
    return n;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: torchdoctor explain [TEXT... | -] [--root DIR] [--format text|json|markdown]\n"
            "                           [--color WHEN]\n"
            "\n"
            "Explains an error message or a whole traceback (from the arguments, or from\n"
            "standard input with - or when nothing is given and input is not a terminal):\n"
            "what failed, the cause established for that message in a public thread, the\n"
            "finding kind and the fix, with the thread as source. When the file the message\n"
            "names is on this machine (or under --root, the target's filesystem root: C:\\ is\n"
            "DIR for a Windows path), its dependency graph names what the message does not:\n"
            "the dependency that is really missing, who needs it, or which library should\n"
            "define a missing symbol.\n"
            "\n"
            "Exit status: 0 nothing matched or only warnings, 1 the cause is an error,\n"
            "2 bad usage or unreadable input.\n");
}

static int parse_args(int argc, char **argv, struct explain_args *a)
{
    static const char *texts[256];
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage(stdout);
            exit(TD_EXIT_OK);
        } else if ((strcmp(s, "--format") == 0 || strcmp(s, "--color") == 0 ||
                    strcmp(s, "--root") == 0) &&
                   v) {
            *(s[2] == 'f' ? &a->format : s[2] == 'c' ? &a->color : &a->root) = v;
            i++;
        } else if (strncmp(s, "--", 2) == 0) {
            fprintf(stderr, "torchdoctor explain: unknown option or missing value: '%s'\n", s);
            return -1;
        } else if (a->n_texts < 256) {
            texts[a->n_texts++] = s;
        }
    }
    a->texts = texts;
    return 0;
}

static char *read_stream(FILE *in, size_t *len)
{
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n - 1, in);
        n += got;
        if (got == 0 || n >= INPUT_CAP)
            break;
        if (n + 1 == cap) {
            char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                return NULL;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    if (buf)
        buf[n] = '\0';
    *len = n;
    return buf;
}

/* The message: the arguments joined by blanks, or standard input. */
static char *read_input(const struct explain_args *a, size_t *len)
{
    if (a->n_texts == 0 && isatty(0))
        return NULL;
    if (a->n_texts == 0 || (a->n_texts == 1 && strcmp(a->texts[0], "-") == 0))
        return read_stream(stdin, len);
    size_t total = 1;
    for (int i = 0; i < a->n_texts; i++)
        total += strlen(a->texts[i]) + 1;
    char *s = malloc(total);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < a->n_texts; i++) {
        if (i)
            strcat(s, " ");
        strcat(s, a->texts[i]);
    }
    *len = strlen(s);
    return s;
}

static bool windows_path(const char *p)
{
    return (p[0] && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) || strchr(p, '\\');
}

/* Where PATH (as the message names it) is on this machine: under --root
 * when given (a Windows path matched without regard to case), else as is.
 * Writes OUT and returns true when a readable file is there. */
static bool on_this_machine(const char *path, const char *root, char *out, size_t cap)
{
    if (!path || !*path)
        return false;
    if (root) {
        struct td_loader_config cfg = {
            .platform = windows_path(path) ? TD_PLATFORM_WINDOWS : TD_PLATFORM_LINUX, .root = root};
        if (!td_host_path(&cfg, path, out, cap))
            return false;
    } else {
        fmt(out, cap, "%s", path);
    }
    struct stat st;
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, R_OK) == 0;
}

/* Directories the traceback mentions (its File "..." lines, paths in the
 * message), as host paths: where the file that needs a missing library is. */
static size_t mentioned_dirs(const char *text, const char *root, char dirs[][4096], size_t cap)
{
    regex_t re;
    if (regcomp(&re, "(/[^ \t\n\"':,()]+|[A-Za-z]:\\\\[^\t\n\"']+)", REG_EXTENDED) != 0)
        return 0;
    size_t n = 0;
    regmatch_t m[2];
    for (const char *p = text; n < cap && regexec(&re, p, 2, m, 0) == 0; p += m[0].rm_eo) {
        char path[4096], host[4096];
        fmt(path, sizeof path, "%.*s", (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
        char *slash = strrchr(path, windows_path(path) ? '\\' : '/');
        if (!slash)
            continue;
        *slash = '\0';
        struct td_loader_config cfg = {
            .platform = windows_path(path) ? TD_PLATFORM_WINDOWS : TD_PLATFORM_LINUX, .root = root};
        if (root ? !td_host_path(&cfg, path, host, sizeof host)
                 : fmt(host, sizeof host, "%s", path) < 0)
            continue;
        struct stat st;
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen |= strcmp(dirs[k], host) == 0;
        if (!seen && stat(host, &st) == 0 && S_ISDIR(st.st_mode))
            fmt(dirs[n++], 4096, "%s", host);
    }
    regfree(&re);
    return n;
}

/* The first ELF file in DIRS whose DT_NEEDED names NEED: who needs the
 * library that "cannot open shared object file" names. */
static bool find_requirer(char dirs[][4096], size_t n_dirs, const char *need, char *out, size_t cap)
{
    for (size_t d = 0; d < n_dirs; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir)
            continue;
        struct dirent *e;
        size_t seen = 0;
        bool found = false;
        while (!found && (e = readdir(dir)) && seen++ < MAX_SCAN_FILES) {
            if (!strstr(e->d_name, ".so") || strcmp(e->d_name, need) == 0)
                continue;
            char path[8192];
            fmt(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            struct td_err err = {0};
            struct td_object *o = td_object_open(path, NULL, NULL, &err);
            if (!o)
                continue;
            for (uint32_t i = 0; o->kind == TD_FILE_ELF && i < o->u.elf.needed_count; i++)
                if (strcmp(o->u.elf.needed[i], need) == 0)
                    found = true;
            td_object_free(o);
            if (found)
                fmt(out, cap, "%s", path);
        }
        closedir(dir);
        if (found)
            return true;
    }
    return false;
}

static void add_line(struct local *l, const char *fmt, ...) TD_PRINTF(2, 3);
static void add_line(struct local *l, const char *format, ...)
{
    if (l->n_lines == sizeof l->lines / sizeof l->lines[0])
        return;
    va_list ap;
    va_start(ap, format);
    vsnprintf(l->lines[l->n_lines++], sizeof l->lines[0], format, ap);
    va_end(ap);
}

static const char *dir_of(const char *path, char *out, size_t cap)
{
    fmt(out, cap, "%s", path);
    char *s = strrchr(out, strchr(out, '\\') ? '\\' : '/');
    if (s)
        *s = '\0';
    return out;
}

/* Each dependency the graph could not find: who needs it and where the
 * loader looked (the directories, in order, a few of them). */
static void missing_lines(struct local *l)
{
    for (size_t i = 0; i < l->g.n_edges; i++) {
        const struct td_edge *e = &l->g.edges[i];
        if (e->to || e->res.in_shared_cache || e->weak)
            continue;
        char tried[1024] = "";
        size_t shown = 0;
        for (size_t k = 0; k < e->res.n_probes && shown < MAX_SHOWN_DIRS; k++) {
            char d[4096];
            const struct td_probe *p = &e->res.probes[k];
            if (!p->path)
                continue;
            if (p->rule == TD_RULE_LD_CACHE)
                fmt(d, sizeof d, "%s", p->path); /* the cache file, not its directory */
            else
                dir_of(p->path, d, sizeof d);
            if (strstr(tried, d))
                continue;
            fmt(tried + strlen(tried), sizeof tried - strlen(tried), "%s%s", shown ? ", " : "", d);
            shown++;
        }
        add_line(l, "%s needs %s%s, which is in none of the %zu places the loader tries (%s%s)",
                 e->from->name, e->name, e->delay ? " (delay-loaded)" : "", e->res.n_probes, tried,
                 e->res.n_probes > shown ? ", ..." : "");
    }
}

/* For an undefined symbol: which loaded library should define it (the one
 * its version names), and any other copy of a needed library, in the
 * directories of the closure, that does define it. */
static void symbol_lines(struct local *l, const char *symbol, const char *version)
{
    if (!symbol)
        return;
    uint32_t h = td_elf_gnu_hash(symbol);
    struct td_elf_sym sym;
    for (size_t i = 0; i < l->g.count; i++) {
        /* The graph's objects hold headers only (binding reads their
         * tables with pread): each is opened whole for the lookup. */
        struct td_err ignore = {0};
        struct td_object *o =
            l->g.objects[i]->kind == TD_FILE_ELF
                ? td_object_open(l->g.objects[i]->host_path, l->g.objects[i]->path, NULL, &ignore)
                : NULL;
        bool defines =
            o && o->kind == TD_FILE_ELF && td_elf_lookup(&o->u.elf, symbol, h, NULL, &sym);
        if (defines)
            add_line(l, "%s defines %s and is loaded: the reference comes from elsewhere", o->path,
                     symbol);
        td_object_free(o);
        if (defines)
            return;
    }
    const struct td_object *root = l->g.count ? l->g.objects[0] : NULL;
    if (!root || root->kind != TD_FILE_ELF)
        return;
    char dirs[MAX_SCAN_DIRS][4096];
    size_t n_dirs = 0;
    for (size_t i = 0; i < l->g.count && n_dirs < MAX_SCAN_DIRS; i++) {
        char d[4096];
        dir_of(l->g.objects[i]->host_path, d, sizeof d);
        bool seen = false;
        for (size_t k = 0; k < n_dirs; k++)
            seen |= strcmp(dirs[k], d) == 0;
        if (!seen)
            fmt(dirs[n_dirs++], sizeof dirs[0], "%s", d);
    }
    /* Each direct need of the requirer, by name: is there a copy elsewhere that defines it? */
    for (uint32_t n = 0; n < root->u.elf.needed_count; n++) {
        const char *need = root->u.elf.needed[n];
        const struct td_object *taken = td_graph_find(&l->g, need);
        for (size_t d = 0; d < n_dirs; d++) {
            DIR *dir = opendir(dirs[d]);
            struct dirent *e;
            while (dir && (e = readdir(dir))) {
                char path[8192];
                fmt(path, sizeof path, "%s/%s", dirs[d], e->d_name);
                if (taken && strcmp(path, taken->host_path) == 0)
                    continue;
                struct td_err err = {0};
                struct td_object *o = strncmp(e->d_name, need, strlen(need) - 1) == 0
                                          ? td_object_open(path, NULL, NULL, &err)
                                          : NULL;
                if (o && o->kind == TD_FILE_ELF && o->identity && strcmp(o->identity, need) == 0 &&
                    td_elf_lookup(&o->u.elf, symbol, h, NULL, &sym))
                    add_line(l,
                             "%s needs %s%s%s, which %s defines; the loader takes %s, which does "
                             "not: that copy is older than the one %s was built against",
                             root->name, symbol, version ? "@" : "", version ? version : "", path,
                             taken ? taken->path : need, root->name);
                td_object_free(o);
            }
            if (dir)
                closedir(dir);
        }
    }
    if (l->n_lines == 0) {
        char needs[1024] = "";
        for (uint32_t n = 0; n < root->u.elf.needed_count; n++) {
            const struct td_object *o = td_graph_find(&l->g, root->u.elf.needed[n]);
            fmt(needs + strlen(needs), sizeof needs - strlen(needs), "%s%s (%s)", n ? ", " : "",
                root->u.elf.needed[n], o ? o->path : "not found");
        }
        add_line(l,
                 "no library %s loads defines %s; it should come from one of its direct needs: "
                 "%s, so the copy found is older or a different build than the one it was linked "
                 "against",
                 root->name, symbol, needs);
    }
}

/* Runs the graph on the file the message is about, when it is here. */
static void analyse(const struct td_explain *x, const char *root, struct local *l)
{
    const struct td_explain_fields *f = &x->fields;
    const char *path = NULL;
    if (f->symbol && f->file)
        path = f->file, l->role = "needs the missing symbol";
    else if (f->needed_by && on_this_machine(f->needed_by, root, l->host, sizeof l->host))
        path = f->needed_by, l->role = "needs the missing file";
    else if (f->file && on_this_machine(f->file, root, l->host, sizeof l->host))
        path = f->file, l->role = "was being loaded";
    if (path && !on_this_machine(path, root, l->host, sizeof l->host))
        path = NULL;
    if (!path && f->file_name) {
        char dirs[MAX_SCAN_DIRS][4096];
        size_t n = mentioned_dirs(x->text, root, dirs, MAX_SCAN_DIRS);
        if (find_requirer(dirs, n, f->file_name, l->host, sizeof l->host))
            path = l->host, l->role = "needs the missing file (found by its DT_NEEDED)";
    }
    if (!path)
        return;
    fmt(l->target, sizeof l->target, "%s", path);
    const char *files[1] = {l->host};
    struct td_deps_request req = {.files = files, .n_files = 1, .root = root};
    struct td_err err = {0};
    if (td_deps_build(&req, &l->g, &l->plan, &err) != 0) {
        add_line(l, "%s could not be analysed: %s", l->host, err.msg);
        return;
    }
    l->built = true;
    missing_lines(l);
    if (f->symbol)
        symbol_lines(l, f->symbol, f->version);
}

/* The findings: the catalogue's answer first, then what the graph found. */
static void collect_findings(const struct td_explain *x, const struct local *l,
                             struct td_findings *out)
{
    const struct td_explain_fields *f = &x->fields;
    for (size_t i = 0; i < x->n_best; i++) {
        const struct td_explain_match *m = &x->matches[i];
        const char *lib = td_explain_capture(m, "file");
        td_findings_add(out, m->severity, m->kind,
                        lib            ? lib
                        : f->file_name ? f->file_name
                                       : f->file,
                        f->needed_by, f->symbol, m->fix, "%s (%s, %s)", m->cause, m->id, m->source);
    }
    for (size_t i = 0; l->built && i < l->g.findings.count; i++) {
        const struct td_finding *g = &l->g.findings.items[i];
        if (g->severity == TD_SEV_INFO)
            continue;
        td_findings_add(out, g->severity, g->kind, g->library, g->needed_by, g->symbol, g->fix,
                        "%s", g->detail);
    }
}

static const char *platform_of(const struct td_explain *x, const struct local *l)
{
    if (l->built)
        return td_platform_name(l->g.cfg.platform);
    return x->fields.platform ? x->fields.platform : td_host_platform();
}

/* ---- views ---- */

static void json_fields(struct td_jsonw *w, const struct td_explain_fields *f)
{
    td_jw_key(w, "fields");
    td_jw_begin_object(w);
    td_jw_kstr(w, "file", f->file);
    td_jw_kstr(w, "file_name", f->file_name);
    td_jw_kstr(w, "needed_by", f->needed_by);
    td_jw_kstr(w, "module", f->module);
    td_jw_kstr(w, "symbol", f->symbol);
    td_jw_kstr(w, "version", f->version);
    td_jw_kstr(w, "error_code", f->error_code);
    td_jw_kstr(w, "win32_name", f->win32_name);
    td_jw_kstr(w, "ntstatus", f->ntstatus);
    td_jw_kstr(w, "ntstatus_name", f->ntstatus_name);
    td_jw_kstr(w, "language", f->language);
    td_jw_kstr(w, "cuda_driver", f->cuda_driver);
    td_jw_key(w, "cuda_versions");
    td_jw_begin_array(w);
    for (int i = 0; i < 2; i++)
        if (f->cuda_versions[i])
            td_jw_string(w, f->cuda_versions[i]);
    td_jw_end_array(w);
    td_jw_kstr(w, "gpu_arch", f->gpu_arch);
    td_jw_kstr(w, "platform", f->platform);
    td_jw_end_object(w);
}

static void write_json(const struct td_explain *x, const struct local *l,
                       const struct td_findings *findings)
{
    static struct td_jsonw w;
    td_jw_init(&w, stdout, true);
    td_envelope_begin(&w, "explain", platform_of(x, l));
    td_envelope_findings(&w, findings);
    td_jw_key(&w, "explain");
    td_jw_begin_object(&w);
    td_jw_kbool(&w, "matched", x->n_matches > 0);
    td_jw_kstr(&w, "input_encoding", l->input_encoding);
    const struct td_explain_match *m = x->n_matches ? &x->matches[0] : NULL;
    td_jw_kstr(&w, "id", m ? m->id : NULL);
    td_jw_kstr(&w, "kind", m ? m->kind : NULL);
    td_jw_kstr(&w, "cause", m ? m->cause : NULL);
    td_jw_kstr(&w, "fix", m ? m->fix : NULL);
    td_jw_kstr(&w, "source", m ? m->source : NULL);
    td_jw_kbool(&w, "language_neutral", m && m->language_neutral);
    json_fields(&w, &x->fields);
    td_jw_key(&w, "matches");
    td_jw_begin_array(&w);
    for (size_t i = 0; i < x->n_matches; i++) {
        td_jw_begin_object_inline(&w);
        td_jw_kstr(&w, "id", x->matches[i].id);
        td_jw_kuint(&w, "specificity", x->matches[i].specificity);
        td_jw_kbool(&w, "best", i < x->n_best);
        td_jw_kstr(&w, "source", x->matches[i].source);
        td_jw_end_object(&w);
    }
    td_jw_end_array(&w);
    td_jw_key(&w, "on_this_machine");
    if (!l->built) {
        td_jw_null(&w);
    } else {
        td_jw_begin_object(&w);
        td_jw_kstr(&w, "file", l->target);
        td_jw_kstr(&w, "host_path", l->host);
        td_jw_kstr(&w, "role", l->role);
        td_jw_kstr(&w, "platform", td_platform_name(l->g.cfg.platform));
        td_jw_kstr(&w, "profile", td_profile_name(l->g.cfg.profile));
        td_jw_key(&w, "really");
        td_jw_begin_array(&w);
        for (size_t i = 0; i < l->n_lines; i++)
            td_jw_string(&w, l->lines[i]);
        td_jw_end_array(&w);
        td_jw_end_object(&w);
    }
    td_jw_end_object(&w);
    td_envelope_end(&w);
}

static void text_field(const struct td_term *t, const char *label, const char *v)
{
    if (v)
        fprintf(t->out, "  %s%-13s%s %s\n", td_term_style(t, TD_STYLE_DIM), label,
                td_term_style(t, TD_STYLE_RESET), v);
}

static void write_text(const struct td_explain *x, const struct local *l,
                       const struct td_findings *findings, const struct td_term *t)
{
    const struct td_explain_fields *f = &x->fields;
    const char *b = td_term_style(t, TD_STYLE_BOLD), *r = td_term_style(t, TD_STYLE_RESET);
    if (!x->n_matches)
        fprintf(t->out, "%sNo known error message matches this text.%s\n", b, r);
    for (size_t i = 0; i < x->n_best; i++) {
        const struct td_explain_match *m = &x->matches[i];
        fprintf(t->out, "%s%s%s  [%s]%s\n", b, m->id, r, m->kind,
                m->language_neutral ? "  (matched across languages)" : "");
        text_field(t, "cause", m->cause);
        text_field(t, "fix", m->fix);
        text_field(t, "source", m->source);
    }
    fprintf(t->out, "%sWhat the message says%s\n", b, r);
    text_field(t, "failed", f->file);
    text_field(t, "needed by", f->needed_by);
    text_field(t, "module", f->module);
    text_field(t, "symbol", f->symbol);
    text_field(t, "version", f->version);
    char code[128] = "";
    if (f->error_code)
        fmt(code, sizeof code, "%s%s%s%s", f->error_code, f->win32_name ? " (" : "",
            f->win32_name ? f->win32_name : "", f->win32_name ? ")" : "");
    text_field(t, "error code", code[0] ? code : NULL);
    text_field(t, "NTSTATUS", f->ntstatus);
    text_field(t, "language", f->language);
    text_field(t, "CUDA (driver)", f->cuda_driver);
    text_field(t, "GPU arch", f->gpu_arch);
    if (l->built) {
        fprintf(t->out, "%sOn this machine%s: %s %s (%s, profile %s)\n", b, r, l->host, l->role,
                td_platform_name(l->g.cfg.platform), td_profile_name(l->g.cfg.profile));
        for (size_t i = 0; i < l->n_lines; i++)
            fprintf(t->out, "  %s\n", l->lines[i]);
    } else if (l->n_lines) {
        fprintf(t->out, "  %s\n", l->lines[0]);
    }
    if (x->n_matches > x->n_best) {
        fprintf(t->out, "%sAlso matches%s", b, r);
        for (size_t i = x->n_best; i < x->n_matches; i++)
            fprintf(t->out, "%s %s", i > x->n_best ? "," : "", x->matches[i].id);
        fprintf(t->out, "\n");
    }
    if (findings->count) {
        fprintf(t->out, "%sFindings%s\n", b, r);
        td_findings_text(t, findings);
    }
    if (!x->n_matches && !l->built)
        fprintf(t->out, "Run `torchdoctor check` to examine this machine's install instead.\n");
}

static void write_markdown(const struct td_explain *x, const struct local *l,
                           const struct td_findings *findings)
{
    const struct td_explain_fields *f = &x->fields;
    printf("## torchdoctor explain\n\n");
    if (!x->n_matches)
        printf("No known error message matches this text; run `torchdoctor check`.\n\n");
    for (size_t i = 0; i < x->n_best; i++)
        printf("**%s** (`%s`): %s\n\n- fix: %s\n- source: %s\n\n", x->matches[i].id,
               x->matches[i].kind, x->matches[i].cause, x->matches[i].fix, x->matches[i].source);
    printf("| field | value |\n|---|---|\n");
    const char *rows[][2] = {
        {"failed", f->file},       {"needed by", f->needed_by}, {"module", f->module},
        {"symbol", f->symbol},     {"version", f->version},     {"error code", f->error_code},
        {"NTSTATUS", f->ntstatus}, {"language", f->language},   {"CUDA (driver)", f->cuda_driver}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i][1])
            printf("| %s | `%s` |\n", rows[i][0], rows[i][1]);
    if (l->built) {
        printf("\n### On this machine (`%s`)\n\n", l->host);
        for (size_t i = 0; i < l->n_lines; i++)
            printf("- %s\n", l->lines[i]);
    }
    if (findings->count) {
        printf("\n| severity | kind | library | detail |\n|---|---|---|---|\n");
        for (size_t i = 0; i < findings->count; i++) {
            const struct td_finding *g = &findings->items[i];
            printf("| %s | %s | `%s` | %s |\n", td_severity_name(g->severity), g->kind,
                   g->library ? g->library : "", g->detail);
        }
    }
}

int td_cmd_explain(int argc, char **argv)
{
    struct explain_args a = {.format = "text", .color = "auto"};
    if (parse_args(argc, argv, &a) != 0)
        return TD_EXIT_USAGE;
    if (strcmp(a.format, "text") && strcmp(a.format, "json") && strcmp(a.format, "markdown")) {
        fprintf(stderr, "torchdoctor explain: --format must be text, json or markdown\n");
        return TD_EXIT_USAGE;
    }
    size_t len = 0;
    char *input = read_input(&a, &len);
    if (!input || strspn(input, " \t\r\n") == len) {
        fprintf(stderr, "torchdoctor explain: no message to explain (give it as arguments, or on "
                        "standard input with -)\n");
        free(input);
        return TD_EXIT_USAGE;
    }
    struct td_decoded text;
    int decoded = td_text_decode(input, len, &text);
    free(input);
    if (decoded != 0)
        return TD_EXIT_USAGE;
    input = text.utf8, len = text.len;
    struct td_explain x;
    struct td_err err = {0};
    if (td_explain_text(input, len, &x, &err) != 0) {
        fprintf(stderr, "torchdoctor explain: %s\n", err.msg);
        free(input);
        return TD_EXIT_USAGE;
    }
    free(input);
    static struct local l;
    analyse(&x, a.root, &l);
    fmt(l.input_encoding, sizeof l.input_encoding, "%s", text.encoding);
    struct td_findings findings = {0};
    collect_findings(&x, &l, &findings);
    if (strcmp(a.format, "json") == 0) {
        write_json(&x, &l, &findings);
    } else if (strcmp(a.format, "markdown") == 0) {
        write_markdown(&x, &l, &findings);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a.color);
        write_text(&x, &l, &findings, &t);
    }
    fflush(stdout);
    int rc = td_findings_count(&findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    td_findings_free(&findings);
    if (l.built)
        td_graph_free(&l.g);
    td_arena_free(&l.plan);
    td_explain_free(&x);
    return rc;
}
