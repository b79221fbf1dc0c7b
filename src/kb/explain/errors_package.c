/* Python packages that load their own native library, with ctypes or cffi,
 * from a search of their own (data/python_native_libraries.tsv): which one a
 * text is about, found by the text's structure -- the package imported, its
 * files run in the frames, its module in the exception's type, or the
 * sentence its own search raises when it finds no file -- and the file it
 * looks for on the text's platform. Such a package says "not found" in its
 * own words, or lets ctypes' code through, and names no file: the file is
 * the one its search code names (docs/explain.md "How explain reads a text"). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum { MAX_PACKAGES = 64, MAX_MESSAGES = 4 };

/* One row: the import name, the file per platform (windows, linux, macos)
 * and the sentences the package's search raises when it finds none. */
struct package_row {
    const char *package, *library[3];
    const char *messages[MAX_MESSAGES];
    size_t n_messages;
};

static struct {
    bool loaded;
    struct package_row rows[MAX_PACKAGES];
    size_t n;
    bool dropped; /* the table had more rows than MAX_PACKAGES */
    struct td_arena arena;
} g_pk;

/* The cell's messages, "|" between two. */
static void split_messages(struct package_row *r, const char *cell)
{
    char *all = (char *)td_explain_keep_cell(&g_pk.arena, cell);
    for (char *m = all; m && r->n_messages < MAX_MESSAGES;) {
        char *bar = strchr(m, '|');
        if (bar)
            *bar = '\0';
        if (*m)
            r->messages[r->n_messages++] = m;
        m = bar ? bar + 1 : NULL;
    }
}

static void load_packages(void)
{
    if (g_pk.loaded)
        return;
    g_pk.loaded = true;
    static const char *const cols[] = {"package", "windows", "linux", "macos", "message", NULL};
    struct td_table t;
    if (!td_table_open(&t, "python_native_libraries", cols))
        return;
    while (g_pk.n < MAX_PACKAGES && td_table_next(&t)) {
        struct package_row *r = &g_pk.rows[g_pk.n++];
        r->package = td_explain_keep_cell(&g_pk.arena, td_table_cell(&t, 0));
        for (int k = 0; k < 3; k++)
            r->library[k] = td_explain_keep_cell(&g_pk.arena, td_table_cell(&t, 1 + k));
        split_messages(r, td_table_cell(&t, 4));
    }
    g_pk.dropped = td_explain_rows_left(&t, g_pk.n, MAX_PACKAGES);
}

