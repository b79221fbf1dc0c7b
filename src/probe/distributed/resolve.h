/* Does a host name resolve, the way glibc's getaddrinfo would find it, but
 * without glibc's NSS (which a static program cannot load safely, and whose
 * DNS waits timeout x attempts seconds): the nsswitch.conf `hosts:` order,
 * /etc/hosts, nss-myhostname's names, and DNS asked by us over UDP within
 * a total budget. Every file is read under the probe root. A source we
 * cannot ask (sss, ldap, resolve, mdns for .local, ...) makes a name not
 * found elsewhere "unknown", never "does not resolve". */
#ifndef TD_PROBE_DISTRIBUTED_RESOLVE_H
#define TD_PROBE_DISTRIBUTED_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/probe.h"

/* ---- the configuration files (resolve_conf.c: pure parsers) ---- */

enum {
    TD_RESOLV_MAX_NS = 3,     /* resolv.conf(5): MAXNS, the rest ignored */
    TD_RESOLV_MAX_SEARCH = 6, /* the list we try (glibc >= 2.26 has no limit) */
    TD_NSS_MAX_SOURCES = 16,
};

struct td_resolv_conf {
    char nameservers[TD_RESOLV_MAX_NS][64]; /* addresses as written */
    size_t n_ns;
    char search[TD_RESOLV_MAX_SEARCH][256];
    size_t n_search;
    bool search_set; /* a search or domain line (the last one wins) */
    int ndots;       /* default 1, at most 15 */
    int timeout_s;   /* default 5, at most 30 */
    int attempts;    /* default 2, at most 5 */
};

/* resolv.conf(5) text into C, over glibc's defaults. */
void td_resolv_conf_parse(const char *text, size_t len, struct td_resolv_conf *c);
/* One `options` list ("ndots:2 timeout:1 attempts:3"), as in resolv.conf
 * or RES_OPTIONS. */
void td_resolv_options(const char *opts, size_t len, struct td_resolv_conf *c);
/* A search list ("a.example b.example"), as a search line or LOCALDOMAIN. */
void td_resolv_search(const char *list, size_t len, struct td_resolv_conf *c);

/* NSS statuses (nsswitch.conf(5)), as bits of td_nss_source.returns. */
enum td_nss_status { TD_NSS_SUCCESS, TD_NSS_NOTFOUND, TD_NSS_UNAVAIL, TD_NSS_TRYAGAIN };

struct td_nss_source {
    char name[32];    /* "files", "dns", "myhostname", "sss", ... */
    unsigned returns; /* 1 << status for each status whose action is return */
};

/* The `hosts:` line of nsswitch.conf text into OUT (at most MAX sources),
 * with its [STATUS=ACTION] items (default: return on SUCCESS only).
 * Returns how many; 0 when the text has no hosts line. */
size_t td_nsswitch_hosts(const char *text, size_t len, struct td_nss_source *out, size_t max);

/* The line (from 1) of hosts(5) TEXT that names NAME (canonical name or
 * alias, without regard to case) with an address that parses; the address
 * into ADDR. 0 when none does. */
unsigned td_hosts_find(const char *text, size_t len, const char *name, char *addr, size_t cap);

/* ---- the lookup (resolve_posix.c) ---- */

enum td_resolve_status { TD_RESOLVE_NO, TD_RESOLVE_YES, TD_RESOLVE_UNKNOWN };

struct td_resolve_request {
    const struct td_probe_ctx *ctx; /* the root files are read under; its envp */
    int budget_ms;                  /* all DNS waits together; 0: 300 */
    int dns_port;                   /* 0: 53 */
};

struct td_resolve_result {
    enum td_resolve_status status;
    /* YES: where it was found ("/etc/hosts line 3: 10.0.0.1"); NO: what
     * said so; UNKNOWN: why we cannot tell. */
    char how[768];
    char order[256]; /* the hosts: sources, as used ("files dns") */
    bool unaskable;  /* UNKNOWN only because of a source we cannot ask */
};

void td_resolve_host(const struct td_resolve_request *q, const char *name,
                     struct td_resolve_result *r);

#endif
