/* The GPU code of the libraries a torch loads: for each library of the
 * import closure that carries a CUDA fat binary (and the sub-libraries
 * data/cuda_sublibraries.tsv says it loads itself, cuDNN 9's), the
 * distinct architectures of its entries, read from the entry headers
 * alone. check holds them against the GPU (probe/rules_gpu_code.c). */
#ifndef TD_PROBE_GPU_CODE_H
#define TD_PROBE_GPU_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "graph/graph.h"
#include "probe/probe.h"

struct td_gpu_code {
    const char *path;   /* the library, as the target names it */
    const char *via;    /* NULL: in the closure; else the library that loads it (libcudnn.so.9) */
    const char **archs; /* "sm_80", "sm_90a", "compute_120": distinct, first seen */
    size_t n_archs;
    const uint16_t *ptx_isa; /* beside each of ARCHS: a PTX arch's lowest PTX ISA version
                                (major << 8 | minor, 0x901 for 9.1); 0 for SASS */
    size_t entries;          /* fat binary entries read */
    bool whole;              /* every entry was read; false: reading stopped once every GPU asked
                                about had SASS that runs on it (ARCHS is then a part) */
    const char *error;       /* a malformed header: ARCHS is what came before it; or why the
                                file could not be read (td_gpu_code_read's -1) */
    const char *package; /* the wheel whose RECORD lists it ("nvidia-cublas 13.1.0.3"), or NULL */
};

/* Which GPUs the reading is for: it stops at the first point where each
 * of them has SASS that runs on it (the common case: a few entries into
 * the file), and reads every entry otherwise (N 0: always). */
struct td_gpu_code_for {
    const struct td_gpu *gpus;
    size_t n;
};

/* The architectures of the fat binary of HOST (an ELF or PE file) into
 * OUT (strings in ARENA; path and via left to the caller). 1 when it has
 * one, 0 when it has none, -1 when the file cannot be read or parsed. */
int td_gpu_code_read(const char *host, const struct td_gpu_code_for *q, struct td_arena *arena,
                     struct td_gpu_code *out);

/* Every library of G with a fat binary, in load order, each loaded
 * library's sub-libraries after it. Returns the count; *OUT in ARENA. */
size_t td_gpu_code_of_closure(const struct td_graph *g, const struct td_gpu_code_for *q,
                              struct td_arena *arena, struct td_gpu_code **out);

/* Names the package of each of the N libraries in C read whole (the
 * others run on every GPU): the wheel beside torch T whose RECORD lists
 * it, each RECORD read once and only when there is a library to name. */
void td_gpu_code_packages(const struct td_probe_ctx *ctx, const struct td_torch *t,
                          struct td_gpu_code *c, size_t n);

#endif
