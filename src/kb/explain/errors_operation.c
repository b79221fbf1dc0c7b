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
};

static bool frame_line(const char *line, size_t n, struct last_frame *f)
{
    const char *file = NULL;
    for (const char *p = line; p + 6 <= line + n; p++)
        if (strncmp(p, "File \"", 6) == 0) {
            file = p + 6;
            break;
        }
    if (!file)
        return false;
    const char *end = memchr(file, '"', (size_t)(line + n - file));
    const char *in = end ? strstr(end, ", in ") : NULL;
    if (!end || !in || in > line + n || !strstr(end, ", line "))
        return false;
    const char *base = file;
    for (const char *p = file; p < end; p++)
        if (*p == '/' || *p == '\\')
            base = p + 1;
    f->module = base;
    f->module_len = (size_t)(end - base);
    f->func = in + 5;
    f->func_len = 0;
    while (f->func + f->func_len < line + n &&
           (isalnum((unsigned char)f->func[f->func_len]) || f->func[f->func_len] == '_' ||
            f->func[f->func_len] == '<' || f->func[f->func_len] == '>'))
        f->func_len++;
    f->code = NULL;
    f->code_len = 0;
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
    size_t m = strlen(needle);
    for (size_t i = 0; m && i + m <= n; i++)
        if (strncmp(s + i, needle, m) == 0)
            return true;
    return false;
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

const char *td_explain_file_operation(const char *text)
{
    load_rows();
    struct last_frame f = {0};
    if (text && last_frame(text, &f) && frame_operates_on_file(&f))
        return "file";
    for (size_t i = 0; text && i < g_op.n; i++) {
        regmatch_t m[1];
        if (g_op.rows[i].compiled && regexec(&g_op.rows[i].re, text, 1, m, 0) == 0)
            return "file";
    }
    return NULL;
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
