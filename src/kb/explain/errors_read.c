/* The structural reading of a pasted text, done before any catalogue row is
 * tried: every file name and path it holds (any OS, quoted or not), every
 * symbol (Itanium or MSVC mangled, or plain; with its version and the
 * library its namespace belongs to), every version token, every error code,
 * and which layer raised the message (data/error_raisers.tsv). The kind of
 * a finding follows from raiser, operation and code; the catalogue then
 * adds the known cause (docs/explain.md "How explain reads a text"). */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "base/demangle.h"
#include "kb/explain/errors_internal.h"
#include "kb/kb.h"

enum {
    MAX_RAISERS = 320,
    /* regmatch_t slots a raiser's match fills: a row's file group must be
     * below it (td_explain_raiser_bad_groups says which is not) */
    RAISER_SLOTS = 16,
    MAX_OWNERS = 64,
    MAX_CODES = 160,
    MAX_SOURCES = 16,
    MAX_STATUSES = 16,
    TEXT_CAP = 2048,
    NAME_CAP = 512
};

struct raiser_row {
    const char *raiser, *operation, *kind, *library, *detail, *fix, *source, *pattern;
    int order;
    size_t row;         /* its place in the file: ties in order keep it (qsort is not stable) */
    int group;          /* the pattern's group that holds the file, 0: none */
    char needle[64];    /* td_ere_needle's run of text every match holds, "" */
    bool needles_found; /* NEEDLES found: at the first text that holds NEEDLE */
    struct td_ere_needles needles; /* texts one of which every match holds */
    struct td_lazy_re re;
};
struct owner_row {
    const char *how, *text, *owner; /* how: demangled (prefix), name (prefix), version (prefix) */
};
struct code_row {
    const char *space, *value, *name, *message, *kind, *library, *source;
};
/* data/windows_load_status.tsv: an NTSTATUS a failed image load ends with,
 * its name and the Win32 error LoadLibrary makes of it */
struct status_row {
    uint32_t status;
    const char *name;
    int error;
};
/* data/cuda_source_modules.tsv; library: windows, linux, macos */
struct source_row {
    const char *match, *library[3], *detail, *fix, *source;
};

static struct {
    bool loaded;
    struct raiser_row raisers[MAX_RAISERS];
    size_t n_raisers;
    bool raisers_dropped; /* the table had more rows than MAX_RAISERS */
    struct owner_row owners[MAX_OWNERS];
    size_t n_owners;
    struct code_row codes[MAX_CODES];
    size_t n_codes;
    struct source_row sources[MAX_SOURCES];
    size_t n_sources;
    struct status_row statuses[MAX_STATUSES];
    size_t n_statuses;
    struct td_arena arena; /* the tables' text; lives as long as the program */
} g_rd;

static const char *keep(const char *s)
{
    return td_arena_strdup(&g_rd.arena, s);
}

static const char *keep_or_null(const char *s)
{
    return td_explain_keep_cell(&g_rd.arena, s);
}

/* A table pattern with its \t and \n written as escapes made real, inside
 * bracket expressions too (where POSIX would read the backslash as itself). */
static const char *decode_escapes(const char *cell)
{
    char *out = td_arena_strdup(&g_rd.arena, cell);
    size_t o = 0;
    for (const char *p = cell; out && *p; p++) {
        if (p[0] == '\\' && (p[1] == 't' || p[1] == 'n')) {
            out[o++] = p[1] == 't' ? '\t' : '\n';
            p++;
        } else {
            out[o++] = *p;
        }
    }
    if (out)
        out[o] = '\0';
    return out;
}

static int by_order(const void *x, const void *y)
{
    const struct raiser_row *a = x, *b = y;
    if (a->order != b->order)
        return (a->order > b->order) - (a->order < b->order);
    return (a->row > b->row) - (a->row < b->row);
}

static void load_raisers(void)
{
    static const char *const cols[] = {"raiser", "operation", "kind",   "library",
                                       "group",  "pattern",   "detail", "fix",
                                       "source", "order",     NULL};
    struct td_table t;
    if (!td_table_open(&t, "error_raisers", cols))
        return;
    while (g_rd.n_raisers < MAX_RAISERS && td_table_next(&t)) {
        struct raiser_row *r = &g_rd.raisers[g_rd.n_raisers];
        r->row = g_rd.n_raisers++;
        r->raiser = keep(td_table_cell(&t, 0));
        r->operation = keep(td_table_cell(&t, 1));
        r->kind = keep_or_null(td_table_cell(&t, 2));
        r->library = keep_or_null(td_table_cell(&t, 3));
        r->group = atoi(td_table_cell(&t, 4));
        r->detail = keep(td_table_cell(&t, 6));
        r->fix = keep(td_table_cell(&t, 7));
        r->source = keep(td_table_cell(&t, 8));
        r->pattern = decode_escapes(td_table_cell(&t, 5));
        r->order = atoi(td_table_cell(&t, 9));
        if (r->pattern)
            td_ere_needle(r->pattern, r->needle, sizeof r->needle);
    }
    /* a row past the cap would be dropped without a word: say so instead */
    g_rd.raisers_dropped = td_explain_rows_left(&t, g_rd.n_raisers, MAX_RAISERS);
    qsort(g_rd.raisers, g_rd.n_raisers, sizeof g_rd.raisers[0], by_order);
}

static void load_owners(void)
{
    static const char *const cols[] = {"match", "owner", NULL};
    struct td_table t;
    if (!td_table_open(&t, "symbol_owners", cols))
        return;
    while (g_rd.n_owners < MAX_OWNERS && td_table_next(&t)) {
        const char *m = td_table_cell(&t, 0), *colon = strchr(m, ':');
        if (!colon)
            continue;
        struct owner_row *o = &g_rd.owners[g_rd.n_owners++];
        o->how = td_arena_strndup(&g_rd.arena, m, (size_t)(colon - m));
        o->text = keep(colon + 1);
        o->owner = keep(td_table_cell(&t, 1));
    }
}

static void load_codes(void)
{
    static const char *const cols[] = {"space", "value",   "name",   "message",
                                       "kind",  "library", "source", NULL};
    struct td_table t;
    if (!td_table_open(&t, "error_codes", cols))
        return;
    while (g_rd.n_codes < MAX_CODES && td_table_next(&t)) {
        struct code_row *c = &g_rd.codes[g_rd.n_codes++];
        c->space = keep(td_table_cell(&t, 0));
        c->value = keep(td_table_cell(&t, 1));
        c->name = keep_or_null(td_table_cell(&t, 2));
        c->message = keep_or_null(td_table_cell(&t, 3));
        c->kind = keep_or_null(td_table_cell(&t, 4));
        c->library = keep_or_null(td_table_cell(&t, 5));
        c->source = keep_or_null(td_table_cell(&t, 6));
    }
}

static void load_sources(void)
{
    static const char *const cols[] = {"match",  "windows", "linux",  "macos",
                                       "detail", "fix",     "source", NULL};
    struct td_table t;
    if (!td_table_open(&t, "cuda_source_modules", cols))
        return;
    while (g_rd.n_sources < MAX_SOURCES && td_table_next(&t)) {
        struct source_row *r = &g_rd.sources[g_rd.n_sources++];
        r->match = keep(td_table_cell(&t, 0));
        for (int k = 0; k < 3; k++)
            r->library[k] = keep_or_null(td_table_cell(&t, 1 + k));
        r->detail = keep_or_null(td_table_cell(&t, 4));
        r->fix = keep_or_null(td_table_cell(&t, 5));
        r->source = keep(td_table_cell(&t, 6));
    }
}

static void load_statuses(void)
{
    static const char *const cols[] = {"status", "name", "error", NULL};
    struct td_table t;
    if (!td_table_open(&t, "windows_load_status", cols))
        return;
    while (g_rd.n_statuses < MAX_STATUSES && td_table_next(&t)) {
        struct status_row *r = &g_rd.statuses[g_rd.n_statuses++];
        r->status = (uint32_t)strtoul(td_table_cell(&t, 0), NULL, 16);
        r->name = keep(td_table_cell(&t, 1));
        r->error = atoi(td_table_cell(&t, 2));
    }
}

static void load_tables(void)
{
    if (g_rd.loaded)
        return;
    g_rd.loaded = true;
    load_raisers();
    load_owners();
    load_codes();
    load_sources();
    load_statuses();
}

/* ---- files ---- */

static bool name_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '.' || c == '+' || c == '-' || c == '~' || c >= 0x80;
}

/* A character that may stand in a path outside quotes. */
static bool path_char(unsigned char c)
{
    return c > ' ' && !strchr("\"'`()<>|*?,;=[]{}:", c);
}

/* Whether S is a stack frame's "at " glued to the word before it: a paste
 * that lost the line break before "    at f (file:line)" (JavaScript's,
 * Java's and .NET's frames start so) leaves "addon.nodeat process.dlopen (". */
static bool glued_frame(const char *s)
{
    if (strncmp(s, "at ", 3) != 0 || !(isalpha((unsigned char)s[3]) || s[3] == '_'))
        return false;
    const char *eol = strchr(s, '\n');
    const char *paren = strchr(s, '(');
    return paren && (!eol || paren < eol);
}

static bool ext_at(const char *p, const char *ext)
{
    size_t n = strlen(ext);
    return strncasecmp(p, ext, n) == 0 &&
           ((!isalnum((unsigned char)p[n]) && p[n] != '_') || glued_frame(p + n));
}

/* Where a name that runs back to NAME really starts when a path shortened
 * with an ellipsis ("...\\app.asar.un...chuanyunsdk.node", a dialog that cut
 * a long path: "..." or U+2026) runs into it: after the ellipsis. */
static const char *after_ellipsis(const char *name, const char *dot)
{
    const char *start = name;
    for (const char *q = name; q + 2 < dot; q++) {
        if (q[0] == '.' && q[1] == '.' && q[2] == '.') {
            while (q < dot && *q == '.')
                q++;
            start = q;
            q--;
        } else if ((unsigned char)q[0] == 0xe2 && (unsigned char)q[1] == 0x80 &&
                   (unsigned char)q[2] == 0xa6) {
            start = q + 3;
            q += 2;
        }
    }
    return start;
}

/* The end of a library file name whose extension starts at DOT ("." of
 * ".dll", ".pyd", ".dylib", ".bundle", ".jnilib", ".node", ".so" with its
 * version numbers), or NULL. */
static const char *library_end(const char *dot)
{
    if (ext_at(dot, ".dll") || ext_at(dot, ".pyd"))
        return dot + 4;
    if (ext_at(dot, ".dylib"))
        return dot + 6;
    /* a Mach-O bundle (Ruby's extensions, macOS plugins) is
     * a file; "Foo.bundle/Contents/MacOS/Foo" is a bundle folder, whose
     * binary is the path's last part */
    if (ext_at(dot, ".bundle") && dot[7] != '/')
        return dot + 7;
    if (ext_at(dot, ".jnilib")) /* a JNI library on macOS before Java 7 */
        return dot + 7;
    if (ext_at(dot, ".node")) /* a Node.js addon: a DLL / shared object by another name */
        return dot + 5;
    /* Windows plug-ins are DLLs by other names, loaded by their host with LoadLibrary: 3ds
     * Max's (.dlo objects, .dle exporters, .dlu utilities, .dlm modifiers, .dli importers,
     * .dlr renderers, .dlt materials, .gup global utilities: Autodesk's 3ds Max SDK, "Plug-in
     * File Extensions"), X-Plane's .xpl (developer.x-plane.com/sdk, "a plugin is a DLL"),
     * Max/MSP's .mxe and .mxe64 (Cycling '74's Max SDK), Photoshop's .8bf filters, AutoCAD's
     * .arx (ObjectARX), OpenFX's .ofx and After Effects' .aex, and the .asi plug-ins
     * that an ASI loader (a proxy dinput8.dll or d3d9.dll in a game's folder) loads with
     * LoadLibrary: DLLs renamed (ThirteenAG/Ultimate-ASI-Loader, README) */
    static const char *const plugin_exts[] = {".dlo", ".dle", ".dlu", ".dlm",   ".dli", ".dlr",
                                              ".dlt", ".gup", ".xpl", ".mxe64", ".mxe", ".8bf",
                                              ".arx", ".ofx", ".aex", ".asi"};
    for (size_t i = 0; i < sizeof plugin_exts / sizeof plugin_exts[0]; i++)
        if (ext_at(dot, plugin_exts[i]))
            return dot + strlen(plugin_exts[i]);
    /* Windows' own modules by other names, which LoadLibrary and the import
     * table load as DLLs: a Control Panel item is a DLL named .cpl (Microsoft
     * Learn, "Developing Control Panel Items"), an ActiveX control one named
     * .ocx (Microsoft Learn, "ActiveX Controls") */
    if (ext_at(dot, ".cpl") || ext_at(dot, ".ocx"))
        return dot + 4;
    if (strncmp(dot, ".so", 3) != 0 || isalnum((unsigned char)dot[3]) || dot[3] == '_')
        return NULL;
    const char *e = dot + 3;
    while (e[0] == '.' && isalnum((unsigned char)e[1])) {
        const char *q = e + 1;
        while (isalnum((unsigned char)*q))
            q++;
        e = q;
    }
    return e;
}

struct run_memo {
    const char *from, *start;
};

/* The start of the run of path characters that ends at FROM: where the run
 * reaches the point asked before (RUN's from), that one's start, so the
 * paths of a long line without blanks ("/a.so" repeated: 13 s over 240 KB)
 * are read back once, not each from its own name to the line's start. */
static const char *path_run_start(const char *text, const char *from, struct run_memo *last)
{
    const char *q = from;
    while (q > text && path_char((unsigned char)q[-1])) {
        if (q == last->from) {
            q = last->start;
            break;
        }
        q--;
    }
    last->from = from, last->start = q;
    return q;
}

/* Where a look back for a quote that opens a path stops: at a character
 * that may stand neither in a path nor between a quoted path's words (a
 * quote, a tab, a line break). */
static bool quote_walk_stop(unsigned char c)
{
    return !path_char(c) && c != ' ' && c != ':' && c != '(' && c != ')';
}

/* A forward reading of a text, for the look back from each path's start for
 * the quote that may open it: the last stop before AT, the quotes of its
 * kind before it on its line, and the last separator. read_files asks in
 * text order, so each byte of a long line is read once, not again from
 * every path on it (a pasted line of 240 KB with a path every few words
 * cost seconds). */
