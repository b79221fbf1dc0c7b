/* The general layer under the error catalogue: any loader message (Windows
 * codes and dialogs, ld.so, dyld, Python's import errors, torch's DLL
 * preload) becomes what failed, who needed it, the role of the file, and a
 * short ranked list of causes (data/load_error_*.tsv, docs/explain.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "base/version.h"
#include "kb/explain/errors_internal.h"

enum {
    MAX_ROLES = 128,
    MAX_CAUSE_ROWS = 96,
    MAX_DIALOGS = 64,
    MAX_FRAMES = 32,
    MAX_API_HOMES = 64,
    TEXT_CAP = 2048
};

struct role_row {
    const char *how, *text, *role; /* how: prefix, contains, path, suffix */
};
struct cause_row {
    const char *kind, *role, *cause_kind, *detail, *fix, *confirm, *source;
    int rank;
};
struct api_home {
    const char *function, *dll, *since, *source; /* data/windows_api_homes.tsv */
};
struct dialog_row {
    const char *form, *kind, *pattern;
    int file, symbol;
    char needle[64];               /* td_ere_needle's run, compared without case, "" */
    bool needles_found;            /* NEEDLES found: at the first text that holds NEEDLE */
    struct td_ere_needles needles; /* texts one of which every match holds, without case */
    struct td_lazy_re re;
};

/* A dialog's frame: the caption of the message box ("<program>.exe - System
 * Error", "- Entry Point Not Found"), which tells the dialog's kind whatever
 * words its body is retold in (windows_loader_dialogs.tsv's "frame" rows). */
struct frame_row {
    const char *kind, *pattern; /* the caption alone */
    char needle[64];            /* td_ere_needle's run of the caption, or "" */
    struct td_lazy_re re;
};

static struct {
    bool loaded;
    struct role_row roles[MAX_ROLES];
    size_t n_roles;
    struct cause_row causes[MAX_CAUSE_ROWS];
    size_t n_causes;
    struct dialog_row dialogs[MAX_DIALOGS];
    size_t n_dialogs;
    struct frame_row frames[MAX_FRAMES];
    size_t n_frames;
    struct api_home homes[MAX_API_HOMES];
    size_t n_homes;
    const char *cut;       /* a table with rows past what its array keeps, or NULL */
    struct td_arena arena; /* the tables' text; lives as long as the program */
} g_kb;

/* After a loader's loop stopped at its array's end: a row left in the table
 * would be read as absent, so the table is named for the data tests. */
static void note_cut(struct td_table *t, size_t n, size_t max, const char *what)
{
    if (td_explain_rows_left(t, n, max))
        g_kb.cut = what;
}

static const char *keep(const char *cell)
{
    return td_arena_strdup(&g_kb.arena, cell);
}

static void load_roles(void)
{
    static const char *const cols[] = {"match", "role", NULL};
    struct td_table t;
    if (!td_table_open(&t, "load_error_roles", cols))
        return;
    while (g_kb.n_roles < MAX_ROLES && td_table_next(&t)) {
        const char *m = td_table_cell(&t, 0), *colon = strchr(m, ':');
        if (!colon)
            continue;
        struct role_row *r = &g_kb.roles[g_kb.n_roles++];
        r->how = td_arena_strndup(&g_kb.arena, m, (size_t)(colon - m));
        r->text = keep(colon + 1);
        r->role = keep(td_table_cell(&t, 1));
    }
    note_cut(&t, g_kb.n_roles, MAX_ROLES, "(rows past MAX_ROLES were not loaded)");
}

static void load_causes(void)
{
    static const char *const cols[] = {"kind", "role",    "rank",   "cause_kind", "detail",
                                       "fix",  "confirm", "source", NULL};
    struct td_table t;
    if (!td_table_open(&t, "load_error_causes", cols))
        return;
    while (g_kb.n_causes < MAX_CAUSE_ROWS && td_table_next(&t)) {
        struct cause_row *c = &g_kb.causes[g_kb.n_causes++];
        c->kind = keep(td_table_cell(&t, 0));
        c->role = keep(td_table_cell(&t, 1));
        c->rank = atoi(td_table_cell(&t, 2));
        c->cause_kind = keep(td_table_cell(&t, 3));
        c->detail = keep(td_table_cell(&t, 4));
        c->fix = keep(td_table_cell(&t, 5));
        c->confirm = keep(td_table_cell(&t, 6));
        c->source = keep(td_table_cell(&t, 7));
    }
    note_cut(&t, g_kb.n_causes, MAX_CAUSE_ROWS, "(rows past MAX_CAUSE_ROWS were not loaded)");
}

/* Appends S to OUT (capacity CAP) at *O, if it fits. */
static void put(char *out, size_t cap, size_t *o, const char *s)
{
    size_t n = strlen(s);
    if (*o + n + 1 < cap) {
        memcpy(out + *o, s, n);
        *o += n;
    }
}

/* A table pattern with its \n and \t written as escapes made real (an
 * escaped backslash stays as it is, for regcomp), and each blank outside a
 * bracket expression stretched to any run of blanks and line breaks ("a b"
 * also matches "a \nb", "a  b"; " ?" becomes optional), since a dialog's
 * text reaches us rewrapped by whatever it was pasted into. */
static const char *decode_pattern(const char *cell)
{
    char out[TEXT_CAP];
    size_t o = 0;
    bool bracket = false;
    for (const char *p = cell; *p && o + 2 < sizeof out; p++) {
        if (p[0] == '\\' && (p[1] == 'n' || p[1] == 't')) {
            out[o++] = p[1] == 'n' ? '\n' : '\t';
            p++;
        } else if (p[0] == '\\' && p[1]) {
            out[o++] = *p++;
            out[o++] = *p;
        } else if (bracket) {
            if (p[0] == '[' && p[1] == ':') {
                const char *end = strstr(p + 2, ":]");
                size_t n = end ? (size_t)(end + 2 - p) : 1;
                if (o + n + 1 >= sizeof out)
                    break;
                memcpy(out + o, p, n);
                o += n;
                p += n - 1;
                continue;
            }
            out[o++] = *p;
            bracket = *p != ']';
        } else if (*p == '[') {
            out[o++] = *p;
            bracket = true;
            if (p[1] == '^')
                out[o++] = *++p;
            if (p[1] == ']')
                out[o++] = *++p;
        } else if (*p == ' ') {
            /* a blank: blanks and line breaks, and the ">" with which a
             * markdown quote starts each line of a dialog pasted into it */
            bool optional = p[1] == '?' || p[1] == '*';
            put(out, sizeof out, &o, optional ? "[[:space:]>]*" : "[[:space:]>]+");
            if (optional || p[1] == '+')
                p++;
        } else {
            out[o++] = *p;
        }
    }
    out[o] = '\0';
    return keep(out);
}

/* A frame row: its caption, matched alone (a pattern for the program's name
 * before it would try every run of a long text's letters); what precedes a
 * caption is checked by framed_by_program. */
static void keep_frame(const char *kind, const char *caption)
{
    if (g_kb.n_frames >= MAX_FRAMES) {
        g_kb.cut = "(frame rows past MAX_FRAMES were not loaded)";
        return;
    }
    struct frame_row *f = &g_kb.frames[g_kb.n_frames++];
    f->kind = keep(kind);
    f->pattern = decode_pattern(caption);
    if (f->pattern)
        td_ere_needle(f->pattern, f->needle, sizeof f->needle);
}

static void load_dialogs(void)
{
    static const char *const cols[] = {"form", "kind", "pattern", "file", "symbol", NULL};
    struct td_table t;
    if (!td_table_open(&t, "windows_loader_dialogs", cols))
        return;
    while (g_kb.n_dialogs < MAX_DIALOGS && td_table_next(&t)) {
        if (strcmp(td_table_cell(&t, 0), "frame") == 0) {
            keep_frame(td_table_cell(&t, 1), td_table_cell(&t, 2));
            continue;
        }
        struct dialog_row *d = &g_kb.dialogs[g_kb.n_dialogs++];
        d->form = keep(td_table_cell(&t, 0));
        d->kind = keep(td_table_cell(&t, 1));
        d->pattern = decode_pattern(td_table_cell(&t, 2));
        d->file = atoi(td_table_cell(&t, 3));
        d->symbol = atoi(td_table_cell(&t, 4));
        if (d->pattern)
            td_ere_needle(d->pattern, d->needle, sizeof d->needle);
    }
    note_cut(&t, g_kb.n_dialogs, MAX_DIALOGS, "(rows past MAX_DIALOGS were not loaded)");
}

static void load_api_homes(void)
{
    static const char *const cols[] = {"function", "dll", "since", "source", NULL};
    struct td_table t;
    if (!td_table_open(&t, "windows_api_homes", cols))
        return;
    while (g_kb.n_homes < MAX_API_HOMES && td_table_next(&t)) {
        struct api_home *h = &g_kb.homes[g_kb.n_homes++];
        h->function = keep(td_table_cell(&t, 0));
        h->dll = keep(td_table_cell(&t, 1));
        h->since = keep(td_table_cell(&t, 2));
        h->source = keep(td_table_cell(&t, 3));
    }
    note_cut(&t, g_kb.n_homes, MAX_API_HOMES, "(rows past MAX_API_HOMES were not loaded)");
}

static void load_tables(void)
{
    if (g_kb.loaded)
        return;
    g_kb.loaded = true;
    load_roles();
    load_causes();
    load_dialogs();
    load_api_homes();
}

const char *td_explain_cause_tables_cut(void)
{
    load_tables();
    return g_kb.cut;
}

size_t td_explain_quote_mark(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    if ((u[0] == 0xe2 || u[0] == 0xe3) && u[1] == 0x80 && u[2] >= 0x80 && u[2] <= 0xbf)
        return 3;
    if (u[0] == 0xef && u[1] == 0xbc &&
        ((u[2] >= 0x81 && u[2] <= 0x8f) || (u[2] >= 0x9a && u[2] <= 0xa0)))
        return 3;
    return 0;
}

/* What follows the UUID and the dash S starts with
 * ("05ca35ed-88f4-4568-81a2-30eecd927d50-"), or NULL: S starts with none. */
static const char *after_uuid(const char *s)
{
    static const int groups[] = {8, 4, 4, 4, 12};
    for (size_t g = 0; g < 5; g++) {
        for (int k = 0; k < groups[g]; k++)
            if (!isxdigit((unsigned char)*s++))
                return NULL;
        if (*s++ != '-')
            return NULL;
    }
    return s;
}

const char *td_explain_base_name(const char *path)
{
    const char *b = path;
    for (const char *p = path; *p; p++)
        if (*p == '/' || *p == '\\')
            b = p + 1;
    /* "dlopen(...sdk.so, 2)": a path shortened with dots names the file after
     * them; a file's own name starts with one dot at most */
    while (b[0] == '.' && b[1] == '.' && b[2])
        b++;
    /* a temporary copy a loader extracted under a UUID before the library's
     * own name ("05ca35ed-88f4-4568-81a2-30eecd927d50-jllama.dll", or after
     * the loader's own prefix: snappy-java's "snappy-1.1.4-<UUID>-
     * libsnappyjava.so") is that library: the name after the UUID, when it
     * has a letter of its own */
    for (const char *p = b; *p; p++) {
        if (p != b && p[-1] != '-')
            continue;
        const char *u = after_uuid(p);
        if (u && isalpha((unsigned char)*u))
            return u;
    }
    while (td_explain_quote_mark(b) && b[3])
        b += 3; /* "『cublas64_11.dll": the quote is no part of the name */
    return b[0] == '.' && b[1] != '.' && b != path && b[-1] == '.' ? b + 1 : b;
}

static void lower(const char *s, char *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = (char)tolower((unsigned char)s[i]);
    out[i] = '\0';
}

static bool role_matches(const struct role_row *r, const char *name, const char *path)
{
    if (strcmp(r->how, "prefix") == 0)
        return strncmp(name, r->text, strlen(r->text)) == 0;
    if (strcmp(r->how, "contains") == 0)
        return strstr(name, r->text) != NULL;
    if (strcmp(r->how, "path") == 0)
        return strstr(path, r->text) != NULL;
    size_t n = strlen(name), k = strlen(r->text);
    return strcmp(r->how, "suffix") == 0 && n >= k && strcmp(name + n - k, r->text) == 0;
}

/* The role of PATH (data/load_error_roles.tsv): the first row that fits. */
static const char *role_of(const char *path)
{
    if (!path)
        return NULL;
    char name[512], whole[TEXT_CAP];
    lower(td_explain_base_name(path), name, sizeof name);
    lower(path, whole, sizeof whole);
    for (size_t i = 0; i < g_kb.n_roles; i++)
        if (role_matches(&g_kb.roles[i], name, whole))
            return g_kb.roles[i].role;
    return NULL;
}

/* Symbols of torch's own C++ namespaces (c10::, at::, torch::, caffe2::),
 * Itanium-mangled (macOS adds an underscore): a library that needs one was
 * built against some torch. */
