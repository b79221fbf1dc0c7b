/* The texts of which every match of an ERE holds at least one: a set of
 * literal strings found through groups and alternatives ("[Cc]onnection
 * refused|TCPStore|..." gives each alternative's text, "\.(dll|pyd)" gives
 * ".dll" and ".pyd"), so that a strstr rules a pattern out before glibc's
 * regexec, which tries every start position of a line, costs time in the
 * square of a long line's length (docs/explain.md "Long texts"). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kb/explain/errors_internal.h"

enum { SET_MAX = TD_ERE_NEEDLES_MAX, STR_CAP = TD_ERE_NEEDLE_CAP };

/* What a part of a pattern requires: N strings, one of which every match of
 * the part holds (N < 0: nothing known); EXACT when each string is a whole
 * match of the part and the part matches nothing else. */
struct set {
    int n;
    bool exact;
    unsigned char len[SET_MAX]; /* strlen of each */
    char s[SET_MAX][STR_CAP];
};

static void set_none(struct set *x)
{
    x->n = -1;
    x->exact = false;
}

static void set_empty_string(struct set *x)
{
    x->n = 1;
    x->exact = true;
    x->s[0][0] = '\0';
    x->len[0] = 0;
}

/* X into TO: its strings only, not the whole array. */
static void copy(struct set *to, const struct set *x)
{
    to->n = x->n;
    to->exact = x->exact;
    for (int i = 0; i < x->n; i++)
        memcpy(to->s[i], x->s[i], (size_t)(to->len[i] = x->len[i]) + 1);
}

/* The shortest string of X: how well X rules a text out. */
static size_t score(const struct set *x)
{
    if (x->n <= 0)
        return 0;
    size_t low = (size_t)-1;
    for (int i = 0; i < x->n; i++) {
        size_t len = x->len[i];
        low = len < low ? len : low;
    }
    return low;
}

/* Keeps X in BEST when it rules out more (longer shortest string, then
 * fewer strings). */
static void consider(struct set *best, const struct set *x)
{
    size_t sx = score(x), sb = score(best);
    if (sx == 0)
        return;
    if (sx > sb || (sx == sb && x->n < best->n)) {
        copy(best, x);
        best->exact = false;
    }
}

/* Keeps X in SMALL when it has fewer strings (then a longer shortest one):
 * what an alternative offers when the union of the best is too big. */
static void consider_small(struct set *small, const struct set *x)
{
    size_t sx = score(x);
    if (sx == 0)
        return;
    if (small->n <= 0 || x->n < small->n || (x->n == small->n && sx > score(small))) {
        copy(small, x);
        small->exact = false;
    }
}

/* X followed by Y, both exact, into X; false when the product is too big. */
static bool concat(struct set *x, const struct set *y)
{
    if (x->n * y->n > SET_MAX)
        return false;
    if (y->n == 1) { /* one string after each: in place (most atoms are a character) */
        size_t b = y->len[0];
        for (int i = 0; i < x->n; i++)
            if (x->len[i] + b >= STR_CAP)
                return false;
        for (int i = 0; i < x->n; i++) {
            memcpy(x->s[i] + x->len[i], y->s[0], b + 1);
            x->len[i] = (unsigned char)(x->len[i] + b);
        }
        return true;
    }
    struct set r;
    r.n = 0;
    r.exact = true;
    for (int i = 0; i < x->n; i++)
        for (int j = 0; j < y->n; j++) {
            size_t a = x->len[i], b = y->len[j];
            if (a + b >= STR_CAP)
                return false;
            memcpy(r.s[r.n], x->s[i], a);
            memcpy(r.s[r.n] + a, y->s[j], b + 1);
            r.len[r.n] = (unsigned char)(a + b);
            r.n++;
        }
    copy(x, &r);
    return true;
}

/* What a part requires: BEST rules out the most texts (exact when the part
 * is a plain choice of strings), SMALL has the fewest strings, every match
 * starts with one of LEAD's ("so(\\.[0-9]+)*": "so"). */