struct quote_scan {
    const char *text, *at; /* [text, at) is read */
    const char *stop;      /* the last stop in [text, at), or NULL */
    int stop_before;       /* a quote stop's kind before it on its line */
    int singles, doubles;  /* quotes on at's line before at */
    const char *sep;       /* the last '/' or '\\' on at's line before at, or NULL */
    struct run_memo run;   /* the last path_run_start asked, and its answer */
};

static void quote_scan_to(struct quote_scan *sc, const char *to)
{
    if (to < sc->at) { /* asked out of order: read again from the line's start */
        const char *line = to;
        while (line > sc->text && line[-1] != '\n')
            line--;
        *sc = (struct quote_scan){.text = sc->text,
                                  .at = line,
                                  .stop = line > sc->text ? line - 1 : NULL,
                                  .run = sc->run};
    }
    for (; sc->at < to; sc->at++) {
        unsigned char c = (unsigned char)*sc->at;
        if (c == '\n')
            sc->singles = sc->doubles = 0, sc->sep = NULL;
        if (quote_walk_stop(c)) {
            sc->stop = sc->at;
            sc->stop_before = c == '\'' ? sc->singles : sc->doubles;
        }
        sc->singles += c == '\'';
        sc->doubles += c == '"';
        if (c == '/' || c == '\\')
            sc->sep = sc->at;
    }
}

/* Where the path that ends with the file name at NAME begins: back over
 * directories, a drive letter, and blanks when the path is quoted (SC: the
 * text read so far, for the quote). */
static const char *path_start(const char *text, const char *name, struct quote_scan *sc)
{
    const char *s = name;
    while (s > text && (s[-1] == '/' || s[-1] == '\\')) {
        const char *q = path_run_start(text, s - 1, &sc->run);
        if (q - text >= 2 && q[-1] == ':' && isalpha((unsigned char)q[-2]) &&
            (q - 2 == text || !name_char((unsigned char)q[-3])))
            q -= 2; /* C:\... */
        s = q;
        if (s > text && (s[-1] == '/' || s[-1] == '\\'))
            continue;
        break;
    }
    /* "\\?\C:\..." (an extended-length path): the path is from the drive */
    if (s[0] == '\\' && isalpha((unsigned char)s[1]) && s[2] == ':')
        s++;
    /* a quoted path may hold blanks ("C:\Program Files\NVIDIA GPU Computing
     * Toolkit\..."): back to the opening quote on the same line, when the
     * quotes of its kind before it on the line are paired and a separator
     * stands between it and the name */
    bool from_drive = isalpha((unsigned char)s[0]) && s[1] == ':' && (s[2] == '\\' || s[2] == '/');
    if (s > text && s[-1] == ' ' && !from_drive) { /* a drive starts its path */
        quote_scan_to(sc, s - 1);
        const char *open = sc->stop;
        /* an apostrophe between letters ("can't find ... in the pkg/_x.so") opens nothing */
        bool apostrophe = open && *open == '\'' && open > text &&
                          isalpha((unsigned char)open[-1]) && isalpha((unsigned char)open[1]);
        if (open && (*open == '"' || *open == '\'') && !apostrophe && sc->stop_before % 2 == 0 &&
            ((sc->sep && sc->sep > open) || memchr(s, '\\', (size_t)(name - s)) ||
             memchr(s, '/', (size_t)(name - s))))
            return open + 1;
    }
    return s;
}

static void add_path(struct td_explain_parts *p, char *path)
{
    if (!path)
        return;
    for (size_t i = 0; i < p->n_files; i++)
        if (strcmp(p->files[i].path, path) == 0)
            return;
    p->files[p->n_files].path = path;
    p->files[p->n_files++].name = td_explain_base_name(path);
}

static void add_file(struct td_explain_parts *p, const char *start, const char *end,
                     const char *name, struct td_arena *a)
{
    if (p->n_files >= TD_PARTS_FILES || end <= name)
        return;
    add_path(p, td_arena_strndup(a, start, (size_t)(end - start)));
}

/* How far before its extension's dot a file's name is looked for: four
 * times the longest name any file system allows. */
enum { NAME_SPAN = 1024 };

static void read_files(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    struct quote_scan sc = {.text = text, .at = text};
    for (const char *dot = strchr(text, '.'); dot; dot = strchr(dot + 1, '.')) {
        const char *end = library_end(dot);
        if (!end || dot == text)
            continue;
        /* a file's name is at most 255 bytes on every system (NAME_MAX,
         * NTFS, APFS): a longer run of name characters before the dot is no
         * one file's name, and walking it back from every dot of a long line
         * ("-a.so" repeated) costs the line's length squared */
        const char *lowest = dot - text > NAME_SPAN ? dot - NAME_SPAN : text;
        const char *name = dot;
        while (name > lowest && name_char((unsigned char)name[-1]))
            name--;
        while (name < dot && (*name == '.' || *name == '-'))
            name++;
        /* a CJK or typographic quote before the name is no part of it
         * ("「cudnn64_5.dll」", "“X.dll”", "：X.dll") */
        while (dot - name > 3 && td_explain_quote_mark(name))
            name += 3;
        const char *cut = after_ellipsis(name, dot);
        bool shortened = cut != name;
        name = cut;
        if (name == dot)
            continue;
        /* ".node" is a file only as a path's last part (or after the ellipsis
         * that shortened the path): Node's stack frames say
         * "Module._extensions..node" */
        if (ext_at(dot, ".node") && !shortened &&
            (name == text || (name[-1] != '/' && name[-1] != '\\')))
            continue;
        const char *word = td_explain_split_name_start(text, name, dot);
        if (word && p->n_files < TD_PARTS_FILES)
            add_path(p, td_explain_joined_name(word, name, end, a));
        else if (!word)
            add_file(p, path_start(text, name, &sc), end, name, a);
        dot = end - 1;
    }
}

/* ---- the file a loader's error stands next to ---- */

/* Whether the N-byte suffix EXT is a source or text file's, which no loader
 * maps: a script or a log quoted before a message is not what failed to load. */
static bool text_file_suffix(const char *ext, size_t n)
{
    static const char *const exts[] = {"py",  "pyx",  "pxd", "c",   "cc",  "cpp",  "cxx",  "h",
                                       "hpp", "cu",   "m",   "go",  "js",  "ts",   "java", "rs",
                                       "rb",  "sh",   "bat", "ps1", "txt", "log",  "json", "yaml",
                                       "yml", "toml", "ini", "cfg", "md",  "html", "xml"};
    return td_explain_one_of(exts, sizeof exts / sizeof *exts, ext, n);
}

/* Whether the N bytes at S may name a module a loader opened, whatever its
 * suffix (a MATLAB .mexw64, a host's plug-in, a program): set off by quotes
 * (QUOTED) or holding a directory, its last part a name with a suffix of one
 * to twelve letters and digits that is no text file's; a colon only after a
 * drive letter ("C:\\", "\\\\?\\C:\\"), so no URL and no command line. */
static bool module_path(const char *s, size_t n, bool quoted)
{
    const char *base = s, *dot = NULL, *end = s + n;
    bool blank = false;
    for (const char *q = s; q < end; q++) {
        bool drive =
            q > s && isalpha((unsigned char)q[-1]) && (q - 1 == s || q[-2] == '\\' || q[-2] == '/');
        if (*q == '\n' || (*q == ':' && !drive))
            return false;
        blank = blank || *q == ' ' || *q == '\t';
        if (*q == '/' || *q == '\\')
            base = q + 1, dot = NULL;
        else if (*q == '.')
            dot = q;
    }
    /* a quoted sentence is no path; a quoted path may hold blanks when it
     * starts at a root ("C:\\Program Files\\...", "/Users/a b/..."), which a
     * command line ("go run cmd\\main.go") does not */
    bool rooted = strchr("/\\~", *s) || (n > 2 && isalpha((unsigned char)s[0]) && s[1] == ':');
    if ((!quoted && base == s) || (blank && (base == s || !rooted)))
        return false;
    if (!dot || dot == base || !isalpha((unsigned char)dot[1]) || end - dot - 1 > 12)
        return false;
    for (const char *q = dot + 1; q < end; q++)
        if (!isalnum((unsigned char)*q) && *q != '_')
            return false;
    return !text_file_suffix(dot + 1, (size_t)(end - dot - 1));
}

/* The last path set off between RS and RE that may name a module
 * (module_path), into *START and *END; false when there is none. A quoted
 * text that is none is passed over, unless its opening mark is a word's
 * apostrophe ("didn't exit ...: '", paired with the path's opening quote):
 * then the scan goes on inside it. */
static bool last_module_path(const char *rs, const char *re, const char **start, const char **end)
{
    bool found = false;
    for (const char *q = rs; q < re;) {
        const char *close = strchr("'\"`", *q) ? memchr(q + 1, *q, (size_t)(re - q - 1)) : NULL;
        if (close) {
            /* a quoted path, or a quoted command line's program, its first word
             * ("`target\\release\\app.exe D:/models/m.gguf`") */
            const char *in = q + 1;
            size_t n = (size_t)(close - in), word = 0;
            while (word < n && in[word] != ' ' && in[word] != '\t')
                word++; /* within the quotes: a text without blanks is long */
            bool whole = module_path(in, n, true);
            if (whole || (word < n && module_path(in, word, true))) {
                *start = in, *end = whole ? close : in + word, found = true;
                q = close + 1;
            } else if (*q == '\'' && q > rs && isalpha((unsigned char)q[-1])) {
                q++; /* an apostrophe ("didn't"), which may pair with a quote after it */
            } else {
                q = close + 1;
            }
            continue;
        }
        const char *w = q;
        while (q < re && (unsigned char)*q > ' ' && !strchr("\"'`()<>|,;[]{}", *q))
            q++;
        const char *e = q;
        while (e > w && (e[-1] == ':' || e[-1] == '.'))
            e--; /* "C:\\x\\a.mexw64:" before the message */
        if (e > w && module_path(w, (size_t)(e - w), false))
            *start = w, *end = e, found = true;
        if (q == w)
            q++;
    }
    return found;
}

/* Where a scan of a text's loader errors, in text order, stands: the start
 * of the last error's line (td_explain_line_start's state) and that error,
 * where the look back for the next one on its line stops (each error's look
 * back is then its own stretch of the line, not the whole line again: a
 * pasted line of 250 KB with an error every few words cost seconds). */
struct error_scan {
    const char *line_at, *seen, *last;
};

/* The module a loader's error at AT is about, when the text sets its path
 * off just before the error: on the same line ("Invalid MEX-file 'X':
 * <message>", "MEX 文件 'X' 无效: <message>", "`X` (exit code: 0xc0000135"), or
 * at the end of the line before, closed by a colon, when the error starts
 * its own line ("'X':\n<message>"); on a line with an error before it
 * (SC's last), after that one, whose path a path before it was. Added to
 * P's files unless a file of that name is there already. */
static void file_before_error(const char *text, const char *at, struct error_scan *sc,
                              struct td_explain_parts *p, struct td_arena *a)
{
    const char *line = td_explain_line_start(&sc->line_at, &sc->seen, at);
    const char *rs = sc->last && sc->last > line ? sc->last : line, *re = at;
    sc->last = at;
    if (rs == line && strspn(line, " \t>*#") >= (size_t)(at - line)) {
        if (line == text)
            return;
        re = line - 1;
        while (re > text && strchr(" \t\r", re[-1]))
            re--;
        if (re == text || re[-1] != ':')
            return;
        for (rs = re; rs > text && rs[-1] != '\n';)
            rs--;
    }
    const char *s, *e;
    if (!last_module_path(rs, re, &s, &e))
        return;
    const char *name = e;
    while (name > s && name[-1] != '/' && name[-1] != '\\')
        name--;
    for (size_t i = 0; i < p->n_files; i++)
        if (strlen(p->files[i].name) == (size_t)(e - name) &&
            strncasecmp(p->files[i].name, name, (size_t)(e - name)) == 0)
            return;
    add_file(p, s, e, name, a);
}

/* Whether CODE is a Win32 error a failed image load ends with
 * (data/windows_load_status.tsv). */
static bool load_error_code(int code)
{
    for (size_t i = 0; i < g_rd.n_statuses; i++)
        if (g_rd.statuses[i].error == code)
            return true;
    return false;
}

/* Whether the token at S (a word of TEXT) spells an NTSTATUS a failed image
 * load ends with: in hex ("0xc0000135"), as the signed or unsigned exit code
 * a shell or subprocess shows (-1073741515, 3221225781), or by name. */
static bool load_status_at(const char *text, const char *s)
{
    if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_' || s[-1] == '-'))
        return false;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    bool number =
        hex || isdigit((unsigned char)s[0]) || (s[0] == '-' && isdigit((unsigned char)s[1]));
    if (!number && strncmp(s, "STATUS_", 7) != 0)
        return false;
    char *end = NULL;
    uint32_t v = 0;
    if (hex)
        v = (uint32_t)strtoull(s + 2, &end, 16);
    else if (number)
        v = (uint32_t)strtoll(s, &end, 10);
    if (number && (end == s || isalnum((unsigned char)*end)))
        return false;
    for (size_t i = 0; i < g_rd.n_statuses; i++) {
        const struct status_row *r = &g_rd.statuses[i];
        size_t n = strlen(r->name);
        if (number ? v == r->status
                   : strncmp(s, r->name, n) == 0 && !isalnum((unsigned char)s[n]) && s[n] != '_')
            return true;
    }
    return false;
}

/* The modules set off next to a loader's error that names none (the
 * system's message of a load error in any language, data/windows_error_
 * messages.tsv; a load's NTSTATUS): whatever their suffix, which the
 * reading by suffix (read_files) does not know. */
static void read_files_at_errors(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    size_t n;
    const struct td_winmsg *m = td_winmsgs(&n);
    for (size_t i = 0; i < n; i++) {
        char stem[512];
        if (!load_error_code(m[i].code) || m[i].stem_len >= sizeof stem)
            continue;
        snprintf(stem, sizeof stem, "%.*s", (int)m[i].stem_len, m[i].message);
        if (strstr(stem, "%1"))
            continue; /* its insert is the file: the fields read it */
        struct error_scan sc = {text, text, NULL};
        for (const char *at = strstr(text, stem); at; at = strstr(at + 1, stem))
            file_before_error(text, at, &sc, p, a);
    }
    struct error_scan sc = {text, text, NULL};
    for (const char *s = text; *s; s++)
        if ((*s == '0' || *s == '-' || *s == '3' || *s == 'S') && load_status_at(text, s))
            file_before_error(text, s, &sc, p, a);
}