static bool torch_symbol(const char *s)
{
    static const char *const prefixes[] = {"_ZN3c10",   "_ZNK3c10",   "_ZN2at",    "_ZNK2at",
                                           "_ZN5torch", "_ZNK5torch", "_ZN6caffe2"};
    if (!s)
        return false;
    if (s[0] == '_' && s[1] == '_')
        s++;
    /* a nested name pasted without its "_Z" (errors_read.c add_symbol) */
    size_t lost = s[0] == 'N' ? 2 : 0;
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(s, prefixes[i] + lost, strlen(prefixes[i] + lost)) == 0)
            return true;
    return false;
}

/* Whether the demangled name READABLE instantiates a template on long
 * ("data_ptr<long>", "item<unsigned long>"). */
static bool long_template(const char *readable)
{
    return readable && (strstr(readable, "<long>") || strstr(readable, "<unsigned long>"));
}

/* Whether S is Python's C API (Py_*, _Py*, PyUnicode_*), as dyld prints it
 * with its leading underscore or ld.so without. */
static bool python_symbol(const char *s)
{
    if (!s)
        return false;
    if (s[0] == '_')
        s++;
    if (s[0] == '_')
        s++;
    return strncmp(s, "Py", 2) == 0 && (s[2] == '_' || isupper((unsigned char)s[2]));
}

/* Whether NAME is a Windows DLL other than Python's own (python3.dll,
 * python311.dll): Python's C API is exported by those alone, so a Py-named
 * entry point a dialog looked for in another DLL (pywin32's pythoncom39.dll,
 * PyWinObject_AsWriteBuffer) is that DLL's own export. */
static bool foreign_dll(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    if (n < 5 || strcasecmp(name + n - 4, ".dll") != 0)
        return false;
    if (strncasecmp(name, "python", 6) != 0)
        return true;
    for (size_t i = 6; i < n - 4; i++)
        if (!isdigit((unsigned char)name[i]))
            return true;
    return false;
}

static char *grab(const char *text, const regmatch_t *m, int g, struct td_arena *a)
{
    if (g <= 0 || m[g].rm_so < 0)
        return NULL;
    char *s = td_arena_strndup(a, text + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
    if (!s)
        return NULL;
    td_explain_drop_closers(s); /* a dialog's text escaped in a JSON log or a repr */
    /* a dialog's own trailing punctuation ("上。", ".") is not part of the name,
     * nor the quote around a dialog retyped whole ("The procedure … X.pyd") */
    static const char *const tails[] = {
        "\xe4\xb8\x8a\xe3\x80\x82", "\xe4\xb8\x8a", "\xe3\x80\x82", ".", " ", "`", "\"", "'"};
    for (bool cut = true; cut;) {
        cut = false;
        size_t n = strlen(s);
        for (size_t k = 0; k < sizeof tails / sizeof tails[0]; k++) {
            size_t tl = strlen(tails[k]);
            if (n > tl && strcmp(s + n - tl, tails[k]) == 0) {
                s[n - tl] = '\0';
                cut = true;
                break;
            }
        }
    }
    while (*s == ' ' || *s == '`' || *s == '"' || *s == '\'') /* markdown's inline code, a quote */
        s++;
    return s;
}

/* A dialog's DLL ends at its extension: the loader writes the name and then
 * the sentence's period, so what a paste puts after the name and a blank --
 * the "<< ... >>" around a message box retyped, "(x64)", the poster's next
 * words -- is not part of it. A path may hold blanks before its last
 * component ("C:\Program Files\..."), so a name is cut only where an
 * extension of one to four letters or digits, a stop or comma perhaps after
 * it, meets a blank and no path separator follows. */
static void end_at_extension(char *s)
{
    for (char *p = strchr(s, '.'); p; p = strchr(p + 1, '.')) {
        size_t e = 0;
        while (e < 5 && isalnum((unsigned char)p[1 + e]))
            e++;
        if (e == 0 || e > 4)
            continue;
        char *end = p + 1 + e;
        char *blank = end + (*end == '.' || *end == ',' || *end == ';');
        if ((*blank == ' ' || *blank == '\t') && !strpbrk(blank, "\\/")) {
            *end = '\0';
            return;
        }
    }
}

/* Whether the N bytes at W end in a file's extension: a dot and one to
 * four letters or digits, perhaps a quote or a stop after them. */
static bool has_extension(const char *w, size_t n)
{
    while (n && strchr("\"'.,;)", w[n - 1]))
        n--;
    size_t e = 0;
    while (e < n && e < 5 && isalnum((unsigned char)w[n - 1 - e]))
        e++;
    return e >= 1 && e <= 4 && e < n && w[n - 1 - e] == '.';
}

/* The DLL a dialog names, from S (the rest of the line after "library"):
 * a name with no folder has no blank either, so words a user put before
 * the bare name ("[filepath] Plug64.dll", "the file X.dll") are not part of
 * it: the first word with an extension is the name, where the first word
 * has none; a path ("C:\\Program Files\\X\\y.dll") keeps its blanks. */
static char *bare_name_alone(char *s)
{
    if (strpbrk(s, "\\/:") || has_extension(s, strcspn(s, " \t")))
        return s;
    for (char *w = strpbrk(s, " \t"); w; w = strpbrk(w, " \t")) {
        w += strspn(w, " \t");
        size_t n = strcspn(w, " \t");
        if (has_extension(w, n)) {
            w[n] = '\0';
            return w;
        }
    }
    return s;
}

/* S without its line breaks, in place. */
static void drop_line_breaks(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++)
        if (*r != '\n' && *r != '\r')
            *w++ = *r;
    *w = '\0';
}

/* Whether the N bytes at TEXT hold NEEDLE, ASCII letters without case. */
static bool has_nocase_n(const char *text, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (strncasecmp(text + i, needle, k) == 0)
            return true;
    return false;
}

/* One of the Windows loader's dialogs (data/windows_loader_dialogs.tsv). */
static bool from_dialog(struct td_explain *x)
{
    regmatch_t m[10];
    for (size_t i = 0; i < g_kb.n_dialogs; i++) {
        struct dialog_row *d = &g_kb.dialogs[i];
        if (!d->pattern || (d->needle[0] && !td_ere_holds_nocase(x->text, d->needle)))
            continue;
        if (!d->needles_found)
            d->needles_found = true, td_ere_needles(d->pattern, &d->needles);
        if (!td_ere_needles_in(&d->needles, x->text, true))
            continue;
        const regex_t *re = td_lazy_re(&d->re, d->pattern, REG_EXTENDED | REG_ICASE | REG_NEWLINE);
        if (!re || regexec(re, x->text, 10, m, 0) != 0)
            continue;
        struct td_explain_load *l = &x->load;
        l->form = "dialog";
        l->kind = d->kind;
        char *file = grab(x->text, m, d->file, &x->arena);
        if (file)
            end_at_extension(file), file = bare_name_alone(file);
        l->file = file;
        l->library = l->file ? td_explain_base_name(l->file) : NULL;
        char *sym = grab(x->text, m, d->symbol, &x->arena);
        if (sym)
            drop_line_breaks(sym); /* a name the message box broke at its width is one name */
        l->symbol = sym;
        if (l->symbol && !*l->symbol)
            l->symbol = NULL; /* "The procedure entry point could not be located": no name */
        return true;
    }
    return false;
}

/* Whether the LEN bytes at P end in one of EXTS' extensions (".dll"),
 * without case, the byte after them no letter or digit. */
static bool module_end(const char *p, const char *const *exts, size_t n_exts, size_t *len)
{
    for (size_t i = 0; i < n_exts; i++) {
        size_t k = strlen(exts[i]);
        if (strncasecmp(p, exts[i], k) == 0 && !isalnum((unsigned char)p[k])) {
            *len = k;
            return true;
        }
    }
    return false;
}

/* Whether the colon at J of BODY, in a run of path bytes from START, ends a
 * drive: one letter before it, at the run's start or after a label's colon
 * ("C:\\x", "Text:C:\\x"). */
static bool drive_colon(const char *body, size_t start, size_t j)
{
    return j > start && isalpha((unsigned char)body[j - 1]) &&
           (j - 1 == start || body[j - 2] == ':');
}

/* The first module named in the N bytes at BODY whose extension is one of
 * EXTS: the name (with its path) runs back from the extension over the
 * bytes a Windows path holds, to a blank, a quote or a word of the sentence
 * in another script; a label before it ("Text:") and the dots of an elided
 * middle ("...Qt5Network.dll") are not part of it. */
static char *first_module(const char *body, size_t n, const char *const *exts, size_t n_exts,
                          struct td_arena *a)
{
    for (size_t i = 1; i < n; i++) {
        size_t len;
        if (body[i] != '.' || !module_end(body + i, exts, n_exts, &len) || i + len > n)
            continue;
        size_t start = i;
        while (start > 0 &&
               (isalnum((unsigned char)body[start - 1]) || strchr("_.+~$-\\/:", body[start - 1])))
            start--;
        const char *colon = NULL;
        for (size_t j = start; j < i; j++)
            if (body[j] == ':' && !drive_colon(body, start, j))
                colon = body + j;
        if (colon)
            start = (size_t)(colon + 1 - body);
        while (start < i && (body[start] == '.' || body[start] == '\\' || body[start] == '/'))
            start++;
        if (start == i)
            continue;
        /* "MSVCP 140.dll": the name retyped with a blank before its digits */
        const char *word = td_explain_split_name_start(body, body + start, body + i);
        return word ? td_explain_joined_name(word, body + start, body + i + len, a)
                    : td_arena_strndup(a, body + start, i + len - start);
    }
    return NULL;
}

/* Whether the caption at AT in TEXT follows a program's name the way the
 * loader's title bar writes it: "<program>.exe", then a dash (a hyphen, an
 * en or em dash) or none, with blanks or none around it. */
static bool framed_by_program(const char *text, const char *at)
{
    const char *p = at;
    while (p > text && strchr(" \t\r\n>", p[-1]))
        p--;
    if (p > text && p[-1] == '-')
        p--;
    else if (p - text >= 3 && (unsigned char)p[-3] == 0xe2 && (unsigned char)p[-2] == 0x80 &&
             ((unsigned char)p[-1] == 0x93 || (unsigned char)p[-1] == 0x94))
        p -= 3;
    while (p > text && (p[-1] == ' ' || p[-1] == '\t'))
        p--;
    return p - text >= 5 && strncasecmp(p - 4, ".exe", 4) == 0 &&
           (isalnum((unsigned char)p[-5]) || strchr("_+~$()-", p[-5]));
}

/* How far a caption's match reaches from its needle, either way: a caption
 * is a few words ("Ordinal Not Found"), its needle most of them. */
enum { CAPTION_REACH = 64 };

/* The next match of frame F's caption (compiled: RE) in TEXT at or after
 * FROM into M, its offsets from TEXT; false when there is none. regexec is
 * given alone a copy of the text around each place of the caption's needle,
 * CAPTION_REACH bytes either side (a caption may be wrapped over lines):
 * given the rest of the text from each caption, it measured all of it each
 * time (glibc's strlen, and the sanitizers' for their check), quadratic in
 * the captions of a long paste. */
static bool next_caption(const struct frame_row *f, const regex_t *re, const char *text,
                         const char *from, regmatch_t *m)
{
    size_t k = strlen(f->needle);
    char window[2 * CAPTION_REACH + sizeof f->needle];
    for (const char *p = td_ere_find_nocase(from, f->needle); p;
         p = td_ere_find_nocase(p + 1, f->needle)) {
        const char *w0 = p, *w1 = p + k;
        while (w0 > from && p - w0 < CAPTION_REACH)
            w0--;
        while (*w1 && (size_t)(w1 - p) < k + CAPTION_REACH)
            w1++;
        int eflags =
            (w0 > text && w0[-1] != '\n' ? REG_NOTBOL : 0) | (*w1 && *w1 != '\n' ? REG_NOTEOL : 0);
        memcpy(window, w0, (size_t)(w1 - w0));
        window[w1 - w0] = '\0';
        if (regexec(re, window, 1, m, eflags) == 0) {
            m[0].rm_so += (regoff_t)(w0 - text);
            m[0].rm_eo += (regoff_t)(w0 - text);
            return true;
        }
    }
    return false;
}

/* Whether a frame of KIND can be about the program itself: an .exe lacks an
 * entry point or an ordinal a DLL imports from it (plugins import from their
 * host); a missing-DLL or bad-image frame's program is the one running, its
 * name in the title bar, and an .exe its retold body names is not at fault. */
static bool program_may_lack(const char *kind)
{
    return strcmp(kind, "missing_symbol") == 0 || strcmp(kind, "missing_ordinal") == 0;
}

/* One of the loader's dialogs known by its frame (its caption) when its body
 * is retold, mistyped or in a language with no row: the module its body
 * names is the frame's kind's library -- a DLL first, else, for an entry
 * point or an ordinal, the program itself (missing from the .exe). Of several
 * frames the last that names a module tells: a dialog pasted inside another
 * program's ("python.exe - System Error" around a copy) is the innermost. */
