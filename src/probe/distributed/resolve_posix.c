/* Host name lookup without glibc's NSS (resolve.h): a literal address is
 * itself; else the sources of nsswitch.conf's hosts line in order, each
 * with its [STATUS=return] items: files (/etc/hosts), myhostname, dns (our
 * own A and AAAA queries over UDP, every wait inside one budget), and any
 * other module named as unaskable (data/nss_hosts.tsv). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/data.h"
#include "format/net/dns.h"
#include "probe/distributed/resolve.h"
#include "probe/probe_util.h"

enum { UNASKED = 4 }; /* beside enum td_nss_status: a source we cannot ask */

struct lookup {
    const struct td_resolve_request *q;
    const char *name;
    char said[768];     /* what each source said, "; " between */
    bool unknown;       /* some source could not tell */
    bool only_unasked;  /* ... and each was a source we cannot ask */
    char hostname[256]; /* the machine's, "" when unreadable */
    uint32_t seed;      /* query IDs */
};

static void say(struct lookup *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct lookup *l, const char *fmt, ...)
{
    size_t n = strlen(l->said);
    if (n + 3 >= sizeof l->said)
        return;
    if (n)
        n += (size_t)snprintf(l->said + n, sizeof l->said - n, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(l->said + n, sizeof l->said - n, fmt, ap);
    va_end(ap);
}

static void could_not_tell(struct lookup *l, bool unasked)
{
    l->only_unasked = (l->only_unasked || !l->unknown) && unasked;
    l->unknown = true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcasecmp(s + n - k, suffix) == 0;
}

static double now_ms(void)
{
    return td_monotonic_s() * 1000.0;
}

/* The first line of a file under the root, or "". */
static void read_first_line(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap)
{
    size_t len;
    char *text = td_probe_slurp(ctx, path, 4096, &len);
    snprintf(out, cap, "%.*s", text ? (int)strcspn(text, "\r\n \t") : 0, text ? text : "");
    free(text);
}

/* ---- files ---- */

static int ask_files(struct lookup *l)
{
    size_t len;
    char *text = td_probe_slurp(l->q->ctx, "/etc/hosts", TD_PROBE_READ_CAP, &len), addr[64];
    unsigned line = text ? td_hosts_find(text, len, l->name, addr, sizeof addr) : 0;
    free(text);
    if (line) {
        say(l, "/etc/hosts line %u: %s", line, addr);
        return TD_NSS_SUCCESS;
    }
    say(l, text ? "not in /etc/hosts" : "no /etc/hosts");
    return text ? TD_NSS_NOTFOUND : TD_NSS_UNAVAIL; /* nss_files: a file it cannot open */
}

/* ---- myhostname: nss-myhostname(8) ---- */

static int ask_myhostname(struct lookup *l)
{
    const char *n = l->name;
    if (strcasecmp(n, "localhost") == 0 || strcasecmp(n, "localhost.localdomain") == 0 ||
        ends_with(n, ".localhost") || ends_with(n, ".localhost.localdomain")) {
        say(l, "myhostname: %s is the local host", n);
        return TD_NSS_SUCCESS;
    }
    if (*l->hostname && strcasecmp(n, l->hostname) == 0) {
        say(l, "myhostname: %s is this machine's hostname", n);
        return TD_NSS_SUCCESS;
    }
    if (*n == '_' || !*l->hostname) { /* _gateway, _outbound: the routing table */
        say(l, "myhostname could answer for %s, which torchdoctor cannot ask",
            *n == '_' ? n : "this machine's hostname (unreadable under the root)");
        could_not_tell(l, true);
        return UNASKED;
    }
    say(l, "myhostname: not this machine's name (%s)", l->hostname);
    return TD_NSS_NOTFOUND;
}

/* ---- dns: our own queries ---- */

struct server {
    struct sockaddr_storage addr;
    socklen_t len;
    char label[80]; /* "127.0.0.1:53", "[::1]:53" */
};

static bool server_at(const char *text, int port, struct server *s)
{
    memset(s, 0, sizeof *s);
    char host[64];
    snprintf(host, sizeof host, "%s", text);
    host[strcspn(host, "%")] = '\0'; /* a link-local scope: the default interface */
    struct sockaddr_in *v4 = (struct sockaddr_in *)&s->addr;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&s->addr;
    if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        s->len = sizeof *v4;
        snprintf(s->label, sizeof s->label, "%s:%d", host, port);
    } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        s->len = sizeof *v6;
        snprintf(s->label, sizeof s->label, "[%s]:%d", host, port);
    }
    return s->len != 0;
}

