/* The three files that decide how glibc resolves a host name (resolve.h):
 * resolv.conf(5), nsswitch.conf(5)'s hosts line and hosts(5). Pure parsers
 * over text that may be anything; never a read past LEN. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe/distributed/resolve.h"

/* The next whitespace-separated word of [*P, END), or false at the end. */
static bool next_word(const char **p, const char *end, const char **word, size_t *n)
{
    const char *s = *p;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
        s++;
    const char *w = s;
    while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
        s++;
    *p = s;
    *word = w;
    *n = (size_t)(s - w);
    return *n > 0;
}

/* The line at *P (without its newline) as [*LINE, *LINE_END); *P moves on. */
static bool next_line(const char **p, const char *end, const char **line, const char **line_end)
{
    if (*p >= end)
        return false;
    const char *nl = memchr(*p, '\n', (size_t)(end - *p));
    *line = *p;
    *line_end = nl ? nl : end;
    *p = nl ? nl + 1 : end;
    return true;
}

static bool word_is(const char *w, size_t n, const char *s)
{
    return n == strlen(s) && strncmp(w, s, n) == 0;
}

/* "ndots:2" -> 2 when W starts with KEY, capped at MAX (glibc's res_init.c
 * caps ndots at 15, timeout at 30 s, attempts at 5). */
static bool option_value(const char *w, size_t n, const char *key, int max, int *out)
{
    size_t k = strlen(key);
    if (n <= k || strncmp(w, key, k) != 0)
        return false;
    int v = 0;
    for (size_t i = k; i < n; i++) {
        if (w[i] < '0' || w[i] > '9')
            return false;
        if (v < 1000)
            v = v * 10 + (w[i] - '0');
    }
    *out = v > max ? max : v;
    return true;
}

void td_resolv_options(const char *opts, size_t len, struct td_resolv_conf *c)
{
    const char *p = opts, *end = opts + len, *w;
    size_t n;
    while (next_word(&p, end, &w, &n)) {
        int v;
        if (option_value(w, n, "ndots:", 15, &v))
            c->ndots = v;
        else if (option_value(w, n, "timeout:", 30, &v))
            c->timeout_s = v < 1 ? 1 : v;
        else if (option_value(w, n, "attempts:", 5, &v))
            c->attempts = v < 1 ? 1 : v;
    }
}

void td_resolv_search(const char *list, size_t len, struct td_resolv_conf *c)
{
    const char *p = list, *end = list + len, *w;
    size_t n;
    c->n_search = 0;
    c->search_set = true;
    while (c->n_search < TD_RESOLV_MAX_SEARCH && next_word(&p, end, &w, &n))
        if (n < sizeof c->search[0])
            snprintf(c->search[c->n_search++], sizeof c->search[0], "%.*s", (int)n, w);
}

void td_resolv_conf_parse(const char *text, size_t len, struct td_resolv_conf *c)
{
    memset(c, 0, sizeof *c);
    c->ndots = 1, c->timeout_s = 5, c->attempts = 2; /* resolv.conf(5) */
    const char *p = text, *end = text + len, *line, *line_end;
    while (next_line(&p, end, &line, &line_end)) {
        if (line < line_end && (*line == '#' || *line == ';'))
            continue;
        const char *q = line, *w, *v;
        size_t n, vn;
        if (!next_word(&q, line_end, &w, &n))
            continue;
        if (word_is(w, n, "nameserver") && next_word(&q, line_end, &v, &vn)) {
            if (c->n_ns < TD_RESOLV_MAX_NS && vn < sizeof c->nameservers[0])
                snprintf(c->nameservers[c->n_ns++], sizeof c->nameservers[0], "%.*s", (int)vn, v);
        } else if (word_is(w, n, "search") || word_is(w, n, "domain")) {
            /* `domain` names one; the last search or domain line wins. */
            const char *rest = q;
            if (word_is(w, n, "domain") && next_word(&q, line_end, &v, &vn))
                td_resolv_search(v, vn, c);
            else if (word_is(w, n, "search"))
                td_resolv_search(rest, (size_t)(line_end - rest), c);
        } else if (word_is(w, n, "options")) {
            td_resolv_options(q, (size_t)(line_end - q), c);
        }
    }
}

