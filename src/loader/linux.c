/* The linux loader model (being written; see src/loader/loader.h). */
#include "loader/loader.h"

static int resolve(struct td_loader *L, struct td_object *requester, const char *name, bool delay,
                   const struct td_loaded *loaded, struct td_resolution *out, struct td_err *err)
{
    td_err_set(err, "the linux loader model is not built yet");
    return -1;
}

const struct td_loader_ops td_loader_linux = {"linux", NULL, resolve, NULL};
