/* NCCL_SOCKET_IFNAME as NCCL reads it (docs.nvidia.com/deeplearning/nccl,
 * "Environment Variables": "a comma-separated list of prefixes; ^ to
 * exclude, = for an exact match", e.g. "^docker,lo", "=eth0"; NCCL's
 * src/misc/socket.cc matchIfList). */
#include <stdio.h>
#include <string.h>

#include "probe/distributed/distributed.h"

/* Does NAME match one of the LIST's comma-separated entries? */
static bool in_list(const char *name, const char *list, bool exact)
{
    size_t len = strlen(name);
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        if (n > 0 &&
            (exact ? n == len && strncmp(name, p, n) == 0 : n <= len && strncmp(name, p, n) == 0))
            return true;
        p += n + (p[n] == ',');
    }
    return false;
}

bool td_nccl_ifname_selects(const char *value, const char *const *ifaces, size_t n, char *why,
                            size_t cap)
{
    const char *list = value;
    bool exclude = *list == '^';
    list += exclude;
    bool exact = *list == '=';
    list += exact;
    for (size_t i = 0; i < n; i++)
        if (in_list(ifaces[i], list, exact) != exclude)
            return true;
    snprintf(why, cap, "%s %s%s",
             exclude ? "excludes every interface, leaving none:" : "selects no interface of",
             exclude ? "" : "", exclude ? list : "those here");
    return false;
}
