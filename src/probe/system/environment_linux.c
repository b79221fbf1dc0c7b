/* What the system is: bare metal, a VM, a container or WSL, each from the
 * markers of data/machine_markers.tsv that matched (all of them kept as
 * evidence); then the GPU passthrough, WSL and limit probes. The small
 * file helpers those probes share are env_files_linux.c's, below them all. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_util.h"
#include "probe/system/env_internal.h"

/* ---- what we are in ---- */

struct collect {
    struct td_environment *e;
    struct td_arena *arena;
};

static void seen(void *cookie, const char *probe, const char *value, const char *evidence)
{
    struct collect *c = cookie;
    if (c->e->n_evidence >= TD_ENV_MAX_EVIDENCE)
        return;
    struct td_env_evidence *x = &c->e->evidence[c->e->n_evidence++];
    x->probe = probe; /* a literal of this file */
    x->value = td_arena_strdup(c->arena, value);
    x->evidence = td_arena_strdup(c->arena, evidence);
}

void td_probe_environment(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    memset(e, 0, sizeof *e);
    e->probed = true;
    struct collect c = {e, ctx->arena};
    const char *wsl = td_probe_markers(ctx, "wsl", seen, &c);
    e->container = td_probe_markers(ctx, "container", seen, &c);
    e->vm = td_probe_markers(ctx, "vm", seen, &c);
    e->wsl = wsl ? atoi(wsl) : 0;
    if (e->wsl)
        e->kind = e->wsl == 1 ? "wsl1" : "wsl2";
    else if (e->container)
        e->kind = e->container;
    else
        e->kind = e->vm ? "vm" : "bare_metal";
    td_probe_passthrough(ctx, e);
    td_probe_wsl(ctx, e);
    td_probe_limits(ctx, e);
}
