/* File helpers shared by the Python and torch probes (python.c, torch*.c,
 * companions.c): target paths (as the probed system names them) read under
 * ctx->root, symlinks resolved under the root, small text files read
 * whole. Internal to src/probe. */
#ifndef TD_PROBE_PYFS_H
#define TD_PROBE_PYFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "probe/probe.h"

enum { TD_PYFS_PATH_MAX = 4096 };

/* The host path of target PATH: ctx->root + PATH, or PATH itself when the
 * root is NULL or "/". NULL when it does not fit. */
const char *td_pyfs_host(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap);

/* stat / lstat of a target path; false when it does not exist. */
bool td_pyfs_stat(const struct td_probe_ctx *ctx, const char *path, struct stat *st);
bool td_pyfs_lstat(const struct td_probe_ctx *ctx, const char *path, struct stat *st);
bool td_pyfs_is_dir(const struct td_probe_ctx *ctx, const char *path);
bool td_pyfs_is_file(const struct td_probe_ctx *ctx, const char *path);

/* "A/B" in the arena (B may start with "/"; no double slash). */
char *td_pyfs_join(struct td_arena *a, const char *dir, const char *name);

/* Resolves every symlink of target PATH under the root, as realpath(3)
 * would on the probed system (absolute link targets stay inside the
 * root). Arena string, or NULL when a component is missing or links loop. */
char *td_pyfs_realpath(const struct td_probe_ctx *ctx, const char *path);

/* Reads at most MAX bytes of target PATH into malloc'd memory with a NUL
 * after them; *LEN gets the length. NULL when unreadable. */
char *td_pyfs_read(const struct td_probe_ctx *ctx, const char *path, size_t max, size_t *len);

/* PATH, a path of this machine, with '/' separators ("C:\\x" -> "C:/x" on
 * Windows; unchanged elsewhere). */
char *td_pyfs_from_host(struct td_arena *a, const char *path);
/* The directory part of PATH ("/usr/bin/python3" -> "/usr/bin"; "/x" -> "/"). */
char *td_pyfs_dirname(struct td_arena *a, const char *path);

/* PATH with '/' for '\\' and its "." and "dir/.." steps taken lexically
 * (the loader names a file found through $ORIGIN/../.. by that spelling);
 * in A. */
char *td_pyfs_lexical(struct td_arena *a, const char *path);
const char *td_pyfs_basename(const char *path);

/* Variable NAME of the probed environment (ctx->envp, else this
 * process's); NULL when unset. */
const char *td_pyfs_env(const struct td_probe_ctx *ctx, const char *name);

/* The user's home directory: ctx->home, else $HOME; NULL when unknown. */
const char *td_pyfs_home(const struct td_probe_ctx *ctx);

#endif
