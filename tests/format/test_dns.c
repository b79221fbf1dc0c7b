/* DNS query and reply (format/net/dns.h). Two replies are real bytes captured
 * on the machine this was written on (its resolver, 10.255.255.53, asked
 * by a Python socket on 2026-12-06: deb.debian.org's A record through a
 * compression pointer, and NXDOMAIN for example.com). The rest are built
 * by hand from RFC 1035 4.1: CNAME chains, compression, truncation, IDs
 * and questions that are not ours, and the pointer loops a reply may hold. */
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "format/net/dns.h"

/* A hand-built message. */
struct msg {
    uint8_t b[600];
    size_t n;
};

static void u8(struct msg *m, unsigned v)
{
    m->b[m->n++] = (uint8_t)v;
}

static void u16(struct msg *m, unsigned v)
{
    u8(m, v >> 8);
    u8(m, v & 0xFF);
}

/* Labels of NAME, then a pointer to PTR (or the root when PTR is 0). */
static void name(struct msg *m, const char *dotted, unsigned ptr)
{
    for (const char *p = dotted; *p;) {
        size_t n = strcspn(p, ".");
        u8(m, (unsigned)n);
        memcpy(m->b + m->n, p, n);
        m->n += n;
        p += n + (p[n] == '.');
    }
    if (ptr)
        u16(m, 0xC000 | ptr);
    else
        u8(m, 0);
}

static void header(struct msg *m, unsigned id, unsigned flags, unsigned an)
{
    m->n = 0;
    u16(m, id);
    u16(m, flags);
    u16(m, 1);
    u16(m, an);
    u16(m, 0);
    u16(m, 0);
}

/* The header, then the question (NAME at offset 12, TYPE, class IN). */
static void question(struct msg *m, unsigned id, unsigned flags, unsigned an, const char *qname,
                     unsigned type)
{
    header(m, id, flags, an);
    name(m, qname, 0);
    u16(m, type), u16(m, TD_DNS_CLASS_IN);
}

static void rr(struct msg *m, unsigned type, unsigned rdlength)
{
    u16(m, type);
    u16(m, TD_DNS_CLASS_IN);
    u16(m, 0), u16(m, 60); /* TTL */
    u16(m, rdlength);
}

static enum td_dns_verdict parse(const struct msg *m, unsigned id, const char *q, unsigned type,
                                 struct td_dns_reply *r, char *why)
{
    return td_dns_parse(m->b, m->n, (uint16_t)id, q, (uint16_t)type, r, why, 160);
}

static void builds_queries(void **state)
{
    uint8_t out[512];
    static const uint8_t want[] = {0x12, 0x34, 0x01, 0x00, 0,   1, 0, 0, 0, 0, 0,
                                   0,    1,    'a',  1,    'b', 0, 0, 1, 0, 1};
    assert_int_equal(td_dns_query(out, sizeof out, 0x1234, "a.b", TD_DNS_TYPE_A), sizeof want);
    assert_memory_equal(out, want, sizeof want);
    /* A trailing dot is the same name. */
    assert_int_equal(td_dns_query(out, sizeof out, 0x1234, "a.b.", TD_DNS_TYPE_A), sizeof want);
    assert_memory_equal(out, want, sizeof want);
    char label[70], longname[300];
    memset(label, 'x', 64), label[64] = '\0';
    /* 253 characters is the most (255 octets with the length octets and
     * the root's), with or without a trailing dot; 255 is too many. */
    for (size_t i = 0; i < 127; i++)
        longname[2 * i] = 'y', longname[2 * i + 1] = '.';
    longname[254] = '\0';
    assert_true(td_dns_query(out, sizeof out, 1, longname, TD_DNS_TYPE_A) > 0);
    longname[253] = '\0';
    assert_true(td_dns_query(out, sizeof out, 1, longname, TD_DNS_TYPE_A) > 0);
    longname[253] = 'y', longname[254] = 'y', longname[255] = '\0';
    const char *bad[] = {"", ".", "a..b", ".a", label, longname};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(td_dns_query(out, sizeof out, 1, bad[i], TD_DNS_TYPE_A), 0);
    label[63] = '\0';
    assert_true(td_dns_query(out, sizeof out, 1, label, TD_DNS_TYPE_AAAA) > 0);
    assert_int_equal(td_dns_query(out, 20, 1, "a.b", TD_DNS_TYPE_A), 0); /* too small */
}

