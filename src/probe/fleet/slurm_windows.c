/* fleet --slurm on Windows: Slurm runs on Linux clusters only. */
#include "probe/fleet/slurm.h"

int td_fleet_slurm(const struct td_fleet_slurm_request *q, struct td_fleet *f)
{
    (void)q;
    td_fleet_problem(f, "srun", "Slurm does not run on Windows: run fleet on a login node");
    return -1;
}
