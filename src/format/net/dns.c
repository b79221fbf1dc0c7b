/* DNS query and reply (format/net/dns.h), RFC 1035 section 4. Every byte of a
 * reply is read through td_buf: a reply may be anything a socket handed
 * us. */
#include "format/net/dns.h"

#include <stdio.h>
#include <string.h>

#include "format/buf.h"

enum {
    HEADER = 12,      /* RFC 1035 4.1.1 */
    FLAG_QR = 0x8000, /* a response */
    FLAG_TC = 0x0200, /* truncated */
    FLAG_RD = 0x0100, /* recursion desired */
    OPCODE = 0x7800,
};

static void put16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

size_t td_dns_query(uint8_t *out, size_t cap, uint16_t id, const char *name, uint16_t qtype)
{
    size_t n = strlen(name);
    if (n > 0 && name[n - 1] == '.')
        n--;
    /* Labels: a length octet each, plus the root's zero octet. */
    if (n == 0 || n + 2 > TD_DNS_NAME_MAX || HEADER + n + 2 + 4 > cap)
        return 0;
    memset(out, 0, HEADER);
    put16(out, id);
    put16(out + 2, FLAG_RD);
    put16(out + 4, 1); /* QDCOUNT */
    size_t at = HEADER;
    for (size_t i = 0; i < n;) {
        size_t len = strcspn(name + i, ".");
        if (len > n - i)
            len = n - i;
        if (len == 0 || len > 63)
            return 0;
        out[at++] = (uint8_t)len;
        memcpy(out + at, name + i, len);
        at += len;
        i += len + 1;
    }
    out[at++] = 0;
    put16(out + at, qtype);
    put16(out + at + 2, TD_DNS_CLASS_IN);
    return at + 4;
}

/* The name at *OFF as dotted text into OUT (at least TD_DNS_NAME_MAX + 1);
 * *OFF moves past it where it lies (a pointer ends it). The loop guard:
 * each pointer must lead before the start of the name it ends (the first:
 * before *OFF, later ones before the previous target), so the targets
 * strictly decrease and any chain of pointers ends. */
static bool read_name(const struct td_buf *b, uint64_t *off, char *out, char *why, size_t cap)
{
    uint64_t at = *off, limit = at, end = 0;
    size_t len = 0, wire = 1;
    bool jumped = false;
    for (;;) {
        uint8_t n;
        if (!td_buf_u8(b, at, &n)) {
            snprintf(why, cap, "a name at offset %llu runs past the end", (unsigned long long)*off);
            return false;
        }
        if ((n & 0xC0) == 0xC0) {
            uint16_t ptr;
            if (!td_buf_u16(b, at, &ptr)) {
                snprintf(why, cap, "a compression pointer at offset %llu is cut",
                         (unsigned long long)at);
                return false;
            }
            ptr &= 0x3FFF;
            if (ptr >= limit) {
                snprintf(why, cap,
                         "a compression pointer at offset %llu leads forward or back into "
                         "itself (to %u)",
                         (unsigned long long)at, ptr);
                return false;
            }
            if (!jumped)
                end = at + 2;
            jumped = true;
            at = limit = ptr;
            continue;
        }
        if (n & 0xC0) {
            snprintf(why, cap, "label type 0x%02x at offset %llu (RFC 1035 allows 00 and 11)",
                     n & 0xC0, (unsigned long long)at);
            return false;
        }
        if (n == 0) {
            out[len] = '\0';
            *off = jumped ? end : at + 1;
            return true;
        }
        const uint8_t *label = td_buf_at(b, at + 1, n);
        wire += 1u + n;
        if (!label || wire > TD_DNS_NAME_MAX) {
            snprintf(why, cap, "a name at offset %llu %s", (unsigned long long)*off,
                     label ? "is longer than 255 octets" : "runs past the end");
            return false;
        }
        if (len)
            out[len++] = '.';
        memcpy(out + len, label, n);
        len += n;
        at += 1u + n;
    }
}

/* Domain names compare without regard to ASCII case (RFC 4343); a
 * trailing dot on B is allowed. */
static bool same_name(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    if (nb && b[nb - 1] == '.')
        nb--;
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z')
            x = (char)(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z')
            y = (char)(y - 'A' + 'a');
        if (x != y)
            return false;
    }
    return true;
}

