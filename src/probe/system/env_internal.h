/* Shared by the environment probe's files (the *_linux.c of src/probe/system):
 * small reads under the probe root. Internal to src/probe/system. */
#ifndef TD_PROBE_SYSTEM_ENV_INTERNAL_H
#define TD_PROBE_SYSTEM_ENV_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "probe/system/environment.h"

/* Target PATH's first CAP-1 bytes, into OUT, trailing white space cut; false when unreadable. */
bool td_env_read(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap);

/* Calls EACH for every entry of target directory DIR (not "." or ".."), in
 * name order, until it returns false; how many it was called for. */
size_t td_env_each_entry(const struct td_probe_ctx *ctx, const char *dir,
                         bool (*each)(void *cookie, const char *name), void *cookie);

/* The dpkg package whose /var/lib/dpkg/info/<pkg>.list names target FILE
 * ("libnvidia-compute-535" without an ":arch"), in the arena; NULL when none. */
const char *td_env_dpkg_owner(const struct td_probe_ctx *ctx, const char *file);

void td_probe_passthrough(const struct td_probe_ctx *ctx, struct td_environment *e);
void td_probe_wsl(const struct td_probe_ctx *ctx, struct td_environment *e);
void td_probe_limits(const struct td_probe_ctx *ctx, struct td_environment *e);

#endif