bool td_explain_packages_dropped(void)
{
    load_packages();
    return g_pk.dropped;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static bool separator(char c)
{
    return c == '/' || c == '\\';
}

/* Whether the path at FOLDER_END (just after "PACKAGE/") goes on, within
 * one path token, to a Python source file: the frames run the package's
 * code ("...\\usb\\core.py"), not a folder of the same name elsewhere
 * ("/dev/bus/usb/001"). *TOKEN_END: where that path token ends. */
static bool runs_python_file(const char *folder_end, const char **token_end)
{
    size_t n = strcspn(folder_end, " \t\n\"'`,:;()");
    *token_end = folder_end + n;
    for (size_t i = 0; i + 3 <= n; i++)
        if (strncmp(folder_end + i, ".py", 3) == 0 &&
            (i + 3 == n || !isalnum((unsigned char)folder_end[i + 3])))
            return true;
    return false;
}

/* Whether Q, where the package's name starts, begins a line's first word:
 * an exception's type ("usb.core.NoBackendError: No backend available"). */
static bool starts_line(const char *text, const char *q)
{
    while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
        q--;
    return q == text || q[-1] == '\n';
}

/* Whether AFTER (just past the package's name) is ".mod.TypeError:": a
 * dotted name ending in an exception class, then its colon. */
static bool exception_type(const char *after)
{
    if (*after != '.')
        return false;
    size_t n = 1;
    while (word_char(after[n]) || after[n] == '.')
        n++;
    if (after[n] != ':' || n < 6)
        return false;
    static const char *const ends[] = {"Error", "Exception"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t k = strlen(ends[i]);
        if (n > k && strncmp(after + n - k, ends[i], k) == 0)
            return true;
    }
    return false;
}

/* The first NEEDLE (N bytes) at or after P, or NULL. Not strstr: a search
 * repeated from each match of a name over a long pasted line ("usb/usb/...",
 * 240 KB) must cost what it reads, and the sanitizers' strstr measures the
 * whole rest of the text at every call. */
static const char *next_match(const char *p, const char *needle, size_t n)
{
    for (; *p; p++)
        if (*p == *needle && strncmp(p, needle, n) == 0)
            return p;
    return NULL;
}

/* How TEXT uses PACKAGE by its structure: not at all (USE_NONE); imports it
 * ("import vlc", "from pylibdmtx.pylibdmtx import decode") or raises an
 * exception of its modules at the start of a line ("usb.core.NoBackendError:")
 * (USE_NAMED); or runs its module file ("...\\site-packages\\vlc.py", File
 * "vlc.py") or a Python file of its folder ("...\\openslide\\lowlevel.py")
 * in the traceback's frames (USE_RAN), wherever a line that only names it
 * stands: the user's "import llama_cpp" comes before the frames. */
enum package_use { USE_NONE, USE_NAMED, USE_RAN };

static enum package_use uses_package(const char *text, const char *package)
{
    size_t n = strlen(package);
    /* the end of the last path token that held no Python file: a later name
     * inside it needs no second walk to its end, which from every name of a
     * long path ("usb/usb/usb/...", 240 KB) took seconds */
    const char *no_python_file_before = text;
    enum package_use use = USE_NONE;
    for (const char *q = next_match(text, package, n); q; q = next_match(q + 1, package, n)) {
        const char *after = q + n;
        char before = q > text ? q[-1] : '\n';
        if (word_char(*after) || word_char(before) || before == '.')
            continue;
        if ((q - text >= 7 && strncmp(q - 7, "import ", 7) == 0) ||
            (q - text >= 5 && strncmp(q - 5, "from ", 5) == 0)) {
            use = USE_NAMED;
            continue;
        }
        if (separator(*after) && after + 1 >= no_python_file_before &&
            runs_python_file(after + 1, &no_python_file_before))
            return USE_RAN;
        if (strncmp(after, ".py", 3) == 0 && !isalnum((unsigned char)after[3]) &&
            (separator(before) || before == '"' || before == '\'' ||
             isspace((unsigned char)before)))
            return USE_RAN;
        if (starts_line(text, q) && exception_type(after))
            use = USE_NAMED;
    }
    return use;
}

/* Whether TEXT holds one of R's own not-found sentences, whole: one that
 * ends in a name does not end inside a longer one (PySDL2's "... for SDL2"
 * is not its "... for SDL2_image", another library). */
static bool says_own_message(const char *text, const struct package_row *r)
{
    for (size_t i = 0; i < r->n_messages; i++) {
        const char *m = r->messages[i];
        size_t n = strlen(m);
        for (const char *q = next_match(text, m, n); q; q = next_match(q + 1, m, n))
            if (!word_char(m[n - 1]) || !word_char(q[n]))
                return true;
    }
    return false;
}

void td_explain_read_package(const char *text, struct td_explain_parts *p)
{
    load_packages();
    int k = td_explain_platform_column(p->platform);
    const struct package_row *used = NULL;
    enum package_use use = USE_NONE;
    for (size_t i = 0; i < g_pk.n; i++) {
        const struct package_row *r = &g_pk.rows[i];
        if (!r->package || !r->library[k])
            continue;
        if (says_own_message(text, r)) {
            used = r; /* its own words name it whatever else the text uses */
            p->package_said = true;
            use = uses_package(text, r->package);
            break;
        }
        if (!used && (use = uses_package(text, r->package)) != USE_NONE)
            used = r;
    }
    p->package_ran = use == USE_RAN;
    if (used) {
        p->package = used->package;
        p->package_library = used->library[k];
    }
}

/* Whether NAME is a file the text itself names. */
static bool named_in_text(const struct td_explain_parts *p, const char *name)
{
    for (size_t i = 0; name && i < p->n_files; i++)
        if (strcasecmp(p->files[i].name, name) == 0)
            return true;
    return false;
}

/* A reading that made a file of a bare name in the package's own sentence
 * ("Couldn't find the FluidSynth library": fluidsynth.dll) guessed what the
 * package's search code says outright: that code's file replaces it. */
static void package_names_the_file(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    if (l->library && !named_in_text(p, l->library) && !l->file &&
        strcmp(l->kind ? l->kind : "", TD_KIND_MISSING_LIBRARY) == 0)
        l->library = p->package_library;
}

/* The load no other reading found: the package's search found no file. */
static void package_load_form(struct td_explain *x)
{
    struct td_explain_load *l = &x->load;
    const struct td_explain_parts *p = &x->parts;
    l->form = "python-package";
    l->kind = TD_KIND_MISSING_LIBRARY;
    l->library = p->package_library;
    char detail[512];
    snprintf(detail, sizeof detail,
             "the Python package %s loads its native library %s itself (ctypes or cffi) at import "
             "and its own search found no such file: the library is not installed, or not in a "
             "folder that search looks in",
             p->package, p->package_library);
    struct td_explain_cause *c = &l->causes[l->n_causes++];
    c->kind = TD_KIND_MISSING_LIBRARY;
    c->detail = td_arena_strdup(&x->arena, detail);
    c->fix = "Install the library the package wraps (its own install notes name the system "
             "package or download), or point the package at the file with the environment "
             "variable its documentation gives";
    c->confirm = "torchdoctor check";
    c->source = "data/python_native_libraries.tsv";
}

void td_explain_package_form(struct td_explain *x)
{
    const struct td_explain_parts *p = &x->parts;
    if (!p->package_said || !p->package_library)
        return;
    if (x->load.form)
        package_names_the_file(x);
    else
        package_load_form(x);
}
