/* The error-signature catalogue (data/errors.tsv, docs/errors.md) compiled
 * once into POSIX EREs, and the matcher: every row whose platform fits the
 * text is tried, on the text as pasted and on its language-neutral form
 * (Windows messages replaced by their codes); the most specific wins. */
#include "kb/errors.h"

#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

enum { MAX_ROWS = 512, ROW_CAP = 8192, MAX_GROUPS = 16, MAX_PLACEHOLDERS = 8, ERE_CAP = 4096 };

struct pattern {
    regex_t re;
    const char *ere;    /* compiled at first use: most rows are ruled out by their needle */
    const char *needle; /* literal rows: their longest literal run, which the text must hold */
    /* td_ere_needles of the ERE, found with its compilation: where in a
     * text regexec may start (a long line before the needle's is skipped) */
    struct td_ere_needles *needles;
    bool compiled, ok;
    size_t specificity;
    int groups[MAX_PLACEHOLDERS]; /* subexpression of each placeholder */
    const char *names[MAX_PLACEHOLDERS];
    size_t n;
};

struct row {
    const char *id, *pattern, *platform, *error_code, *kind, *cause, *fix, *source, *condition;
    const char *provenance; /* what the thread established, apart from the cause; NULL */
    bool regex;
    enum td_severity severity;
    struct pattern as_written, neutral;
    bool has_neutral; /* the pattern holds a Windows message */
};

static struct {
    bool loaded;
    struct row rows[MAX_ROWS];
    size_t n;
    struct td_arena arena; /* row text and placeholder names; lives as long as the program */
} g_cat;

/* docs/errors.md "Placeholders": each expands to one group. */
static const struct {
    const char *name, *ere;
} placeholders[] = {
    {"file", "([^\"'\t\n ]+)"},        {"path", "([^\"\t\n]+)"},
    {"dir", "([^\"\t\n]*[/\\\\])?"},   {"symbol", "([^\"'\t\n ,()]+)"},
    {"version", "([0-9A-Za-z_.+-]+)"}, {"code", "([0-9A-Za-z_]+)"},
};

/* A placeholder at S ("{file}", "{version2}"): its expansion and length. */
static const char *placeholder_at(const char *s, size_t *len, char *name, size_t cap)
{
    if (s[0] != '{')
        return NULL;
    size_t i = 1;
    while (s[i] >= 'a' && s[i] <= 'z')
        i++;
    size_t base = i - 1;
    if (s[i] >= '0' && s[i] <= '9')
        i++;
    if (s[i] != '}' || base == 0 || i >= cap)
        return NULL;
    for (size_t k = 0; k < sizeof placeholders / sizeof placeholders[0]; k++) {
        if (strlen(placeholders[k].name) == base &&
            strncmp(s + 1, placeholders[k].name, base) == 0) {
            memcpy(name, s + 1, i - 1);
            name[i - 1] = '\0';
            *len = i + 1;
            return placeholders[k].ere;
        }
    }
    return NULL;
}

/* The longest stretch of a literal pattern without placeholders or code
 * tokens: a substring every matching text holds. */
static const char *longest_run(const char *src, struct td_arena *a)
{
    size_t best = 0, best_at = 0;
    for (size_t i = 0; src[i];) {
        size_t start = i;
        while (src[i] && src[i] != '\x01') {
            size_t plen;
            char name[16];
            if (placeholder_at(src + i, &plen, name, sizeof name))
                break;
            i++;
        }
        /* the closing full stop is optional (compile): not in the needle */
        size_t run = i - start - (!src[i] && i > start && src[i - 1] == '.');
        if (run > best)
            best = run, best_at = start;
        if (src[i] == '\x01') {
            while (src[i] && src[i] != '\x02')
                i++;
        } else if (src[i]) {
            size_t plen;
            char name[16];
            placeholder_at(src + i, &plen, name, sizeof name);
            i += plen - 1;
        }
        if (src[i])
            i++;
    }
    return td_arena_strndup(a, src + best_at, best);
}

