/* libFuzzer target for fleet's report reader (probe/fleet/fleet.h): any
 * bytes read as reports (plain, JSON Lines, srun -l labelled), then the
 * analysis and the hostlist folding of whatever nodes came out; the first
 * byte picks an expected node set to apply. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "probe/fleet/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_fleet f = {.arena = {.cap = 64 << 20}};
    td_fleet_read(&f, "fuzz", (const char *)data, size);
    if (size && data[0] & 1)
        td_fleet_expect(&f, "gpu[001-004],vm");
    td_fleet_analyze(&f);
    for (size_t i = 0; i < f.n_groups; i++)
        if (!f.groups[i].hosts || f.groups[i].n == 0)
            abort();
    td_fleet_free(&f);
    return 0;
}