/* ---- files named together ---- */

/* Marks the files of P that the text names only inside a list. */
static void mark_listed(const char *text, struct td_explain_parts *p)
{
    enum { MAX_NAMED = 64 };
    const char *at[MAX_NAMED];
    size_t len[MAX_NAMED];
    bool listed[MAX_NAMED];
    size_t n = td_explain_named_files(text, at, len, listed, MAX_NAMED);
    for (size_t f = 0; f < p->n_files; f++) {
        const char *name = p->files[f].name;
        bool some = false, alone = false;
        for (size_t i = 0; i < n; i++)
            if (strlen(name) == len[i] && strncmp(name, at[i], len[i]) == 0) {
                some = true;
                alone = alone || !listed[i];
            }
        p->files[f].listed = some && !alone;
    }
}

/* ---- symbols ---- */

static bool sym_char(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '$';
}

static const char *owner_of(const char *name, const char *demangled, const char *version)
{
    for (size_t i = 0; i < g_rd.n_owners; i++) {
        const struct owner_row *o = &g_rd.owners[i];
        const char *s = strcmp(o->how, "demangled") == 0 ? demangled
                        : strcmp(o->how, "version") == 0 ? version
                                                         : name;
        if (s && strcmp(o->how, "name") == 0 && s[0] == '_' && s[1] == '_' &&
            strncmp(o->text, "__", 2) != 0)
            s++; /* dyld prints C names with the underscore of the Mach-O symbol table */
        else if (s && strcmp(o->how, "name") == 0 && o->text[0] == '_') {
            /* a row for a name with leading underscores of its own
             * (__chkstk_darwin, __kmpc_): the Mach-O underscore, and any more a
             * copy added, are dropped down to the row's own */
            size_t have = strspn(s, "_"), own = strspn(o->text, "_");
            if (have > own && s[have])
                s += have - own;
        }
        if (s && strncmp(s, o->text, strlen(o->text)) == 0)
            return o->owner;
    }
    return NULL;
}

/* What a torch symbol's demangled name betrays about the torch its
 * requirer was built against (data/torch_symbol_abi.tsv), or NULL. */
static const char *torch_abi_of(const char *demangled, struct td_arena *a)
{
    static const char *const cols[] = {"match", "torch", "note", NULL};
    struct td_table t;
    if (!td_table_open(&t, "torch_symbol_abi", cols))
        return NULL;
    while (td_table_next(&t))
        if (strstr(demangled, td_table_cell(&t, 0))) {
            char out[512];
            snprintf(out, sizeof out, "%s: %s", td_table_cell(&t, 1), td_table_cell(&t, 2));
            return td_arena_strdup(a, out);
        }
    return NULL;
}

/* An MSVC decorated name "?Name@ns2@ns1@@...": its scope, outermost first
 * ("ns1::ns2::Name"), for the owner lookup. */
static const char *msvc_scope(const char *s, struct td_arena *a)
{
    const char *end = strstr(s, "@@");
    if (!end || s[0] != '?')
        return NULL;
    const char *parts[8];
    size_t lens[8], n = 0;
    for (const char *p = s + 1; p < end && n < 8;) {
        const char *at = memchr(p, '@', (size_t)(end - p));
        if (!at)
            at = end;
        parts[n] = p;
        lens[n++] = (size_t)(at - p);
        p = at + 1;
    }
    char out[NAME_CAP];
    size_t o = 0;
    for (size_t i = n; i-- > 0 && o + lens[i] + 3 < sizeof out;) {
        memcpy(out + o, parts[i], lens[i]);
        o += lens[i];
        if (i) {
            memcpy(out + o, "::", 2);
            o += 2;
        }
    }
    out[o] = '\0';
    return td_arena_strdup(a, out);
}

/* The scope an Itanium name's leading <nested-name> spells ("_ZN3c105ErrorC2"
 * is in c10::Error), for the owner lookup of a name the demangler refuses:
 * a paste or a title cut it short. NULL when Z holds no such prefix. */
static const char *itanium_scope(const char *z, struct td_arena *a)
{
    if (strncmp(z, "_ZN", 3) != 0)
        return NULL;
    const char *p = z + 3 + strspn(z + 3, "rVK");
    char out[NAME_CAP];
    size_t o = 0;
    if (strncmp(p, "St", 2) == 0) {
        memcpy(out, "std", 3);
        o = 3;
        p += 2;
    }
    while (isdigit((unsigned char)*p) && *p != '0') {
        char *end;
        unsigned long len = strtoul(p, &end, 10);
        if (len > strlen(end) || o + len + 3 > sizeof out)
            break;
        if (o) {
            memcpy(out + o, "::", 2);
            o += 2;
        }
        memcpy(out + o, end, len);
        o += len;
        p = end + len;
    }
    out[o] = '\0';
    return o && strstr(out, "::") ? td_arena_strdup(a, out) : NULL;
}

static void add_symbol(struct td_explain_parts *p, const char *s, size_t n, const char *version,
                       struct td_arena *a)
{
    if (p->n_symbols >= TD_PARTS_SYMBOLS || n < 2)
        return;
    char *name = td_arena_strndup(a, s, n);
    for (size_t i = 0; name && i < p->n_symbols; i++)
        if (strcmp(p->symbols[i].name, name) == 0) {
            if (!p->symbols[i].version && version)
                p->symbols[i].version = version;
            return;
        }
    if (!name)
        return;
    struct td_part_symbol *y = &p->symbols[p->n_symbols++];
    y->name = name;
    y->version = version;
    const char *z = name[0] == '_' && name[1] == '_' && name[2] == 'Z' ? name + 1 : name;
    if (z[0] == '_' && z[1] == 'Z') {
        char buf[NAME_CAP];
        const char *d = td_demangle(z, buf, sizeof buf);
        y->scheme = "itanium";
        y->demangled = d != z && strcmp(d, z) ? td_arena_strdup(a, d) : NULL;
    } else if (name[0] == '?') {
        y->scheme = "msvc";
        y->demangled = msvc_scope(name, a);
    } else {
        y->scheme = "c";
    }
    if (name[0] == 'N' && isdigit((unsigned char)name[1]) && n + 3 < NAME_CAP) {
        /* an Itanium <nested-name> whose "_Z" (dyld's "'__Z") a paste or a
         * title lost: "N2at3mps9MPSStream6commitEb" is _ZN2at3mps9MPSStream6commitEb
         * when it demangles as one */
        char z2[NAME_CAP], buf[NAME_CAP];
        snprintf(z2, sizeof z2, "_Z%s", name);
        const char *d = td_demangle(z2, buf, sizeof buf);
        if (d != z2 && strcmp(d, z2) != 0) {
            y->scheme = "itanium";
            y->demangled = td_arena_strdup(a, d);
        }
    }
    y->owner = owner_of(name, y->demangled ? y->demangled : itanium_scope(z, a), version);
    if (y->owner && y->demangled &&
        (strncmp(y->owner, "libc10", 6) == 0 || strncmp(y->owner, "libtorch", 8) == 0))
        y->torch = torch_abi_of(y->demangled, a);
}

/* After LEAD (a loader's words before a symbol), the symbol and its version. */
static void symbols_after(const char *text, const char *lead, struct td_explain_parts *p,
                          struct td_arena *a)
{
    size_t ll = strlen(lead);
    for (const char *at = strstr(text, lead); at; at = strstr(at + 1, lead)) {
        const char *s = at + ll;
        while (*s == ' ' || *s == '"' || *s == '\'')
            s++;
        /* .NET's "entry point named 'X'", retold "entry point for X" */
        static const char *const words[] = {"named ", "for ", "of ", "the "};
        for (size_t w = 0; w < sizeof words / sizeof *words; w++)
            if (strncmp(s, words[w], strlen(words[w])) == 0) {
                s += strlen(words[w]);
                while (*s == ' ' || *s == '"' || *s == '\'')
                    s++;
            }
        size_t n = 0;
        while (s[n] && (sym_char((unsigned char)s[n]) || s[n] == '?' || s[n] == '@'))
            n++;
        const char *version = NULL;
        const char *v = s + n;
        char *at_sign = n ? memchr(s, '@', n) : NULL;
        if (at_sign && s[0] != '?') {
            /* memcpy@GLIBC_2.14, memcpy@@GLIBC_2.14 */
            const char *vs = at_sign + 1 + (at_sign[1] == '@');
            size_t vl = (size_t)(s + n - vs);
            while (vs[vl] == '.' || isalnum((unsigned char)vs[vl]) || vs[vl] == '_')
                vl++;
            version = td_arena_strndup(a, vs, vl);
            n = (size_t)(at_sign - s);
        } else if (strncmp(v, ", version ", 10) == 0) {
            const char *vs = v + 10;
            size_t vl = strcspn(vs, " \t\n,)'\"");
            version = td_arena_strndup(a, vs, vl);
        }
        add_symbol(p, s, n, version, a);
    }
}

static void read_symbols(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    static const char *const leads[] = {
        "undefined symbol:",
        "Symbol not found:",
        "Cannot load symbol",
        "procedure entry point",
        "entry point",
        "symbol lookup error:",
        "symbol lookup for", /* a host's dlsym/GetProcAddress wrapper: "symbol lookup for
                                cuInit failed: ..." (ollama's gpu_info.h LOAD_SYM) */
        "symbol not found in flat namespace",
        ("\xe6\x97\xa0\xe6\xb3\x95\xe5\xae\x9a\xe4\xbd\x8d\xe7\xa8\x8b\xe5\xba\x8f\xe8\xbe\x93"
         "\xe5\x85\xa5\xe7\x82\xb9"), /* 无法定位程序输入点 */
    };
    for (size_t k = 0; k < sizeof leads / sizeof leads[0]; k++)
        symbols_after(text, leads[k], p, a);
    /* musl: "Error relocating FILE: SYMBOL: symbol not found" */
    for (const char *at = strstr(text, "Error relocating ") ? strstr(text, ": symbol not found")
                                                            : NULL;
         at; at = strstr(at + 1, ": symbol not found")) {
        const char *s = at;
        while (s > text && sym_char((unsigned char)s[-1]))
            s--;
        add_symbol(p, s, (size_t)(at - s), NULL, a);
    }
    /* any other mangled name in the text (a dialog, a log line) */
    for (const char *s = text; *s; s++) {
        if (s > text && (sym_char((unsigned char)s[-1]) || s[-1] == '?'))
            continue;
        if (s[0] == '_' && (s[1] == 'Z' || (s[1] == '_' && s[2] == 'Z')) &&
            (s[1] == 'Z' ? isupper((unsigned char)s[2]) || isdigit((unsigned char)s[2])
                         : isupper((unsigned char)s[3]))) {
            size_t n = 0;
            while (sym_char((unsigned char)s[n]))
                n++;
            if (n > 4)
                add_symbol(p, s, n, NULL, a);
            s += n ? n - 1 : 0;
        } else if (s[0] == '?' && (isalpha((unsigned char)s[1]) || s[1] == '?')) {
            size_t n = 1;
            while (sym_char((unsigned char)s[n]) || s[n] == '@' || s[n] == '?')
                n++;
            bool scope_end = false; /* "@@" closes an MSVC name's scope */
            for (size_t k = 0; k + 1 < n && !scope_end; k++)
                scope_end = s[k] == '@' && s[k + 1] == '@';
            if (n > 4 && scope_end)
                add_symbol(p, s, n, NULL, a);
            s += n - 1;
        }
    }
}

/* ---- versions ---- */

struct version_rule {
    const char *what, *re;
    int group;
    enum { V_AS_IS, V_CU_TAG, V_MAJOR_MINOR_DIGITS, V_PY, V_DRIVER_API, V_CUDNN } form;
};

static const struct version_rule version_rules[] = {
    {"cuda",
     "[Cc][Uu][Dd][Aa][ _-]?([Vv]ersion|[Rr]untime|[Tt]oolkit)?[ =:]*v?([0-9]{1,2}\\.[0-9])", 2,
     V_AS_IS},
    {"cuda", "\\+cu([0-9]{2,3})([^0-9]|$)", 1, V_CU_TAG},
    {"cuda", "cuda([0-9]{3})\\.(so|dll)", 1, V_CU_TAG},
    {"cuda",
     "(cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink|nvrtc-builtins)64_"
     "([0-9]{2,3})",
     2, V_MAJOR_MINOR_DIGITS},
    {"cuda",
     "lib(cudart|cublas|cublasLt|cufft|curand|cusparse|cusolver|nvrtc|nvJitLink)\\.so\\.([0-9]+(\\."
     "[0-9]+)?)",
     2, V_AS_IS},
    {"cudnn", "cudnn[a-z_]*64_([0-9]+)\\.dll", 1, V_AS_IS},
    {"cudnn", "libcudnn[a-z_]*\\.so\\.([0-9]+(\\.[0-9]+)*)", 1, V_AS_IS},
    {"cudnn", "[Cc][Uu][Dd][Nn][Nn] ?([Vv]ersion)?[ =:]*v?([0-9]+\\.[0-9]+(\\.[0-9]+)?)", 2,
     V_AS_IS},
    {"driver", "[Dd]river [Vv]ersion[ =:]*([0-9]{3}\\.[0-9]{2,3}(\\.[0-9]+)?)", 1, V_AS_IS},
    {"driver_cuda", "found version ([0-9]{4,6})", 1, V_DRIVER_API},
    {"glibc", "GLIBC_([0-9]+\\.[0-9]+(\\.[0-9]+)?)", 1, V_AS_IS},
    {"glibcxx", "GLIBCXX_([0-9]+\\.[0-9]+(\\.[0-9]+)?)", 1, V_AS_IS},
    {"cxxabi", "CXXABI_([0-9]+\\.[0-9]+(\\.[0-9]+)?)", 1, V_AS_IS},
    {"python", "cpython-3([0-9]{1,2})", 1, V_PY},
    {"python", "[^A-Za-z0-9]cp3([0-9]{1,2})[^0-9]", 1, V_PY},
    {"python", "python3([0-9]{1,2})\\.dll", 1, V_PY},
    {"python", "[Pp]ython ?3\\.([0-9]{1,2})", 1, V_PY},
    {"nccl", "NCCL version ([0-9]+\\.[0-9]+(\\.[0-9]+)?)", 1, V_AS_IS},
    /* torch: "found runtime version (8, 5, 0)"; TF: "Loaded runtime CuDNN library: 8.1.0",
     * TF 1.x: "Loaded runtime CuDNN library: 6021 (compatibility version 6000)" */
    {"cudnn_runtime", "found runtime version \\(([0-9]+),", 1, V_AS_IS},
    {"cudnn_runtime", "Loaded runtime CuDNN library: ([0-9]+)", 1, V_CUDNN},
    /* the cuDNN the program was built against: torch's "compiled against (8, 5,
     * 0)", TF's "source was compiled with: 8.6.0" or TF 1.x's "with 5105" */
    {"cudnn_built", "compiled against \\(([0-9]+),", 1, V_AS_IS},
    {"cudnn_built", "source was compiled with:? ([0-9]+)", 1, V_CUDNN},
};