static bool from_dialog_frame(struct td_explain *x)
{
    static const char *const dlls[] = {".dll", ".pyd", ".ocx", ".drv", ".cpl"};
    static const char *const exes[] = {".exe"};
    enum { BODY = 700 };
    if (!td_ere_holds_nocase(x->text, ".exe"))
        return false;
    const struct frame_row *best = NULL;
    const char *best_at = NULL;
    char *best_file = NULL;
    regmatch_t m[1];
    for (size_t i = 0; i < g_kb.n_frames; i++) {
        struct frame_row *f = &g_kb.frames[i];
        /* a caption is words: a row with no literal run (keep_frame) is not read */
        if (!f->pattern || !f->needle[0] || !td_ere_holds_nocase(x->text, f->needle))
            continue;
        const regex_t *re = td_lazy_re(&f->re, f->pattern, REG_EXTENDED | REG_ICASE | REG_NEWLINE);
        for (const char *from = x->text; re && next_caption(f, re, x->text, from, m);
             from = x->text + m[0].rm_eo) {
            const char *start = x->text + m[0].rm_so, *body = x->text + m[0].rm_eo;
            if ((best_at && start <= best_at) || !framed_by_program(x->text, start))
                continue;
            size_t n = strnlen(body, BODY);
            char *file = first_module(body, n, dlls, sizeof dlls / sizeof dlls[0], &x->arena);
            if (!file && program_may_lack(f->kind))
                file = first_module(body, n, exes, 1, &x->arena);
            if (file)
                best = f, best_at = start, best_file = file;
        }
    }
    if (!best)
        return false;
    struct td_explain_load *l = &x->load;
    l->form = "dialog";
    l->kind = best->kind;
    l->file = best_file;
    l->library = td_explain_base_name(best_file);
    return true;
}

/* Whether the N bytes at S are a function's name as a linker writes it, not
 * a word of prose: a C identifier (MSVC's decoration allowed) of three bytes
 * or more with a '_', '@', '?', a digit or a capital after its first byte
 * ("PyWinObject_FROMULARGE_INTEGER", "CreateDXGIFactory2", "_Foo@4"). */
static bool function_name(const char *s, size_t n)
{
    if (n < 3 || isdigit((unsigned char)s[0]))
        return false;
    bool marked = false;
    for (size_t i = 0; i < n; i++) {
        if (!isalnum((unsigned char)s[i]) && !strchr("_@?$", s[i]))
            return false;
        marked |= i > 0 && (strchr("_@?", s[i]) || isdigit((unsigned char)s[i]) ||
                            isupper((unsigned char)s[i]));
    }
    return marked;
}

/* An entry-point dialog's caption with the function after it on its line
 * or the next and no DLL ("Entry Point Not Found  PyWinObject_FROMULARGE_INTEGER",
 * as a user retells the box): the function is missing from a DLL the text does
 * not name. Read only where nothing else read the text. */
static bool from_entry_point_caption(struct td_explain *x)
{
    regmatch_t m[1];
    for (size_t i = 0; i < g_kb.n_frames; i++) {
        struct frame_row *f = &g_kb.frames[i];
        if (strcmp(f->kind, TD_KIND_MISSING_SYMBOL) != 0 || !f->pattern || !f->needle[0] ||
            !td_ere_holds_nocase(x->text, f->needle))
            continue;
        const regex_t *re = td_lazy_re(&f->re, f->pattern, REG_EXTENDED | REG_ICASE | REG_NEWLINE);
        for (const char *from = x->text; re && next_caption(f, re, x->text, from, m);
             from = x->text + m[0].rm_eo) {
            const char *s = x->text + m[0].rm_eo;
            s += strspn(s, " \t:-}\r");
            if (*s == '\n') /* the box's body on the next line */
                s += 1 + strspn(s + 1, " \t");
            size_t n = strcspn(s, " \t\r\n\"'");
            const char *after = s + n;
            after += strspn(after, " \t\r");
            if ((*after && *after != '\n') || !function_name(s, n))
                continue;
            struct td_explain_load *l = &x->load;
            l->form = "dialog";
            l->kind = TD_KIND_MISSING_SYMBOL;
            l->symbol = td_arena_strndup(&x->arena, s, n);
            return true;
        }
    }
    return false;
}

/* The kind a code stands for (data/load_error_codes.tsv), or NULL. */
static const char *kind_of_code(const char *code, struct td_arena *a)
{
    static const char *const cols[] = {"code", "kind", NULL};
    struct td_table t;
    if (!code || !td_table_open(&t, "load_error_codes", cols))
        return NULL;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), code) == 0)
            return td_arena_strdup(a, td_table_cell(&t, 1));
    return NULL;
}

/* The NTSTATUS of a failed start decides over the Win32 code it maps to
 * (0xC000012F and 0xC000007B both map to 193; data/windows_load_status.tsv). */
static const char *kind_of_ntstatus(const char *status, struct td_arena *a)
{
    static const char *const cols[] = {"status", "kind", NULL};
    struct td_table t;
    if (!status || !td_table_open(&t, "windows_load_status", cols))
        return NULL;
    while (td_table_next(&t))
        if (strcasecmp(td_table_cell(&t, 0), status) == 0)
            return td_arena_strdup(a, td_table_cell(&t, 1));
    return NULL;
}

/* Whether the text after an imported name AFTER ends a Python statement
 * (the line's end, "as X", a comma, a comment, a closing quote) rather than
 * going on in prose ("When I import my module from python"). */
static bool import_ends(const char *after)
{
    after += strspn(after, " \t");
    if (!*after || strchr("\r\n,;)#`'\"", *after) || strncmp(after, "as ", 3) == 0 ||
        strncmp(after, "import ", 7) == 0)
        return true;
    /* the exception's line glued on when a title lost its line break
     * ("from torchvision import _C ImportError: DLL load failed") */
    size_t w = strspn(after, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_.");
    static const char *const ends[] = {"Error", "Exception", "Warning"};
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t k = strlen(ends[i]);
        if (w >= k && after[w] == ':' && strncmp(after + w - k, ends[i], k) == 0)
            return true;
    }
    return false;
}

/* The last dotted part of the N-byte module name NAME ("torch._C" -> "_C"),
 * its length in *LEN. */
static const char *last_component(const char *name, size_t n, size_t *len)
{
    const char *start = name;
    for (size_t i = 0; i < n; i++)
        if (name[i] == '.')
            start = name + i + 1;
    *len = (size_t)(name + n - start);
    return start;
}

/* Where WORD first stands on the line that starts at LINE, or NULL. */
static const char *first_on_line(const char *line, const char *word)
{
    size_t n = strlen(word);
    for (const char *c = line; *c && *c != '\n'; c++)
        if (strncmp(c, word, n) == 0)
            return c;
    return NULL;
}

/* Whether the text after an imported name AFTER goes on to a second name
 * of the same statement ("Qt, pyqtSignal"). */
static bool attribute_list(const char *after)
{
    after += strspn(after, " \t");
    if (*after != ',')
        return false;
    after += 1 + strspn(after + 1, " \t");
    return isalpha((unsigned char)*after) || *after == '_';
}

/* An import by the module's name in a string: SWIG's swig_import_helper
 * ("_mod = imp.load_module('_gdal', fp, pathname, description)") and
 * importlib.import_module('_pywrap_tensorflow_internal') name the extension
 * module itself, which the statement's package loads. */
enum { N_MODULE_CALLS = 2 };
static const char *const module_calls[N_MODULE_CALLS] = {"load_module('", "import_module('"};

/* What a text shows, up to a point, of the module a pre-3.8 "DLL load
 * failed:" (which names none) failed to load, kept as the point moves on
 * through the text: each place is read once however many "DLL load failed"
 * lines a long text has. Each stream holds its next occurrence. */
struct import_scan {
    const char *import_at, *line_at, *seen, *from_line, *first_from;
    const char *best; /* the last import statement's module, so far */
    size_t best_len;
    const char *init; /* the text's last Cython init frame */
    size_t init_n;
    /* the next and the last of each call by name */
    const char *call_at[N_MODULE_CALLS], *call[N_MODULE_CALLS];
    size_t call_n[N_MODULE_CALLS];
};

static void import_scan_start(struct import_scan *s, const char *text)
{
    *s = (struct import_scan){.import_at = strstr(text, "import "), .line_at = text, .seen = text};
    s->init = td_explain_cython_init(text, &s->init_n);
    for (size_t c = 0; c < N_MODULE_CALLS; c++)
        s->call_at[c] = strstr(text, module_calls[c]);
}

/* The import statement at P ("import " stands there) read into S: its
 * module, or the module it imports from. */
static void read_import(struct import_scan *s, const char *p)
{
    /* the line's first "from " before the import, looked for once a line */
    const char *line = td_explain_line_start(&s->line_at, &s->seen, p);
    if (line != s->from_line) {
        s->from_line = line;
        s->first_from = first_on_line(line, "from ");
    }
    const char *from = s->first_from && s->first_from < p ? s->first_from + 5 : NULL;
    const char *name = p + 7;
    size_t n = td_explain_module_span(name);
    if ((n == 0 || *name == '*') && from) {
        name = from;
        n = td_explain_module_span(name);
    }
    if (n == 0 || strncmp(name, "DLL", 3) == 0 || !import_ends(name + n))
        return;
    s->best = last_component(name, n, &s->best_len);
    /* "from pkg._ext import name": a private module (an extension's
     * conventional "_" name) is what loads, the name is one of its
     * attributes or submodules ("from torchvision import _C" is the
     * other way round: the name is the extension) */
    size_t fl = from ? td_explain_module_span(from) : 0;
    size_t cl = 0;
    const char *fc = fl ? last_component(from, fl, &cl) : NULL;
    if (fc && cl > 1 && fc[0] == '_' && s->best[0] != '_' && name != from) {
        s->best = fc;
        s->best_len = cl;
    }
    /* "from PyQt5.QtCore import Qt, pyqtSignal": after a dotted module,
     * a list of names or a class's capitalised name are the module's
     * attributes, and the module is what loads ("from PyQt5 import
     * QtCore" names a package's submodule and keeps it) */
    if (fc && name != from && *from != '.' && memchr(from, '.', fl) &&
        (attribute_list(name + n) || isupper((unsigned char)name[0]))) {
        s->best = fc;
        s->best_len = cl;
    }
}

/* S moved on to END (NULL: the text's end). */
static void import_scan_to(struct import_scan *s, const char *end)
{
    for (; s->import_at && (!end || s->import_at < end);
         s->import_at = strstr(s->import_at + 1, "import "))
        read_import(s, s->import_at);
    for (size_t c = 0; c < N_MODULE_CALLS; c++)
        for (const char *p; (p = s->call_at[c]) != NULL && (!end || p < end);
             s->call_at[c] = strstr(p + 1, module_calls[c])) {
            const char *name = p + strlen(module_calls[c]);
            size_t n = td_explain_module_span(name);
            if (n > 0 && name[n] == '\'') {
                s->call[c] = name;
                s->call_n[c] = n;
            }
        }
}

/* The module the text S has read up to END (NULL: all of it) shows: the
 * last import statement of the traceback ("from torch._C import *" -> _C),
 * unless a later frame or call names the extension itself. */
static const char *import_scan_module(const struct import_scan *s, const char *end,
                                      struct td_arena *a)
{
    const char *best = s->best;
    size_t best_len = s->best_len;
    /* a Cython module's init frame later in the traceback than the statement
     * ("h5py\\h5.pyx in init h5py.h5()" over "DLL load failed:"): the
     * extension whose initialisation was running when the load failed, the
     * deepest module the traceback shows */
    if (s->init && (!best || s->init > best) && (!end || s->init < end))
        best = last_component(s->init, s->init_n, &best_len);
    /* the calls by name later in the traceback than the statement */
    for (size_t c = 0; c < N_MODULE_CALLS; c++)
        if (s->call[c] && (!best || s->call[c] >= best))
            best = last_component(s->call[c], s->call_n[c], &best_len);
    return best && best_len ? td_arena_strndup(a, best, best_len) : NULL;
}

/* The module whose load failed: the one the traceback of the first "DLL load
 * failed" shows an import of. A chained traceback ("During handling of the
 * above exception, another exception occurred") prints the loader's
 * exception first and the imports of the handler's own failure after it; a
 * title repeating the exception line stands before any import and is passed
 * over. With no such line, the text's last import. */
static const char *imported_module(const char *text, struct td_arena *a)
{
    struct import_scan s;
    import_scan_start(&s, text);
    for (const char *d = strstr(text, "DLL load failed"); d; d = strstr(d + 1, "DLL load failed")) {
        import_scan_to(&s, d);
        const char *m = import_scan_module(&s, d, a);
        if (m)
            return m;
    }
    import_scan_to(&s, NULL);
    return import_scan_module(&s, NULL, a);
}

/* Past the N-byte option at Q of an install command, and past its value
 * where it takes one ("-c conda-forge", "--index-url URL"). */
static const char *past_option(const char *q, size_t n)
{
    static const char *const valued[] = {
        "-c", "--channel", "-i", "--index-url", "-f", "--find-links", "--extra-index-url"};
    bool takes = td_explain_one_of(valued, sizeof valued / sizeof *valued, q, n);
    q += n;
    if (takes) {
        q += strspn(q, " \t");
        q += strcspn(q, " \t\r\n");
    }
    return q;
}

/* The package of the text's last install command ("pip install --upgrade
 * tensorflow", "conda install -c conda-forge tensorflow"): what a report that
 * shows no import ran. Options are skipped, with the value of those that take
 * one; a version or extra after the name is cut off ("torch==2.1.0"). */
