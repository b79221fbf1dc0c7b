/* The native library of a managed-code binding (a .NET namespace or type, a
 * Java package or class) a text names by structure: the type in .NET's
 * "The type initializer for 'X' threw an exception", the class of a JNI
 * method the JVM could not link, a frame of the binding's own code. Such a
 * failure rarely names the file; the binding's own DllImport or
 * System.loadLibrary does (data/managed_bindings.tsv). */
#include <ctype.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum { MAX_BINDINGS = 64 };

/* data/managed_bindings.tsv; library: windows, linux, macos */
struct binding_row {
    const char *binding, *library[3];
};

static struct {
    bool loaded;
    struct binding_row rows[MAX_BINDINGS];
    size_t n;
    bool dropped;          /* the table had more rows than MAX_BINDINGS */
    struct td_arena arena; /* the table's text; lives as long as the program */
} g_mb;

static void load_bindings(void)
{
    static const char *const cols[] = {"binding", "windows", "linux", "macos", NULL};
    struct td_table t;
    if (g_mb.loaded)
        return;
    g_mb.loaded = true;
    if (!td_table_open(&t, "managed_bindings", cols))
        return;
    while (g_mb.n < MAX_BINDINGS && td_table_next(&t)) {
        struct binding_row *r = &g_mb.rows[g_mb.n];
        r->binding = td_explain_keep_cell(&g_mb.arena, td_table_cell(&t, 0));
        for (int k = 0; k < 3; k++)
            r->library[k] = td_explain_keep_cell(&g_mb.arena, td_table_cell(&t, 1 + k));
        g_mb.n += r->binding != NULL;
    }
    g_mb.dropped = td_explain_rows_left(&t, g_mb.n, MAX_BINDINGS);
}

bool td_explain_bindings_dropped(void)
{
    load_bindings();
    return g_mb.dropped;
}

static bool same_run(const char *a, const char *b, size_t n, bool fold)
{
    return fold ? strncasecmp(a, b, n) == 0 : strncmp(a, b, n) == 0;
}

/* Whether the type or class NAME (N bytes) belongs to binding KEY: NAME is
 * KEY, or KEY and a dot start it. A KEY with a dot may also follow a dot in
 * NAME (a shaded or relocated copy: com.x.shaded.org.rocksdb.Options); one
 * word alone is too common a name to be looked for inside another ('Gdip',
 * 'jssc'). FOLD: case does not matter (a name retyped in lower case,
 * "skiasharp.skimageinfo"). */
static bool of_binding(const char *name, size_t n, const char *key, bool fold)
{
    size_t k = strlen(key);
    if (k > n)
        return false; /* NAME's N bytes are all there is to compare: what follows is not NAME */
    size_t last = strchr(key, '.') ? n - k : 0; /* the last place KEY may start */
    for (size_t at = 0; at <= last; at++) {
        if (at > 0 && name[at - 1] != '.')
            continue;
        if (same_run(name + at, key, k, fold) && (at + k == n || name[at + k] == '.'))
            return true;
    }
    return false;
}

static const struct binding_row *binding_of(const char *name, size_t n, bool fold)
{
    for (size_t i = 0; i < g_mb.n; i++)
        if (of_binding(name, n, g_mb.rows[i].binding, fold))
            return &g_mb.rows[i];
    return NULL;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || c == '.';
}

/* The binding of the first dotted name in TEXT that is one of the table's (a
 * stack frame's "at OpenCvSharp.Internal.NativeMethods.redirectError(",
 * "at org.sqlite.core.NativeDB._open(Native Method)"), case as written. */
static const struct binding_row *binding_in_text(const char *text)
{
    for (const char *s = text; *s;) {
        if (!isalpha((unsigned char)*s) && *s != '_') {
            s++;
            continue;
        }
        const char *w = s;
        while (ident_char(*s))
            s++;
        if (w > text && ident_char(w[-1]))
            continue; /* inside a token that starts with a digit or a dot */
        const struct binding_row *r =
            memchr(w, '.', (size_t)(s - w)) ? binding_of(w, (size_t)(s - w), false) : NULL;
        if (r)
            return r;
    }
    return NULL;
}

const char *td_explain_binding_library(const char *text, const char *name, size_t n, int column)
{
    load_bindings();
    const struct binding_row *r = name ? binding_of(name, n, true) : binding_in_text(text);
    return r && column >= 0 && column < 3 ? r->library[column] : NULL;
}