enum { N_VERSION_RULES = sizeof version_rules / sizeof version_rules[0] };

static struct {
    bool compiled;
    regex_t re[N_VERSION_RULES];
    bool ok[N_VERSION_RULES];
    struct td_ere_needles needles[N_VERSION_RULES];
} g_vr;

static void add_version(struct td_explain_parts *p, const char *what, const char *value,
                        struct td_arena *a)
{
    if (p->n_versions >= TD_PARTS_VERSIONS || !value)
        return;
    for (size_t i = 0; i < p->n_versions; i++)
        if (strcmp(p->versions[i].what, what) == 0 && strcmp(p->versions[i].value, value) == 0)
            return;
    p->versions[p->n_versions].what = what;
    p->versions[p->n_versions++].value = td_arena_strdup(a, value);
}

static void read_versions(const char *text, const struct td_explain_fields *f,
                          struct td_explain_parts *p, struct td_arena *a)
{
    if (!g_vr.compiled) {
        g_vr.compiled = true;
        for (size_t k = 0; k < N_VERSION_RULES; k++) {
            g_vr.ok[k] = regcomp(&g_vr.re[k], version_rules[k].re, REG_EXTENDED | REG_NEWLINE) == 0;
            td_ere_needles(version_rules[k].re, &g_vr.needles[k]);
        }
    }
    for (size_t k = 0; k < N_VERSION_RULES; k++) {
        const struct version_rule *r = &version_rules[k];
        const char *from = td_ere_needles_from(&g_vr.needles[k], text);
        if (!from)
            continue;
        regmatch_t m[4];
        for (const char *s = from; g_vr.ok[k] && regexec(&g_vr.re[k], s, 4, m, 0) == 0;
             s += m[0].rm_eo > 0 ? m[0].rm_eo : 1) {
            char v[32], out[32];
            int len = (int)(m[r->group].rm_eo - m[r->group].rm_so);
            snprintf(v, sizeof v, "%.*s", len, s + m[r->group].rm_so);
            long n = strtol(v, NULL, 10);
            switch (r->form) {
            case V_CU_TAG: /* cu121 -> 12.1, cu92 -> 9.2 */
                snprintf(out, sizeof out, "%ld.%ld", n / 10, n % 10);
                break;
            case V_MAJOR_MINOR_DIGITS: /* cublas64_12 -> 12, cudart64_110 -> 11.0 */
                if (n >= 100)
                    snprintf(out, sizeof out, "%ld.%ld", n / 10, n % 10);
                else
                    snprintf(out, sizeof out, "%ld", n);
                break;
            case V_PY:
                snprintf(out, sizeof out, "3.%ld", n);
                break;
            case V_DRIVER_API: /* cudaDriverGetVersion: 1000 * major + 10 * minor */
                snprintf(out, sizeof out, "%ld.%ld", n / 1000, (n % 1000) / 10);
                break;
            case V_CUDNN: /* a major, or CUDNN_VERSION: major * 1000 + minor * 100 +
                             patch to cuDNN 8, major * 10000 + ... from cuDNN 9 (cudnn.h) */
                snprintf(out, sizeof out, "%ld", n >= 10000 ? n / 10000 : n >= 1000 ? n / 1000 : n);
                break;
            default:
                snprintf(out, sizeof out, "%s", v);
            }
            add_version(p, r->what, out, a);
            if (!s[m[0].rm_eo])
                break;
        }
    }
    if (f->torch_version)
        add_version(p, "torch", f->torch_version, a);
}

/* ---- codes ---- */

static const struct code_row *code_by_value(const char *space, const char *value)
{
    for (size_t i = 0; i < g_rd.n_codes; i++) {
        const struct code_row *c = &g_rd.codes[i];
        if (strcmp(c->space, space) == 0 &&
            (strcasecmp(c->value, value) == 0 || (c->name && strcmp(c->name, value) == 0)))
            return c;
    }
    return NULL;
}

static void add_code(struct td_explain_parts *p, const char *space, const char *value,
                     const char *name, struct td_arena *a)
{
    if (p->n_codes >= TD_PARTS_CODES || !value)
        return;
    const struct code_row *row = code_by_value(space, value);
    if (row && strcmp(row->value, value) != 0)
        value = row->value; /* a name given: the table's number */
    for (size_t i = 0; i < p->n_codes; i++)
        if (strcmp(p->codes[i].space, space) == 0 && strcmp(p->codes[i].value, value) == 0)
            return;
    struct td_part_code *c = &p->codes[p->n_codes++];
    c->space = space;
    c->value = td_arena_strdup(a, value);
    c->name = name ? name : row ? row->name : NULL;
    c->kind = row ? row->kind : NULL;
    c->source = row ? row->source : NULL;
}

/* Each word at S that starts with PREFIX and goes on in [A-Z0-9_] (or in
 * letters, for camel-case names): CUDA_ERROR_NO_DEVICE, cudaErrorNoDevice. */
static void names_with_prefix(const char *text, const char *prefix, const char *space,
                              struct td_explain_parts *p, struct td_arena *a)
{
    size_t pl = strlen(prefix);
    for (const char *at = strstr(text, prefix); at; at = strstr(at + pl, prefix)) {
        if (at > text && sym_char((unsigned char)at[-1]))
            continue;
        size_t n = pl;
        while (sym_char((unsigned char)at[n]))
            n++;
        if (n > pl) {
            char *name = td_arena_strndup(a, at, n);
            const struct code_row *row = name ? code_by_value(space, name) : NULL;
            add_code(p, space, row ? row->value : name, name, a);
        }
    }
}

/* Messages of the code table found in the text ("CUDA error: out of memory",
 * "unhandled system error"). */
static void codes_by_message(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    for (size_t i = 0; i < g_rd.n_codes; i++) {
        const struct code_row *c = &g_rd.codes[i];
        if (c->message && strcmp(c->space, "win32") != 0 && strstr(text, c->message))
            add_code(p, c->space, c->value, c->name, a);
    }
}

static void numbers_after(const char *text, const char *lead, const char *space,
                          struct td_explain_parts *p, struct td_arena *a)
{
    size_t ll = strlen(lead);
    for (const char *at = strstr(text, lead); at; at = strstr(at + ll, lead)) {
        const char *s = at + ll;
        while (*s == ' ' || *s == '#' || *s == '=')
            s++;
        size_t n = strspn(s, "0123456789");
        if (n && n < 8) {
            char v[16];
            snprintf(v, sizeof v, "%.*s", (int)n, s);
            add_code(p, space, v, NULL, a);
        }
    }
}

/* Whether a DLL's name ends its stem at C: a .dll, or a Windows library by
 * another extension (a .pyd, a .node addon, a host's plug-in: an .asi, a
 * .dlt), each loaded with LoadLibrary. */
static bool dll_mark(const char *c)
{
    return strncasecmp(c, ".dll", 4) == 0 ||
           (*c == '.' && library_end(c) && strncmp(c, ".so", 3) != 0 &&
            strncmp(c, ".dylib", 6) != 0 && strncmp(c, ".bundle", 7) != 0 &&
            strncmp(c, ".jnilib", 7) != 0);
}

/* Where a look for DLLs before points of a text, asked in text order,
 * stands: td_explain_line_start's state, the line of the last point, how
 * far it was read and whether it names a DLL there. A line is read once
 * however many points it holds (a pasted line of 250 KB with "error" every
 * few words, read back from each: 14 s). */
struct dll_scan {
    const char *line_at, *seen, *line, *next;
    bool found;
};

/* Whether the line that holds AT names a DLL before AT (dll_mark). */
static bool dll_before_on_line(const char *text, const char *at, struct dll_scan *sc)
{
    const char *l = td_explain_line_start(&sc->line_at, &sc->seen, at);
    if (l != sc->line)
        sc->line = sc->next = l, sc->found = false;
    for (; !sc->found && sc->next + 4 <= at; sc->next++)
        sc->found = dll_mark(sc->next);
    return sc->found;
}

/* Whether the name from START to END is another platform's image (X.so,
 * X.so.2, X.dylib): cffi's dlopen on Windows tries every name a wrapper lists
 * (cairocffi: libcairo.so.2, libcairo.2.dylib, libcairo-2.dll) and prints
 * LoadLibrary's code for each; a name Windows never has fails with 0x7e
 * whatever is wrong, so only the codes of the Windows names say why. */
static bool names_posix_image(const char *start, const char *end)
{
    size_t n = (size_t)(end - start);
    while (n && isdigit((unsigned char)start[n - 1])) {
        while (n && isdigit((unsigned char)start[n - 1]))
            n--;
        if (n && start[n - 1] == '.')
            n--;
    }
    return (n >= 3 && memcmp(start + n - 3, ".so", 3) == 0) ||
           (n >= 6 && memcmp(start + n - 6, ".dylib", 6) == 0);
}

static void hex_codes_after_dll(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    struct dll_scan sc = {text, text, NULL, NULL, false};
    for (const char *at = td_ere_find(text, "rror"); at; at = td_ere_find(at + 4, "rror")) {
        if (at == text || (at[-1] != 'e' && at[-1] != 'E') || !dll_before_on_line(text, at, &sc))
            continue;
        const char *s = at + 4;
        if (strncmp(s, " Code", 5) == 0 || strncmp(s, " code", 5) == 0)
            s += 5;
        s += strspn(s, " :=");
        bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
        size_t n = hex ? strspn(s + 2, "0123456789abcdefABCDEF") : strspn(s, "0123456789");
        if (!n || n > 4 || isalnum((unsigned char)s[(hex ? 2 : 0) + n]))
            continue;
        char v[16];
        snprintf(v, sizeof v, "%ld", strtol(hex ? s + 2 : s, NULL, hex ? 16 : 10));
        add_code(p, "win32", v, NULL, a);
    }
}

/* HRESULT_FROM_WIN32: each 0x8007XXXX in TEXT, and the Win32 code it carries. */
static void hresult_codes(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    for (const char *at = strstr(text, "0x8007"); at; at = strstr(at + 6, "0x8007")) {
        char hex[8], v[32], h[16];
        if (strspn(at + 6, "0123456789abcdefABCDEF") < 4)
            continue;
        snprintf(hex, sizeof hex, "%.4s", at + 6);
        snprintf(v, sizeof v, "%ld", strtol(hex, NULL, 16));
        snprintf(h, sizeof h, "0x8007%s", hex);
        add_code(p, "hresult", h, NULL, a);
        add_code(p, "win32", v, NULL, a);
    }
}

/* cffi on Windows: "cannot load library 'X': error 0x7e" (LoadLibrary's
 * code in hex, as its dlerror prints it) */
static void cffi_codes(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    for (const char *at = strstr(text, "cannot load library '"); at;
         at = strstr(at + 1, "cannot load library '")) {
        const char *e = strstr(at, "': error 0x");
        const char *nl = strchr(at, '\n');
        if (!e || (nl && nl < e) || !isxdigit((unsigned char)e[11]) ||
            names_posix_image(at + strlen("cannot load library '"), e))
            continue;
        char v[32];
        snprintf(v, sizeof v, "%ld", strtol(e + 11, NULL, 16));
        add_code(p, "win32", v, NULL, a);
    }
}

/* The Win32 error codes TEXT gives (F's, then each form that prints one),
 * with Rust's "os error" read as an errno off Windows. */
static void win32_codes(const char *text, const struct td_explain_fields *f,
                        struct td_explain_parts *p, struct td_arena *a)
{
    if (f->win32) {
        char v[32];
        snprintf(v, sizeof v, "%d", f->win32);
        add_code(p, "win32", v, f->win32_name, a);
    }
    /* Rust's io::Error (safetensors, tokenizers): "(os error 1455)" */
    numbers_after(text, "os error",
                  p->platform && strcmp(p->platform, "windows") == 0 ? "win32"
                  : strstr(text, "os error 1455")                    ? "win32"
                                                                     : "errno",
                  p, a);
    /* WinDbg prints a Win32 error in decimal with its "0n" prefix:
     * "LoadLibrary(X) failed, Win32 error 0n127" */
    numbers_after(text, "Win32 error 0n", "win32", p, a);
    /* node-ffi's dlerror on Windows: "Dynamic Linking Error: Win32 error 126" */
    numbers_after(text, "Dynamic Linking Error: Win32 error", "win32", p, a);
    /* cuDNN on Windows: "Could not load library X. Error code 126" */
    numbers_after(text, "Error code", "win32", p, a);
    numbers_after(text, "error code", "win32", p, a);
    hresult_codes(text, p, a);
    cffi_codes(text, p, a);
    /* a loader's own log line: "Cannot Load C:\\X.dll error:0x7e", "X.dll : Error Code =
     * 126": LoadLibrary's code after the word error on the line that names the DLL
     * (GetLastError printed with %x or %u); four hex digits at most, so an NTSTATUS
     * or HRESULT is not one */
    hex_codes_after_dll(text, p, a);
    /* ERROR_BAD_EXE_FORMAT's message with its insert left unfilled, retyped in other
     * words ("%1 is not a win322 app valid"): of the system's messages only 193's says
     * "%1 is not a" and then Win32 (learn.microsoft.com, System Error Codes 0-499) */
    for (const char *at = strstr(text, "%1 is not a"); at; at = strstr(at + 1, "%1 is not a")) {
        const char *eol = strchr(at, '\n');
        size_t n = eol ? (size_t)(eol - at) : strlen(at);
        bool win32 = false;
        for (size_t i = 11; i + 5 <= n && !win32; i++)
            win32 = strncasecmp(at + i, "win32", 5) == 0;
        if (win32) {
            add_code(p, "win32", "193", NULL, a);
            break;
        }
    }
    /* Python 3.8+'s ctypes words ERROR_MOD_NOT_FOUND without its number */
    if (strstr(text, "Could not find module '") && strstr(text, "(or one of its dependencies)"))
        add_code(p, "win32", "126", NULL, a);
}

