/* PEP 440 versions and version specifiers (kb/pep508.h), matching the
 * `packaging` library's Version and Specifier (23.0): its spellings,
 * ordering, wildcard and compatible-release rules, string for string. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "kb/pep508.h"

enum { MAX_DIGITS = 18, SPLIT_ITEMS = 48, ITEM = 48 };

static bool is_sep(char c)
{
    return c == '-' || c == '_' || c == '.';
}

/* Digits at *P into *OUT; false when none or too many to hold. */
static bool number(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (!isdigit((unsigned char)*s))
        return false;
    while (*s == '0' && isdigit((unsigned char)s[1]))
        s++;
    uint64_t n = 0;
    size_t digits = 0;
    for (; isdigit((unsigned char)*s); s++, digits++)
        n = n * 10 + (uint64_t)(*s - '0');
    if (digits > MAX_DIGITS)
        return false;
    *p = s, *out = n;
    return true;
}

/* The first of WORDS (longest spellings first) that S starts with, any case. */
static int keyword(const char *s, const char *const *words, size_t *len)
{
    for (int i = 0; words[i]; i++) {
        size_t n = strlen(words[i]);
        if (strncasecmp(s, words[i], n) == 0) {
            *len = n;
            return i;
        }
    }
    return -1;
}

/* "[-_.]?WORD[-_.]?N?" at *P; the index of WORD, or -1 (P unchanged). */
static int labelled(const char **p, const char *const *words, uint64_t *n)
{
    const char *s = *p + is_sep(**p);
    size_t len;
    int k = keyword(s, words, &len);
    if (k < 0)
        return -1;
    s += len;
    s += is_sep(*s); /* a separator with no number after it is allowed: "1.0a-" */
    *n = 0;
    number(&s, n);
    *p = s;
    return k;
}

static bool parse_pre(const char **p, struct td_pep440 *v)
{
    static const char *const words[] = {"preview", "alpha", "beta", "pre", "rc",
                                        "a",       "b",     "c",    NULL};
    static const int kind[] = {2, 0, 1, 2, 2, 0, 1, 2};
    int k = labelled(p, words, &v->pre_n);
    if (k < 0)
        return true;
    v->pre = kind[k];
    return true;
}

static bool parse_post(const char **p, struct td_pep440 *v)
{
    static const char *const words[] = {"post", "rev", "r", NULL};
    const char *s = *p;
    if (*s == '-' && isdigit((unsigned char)s[1])) { /* "1.0-1" */
        s++;
        if (!number(&s, &v->post_n))
            return false;
        v->post = true, *p = s;
        return true;
    }
    v->post = labelled(p, words, &v->post_n) >= 0;
    return true;
}

static bool parse_local(const char **p, struct td_pep440 *v)
{
    const char *s = *p;
    if (*s != '+')
        return true;
    size_t n = 0;
    for (s++;; s++) {
        if (!isalnum((unsigned char)*s))
            return false; /* an empty part: "+", "+a..b", "+a." */
        while (isalnum((unsigned char)*s) && n + 1 < sizeof v->local)
            v->local[n++] = (char)tolower((unsigned char)*s++);
        if (isalnum((unsigned char)*s))
            return false; /* does not fit */
        if (!is_sep(*s))
            break;
        v->local[n++] = '.';
    }
    v->local[n] = '\0';
    *p = s;
    return true;
}

/* The version grammar without the surrounding whitespace, from *P; *P is
 * left after what was read. */
static bool parse_at(const char **p, struct td_pep440 *v)
{
    static const char *const dev[] = {"dev", NULL};
    const char *s = *p;
    memset(v, 0, sizeof *v);
    v->pre = -1;
    if (*s == 'v' || *s == 'V')
        s++;
    uint64_t first;
    if (!number(&s, &first))
        return false;
    if (*s == '!') {
        v->epoch = first, s++;
        if (!number(&s, &first))
            return false;
    }
    v->release[v->n_release++] = first;
    while (*s == '.' && isdigit((unsigned char)s[1])) {
        s++;
        if (v->n_release == TD_PEP440_MAX_RELEASE || !number(&s, &v->release[v->n_release++]))
            return false;
    }
    if (!parse_pre(&s, v) || !parse_post(&s, v))
        return false;
    v->dev = labelled(&s, dev, &v->dev_n) >= 0;
    if (!parse_local(&s, v))
        return false;
    *p = s;
    return true;
}