static size_t unhex(const char *hex, uint8_t *out)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned v;
        sscanf(hex, "%2x", &v);
        out[n++] = (uint8_t)v;
    }
    return n;
}

static void reads_captured_replies(void **state)
{
    uint8_t b[512];
    struct td_dns_reply r;
    char why[160];
    /* deb.debian.org A: the answer's owner is the pointer c00c. */
    size_t n = unhex("abcd81800001000100000000036465620664656269616e036f72670000010001"
                     "c00c000100010000003c0004cb007150",
                     b);
    assert_int_equal(td_dns_parse(b, n, 0xabcd, "deb.debian.org", TD_DNS_TYPE_A, &r, why, 160),
                     TD_DNS_OURS);
    assert_int_equal(r.rcode, TD_DNS_NOERROR);
    assert_int_equal(r.n_addrs, 1);
    assert_int_equal(r.addr_len, 4);
    static const uint8_t addr[] = {203, 0, 113, 80};
    assert_memory_equal(r.addr, addr, 4);
    /* Not ours: another ID, or asked as AAAA. */
    assert_int_equal(td_dns_parse(b, n, 0xabce, "deb.debian.org", TD_DNS_TYPE_A, &r, why, 160),
                     TD_DNS_NOT_OURS);
    assert_int_equal(td_dns_parse(b, n, 0xabcd, "deb.debian.org", TD_DNS_TYPE_AAAA, &r, why, 160),
                     TD_DNS_NOT_OURS);
    n = unhex("abcd81830001000000000000076578616d706c6503636f6d0000010001", b);
    assert_int_equal(td_dns_parse(b, n, 0xabcd, "EXAMPLE.com", TD_DNS_TYPE_A, &r, why, 160),
                     TD_DNS_OURS);
    assert_int_equal(r.rcode, TD_DNS_NXDOMAIN);
    assert_int_equal(r.n_addrs, 0);
    char rc[16];
    assert_string_equal(td_dns_rcode_name(r.rcode, rc, sizeof rc), "NXDOMAIN");
    assert_string_equal(td_dns_rcode_name(9, rc, sizeof rc), "RCODE 9");
}

/* www.example.test CNAME host.example.test (compressed), then its A. */
static void cname_reply(struct msg *m, unsigned flags, unsigned an)
{
    question(m, 7, flags, an, "www.example.test", TD_DNS_TYPE_A); /* example.test at 16 */
    u16(m, 0xC000 | 12);
    size_t rd = m->n + 10;
    rr(m, TD_DNS_TYPE_CNAME, 7);
    name(m, "host", 16);
    u16(m, 0xC000 | (unsigned)rd);
    rr(m, TD_DNS_TYPE_A, 4);
    u8(m, 192), u8(m, 0), u8(m, 2), u8(m, 1);
}