/* The result codes of CUDA and its libraries (and OpenMP's errors) TEXT
 * names or numbers. */
static void cuda_codes(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    names_with_prefix(text, "cudaError", "cudaError", p, a);
    names_with_prefix(text, "CUDA_ERROR_", "CUresult", p, a);
    names_with_prefix(text, "CUDNN_STATUS_", "cudnnStatus", p, a);
    names_with_prefix(text, "CUBLAS_STATUS_", "cublasStatus", p, a);
    names_with_prefix(text, "NVRTC_ERROR_", "nvrtcResult", p, a);
    names_with_prefix(text, "nccl", "ncclResult", p, a);
    numbers_after(text, "CUDA failure", "cudaError", p, a);
    numbers_after(text, "CUDA error", "cudaError", p, a);
    numbers_after(text, "OMP: Error", "omp", p, a);
}

/* "ncclSomething" words that are not result codes are dropped from P. */
static void drop_nccl_words(struct td_explain_parts *p)
{
    size_t kept = 0;
    for (size_t i = 0; i < p->n_codes; i++)
        if (strcmp(p->codes[i].space, "ncclResult") != 0 || p->codes[i].kind ||
            code_by_value("ncclResult", p->codes[i].value))
            p->codes[kept++] = p->codes[i];
    p->n_codes = kept;
}

/* Every error code TEXT (read into F) gives, in P: Win32's, NTSTATUS,
 * errno, CUDA's, and those a known message stands for. */
static void read_codes(const char *text, const struct td_explain_fields *f,
                       struct td_explain_parts *p, struct td_arena *a)
{
    win32_codes(text, f, p, a);
    if (f->ntstatus)
        add_code(p, "ntstatus", f->ntstatus, f->ntstatus_name, a);
    if (f->error_code && strncmp(f->error_code, "errno ", 6) == 0)
        add_code(p, "errno", f->error_code + 6, NULL, a);
    cuda_codes(text, p, a);
    codes_by_message(text, p, a);
    drop_nccl_words(p);
}

/* ---- raiser ---- */

static const char *driver_library(const char *platform)
{
    if (platform && strcmp(platform, "windows") == 0)
        return "nvcuda.dll";
    if (platform && strcmp(platform, "macos") == 0)
        return "libcuda.dylib"; /* NVIDIA's CUDA driver for Mac (to CUDA 10.2);
                                   MPS's rows name MPS themselves */
    return "libcuda.so.1";
}

/* The first (or LAST) file of P whose name stands between START and END,
 * by where it stands, else NULL. */
static const char *file_between(const char *start, const char *end,
                                const struct td_explain_parts *p, bool last)
{
    const char *best = NULL;
    const char *best_at = NULL;
    for (size_t i = 0; i < p->n_files; i++) {
        const char *name = p->files[i].name;
        size_t n = strlen(name);
        for (const char *q = start; n && q + n <= end; q++) {
            if (memcmp(q, name, n) != 0)
                continue;
            if (!best_at || (last ? q > best_at : q < best_at)) {
                best = name;
                best_at = q;
            }
            if (!last)
                break;
        }
    }
    return best;
}

/* The first (or LAST) file of P named on the line of TEXT that holds offset
 * AT, by where its name stands, else NULL: the raiser's message names the
 * file it is about on its own line ("CUDA SETUP: Required library version
 * not found: libbitsandbytes_cuda116.so"), while the text around it may name
 * others (a warning's "Found duplicate ['libcudart.so', ...]"). */
static const char *file_on_line(const char *text, regoff_t at, const struct td_explain_parts *p,
                                bool last)
{
    if (at < 0)
        return NULL;
    const char *start = text + at;
    while (start > text && start[-1] != '\n')
        start--;
    const char *end = strchr(text + at, '\n');
    if (!end)
        end = text + strlen(text);
    return file_between(start, end, p, last);
}

/* The file a loader makes of a bare library name, as System.mapLibraryName
 * and the linker's -l do: X.dll on Windows, libX.dylib on macOS, libX.so
 * elsewhere. A name that is already a file is kept. */
static const char *mapped_library(const char *name, size_t n, const char *platform,
                                  struct td_arena *a)
{
    char *s = td_arena_strndup(a, name, n);
    if (!s || !*s)
        return NULL;
    for (const char *dot = strchr(s, '.'); dot; dot = strchr(dot + 1, '.'))
        if (library_end(dot))
            return s;
    char out[256];
    bool windows = platform && strcmp(platform, "windows") == 0;
    bool macos = platform && strcmp(platform, "macos") == 0;
    /* a name that already carries the prefix ("libcuda", Nim's "libcrypto")
     * is not prefixed again */
    const char *prefix = strncmp(s, "lib", 3) == 0 ? "" : "lib";
    if (windows)
        snprintf(out, sizeof out, "%s.dll", s);
    else
        snprintf(out, sizeof out, macos ? "%s%s.dylib" : "%s%s.so", prefix, s);
    return td_arena_strdup(a, out);
}

/* Whether row R reads a library named bare in a sentence of its own words
 * ("Unable to find zbar shared library", "Could not find lib geos_c"): its
 * group is a name, which the platform's loader makes a file of. */
static bool bare_row(const struct raiser_row *r)
{
    return r->library && strcmp(r->library, "bare") == 0;
}

/* Whether row R reads a managed binding's type or class (its group; with no
 * group, the first of the text's frames that is one): the binding's own
 * native library is the file (data/managed_bindings.tsv). */
static bool binding_row(const struct raiser_row *r)
{
    return r->library && strcmp(r->library, "binding") == 0;
}

/* The first file of P whose name holds the bare name G (N bytes) as a whole
 * part -- after the start, "lib", "_" or "-", before ".", "-", "_" or a digit
 * -- or NULL: the text names the file the program tried for that name
 * (shapely's "variants ['libgeos_c.so.1', ...]", PHP's "tried: ...
 * php_pdo_mysql.dll"), which says more than the name made a file. */
static const char *file_of_bare_name(const char *g, size_t n, const struct td_explain_parts *p)
{
    for (size_t i = 0; i < p->n_files; i++) {
        const char *name = p->files[i].name;
        for (const char *q = name; n && strlen(q) >= n; q++) {
            if (strncasecmp(q, g, n) != 0)
                continue;
            bool start = q == name || q[-1] == '_' || q[-1] == '-' ||
                         (q - name == 3 && strncasecmp(name, "lib", 3) == 0);
            char after = q[n];
            if (start &&
                (after == '.' || after == '-' || after == '_' || isdigit((unsigned char)after)))
                return name;
        }
    }
    return NULL;
}

/* The platform the word after the bare name G (N bytes), or after the one
 * adjective between, says -- "OpenSlide dylib" is macOS's, "launcher DLL"
 * Windows' -- else PLATFORM. */
static const char *platform_of_kind_word(const char *g, size_t n, const char *platform)
{
    const char *q = g + n;
    for (int word = 0; word < 2; word++) {
        q += strspn(q, "'\"` ");
        size_t w = strcspn(q, " \t\n.,;:!?()'\"`");
        if (w == 5 && strncmp(q, "dylib", 5) == 0)
            return "macos";
        if (w == 3 && (strncmp(q, "DLL", 3) == 0 || strncmp(q, "dll", 3) == 0))
            return "windows";
        q += w;
    }
    return platform;
}

/* The file of a library a sentence names bare (G, N bytes): the file the text
 * names for it, else the platform's file of the name. A product's name in
 * prose, in CamelCase (PortAudio, OpenSlide), is not its file's: those are
 * lower case (libportaudio, libopenslide); a name in capitals (GLU, SDL2) or
 * one that starts with lib (libGL) is kept as it is. */
static const char *bare_library(const char *g, size_t n, const struct td_explain_parts *p,
                                struct td_arena *a)
{
    const char *file = file_of_bare_name(g, n, p);
    if (file)
        return file;
    char name[128];
    if (n >= sizeof name)
        return NULL;
    bool camel = false; /* a capital first: libGL and libSDL2 are file names */
    for (size_t i = 1; i < n && isupper((unsigned char)g[0]); i++)
        camel = camel || (islower((unsigned char)g[i - 1]) && isupper((unsigned char)g[i]));
    for (size_t i = 0; i < n; i++)
        name[i] = camel ? (char)tolower((unsigned char)g[i]) : g[i];
    return mapped_library(name, n, platform_of_kind_word(g, n, p->platform), a);
}

/* Whether G (N bytes), the name a bare row's group captured, is a word of
 * the sentence rather than a library's name: "could not load the required
 * library", "could not find the library docs", "failed to load native
 * library" say that a load failed without naming what. */
static bool sentence_word(const char *g, size_t n)
{
    /* each word between blanks */
    static const char words[] =
        " a an any the this that these those its your our my their his her some one other "
        "another such which required needed necessary correct right proper same shared native "
        "dynamic static system python runtime standard external main core own c following "
        "specified given named called dependent appropriate above new old latest current "
        "default local missing library libraries lib dll dylib module docs documentation "
        "version path folder directory file files source code name install installation "
        "package wheel it them dependency dependencies "
        /* what follows "could not load library" in a poster's words */
        "error errors failure anymore again now here there properly correctly at in on for "
        "from with because due when while and or but is was not all either "
        /* a program's own parts, not a library's name ("the model library") */
        "model models data config configuration resource resources plugin plugins extension "
        "extensions component components asset assets class classes function functions user "
        "project script scripts test tests image images font fonts language icon icons media "
        "audio video ";
    char low[34];
    if (n + 2 >= sizeof low)
        return false;
    low[0] = ' ';
    for (size_t i = 0; i < n; i++)
        low[i + 1] = (char)tolower((unsigned char)g[i]);
    low[n + 1] = ' ';
    low[n + 2] = '\0';
    return strstr(words, low) != NULL;
}

/* The first name a library pattern spells, as Nim's loader expands it
 * (lib/pure/dynlib.nim, libCandidates): each "(a|b|...)" is a list of
 * alternatives, tried in order ("(libcrypto-1_1-x64|libeay64).dll" ->
 * libcrypto-1_1-x64.dll, "libssl.so(.3|.1.1)" -> libssl.so.3). */
static const char *first_candidate(const char *s, size_t n, struct td_arena *a)
{
    char out[256];
    size_t o = 0;
    for (size_t i = 0; i < n && o + 1 < sizeof out;) {
        if (s[i] != '(') {
            out[o++] = s[i++];
            continue;
        }
        size_t j = i + 1;
        while (j < n && s[j] != '|' && s[j] != ')' && o + 1 < sizeof out)
            out[o++] = s[j++];
        while (j < n && s[j] != ')')
            j++;
        i = j + 1;
    }
    out[o] = '\0';
    return o ? td_arena_strdup(a, out) : NULL;
}

/* The text row R's file group matched in TEXT (N its length), or NULL: the
 * row has no such group, or it took no part in match M. */
static const char *group_text(const struct raiser_row *r, const char *text, const regmatch_t *m,
                              size_t *n)
{
    if (r->group <= 0 || !m || m[r->group].rm_so < 0)
        return NULL;
    *n = (size_t)(m[r->group].rm_eo - m[r->group].rm_so);
    return text + m[r->group].rm_so;
}

/* The installed version a CUDA component's check reports after its name G:
 * JAX's "Found cuSOLVER version 11002, but ..." or, in its later form, the
 * "Installed version: 8907" line of the "Outdated cuDNN installation found."
 * block; -1 when neither follows within the message. */
static long component_version(const char *g, size_t n)
{
    const char *rest = g + n, *at = NULL;
    const char *installed = strstr(rest, "Installed version: ");
    if (installed && installed - rest < 300)
        at = installed + 19;
    else if (strncmp(rest, " version ", 9) == 0)
        at = rest + 9;
    return at && isdigit((unsigned char)*at) ? strtol(at, NULL, 10) : -1;
}

/* The library of a CUDA component a version check names by its product name
 * ("cuSOLVER" -> libcusolver.so.11): the major of the installed version V,
 * as each library encodes it (cudaRuntimeGetVersion: 1000 * major + 10 *
 * minor; cuDNN to 8: major * 1000 + ..., from 9: major * 10000 + ...; the
 * math libraries: major * 1000 + minor * 100 + patch, or major * 10000 + ...
 * once the minor has two digits, 120100). cuPTI reports an API number, no
 * major, and JAX's GPU wheels are Linux ones: .so names. */
