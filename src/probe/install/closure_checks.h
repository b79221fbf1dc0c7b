/* Checks of an installed torch that need its import closure (the graph
 * diagnose.c builds): which copy of a library the loader takes, which
 * installed packages own the files it maps. */
#ifndef TD_PROBE_CLOSURE_CHECKS_H
#define TD_PROBE_CLOSURE_CHECKS_H

#include "graph/graph.h"
#include "probe/probe.h"

/* One stray_file finding per leftover library of T (td_torch.leftovers),
 * naming the copy the closure G maps for that library, and whether the
 * leftover itself is loaded (probe/install/torch_leftovers.c). */
void td_torch_leftovers(const struct td_torch *t, const struct td_graph *g, struct td_findings *f);

/* A conda environment (PY's prefix has conda-meta/): every package whose
 * conda-meta record lists a file of G or a file inside T's folder has each
 * of its files checked against paths_data as td_torch_integrity checks
 * RECORD rows (size; SHA-256 when changed since the record was written or
 * up to HASH_LIMIT bytes), and a conda torch's folder is walked for files
 * no record lists (probe/install/torch_integrity.c). */
void td_conda_integrity(const struct td_probe_ctx *ctx, struct td_torch *t,
                        const struct td_python *py, const struct td_graph *g, uint64_t hash_limit,
                        struct td_findings *f);

/* A Debian torch (T's dist_info a dpkg .list): each package that ships a
 * file a link of T's lib/ names (found in /var/lib/dpkg/info/NAME.list,
 * as `dpkg -S` finds it) has its files checked against its md5sums as
 * td_torch_integrity checks python3-torch's; a link of lib/ that resolves
 * to nothing is an error when G loads or searches for it, an info naming
 * the package to reinstall when not (probe/install/torch_integrity.c). */
void td_debian_integrity(const struct td_probe_ctx *ctx, struct td_torch *t,
                         const struct td_graph *g, uint64_t hash_limit, struct td_findings *f);

#endif