static const char *installed_package(const char *text, struct td_arena *a)
{
    static const char *const cmds[] = {"pip install ", "pip3 install ", "conda install ",
                                       "mamba install "};
    const char *best = NULL;
    size_t best_len = 0;
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++)
        for (const char *p = strstr(text, cmds[c]); p; p = strstr(p + 1, cmds[c])) {
            const char *q = p + strlen(cmds[c]);
            for (int words = 0; words < 8 && *q && *q != '\n'; words++) {
                q += strspn(q, " \t");
                size_t n = strcspn(q, " \t\r\n");
                if (n && *q == '-') {
                    q = past_option(q, n);
                    continue;
                }
                size_t k =
                    strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-");
                if (k && isalpha((unsigned char)*q) && (!best || q > best)) {
                    best = q;
                    best_len = k;
                }
                break;
            }
        }
    return best ? td_arena_strndup(a, best, best_len) : NULL;
}

static bool has(const char *text, const char *s)
{
    return text && strstr(text, s) != NULL;
}

static bool is(const char *kind, const char *want)
{
    return kind && strcmp(kind, want) == 0;
}

/* Whether TEXT shows a Python traceback: its header or a frame line. */
static bool traceback_shown(const char *text)
{
    return has(text, "Traceback (most recent call last)") || has(text, "File \"");
}

/* The one DLL file the text names (listed ones aside), or NULL when it
 * names none or several. */
static const char *sole_named_dll(const struct td_explain_parts *p)
{
    const char *dll = NULL;
    for (size_t i = 0; i < p->n_files; i++) {
        const char *n = p->files[i].name;
        size_t k = strlen(n);
        if (p->files[i].listed || k < 5 || strcasecmp(n + k - 4, ".dll") != 0)
            continue;
        if (dll && strcasecmp(dll, n) != 0)
            return NULL;
        dll = n;
    }
    return dll;
}

/* Python's own import failures (Python/dynload_win.c, importlib). */
static void from_python(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    if (!has(x->text, "DLL load failed"))
        return;
    l->form = "python-import";
    const char *module = f->module ? f->module : imported_module(x->text, &x->arena);
    if (!l->library && !f->module && !traceback_shown(x->text))
        /* no traceback: the imports are the user's script, any of which may
         * be the one that failed, and a DLL the report singles out by name
         * ("PHP has its own version of libpq.dll") is what it is about */
        l->library = sole_named_dll(&x->parts);
    if (!l->library && module) {
        const char *dot = strrchr(module, '.');
        l->library = dot ? dot + 1 : module;
    }
    if (!l->kind)
        l->kind = TD_KIND_MISSING_LIBRARY; /* no code shown: 126 is by far the most common */
}

/* "import torch", "importing pytorch", "when I import torch": the module
 * that failed is torch itself. */
static bool importing_torch(const char *text)
{
    static regex_t re;
    static bool compiled, ok;
    if (!compiled) {
        compiled = true;
        ok = regcomp(&re, "[Ii]mport(ing)? (py)?torch([^A-Za-z0-9_.]|$)",
                     REG_EXTENDED | REG_NOSUB | REG_NEWLINE) == 0;
    }
    return ok && regexec(&re, text, 0, NULL, 0) == 0;
}

/* The library of torch's own that needs SYMBOL when `import torch` fails on
 * it and the text names no file: torch's Python binding for Python's C API,
 * its CUDA library for CUDA's, cuDNN's and NCCL's, else its main library
 * (which links MKL, OpenMP and the C++ runtime). */
static const char *torch_requirer(const char *symbol, const char *platform)
{
    const char *part = "cpu";
    if (symbol && (strncmp(symbol, "Py", 2) == 0 || strncmp(symbol, "_Py", 3) == 0))
        part = "python";
    else if (symbol && (strncmp(symbol, "cuda", 4) == 0 || strncmp(symbol, "cudnn", 5) == 0 ||
                        strncmp(symbol, "cublas", 6) == 0 || strncmp(symbol, "nccl", 4) == 0))
        part = "cuda";
    bool windows = platform && strcmp(platform, "windows") == 0;
    bool mac = platform && strcmp(platform, "macos") == 0;
    static const char *const names[3][3] = {
        {"libtorch_cpu.so", "torch_cpu.dll", "libtorch_cpu.dylib"},
        {"libtorch_python.so", "torch_python.dll", "libtorch_python.dylib"},
        {"libtorch_cuda.so", "torch_cuda.dll", "libtorch_cuda.so"},
    };
    int row = part[1] == 'p' ? 0 : part[0] == 'p' ? 1 : 2;
    return names[row][windows ? 1 : mac ? 2 : 0];
}

/* ld.so's "wrong ELF class: ELFCLASS32" in any of the C library's languages:
 * the class after a colon is never translated ("错误 ELF 类: ELFCLASS32"), and
 * a wrapped paste may put it on the next line. */
static bool elf_class_reason(const char *t)
{
    for (const char *p = strstr(t, "ELFCLASS"); p; p = strstr(p + 1, "ELFCLASS")) {
        const char *q = p;
        while (q > t && isspace((unsigned char)q[-1]))
            q--;
        if (q > t && q[-1] == ':' && (strncmp(p + 8, "32", 2) == 0 || strncmp(p + 8, "64", 2) == 0))
            return true;
    }
    return false;
}

/* ld.so's lookup of SYMBOL in the file F->file names, for F->needed_by,
 * failed as KIND. */
static void ldso_lookup_failed(struct td_explain_load *l, const struct td_explain_fields *f,
                               const char *kind, const char *symbol)
{
    l->form = "ld.so";
    l->kind = kind;
    l->library = td_explain_base_name(f->file);
    l->needed_by = f->needed_by;
    l->symbol = symbol;
    l->file = f->needed_by;
}

/* Who needs the symbol a lookup failed on (L->needed_by) and which file
 * that is (L->file): the file the message names as the requirer, else the
 * last one the text names, else the module the traceback imports, with
 * torch's own library for `import torch`. */
static void symbol_requirer(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    const char *t = x->text;
    l->needed_by = f->needed_by && l->form[0] == 'd' ? f->needed_by : f->file;
    /* "ImportError: undefined symbol: ..." names no file; dyld's
     * "Referenced from: /path/prog" does, a program or a framework's binary
     * having no extension ("./xnomad", "QtAV.framework/Versions/1/QtAV") */
    if (l->needed_by && !strchr(td_explain_base_name(l->needed_by), '.') &&
        !(l->form[0] == 'd' && strchr(l->needed_by, '/')))
        l->needed_by = NULL;
    if (!l->needed_by)
        l->needed_by = td_explain_last_named(t, &x->arena);
    l->file = l->needed_by;
    if (!l->needed_by) /* the traceback's last import names the module */
        l->needed_by = f->module ? f->module : imported_module(t, &x->arena);
    if (!l->file && (is(l->needed_by, "torch") || (!l->needed_by && importing_torch(t))))
        l->needed_by = torch_requirer(f->symbol, x->parts.platform);
}

/* "undefined symbol: S, version libnvJitLink.so.12": the version F names
 * is the library that lacks S. */
static void symbol_version_library(struct td_explain_load *l, const struct td_explain_fields *f)
{
    l->kind = TD_KIND_MISSING_SYMBOL_VERSION;
    l->library = f->version;
    /* ld.so checks every version node a file needs before any lookup
     * ("version `V' not found" when one is absent), so here the node
     * is there and the symbol is not: the library is another release
     * than the one the requirer was linked against. torch's own
     * library was linked against the CUDA libraries of the CUDA
     * release it was built for: another release of one of them is a
     * CUDA runtime mismatch (glibc elf/dl-lookup.c, "undefined symbol:
     * %s, version %s"; elf/dl-version.c) */
    if (is(role_of(f->file), "torch") && is(role_of(f->version), "cuda"))
        l->kind = TD_KIND_CUDA_RUNTIME_MISMATCH;
}

/* Whether T holds ld.so's "undefined symbol: X", or the same retold without
 * its colon before SYMBOL, the name read ("undefined symbol _ZN3c105ErrorC2"):
 * the words alone elsewhere ("undefined symbols are resolved lazily") are no
 * ld.so message. */
static bool ldso_undefined(const char *t, const char *symbol)
{
    static const char retold[] = "ndefined symbol ";
    if (has(t, "ndefined symbol:"))
        return true;
    for (const char *at = symbol ? strstr(t, retold) : NULL; at; at = strstr(at + 1, retold))
        if (strncmp(at + sizeof retold - 1, symbol, strlen(symbol)) == 0)
            return true;
    return false;
}

/* ld.so's "undefined symbol:" or dyld's "Symbol not found:" for F's symbol. */
static void missing_symbol(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    l->form = ldso_undefined(x->text, f->symbol) ? "ld.so" : "dyld";
    l->kind = TD_KIND_MISSING_SYMBOL;
    symbol_requirer(x);
    l->symbol = f->symbol;
    if (f->expected_in && !has(f->expected_in, "flat namespace"))
        l->library = td_explain_base_name(f->expected_in);
    if (f->version && has(f->version, ".so"))
        symbol_version_library(l, f);
}

/* ld.so's and dyld's failed lookups of a symbol or a version: whether the
 * text is one (and X's load says which). */
static bool lookup_form(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    const char *t = x->text;
    if (has(t, " with link time reference") && f->file) {
        /* glibc's "REF: symbol S, version V not defined in file F with link
         * time reference": F was found and defines version V, but not S in
         * it -- another build of F than the one REF was linked against,
         * found first on the search path (a system copy before the
         * environment's) */
        ldso_lookup_failed(l, f, TD_KIND_SHADOWED_LIBRARY, f->symbol);
    } else if (has(t, ": version") && has(t, " not found") && f->file && f->version) {
        ldso_lookup_failed(l, f, TD_KIND_MISSING_SYMBOL_VERSION, f->version);
    } else if ((ldso_undefined(t, f->symbol) || has(t, "Symbol not found:") ||
                has(t, "symbol not found in flat namespace")) &&
               f->symbol) {
        missing_symbol(x);
    } else {
        return false;
    }
    return true;
}

/* musl's loader's two forms: whether text T is one (and L says which). */
static bool musl_form(struct td_explain_load *l, const struct td_explain_fields *f, const char *t)
{
    if (has(t, "Error loading shared library ")) {
        /* musl: "Error loading shared library %s: %m (needed by %s)" -- a glibc
         * build in a musl system asks for ld-linux*.so.2 this way. At a
         * program's start musl goes on to relocate it and prints "Error
         * relocating" for every symbol the missing library would have given:
         * those follow from this one (ldso/dynlink.c, ldso_fail) */
        l->form = "musl ld.so";
        l->kind = has(t, ": Permission denied")   ? TD_KIND_UNREADABLE_FILE
                  : has(t, ": Exec format error") ? TD_KIND_WRONG_ARCHITECTURE
                                                  : TD_KIND_MISSING_LIBRARY;
    } else if (has(t, "Error relocating ") && has(t, ": symbol not found") && f->symbol) {
        /* musl's loader names the file whose reference failed, not the library */
        l->form = "musl ld.so";
        l->kind = TD_KIND_MISSING_SYMBOL;
        l->needed_by = f->file;
        l->symbol = f->symbol;
        l->file = f->file;
    } else {
        return false;
    }
    return true;
}

/* Whether T holds dyld's reason "tried: 'P' (no such file)..." with no file
 * at the first place it tried (a later one found and refused is another
 * reason: "tried: 'P' (not a mach-o file)"). */
static bool first_tried_missing(const char *t)
{
    const char *r = strstr(t, "eason: tried: '");
    const char *end = r ? strchr(r + 15, '\'') : NULL;
    return end && strncmp(end, "' (no such file", 15) == 0;
}

/* ld.so's, dyld's and a dlopen wrapper's failed loads of a file: whether
 * text T is one (and L says which). */
static bool load_form(struct td_explain_load *l, const struct td_explain_fields *f, const char *t)
{
    if (has(t, "incompatible architecture") || has(t, "missing compatible arch") ||
        has(t, "not a compatible arch") || has(t, "wrong ELF class") || elf_class_reason(t)) {
        /* dyld's reasons for a file without the process's architecture: a thin
         * Mach-O ("mach-o file, but is an incompatible architecture"), a fat
         * one without that slice ("fat file, but missing compatible
         * architecture"; older dyld: "missing compatible arch in X"; dyld 4's
         * "could not use 'X' because it is not a compatible arch"); ld.so's
         * "wrong ELF class: ELFCLASS32", in any language */
        l->form = has(t, "wrong ELF class") || elf_class_reason(t) ? "ld.so" : "dyld";
        l->kind = TD_KIND_WRONG_ARCHITECTURE;
    } else if (has(t, "invalid ELF header") || has(t, "file too short")) {
        l->form = "ld.so";
        l->kind = TD_KIND_NOT_A_LIBRARY;
    } else if (has(t, "Library not loaded:")) {
        l->form = "dyld";
        l->kind = TD_KIND_MISSING_LIBRARY;
    } else if (has(t, "cannot open shared object file")) {
        l->form = "ld.so";
        l->kind = has(t, "shared object file: Permission denied") ? TD_KIND_UNREADABLE_FILE
                                                                  : TD_KIND_MISSING_LIBRARY;
    } else if (has(t, "error while loading shared libraries") && f->file) {
        /* ld.so's "PROG: error while loading shared libraries: LIB: REASON" with
         * the reason cut off or retyped away: the loader stopped at LIB, and
         * every reason it prints that the forms above do not read is LIB not
         * found or not loadable */
        l->form = "ld.so";
        l->kind = TD_KIND_MISSING_LIBRARY;
    } else if (has(t, "Could not load dynamic library") || has(t, "Could not load library") ||
               has(t, "Couldn't open CUDA library")) {
        l->form = "dlopen";
        l->kind = TD_KIND_MISSING_LIBRARY;
    } else if (f->file && first_tried_missing(t)) {
        /* dyld's message pasted without its first line ("Library not loaded:
         * X"): its reason lists the places it tried for X, each ending in X's
         * name, and none held a file */
        l->form = "dyld";
        l->kind = TD_KIND_MISSING_LIBRARY;
    } else {
        return false;
    }
    return true;
}

