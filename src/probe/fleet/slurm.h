/* fleet --slurm: `srun -l --ntasks-per-node=1 [SRUN-ARGS] TORCHDOCTOR check
 * --format jsonl` run once, its labelled lines collected as they arrive,
 * the nodes whose task failed or did not finish in time recorded as such
 * from srun's own messages ("srun: error: NODE: task N: ..."). */
#ifndef TD_PROBE_FLEET_SLURM_H
#define TD_PROBE_FLEET_SLURM_H

#include <stdbool.h>

#include "probe/fleet/fleet.h"

struct td_fleet_slurm_request {
    const char *srun;             /* the srun program; NULL: "srun" on PATH */
    const char *program;          /* torchdoctor as the nodes find it */
    const char *const *srun_args; /* SRUN-ARGS, NULL-terminated */
    bool bench;                   /* also `bench --quick --format jsonl` on every node */
    int timeout_s;                /* then srun is stopped; its unfinished nodes timed out */
    /* Called as lines arrive: reports so far, srun's error lines so far. */
    void (*progress)(void *ctx, unsigned long reports, unsigned long errors);
    void *progress_ctx;
};

/* Runs it and reads what came back into F. Returns 0, or -1 when srun
 * could not be run at all (the reason recorded as a problem in F). */
int td_fleet_slurm(const struct td_fleet_slurm_request *q, struct td_fleet *f);

#endif
