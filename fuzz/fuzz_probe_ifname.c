/* libFuzzer target for NCCL_SOCKET_IFNAME's syntax (probe/distributed/
 * distributed.h): any value against a fixed set of interfaces; the answer
 * must come back, with a terminated reason when nothing is selected. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/distributed/distributed.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const ifaces[] = {"lo", "eth0", "ib0", "enp65s0f0", ""};
    char *value = malloc(size + 1);
    if (!value)
        return 0;
    memcpy(value, data, size);
    value[size] = '\0';
    char why[64];
    why[sizeof why - 1] = 'x';
    if (!td_nccl_ifname_selects(value, ifaces, 5, why, sizeof why - 1) &&
        !memchr(why, '\0', sizeof why - 1))
        abort();
    free(value);
    return 0;
}
