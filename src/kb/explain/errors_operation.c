/* Which operation failed, read from a Python text's own structure: the
 * traceback's last code line ("os.remove('x.pyd')"), the function of a
 * frozen traceback's last frame ("shutil.py, in _rmtree_unsafe") or the
 * exception's format (CPython's OSError with a file name, which only
 * path-taking functions set). A Win32 code or errno of such a file operation
 * on a library file (deleting a loaded .pyd, writing a DLL another process
 * holds) says nothing of a load of it (data/file_operations.tsv). */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "base/compat.h"
#include "base/arena.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum { MAX_FILE_OPERATIONS = 48 };

struct operation_row {
    const char *where, *match, *module, *mode;
    regex_t re;
    bool compiled;
};

static struct {
    struct operation_row rows[MAX_FILE_OPERATIONS];
    size_t n;
    bool loaded;
    bool dropped; /* the table had more rows than MAX_FILE_OPERATIONS */
    struct td_arena arena;
} g_op;

static void load_rows(void)
{
    static const char *const cols[] = {"where", "match", "module", "mode", NULL};
    struct td_table t;
    if (g_op.loaded)
        return;
    g_op.loaded = true;
    if (!td_table_open(&t, "file_operations", cols))
        return;
    while (g_op.n < MAX_FILE_OPERATIONS && td_table_next(&t)) {
        struct operation_row *r = &g_op.rows[g_op.n++];
        r->where = td_arena_strdup(&g_op.arena, td_table_cell(&t, 0));
        r->match = td_arena_strdup(&g_op.arena, td_table_cell(&t, 1));
        r->module = td_arena_strdup(&g_op.arena, td_table_cell(&t, 2));
        r->mode = td_arena_strdup(&g_op.arena, td_table_cell(&t, 3));
        if (r->match && strcmp(r->where, "exception") == 0)
            r->compiled = regcomp(&r->re, r->match, REG_EXTENDED | REG_NEWLINE) == 0;
    }
    g_op.dropped = td_explain_rows_left(&t, g_op.n, MAX_FILE_OPERATIONS);
}

/* The last frame of a Python traceback in TEXT: the function it runs, the
 * base name of its file, and its code line (the indented line under it, NULL
 * when a frozen or embedded traceback prints none). False when TEXT holds no
 * frame line ("File \"P\", line N, in F"). */
struct last_frame {
    const char *func, *module, *code;
    size_t func_len, module_len, code_len;
    const char *after; /* the text after the frame's code line, or its frame line */
};

/* The start of the line after the one that ends at END (its '\n' or the
 * text's end). */
static const char *nl_or_end(const char *end)
{
    return *end ? end + 1 : end;
}

/* The first NEEDLE in S[0..N), or NULL: searches stay on their line (a
 * strstr from each frame line ran to the text's end, 41 ms for 16,000 lines
 * of `File "a.py"` with no ", in"). */
static const char *find_in(const char *s, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    for (size_t i = 0; m && i + m <= n; i++)
        if (strncmp(s + i, needle, m) == 0)
            return s + i;
    return NULL;
}

static bool frame_line(const char *line, size_t n, struct last_frame *f)
{
    const char *file = find_in(line, n, "File \"");
    if (!file)
        return false;
    file += 6;
    const char *stop = line + n;
    const char *end = memchr(file, '"', (size_t)(stop - file));
    const char *in = end ? find_in(end, (size_t)(stop - end), ", in ") : NULL;
    if (!in || !find_in(end, (size_t)(stop - end), ", line "))
        return false;
    const char *base = file;
    for (const char *p = file; p < end; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    f->module = base;
    f->module_len = (size_t)(end - base);
    f->func = in + 5;
    f->func_len = 0;
    while (f->func + f->func_len < stop &&
           (isalnum((unsigned char)f->func[f->func_len]) || f->func[f->func_len] == '_' ||
            f->func[f->func_len] == '<' || f->func[f->func_len] == '>'))
        f->func_len++;
    f->code = NULL;
    f->code_len = 0;
    f->after = nl_or_end(line + n);
    return true;
}

static bool last_frame(const char *text, struct last_frame *out)
{
    bool found = false;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        struct last_frame f = {0};
        if (frame_line(line, n, &f)) {
            *out = f;
            found = true;
            /* the code line: indented deeper than nothing, and no frame itself */
            const char *next = nl ? nl + 1 : NULL;
            const char *nnl = next ? strchr(next, '\n') : NULL;
            size_t nn = next ? (nnl ? (size_t)(nnl - next) : strlen(next)) : 0;
            struct last_frame g = {0};
            if (next && nn && (next[0] == ' ' || next[0] == '\t') && !frame_line(next, nn, &g)) {
                out->code = next;
                out->code_len = nn;
                out->after = nl_or_end(next + nn);
            }
        }
        line += n + (nl != NULL);
    }
    return found;
}

/* Whether the code line S (N bytes) passes a mode that writes: a quoted
 * string of open()'s mode letters with 'w', 'a', 'x' or '+'. */
