/* Internal to the torch probe (torch.c, torch_integrity.c, companions.c):
 * one site directory's entries, read once, and the steps td_probe_torch
 * runs for each installation. */
#ifndef TD_PROBE_TORCH_INTERNAL_H
#define TD_PROBE_TORCH_INTERNAL_H

#include "probe/install/commands.h"
#include "probe/probe.h"

/* A site directory's entry names, sorted; read once per probe. */
struct td_site_listing {
    const char *dir;
    char **names;
    size_t n;
};

/* The .dist-info folder of distribution NAME (escaped as its folder is:
 * "torch", "nvidia_cudnn_cu12") in L, as a path, or NULL. PREFIX true
 * matches every distribution whose name starts with NAME; *FROM (when not
 * NULL) is where to continue the search, updated past the match. */
const char *td_site_dist_info(const struct td_probe_ctx *ctx, const struct td_site_listing *l,
                              const char *name, bool prefix, size_t *from);

/* INSTALLER of a .dist-info ("pip", "uv"), or NULL (dist_info.c, as the
 * one above). */
const char *td_dist_info_installer(const struct td_probe_ctx *ctx, const char *dist_info);

/* Size and hash check against RECORD (pip/uv/conda wheels) or dpkg's
 * md5sums (Debian), then the stray-file walk of T->dir against the same
 * manifest. Findings go to F; T's record counters are filled. */
void td_torch_integrity(const struct td_probe_ctx *ctx, struct td_torch *t, const char *python_exe,
                        const char *python_prefix, uint64_t hash_limit, struct td_findings *f);

/* Fills T's companions from the listings LS of the sys.path entries of
 * interpreter PY, in path order (the first copy of each distribution is
 * the one imported; each later one is a multiple_installs finding), and
 * checks each pairing against data/torch_companions.tsv (companions.c). */
void td_torch_companions(const struct td_probe_ctx *ctx, struct td_torch *t,
                         const struct td_site_listing *const *ls, size_t n_ls,
                         const struct td_python *py, struct td_findings *f);

/* The pairing check alone: a companion_mismatch finding when P is not the
 * release data/torch_companions.tsv pairs with torch TORCH_VERSION. Returns
 * true when the table says anything about this pair. */
bool td_companion_check(const char *torch_version, const struct td_package *p,
                        const char *python_exe, const char *python_prefix, struct td_findings *f);

/* Torch's variant (local tag "cu124", "cpu", "rocm6.2", "xpu"; PyPI's
 * untagged wheels by torch.version.cuda) against its companions': a
 * companion_mismatch per companion of another variant, whose fix installs
 * the set from torch's index; a cuda_runtime_mismatch per nvidia-*-cuNN
 * wheel of another CUDA major. */
void td_torch_variant_check(const struct td_torch *t, const char *python_exe,
                            const char *python_prefix, struct td_findings *f);

/* Every pin of the distributions in L that matter to torch, held against
 * what L has installed (pins.c): a companion_mismatch per violated pin,
 * recorded in T->pins. */
void td_torch_pins(const struct td_probe_ctx *ctx, struct td_torch *t,
                   const struct td_site_listing *l, const struct td_python *py,
                   struct td_findings *f);

/* One assignment of torch/version.py TEXT ("cuda: Optional[str] = '12.1'"):
 * the quoted value of KEY (ARENA), NULL for None or when absent. */
const char *td_version_py_value(struct td_arena *a, const char *text, const char *key);

#endif