/* Turns a catalogue pattern into an ERE: placeholders to groups, literal
 * text escaped (literal rows) or "\n"/"\t" decoded (regex rows). Counts the
 * specificity: the bytes left once placeholders, backslashes (regex rows)
 * and code tokens (td_explain_neutral) are removed. */
static int compile(struct pattern *p, const char *src, bool regex, struct td_arena *a)
{
    char ere[ERE_CAP];
    size_t o = 0;
    int group = 0;
    bool bracket = false, token = false;
    p->specificity = 0;
    p->n = 0;
    for (size_t i = 0; src[i] && o + 64 < sizeof ere;) {
        char c = src[i];
        size_t plen;
        char name[16];
        const char *exp = bracket ? NULL : placeholder_at(src + i, &plen, name, sizeof name);
        if (exp) {
            if (p->n < MAX_PLACEHOLDERS) {
                p->groups[p->n] = group + 1;
                p->names[p->n++] = td_arena_strdup(a, name);
            }
            group++;
            size_t el = strlen(exp);
            if (o + el >= sizeof ere)
                return -1;
            memcpy(ere + o, exp, el);
            o += el;
            i += plen;
            continue;
        }
        if (c == '\x01' || c == '\x02') {
            token = c == '\x01';
            ere[o++] = c;
            i++;
            continue;
        }
        if (regex && c == '\\' && src[i + 1]) {
            char e = src[i + 1];
            if (e == 'n' || e == 't') {
                ere[o++] = e == 'n' ? '\n' : '\t';
            } else {
                ere[o++] = c;
                ere[o++] = e;
            }
            p->specificity += !token;
            i += 2;
            continue;
        }
        if (regex) {
            if (bracket && c == ']')
                bracket = false;
            else if (!bracket && c == '[') {
                bracket = true;
                ere[o++] = c;
                i++;
                if (src[i] == '^')
                    ere[o++] = src[i++];
                if (src[i] == ']')
                    ere[o++] = src[i++]; /* a leading ] is literal */
                continue;
            } else if (!bracket && c == '(')
                group++;
        } else if (c == '.' && !src[i + 1] && o > 0) {
            /* a literal row's closing full stop: users copy a message
             * without it ("... conflicts with this version of Python") */
            memcpy(ere + o, "\\.?", 3);
            o += 3;
            p->specificity++;
            i++;
            continue;
        } else if (strchr("\\^$.[]|()*+?{}", c)) {
            ere[o++] = '\\';
        }
        ere[o++] = c;
        p->specificity += !token;
        i++;
    }
    ere[o] = '\0';
    p->ere = td_arena_strdup(a, ere);
    p->needle = regex ? NULL : longest_run(src, a);
    return p->ere ? 0 : -1;
}

static void load_severity(void)
{
    size_t len;
    const char *t = td_data_table("error_severity", &len);
    struct td_tsv tsv;
    td_tsv_open(&tsv, t, len);
    const char *cells[8];
    char line[2048];
    int hn = td_tsv_next(&tsv, line, sizeof line, cells, 8);
    int c_id = td_tsv_column(cells, hn, "id"), c_sev = td_tsv_column(cells, hn, "severity");
    while (c_id >= 0 && c_sev >= 0 && td_tsv_next(&tsv, line, sizeof line, cells, 8) == hn) {
        for (size_t i = 0; i < g_cat.n; i++)
            if (strcmp(g_cat.rows[i].id, cells[c_id]) == 0)
                g_cat.rows[i].severity = strcmp(cells[c_sev], "warning") == 0 ? TD_SEV_WARNING
                                         : strcmp(cells[c_sev], "info") == 0  ? TD_SEV_INFO
                                                                              : TD_SEV_ERROR;
    }
}

