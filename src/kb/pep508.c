/* PEP 508 dependency specifiers (kb/pep508.h): the Requires-Dist line's
 * name, extras, version specifier or URL and environment marker, and the
 * marker's value for one interpreter, as the `packaging` library (23.0)
 * parses and evaluates them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/pep508.h"

enum { MAX_NESTING = 64 };

static const char *skip_ws(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '.' || c == '_' || c == '-';
}

/* IDENTIFIER = [A-Za-z0-9][A-Za-z0-9._-]* ending on a word character (the
 * tokenizer's \b): its length at S, 0 when none. */
static size_t identifier(const char *s)
{
    if (!isalnum((unsigned char)*s))
        return 0;
    size_t n = 1;
    while (ident_char(s[n]))
        n++;
    while (n > 1 && (s[n - 1] == '.' || s[n - 1] == '-'))
        n--;
    return n;
}

/* "[a, b]" at *P into OUT, normalised and comma-joined. */
static bool parse_extras(const char **p, char *out, size_t cap)
{
    const char *s = *p;
    size_t at = 0;
    out[0] = '\0';
    if (*s != '[')
        return true;
    s = skip_ws(s + 1);
    for (bool first = true; *s != ']'; first = false) {
        if (!first) {
            if (*s != ',')
                return false;
            s = skip_ws(s + 1);
        }
        size_t n = identifier(s);
        if (!n || at + n + 2 > cap)
            return false;
        if (at)
            out[at++] = ',';
        td_pep503_normalize(s, n, out + at, cap - at);
        at += strlen(out + at);
        s = skip_ws(s + n);
    }
    *p = s + 1;
    return true;
}

/* The specifier list up to ';' (or the end), optionally in parentheses;
 * every item must be a valid specifier. */
static bool parse_specifier(const char **p, char *out, size_t cap)
{
    const char *s = skip_ws(*p);
    bool paren = *s == '(';
    if (paren)
        s++;
    size_t len = strcspn(s, paren ? ")" : ";");
    if (paren && s[len] != ')')
        return false;
    const char *e = s + len;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    if ((size_t)(e - s) >= cap)
        return false;
    size_t at = 0;
    for (const char *c = s; c < e; c++)
        if (*c != ' ' && *c != '\t')
            out[at++] = *c;
    out[at] = '\0';
    /* Blanks inside a version ("== 1 .0") are not allowed: check each item as written. */
    for (const char *item = s; item < e;) {
        const char *end = memchr(item, ',', (size_t)(e - item));
        if (!end)
            end = e;
        const char *b = skip_ws(item), *x = end;
        while (x > b && (x[-1] == ' ' || x[-1] == '\t'))
            x--;
        size_t op = strspn(b, "~=!<>");
        const char *v = skip_ws(b + op);
        if (x <= b || !op || v >= x || memchr(v, ' ', (size_t)(x - v)) ||
            memchr(v, '\t', (size_t)(x - v)))
            return false;
        item = end + (end < e);
        if (end < e && item >= e)
            return false; /* a trailing comma */
    }
    if (at && td_pep440_contains(out, "0") < 0)
        return false;
    *p = paren ? s + len + 1 : s + len;
    return true;
}

static int evaluate(const char *text, const struct td_pep508_env *env, const char *extra);

bool td_pep508_parse(const char *line, struct td_requirement *r)
{
    memset(r, 0, sizeof *r);
    const char *s = skip_ws(line);
    size_t n = identifier(s);
    if (!n || n >= sizeof r->name)
        return false;
    memcpy(r->name, s, n);
    td_pep503_normalize(s, n, r->key, sizeof r->key);
    s = skip_ws(s + n);
    if (!parse_extras(&s, r->extras, sizeof r->extras))
        return false;
    s = skip_ws(s);
    if (*s == '@') {
        s = skip_ws(s + 1);
        size_t url = strcspn(s, " \t");
        if (!url)
            return false;
        r->url = true;
        s += url;
        if (*s && *skip_ws(s) && *skip_ws(s) != ';')
            return false;
        s = skip_ws(s);
    } else if (!parse_specifier(&s, r->specifier, sizeof r->specifier)) {
        return false;
    }
    s = skip_ws(s);
    if (!*s)
        return true;
    if (*s != ';')
        return false;
    s = skip_ws(s + 1);
    size_t ml = strlen(s);
    while (ml && (s[ml - 1] == ' ' || s[ml - 1] == '\t'))
        ml--;
    if (!ml || ml >= sizeof r->marker)
        return false;
    memcpy(r->marker, s, ml);
    struct td_pep508_env probe = {0};
    return evaluate(r->marker, &probe, "") != -2;
}

/* ---- markers ---- */