struct need {
    struct set best, small, lead;
};

static void parse_alt(const char *re, size_t *i, struct need *out);

/* The end of the bracket expression that starts at RE[I] ("["), and
 * whether it is a plain list of a few ASCII characters (into CHARS). */
static size_t bracket_end(const char *re, size_t i, char *chars, size_t *n_chars, bool *plain)
{
    size_t j = i + 1;
    *plain = re[j] != '^';
    *n_chars = 0;
    if (re[j] == '^')
        j++;
    if (re[j] == ']') { /* first in the list: one of its characters */
        if (*n_chars < 4)
            chars[(*n_chars)++] = ']';
        j++;
    }
    for (; re[j] && re[j] != ']'; j++) {
        if (re[j] == '[' && (re[j + 1] == ':' || re[j + 1] == '.' || re[j + 1] == '=')) {
            const char *end = strchr(re + j + 2, re[j + 1]);
            while (end && end[1] != ']')
                end = strchr(end + 1, re[j + 1]);
            if (!end)
                return strlen(re);
            j = (size_t)(end + 1 - re);
            *plain = false;
            continue;
        }
        if (re[j] == '-' || (unsigned char)re[j] >= 0x80 || *n_chars == 4)
            *plain = false;
        else
            chars[(*n_chars)++] = re[j];
    }
    return re[j] ? j + 1 : j;
}

/* One atom at RE[*I] into OUT (exact, or nothing known). */
static void parse_atom(const char *re, size_t *i, struct need *need)
{
    unsigned char c = (unsigned char)re[*i];
    struct set *out = &need->best;
    set_none(out);
    set_none(&need->small);
    set_none(&need->lead);
    if (c == '(') {
        (*i)++;
        parse_alt(re, i, need);
        if (re[*i] == ')')
            (*i)++;
        return;
    }
    if (c == '[') {
        char chars[4];
        size_t n;
        bool plain;
        *i = bracket_end(re, *i, chars, &n, &plain);
        if (plain && n > 0) {
            out->n = (int)n;
            out->exact = true;
            for (size_t k = 0; k < n; k++)
                out->s[k][0] = chars[k], out->s[k][1] = '\0', out->len[k] = 1;
        }
    } else if (c == '\\') {
        unsigned char e = (unsigned char)re[*i + 1];
        *i += e ? 2 : 1;
        /* "\w", "\1", "\b" and the like: nothing known */
        if (e && e < 0x80 &&
            !((e >= '0' && e <= '9') || (e >= 'A' && e <= 'Z') || (e >= 'a' && e <= 'z'))) {
            out->n = 1, out->exact = true;
            out->s[0][0] = (char)e, out->s[0][1] = '\0', out->len[0] = 1;
        }
    } else if (strchr(".^$*+?{", c)) {
        (*i)++;
    } else {
        /* a literal character, a UTF-8 sequence whole (a repetition after
         * it repeats the character in a UTF-8 locale) */
        size_t len = 1;
        if (c >= 0xC0)
            while (len < 4 && ((unsigned char)re[*i + len] & 0xC0) == 0x80)
                len++;
        out->n = 1, out->exact = true;
        memcpy(out->s[0], re + *i, len);
        out->s[0][len] = '\0';
        out->len[0] = (unsigned char)len;
        *i += len;
    }
    consider_small(&need->small, out);
    copy(&need->lead, out);
}