/* The answer section: CNAMEs followed from NAME, QTYPE records counted. */
static enum td_dns_verdict read_answers(const struct td_buf *b, uint64_t at, uint16_t count,
                                        const char *name, uint16_t qtype, struct td_dns_reply *r,
                                        char *why, size_t cap)
{
    char owner[TD_DNS_NAME_MAX + 1], target[TD_DNS_NAME_MAX + 1];
    snprintf(target, sizeof target, "%s", name);
    for (uint16_t i = 0; i < count; i++) {
        uint16_t type, klass, rdlength;
        if (!td_buf_has(b, at, 1) && r->truncated) {
            r->cut = true;
            return TD_DNS_OURS;
        }
        if (!read_name(b, &at, owner, why, cap) || !td_buf_u16(b, at, &type) ||
            !td_buf_u16(b, at + 2, &klass) || !td_buf_u16(b, at + 8, &rdlength) ||
            !td_buf_has(b, at + 10, rdlength)) {
            if (r->truncated) {
                r->cut = true;
                return TD_DNS_OURS;
            }
            if (!*why)
                snprintf(why, cap, "answer record %u of %u runs past the end", i + 1u, count);
            return TD_DNS_MALFORMED;
        }
        uint64_t rdata = at + 10;
        at = rdata + rdlength;
        if (klass != TD_DNS_CLASS_IN || !same_name(owner, target))
            continue;
        if (type == TD_DNS_TYPE_CNAME) {
            uint64_t p = rdata;
            if (!read_name(b, &p, target, why, cap))
                return TD_DNS_MALFORMED;
            snprintf(r->cname, sizeof r->cname, "%s", target);
        } else if (type == qtype && rdlength == (qtype == TD_DNS_TYPE_A ? 4 : 16)) {
            if (r->n_addrs++ == 0) {
                memcpy(r->addr, td_buf_at(b, rdata, rdlength), rdlength);
                r->addr_len = rdlength;
            }
        }
    }
    return TD_DNS_OURS;
}

enum td_dns_verdict td_dns_parse(const uint8_t *msg, size_t len, uint16_t id, const char *name,
                                 uint16_t qtype, struct td_dns_reply *r, char *why, size_t cap)
{
    memset(r, 0, sizeof *r);
    if (cap)
        *why = '\0';
    struct td_buf b = td_buf_make(msg, len, true);
    uint16_t got_id, flags, qd, an;
    if (!td_buf_u16(&b, 0, &got_id) || got_id != id)
        return TD_DNS_NOT_OURS;
    if (!td_buf_u16(&b, 2, &flags) || !(flags & FLAG_QR) || (flags & OPCODE) != 0)
        return TD_DNS_NOT_OURS;
    r->rcode = flags & 0xF;
    r->truncated = (flags & FLAG_TC) != 0;
    if (!td_buf_u16(&b, 4, &qd) || !td_buf_u16(&b, 6, &an)) {
        snprintf(why, cap, "the header is cut at %zu bytes (12 needed)", len);
        return TD_DNS_MALFORMED;
    }
    /* A server that cannot parse the query may answer with the header
     * alone (RFC 1035 4.1.1, FORMERR); every other reply repeats it. */
    if (qd == 0 && r->rcode != TD_DNS_NOERROR)
        return TD_DNS_OURS;
    uint64_t at = HEADER;
    char qname[TD_DNS_NAME_MAX + 1];
    uint16_t type, klass;
    if (qd != 1)
        return TD_DNS_NOT_OURS;
    if (!read_name(&b, &at, qname, why, cap) || !td_buf_u16(&b, at, &type) ||
        !td_buf_u16(&b, at + 2, &klass)) {
        if (!*why)
            snprintf(why, cap, "the question is cut");
        return TD_DNS_MALFORMED;
    }
    if (type != qtype || klass != TD_DNS_CLASS_IN || !same_name(qname, name))
        return TD_DNS_NOT_OURS;
    return read_answers(&b, at + 4, an, qname, qtype, r, why, cap);
}

const char *td_dns_rcode_name(unsigned rcode, char *buf, size_t cap)
{
    static const char *const names[] = {"NOERROR",  "FORMERR", "SERVFAIL",
                                        "NXDOMAIN", "NOTIMP",  "REFUSED"};
    if (rcode < sizeof names / sizeof names[0])
        return names[rcode];
    snprintf(buf, cap, "RCODE %u", rcode);
    return buf;
}
