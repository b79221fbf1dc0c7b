/* DNS messages (RFC 1035 section 4): the one question a stub resolver asks
 * (an A or AAAA query, recursion desired) and the reply read back. Pure
 * functions over bytes: no socket here (probe/distributed/resolve_posix.c
 * sends and waits). */
#ifndef TD_FORMAT_NET_DNS_H
#define TD_FORMAT_NET_DNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    TD_DNS_TYPE_A = 1,     /* RFC 1035 3.2.2 */
    TD_DNS_TYPE_CNAME = 5, /* RFC 1035 3.2.2 */
    TD_DNS_TYPE_AAAA = 28, /* RFC 3596 2.1 */
    TD_DNS_CLASS_IN = 1,
    TD_DNS_NAME_MAX = 255, /* RFC 1035 2.3.4: 255 octets on the wire */
    TD_DNS_UDP_MAX = 512,  /* RFC 1035 2.3.4: UDP messages, without EDNS */
};

/* RCODE (RFC 1035 4.1.1). */
enum {
    TD_DNS_NOERROR = 0,
    TD_DNS_FORMERR = 1,
    TD_DNS_SERVFAIL = 2,
    TD_DNS_NXDOMAIN = 3,
    TD_DNS_NOTIMP = 4,
    TD_DNS_REFUSED = 5,
};

/* Writes the query for NAME (dotted text, a trailing dot allowed) of type
 * QTYPE with ID into OUT. Returns its length, or 0 when NAME is not a
 * domain name (an empty label, a label over 63 octets, over 255 octets in
 * all) or OUT is too small. */
size_t td_dns_query(uint8_t *out, size_t cap, uint16_t id, const char *name, uint16_t qtype);

struct td_dns_reply {
    unsigned rcode;                  /* TD_DNS_NOERROR, TD_DNS_NXDOMAIN, ... */
    bool truncated;                  /* TC: the server had more than fitted */
    bool cut;                        /* the records stop before the counts say (with TC) */
    size_t n_addrs;                  /* records of QTYPE for the name or its CNAME targets */
    uint8_t addr[16];                /* the first of them: 4 bytes for A, 16 for AAAA */
    size_t addr_len;                 /* 0: none */
    char cname[TD_DNS_NAME_MAX + 1]; /* the last CNAME target followed, "" */
};

enum td_dns_verdict {
    TD_DNS_OURS,      /* the reply to our question: R filled */
    TD_DNS_NOT_OURS,  /* another ID, not a reply, or another question */
    TD_DNS_MALFORMED, /* ours, but unreadable: WHY says where */
};

/* Reads MSG[0..LEN) as the reply to the query ID for NAME and QTYPE: the
 * header (ID, QR, RCODE, TC), the question it repeats (matched without
 * regard to case, RFC 4343), then the answer section, following CNAMEs from
 * NAME and counting the QTYPE records of class IN for it. Compressed names
 * (RFC 1035 4.1.4) are followed backwards only, at most 255 octets, so a
 * pointer loop ends. A message cut short with TC set keeps what was read. */
enum td_dns_verdict td_dns_parse(const uint8_t *msg, size_t len, uint16_t id, const char *name,
                                 uint16_t qtype, struct td_dns_reply *r, char *why, size_t cap);

/* "NXDOMAIN", "SERVFAIL", ... or "RCODE 9". */
const char *td_dns_rcode_name(unsigned rcode, char *buf, size_t cap);

#endif