/* A concatenation, up to "|", ")" or the end, into OUT. */
static void parse_seq(const char *re, size_t *i, struct need *out)
{
    struct set best, small, chain, run, joined;
    struct need atom;
    set_none(&best);
    set_none(&small);
    set_none(&out->lead);
    set_empty_string(&chain);
    set_empty_string(&run); /* the literal characters since the last other atom */
    bool whole = true;      /* every atom so far exact, once */
    while (re[*i] && re[*i] != '|' && re[*i] != ')') {
        parse_atom(re, i, &atom);
        char q = re[*i];
        long low = 1;
        bool once = true;
        if (q == '?' || q == '*' || q == '+') {
            low = q == '+';
            once = false;
            (*i)++;
        } else if (q == '{') {
            const char *end = strchr(re + *i, '}');
            low = strtol(re + *i + 1, NULL, 10);
            once = false;
            *i = end ? (size_t)(end + 1 - re) : strlen(re);
        }
        while (re[*i] == '?' || re[*i] == '*' || re[*i] == '+') { /* "a+?" and the like */
            low = 0;
            (*i)++;
        }
        if (once && atom.best.exact && atom.best.n == 1 && concat(&run, &atom.best)) {
            /* run grows with chain below */
        } else {
            consider(&best, &run);
            consider_small(&small, &run);
            set_empty_string(&run);
        }
        if (low >= 1) {
            consider(&best, &atom.best);
            consider_small(&small, &atom.small);
        }
        if (once && atom.best.exact) {
            if (!concat(&chain, &atom.best)) {
                consider(&best, &chain);
                consider_small(&small, &chain);
                copy(&chain, &atom.best);
                whole = false;
            }
            continue;
        }
        if (whole) {
            /* the first atom that is not one plain string: the match starts
             * with the chain, and with the atom's lead when it is there */
            copy(&out->lead, &chain);
            if (low >= 1 && atom.lead.n > 0 && !concat(&out->lead, &atom.lead))
                copy(&out->lead, &chain);
        }
        whole = false;
        consider(&best, &chain);
        consider_small(&small, &chain);
        if (low >= 1 && !atom.best.exact && atom.lead.n > 0) {
            copy(&joined, &chain); /* ".so(\\.[0-9]+)*": ".so" */
            if (concat(&joined, &atom.lead))
                consider(&best, &joined);
        }
        if (low >= 1 && atom.best.exact) {
            /* one copy at least: the chain runs into the first and out of
             * the last */
            copy(&joined, &chain);
            if (concat(&joined, &atom.best))
                consider(&best, &joined);
            copy(&chain, &atom.best);
            continue;
        }
        set_empty_string(&chain);
    }
    consider(&best, &run);
    consider_small(&small, &run);
    consider_small(&small, &chain);
    if (whole) {
        copy(&out->best, &chain);
        copy(&out->lead, &chain);
    } else {
        consider(&best, &chain);
        copy(&out->best, &best);
    }
    copy(&out->small, &small);
}

/* The union of A and B into A; none when either is none or it is too big. */
static void unite(struct set *a, const struct set *b)
{
    if (a->n < 0 || b->n < 0 || a->n + b->n > SET_MAX) {
        set_none(a);
        return;
    }
    for (int k = 0; k < b->n; k++) {
        memcpy(a->s[a->n], b->s[k], (size_t)b->len[k] + 1);
        a->len[a->n++] = b->len[k];
    }
    a->exact = a->exact && b->exact;
}

/* Alternatives, up to ")" or the end, into OUT: the union of what each
 * requires, nothing when one requires nothing; the union of the smallest
 * sets when that of the best is too big. */
static void parse_alt(const char *re, size_t *i, struct need *out)
{
    parse_seq(re, i, out);
    while (re[*i] == '|') {
        (*i)++;
        struct need next;
        parse_seq(re, i, &next);
        unite(&out->best, &next.best);
        unite(&out->small, &next.small);
        unite(&out->lead, &next.lead);
        if (out->best.n < 0 && out->small.n > 0)
            copy(&out->best, &out->small);
    }
}

/* Whether no match of RE (compiled with REG_NEWLINE) holds a newline: RE
 * has none outside a "[^...]" list (which, like ".", never matches one
 * there), no [:space:] or [:cntrl:] class outside one, no GNU \s or \W. */
