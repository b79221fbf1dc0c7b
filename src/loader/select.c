/* Which loader model a target gets (td_loader_ops_for), set up and torn
 * down: the one file above the models, which themselves use only the
 * shared parts of loader.c. */
#include <string.h>

#include "loader/loader.h"

const struct td_loader_ops *td_loader_ops_for(enum td_platform platform)
{
    return platform == TD_PLATFORM_WINDOWS ? &td_loader_windows
           : platform == TD_PLATFORM_MACOS ? &td_loader_macos
                                           : &td_loader_linux;
}

int td_loader_init(struct td_loader *L, const struct td_loader_config *cfg, struct td_err *err)
{
    memset(L, 0, sizeof *L);
    L->cfg = cfg;
    L->ops = td_loader_ops_for(cfg->platform);
    return L->ops->init ? L->ops->init(L, err) : 0;
}

void td_loader_fini(struct td_loader *L)
{
    if (L->ops && L->ops->fini)
        L->ops->fini(L);
    td_arena_free(&L->arena);
}