static int status_of(const char *w, size_t n)
{
    static const char *const names[] = {"SUCCESS", "NOTFOUND", "UNAVAIL", "TRYAGAIN"};
    for (int i = 0; i < 4; i++)
        if (n == strlen(names[i]) && strncasecmp(w, names[i], n) == 0)
            return i;
    return -1;
}

/* "[NOTFOUND=return !UNAVAIL=continue]" applied to S (nsswitch.conf(5):
 * "!STATUS=ACTION" sets ACTION for every status but STATUS). */
static void read_actions(const char *p, const char *end, struct td_nss_source *s)
{
    const char *w;
    size_t n;
    while (next_word(&p, end, &w, &n)) {
        bool negate = *w == '!';
        const char *eq = memchr(w, '=', n);
        if (!eq)
            continue;
        int status = status_of(w + negate, (size_t)(eq - w) - negate);
        size_t an = n - (size_t)(eq + 1 - w);
        bool ret = an == 6 && strncasecmp(eq + 1, "return", 6) == 0;
        for (int i = 0; status >= 0 && i < 4; i++)
            if ((i == status) != negate)
                s->returns = ret ? s->returns | 1u << i : s->returns & ~(1u << i);
    }
}

size_t td_nsswitch_hosts(const char *text, size_t len, struct td_nss_source *out, size_t max)
{
    const char *p = text, *end = text + len, *line, *line_end;
    while (next_line(&p, end, &line, &line_end)) {
        const char *hash = memchr(line, '#', (size_t)(line_end - line));
        if (hash)
            line_end = hash;
        const char *q = line;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            q++;
        if ((size_t)(line_end - q) < 6 || strncmp(q, "hosts", 5) != 0)
            continue;
        q += 5;
        while (q < line_end && (*q == ' ' || *q == '\t'))
            q++;
        if (q == line_end || *q != ':')
            continue;
        q++;
        size_t count = 0;
        while (q < line_end) {
            while (q < line_end && (*q == ' ' || *q == '\t' || *q == '\r'))
                q++;
            if (q == line_end)
                break;
            if (*q == '[') {
                const char *close = memchr(q, ']', (size_t)(line_end - q));
                const char *stop = close ? close : line_end;
                if (count)
                    read_actions(q + 1, stop, &out[count - 1]);
                q = close ? close + 1 : line_end;
                continue;
            }
            const char *w = q;
            while (q < line_end && *q != ' ' && *q != '\t' && *q != '\r' && *q != '[')
                q++;
            size_t n = (size_t)(q - w);
            if (count < max && n < sizeof out[0].name) {
                snprintf(out[count].name, sizeof out[0].name, "%.*s", (int)n, w);
                out[count++].returns = 1u << TD_NSS_SUCCESS;
            }
        }
        return count; /* the first hosts line */
    }
    return 0;
}

/* An address as hosts(5) allows it: IPv4 dotted quad or IPv6 (with an
 * optional %scope). */
static bool is_address(const char *w, size_t n)
{
    char buf[64];
    unsigned char bin[16];
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, w, n);
    buf[n] = '\0';
    char *scope = strchr(buf, '%');
    if (scope)
        *scope = '\0';
    return inet_pton(AF_INET, buf, bin) == 1 || inet_pton(AF_INET6, buf, bin) == 1;
}

unsigned td_hosts_find(const char *text, size_t len, const char *name, char *addr, size_t cap)
{
    size_t want = strlen(name);
    if (want && name[want - 1] == '.') /* an absolute name: the same entry */
        want--;
    const char *p = text, *end = text + len, *line, *line_end;
    for (unsigned at = 1; next_line(&p, end, &line, &line_end); at++) {
        const char *hash = memchr(line, '#', (size_t)(line_end - line));
        if (hash)
            line_end = hash;
        const char *q = line, *a, *w;
        size_t an, n;
        if (!next_word(&q, line_end, &a, &an) || !is_address(a, an))
            continue;
        while (next_word(&q, line_end, &w, &n))
            if (want && n == want && strncasecmp(w, name, n) == 0) {
                snprintf(addr, cap, "%.*s", (int)an, a);
                return at;
            }
    }
    return 0;
}