static bool one_line(const char *re)
{
    for (size_t i = 0; re[i]; i++) {
        if (re[i] == '\\') {
            if (re[i + 1] == 's' || re[i + 1] == 'W' || re[i + 1] == '\n')
                return false;
            if (re[i + 1])
                i++;
            continue;
        }
        if (re[i] == '\n')
            return false;
        if (re[i] != '[')
            continue;
        char chars[4];
        size_t n, end = bracket_end(re, i, chars, &n, &(bool){false});
        bool negated = re[i + 1] == '^';
        for (size_t k = i + 1; !negated && k < end; k++)
            if (re[k] == '\n' || !strncmp(re + k, "[:space:]", 9) ||
                !strncmp(re + k, "[:cntrl:]", 9))
                return false;
        i = end - 1;
    }
    return true;
}

size_t td_ere_needles(const char *re, struct td_ere_needles *out)
{
    struct need need;
    size_t i = 0;
    out->n = 0;
    out->one_line = false;
    parse_alt(re, &i, &need);
    const struct set *x = need.best.n > 0 && score(&need.best) ? &need.best : &need.small;
    if (re[i] || x->n <= 0 || score(x) == 0)
        return 0; /* an unbalanced ")": nothing assumed */
    for (int k = 0; k < x->n; k++)
        memcpy(out->s[k], x->s[k], strlen(x->s[k]) + 1);
    out->n = (size_t)x->n;
    out->one_line = one_line(re);
    return out->n;
}

const char *td_ere_find(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = text; *p; p++)
        if (*p == *needle && strncmp(p, needle, n) == 0)
            return p;
    return NULL;
}

const char *td_ere_find_nocase(const char *text, const char *needle)
{
    size_t n = strlen(needle);
    for (const char *p = text; *p; p++)
        if (strncasecmp(p, needle, n) == 0)
            return p;
    return NULL;
}

bool td_ere_holds_nocase(const char *text, const char *needle)
{
    return td_ere_find_nocase(text, needle) != NULL;
}

bool td_ere_needles_in(const struct td_ere_needles *n, const char *text, bool nocase)
{
    if (!n->n)
        return true;
    for (size_t k = 0; k < n->n; k++)
        if (nocase ? td_ere_holds_nocase(text, n->s[k]) : strstr(text, n->s[k]) != NULL)
            return true;
    return false;
}

/* The first place in TEXT of any of N's texts; NULL when none is there. */
static const char *first_needle(const struct td_ere_needles *n, const char *text)
{
    const char *first = NULL;
    for (size_t k = 0; k < n->n; k++) {
        const char *at = strstr(text, n->s[k]);
        if (at && (!first || at < first))
            first = at;
    }
    return first;
}

const char *td_ere_needles_from(const struct td_ere_needles *n, const char *text)
{
    if (!n->n)
        return text;
    const char *first = first_needle(n, text);
    if (!first || !n->one_line)
        return first ? text : NULL;
    while (first > text && first[-1] != '\n')
        first--;
    return first;
}

/* Where a match that may span lines is looked for in the text from FROM
 * (FIRST: the first of its needles): from the start of FIRST's line, taken
 * back over whole lines before it while they hold at most TD_ERE_BACK bytes
 * together, or, where the line before is longer than that, to its last
 * token (after its last blank) if that token fits; EFLAGS gets REG_NOTBOL
 * for a start inside a line. A match is thus looked for from a bounded
 * number of characters before its needle's line, so a long line before it
 * is not tried at every position: a wrapped message ("libx.so:" then
 * "undefined symbol: f" on the next line) starts inside that window. */
static const char *window_start(const char *from, const char *first, int *eflags)
{
    const char *line = first;
    while (line > from && line[-1] != '\n')
        line--;
    const char *w = line;
    while (w > from) {
        const char *prev = w - 1; /* the newline that ends the line before */
        while (prev > from && prev[-1] != '\n')
            prev--;
        if ((size_t)(line - prev) <= TD_ERE_BACK) {
            w = prev;
            continue;
        }
        const char *token = w - 1;
        while (token > prev && token[-1] != ' ' && token[-1] != '\t')
            token--;
        if (token > prev && (size_t)(line - token) <= TD_ERE_BACK) {
            w = token;
            *eflags |= REG_NOTBOL;
        }
        break;
    }
    return w;
}

