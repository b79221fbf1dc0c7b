/* libFuzzer target for the files behind the MASTER_ADDR lookup
 * (probe/distributed/resolve.h): any bytes as resolv.conf, nsswitch.conf
 * and /etc/hosts; the parsed values must stay in their bounds. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/distributed/resolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct td_resolv_conf c;
    td_resolv_conf_parse(text, size, &c);
    if (c.n_ns > TD_RESOLV_MAX_NS || c.n_search > TD_RESOLV_MAX_SEARCH || c.ndots > 15 ||
        c.timeout_s < 1 || c.timeout_s > 30 || c.attempts < 1 || c.attempts > 5)
        abort();
    struct td_nss_source s[TD_NSS_MAX_SOURCES];
    size_t n = td_nsswitch_hosts(text, size, s, TD_NSS_MAX_SOURCES);
    for (size_t i = 0; i < n; i++)
        if (!memchr(s[i].name, '\0', sizeof s[i].name) || s[i].returns > 0xF)
            abort();
    if (n > TD_NSS_MAX_SOURCES)
        abort();
    char addr[64];
    addr[0] = '\0';
    unsigned line = td_hosts_find(text, size, "node001", addr, sizeof addr);
    if (line && !*addr)
        abort();
    return 0;
}