enum answer { FOUND, NXDOMAIN, NODATA, FAILED, REFUSED, SILENT };

struct question {
    uint16_t id, type;
    bool done;
    struct td_dns_reply reply;
};

static int budget_ms(const struct lookup *l)
{
    return l->q->budget_ms > 0 ? l->q->budget_ms : 300;
}

static uint16_t next_id(struct lookup *l)
{
    l->seed ^= l->seed << 13, l->seed ^= l->seed >> 17, l->seed ^= l->seed << 5;
    return (uint16_t)(l->seed >> 8);
}

/* What both replies say together, once both are in or one settles it. */
static enum answer settle(const struct question *qs, bool *final)
{
    *final = true;
    for (int i = 0; i < 2; i++)
        if (qs[i].done && qs[i].reply.n_addrs)
            return FOUND;
    for (int i = 0; i < 2; i++)
        if (qs[i].done && qs[i].reply.rcode == TD_DNS_NXDOMAIN)
            return NXDOMAIN;
    *final = qs[0].done && qs[1].done;
    for (int i = 0; i < 2; i++)
        if (qs[i].reply.rcode != TD_DNS_NOERROR || qs[i].reply.truncated)
            return FAILED;
    return NODATA;
}

static void describe(struct lookup *l, const struct server *s, const char *qname,
                     const struct question *qs, enum answer a, char *text, size_t cap)
{
    const struct question *q = qs[0].reply.n_addrs ? &qs[0] : &qs[1];
    char addr[64] = "", rc[32];
    if (a == FOUND) {
        inet_ntop(q->reply.addr_len == 4 ? AF_INET : AF_INET6, q->reply.addr, addr, sizeof addr);
        snprintf(text, cap, "DNS %s: %.200s has %s %s%s%.200s", s->label, qname,
                 q->type == TD_DNS_TYPE_A ? "A" : "AAAA", addr,
                 *q->reply.cname ? " through CNAME " : "", q->reply.cname);
    } else if (a == NXDOMAIN || a == NODATA) {
        snprintf(text, cap, "DNS %s: %s for %.200s", s->label,
                 a == NXDOMAIN ? "NXDOMAIN" : "no address", qname);
    } else {
        q = qs[0].reply.rcode != TD_DNS_NOERROR || qs[0].reply.truncated ? &qs[0] : &qs[1];
        if (q->reply.rcode == TD_DNS_NOERROR)
            snprintf(text, cap,
                     "DNS %s: the reply for %.200s was truncated (TC) with no address in it, and "
                     "torchdoctor does not ask again over TCP",
                     s->label, qname);
        else
            snprintf(text, cap, "DNS %s: %s for %.200s", s->label,
                     td_dns_rcode_name(q->reply.rcode, rc, sizeof rc), qname);
    }
    (void)l;
}

/* One try: QNAME's A and AAAA queries to S, replies awaited up to WAIT_MS,
 * which is resolv.conf's timeout, or else what is left of the budget (the
 * text then names the budget: the same words however long it took). */