static int load_catalogue(struct td_err *err)
{
    if (g_cat.loaded)
        return g_cat.n ? 0 : -1;
    g_cat.loaded = true;
    size_t len;
    const char *t = td_data_table("errors", &len);
    if (!t) {
        td_err_set(err, "this build has no error catalogue (data/errors.tsv)");
        return -1;
    }
    struct td_tsv tsv;
    td_tsv_open(&tsv, t, len);
    const char *cells[16];
    char header[ROW_CAP];
    int hn = td_tsv_next(&tsv, header, sizeof header, cells, 16);
    int col[11];
    static const char *const names[] = {"id",         "match",   "pattern",  "platform",
                                        "error_code", "kind",    "cause",    "fix",
                                        "source",     "example", "condition"};
    for (int k = 0; k < 11; k++)
        if ((col[k] = td_tsv_column(cells, hn, names[k])) < 0) {
            td_err_set(err, "data/errors.tsv: no column '%s'", names[k]);
            return -1;
        }
    char *line = malloc(ROW_CAP);
    if (!line)
        return -1;
    struct td_arena *a = &g_cat.arena;
    while (g_cat.n < MAX_ROWS && td_tsv_next(&tsv, line, ROW_CAP, cells, 16) >= 0) {
        struct row *r = &g_cat.rows[g_cat.n];
        r->id = td_arena_strdup(a, cells[col[0]]);
        r->regex = strcmp(cells[col[1]], "regex") == 0;
        r->pattern = td_arena_strdup(a, cells[col[2]]);
        r->platform = td_arena_strdup(a, cells[col[3]]);
        r->error_code = strcmp(cells[col[4]], "-") ? td_arena_strdup(a, cells[col[4]]) : NULL;
        r->kind = td_arena_strdup(a, cells[col[5]]);
        r->cause = td_explain_split_cause(td_arena_strdup(a, cells[col[6]]), a, &r->provenance);
        r->fix = td_arena_strdup(a, cells[col[7]]);
        r->source = td_arena_strdup(a, cells[col[8]]);
        r->condition = strcmp(cells[col[10]], "-") ? td_arena_strdup(a, cells[col[10]]) : NULL;
        r->severity = TD_SEV_ERROR;
        if (!r->id || !r->pattern || compile(&r->as_written, r->pattern, r->regex, a) != 0)
            continue; /* tests/kb/test_kb_errors.c fails on any row that does not compile */
        size_t removed;
        const char *neutral = td_explain_neutral(r->pattern, r->regex, a, &removed);
        r->has_neutral = neutral && compile(&r->neutral, neutral, r->regex, a) == 0;
        g_cat.n++;
    }
    free(line);
    load_severity();
    return 0;
}

/* The platforms the text implies (docs/errors.md "How explain uses it"). */
static unsigned implied_platforms(const char *text, const struct td_explain_fields *f)
{
    unsigned set = 0;
    if (f->win32 || strstr(text, "WinError") || strstr(text, "DLL load failed") ||
        strstr(text, ".dll") || strstr(text, ".pyd") || strstr(text, ":\\") ||
        td_explain_drive_path(text))
        set |= 1u;
    if (strstr(text, ".so") || strstr(text, "ld.so") || strstr(text, " ELF"))
        set |= 2u;
    if (strstr(text, ".dylib") || strstr(text, "@rpath") || strstr(text, "mach-o"))
        set |= 4u;
    return set;
}

static bool applies(const struct row *r, unsigned set)
{
    if (!set || strcmp(r->platform, "any") == 0)
        return true;
    return ((set & 1u) && strcmp(r->platform, "windows") == 0) ||
           ((set & 2u) && strcmp(r->platform, "linux") == 0) ||
           ((set & 4u) && strcmp(r->platform, "macos") == 0);
}