/* M's offsets moved by BY. */
static void shift(regmatch_t *m, size_t nmatch, size_t by)
{
    for (size_t i = 0; i < nmatch; i++)
        if (m[i].rm_so >= 0)
            m[i].rm_so += (regoff_t)by, m[i].rm_eo += (regoff_t)by;
}

/* A copy of a part of the text, ended by a NUL, for regexec to see alone. */
struct line_buf {
    char small[4096], *p;
    size_t cap;
};

/* regexec of RE over the LEN bytes at START alone, with EFLAGS; M's offsets
 * from TEXT. Without memory for the copy, the text whole from START. */
static int exec_range(const regex_t *re, const char *text, const char *start, size_t len,
                      int eflags, size_t nmatch, regmatch_t *m, struct line_buf *b)
{
    if (len + 1 > b->cap) {
        char *bigger = malloc(len + 1);
        if (!bigger) {
            int rc = regexec(re, start, nmatch, m, eflags & REG_NOTBOL);
            if (rc == 0)
                shift(m, nmatch, (size_t)(start - text));
            return rc;
        }
        if (b->p != b->small)
            free(b->p);
        b->p = bigger, b->cap = len + 1;
    }
    memcpy(b->p, start, len);
    b->p[len] = '\0';
    int rc = regexec(re, b->p, nmatch, m, eflags);
    if (rc == 0)
        shift(m, nmatch, (size_t)(start - text));
    return rc;
}

/* A line longer than this is tried in windows around its needles. */
enum { LONG_LINE = 4 * TD_ERE_BACK };

/* The first place at or after AT, before END, of one of N's texts (NEXT[k]:
 * text k's next place in the whole text, kept moving forward); NULL when
 * none. */
static const char *next_needle(const struct td_ere_needles *n, const char **next, const char *at,
                               const char *end)
{
    const char *soonest = NULL;
    for (size_t k = 0; k < n->n; k++) {
        if (next[k] && next[k] < at)
            next[k] = strstr(at, n->s[k]);
        if (next[k] && next[k] < end && (!soonest || next[k] < soonest))
            soonest = next[k];
    }
    return soonest;
}

/* regexec over a line of LEN bytes at START longer than LONG_LINE: each
 * window from TD_ERE_BACK bytes before a needle to TD_ERE_BACK after it is
 * tried alone, the next window at a needle at least half a window further.
 * glibc's regexec tries every start of what it is given, and a pattern
 * opening with a class ("([^ \t\n]+): version") runs from each start to the
 * needle: over a whole line of 150,000 blank-free bytes that was minutes.
 * A match reaching further than TD_ERE_BACK from its needle is cut there. */
static int exec_long_line(const regex_t *re, const struct td_ere_needles *n, const char **next,
                          const char *text, const char *start, size_t len, size_t nmatch,
                          regmatch_t *m, struct line_buf *b)
{
    const char *end = start + len;
    for (const char *at = next_needle(n, next, start, end); at;
         at = next_needle(n, next, at + TD_ERE_BACK / 2, end)) {
        const char *w0 = at - start > TD_ERE_BACK ? at - TD_ERE_BACK : start;
        const char *w1 = end - at > 2 * TD_ERE_BACK ? at + 2 * TD_ERE_BACK : end;
        int eflags = (w0 > start ? REG_NOTBOL : 0) | (w1 < end ? REG_NOTEOL : 0);
        int rc = exec_range(re, text, w0, (size_t)(w1 - w0), eflags, nmatch, m, b);
        if (rc != REG_NOMATCH || at + TD_ERE_BACK / 2 >= end)
            return rc;
    }
    return REG_NOMATCH;
}