static enum answer ask_server(struct lookup *l, const struct server *s, const char *qname,
                              int wait_ms, bool by_budget, char *text, size_t cap)
{
    struct question qs[2] = {{.id = next_id(l), .type = TD_DNS_TYPE_A},
                             {.id = next_id(l), .type = TD_DNS_TYPE_AAAA}};
    if (qs[1].id == qs[0].id)
        qs[1].id ^= 1;
    uint8_t msg[TD_DNS_UDP_MAX];
    int fd = socket(s->addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    enum answer a = SILENT;
    unsigned ignored = 0;
    if (fd < 0 || connect(fd, (const struct sockaddr *)&s->addr, s->len) != 0) {
        snprintf(text, cap, "DNS %s: cannot send to it (%s)", s->label, strerror(errno));
        a = FAILED;
        goto out;
    }
    for (int i = 0; i < 2; i++) {
        size_t n = td_dns_query(msg, sizeof msg, qs[i].id, qname, qs[i].type);
        if (send(fd, msg, n, 0) != (ssize_t)n) { /* ECONNREFUSED: the first one's ICMP */
            int e = errno;
            if (e == ECONNREFUSED)
                snprintf(text, cap, "DNS %s: refused (nothing listens there)", s->label);
            else
                snprintf(text, cap, "DNS %s: cannot send to it (%s)", s->label, strerror(e));
            a = e == ECONNREFUSED ? REFUSED : FAILED;
            goto out;
        }
    }
    double deadline = now_ms() + wait_ms;
    for (bool final = false; !final;) {
        double left = deadline - now_ms();
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (left <= 0 || poll(&p, 1, (int)left + (left > (int)left)) <= 0)
            break;
        ssize_t got = recv(fd, msg, sizeof msg, 0);
        if (got < 0 && errno == ECONNREFUSED) {
            snprintf(text, cap, "DNS %s: refused (nothing listens there)", s->label);
            a = REFUSED;
            goto out;
        }
        char why[160];
        for (int i = 0; got >= 0 && i < 2; i++) {
            struct td_dns_reply r;
            enum td_dns_verdict v =
                td_dns_parse(msg, (size_t)got, qs[i].id, qname, qs[i].type, &r, why, sizeof why);
            if (v == TD_DNS_MALFORMED) {
                snprintf(text, cap, "DNS %s: a malformed reply (%s)", s->label, why);
                a = FAILED;
                goto out;
            }
            if (v == TD_DNS_OURS && !qs[i].done) {
                qs[i].done = true;
                qs[i].reply = r;
                got = -1; /* taken */
            }
        }
        ignored += got >= 0;
        a = settle(qs, &final);
        if (!final)
            a = SILENT;
    }
    if (a == SILENT)
        snprintf(text, cap, "no answer from %s within %d ms (%s%s)", s->label,
                 by_budget ? budget_ms(l) : wait_ms,
                 by_budget ? "the DNS budget" : "resolv.conf's timeout",
                 ignored == 1  ? "; 1 reply that was not for our question ignored"
                 : ignored > 1 ? "; replies that were not for our question ignored"
                               : "");
    else
        describe(l, s, qname, qs, a, text, cap);
out:
    if (fd >= 0)
        close(fd);
    return a;
}

/* QNAME asked of every server, ATTEMPTS rounds (resolv.conf(5)), each wait
 * the configured timeout or what is left of the budget. */
static enum answer ask_name(struct lookup *l, const struct td_resolv_conf *c,
                            const struct server *servers, size_t n, const char *qname,
                            double deadline, char *text, size_t cap)
{
    enum answer last = SILENT;
    snprintf(text, cap, "the DNS budget of %d ms was spent before %.200s was asked", budget_ms(l),
             qname);
    for (int round = 0; round < c->attempts; round++)
        for (size_t i = 0; i < n; i++) {
            double left = deadline - now_ms();
            if (left < 1)
                return last;
            bool by_budget = c->timeout_s * 1000 >= left;
            int wait = by_budget ? (int)left : c->timeout_s * 1000;
            last = ask_server(l, &servers[i], qname, wait, by_budget, text, cap);
            if (last == FOUND || last == NXDOMAIN || last == NODATA)
                return last;
        }
    return last;
}

/* The names glibc's res_nsearch tries (resolv.conf(5), "ndots"): the name
 * as given first when it has at least NDOTS dots, then name.domain for each
 * search domain, then the name as given; a name ending in a dot, alone. */
static size_t candidates(const char *name, const struct td_resolv_conf *c, char out[][256],
                         size_t max)
{
    size_t len = strlen(name), dots = 0, n = 0;
    for (size_t i = 0; i < len; i++)
        dots += name[i] == '.';
    bool absolute = len && name[len - 1] == '.';
    if (absolute || dots >= (size_t)c->ndots)
        snprintf(out[n++], 256, "%s", name);
    for (size_t i = 0; !absolute && i < c->n_search && n < max; i++)
        if (len + 1 + strlen(c->search[i]) < 254)
            snprintf(out[n++], 256, "%s.%s", name, c->search[i]);
    if (!absolute && dots < (size_t)c->ndots && n < max)
        snprintf(out[n++], 256, "%s", name);
    return n;
}

static void read_resolv_conf(struct lookup *l, struct td_resolv_conf *c)
{
    size_t len;
    char *text = td_probe_slurp(l->q->ctx, "/etc/resolv.conf", TD_PROBE_READ_CAP, &len);
    td_resolv_conf_parse(text ? text : "", text ? len : 0, c);
    free(text);
    /* resolv.conf(5): no nameserver line means the local machine's; no
     * search or domain line, the hostname's domain; LOCALDOMAIN and
     * RES_OPTIONS in the environment override the file. */
    if (c->n_ns == 0)
        snprintf(c->nameservers[c->n_ns++], sizeof c->nameservers[0], "127.0.0.1");
    const char *dot = strchr(l->hostname, '.');
    if (!c->search_set && dot && dot[1])
        td_resolv_search(dot + 1, strlen(dot + 1), c);
    for (size_t i = 0; l->q->ctx->envp && l->q->ctx->envp[i]; i++) {
        const char *e = l->q->ctx->envp[i];
        if (strncmp(e, "LOCALDOMAIN=", 12) == 0)
            td_resolv_search(e + 12, strlen(e + 12), c);
        else if (strncmp(e, "RES_OPTIONS=", 12) == 0)
            td_resolv_options(e + 12, strlen(e + 12), c);
    }
}

static int ask_dns(struct lookup *l)
{
    struct td_resolv_conf c;
    read_resolv_conf(l, &c);
    struct server servers[TD_RESOLV_MAX_NS];
    size_t n = 0;
    for (size_t i = 0; i < c.n_ns; i++)
        n += server_at(c.nameservers[i], l->q->dns_port > 0 ? l->q->dns_port : 53, &servers[n]);
    char names[TD_RESOLV_MAX_SEARCH + 1][256], text[512];
    size_t k = candidates(l->name, &c, names, TD_RESOLV_MAX_SEARCH + 1);
    uint8_t probe[TD_DNS_UDP_MAX];
    if (n == 0) {
        say(l, "DNS: no nameserver line of /etc/resolv.conf holds an address");
        return TD_NSS_UNAVAIL;
    }
    if (k == 0 || !td_dns_query(probe, sizeof probe, 0, names[0], TD_DNS_TYPE_A)) {
        say(l, "DNS: %s is not a domain name", l->name);
        return TD_NSS_NOTFOUND;
    }
    /* RFC 6761 6.4: ".invalid" names never exist; DNS is not asked. */
    if (ends_with(l->name, ".invalid") || ends_with(l->name, ".invalid.") ||
        strcasecmp(l->name, "invalid") == 0) {
        say(l, "DNS: NXDOMAIN for %s (RFC 6761: .invalid never resolves; not asked)", l->name);
        return TD_NSS_NOTFOUND;
    }
    double deadline = now_ms() + budget_ms(l);
    char nx[512] = "";
    bool failed = false, unavailable = false;
    for (size_t i = 0; i < k; i++) {
        enum answer a = ask_name(l, &c, servers, n, names[i], deadline, text, sizeof text);
        if (a == FOUND) {
            say(l, "%s", text);
            return TD_NSS_SUCCESS;
        }
        if (a == NXDOMAIN || a == NODATA) {
            size_t used = strlen(nx);
            snprintf(nx + used, sizeof nx - used, "%s%.200s%s", used ? ", " : "", names[i],
                     a == NODATA ? " (no address)" : "");
            continue;
        }
        if (!strstr(l->said, text)) /* "refused" once, not once per name */
            say(l, "%s", text);
        failed = true;
        /* glibc's res_nsearch goes on after SERVFAIL and stops when no
         * server answers; nss_dns (dns-host.c) calls a timeout or a refusal
         * UNAVAIL (so "[!UNAVAIL=return]" goes on to the next source), the
         * rest TRYAGAIN. */
        unavailable = a == SILENT || a == REFUSED;
        if (unavailable)
            break;
    }
    if (*nx)
        say(l, "DNS %s: NXDOMAIN for %s", servers[0].label, nx);
    if (failed) {
        could_not_tell(l, false);
        return unavailable ? TD_NSS_UNAVAIL : TD_NSS_TRYAGAIN;
    }
    return TD_NSS_NOTFOUND;
}

/* ---- the order ---- */

/* A module's row of data/nss_hosts.tsv: KIND and SCOPE ("*" when absent). */
static void module_row(const char *name, char *kind, char *scope, size_t cap)
{
    static const char *const cols[] = {"name", "kind", "scope", NULL};
    struct td_table t;
    snprintf(kind, cap, "unaskable");
    snprintf(scope, cap, "*");
    if (!td_table_open(&t, "nss_hosts", cols))
        return;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), name) == 0) {
            snprintf(kind, cap, "%s", td_table_cell(&t, 1));
            snprintf(scope, cap, "%s", td_table_cell(&t, 2));
            return;
        }
}