static const char *component_library(const char *g, size_t n, long v, struct td_arena *a)
{
    static const char *const names[][2] = {
        {"cuda", "libcudart"},       {"cudnn", "libcudnn"},   {"cufft", "libcufft"},
        {"cusolver", "libcusolver"}, {"cublas", "libcublas"}, {"cusparse", "libcusparse"},
        {"cupti", "libcupti"},       {"nccl", "libnccl"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (strlen(names[i][0]) != n || strncasecmp(g, names[i][0], n) != 0)
            continue;
        long major = v < 0 || strcmp(names[i][0], "cupti") == 0                         ? -1
                     : v >= 100000 || (strcmp(names[i][0], "cudnn") == 0 && v >= 10000) ? v / 10000
                                                                                        : v / 1000;
        char name[64];
        if (major > 0)
            snprintf(name, sizeof name, "%s.so.%ld", names[i][1], major);
        else
            snprintf(name, sizeof name, "%s.so", names[i][1]);
        return td_arena_strdup(a, name);
    }
    return NULL;
}

/* The library in text G (N bytes), the file row R's group captured: as
 * the row's library column says to read it, else the name as it is. */
static const char *group_library(const struct raiser_row *r, const char *g, size_t n,
                                 const struct td_explain_parts *p, struct td_arena *a)
{
    if (binding_row(r))
        return td_explain_binding_library(NULL, g, n, td_explain_platform_column(p->platform));
    if (r->library && strcmp(r->library, "cuda-component") == 0)
        return component_library(g, n, component_version(g, n), a);
    if (bare_row(r))
        return bare_library(g, n, p, a);
    if (r->library && strncmp(r->library, "mapped", 6) == 0 &&
        (!r->library[6] || r->library[6] == ':')) {
        /* "mapped:q": the group's name after a prefix the raiser puts before
         * it (Qt's platform plugin "xcb" is the file of qxcb: libqxcb.so) */
        const char *prefix = r->library[6] ? r->library + 7 : "";
        char name[256];
        snprintf(name, sizeof name, "%s%.*s", prefix, (int)n, g);
        return mapped_library(name, strlen(name), p->platform, a);
    }
    if (r->library && strcmp(r->library, "mapped-known") == 0) {
        /* a runtime's logical name (a DllImport's) is the platform's file of
         * it only on a platform the text itself shows: with none, the name
         * as the runtime printed it */
        bool known = p->platform_from && strcmp(p->platform_from, "host") != 0;
        return known ? mapped_library(g, n, p->platform, a)
                     : td_explain_base_name(td_arena_strndup(a, g, n));
    }
    if (r->library && strcmp(r->library, "dll") == 0) {
        /* a bare name the text itself calls a DLL ("DLL MSVCP140 is missing");
         * a .NET assembly's file may be an .exe */
        bool has = n > 4 && (strncasecmp(g + n - 4, ".dll", 4) == 0 ||
                             strncasecmp(g + n - 4, ".exe", 4) == 0);
        char name[256];
        snprintf(name, sizeof name, "%.*s%s", (int)n, g, has ? "" : ".dll");
        return td_arena_strdup(a, name);
    }
    if (r->library && strcmp(r->library, "first-candidate") == 0)
        return first_candidate(g, n, a);
    if (r->library && strcmp(r->library, "python-extension") == 0) {
        /* a Python extension module by its module name ("image"): its file,
         * a .pyd on Windows, a .so elsewhere (docs.python.org, "Building C
         * and C++ Extensions on Windows") */
        bool windows = p->platform && strcmp(p->platform, "windows") == 0;
        char name[256];
        snprintf(name, sizeof name, "%.*s%s", (int)n, g, windows ? ".pyd" : ".so");
        return td_arena_strdup(a, name);
    }
    if (r->library && strcmp(r->library, "suffixed") == 0) {
        /* a bare name a loader completes with the platform's suffix alone, no "lib"
         * (SQLite's load_extension: X, then X.dll, X.so or X.dylib) */
        for (const char *dot = memchr(g, '.', n); dot && dot < g + n;
             dot = memchr(dot + 1, '.', (size_t)(g + n - dot - 1)))
            if (library_end(dot))
                return td_explain_base_name(td_arena_strndup(a, g, n));
        bool windows = p->platform && strcmp(p->platform, "windows") == 0;
        bool macos = p->platform && strcmp(p->platform, "macos") == 0;
        char name[256];
        snprintf(name, sizeof name, "%.*s%s", (int)n, g,
                 windows ? ".dll"
                 : macos ? ".dylib"
                         : ".so");
        return td_explain_base_name(td_arena_strdup(a, name));
    }
    char *s = td_arena_strndup(a, g, n);
    size_t len = s ? strlen(s) : 0;
    while (len && strchr(".,;:'\"", s[len - 1]))
        s[--len] = '\0';
    return s ? td_explain_base_name(s) : NULL;
}

/* cuDNN's library: the major the program was built against (the library it
 * asks for: TF 1.x built for cuDNN 5 loads cudnn64_5.dll), else the one
 * loaded, else 9. */
static const char *cudnn_library(const struct td_explain_parts *p, bool windows, struct td_arena *a)
{
    const char *major = NULL, *loaded = NULL;
    for (size_t i = 0; i < p->n_versions; i++) {
        if (!major && strcmp(p->versions[i].what, "cudnn_built") == 0)
            major = p->versions[i].value;
        if (strcmp(p->versions[i].what, "cudnn_runtime") == 0)
            loaded = p->versions[i].value;
    }
    if (!major)
        major = loaded ? loaded : "9";
    char name[64];
    snprintf(name, sizeof name, windows ? "cudnn64_%.8s.dll" : "libcudnn.so.%.8s", major);
    return td_arena_strdup(a, name);
}

/* NVRTC's builtins library, which carries the CUDA version of libnvrtc. */
static const char *nvrtc_builtins_library(const struct td_explain_parts *p, bool windows,
                                          struct td_arena *a)
{
    const char *cuda = NULL;
    for (size_t i = 0; i < p->n_versions && !cuda; i++)
        if (strcmp(p->versions[i].what, "cuda") == 0)
            cuda = p->versions[i].value;
    char name[64];
    if (windows)
        snprintf(name, sizeof name, "nvrtc-builtins64_%s.dll", cuda ? cuda : "XY");
    else
        snprintf(name, sizeof name,
                 p->platform && strcmp(p->platform, "macos") == 0 ? "libnvrtc-builtins.dylib"
                 : cuda                                           ? "libnvrtc-builtins.so.%s"
                                                                  : "libnvrtc-builtins.so",
                 cuda);
    if (windows && cuda) { /* 12.1 -> nvrtc-builtins64_121.dll */
        char *dot = strchr(name, '.');
        if (dot && dot < name + strlen(name) - 4)
            memmove(dot, dot + 1, strlen(dot));
    }
    return td_arena_strdup(a, name);
}

#define IDENT_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_"

/* The length of the Python identifier at S. */
static size_t ident_span(const char *s)
{
    return strspn(s, IDENT_CHARS);
}

/* Whether C can be part of a Python identifier (one byte, no scan on). */
static bool ident_char(char c)
{
    return c != '\0' && strchr(IDENT_CHARS, c) != NULL;
}

/* The module whose import ran into NumPy's C-API check ("A module that was
 * compiled using NumPy 1.x cannot be run in NumPy 2.x"): NumPy names none,
 * the traceback does. A Cython module's own frame is the module itself; else
 * the module of the last import statement whose module is not numpy's ("from
 * numexpr.interpreter import MAX_THREADS" -> interpreter: the names after
 * "import" are the module's attributes, not what loads, unless the first is
 * a private module's "_" name: "from PIL import _imaging" -> _imaging). */
static const char *importing_module(const char *text, struct td_arena *a)
{
    size_t best_n = 0;
    const char *best = td_explain_cython_init(text, &best_n);
    if (best) {
        /* the module by its last part, as Python names the extension in
         * "while importing X" ("init h5py.h5": h5, the module of h5py/h5.pyd) */
        const char *dot = memrchr(best, '.', best_n);
        if (dot)
            best_n -= (size_t)(dot + 1 - best), best = dot + 1;
        return td_arena_strndup(a, best, best_n);
    }
    const char *line_at = text, *seen = text;
    for (const char *q = strstr(text, "import "); q; q = strstr(q + 1, "import ")) {
        const char *line = td_explain_line_start(&line_at, &seen, q);
        line += strspn(line, " \t>.");
        const char *mod = NULL;
        if (strncmp(line, "from ", 5) == 0 && line + 5 < q)
            mod = line + 5;
        else if (line == q)
            mod = q + 7;
        if (!mod)
            continue;
        size_t n = td_explain_module_span(mod);
        if (n == 0 || *mod == '.' || strncmp(mod, "numpy", 5) == 0)
            continue;
        best = mod; /* past the last dot but a final one: numexpr.interpreter */
        for (size_t i = 0; i + 1 < n; i++)
            if (mod[i] == '.')
                best = mod + i + 1;
        best_n = (size_t)(mod + n - best);
        /* "from pkg import _ext": a private name (an extension's
         * conventional "_" name, not a dunder) is the module itself */
        const char *name = q + 7;
        if (mod != q + 7 && name[0] == '_' && name[1] != '_' && ident_span(name) > 1) {
            best = name;
            best_n = ident_span(name);
        }
    }
    return best && best_n ? td_arena_strndup(a, best, best_n) : NULL;
}

/* Whether C can be part of an assembly's name ("Microsoft.VC90.CRT",
 * "Microsoft.Windows.Common-Controls"). */
static bool assembly_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* The assembly whose identity (NAME,attribute="...",...: how the
 * side-by-side loader prints one, in its event and in sxstrace) starts
 * before the comma at C, or NULL; *N its length. An attribute's quoted
 * value before a comma is no name. */
static const char *identity_before(const char *text, const char *c, size_t *n)
{
    static const char *const attributes[] = {
        "processorArchitecture=", "publicKeyToken=", "type=", "version=", "language="};
    bool attribute = false;
    for (size_t i = 0; i < sizeof attributes / sizeof *attributes && !attribute; i++)
        attribute = strncmp(c + 1, attributes[i], strlen(attributes[i])) == 0;
    const char *s = c;
    while (s > text && assembly_char(s[-1]))
        s--;
    if (!attribute || s == c || !isalpha((unsigned char)*s) || !memchr(s, '.', (size_t)(c - s)))
        return NULL;
    *n = (size_t)(c - s);
    return s;
}

/* The DLL of the side-by-side assembly an activation-context failure could
 * not find (data/sxs_assemblies.tsv), or NULL. The assembly is the one of
 * sxstrace's ERROR line ("ERROR: Cannot resolve reference NAME,..."), else
 * the last identity the text prints: the event names the program's
 * identity first and the dependent assembly last, sxstrace the reference
 * it was resolving when it gave up. */
static const char *sxs_assembly_library(const char *text, struct td_arena *a)
{
    const char *name = NULL;
    size_t n = 0;
    bool on_error = false;
    /* identities come in text order: the line's start and the first "ERROR"
     * from it on are carried along, so a text of one long line of
     * identities is read in one pass */
    const char *line_at = text, *seen = text, *e = strstr(text, "ERROR");
    for (const char *c = strchr(text, ','); c; c = strchr(c + 1, ',')) {
        size_t len;
        const char *s = identity_before(text, c, &len);
        if (!s)
            continue;
        const char *line = td_explain_line_start(&line_at, &seen, s);
        if (e && e < line)
            e = strstr(line, "ERROR");
        bool error = e && e < s;
        if (error || !on_error) {
            name = s, n = len;
            on_error = on_error || error;
        }
    }
    if (!name)
        return NULL;
    static const char *const cols[] = {"assembly", "library", NULL};
    struct td_table t;
    if (!td_table_open(&t, "sxs_assemblies", cols))
        return NULL;
    while (td_table_next(&t)) {
        const char *assembly = td_table_cell(&t, 0);
        if (strlen(assembly) == n && strncasecmp(assembly, name, n) == 0)
            return td_arena_strdup(a, td_table_cell(&t, 1));
    }
    return NULL;
}

/* The library row R's library column names when its pattern captured no
 * file: a fixed name, one for the platform, or one the text implies. */
static const char *named_library(const struct raiser_row *r, const char *text, const regmatch_t *m,
                                 const struct td_explain_parts *p, struct td_arena *a)
{
    if (!r->library)
        return NULL;
    if (strncmp(r->library, "off-macos:", 10) == 0)
        /* a CPU-feature guard (jaxlib's AVX check) that fails on macOS fails
         * under Rosetta: the x86-64 interpreter is at fault, not the file */
        return p->platform && strcmp(p->platform, "macos") == 0 ? NULL : r->library + 10;
    if (strcmp(r->library, "driver") == 0)
        return driver_library(p->platform);
    bool windows = p->platform && strcmp(p->platform, "windows") == 0;
    if (strcmp(r->library, "compiler") == 0)
        return windows ? "cl.exe" : strstr(text, "++") || strstr(text, "Cxx") ? "g++" : "gcc";
    if (strcmp(r->library, "cudnn") == 0)
        return cudnn_library(p, windows, a);
    if (strcmp(r->library, "nvrtc-builtins") == 0)
        return nvrtc_builtins_library(p, windows, a);
    if (strcmp(r->library, "ort-cuda") == 0)
        return windows ? "onnxruntime_providers_cuda.dll" : "libonnxruntime_providers_cuda.so";
    if (strcmp(r->library, "companion-c") == 0)
        return windows ? "_C.pyd" : "_C.so";
    if (strcmp(r->library, "torch-cuda") == 0)
        return p->platform && strcmp(p->platform, "windows") == 0 ? "torch_cuda.dll"
                                                                  : "libtorch_cuda.so";
    if (strcmp(r->library, "imported") == 0)
        return NULL; /* the module the text imports: errors_cause.c reads it */
    if (strcmp(r->library, "importing-module") == 0)
        return importing_module(text, a);
    if (strcmp(r->library, "sxs-assembly") == 0)
        return sxs_assembly_library(text, a);
    if (strncmp(r->library, "platform:", 9) == 0)
        return td_explain_platform_file(r->library + 9, p->platform, a);
    if (strcmp(r->library, "first-file") == 0 || strcmp(r->library, "last-file") == 0) {
        bool last = r->library[0] == 'l';
        const char *near = m ? file_on_line(text, m[0].rm_so, p, last) : NULL;
        if (near)
            return near;
        return p->n_files ? p->files[last ? p->n_files - 1 : 0].name : NULL;
    }
    return r->library;
}

/* Whether NAME (a base name) is an ELF program interpreter, the dynamic
 * loader a program names in its PT_INTERP: glibc's ld-linux*.so.N (ld64.so.N
 * on powerpc64 and s390x) and musl's ld-musl-ARCH.so.1. */
static bool elf_interpreter(const char *name)
{
    return strncmp(name, "ld-linux", 8) == 0 || strncmp(name, "ld-musl-", 8) == 0 ||
           strncmp(name, "ld64.so.", 8) == 0;
}

/* The first ELF interpreter among the files the text names, or NULL. */
static const char *named_interpreter(const struct td_explain_parts *p)
{
    for (size_t i = 0; i < p->n_files; i++)
        if (elf_interpreter(p->files[i].name))
            return p->files[i].name;
    return NULL;
}

/* The file the line of match M in TEXT names after the match, else NULL. */
static const char *file_named_after(const char *text, const regmatch_t *m,
                                    const struct td_explain_parts *p)
{
    const char *after = text + m[0].rm_eo, *eol = strchr(after, '\n');
    return file_between(after, eol ? eol : after + strlen(after), p, false);
}

/* The library a raiser's row names: its pattern's file, the driver, or a name. */
static const char *row_library(const struct raiser_row *r, const char *text, const regmatch_t *m,
                               const struct td_explain_parts *p, struct td_arena *a)
{
    /* a shell's ENOENT for a program that is there: the kernel found no
     * ELF interpreter (PT_INTERP); the one the text names, else the
     * program (the row's group), whose interpreter `file` shows */
    const char *interpreter =
        r->library && strcmp(r->library, "interpreter") == 0 ? named_interpreter(p) : NULL;
    if (interpreter)
        return interpreter;
    size_t n = 0;
    const char *g = group_text(r, text, m, &n);
    if (g && (!r->library || (bare_row(r) && sentence_word(g, n))) && !memchr(g, '.', n) &&
        !memchr(g, '/', n) && !memchr(g, '\\', n)) {
        /* a bare word the row took for the library's name is a word of the
         * message when the message goes on to name a file ("GDExtension
         * dynamic library not found: C:/x/a.dll" is no library "dynamic") */
        const char *named = file_named_after(text, m, p);
        if (named)
            return named;
    }
    if (!g && binding_row(r))
        return td_explain_binding_library(text, NULL, 0, td_explain_platform_column(p->platform));
    const char *dot = g && !r->library ? memchr(g, '.', n) : NULL;
    const char *word = dot ? td_explain_split_name_start(text, g, dot) : NULL;
    if (word) /* "VCRUNTIME 140.dll": the row's group holds the name's end */
        return td_explain_joined_name(word, g, g + n, a);
    return g ? group_library(r, g, n, p, a) : named_library(r, text, m, p, a);
}

/* The length of the longest Windows path in TEXT ("C:\\..." or "C:/..."):
 * to the closing quote when quoted, else to the first blank. */
static size_t longest_windows_path(const char *text)
{
    size_t best = 0;
    for (const char *p = text + 1; *p && p[1]; p++) {
        if (p[0] != ':' || (p[1] != '\\' && p[1] != '/') || !isalpha((unsigned char)p[-1]) ||
            (p - 1 > text && isalnum((unsigned char)p[-2])))
            continue; /* one letter: "https://" is no drive */
        char quote = p - 1 > text && strchr("'\"`", p[-2]) ? p[-2] : 0;
        size_t n = 1;
        while (p[n] && p[n] != '\n' && (quote ? p[n] != quote : p[n] != ' ' && p[n] != '\t'))
            n++;
        if (n + 1 > best)
            best = n + 1; /* with its drive letter */
    }
    return best;
}

/* A file operation that failed for a path longer than Windows' MAX_PATH
 * (260 characters with its terminator) when long paths are not enabled:
 * "No such file or directory", WinError 3 or 206, whatever it tried. */
static bool past_max_path(const char *text, const struct td_explain_parts *p)
{
    bool failed = strstr(text, "No such file or directory") || strstr(text, "Errno 2]") ||
                  strstr(text, "cannot find the path") || strstr(text, "too long");
    for (size_t i = 0; i < p->n_codes && !failed; i++)
        failed = strcmp(p->codes[i].space, "win32") == 0 &&
                 (strcmp(p->codes[i].value, "3") == 0 || strcmp(p->codes[i].value, "206") == 0);
    return failed && longest_windows_path(text) >= 260;
}

/* The first CUDA source location in TEXT ("…\\ggml-cuda\\ggml-cuda.cu:2568",
 * "/src/dag_tracer.cu:135"), lower-cased with forward slashes, else NULL. */
static const char cuda_source_re[] = "([^] \t\n\"'`(<>[]+\\.cuh?):[0-9]+";

static char *cuda_source_location(const char *text, struct td_arena *a)
{
    static regex_t re;
    static int state; /* 0 not compiled, 1 ready, -1 failed */
    if (!state)
        state = regcomp(&re, cuda_source_re, REG_EXTENDED | REG_NEWLINE) == 0 ? 1 : -1;
    regmatch_t m[2];
    if (state < 0 || !strstr(text, ".cu") || regexec(&re, text, 2, m, 0) != 0)
        return NULL;
    char *s = td_arena_strndup(a, text + m[1].rm_so, (size_t)(m[1].rm_eo - m[1].rm_so));
    for (char *c = s; c && *c; c++)
        *c = *c == '\\' ? '/' : (char)tolower((unsigned char)*c);
    return s;
}

/* A GPU architecture error raised at a CUDA source location is about the
 * binary that source was compiled into (data/cuda_source_modules.tsv):
 * ggml's CUDA backend, a program's own code; torch's CUDA library only for
 * torch's sources, or when the text names torch. */
static void cuda_source_module(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    const char *at = cuda_source_location(text, a);
    if (!at)
        return;
    bool torch = strstr(text, "torch") || strstr(text, "Torch") || strstr(text, "TORCH");
    int k = td_explain_platform_column(p->platform);
    for (size_t i = 0; i < g_rd.n_sources; i++) {
        const struct source_row *r = &g_rd.sources[i];
        if (strcmp(r->match, "*") == 0 ? torch : !strstr(at, r->match))
            continue;
        p->raiser_library = r->library[k];
        if (r->detail) {
            p->raiser_detail = r->detail;
            p->raiser_source = r->source;
        }
        if (r->fix)
            p->raiser_fix = r->fix;
        return;
    }
}

/* The torch C++/CUDA extension whose function the text calls
 * ("causal_conv1d_cuda.causal_conv1d_fwd", "flash_attn_2_cuda.fwd(") when a
 * GPU error follows: torch.utils.cpp_extension's CUDAExtension modules are
 * conventionally named X_cuda, and their kernels are compiled for the
 * architectures of the extension's own build, not torch's. Torch's own
 * libraries (torch_cuda, c10_cuda) and a file's suffix ("torch_cuda.dll")
 * are not calls. */
static const char *extension_kernel_module(const char *text, struct td_arena *a)
{
    static const char *const own[] = {"torch_cuda", "c10_cuda", "libtorch_cuda", "libc10_cuda"};
    static const char *const suffixes[] = {"dll", "so",  "pyd", "dylib", "lib",     "cu",
                                           "cuh", "cpp", "h",   "py",    "cpython", "abi3"};
    for (const char *q = strstr(text, "_cuda."); q; q = strstr(q + 1, "_cuda.")) {
        const char *start = q;
        while (start > text && ident_char(start[-1]))
            start--;
        const char *fn = q + 6;
        size_t fn_n = ident_span(fn);
        if (start == q || fn_n == 0 || isdigit((unsigned char)*start) ||
            (start > text && strchr("/\\-", start[-1])))
            continue;
        size_t n = (size_t)(q + 5 - start);
        if (!td_explain_one_of(own, sizeof own / sizeof *own, start, n) &&
            !td_explain_one_of(suffixes, sizeof suffixes / sizeof *suffixes, fn, fn_n))
            return td_arena_strndup(a, start, n);
    }
    return NULL;
}

/* The torch CUDA build the text names by its local version ("torch
 * 2.9.0+cu128", "torch2.9 + cu128", "torch==2.5.1+cu124"): TORCH gets "2.9.0",
 * CUDA "12.8". False when no torch version is followed by its +cuXYZ. */
static bool torch_cuda_build(const char *text, char torch[16], char cuda[8])
{
    for (const char *t = strstr(text, "orch"); t; t = strstr(t + 1, "orch")) {
        if (t == text || (t[-1] != 't' && t[-1] != 'T'))
            continue;
        const char *v = t + 4;
        v += strspn(v, " =-v");
        size_t n = strspn(v, "0123456789.");
        if (n < 3 || n >= 16 || !isdigit((unsigned char)v[0]) || !strchr(v, '.'))
            continue;
        const char *c = v + n;
        c += strspn(c, " ");
        if (*c != '+')
            continue;
        c += 1 + strspn(c + 1, " ");
        if (strncmp(c, "cu", 2) != 0 || strspn(c + 2, "0123456789") != 3)
            continue;
        memcpy(torch, v, n);
        torch[n] = '\0';
        snprintf(cuda, 8, "%.2s.%c", c + 2, c[4]);
        return true;
    }
    return false;
}

/* The one GPU architecture the text names ("sm120", "sm_120"), as MAJOR and
 * MINOR; false when it names none or several (a list of a build's arches). */
static bool one_gpu_arch(const char *text, int *major, int *minor)
{
    int found = 0;
    for (const char *s = strstr(text, "sm"); s; s = strstr(s + 1, "sm")) {
        const char *d = s + 2 + (s[2] == '_');
        size_t n = strspn(d, "0123456789");
        if ((s > text && isalnum((unsigned char)s[-1])) || n < 2 || n > 3 ||
            isalnum((unsigned char)d[n]) || d[n] == '_')
            continue;
        int cc = atoi(d);
        if (found && cc != found)
            return false;
        found = cc;
    }
    if (!found)
        return false;
    *major = found / 10;
    *minor = found % 10;
    return true;
}

/* Whether the torch build the text names holds SASS for the one GPU
 * architecture it names (data/torch_cuda_arch_list.tsv): then torch's own
 * kernels run there, and a "no kernel image" is another binary's. */
static bool torch_build_has_gpu(const char *text, const struct td_explain_parts *p)
{
    char torch[16], cuda[8];
    int major, minor;
    if (!torch_cuda_build(text, torch, cuda) || !one_gpu_arch(text, &major, &minor))
        return false;
    bool windows = p->platform && strcmp(p->platform, "windows") == 0;
    return td_kb_torch_arch_fit(torch, cuda, windows ? "windows" : "linux", major, minor) ==
           TD_KB_ARCH_SASS;
}

/* The kernel-less binary is CUDA code other than torch's that the text does
 * not name: data/cuda_source_modules.tsv's "*" row says what and how. */
static void other_cuda_code(struct td_explain_parts *p)
{
    p->raiser_library = NULL;
    for (size_t i = 0; i < g_rd.n_sources; i++) {
        const struct source_row *r = &g_rd.sources[i];
        if (strcmp(r->match, "*") != 0)
            continue;
        if (r->detail) {
            p->raiser_detail = r->detail;
            p->raiser_source = r->source;
        }
        if (r->fix)
            p->raiser_fix = r->fix;
    }
}

static void use_row(const struct raiser_row *r, const char *text, const regmatch_t *m,
                    struct td_explain_parts *p, struct td_arena *a)
{
    p->raiser = r->raiser;
    p->operation = r->operation;
    p->raiser_kind = r->kind;
    p->raiser_detail = r->detail;
    p->raiser_fix = r->fix;
    p->raiser_source = r->source;
    p->raiser_library = row_library(r, text, m, p, a);
    p->raiser_imported = r->library && strcmp(r->library, "imported") == 0;
    if (r->library && strcmp(r->library, "torch-cuda") == 0) {
        const char *torch_cuda = p->raiser_library;
        cuda_source_module(text, p, a);
        /* torch prints a CUDA error as "CUDA error: <cudaGetErrorString>";
         * the same string after a program's own check macro
         * ("cudaCheckError() failed : no kernel image ...") in a text that
         * never names torch is about that program's kernels, which the text
         * does not name */
        const char *k = strstr(text, "o kernel image is available");
        bool torch = strstr(text, "torch") || strstr(text, "Torch") || strstr(text, "TORCH");
        if (p->raiser_library == torch_cuda && k && !torch &&
            (k - text < 13 || strncmp(k - 13, "CUDA error: ", 12) != 0))
            p->raiser_library = NULL;
        /* no kernel image while an extension's function runs, and torch's
         * own check of the GPU against its architectures said nothing: the
         * extension's kernels lack the GPU's architecture */
        const char *ext = k && p->raiser_library == torch_cuda &&
                                  !strstr(text, "not compatible with the current PyTorch")
                              ? extension_kernel_module(text, a)
                              : NULL;
        if (ext)
            p->raiser_library = ext;
        /* no kernel image on a GPU whose architecture the torch build the
         * text names was compiled for: the binary without it is another
         * (an extension the text does not name), unless torch's own check
         * of the GPU said otherwise */
        if (k && p->raiser_library == torch_cuda &&
            !strstr(text, "not compatible with the current PyTorch") &&
            torch_build_has_gpu(text, p))
            other_cuda_code(p);
    }
}

/* Whether a token of a dialog's sentence other than its DLL (group G of M)
 * is a function's name -- a leading ?, an @ or _, a lower-case letter before
 * a capital, letters and digits mixed -- rather than a word of the sentence:
 * the entry-point dialog names the function and the DLL, the missing-DLL
 * dialog the DLL only, in whatever language. */
static bool names_an_entry_point(const char *text, const regmatch_t *m, int g)
{
    const char *s = text + m[0].rm_so, *end = text + m[0].rm_eo;
    while (s < end) {
        while (s < end && strchr(" \t\"'`,.;:()", *s))
            s++;
        const char *w = s;
        while (s < end && !strchr(" \t\"'`,;()", *s))
            s++;
        if (w == s || (s > text + m[g].rm_so && w < text + m[g].rm_eo))
            continue; /* empty, or the DLL itself (inside its quotes) */
        bool alpha = false, digit = false, mark = *w == '?';
        for (const char *c = w; c < s; c++) {
            alpha = alpha || isalpha((unsigned char)*c);
            digit = digit || isdigit((unsigned char)*c);
            mark = mark || *c == '@' || *c == '_' ||
                   (c > w && islower((unsigned char)c[-1]) && isupper((unsigned char)*c));
        }
        if (alpha && (mark || digit))
            return true;
    }
    return false;
}

/* Whether TEXT carries a Windows message box's frame, in any display
 * language: its caption line ("python.exe - System Error", "python.exe -
 * Systemfehler": the program's file, a dash, the title), or the rules of
 * dashes that Ctrl+C on a message box writes around its caption and text. */
static bool message_box_frame(const char *text)
{
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        size_t dashes = strspn(line, "-");
        if (dashes >= 10 && dashes == n)
            return true;
        const char *exe = NULL;
        for (const char *c = line; c + 6 < line + n; c++)
            if (strncasecmp(c, ".exe - ", 7) == 0) {
                exe = c;
                break;
            }
        if (exe && exe > line && !memchr(line, ' ', (size_t)(exe - line)))
            return true;
        line += n + (line[n] != '\0');
    }
    return false;
}

