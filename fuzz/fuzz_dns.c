/* libFuzzer target for DNS replies (format/net/dns.h): any bytes read as the
 * reply to an A and an AAAA question, with the ID and question taken from
 * the input itself half the time so that the answer section is reached;
 * a reply the parser keeps must describe an address of the asked size. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "format/net/dns.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"node001.cluster.example", "a", "localhost"};
    uint16_t id = size >= 2 ? (uint16_t)(data[0] << 8 | data[1]) : 0;
    char why[96];
    for (int n = 0; n < 3; n++)
        for (int t = 0; t < 2; t++) {
            uint16_t type = t ? TD_DNS_TYPE_AAAA : TD_DNS_TYPE_A;
            struct td_dns_reply r;
            enum td_dns_verdict v =
                td_dns_parse(data, size, id, names[n], type, &r, why, sizeof why);
            if (v == TD_DNS_OURS && r.n_addrs && r.addr_len != (type == TD_DNS_TYPE_A ? 4u : 16u))
                abort();
            if (v == TD_DNS_MALFORMED && !memchr(why, '\0', sizeof why))
                abort();
            if (strlen(r.cname) > TD_DNS_NAME_MAX)
                abort();
        }
    /* Our own query, then the input grafted after its question. */
    uint8_t msg[TD_DNS_UDP_MAX];
    size_t q = td_dns_query(msg, sizeof msg, 0x1234, names[0], TD_DNS_TYPE_A);
    if (q == 0)
        abort();
    msg[2] |= 0x80; /* QR */
    size_t extra = size < sizeof msg - q ? size : sizeof msg - q;
    memcpy(msg + q, data, extra);
    if (size >= 2)
        msg[7] = data[0] & 7; /* ANCOUNT */
    struct td_dns_reply r;
    td_dns_parse(msg, q + extra, 0x1234, names[0], TD_DNS_TYPE_A, &r, why, sizeof why);
    return 0;
}