static void follows_cnames(void **state)
{
    struct msg m;
    struct td_dns_reply r;
    char why[160];
    cname_reply(&m, 0x8180, 2);
    assert_int_equal(parse(&m, 7, "WWW.example.TEST", TD_DNS_TYPE_A, &r, why), TD_DNS_OURS);
    assert_int_equal(r.n_addrs, 1);
    assert_string_equal(r.cname, "host.example.test");
    assert_int_equal(r.addr[3], 1);
    /* Cut after the CNAME with TC set: ours, no address, marked cut. */
    m.b[2] |= 0x02; /* TC */
    m.n -= 10;
    assert_int_equal(parse(&m, 7, "www.example.test", TD_DNS_TYPE_A, &r, why), TD_DNS_OURS);
    assert_true(r.truncated && r.cut);
    assert_int_equal(r.n_addrs, 0);
    /* The same cut without TC is malformed. */
    m.b[2] &= (uint8_t)~0x02;
    assert_int_equal(parse(&m, 7, "www.example.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    assert_non_null(strstr(why, "past the end"));
    /* Another question is not ours; neither is a query (QR clear). */
    cname_reply(&m, 0x8180, 2);
    assert_int_equal(parse(&m, 7, "www.example.org", TD_DNS_TYPE_A, &r, why), TD_DNS_NOT_OURS);
    cname_reply(&m, 0x0100, 2);
    assert_int_equal(parse(&m, 7, "www.example.test", TD_DNS_TYPE_A, &r, why), TD_DNS_NOT_OURS);
}

static void skips_other_records(void **state)
{
    struct msg m;
    struct td_dns_reply r;
    char why[160];
    /* An AAAA question answered by a 4-byte AAAA (wrong size), an A, and an
     * AAAA for another owner: none counts. Then one good AAAA. */
    question(&m, 9, 0x8180, 4, "n.test", TD_DNS_TYPE_AAAA);
    u16(&m, 0xC00C), rr(&m, TD_DNS_TYPE_AAAA, 4), u16(&m, 0), u16(&m, 0);
    u16(&m, 0xC00C), rr(&m, TD_DNS_TYPE_A, 4), u16(&m, 0), u16(&m, 0);
    name(&m, "other", 0), rr(&m, TD_DNS_TYPE_AAAA, 16);
    for (int i = 0; i < 16; i++)
        u8(&m, 0xEE);
    u16(&m, 0xC00C), rr(&m, TD_DNS_TYPE_AAAA, 16);
    for (int i = 0; i < 16; i++)
        u8(&m, i == 15 ? 1 : 0);
    assert_int_equal(parse(&m, 9, "n.test", TD_DNS_TYPE_AAAA, &r, why), TD_DNS_OURS);
    assert_int_equal(r.n_addrs, 1);
    assert_int_equal(r.addr_len, 16);
    assert_int_equal(r.addr[15], 1);
    /* SERVFAIL with the header alone (no question) is ours. */
    header(&m, 9, 0x8182, 0);
    m.b[5] = 0;
    assert_int_equal(parse(&m, 9, "n.test", TD_DNS_TYPE_A, &r, why), TD_DNS_OURS);
    assert_int_equal(r.rcode, TD_DNS_SERVFAIL);
    /* A header cut short. */
    m.n = 7;
    assert_int_equal(parse(&m, 9, "n.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
}

static void ends_pointer_loops(void **state)
{
    struct msg m;
    struct td_dns_reply r;
    char why[160];
    /* An answer whose owner points at itself. */
    question(&m, 3, 0x8180, 1, "a.test", TD_DNS_TYPE_A);
    unsigned self = (unsigned)m.n;
    u16(&m, 0xC000 | self);
    rr(&m, TD_DNS_TYPE_A, 4), u16(&m, 0), u16(&m, 0);
    assert_int_equal(parse(&m, 3, "a.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    assert_non_null(strstr(why, "compression pointer"));
    /* A label, then a pointer back to that label: a loop through text. */
    m.n = self;
    u8(&m, 1), u8(&m, 'x'), u16(&m, 0xC000 | self);
    rr(&m, TD_DNS_TYPE_A, 4), u16(&m, 0), u16(&m, 0);
    assert_int_equal(parse(&m, 3, "a.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    /* Two pointers at each other: the first leads back, the second forward. */
    m.n = self;
    u16(&m, 0xC000 | (self + 2)), u16(&m, 0xC000 | self);
    assert_int_equal(parse(&m, 3, "a.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    /* The reserved label types 01 and 10. */
    m.n = self;
    u8(&m, 0x41);
    rr(&m, TD_DNS_TYPE_A, 4), u16(&m, 0), u16(&m, 0);
    assert_int_equal(parse(&m, 3, "a.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    assert_non_null(strstr(why, "label type"));
    /* A name of over 255 octets through a chain of backward pointers: the
     * chain lies in a TXT record's data, the next answer's owner ends it. */
    question(&m, 3, 0x8180, 2, "a.test", TD_DNS_TYPE_A);
    u16(&m, 0xC00C), rr(&m, 16, 6 * 63);
    unsigned prev = 12;
    for (int i = 0; i < 6; i++) {
        unsigned at = (unsigned)m.n;
        u8(&m, 60);
        for (int k = 0; k < 60; k++)
            u8(&m, 'z');
        u16(&m, 0xC000 | prev);
        prev = at;
    }
    u16(&m, 0xC000 | prev);
    rr(&m, TD_DNS_TYPE_A, 4), u16(&m, 0), u16(&m, 0);
    assert_int_equal(parse(&m, 3, "a.test", TD_DNS_TYPE_A, &r, why), TD_DNS_MALFORMED);
    assert_non_null(strstr(why, "255"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_queries),     cmocka_unit_test(reads_captured_replies),
        cmocka_unit_test(follows_cnames),     cmocka_unit_test(skips_other_records),
        cmocka_unit_test(ends_pointer_loops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