/* Whether row R's group captured a file the text names only inside a list
 * of files (marked listed): such a file is mentioned, not singled out. */
static bool captures_listed(const struct raiser_row *r, const char *text, const regmatch_t *m,
                            const struct td_explain_parts *p)
{
    size_t n = 0;
    const char *s = group_text(r, text, m, &n);
    if (!s)
        return false;
    for (size_t i = 0; i < p->n_files; i++)
        if (p->files[i].listed && strlen(p->files[i].name) == n &&
            strncmp(p->files[i].name, s, n) == 0)
            return true;
    return false;
}

/* Whether bare row R, matched by M in TEXT, captured a word of its sentence
 * rather than a library's name, and its line names no file after it: the row
 * then reads nothing ("could not load the required library"). */
static bool captures_sentence_word(const struct raiser_row *r, const char *text,
                                   const regmatch_t *m, const struct td_explain_parts *p)
{
    size_t n = 0;
    const char *g = bare_row(r) ? group_text(r, text, m, &n) : NULL;
    return g && sentence_word(g, n) && !file_named_after(text, m, p);
}

/* Row R's compiled pattern, NULL when it does not compile. */
static const regex_t *raiser_re(struct raiser_row *r)
{
    return td_lazy_re(&r->re, r->pattern, REG_EXTENDED | REG_NEWLINE);
}