static bool try_pattern(struct pattern *p, const char *text, struct td_explain_match *m,
                        struct td_arena *a)
{
    regmatch_t g[MAX_GROUPS];
    if (p->needle && !strstr(text, p->needle))
        return false;
    if (!p->compiled) {
        p->compiled = true;
        p->ok = regcomp(&p->re, p->ere, REG_EXTENDED | REG_NEWLINE) == 0;
        if (p->ok && (p->needles = td_arena_alloc(&g_cat.arena, sizeof *p->needles)) != NULL)
            td_ere_needles(p->ere, p->needles);
    }
    static const struct td_ere_needles none = {0};
    if (!p->ok ||
        td_ere_needles_exec(&p->re, p->needles ? p->needles : &none, text, MAX_GROUPS, g) != 0)
        return false;
    m->specificity = p->specificity;
    m->n_captures = 0;
    for (size_t k = 0; k < p->n; k++) {
        int gi = p->groups[k];
        if (gi >= MAX_GROUPS || g[gi].rm_so < 0)
            continue;
        m->capture_names[m->n_captures] = p->names[k];
        m->captures[m->n_captures++] =
            td_arena_strndup(a, text + g[gi].rm_so, (size_t)(g[gi].rm_eo - g[gi].rm_so));
    }
    return true;
}

static int by_rank(const void *x, const void *y)
{
    const struct td_explain_match *a = x, *b = y;
    if (a->specificity != b->specificity)
        return a->specificity < b->specificity ? 1 : -1;
    if (a->language_neutral != b->language_neutral)
        return a->language_neutral ? 1 : -1;
    return strcmp(a->id, b->id);
}

/* One reading of TEXT on PLATFORM (NULL: its signs'), with no second try
 * in sentence case (td_explain_text_on). */
static int explain_once(const char *text, size_t len, const char *platform, struct td_explain *out,
                        struct td_err *err)
{
    memset(out, 0, sizeof *out);
    if (load_catalogue(err) != 0)
        return -1;
    struct td_arena *a = &out->arena;
    text = td_explain_shorten(text, &len, &out->shortened, a);
    out->text = text ? td_explain_clean(text, len, a) : NULL;
    /* glibc's messages in the user's language read as the English every
       reader below knows */
    if (out->text)
        out->text = td_explain_glibc_english(out->text, a);
    /* an optional library's probes its program itself calls harmless are no
       failure for any reader below */
    if (out->text)
        out->text = td_explain_drop_optional_probes(out->text, a);
    if (!out->text) {
        td_err_set(err, "out of memory reading the message");
        return -1;
    }
    struct td_explain_fields *f = &out->fields;
    td_explain_extract(out->text, f, a);
    td_explain_read_on(out->text, f, platform, &out->parts, a);
    size_t removed;
    const char *neutral = td_explain_neutral(out->text, false, a, &removed);
    unsigned set = implied_platforms(out->text, f);