/* The kind errno CODE ("errno 8") stands for when it alone says a load
 * failed (data/load_error_codes.tsv's kind and alone columns), or NULL. */
static const char *kind_alone(const char *code, struct td_arena *a)
{
    static const char *const cols[] = {"code", "kind", "alone", NULL};
    struct td_table t;
    if (!code || !td_table_open(&t, "load_error_codes", cols))
        return NULL;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), code) == 0)
            return strcmp(td_table_cell(&t, 2), "yes") == 0
                       ? td_arena_strdup(a, td_table_cell(&t, 1))
                       : NULL;
    return NULL;
}

/* A loader's message in no form above whose errno, printed after the
 * library's file ("X.so: Exec format error"), alone says the load failed
 * and how: ENOEXEC, the file is no image for this machine. */
static bool errno_form(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    if (!f->error_code || strncmp(f->error_code, "errno ", 6) != 0)
        return false;
    const char *kind = kind_alone(f->error_code, &x->arena);
    if (!kind)
        return false;
    /* the file is the one the errno's text follows ("P: Exec format error") */
    const char *file = f->file, *desc = strerror(atoi(f->error_code + 6));
    for (size_t i = 0; !file && desc && i < x->parts.n_files; i++) {
        char said[1024];
        snprintf(said, sizeof said, "%s: %s", x->parts.files[i].path, desc);
        if (has(x->text, said))
            file = x->parts.files[i].path;
    }
    if (!file)
        return false;
    l->form = "dlopen";
    l->kind = kind;
    l->file = file;
    l->library = td_explain_base_name(file);
    return true;
}

/* The message forms of ld.so, dyld and musl, tried in this order (the first
 * that reads the text wins); a form other than a missing symbol (which set
 * its own) takes what it left open from the extractors' file fields. */
static void from_posix(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    if (!lookup_form(x) && !musl_form(l, f, x->text) && !load_form(l, f, x->text))
        errno_form(x);
    if (l->form && !l->library && !is(l->kind, TD_KIND_MISSING_SYMBOL) && f->file)
        l->library = td_explain_base_name(f->file);
    if (l->form && !l->needed_by && !is(l->kind, TD_KIND_MISSING_SYMBOL))
        l->needed_by = f->needed_by;
    if (l->form && !l->file && !is(l->kind, TD_KIND_MISSING_SYMBOL))
        l->file = l->needed_by ? l->needed_by : f->file;
}

/* The last library a Python traceback's loading call names by a literal
 * (`_load_lib("libtorchaudio")`, `ctypes.CDLL(r"C:\\x\\foo.dll")`,
 * `cdll.LoadLibrary('foo')`, `torch.ops.load_library("…")`): its base
 * name, NULL when every call passes a variable. */
static const char *loading_call_argument(const char *text, struct td_arena *a)
{
    static regex_t re;
    static bool compiled, ok;
    if (!compiled) {
        compiled = true;
        ok = regcomp(&re,
                     "(_load_lib|CDLL|WinDLL|PyDLL|LoadLibrary|load_library)\\([rRuU]?[\"']([^\"'"
                     "\n]+)[\"']",
                     REG_EXTENDED | REG_NEWLINE) == 0;
    }
    const char *found = NULL;
    size_t len = 0;
    regmatch_t m[3];
    for (const char *p = text; ok && regexec(&re, p, 3, m, 0) == 0; p += m[0].rm_eo) {
        found = p + m[2].rm_so;
        len = (size_t)(m[2].rm_eo - m[2].rm_so);
    }
    return found ? td_explain_base_name(td_arena_strndup(a, found, len)) : NULL;
}

/* Whether TEXT's WinError is pip's own: "ERROR: Could not install packages
 * due to an OSError: [WinError 5] Access is denied: 'PATH'" (EnvironmentError
 * before pip 20.3) is the installer failing to write, move or remove a file
 * of the package it replaces (src/pip/_internal/commands/install.py,
 * create_os_error_message), not a load of it. */
static bool pip_install_error(const char *text)
{
    for (const char *p = strstr(text, "Could not install packages due to an"); p;
         p = strstr(p + 1, "Could not install packages due to an")) {
        size_t n = strcspn(p, "\n");
        const char *w = strstr(p, "WinError");
        if (w && w < p + n)
            return true;
    }
    return false;
}

/* Windows: a code (WinError, LoadLibrary's, NTSTATUS, a localised system
 * message), torch's preload ("Error loading ... or one of its dependencies")
 * or a cut-off remainder of it. */
static void from_windows(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_fields *f = &x->fields;
    char code[32] = "";
    if (f->win32)
        snprintf(code, sizeof code, "WinError %d", f->win32);
    const char *kind = kind_of_ntstatus(f->ntstatus, &x->arena);
    if (!kind)
        kind = kind_of_code(code[0] ? code : NULL, &x->arena);
    bool preload = has(x->text, "or one of its dependencies") || has(x->text, "rror loading") ||
                   has(x->text, "rro loading");
    bool failed_to_load =
        (has(x->text, "Failed to load ") || has(x->text, "Could not find module")) && f->file;
    /* ctypes on Windows raises FileNotFoundError for LoadLibrary's 126
     * (Python 3.8+): the exception's name is enough when its message was cut
     * off ("FileNotFoundError: Could not find mo"), and the traceback's
     * loading call names the library */
    bool ctypes_126 = !kind && !preload && !failed_to_load && has(x->text, "_dlopen(") &&
                      has(x->text, "FileNotFoundError") && is(x->parts.platform, "windows");
    if (!kind && !preload && !failed_to_load && !ctypes_126)
        return;
    /* pip's file operations fail on a path too long (206) as loads do, and
     * that is read; its other codes (5, 32) are no load's, nor any code of a
     * file operation the text's structure shows (os.remove of a loaded .pyd,
     * shutil.rmtree of a DLL in use: errors_operation.c) */
    bool file_operation = pip_install_error(x->text) || is(x->parts.operation, "file");
    if (f->win32 && !preload && !is(kind, TD_KIND_PATH_TOO_LONG) && file_operation)
        return;
    l->form = preload ? "torch-preload" : has(x->text, "ctypes") ? "ctypes" : "windows";
    if (ctypes_126 && !f->file)
        l->library = loading_call_argument(x->text, &x->arena);
    l->kind = kind ? kind : TD_KIND_MISSING_LIBRARY;
    if (f->file) {
        l->file = f->file;
        l->library = td_explain_base_name(f->file);
    }
    l->needed_by = f->needed_by;
    if (has(x->text, "Please check your PyTorch installation") && failed_to_load)
        l->note =
            "no PyTorch release prints \"Failed to load ... Please check your PyTorch "
            "installation\" as far as we know (torch/__init__.py raises OSError: [WinError N] "
            "... Error loading \"...\" or one of its dependencies): the text was probably "
            "retyped or comes from another tool; the load failure it describes is explained "
            "below";
}

static const char *fill(const char *template, const struct td_explain *x, struct td_arena *a);

/* Whether PATH is a program's (Windows' .exe): a file the system starts, not
 * one a loader maps into a process as a library. */
static bool is_program(const char *path)
{
    size_t n = strlen(path);
    return n > 4 && strcasecmp(path + n - 4, ".exe") == 0;
}

/* The program a text runs (its last ".exe"), else NULL. */
static const char *program_named(struct td_explain *x)
{
    const char *exe = NULL;
    for (const char *p = strstr(x->text, ".exe"); p; p = strstr(p + 4, ".exe"))
        if (!isalnum((unsigned char)p[4]) && p[4] != '_' && p[4] != '.')
            exe = p;
    const char *start = exe;
    while (start && start > x->text && !strchr(" \t\n'\"`(<[*", start[-1]))
        start--;
    return start && start < exe ? td_arena_strndup(&x->arena, start, (size_t)(exe + 4 - start))
                                : NULL;
}

/* The command that shows the load's files on this machine: deps on the file
 * the message names; for a program that could not start and names no
 * library ("exit code: 0xc0000135, STATUS_DLL_NOT_FOUND" after "Running
 * `target\debug\app.exe`"), deps on that program, whose imports failed;
 * else a check of the environment. */
static const char *confirm_deps(struct td_explain *x)
{
    const struct td_explain_load *l = &x->load;
    if (l->file)
        return fill("torchdoctor deps \"{file}\"", x, &x->arena);
    const char *program = !l->library && l->needed_by && is_program(l->needed_by) ? l->needed_by
                          : !l->library && !l->needed_by && !x->parts.n_files     ? program_named(x)
                                                                                  : NULL;
    if (program) {
        char buf[1024];
        snprintf(buf, sizeof buf, "torchdoctor deps \"%s\"", program);
        return td_arena_strdup(&x->arena, buf);
    }
    return "torchdoctor check";
}

/* Whether FILE is MODULE's own file: MODULE (a module's bare name, as a
 * form read it from "while importing cv2") with a suffix after a dot. */
static bool file_of_module(const char *file, const char *module)
{
    size_t n = module ? strlen(module) : 0;
    return file && n && !strchr(module, '.') && strncmp(file, module, n) == 0 && file[n] == '.' &&
           file[n + 1] && !strchr(file + n + 1, '.');
}

/* The raiser the structural reading named (errors_read.c): a message that
 * no loader form reads (cuDNN's, CTranslate2's, NVRTC's, the driver's, ...)
 * becomes a load error of the raiser's kind, about the file it names; a
 * load form keeps its reading, but the code of the raiser's message decides
 * its kind ("Could not load library X. Error code 193"), and the file
 * the raiser names stands for the module the form read (CPython's). */
static void from_raiser(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    if (!p->raiser || !p->raiser_kind)
        return;
    /* a loader form that read neither a file nor a requirer (Lua's "error
     * loading module 'cunn'" looks like torch's "Error loading") gives way to
     * the raiser, which says what failed and where */
    bool empty_form = l->form && !l->library && !l->file && !l->needed_by && p->raiser_library;
    /* a program's own words for a failed load say no more than the Windows form's
     * code: for a procedure not found (127) the form names the loading module as
     * its needer (the_one_file), which the words' row would drop */
    if (empty_form && is(p->raiser, "load-words") && is(l->form, "windows") &&
        is(l->kind, TD_KIND_MISSING_SYMBOL))
        return;
    /* ld.so's or dyld's own reason, which the raiser repeats after its words
     * without the fields' file ("DPI-1047: ...: \"X.so: file too short\""),
     * still says what failed with the file: only "not found" is the raiser's */
    const char *reason_kind = empty_form && (is(l->form, "ld.so") || is(l->form, "dyld")) &&
                                      !is(l->kind, TD_KIND_MISSING_LIBRARY)
                                  ? l->kind
                                  : NULL;
    /* an interpreter that could not start, or runs another version's standard
     * library, failed before any load it reports: every load after is its
     * consequence, and the raiser's reading is the finding */
    bool start = is(p->operation, "start");
    if (l->form && !empty_form && !start) {
        if (is(p->operation, "load") && is(l->kind, TD_KIND_MISSING_LIBRARY))
            l->kind = p->raiser_kind;
        /* the module of CPython's failed import (cv2) is its file (cv2.pyd) */
        if (is(l->form, "python-import") && file_of_module(p->raiser_library, l->library))
            l->library = p->raiser_library;
        return;
    }
    l->form = p->raiser;
    l->kind = reason_kind && is(p->operation, "load") ? reason_kind : p->raiser_kind;
    l->library = p->raiser_library;
    /* a system loader's row reads the first name tried ("dlopen(vips.42,
     * ...)"); a later try in the form of the platform's file of it is the
     * file looked for (the fields' reading, errors_fields.c) */
    if (x->fields.file_name && td_explain_formed_try_of(x->fields.file_name, l->library))
        l->library = x->fields.file_name;
    for (size_t i = 0; l->library && i < p->n_files; i++)
        if (strcmp(p->files[i].name, l->library) == 0)
            l->file = p->files[i].path;
    if (start) {
        /* the interpreter's start-up names no file at fault: the paths the
         * text shows are where it looked */
        l->library = l->file = l->needed_by = l->symbol = l->note = NULL;
        return;
    }
    if (!l->library && x->fields.file)
        l->library = td_explain_base_name(x->fields.file);
    if (!l->library && p->raiser_imported && p->package_library && p->package_ran)
        /* a crash that names no file in a text about a package that loads its
         * own native library with ctypes (its frames end in
         * "return _lib.llama_load_model_from_file(...)" before "Windows Error
         * 0xc000001d"): that library's code ran it, whatever module the
         * traceback imported on the way (data/python_native_libraries.tsv) */
        l->library = p->package_library;
    if (!l->library && p->raiser_imported) {
        /* a crash that names no file ("illegal hardware instruction" after
         * ">>> import tensorflow as tf"): the module whose import ran it */
        const char *module =
            x->fields.module ? x->fields.module : imported_module(x->text, &x->arena);
        if (!module) /* no import shown: the package the report installed */
            module = installed_package(x->text, &x->arena);
        const char *dot = module ? strchr(module, '.') : NULL;
        l->library = dot ? td_arena_strndup(&x->arena, module, (size_t)(dot - module)) : module;
    }
    if (!l->library && p->raiser_imported)
        /* no import shown, but the frames run a package that loads its own
         * native library with ctypes (llama_cpp's _internals.py before
         * "Windows Error 0xc000001d"): that library's code ran it
         * (data/python_native_libraries.tsv) */
        l->library = p->package_library;
    if (!l->file)
        l->file = x->fields.file;
    l->symbol = p->n_symbols ? p->symbols[0].name : x->fields.symbol;
}