/* Whether row R matches TEXT, its first NMATCH groups in M: the needle
 * every match holds is looked for first, a cheaper test than the regex. */
static bool raiser_matches(const struct raiser_row *r, const char *text, regmatch_t *m,
                           size_t nmatch)
{
    struct raiser_row *w = &g_rd.raisers[r - g_rd.raisers]; /* its needles, found once */
    if (!r->pattern || (r->needle[0] && !strstr(text, r->needle)))
        return false;
    if (!r->needles_found)
        w->needles_found = true, td_ere_needles(r->pattern, &w->needles);
    if (!td_ere_needles_in(&r->needles, text, false))
        return false;
    const regex_t *re = raiser_re(w);
    return re && td_ere_needles_exec(re, &r->needles, text, nmatch, m) == 0;
}

/* Whether row R is the system loader's own (dyld's or ld.so's). */
static bool system_loader(const struct raiser_row *r)
{
    return strcmp(r->raiser, "dyld") == 0 || strcmp(r->raiser, "ld.so") == 0;
}

/* A wrapper that says only that a load failed (R's "unable to load shared
 * object", a runtime's "could not load X": a load row of missing_library)
 * prints the system loader's own reason after it (dlerror()); when a later
 * row of dyld or ld.so reads that reason as more than a missing file ("unknown
 * file type": no Mach-O at all), the loader's row is the raiser. R (row
 * R, matched at index I) otherwise, with M its match, which a loader's row
 * found instead overwrites (all RAISER_SLOTS of M). */
static const struct raiser_row *loader_reason(const struct raiser_row *r, size_t i,
                                              const char *text, regmatch_t *m)
{
    if (strcmp(r->operation, "load") != 0 || !r->kind ||
        strcmp(r->kind, TD_KIND_MISSING_LIBRARY) != 0 || system_loader(r))
        return r;
    for (size_t j = i + 1; j < g_rd.n_raisers; j++) {
        const struct raiser_row *q = &g_rd.raisers[j];
        regmatch_t n[RAISER_SLOTS];
        if (!system_loader(q) || strcmp(q->operation, "load") != 0 || !q->kind ||
            strcmp(q->kind, TD_KIND_MISSING_LIBRARY) == 0 ||
            !raiser_matches(q, text, n, RAISER_SLOTS))
            continue;
        /* every slot: Q's groups past R's would otherwise keep R's matches */
        memcpy(m, n, sizeof n);
        return q;
    }
    return r;
}

/* Whether P's platform was read from a sign of WSL 2 (data/platform_signs.tsv):
 * there CUDA's driver library is the Windows driver's, mapped in by WSL. */
static bool under_wsl(const struct td_explain_parts *p)
{
    return p->platform_sign && strstr(p->platform_sign, "WSL");
}

/* Whether row R reads a text only on WSL 2 ("wsl-driver": no device there
 * means a Linux driver's libcuda.so.1 shadows the one WSL maps in). */
static bool row_for_wsl(const struct raiser_row *r)
{
    return strcmp(r->raiser, "wsl-driver") == 0;
}

/* Whether a line of TEXT is a shell prompt whose host name is 12 lower-case
 * hex digits, the first twelve of a container's ID, which Docker gives a
 * container as its host name unless told another ("root@3f9c2a1b7d4e:"). */
static bool container_prompt(const char *text)
{
    for (const char *at = strchr(text, '@'); at; at = strchr(at + 1, '@')) {
        size_t n = strspn(at + 1, "0123456789abcdef");
        bool user = at > text && (isalnum((unsigned char)at[-1]) || at[-1] == '_');
        if (user && n == 12 && at[13] == ':')
            return true;
    }
    return false;
}

/* Whether TEXT shows a program run in a container -- a container's prompt,
 * or a command that runs one (docker/podman/nerdctl run or exec, kubectl
 * exec) -- and no runtime hook on the host spoke: nvidia-container-cli, the
 * OCI hook or nvidia-docker 1's plugin run NVML on the host, not in the
 * image. */
static bool client_in_container(const char *text)
{
    static const char *const host_side[] = {"nvidia-container-cli", "OCI runtime",
                                            "nvidia-docker |", "error running hook"};
    for (size_t i = 0; i < sizeof host_side / sizeof *host_side; i++)
        if (strstr(text, host_side[i]))
            return false;
    static const char *const runs[] = {"docker run ",  "docker exec ", "podman run ",
                                       "podman exec ", "nerdctl run ", "kubectl exec ",
                                       "docker image", "Docker image"};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++)
        if (strstr(text, runs[i]))
            return true;
    return container_prompt(text);
}

/* Whether row R reads a text only when it shows the failing program inside
 * a container ("nvml-image": the image's own driver libraries). */
static bool row_for_container(const struct raiser_row *r)
{
    return strcmp(r->raiser, "nvml-image") == 0;
}

static void read_raiser(const char *text, struct td_explain_parts *p, struct td_arena *a)
{
    for (size_t i = 0; i < g_rd.n_raisers; i++) {
        const struct raiser_row *r = &g_rd.raisers[i];
        regmatch_t m[RAISER_SLOTS];
        if (row_for_wsl(r) && !under_wsl(p))
            continue;
        if (row_for_container(r) && !client_in_container(text))
            continue;
        if (!raiser_matches(r, text, m, RAISER_SLOTS))
            continue;
        if (captures_listed(r, text, m, p))
            continue; /* "SDL2.dll, ... and zlib1.dll are present": none singled out */
        if (captures_sentence_word(r, text, m, p))
            continue; /* "could not load the required library": no name */
        if (binding_row(r) && !row_library(r, text, m, p, a))
            continue; /* a type or class of no binding the table knows */
        if (strcmp(r->raiser, "dialog-sentence") == 0 && !message_box_frame(text))
            continue; /* a user's sentence about a DLL, not the dialog's */
        r = loader_reason(r, i, text, m);
        use_row(r, text, m, p, a);
        if (strcmp(r->raiser, "dialog-sentence") == 0 && names_an_entry_point(text, m, r->group)) {
            /* a symbol looked for, not a load: a loader form's reading of
             * the same text keeps its kind */
            p->raiser_kind = TD_KIND_MISSING_SYMBOL;
            p->operation = "symbol";
        }
        break;
    }
    /* no raiser's words, but the path the operation failed on is too long */
    for (size_t i = 0; !p->raiser && i < g_rd.n_raisers; i++)
        if (strcmp(g_rd.raisers[i].raiser, "windows-path") == 0 && past_max_path(text, p))
            use_row(&g_rd.raisers[i], text, NULL, p, a);
    /* The code decides over the operation's usual outcome: a load that
     * failed with 193 is a wrong architecture, with 1455 too little memory. */
    /* an NTSTATUS with a kind of its own (data/error_codes.tsv) says more than
     * the Win32 error it maps to: 0xC000012F and 0xC000007B are both 193, but
     * the first is a file that is no PE image at all */
    /* the WSL row already reads the no-device code as what it means there */
    bool decided = p->raiser && strcmp(p->raiser, "wsl-driver") == 0;
    for (size_t pass = 0; pass < 2 && p->raiser && !decided; pass++) {
        for (size_t i = 0; i < p->n_codes && !decided; i++) {
            const struct td_part_code *c = &p->codes[i];
            if (!c->kind || (pass == 0) != (strcmp(c->space, "ntstatus") == 0))
                continue;
            bool load_code = strcmp(c->space, "win32") == 0 || strcmp(c->space, "errno") == 0 ||
                             strcmp(c->space, "ntstatus") == 0;
            /* a code that says only that nothing loadable was found (ENOENT,
             * 126) does not undo a row that says why: the JVM read the file's
             * ELF header after dlopen's "No such file or directory" (glibc
             * passes over a file of another machine as if it were not there) */
            if (load_code && p->raiser_kind && strcmp(c->kind, TD_KIND_MISSING_LIBRARY) == 0 &&
                strcmp(p->raiser_kind, TD_KIND_MISSING_LIBRARY) != 0)
                continue;
            if (load_code == (strcmp(p->operation, "load") == 0) || !p->raiser_kind) {
                p->raiser_kind = c->kind;
                decided = true;
            }
        }
    }
    /* No raiser's own words, but a code that names the failure
     * (cudaErrorNoDevice, CUDA_ERROR_OUT_OF_MEMORY, ncclSystemError). */
    for (size_t i = 0; !p->raiser && i < p->n_codes; i++) {
        const struct td_part_code *c = &p->codes[i];
        const struct code_row *row = code_by_value(c->space, c->value);
        if (!c->kind || !row || strcmp(c->space, "win32") == 0 || strcmp(c->space, "errno") == 0 ||
            strcmp(c->space, "ntstatus") == 0)
            continue;
        p->raiser = c->space;
        p->operation = "device";
        p->raiser_kind = c->kind;
        p->raiser_library = row->library && strcmp(row->library, "driver") == 0
                                ? driver_library(p->platform)
                                : row->library;
    }
}

/* P's platform, where it came from and the sign that decided it: GIVEN
 * (explain --platform) over everything; else the heaviest sign of the text
 * (F's, errors_platform.c); else, a library file named with no sign of
 * another platform, Linux; else the machine explain runs on. */
static void platform_of(const struct td_explain_fields *f, const char *given,
                        struct td_explain_parts *p)
{
    if (given) {
        p->platform = given, p->platform_from = "option";
    } else if (f->platform) {
        p->platform = f->platform, p->platform_from = "text";
        p->platform_sign = f->platform_sign;
    } else if (p->n_files) {
        p->platform = "linux", p->platform_from = "text";
        p->platform_sign = "a library file named, of no other platform's shape";
    } else {
        /* no sign at all ("CUDA error: no kernel image is available"): the
         * text was most likely copied on the machine explain runs on, whose
         * platform names the files (torch_cuda.dll, nvcuda.dll) */
        p->platform = td_host_platform(), p->platform_from = "host";
    }
}

/* A delay-load helper's exception (facility 0x6D: 0xC06D007E, 0xC06D007F,
 * data/windows_load_status.tsv) is raised with RaiseException, in
 * KERNELBASE.dll (kernel32.dll before Windows 7), which Windows Error
 * Reporting and Event Viewer then name as the faulting module, and ntdll.dll
 * dispatches it: those files are named as the raiser, not singled out as the
 * one that could not be loaded. */
static void mark_raisers_of_delay_load(const struct td_explain_fields *f,
                                       struct td_explain_parts *p)
{
    static const char *const raisers[] = {"kernelbase.dll", "kernel32.dll", "ntdll.dll"};
    if (!td_explain_delay_load(f))
        return;
    for (size_t i = 0; i < p->n_files; i++)
        for (size_t k = 0; k < sizeof raisers / sizeof raisers[0]; k++)
            if (strcasecmp(p->files[i].name, raisers[k]) == 0)
                p->files[i].listed = true;
}

/* The GPU driver's own file that defines each symbol of P whose owner is
 * the driver's API (data/symbol_owners.tsv: cu* to libcuda, nvml* to
 * libnvidia-ml), on P's platform. */
static void driver_owners(struct td_explain_parts *p)
{
    bool windows = p->platform && strcmp(p->platform, "windows") == 0;
    for (size_t i = 0; i < p->n_symbols; i++) {
        struct td_part_symbol *y = &p->symbols[i];
        if (y->owner && strcmp(y->owner, "libcuda") == 0)
            y->driver = driver_library(p->platform);
        else if (y->owner && strcmp(y->owner, "libnvidia-ml") == 0)
            y->driver = windows ? "nvml.dll" : "libnvidia-ml.so.1";
    }
}

void td_explain_read_on(const char *text, const struct td_explain_fields *f, const char *given,
                        struct td_explain_parts *p, struct td_arena *a)
{
    load_tables();
    memset(p, 0, sizeof *p);
    read_files(text, p, a);
    read_files_at_errors(text, p, a);
    mark_listed(text, p);
    mark_raisers_of_delay_load(f, p);
    read_symbols(text, p, a);
    read_versions(text, f, p, a);
    platform_of(f, given, p);
    driver_owners(p);
    td_explain_read_package(text, p);
    read_codes(text, f, p, a);
    read_raiser(text, p, a);
    /* no raiser's words: the operation the text's own structure shows, when
     * it is a file operation (a delete or a write of the file, no load) */
    if (!p->raiser)
        p->operation = td_explain_file_operation(text);
}

size_t td_explain_raiser_bad_groups(const char **out, size_t cap)
{
    load_tables();
    size_t n = 0;
    for (size_t i = 0; i < g_rd.n_raisers && n < cap; i++) {
        const regex_t *re = raiser_re(&g_rd.raisers[i]);
        if (!re || (size_t)g_rd.raisers[i].group > re->re_nsub ||
            g_rd.raisers[i].group >= RAISER_SLOTS)
            out[n++] = g_rd.raisers[i].pattern;
    }
    if (g_rd.raisers_dropped && n < cap)
        out[n++] = "(rows past MAX_RAISERS were not loaded)";
    if (td_explain_packages_dropped() && n < cap)
        out[n++] = "(rows past MAX_PACKAGES were not loaded)";
    if (td_explain_bindings_dropped() && n < cap)
        out[n++] = "(rows past MAX_BINDINGS were not loaded)";
    const char *cut = td_explain_cause_tables_cut();
    if (cut && n < cap)
        out[n++] = cut;
    return n + td_explain_file_operation_bad_rows(out + n, cap - n);
}

const char *td_explain_driver_library(const char *platform)
{
    return driver_library(platform);
}

size_t td_explain_raiser_eres(const char **out, size_t cap)
{
    load_tables();
    size_t n = 0;
    for (size_t i = 0; i < g_rd.n_raisers && n < cap; i++)
        out[n++] = g_rd.raisers[i].pattern;
    for (size_t k = 0; k < N_VERSION_RULES && n < cap; k++)
        out[n++] = version_rules[k].re;
    if (n < cap)
        out[n++] = cuda_source_re;
    if (n < cap)
        out[n++] = td_explain_library_name_re;
    return n;
}