bool td_pep440_parse(const char *s, struct td_pep440 *v)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!parse_at(&s, v))
        return false;
    while (isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? -1 : a > b;
}

/* Local labels: numeric parts above alphanumeric ones, numbers by value,
 * labels by text; a longer label that starts with a shorter one is newer. */
static int cmp_local(const char *a, const char *b)
{
    if (!*a || !*b)
        return (*a != '\0') - (*b != '\0');
    while (*a && *b) {
        size_t la = strcspn(a, "."), lb = strcspn(b, ".");
        bool na = strspn(a, "0123456789") == la, nb = strspn(b, "0123456789") == lb;
        int c;
        if (na && nb) {
            const char *x = a, *y = b;
            uint64_t u = 0, w = 0;
            number(&x, &u), number(&y, &w);
            c = cmp_u64(u, w);
        } else if (na != nb) {
            c = na ? 1 : -1;
        } else {
            c = strncmp(a, b, la < lb ? la : lb);
            if (!c)
                c = cmp_u64(la, lb);
        }
        if (c)
            return c;
        a += la + (a[la] == '.'), b += lb + (b[lb] == '.');
    }
    return (*a != '\0') - (*b != '\0');
}

/* packaging's sort key, field by field: a dev release with neither pre nor
 * post sorts before every pre-release of its release. */
int td_pep440_cmp(const struct td_pep440 *a, const struct td_pep440 *b)
{
    int c = cmp_u64(a->epoch, b->epoch);
    size_t n = a->n_release > b->n_release ? a->n_release : b->n_release;
    for (size_t i = 0; !c && i < n; i++)
        c = cmp_u64(i < a->n_release ? a->release[i] : 0, i < b->n_release ? b->release[i] : 0);
    if (c)
        return c;
    /* pre: -2 for "dev only", 3 for "no pre", else the kind. */
    int pa = a->pre >= 0 ? a->pre : (!a->post && a->dev ? -2 : 3);
    int pb = b->pre >= 0 ? b->pre : (!b->post && b->dev ? -2 : 3);
    if ((c = (pa > pb) - (pa < pb)))
        return c;
    if (a->pre >= 0 && (c = cmp_u64(a->pre_n, b->pre_n)))
        return c;
    if ((c = (int)a->post - (int)b->post) || (a->post && (c = cmp_u64(a->post_n, b->post_n))))
        return c;
    if ((c = (int)b->dev - (int)a->dev) || (a->dev && (c = cmp_u64(a->dev_n, b->dev_n))))
        return c;
    return cmp_local(a->local, b->local);
}

/* The normalised form; STRIP drops trailing ".0" release parts and LOCAL
 * keeps the local label (packaging's canonicalize_version and str()). */
static const char *format(const struct td_pep440 *v, bool strip, bool local, char *out, size_t cap)
{
    static const char *const pre[] = {"a", "b", "rc"};
    size_t n = v->n_release, at = 0;
    while (strip && n > 1 && v->release[n - 1] == 0)
        n--;
    out[0] = '\0';
#define PUT(...) (at += (size_t)snprintf(out + at, at < cap ? cap - at : 0, __VA_ARGS__))
    if (v->epoch)
        PUT("%llu!", (unsigned long long)v->epoch);
    for (size_t i = 0; i < n; i++)
        PUT("%s%llu", i ? "." : "", (unsigned long long)v->release[i]);
    if (v->pre >= 0)
        PUT("%s%llu", pre[v->pre], (unsigned long long)v->pre_n);
    if (v->post)
        PUT(".post%llu", (unsigned long long)v->post_n);
    if (v->dev)
        PUT(".dev%llu", (unsigned long long)v->dev_n);
    for (const char *l = v->local; local && *l;) { /* numeric parts lose leading zeros */
        size_t len = strcspn(l, ".");
        const char *x = l;
        uint64_t u;
        if (strspn(l, "0123456789") == len && number(&x, &u))
            PUT("%c%llu", l == v->local ? '+' : '.', (unsigned long long)u);
        else
            PUT("%c%.*s", l == v->local ? '+' : '.', (int)len, l);
        l += len + (l[len] == '.');
    }
#undef PUT
    if (at >= cap && cap)
        out[cap - 1] = '\0';
    return out;
}