/* A recursive-descent evaluator; ERR is sticky: packaging evaluates every
 * comparison, so one undefined comparison makes the whole marker fail. */
struct marker {
    const char *s;
    const struct td_pep508_env *env;
    const char *extra;
    int depth;   /* of parentheses: bounded, so no input exhausts the stack */
    bool syntax; /* not a marker at all */
    bool undefined;
};

struct operand {
    char text[256];
    const char *var; /* the variable's name, NULL for a string */
};

static bool word_at(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 && !isalnum((unsigned char)s[n]) && s[n] != '_';
}

/* The value of variable NAME (with '.' read as '_'), NULL when unknown. */
static const char *env_value(const struct marker *m, const char *name)
{
    const struct td_pep508_env *e = m->env;
    struct {
        const char *name, *value;
    } vars[] = {
        {"python_version", e->python_version},
        {"python_full_version", e->python_full_version},
        {"os_name", e->os_name},
        {"sys_platform", e->sys_platform},
        {"platform_release", e->platform_release},
        {"platform_system", e->platform_system},
        {"platform_version", e->platform_version},
        {"platform_machine", e->platform_machine},
        {"platform_python_implementation", e->platform_python_implementation},
        {"python_implementation", e->platform_python_implementation},
        {"implementation_name", e->implementation_name},
        {"implementation_version", e->implementation_version},
        {"extra", m->extra},
    };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++)
        if (strcmp(name, vars[i].name) == 0)
            return vars[i].value ? vars[i].value : "";
    return NULL;
}

static bool operand(struct marker *m, struct operand *o)
{
    const char *s = m->s = skip_ws(m->s);
    o->var = NULL;
    if (*s == '\'' || *s == '"') {
        const char *end = strchr(s + 1, *s);
        if (!end || (size_t)(end - s - 1) >= sizeof o->text)
            return false;
        snprintf(o->text, sizeof o->text, "%.*s", (int)(end - s - 1), s + 1);
        m->s = end + 1;
        return true;
    }
    size_t n = 0;
    while (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '.')
        n++;
    if (!n || n >= sizeof o->text)
        return false;
    snprintf(o->text, sizeof o->text, "%.*s", (int)n, s);
    for (char *c = o->text; *c; c++)
        if (*c == '.')
            *c = '_';
    if (!env_value(m, o->text))
        return false;
    o->var = o->text;
    m->s = s + n;
    return true;
}

/* The comparison operator at M->s: "in", "not in" or a version operator. */
static bool marker_op(struct marker *m, char *op, size_t cap)
{
    const char *s = m->s = skip_ws(m->s);
    if (word_at(s, "in")) {
        snprintf(op, cap, "in");
        m->s = s + 2;
        return true;
    }
    if (word_at(s, "not")) {
        const char *t = skip_ws(s + 3);
        if (t == s + 3 || !word_at(t, "in"))
            return false;
        snprintf(op, cap, "not in");
        m->s = t + 2;
        return true;
    }
    static const char *const ops[] = {"===", "==", "~=", "!=", "<=", ">=", "<", ">"};
    for (size_t i = 0; i < 8; i++)
        if (!strncmp(s, ops[i], strlen(ops[i]))) {
            snprintf(op, cap, "%s", ops[i]);
            m->s = s + strlen(ops[i]);
            return true;
        }
    return false;
}

/* packaging's _eval_op: a version comparison when OP RHS is a valid
 * specifier, else Python's string comparison. */
static bool compare(struct marker *m, const char *lhs, const char *op, const char *rhs)
{
    char spec[300];
    snprintf(spec, sizeof spec, "%s%s", op, rhs);
    if (strcmp(op, "in") != 0 && strcmp(op, "not in") != 0 && td_pep440_contains(spec, "0") >= 0) {
        int r = td_pep440_contains(spec, lhs);
        m->undefined |= r < 0; /* packaging raises InvalidVersion */
        return r > 0;
    }
    int c = strcmp(lhs, rhs);
    if (!strcmp(op, "in"))
        return strstr(rhs, lhs) != NULL;
    if (!strcmp(op, "not in"))
        return strstr(rhs, lhs) == NULL;
    if (!strcmp(op, "=="))
        return c == 0;
    if (!strcmp(op, "!="))
        return c != 0;
    if (!strcmp(op, "<"))
        return c < 0;
    if (!strcmp(op, "<="))
        return c <= 0;
    if (!strcmp(op, ">"))
        return c > 0;
    if (!strcmp(op, ">="))
        return c >= 0;
    m->undefined = true; /* "~=" or "===" on strings */
    return false;
}

static bool marker_or(struct marker *m);