static int ask_unaskable(struct lookup *l, const char *module, const char *scope)
{
    /* nss-mdns README: without /etc/mdns.allow the full modules answer
     * .local names only, with it whatever it allows. */
    bool minimal = strstr(module, "_minimal") != NULL;
    bool in_scope = strcmp(scope, "*") == 0 || ends_with(l->name, scope) ||
                    (!minimal && td_probe_exists(l->q->ctx, "/etc/mdns.allow"));
    if (!in_scope)
        return TD_NSS_UNAVAIL; /* it declines the name: the chain goes on */
    say(l, "nsswitch.conf lists %s, which torchdoctor cannot ask", module);
    could_not_tell(l, true);
    return UNASKED;
}

static bool literal(const char *name, struct td_resolve_result *r)
{
    char host[64];
    unsigned char bin[16];
    struct in_addr v4;
    if (strlen(name) >= sizeof host)
        return false;
    snprintf(host, sizeof host, "%s", name);
    host[strcspn(host, "%")] = '\0';
    /* getaddrinfo takes inet_aton's forms too ("127.1", "0x7f.1"), whole,
     * before any NSS (glibc's getaddrinfo.c, __inet_aton_exact). */
    bool v4_chars = strspn(name, "0123456789abcdefxABCDEFX.") == strlen(name);
    if ((v4_chars && inet_aton(name, &v4) == 1) || inet_pton(AF_INET6, host, bin) == 1) {
        snprintf(r->how, sizeof r->how, "a literal %s address",
                 strchr(name, ':') ? "IPv6" : "IPv4");
        r->status = TD_RESOLVE_YES;
        return true;
    }
    return false;
}