const char *td_pep440_str(const struct td_pep440 *v, char *out, size_t cap)
{
    return format(v, false, true, out, cap);
}

/* packaging's _version_split: on '.', and "0rc1" as "0", "rc1". */
static size_t version_split(const char *s, char items[][ITEM], size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        size_t len = strcspn(s, ".");
        size_t d = strspn(s, "0123456789");
        const char *rest = s + d;
        size_t kw = !strncmp(rest, "rc", 2) ? 2 : (*rest == 'a' || *rest == 'b' || *rest == 'c');
        size_t tail = d < len && kw ? strspn(rest + kw, "0123456789") : 0;
        bool two = d && kw && tail && d + kw + tail == len;
        if (two && n + 1 < cap) {
            snprintf(items[n++], ITEM, "%.*s", (int)d, s);
            snprintf(items[n++], ITEM, "%.*s", (int)(len - d), rest);
        } else {
            snprintf(items[n++], ITEM, "%.*s", (int)len, s);
        }
        if (!s[len])
            break;
        s += len + 1;
    }
    return n;
}

static bool all_digits(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* packaging's canonicalize_version: the normalised form, or S itself when
 * it is not a version. */
static void canonical(const char *s, bool strip, char *out, size_t cap)
{
    struct td_pep440 v;
    if (td_pep440_parse(s, &v))
        format(&v, strip, true, out, cap);
    else
        snprintf(out, cap, "%s", s);
}

/* "==PREFIX.*": the prospective version's public part, its leading release
 * items zero-padded to the prefix's, starts with the prefix's items. */
static bool prefix_match(const struct td_pep440 *have, const char *prefix)
{
    char p[256], s[256];
    struct td_pep440 pub = *have;
    pub.local[0] = '\0';
    format(&pub, true, false, p, sizeof p);
    canonical(prefix, false, s, sizeof s);
    char pi[SPLIT_ITEMS][ITEM], si[SPLIT_ITEMS][ITEM];
    size_t np = version_split(p, pi, SPLIT_ITEMS), ns = version_split(s, si, SPLIT_ITEMS);
    size_t rp = 0, rs = 0;
    while (rp < np && all_digits(pi[rp]))
        rp++;
    while (rs < ns && all_digits(si[rs]))
        rs++;
    size_t pad = rs > rp ? rs - rp : 0;
    if (np + pad < ns)
        return false;
    for (size_t i = 0; i < ns; i++) {
        const char *item = i < rp ? pi[i] : i < rp + pad ? "0" : pi[i - pad];
        if (strcmp(item, si[i]) != 0)
            return false;
    }
    return true;
}

/* "~=V": everything up to its first suffix item, less the last item. */
static void compatible_prefix(const char *spec, char *out, size_t cap)
{
    static const char *const suffixes[] = {"dev", "a", "b", "rc", "post"};
    char items[SPLIT_ITEMS][ITEM];
    size_t n = version_split(spec, items, SPLIT_ITEMS), keep = 0;
    for (; keep < n; keep++) {
        bool suffix = false;
        for (size_t k = 0; k < 5; k++)
            suffix |= strncmp(items[keep], suffixes[k], strlen(suffixes[k])) == 0;
        if (suffix)
            break;
    }
    size_t at = 0;
    out[0] = '\0';
    for (size_t i = 0; i + 1 < keep && at < cap; i++)
        at += (size_t)snprintf(out + at, cap - at, "%s%s", i ? "." : "", items[i]);
}

static bool is_prerelease(const struct td_pep440 *v)
{
    return v->pre >= 0 || v->dev;
}

static bool same_base(const struct td_pep440 *a, const struct td_pep440 *b)
{
    struct td_pep440 x = {.epoch = a->epoch, .n_release = a->n_release, .pre = -1};
    struct td_pep440 y = {.epoch = b->epoch, .n_release = b->n_release, .pre = -1};
    memcpy(x.release, a->release, sizeof x.release);
    memcpy(y.release, b->release, sizeof y.release);
    return td_pep440_cmp(&x, &y) == 0;
}

static int cmp_public(const struct td_pep440 *have, const struct td_pep440 *want)
{
    struct td_pep440 pub = *have;
    pub.local[0] = '\0';
    return td_pep440_cmp(&pub, want);
}

enum op { OP_COMPAT, OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT, OP_ARBITRARY };

/* The operator at the start of S and its length; -1 when none. */
static int spec_op(const char *s, size_t *len)
{
    static const char *const ops[] = {"~=", "==", "!=", "<=", ">=", "<", ">"};
    if (!strncmp(s, "===", 3)) {
        *len = 3;
        return OP_ARBITRARY;
    }
    for (int i = 0; i < 7; i++)
        if (!strncmp(s, ops[i], strlen(ops[i]))) {
            *len = strlen(ops[i]);
            return i;
        }
    return -1;
}

/* Whether TEXT is "v?[N!]N(.N)*.*", the only form a wildcard may take. */
static bool wildcard_prefix(const char *text, size_t len)
{
    char buf[256];
    if (len >= sizeof buf)
        return false;
    memcpy(buf, text, len);
    buf[len] = '\0';
    struct td_pep440 v;
    const char *p = buf;
    return parse_at(&p, &v) && *p == '\0' && v.pre < 0 && !v.post && !v.dev && !v.local[0];
}

/* One specifier against HAVE: 1, 0, or -1 when the specifier is invalid. */
static int one_spec(const char *spec, const struct td_pep440 *have)
{
    size_t len;
    int op = spec_op(spec, &len);
    if (op < 0)
        return -1;
    const char *text = spec + len;
    while (*text == ' ' || *text == '\t')
        text++;
    size_t tl = strlen(text);
    if (op == OP_ARBITRARY) {
        char s[256];
        if (strpbrk(text, " \t;)"))
            return -1;
        return strcasecmp(td_pep440_str(have, s, sizeof s), text) == 0;
    }
    bool wild = (op == OP_EQ || op == OP_NE) && tl >= 2 && !strcmp(text + tl - 2, ".*");
    if (wild) {
        if (!wildcard_prefix(text, tl - 2))
            return -1;
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%.*s", (int)(tl - 2), text);
        return prefix_match(have, prefix) == (op == OP_EQ);
    }
    struct td_pep440 want;
    const char *p = text;
    if (!parse_at(&p, &want) || *p)
        return -1;
    if (op != OP_EQ && op != OP_NE && want.local[0])
        return -1;
    int c = want.local[0] ? td_pep440_cmp(have, &want) : cmp_public(have, &want);
    switch (op) {
    case OP_EQ:
        return c == 0;
    case OP_NE:
        return c != 0;
    case OP_LE:
        return c <= 0;
    case OP_GE:
        return c >= 0;
    case OP_COMPAT: {
        if (want.n_release < 2)
            return -1;
        char prefix[256];
        compatible_prefix(text, prefix, sizeof prefix);
        return c >= 0 && prefix_match(have, prefix);
    }
    case OP_LT:
        if (td_pep440_cmp(have, &want) >= 0)
            return 0;
        return !(!is_prerelease(&want) && is_prerelease(have) && same_base(have, &want));
    default: /* OP_GT */
        if (td_pep440_cmp(have, &want) <= 0)
            return 0;
        if (!want.post && have->post && same_base(have, &want))
            return 0;
        return !(have->local[0] && same_base(have, &want));
    }
}

int td_pep440_contains(const char *specs, const char *version)
{
    struct td_pep440 have;
    if (!td_pep440_parse(version, &have))
        return -1;
    int result = 1;
    for (const char *s = specs; s && *s;) {
        size_t len = strcspn(s, ",");
        char one[256];
        const char *b = s, *e = s + len;
        while (b < e && isspace((unsigned char)*b))
            b++;
        while (e > b && isspace((unsigned char)e[-1]))
            e--;
        if ((size_t)(e - b) >= sizeof one)
            return -1;
        if (e > b) {
            memcpy(one, b, (size_t)(e - b));
            one[e - b] = '\0';
            int r = one_spec(one, &have);
            if (r < 0)
                return -1;
            result &= r;
        }
        s += len + (s[len] == ',');
    }
    return result;
}

const char *td_pep503_normalize(const char *name, size_t len, char *out, size_t cap)
{
    size_t at = 0;
    for (size_t i = 0; i < len && at + 1 < cap; i++) {
        if (is_sep(name[i])) {
            while (i + 1 < len && is_sep(name[i + 1]))
                i++;
            out[at++] = '-';
        } else {
            out[at++] = (char)tolower((unsigned char)name[i]);
        }
    }
    if (cap)
        out[at] = '\0';
    return out;
}