static bool marker_item(struct marker *m)
{
    struct operand l, r;
    char op[8];
    if (!operand(m, &l) || !marker_op(m, op, sizeof op) || !operand(m, &r)) {
        m->syntax = true;
        return false;
    }
    if (!l.var == !r.var) { /* two strings or two variables: packaging's KeyError */
        m->undefined = true;
        return false;
    }
    char lv[256], rv[256];
    snprintf(lv, sizeof lv, "%s", l.var ? env_value(m, l.var) : l.text);
    snprintf(rv, sizeof rv, "%s", r.var ? env_value(m, r.var) : r.text);
    if ((l.var && !strcmp(l.var, "extra")) || (r.var && !strcmp(r.var, "extra"))) {
        char a[256], b[256]; /* PEP 685: extras compare normalised */
        td_pep503_normalize(lv, strlen(lv), a, sizeof a);
        td_pep503_normalize(rv, strlen(rv), b, sizeof b);
        return compare(m, a, op, b);
    }
    return compare(m, lv, op, rv);
}

static bool marker_atom(struct marker *m)
{
    m->s = skip_ws(m->s);
    if (*m->s != '(')
        return marker_item(m);
    if (++m->depth > MAX_NESTING) {
        m->syntax = true;
        return false;
    }
    m->s++;
    bool v = marker_or(m);
    m->depth--;
    m->s = skip_ws(m->s);
    if (*m->s != ')')
        m->syntax = true;
    else
        m->s++;
    return v;
}

static bool marker_and(struct marker *m)
{
    bool v = marker_atom(m);
    while (!m->syntax && word_at(m->s = skip_ws(m->s), "and")) {
        m->s += 3;
        v &= marker_atom(m);
    }
    return v;
}

static bool marker_or(struct marker *m)
{
    bool v = marker_and(m);
    while (!m->syntax && word_at(m->s = skip_ws(m->s), "or")) {
        m->s += 2;
        v |= marker_and(m);
    }
    return v;
}

/* -2 is a syntax error (td_pep508_parse uses it to validate a marker
 * without an environment); callers of the public contract see -1. */
static int evaluate(const char *text, const struct td_pep508_env *env, const char *extra)
{
    struct marker m = {.s = text, .env = env, .extra = extra ? extra : ""};
    bool v = marker_or(&m);
    if (m.syntax || *skip_ws(m.s))
        return -2;
    return m.undefined ? -1 : v;
}

int td_pep508_marker(const char *marker, const struct td_pep508_env *env, const char *extra)
{
    int r = evaluate(marker, env, extra);
    return r < -1 ? -1 : r;
}

void td_pep508_env_for(struct td_pep508_env *e, const char *os, const char *machine,
                       const char *full_version, char *buf, size_t cap)
{
    bool win = strcmp(os, "windows") == 0, mac = strcmp(os, "macos") == 0;
    size_t dots = 0, n = 0;
    while (full_version[n] && (full_version[n] != '.' || ++dots < 2))
        n++;
    snprintf(buf, cap, "%.*s", (int)n, full_version); /* "3.11.2" -> "3.11" */
    *e = (struct td_pep508_env){
        .python_version = buf,
        .python_full_version = full_version,
        .os_name = win ? "nt" : "posix",
        .sys_platform = win   ? "win32"
                        : mac ? "darwin"
                              : "linux",
        .platform_release = "",
        .platform_system = win   ? "Windows"
                           : mac ? "Darwin"
                                 : "Linux",
        .platform_version = "",
        /* Windows reports AMD64 for x86-64 (platform.machine()). */
        .platform_machine = win && !strcmp(machine, "x86_64") ? "AMD64" : machine,
        .platform_python_implementation = "CPython",
        .implementation_name = "cpython",
        .implementation_version = full_version,
    };
}

bool td_metadata_next_requirement(const char **cursor, struct td_requirement *r)
{
    static const char key[] = "Requires-Dist:";
    for (const char *line = *cursor; line && *line;) {
        size_t n = strcspn(line, "\n");
        const char *next = line[n] ? line + n + 1 : line + n;
        size_t len = n && line[n - 1] == '\r' ? n - 1 : n;
        if (len == 0)
            break; /* the blank line that ends the headers */
        if (len > sizeof key - 1 && strncmp(line, key, sizeof key - 1) == 0) {
            size_t vlen = len - (sizeof key - 1);
            char *value = malloc(vlen + 1); /* td_pep508_parse reads to a NUL */
            if (value)
                memcpy(value, line + sizeof key - 1, vlen), value[vlen] = '\0';
            bool ok = value && td_pep508_parse(value, r);
            free(value);
            if (ok) {
                *cursor = next;
                return true;
            }
        }
        line = next;
    }
    *cursor = NULL;
    return false;
}