void td_resolve_host(const struct td_resolve_request *q, const char *name,
                     struct td_resolve_result *r)
{
    memset(r, 0, sizeof *r);
    if (literal(name, r))
        return;
    struct lookup l = {.q = q, .name = name};
    read_first_line(q->ctx, "/proc/sys/kernel/hostname", l.hostname, sizeof l.hostname);
    if (!*l.hostname)
        read_first_line(q->ctx, "/etc/hostname", l.hostname, sizeof l.hostname);
    l.seed = (uint32_t)(uint64_t)(now_ms() * 1000.0) ^ (uint32_t)getpid() << 16 ^ 0x9e3779b9u;
    struct td_nss_source src[TD_NSS_MAX_SOURCES];
    size_t len, n = 0;
    char *text = td_probe_slurp(q->ctx, "/etc/nsswitch.conf", TD_PROBE_READ_CAP, &len);
    if (text)
        n = td_nsswitch_hosts(text, len, src, TD_NSS_MAX_SOURCES);
    free(text);
    if (n == 0) { /* glibc's nss_database.c default for hosts: "dns [!UNAVAIL=return] files" */
        n = 2;
        snprintf(src[0].name, sizeof src[0].name, "dns");
        src[0].returns = ~(1u << TD_NSS_UNAVAIL) & 0xF;
        snprintf(src[1].name, sizeof src[1].name, "files");
        src[1].returns = 1u << TD_NSS_SUCCESS;
    }
    r->status = TD_RESOLVE_NO;
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(r->order);
        int room = (int)(sizeof r->order - used), blank = used ? 1 : 0;
        /* A precision bounds the name to what fits after the blank, so a
         * build at -O3 sees no truncation to warn of. */
        int fits = room - 1 - blank > 0 ? room - 1 - blank : 0;
        snprintf(r->order + used, (size_t)room, "%s%.*s", blank ? " " : "", fits, src[i].name);
    }
    for (size_t i = 0; i < n; i++) {
        char kind[32], scope[32];
        module_row(src[i].name, kind, scope, sizeof kind);
        int status = strcmp(kind, "files") == 0        ? ask_files(&l)
                     : strcmp(kind, "dns") == 0        ? ask_dns(&l)
                     : strcmp(kind, "myhostname") == 0 ? ask_myhostname(&l)
                                                       : ask_unaskable(&l, src[i].name, scope);
        if (status == TD_NSS_SUCCESS) {
            r->status = TD_RESOLVE_YES;
            break;
        }
        /* A source we cannot ask may end the chain with a return item. */
        unsigned ends = status == UNASKED ? src[i].returns & ~(1u << TD_NSS_SUCCESS)
                                          : src[i].returns & 1u << status;
        if (ends) {
            say(&l, "the lookup ends after %s ([...=return])", src[i].name);
            break;
        }
    }
    if (r->status != TD_RESOLVE_YES && l.unknown) {
        r->status = TD_RESOLVE_UNKNOWN;
        r->unaskable = l.only_unasked;
    }
    snprintf(r->how, sizeof r->how, "%s", l.said);
}