/* The library as the structural reading bounds it: a file name that a
 * message form read with text glued on ("cudnn_cnn_infer64_8.dll.Error",
 * "libcudnn_ops.so.9)") is cut back to the file the text names. */
static void tidy_library(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    if (!l->library)
        return;
    for (size_t i = 0; i < p->n_files; i++) {
        const char *n = p->files[i].name;
        size_t k = strlen(n);
        if (strcmp(l->library, n) == 0)
            return;
        size_t len = strlen(l->library);
        /* a dotted name the text gave bare ("DLL 'Runtime.Native'") is no
         * shortening of its file (Runtime.Native.dll) */
        bool suffixed = strcasecmp(l->library + (len > k ? k : len), ".dll") == 0;
        if ((strncmp(l->library, n, k) == 0 && strchr(".:,;)'\"", l->library[k]) && !suffixed) ||
            (len > k && strcmp(l->library + len - k, n) == 0 &&
             strchr(".'\"`", l->library[len - k - 1]))) {
            l->library = n; /* "...fbgemm.dll": a path shortened with dots */
            return;
        }
    }
}

/* Whether file NAME is a stand-in a user typed for a name (xxx.dll, XX.so,
 * ***.dll): its stem is two or more of one placeholder letter. */
static bool placeholder_name(const char *name)
{
    size_t n = strcspn(name, ".");
    if (n < 2 || !strchr("xX*#?", name[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (name[i] != name[0])
            return false;
    return true;
}

/* A library the form read from a message the user retyped with a stand-in
 * ("failed to load xxx.dll: the specified module could not be found") is
 * the one other file the text names (the path the code loads), if one. */
static void placeholder_library(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    if (!l->library || !placeholder_name(l->library))
        return;
    const struct td_part_file *other = NULL;
    for (size_t i = 0; i < p->n_files; i++) {
        if (placeholder_name(p->files[i].name))
            continue;
        if (other && strcmp(other->name, p->files[i].name) != 0)
            return; /* two others: which one is not said */
        other = &p->files[i];
    }
    if (other) {
        l->library = other->name;
        l->file = other->path;
    }
}

/* For a missing symbol: which library should define it (its namespace or
 * version, data/symbol_owners.tsv), and its demangled name. */
static void name_definer(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    for (size_t i = 0; i < p->n_symbols; i++) {
        const struct td_part_symbol *y = &p->symbols[i];
        if (l->symbol && strcmp(l->symbol, y->name) != 0 &&
            !(y->name[0] == '_' && strcmp(l->symbol, y->name + 1) == 0))
            continue;
        l->defined_by = y->owner;
        l->defined_by_driver = y->driver;
        l->symbol_readable = y->demangled;
        l->built_for = y->torch;
        return;
    }
}

/* The raiser's own general cause, after the catalogue's. */
static void add_raiser(struct td_explain *x, size_t cap)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    if (!p->raiser || l->n_causes >= cap)
        return;
    if (is(p->raiser_kind, TD_KIND_MISSING_LIBRARY) && !is(l->kind, TD_KIND_MISSING_LIBRARY))
        return; /* a wrapper that only says the load failed ("unable to load shared
                   object"): the loader's own reason after it has said more */
    const char *detail = p->raiser_detail, *fix = p->raiser_fix, *source = p->raiser_source;
    char said[512];
    if (!detail || !*detail) {
        /* only a code named the failure (data/error_codes.tsv): say which */
        const struct td_part_code *code = NULL;
        for (size_t i = 0; i < p->n_codes && !code; i++)
            if (p->codes[i].kind && strcmp(p->codes[i].space, p->raiser) == 0)
                code = &p->codes[i];
        if (!code || !p->raiser_kind)
            return;
        snprintf(said, sizeof said, "the GPU stack failed with %s %s%s%s%s, which stands for %s",
                 code->space, code->value, code->name ? " (" : "", code->name ? code->name : "",
                 code->name ? ")" : "", p->raiser_kind);
        detail = said;
        fix = "Run torchdoctor check: it names the driver, the GPUs and the CUDA runtime this "
              "machine has, and what does not fit";
        source = code->source;
    }
    struct td_explain_cause *c = &l->causes[l->n_causes++];
    c->kind = is(p->raiser_kind, l->kind) || !p->raiser_kind ? l->kind : p->raiser_kind;
    c->detail = fill(detail, x, &x->arena);
    c->fix = fill(fix, x, &x->arena);
    c->confirm = confirm_deps(x);
    c->source = source;
}

/* Whether MODULE is torch's own extension in TEXT's traceback ("from torch._C
 * import *", "import torch._C"): then the import failed inside torch, not in
 * a companion built for it. */
static bool torch_module(const char *text, const char *module)
{
    /* a module's file (_C.pyd) stands for the module */
    const char *suffix = strrchr(module, '.');
    int n_module = suffix ? (int)(suffix - module) : (int)strlen(module);
    char dotted[128];
    snprintf(dotted, sizeof dotted, "torch.%.*s", n_module, module);
    size_t n = strlen(dotted);
    for (const char *p = strstr(text, dotted); p; p = strstr(p + 1, dotted)) {
        char next = p[n];
        bool word_before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (!word_before && !isalnum((unsigned char)next) && next != '_')
            return true;
    }
    return false;
}

/* Whether PATH is the operating system's own (macOS /usr/lib, /System). */
static bool system_file(const char *path)
{
    return strncmp(path, "/usr/lib/", 9) == 0 || strncmp(path, "/System/", 8) == 0 ||
           strncmp(path, "/lib/", 5) == 0;
}

/* The library when the form named none: the last file the text names
 * (not for ld.so's, dyld's or musl's own forms, which name theirs), else
 * the native library of the package that loads its own. */
static void unnamed_library(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    bool elf_or_dyld = strcmp(l->form, "ld.so") == 0 || strcmp(l->form, "dyld") == 0 ||
                       strcmp(l->form, "musl ld.so") == 0;
    if (!l->library && !l->file && !elf_or_dyld && !td_explain_delay_load(&x->fields))
        l->library = td_explain_last_named(x->text, &x->arena);
    /* a load status's crash record (Windows Error Reporting's and Event
     * Viewer's "Faulting module name: ntdll.dll" over 0xc0000135) names the
     * module the loader raised it in, never the file it could not load: the
     * program it records, whose imports failed, is the one that needed it */
    const char *program = l->library && is(l->form, "windows") && x->fields.ntstatus &&
                                  is(role_of(l->library), "os_loader")
                              ? program_named(x)
                              : NULL;
    if (program) {
        l->library = NULL;
        l->needed_by = td_explain_base_name(program);
    }
    if (!l->library && !l->file && !elf_or_dyld && !l->needed_by &&
        (!x->parts.operation || is(x->parts.operation, "load")) &&
        (is(l->kind, TD_KIND_MISSING_LIBRARY) || is(l->kind, TD_KIND_WRONG_ARCHITECTURE) ||
         is(l->kind, TD_KIND_INIT_FAILURE) || is(l->kind, TD_KIND_NOT_A_LIBRARY)))
        /* a load that names no file in a package that loads its own native
         * library with ctypes ("import mxnet" ... "[WinError 193]"): that one */
        l->library = x->parts.package_library;
}

/* A missing symbol's REQUIRER, the file whose build does not fit (ELF,
 * dyld), as the library at fault, and what kind of misfit its role is. */
static void requirer_role(struct td_explain_load *l, const char *requirer)
{
    const char *r = role_of(requirer);
    if (python_symbol(l->symbol) && !is(r, "torch") && !foreign_dll(l->defined_by)) {
        /* Python's C API (_PyCMethod_New, PyInt_FromSsize_t): the module
         * was built for another Python, or not linked to one, whatever
         * package it belongs to -- never another torch */
        l->role = "python_api";
        l->library = td_explain_base_name(requirer);
        return;
    }
    if (torch_symbol(l->symbol) && is(l->form, "dyld") && long_template(l->symbol_readable)) {
        /* at::Tensor::data_ptr<long>() on macOS: torch instantiates its
         * templates for int64_t, which is long long there, so no torch
         * for macOS exports the long one -- the module's own source */
        l->role = "long_template";
        l->library = td_explain_base_name(requirer);
        l->needed_by = NULL;
        return;
    }
    /* torch's C entry points (THPVariableClass, which data/symbol_owners.tsv
     * gives to libtorch_python) have the same name in every torch: one
     * missing says torch's library is not loaded yet (the module imported
     * before torch), as for a module built here, before another torch */
    bool torch_c = !torch_symbol(l->symbol) && is(role_of(l->defined_by), "torch");
    if ((torch_symbol(l->symbol) || torch_c) && !(r && strcmp(r, "torch") == 0)) {
        /* setup.py install's ".egg" folder: built here, against this
         * environment's torch, so its torch libraries not being loaded yet
         * (imported before torch) comes before another torch */
        l->role = torch_c || has(requirer, ".egg/") || has(requirer, ".egg\\") ? "local_build"
                                                                               : "companion";
        l->library = td_explain_base_name(requirer);
        l->needed_by = NULL;
        return;
    }
    l->role = r;
    l->library = td_explain_base_name(requirer); /* the module that needed it */
}

/* For a missing symbol (X's kind), the library at fault and its role, with
 * REQUIRER (may be NULL) the file that needed it. Whether that settled
 * them: otherwise file_role does. */
static bool symbol_role(struct td_explain *x, const char *requirer)
{
    struct td_explain_load *l = &x->load;
    if (!is(l->kind, TD_KIND_MISSING_SYMBOL))
        return false;
    if (l->library && requirer && is(role_of(l->library), "torch") &&
        !is(role_of(requirer), "torch")) {
        /* dyld's "Expected in: .../torch/lib/libc10.dylib": torch's own library
         * lacks a symbol another file wants (a C++ name or torch's C entry
         * points, _torch_library_impl), so that file was built for another torch */
        l->defined_by = td_explain_base_name(l->library);
        l->role = "companion";
        l->library = td_explain_base_name(requirer);
        l->needed_by = NULL;
        return true;
    }
    if (l->library && requirer && !system_file(requirer)) {
        /* dyld's "Expected in: X": X should define it, and the file at fault is
         * the one that needed it (built for a newer X); only a system library
         * that needs it points at X instead (another copy shadowing the system's) */
        l->defined_by = td_explain_base_name(l->library);
        l->library = NULL;
    }
    if (!l->library && !requirer && l->defined_by && !is(role_of(l->defined_by), "torch") &&
        !python_symbol(l->symbol)) {
        /* no file, module nor import names the requirer ("dyld: Symbol not
         * found: ____chkstk_darwin" alone): the library that should define
         * it (data/symbol_owners.tsv) is the one file the text lets us name;
         * not torch's nor Python's, whose symbols say the unnamed requirer
         * was built for another torch or Python */
        l->library = l->defined_by;
        l->role = role_of(l->library);
        return true;
    }
    /* a program whose start failed with a load status (0xc0000139,
     * STATUS_ENTRYPOINT_NOT_FOUND) is the needer whose import was not found,
     * not a file built wrongly: the DLL that should export it is at fault,
     * and the text does not name it (a dialog that names the program as the
     * DLL without the entry point is another reading) */
    bool started = requirer && is_program(requirer) && x->fields.ntstatus;
    if (!l->library && requirer && !started) {
        requirer_role(l, requirer);
        return true;
    }
    return false;
}

/* The role of the library at fault (else of the file), from its name, or
 * from torch's own preload or a DLL load's traceback. */
static void file_role(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    l->role = role_of(l->library ? l->library : l->file);
    if (!l->role && l->file && l->library != l->file)
        l->role = role_of(l->file);
    if (!l->role && (has(x->text, "torch\\__init__.py") || has(x->text, "torch/__init__.py")) &&
        has(x->text, "ctypes"))
        l->role = "torch"; /* torch's own DLL preload, whatever file it was at */
    /* CPython's failed import: torch's own when the traceback imports the
     * module from torch (torch._C, read as _C or as its file _C.pyd) */
    /* a .so is foreign to Windows' loader and dyld, not to ld.so: its "file
     * too short" or "invalid ELF header" is about a damaged native library */
    if (is(l->role, "elf_library") && is(l->kind, TD_KIND_NOT_A_LIBRARY) &&
        is(x->parts.platform, "linux"))
        l->role = NULL;
    bool module_role = !l->role || is(l->role, "python_extension");
    if (module_role && l->library && has(x->text, "DLL load failed"))
        l->role = torch_module(x->text, l->library) ? "torch" : "python_extension";
}

/* A missing symbol of the driver's API (cuCtxCreate_v3, nvmlDeviceGet...):
 * the driver's library that should define it is older than its caller
 * needs, whichever file the text names -- the driver's own (a dlsym's
 * "libcuda.so.1: undefined symbol"), the module that needed it (ld.so's
 * form) or another file of the log. Whether that settled the library. */
static bool driver_symbol(struct td_explain *x, const char *requirer)
{
    struct td_explain_load *l = &x->load;
    const char *driver = l->defined_by_driver;
    if (!is(l->kind, TD_KIND_MISSING_SYMBOL) || !driver)
        return false;
    if (requirer && is(role_of(requirer), "gpu_driver"))
        l->library = td_explain_base_name(requirer); /* the driver's file, as named */
    else if (!is(role_of(l->library), "gpu_driver"))
        l->library = driver;
    l->needed_by =
        requirer && !is(role_of(requirer), "gpu_driver") ? td_explain_base_name(requirer) : NULL;
    l->role = "gpu_driver";
    return true;
}

/* The library at fault and the role, once the form is known. */
static void settle_role(struct td_explain *x)
{
    unnamed_library(x);
    const struct td_explain_load *l = &x->load;
    const char *requirer = l->needed_by ? l->needed_by : l->file;
    if (!driver_symbol(x, requirer) && !symbol_role(x, requirer))
        file_role(x);
}

/* TEMPLATE with {library}, {needed_by}, {file}, {symbol}, {version} filled. */
static const char *fill(const char *template, const struct td_explain *x, struct td_arena *a)
{
    const struct td_explain_load *l = &x->load;
    const struct {
        const char *name, *value, *otherwise;
    } vars[] = {
        {"{library}", l->library, "the library"},
        {"{needed_by}", l->needed_by, "the file that needs it"},
        {"{file}", l->file, "<the file the message names>"},
        {"{symbol}", l->symbol, "the symbol"},
        {"{version}", x->fields.version, "the version it needs"},
    };
    char out[TEXT_CAP];
    size_t o = 0;
    for (const char *p = template; *p && o + 1 < sizeof out;) {
        size_t k = 0;
        for (; k < sizeof vars / sizeof vars[0]; k++)
            if (strncmp(p, vars[k].name, strlen(vars[k].name)) == 0)
                break;
        if (k == sizeof vars / sizeof vars[0]) {
            out[o++] = *p++;
            continue;
        }
        const char *v = vars[k].value ? vars[k].value : vars[k].otherwise;
        int n = snprintf(out + o, sizeof out - o, "%s", v);
        o = n < 0 ? o : o + (size_t)n >= sizeof out ? sizeof out - 1 : o + (size_t)n;
        p += strlen(vars[k].name);
    }
    out[o] = '\0';
    return td_arena_strdup(a, out);
}

/* The general causes for the load error's kind and ROLE, by rank, up to CAP. */
static void add_general(struct td_explain *x, const char *role, size_t cap)
{
    struct td_explain_load *l = &x->load;
    for (int rank = 1; rank < 10; rank++)
        for (size_t i = 0; i < g_kb.n_causes && l->n_causes < cap; i++) {
            const struct cause_row *c = &g_kb.causes[i];
            if (c->rank != rank || strcmp(c->kind, l->kind) || strcmp(c->role, role))
                continue;
            struct td_explain_cause *out = &l->causes[l->n_causes++];
            out->kind = c->cause_kind;
            out->detail = fill(c->detail, x, &x->arena);
            out->fix = fill(c->fix, x, &x->arena);
            out->confirm = l->file || !strstr(c->confirm, "{file}") ? fill(c->confirm, x, &x->arena)
                                                                    : confirm_deps(x);
            out->source = c->source;
        }
}

/* A version condition ("torch=2.4.0", "torch>=2.9") against what the text
 * shows. Returns 1 holds, 0 contradicted, -1 unknown. */
static int condition_holds(const char *cond, const struct td_explain_fields *f)
{
    if (!cond || strncmp(cond, "torch", 5) != 0)
        return -1;
    if (!f->torch_version)
        return -1;
    const char *spec = cond + 5;
    if (spec[0] == '=' && spec[1] != '=') {
        /* "2.4" in the text neither confirms nor contradicts "2.4.0" */
        size_t parts = 1;
        for (const char *p = f->torch_version; *p && *p != '+'; p++)
            parts += *p == '.';
        if (parts < 3 && td_version_has_prefix(spec + 1, f->torch_version))
            return -1;
        return td_version_cmp(f->torch_version, spec + 1) == 0;
    }
    return td_version_satisfies(f->torch_version, spec);
}

/* The last occurrence of NEEDLE in TEXT, or NULL. */
static const char *last_in(const char *text, const char *needle)
{
    const char *last = NULL;
    for (const char *q = strstr(text, needle); q; q = strstr(q + 1, needle))
        last = q;
    return last;
}

/* Whether the text's last undefined symbol comes after its last missing
 * shared object: ld.so resolves a module's symbols only once every library
 * it needs was found, so an undefined symbol printed after a "cannot open
 * shared object file" is a later attempt that got past the missing library
 * (the extension imported before torch, then after it). */
static bool symbol_after_missing(const char *text)
{
    if (!text)
        return false; /* as has() reads a text the cleaner could not make */
    const char *missing = last_in(text, "cannot open shared object file");
    const char *symbol = last_in(text, "undefined symbol");
    return missing && symbol && symbol > missing;
}

/* The catalogue's answer as the first cause (or, contradicted, the last). */
static void add_catalogue(struct td_explain *x, struct td_explain_cause *late, bool *is_late)
{
    *is_late = false;
    if (!x->n_matches)
        return;
    const struct td_explain_match *m = &x->matches[0];
    struct td_explain_load *l = &x->load;
    struct td_explain_cause c = {.kind = m->kind,
                                 .fix = m->fix,
                                 .source = m->source,
                                 .provenance = m->provenance,
                                 .id = m->id,
                                 .condition = m->condition};
    int holds = condition_holds(m->condition, &x->fields);
    char buf[TEXT_CAP];
    const char *v = m->condition ? m->condition + 5 : "";
    if (holds == -1 && m->condition)
        snprintf(buf, sizeof buf, "If your torch is %s: %s", v[0] == '=' ? v + 1 : v, m->cause);
    else if (holds == 0)
        snprintf(buf, sizeof buf, "Unlikely here (%s shows torch %s; this holds for torch %s): %s",
                 x->fields.torch_version_here ? "this machine" : "the text",
                 x->fields.torch_version, v[0] == '=' ? v + 1 : v, m->cause);
    else
        snprintf(buf, sizeof buf, "%s", m->cause);
    c.detail = td_arena_strdup(&x->arena, buf);
    c.contradicted = holds == 0;
    c.confirm = confirm_deps(x);
    /* a row that knows only that a library is missing ranks after what the
     * message itself says went wrong with it (a wrong architecture, a bad
     * signature, an old version of it) */
    bool says_less = is(m->kind, TD_KIND_MISSING_LIBRARY) && l->kind &&
                     !is(l->kind, TD_KIND_MISSING_LIBRARY) &&
                     (!is(l->kind, TD_KIND_MISSING_SYMBOL) || symbol_after_missing(x->text));
    /* ld.so prints one "version `V' not found" line per version a file
     * lacks, in the order it checks them, and the load form reads the first:
     * a row that matched another version is about a later line, another
     * library's failure (a GLIBCXX_ line after a GLIBC_ one) */
    const char *row_version = NULL;
    for (size_t i = 0; i < m->n_captures; i++)
        if (is(m->capture_names[i], "version"))
            row_version = m->captures[i];
    bool later_line = is(m->kind, TD_KIND_MISSING_SYMBOL_VERSION) &&
                      is(l->kind, TD_KIND_MISSING_SYMBOL_VERSION) && row_version &&
                      x->fields.version && !strstr(x->fields.version, row_version);
    if (c.contradicted || says_less || later_line) {
        *late = c; /* ranked after the general causes */
        *is_late = true;
        return;
    }
    l->causes[l->n_causes++] = c;
}

/* A load form that read a code but no file ("The specified module could not
 * be found." with the module's path on a line of its own, as Node.js prints
 * it on Windows): when the text names exactly one library file, that file is
 * the one the load was about. */
static void the_one_file(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    /* ld.so's form keeps the requirer as its file when the library's name
     * was no name ("error while loading shared libraries: ?:") */
    bool requirer_only = l->file && l->needed_by && strcmp(l->file, l->needed_by) == 0;
    /* one file, however many times and ways the text spells its path
     * ("\\?\C:\x\a.node" turned "//?/C:/x/a.node" and "C:/x/a.node"); a
     * program the text names beside it is no library */
    const struct td_part_file *one = NULL, *program = NULL;
    bool single = true;
    for (size_t i = 0; i < p->n_files; i++) {
        const struct td_part_file *f = &p->files[i];
        if (is_program(f->name))
            program = program ? program : f;
        else if (!one)
            one = f;
        else
            single = single && strcmp(f->name, one->name) == 0;
    }
    if (!one && program && l->form && !l->library && !l->file && !l->needed_by &&
        !td_explain_delay_load(&x->fields)) {
        /* a program is started, never loaded as a library: the one file of a
         * start that failed ("`target\debug\app.exe` (exit code: 0xc0000135,
         * STATUS_DLL_NOT_FOUND)") is the program whose imports the loader
         * could not resolve, their needer */
        l->needed_by = program->path;
        return;
    }
    if (!l->form || l->library || (l->file && !requirer_only) || (l->needed_by && !requirer_only) ||
        !one || !single || td_explain_delay_load(&x->fields) ||
        (l->needed_by && strcmp(td_explain_base_name(l->needed_by), one->name) == 0))
        return;
    /* a Windows load that failed for a procedure (ERROR_PROC_NOT_FOUND: Node's
     * "The specified procedure could not be found." over the addon's path,
     * Perl's and R's load_file) names the module it was loading: the one
     * whose import is not found, the symbol's needer */
    if (is(l->kind, TD_KIND_MISSING_SYMBOL)) {
        if (is(l->form, "windows") && !l->symbol)
            l->needed_by = one->path;
        return;
    }
    l->library = one->name;
    l->file = one->path;
}

/* The row of data/windows_api_homes.tsv for FUNCTION, or NULL. */
static const struct api_home *api_home(const char *function)
{
    for (size_t i = 0; i < g_kb.n_homes; i++)
        if (strcmp(g_kb.homes[i].function, function) == 0)
            return &g_kb.homes[i];
    return NULL;
}

/* Adds a cause of KIND to X's load, DETAIL and FIX copied into X's arena;
 * nothing when the list is full. */
static void add_cause(struct td_explain *x, const char *kind, const char *detail, const char *fix,
                      const char *confirm, const char *source)
{
    struct td_explain_load *l = &x->load;
    if (l->n_causes >= TD_EXPLAIN_MAX_CAUSES)
        return;
    struct td_explain_cause *c = &l->causes[l->n_causes++];
    c->kind = kind;
    c->detail = td_arena_strdup(&x->arena, detail);
    c->fix = td_arena_strdup(&x->arena, fix);
    c->confirm = confirm;
    c->source = source;
}

/* The two ways the load's symbol, a function of H's DLL, goes missing: this
 * Windows is older than the first to export it (when H dates it, DATED), or
 * another copy of the DLL is found first. */
static void add_api_home_causes(struct td_explain *x, const struct api_home *h, bool dated)
{
    const struct td_explain_load *l = &x->load;
    const char *confirm = confirm_deps(x);
    char detail[TEXT_CAP], fix[TEXT_CAP];
    if (dated) {
        snprintf(detail, sizeof detail,
                 "this Windows is older than %s, the first whose %s exports %s", h->since, h->dll,
                 l->symbol);
        snprintf(fix, sizeof fix,
                 "Run the program on %s or later, or use a release of it built for this Windows",
                 h->since);
        add_cause(x, TD_KIND_MISSING_SYMBOL, detail, fix, "torchdoctor check", h->source);
    }
    snprintf(detail, sizeof detail,
             "another %s is found before Windows' own (in the program's folder: a mod loader's or "
             "hook's proxy of the same name, or an old redistributed copy) and does not export %s",
             h->dll, l->symbol);
    snprintf(fix, sizeof fix,
             "Remove or rename the %s beside the program (the DLL search order takes the "
             "program's folder before System32)",
             h->dll);
    add_cause(x, TD_KIND_SHADOWED_LIBRARY, detail, fix, confirm, h->source);
}

/* An entry-point dialog about a documented Windows API function (data/
 * windows_api_homes.tsv): the function's own DLL is the one at fault. Windows
 * 8 and later name the module whose import failed, so the DLL the dialog
 * names (a game's steam_api64.dll, the program itself) imported the function;
 * a retyped dialog may name none. Either Windows is older than the first one
 * to export it, or another copy of its DLL found first (a proxy dbghelp.dll a
 * mod loader puts in the program's folder) lacks it. A DLL named that is the
 * home itself, or one of the API sets that stand for it (api-ms-win-*), is
 * read as before. Returns whether it read the dialog so: its causes then
 * stand for the general layer's, which are worded for ELF and dyld. */
static bool api_home_library(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    if (!is(l->form, "dialog") || !is(l->kind, TD_KIND_MISSING_SYMBOL) || !l->symbol)
        return false;
    const struct api_home *h = api_home(l->symbol);
    if (!h)
        return false;
    char named[256] = "";
    if (l->library)
        lower(l->library, named, sizeof named);
    if (strcmp(named, h->dll) == 0 || strncmp(named, "api-ms-win-", 11) == 0 ||
        strncmp(named, "ext-ms-win-", 11) == 0)
        return false;
    /* a function every Windows in support exports (dbghelp's) can only be
     * missing from another copy of its DLL: shadowed first */
    bool dated = !is(h->since, "-");
    l->needed_by = l->library;
    l->library = h->dll;
    l->defined_by = h->dll;
    l->role = role_of(h->dll);
    if (!dated)
        l->kind = TD_KIND_SHADOWED_LIBRARY;
    char note[TEXT_CAP];
    snprintf(
        note, sizeof note, "%s is a Windows API function exported by %s%s%s; the dialog names %s%s",
        l->symbol, h->dll, dated ? " from " : "", dated ? h->since : "",
        l->needed_by ? l->needed_by : "no DLL",
        l->needed_by ? ", the module that imports it (Windows 8 and later name the importer)" : "");
    l->note = td_arena_strdup(&x->arena, note);
    add_api_home_causes(x, h, dated);
    return true;
}

/* The C++ runtime an Itanium-mangled name of the C++ standard library
 * (namespace std: "_ZSt", "_ZNSt", "_ZNKSt" and the abbreviations Sa Sb Ss
 * Si So Sd) comes from on Windows, where MSVC mangles otherwise and only a
 * MinGW build uses these names: LLVM's libc++ (its inline namespace std::__1,
 * "St3__1") or GCC's libstdc++-6.dll. GCC's emulated TLS names a thread-local
 * variable's control object "__emutls_v." before the variable's own name.
 * NULL when SYM is no such name. */
static const char *cxx_runtime_dll(const char *sym)
{
    if (!sym)
        return NULL;
    if (strncmp(sym, "__emutls_v.", 11) == 0 || strncmp(sym, "__emutls_t.", 11) == 0)
        sym += 11;
    if (strncmp(sym, "_Z", 2) != 0)
        return NULL;
    const char *q = sym + 2;
    if (*q == 'N')
        q++;
    while (*q == 'K' || *q == 'V' || *q == 'r')
        q++;
    if (q[0] != 'S' || !strchr("tabsiod", q[1]) || !q[1])
        return NULL;
    return strstr(sym, "St3__1") ? "libc++.dll" : "libstdc++-6.dll";
}

/* An entry-point dialog names the module whose import failed (Windows 8
 * and later): the DLL that should export the name is another. The text says
 * which when another of its lines pairs the same name with a DLL (a
 * dependency walker's "NAME in Qt6Core.dll is missing"); a name of the C++
 * standard library comes from the MinGW C++ runtime. That DLL becomes the
 * finding's library and the named one its needer. */
static void dialog_exporter(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    if (!is(l->form, "dialog") || !is(l->kind, TD_KIND_MISSING_SYMBOL) || !l->symbol ||
        !l->library || strlen(l->symbol) < 4)
        return;
    const char *exporter = NULL;
    char buf[256];
    for (const char *p = strstr(x->text, l->symbol); p && !exporter; p = strstr(p + 1, l->symbol)) {
        const char *bol = p, *eol = strchr(p, '\n');
        while (bol > x->text && bol[-1] != '\n')
            bol--;
        if (!eol)
            eol = p + strlen(p);
        /* the dialog's own line names the importer */
        if (has_nocase_n(bol, (size_t)(eol - bol), "dynamic link library"))
            continue;
        /* "NAME in X.dll", "NAME from X.dll", "NAME: X.dll": the name, a joining
         * word and the DLL, as a dependency walker's verdict is written; a
         * dialog in another language puts a sentence between them */
        const char *q = p + strlen(l->symbol);
        q += strspn(q, " \t`'\"");
        static const char *const joins[] = {"in ", "from ", "of ", ":"};
        size_t j = 0;
        while (j < sizeof joins / sizeof joins[0] && strncasecmp(q, joins[j], strlen(joins[j])))
            j++;
        if (j == sizeof joins / sizeof joins[0])
            continue;
        q += strlen(joins[j]);
        q += strspn(q, " \t`'\"");
        size_t n = strcspn(q, " \t\n`'\",;)");
        while (n > 0 && q[n - 1] == '.')
            n--;
        if (n < 5 || n >= sizeof buf || q + n > eol || strncasecmp(q + n - 4, ".dll", 4) != 0)
            continue;
        memcpy(buf, q, n);
        buf[n] = '\0';
        const char *name = td_explain_base_name(td_arena_strdup(&x->arena, buf));
        if (name && strcasecmp(name, l->library) != 0)
            exporter = name;
    }
    if (!exporter) {
        const char *rt = cxx_runtime_dll(l->symbol);
        if (rt && strncasecmp(l->library, "libstdc++", 9) != 0 &&
            strncasecmp(l->library, "libc++", 6) != 0)
            exporter = rt;
    }
    if (!exporter)
        return;
    l->needed_by = l->library;
    l->library = exporter;
    l->defined_by = exporter;
    l->file = NULL;
    l->role = role_of(exporter);
}

void td_explain_load_error(struct td_explain *x)
{
    load_tables();
    struct td_explain_load *l = &x->load;
    memset(l, 0, sizeof *l);
    if (!from_dialog(x)) {
        from_posix(x);
        if (!l->form)
            from_windows(x);
        from_python(x);
        if (!l->form)
            from_dialog_frame(x);
        if (!l->form)
            from_entry_point_caption(x);
    }
    from_raiser(x);
    td_explain_package_form(x);
    if (!l->form)
        return;
    placeholder_library(x);
    the_one_file(x);
    tidy_library(x);
    name_definer(x);
    settle_role(x);
    bool homed = api_home_library(x);
    if (!homed)
        dialog_exporter(x);
    struct td_explain_cause late;
    bool is_late;
    add_catalogue(x, &late, &is_late);
    size_t cap = TD_EXPLAIN_MAX_CAUSES - is_late;
    /* a raiser known only by a code its words spelled ("initialization
     * error" is cudaError 3) says less than a loader form that read the
     * file it could not open: the form's causes rank first */
    const struct td_explain_parts *p = &x->parts;
    bool code_only = p->raiser && !(p->raiser_detail && *p->raiser_detail) && l->library &&
                     !is(l->form, p->raiser) && is(l->kind, TD_KIND_MISSING_LIBRARY);
    /* so does a raiser known only by the entry point's noun beside a DLL:
     * the causes of the DLL's role (an API of a newer Windows) say more */
    bool noun_only = is(p->raiser, "entry-point-words");
    /* and a driver's entry point that is missing (driver_symbol): the
     * driver's age says more than a host's "could not load" words, not
     * more than a raiser's own narrower reading (the toolkit's stub) */
    bool generic_raiser = !p->raiser_kind || is(p->raiser_kind, TD_KIND_MISSING_LIBRARY) ||
                          is(p->raiser_kind, TD_KIND_MISSING_SYMBOL);
    bool driver_entry =
        is(l->role, "gpu_driver") && is(l->kind, TD_KIND_MISSING_SYMBOL) && generic_raiser;
    if (!code_only && !noun_only && !driver_entry)
        add_raiser(x, cap);
    /* a companion or any Python extension missing a symbol of its own (not
     * torch's, not Python's C API: a third library's, _Pm_Close, antlr4::)
     * was built or linked wrongly, not for another torch or another Python:
     * the general causes apply */
    bool own_symbol = (is(l->role, "companion") || is(l->role, "python_extension")) &&
                      is(l->kind, TD_KIND_MISSING_SYMBOL) && !torch_symbol(l->symbol) &&
                      !python_symbol(l->symbol) && !is(role_of(l->defined_by), "torch");
    /* an extension missing a symbol of the C or C++ runtime (std::, GLIBCXX_)
     * was built with a newer toolchain than the runtime found: not another
     * torch, whatever the extension's role */
    const char *definer_role = role_of(l->defined_by);
    if (is(l->kind, TD_KIND_MISSING_SYMBOL) &&
        (is(definer_role, "cxx_runtime") || is(definer_role, "glibc")))
        own_symbol = true;
    if (l->role && !own_symbol && !homed)
        add_general(x, l->role, cap);
    if (l->n_causes < (size_t)(2 + (x->n_matches > 0 && !is_late)) && !homed)
        add_general(x, "*", cap);
    if (code_only || noun_only || driver_entry)
        add_raiser(x, cap);
    if (is_late)
        l->causes[l->n_causes++] = late;
}

/* The first problem the graph found, or NULL. */
static const struct td_finding *first_local(const struct td_findings *local)
{
    for (size_t i = 0; local && i < local->count; i++)
        if (local->items[i].severity != TD_SEV_INFO)
            return &local->items[i];
    return NULL;
}

static void catalogue_findings(const struct td_explain *x, struct td_findings *out)
{
    const struct td_explain_fields *f = &x->fields;
    for (size_t i = 0; i < x->n_best; i++) {
        const struct td_explain_match *m = &x->matches[i];
        const char *lib = td_explain_capture(m, "file");
        td_findings_add(out, m->severity, m->kind,
                        lib            ? lib
                        : f->file_name ? f->file_name
                                       : f->file,
                        f->needed_by, f->symbol, m->fix, "%s (%s, %s%s%s)", m->cause, m->id,
                        m->source, m->provenance ? "; " : "", m->provenance ? m->provenance : "");
    }
}

void td_explain_findings(const struct td_explain *x, const struct td_findings *local,
                         const char *local_confirm, struct td_findings *out,
                         struct td_explain_cause *causes, size_t *n_causes)
{
    const struct td_explain_load *l = &x->load;
    const struct td_finding *here = first_local(local);
    *n_causes = 0;
    if (here && (l->form || !x->n_matches)) {
        causes[(*n_causes)++] =
            (struct td_explain_cause){.kind = here->kind,
                                      .detail = here->detail,
                                      .fix = here->fix,
                                      .confirm = local_confirm,
                                      .source = "this machine: the dependency graph of the file"};
    }
    for (size_t i = 0; l->form && i < l->n_causes && *n_causes < TD_EXPLAIN_MAX_CAUSES; i++)
        causes[(*n_causes)++] = l->causes[i];
    if (here && (l->form || !x->n_matches)) {
        td_findings_add(out, here->severity, here->kind, here->library, here->needed_by,
                        here->symbol, here->fix, "%s", here->detail);
    } else if (l->form && l->n_causes) {
        const struct td_explain_cause *top = &l->causes[0];
        char definer[1024] = "";
        if (l->defined_by)
            snprintf(definer, sizeof definer, " (%s should be defined by %s%s%s)",
                     l->symbol_readable ? l->symbol_readable : l->symbol, l->defined_by,
                     l->built_for ? "; the module that needs it was built against " : "",
                     l->built_for ? l->built_for : "");
        td_findings_add(out, TD_SEV_ERROR, top->kind, l->library, l->needed_by, l->symbol, top->fix,
                        "%s%s%s%s", top->detail, definer, top->id ? " " : "",
                        top->id ? top->id : "");
    } else {
        catalogue_findings(x, out);
    }
    for (size_t i = 0; local && i < local->count; i++) {
        const struct td_finding *g = &local->items[i];
        if (g->severity == TD_SEV_INFO || g == here)
            continue;
        td_findings_add(out, g->severity, g->kind, g->library, g->needed_by, g->symbol, g->fix,
                        "%s", g->detail);
    }
}

void td_explain_use_torch_version(struct td_explain *x, const char *version)
{
    if (x->fields.torch_version || !version || !*version)
        return;
    x->fields.torch_version = td_arena_strdup(&x->arena, version);
    x->fields.torch_version_here = true;
    td_explain_load_error(x);
}

size_t td_explain_dialog_eres(const char **out, size_t cap)
{
    load_tables();
    size_t n = 0;
    for (size_t i = 0; i < g_kb.n_dialogs && n < cap; i++)
        out[n++] = g_kb.dialogs[i].pattern;
    for (size_t i = 0; i < g_kb.n_frames && n < cap; i++)
        out[n++] = g_kb.frames[i].pattern;
    return n;
}