    out->matches = td_arena_array(a, g_cat.n ? g_cat.n : 1, sizeof *out->matches);
    if (!out->matches)
        return -1;
    for (size_t i = 0; i < g_cat.n; i++) {
        struct row *r = &g_cat.rows[i];
        if (!applies(r, set))
            continue;
        struct td_explain_match m = {0}, n = {0};
        bool hit = try_pattern(&r->as_written, out->text, &m, a);
        /* The language-neutral text against the language-neutral pattern
         * (or the pattern as written, when it holds no message). */
        bool nhit =
            neutral && try_pattern(r->has_neutral ? &r->neutral : &r->as_written, neutral, &n, a);
        if (!hit && !nhit)
            continue;
        if (!hit || (nhit && n.specificity > m.specificity)) {
            m = n;
            m.language_neutral = true;
        }
        m.id = r->id;
        m.kind = r->kind;
        m.cause = r->cause;
        m.fix = r->fix;
        m.source = r->source;
        m.provenance = r->provenance;
        m.condition = r->condition;
        m.error_code = r->error_code;
        m.platform = r->platform;
        m.severity = r->severity;
        out->matches[out->n_matches++] = m;
    }
    /* English text: a row that matches only the language-neutral form (a
     * row written for another language) counts when no row matches the
     * text as written; a localised text lets both compete. */
    bool as_written = false;
    for (size_t i = 0; i < out->n_matches; i++)
        as_written |= !out->matches[i].language_neutral;
    if (!f->language && as_written) {
        size_t kept = 0;
        for (size_t i = 0; i < out->n_matches; i++)
            if (!out->matches[i].language_neutral)
                out->matches[kept++] = out->matches[i];
        out->n_matches = kept;
    }
    qsort(out->matches, out->n_matches, sizeof *out->matches, by_rank);
    for (out->n_best = out->n_matches ? 1 : 0; out->n_best < out->n_matches; out->n_best++) {
        const struct td_explain_match *b = &out->matches[out->n_best];
        if (b->specificity != out->matches[0].specificity ||
            b->language_neutral != out->matches[0].language_neutral)
            break;
    }
    /* What the winning pattern captured completes what the extractors found. */
    if (out->n_matches) {
        const struct td_explain_match *m = &out->matches[0];
        const char *v;
        if (!f->symbol && (v = td_explain_capture(m, "symbol")))
            f->symbol = v;
        if (!f->version && (v = td_explain_capture(m, "version")))
            f->version = v;
        if (!f->error_code && m->error_code && strncmp(m->error_code, "WinError", 8) == 0 &&
            f->win32)
            f->error_code = m->error_code;
    }
    td_explain_load_error(out);
    return 0;
}

/* Whether X names the file of the load error it read, or read none and no
 * catalogue row matched either. */
static bool names_its_file(const struct td_explain *x)
{
    if (x->load.kind)
        return x->load.library || x->load.needed_by;
    return x->n_matches > 0;
}

int td_explain_text(const char *text, size_t len, struct td_explain *out, struct td_err *err)
{
    return td_explain_text_on(text, len, NULL, out, err);
}

int td_explain_text_on(const char *text, size_t len, const char *platform, struct td_explain *out,
                       struct td_err *err)
{
    if (explain_once(text, len, platform, out, err) != 0)
        return -1;
    if (names_its_file(out))
        return 0;
    /* An issue's title pasted in title case ("Could Not Find Module 'X.dll'
     * (Or One Of Its Dependencies)") hides the message's words from every
     * reading, whose raisers' formats are in sentence case: read the text
     * again in sentence case, and keep that reading when it names a file. */
    struct td_arena tmp = {0};
    const char *plain = text ? td_explain_sentence_case(text, len, &tmp) : NULL;
    struct td_explain again;
    if (plain && explain_once(plain, len, platform, &again, err) == 0) {
        if (again.load.kind && again.load.library) {
            td_explain_free(out);
            *out = again;
        } else {
            td_explain_free(&again);
        }
    }
    td_arena_free(&tmp);
    return 0;
}

void td_explain_free(struct td_explain *x)
{
    td_arena_free(&x->arena);
    memset(x, 0, sizeof *x);
}

size_t td_explain_eres(const char **out, size_t cap)
{
    struct td_err err = {0};
    size_t n = 0;
    if (load_catalogue(&err) != 0)
        return 0;
    for (size_t i = 0; i < g_cat.n; i++) {
        if (n < cap)
            out[n++] = g_cat.rows[i].as_written.ere;
        if (g_cat.rows[i].has_neutral && n < cap)
            out[n++] = g_cat.rows[i].neutral.ere;
    }
    n += td_explain_extractor_eres(out + n, cap - n);
    n += td_explain_raiser_eres(out + n, cap - n);
    n += td_explain_platform_eres(out + n, cap - n);
    n += td_explain_file_operation_eres(out + n, cap - n);
    return n + td_explain_dialog_eres(out + n, cap - n);
}