/* regexec of a pattern whose match may span lines, over a text that goes
 * on for more than LONG_LINE bytes from FIRST (its first needle): each
 * needle's place is tried in a window of its own, from window_start's
 * start (at most TD_ERE_BACK bytes back when that start is further) to
 * 2 * TD_ERE_BACK bytes after it, the next window at a needle at least
 * half a window on. Given the whole rest, glibc's regexec tried every
 * start to the text's end, and a class opening the pattern ran from each
 * start to the end of a long token: a 240 KB "undefined symbol: _ZN1a1a..."
 * took minutes. A match reaching further than 2 * TD_ERE_BACK past its
 * needle is cut there, as on a long line. */
static int exec_spanning(const regex_t *re, const struct td_ere_needles *n, const char *text,
                         const char *first, size_t nmatch, regmatch_t *m)
{
    const char *end = first + strlen(first);
    const char *next[TD_ERE_NEEDLES_MAX];
    for (size_t k = 0; k < n->n; k++)
        next[k] = strstr(first, n->s[k]);
    struct line_buf b = {.p = b.small, .cap = sizeof b.small};
    int rc = REG_NOMATCH;
    for (const char *at = first; rc == REG_NOMATCH && at;
         at = at + TD_ERE_BACK / 2 < end ? next_needle(n, next, at + TD_ERE_BACK / 2, end) : NULL) {
        int eflags = 0;
        const char *w0 = window_start(text, at, &eflags);
        if (at - w0 > 2 * TD_ERE_BACK)
            w0 = at - TD_ERE_BACK, eflags |= REG_NOTBOL;
        const char *w1 = end - at > 2 * TD_ERE_BACK ? at + 2 * TD_ERE_BACK : end;
        rc = exec_range(re, text, w0, (size_t)(w1 - w0), eflags | (w1 < end ? REG_NOTEOL : 0),
                        nmatch, m, &b);
    }
    if (b.p != b.small)
        free(b.p);
    return rc;
}

int td_ere_needles_exec(const regex_t *re, const struct td_ere_needles *n, const char *text,
                        size_t nmatch, regmatch_t *m)
{
    const char *first = n->n ? first_needle(n, text) : text;
    if (!first)
        return REG_NOMATCH;
    if (n->n && !n->one_line && strnlen(first, LONG_LINE + 1) > LONG_LINE)
        return exec_spanning(re, n, text, first, nmatch, m);
    if (!n->n || !n->one_line) {
        int eflags = 0;
        const char *from = n->n ? window_start(text, first, &eflags) : text;
        int rc = regexec(re, from, nmatch, m, eflags);
        if (rc == 0)
            shift(m, nmatch, (size_t)(from - text));
        return rc;
    }
    const char *from = first;
    while (from > text && from[-1] != '\n')
        from--;
    /* each needle's next place at or after the line tried, found once */
    const char *next[TD_ERE_NEEDLES_MAX];
    for (size_t k = 0; k < n->n; k++)
        next[k] = strstr(from, n->s[k]);
    struct line_buf b = {.p = b.small, .cap = sizeof b.small};
    int rc = REG_NOMATCH;
    for (const char *start = from; rc == REG_NOMATCH && start;) {
        const char *end = strchr(start, '\n');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        rc = len > LONG_LINE ? exec_long_line(re, n, next, text, start, len, nmatch, m, &b)
                             : exec_range(re, text, start, len, 0, nmatch, m, &b);
        if (rc != REG_NOMATCH)
            break;
        /* the next line that holds a needle */
        const char *after = end ? end + 1 : NULL, *soonest = NULL;
        for (size_t k = 0; after && k < n->n; k++) {
            if (next[k] && next[k] < after)
                next[k] = strstr(after, n->s[k]);
            if (next[k] && (!soonest || next[k] < soonest))
                soonest = next[k];
        }
        while (soonest && soonest > after && soonest[-1] != '\n')
            soonest--;
        start = soonest;
    }
    if (b.p != b.small)
        free(b.p);
    return rc;
}

const regex_t *td_lazy_re(struct td_lazy_re *l, const char *pattern, int flags)
{
    if (!l->tried) {
        l->tried = true;
        l->ok = pattern && regcomp(&l->re, pattern, flags) == 0;
    }
    return l->ok ? &l->re : NULL;
}