static bool writes_mode(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\'' && s[i] != '"')
            continue;
        size_t k = i + 1;
        bool writes = false, mode = true;
        while (k < n && s[k] != s[i]) {
            mode = mode && strchr("rwxabtU+", s[k]) != NULL;
            writes = writes || strchr("wax+", s[k]) != NULL;
            k++;
        }
        if (k < n && k - i - 1 >= 1 && k - i - 1 <= 4 && mode && writes)
            return true;
        i = k;
    }
    return false;
}

static bool holds(const char *s, size_t n, const char *needle)
{
    return find_in(s, n, needle) != NULL;
}

/* The bracketed code ("[WinError 5]", "[Errno 13]", Python 2's "[Error 32]")
 * that starts at P, as its length, or 0. */
static size_t code_at(const char *p)
{
    static const char *const marks[] = {"[WinError ", "[Errno ", "[Error ", NULL};
    for (size_t i = 0; marks[i]; i++) {
        size_t m = strlen(marks[i]), k = m;
        if (strncmp(p, marks[i], m) != 0)
            continue;
        while (isdigit((unsigned char)p[k]))
            k++;
        if (k > m && p[k] == ']')
            return k + 1;
    }
    return 0;
}

/* The first bracketed code on the line at LINE, as its length at *N, or NULL. */
static const char *line_code(const char *line, size_t *n)
{
    for (const char *p = line; *p && *p != '\n'; p++)
        if (*p == '[' && (*n = code_at(p)) != 0)
            return p;
    return NULL;
}

/* Whether a line after the exception line at LINE holds a code other than its
 * own: a failure after the file operation (a copy's Errno 13, then an
 * import's WinError 126), which the operation does not explain. */
static bool other_code_after(const char *line)
{
    size_t own_len = 0, n;
    const char *own = line_code(line, &own_len);
    const char *nl = strchr(line, '\n');
    for (const char *p = nl ? strchr(nl, '[') : NULL; p; p = strchr(p + 1, '['))
        if ((n = code_at(p)) != 0 && (!own || n != own_len || strncmp(p, own, n) != 0))
            return true;
    return false;
}

/* The exception line of the traceback that goes on at AFTER: its first line
 * that is not indented (a code line, Python 3.11's carets) nor blank. */
static const char *exception_line(const char *after)
{
    for (const char *line = after; *line;) {
        if (*line != ' ' && *line != '\t' && *line != '\n' && *line != '\r')
            return line;
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : line + strlen(line);
    }
    return after;
}

/* Whether the last frame F runs a file operation of the table's. */
static bool frame_operates_on_file(const struct last_frame *f)
{
    for (size_t i = 0; i < g_op.n; i++) {
        const struct operation_row *r = &g_op.rows[i];
        if (f->code && strcmp(r->where, "code") == 0 && holds(f->code, f->code_len, r->match) &&
            (strcmp(r->mode, "write") != 0 || writes_mode(f->code, f->code_len)))
            return true;
        if (!f->code && strcmp(r->where, "frame") == 0 && strlen(r->match) == f->func_len &&
            strncmp(f->func, r->match, f->func_len) == 0 && strlen(r->module) == f->module_len &&
            strncmp(f->module, r->module, f->module_len) == 0)
            return true;
    }
    return false;
}

/* Whether an exception row matches TEXT on a line no other code follows. */
static bool exception_operates_on_file(const char *text)
{
    for (size_t i = 0; i < g_op.n; i++) {
        regmatch_t m[1];
        if (!g_op.rows[i].compiled || regexec(&g_op.rows[i].re, text, 1, m, 0) != 0)
            continue;
        const char *line = text + m[0].rm_so;
        while (line > text && line[-1] != '\n')
            line--;
        if (!other_code_after(line))
            return true;
    }
    return false;
}

const char *td_explain_file_operation(const char *text)
{
    load_rows();
    struct last_frame f = {0};
    if (!text)
        return NULL;
    if (last_frame(text, &f) && frame_operates_on_file(&f) &&
        !other_code_after(exception_line(f.after)))
        return "file";
    return exception_operates_on_file(text) ? "file" : NULL;
}

size_t td_explain_file_operation_bad_rows(const char **out, size_t cap)
{
    load_rows();
    size_t n = 0;
    for (size_t i = 0; i < g_op.n && n < cap; i++)
        if (strcmp(g_op.rows[i].where, "exception") == 0 && !g_op.rows[i].compiled)
            out[n++] = g_op.rows[i].match;
    if (g_op.dropped && n < cap)
        out[n++] = "(rows past MAX_FILE_OPERATIONS were not loaded)";
    return n;
}

size_t td_explain_file_operation_eres(const char **out, size_t cap)
{
    load_rows();
    size_t n = 0;
    for (size_t i = 0; i < g_op.n && n < cap; i++)
        if (strcmp(g_op.rows[i].where, "exception") == 0)
            out[n++] = g_op.rows[i].match;
    return n;
}
