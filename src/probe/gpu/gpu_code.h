/* The GPU code of the libraries a torch loads: for each library of the
 * import closure that carries CUDA fat binary containers, wherever they
 * lie in the file (format/detect_fatbin.h) (and the sub-libraries
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
    const char **where;      /* beside each of ARCHS: the sections it was found in
                                (".nv_fatbin .ldata") */
    size_t entries;          /* fat binary entries read */
    size_t containers;       /* fat binary containers read */
    bool whole;              /* every entry was read; false: reading stopped once every GPU asked
                                about had SASS that runs on it (ARCHS is then a part) */
    const char *error;       /* a malformed header: ARCHS is what came before it; or why the
                                file could not be read (td_gpu_code_read's -1) */
    const char *package; /* the wheel whose RECORD lists it ("nvidia-cublas 13.1.0.3"), or NULL */
    const uint8_t *verdicts; /* per GPU of the probe (enum td_gpu_code_verdict), or NULL */
    const char **need;       /* beside VERDICTS: PTX_TOO_NEW's CUDA ("13.1"), else NULL */
};

/* How a library's code serves one GPU (td_gpu_code_judge). */
enum td_gpu_code_verdict {
    TD_GPU_CODE_NATIVE,  /* SASS that runs on it */
    TD_GPU_CODE_PTX_JIT, /* only PTX, JIT-compiled by the driver at each kernel's first launch */
    TD_GPU_CODE_PTX_TOO_NEW, /* only PTX, of an ISA newer than the driver loads */
    TD_GPU_CODE_NONE,        /* neither SASS nor PTX for it: "no kernel image is available" */
};

/* What besides the code decides a verdict: the newest CUDA the driver runs
 * (NULL: unknown, PTX given the benefit of the doubt) and the driver's JIT
 * switches (data/env_vars.tsv: CUDA_FORCE_PTX_JIT counts only PTX,
 * CUDA_DISABLE_PTX_JIT only SASS). */
struct td_gpu_code_env {
    const char *driver_cuda;
    bool force_ptx_jit, disable_ptx_jit;
};

/* The verdict of C's architectures for a GPU of compute capability
 * MAJOR.MINOR (data/gpu_code_rules.tsv through td_kb_arch_fit); NEED gets
 * the CUDA a PTX_TOO_NEW verdict asks for. A library with no
 * architecture (or read in part: it stopped at SASS for every GPU) is
 * NATIVE. */
enum td_gpu_code_verdict td_gpu_code_judge(const struct td_gpu_code *c, int major, int minor,
                                           const struct td_gpu_code_env *env, char *need,
                                           size_t cap);

/* "native", "ptx_jit", "ptx_too_new", "no_code". */
const char *td_gpu_code_verdict_name(enum td_gpu_code_verdict v);

/* Judges each of the N libraries of C for every GPU of GPU (their
 * VERDICTS and NEED, in ARENA). */
void td_gpu_code_judge_all(struct td_gpu_code *c, size_t n, const struct td_gpu_info *gpu,
                           const struct td_gpu_code_env *env, struct td_arena *arena);

/* The newest CUDA GPU's driver runs, into OUT: what it said
 * (cuDriverGetVersion), else what data/cuda_driver_minimums.tsv says its
 * version supports on OS; NULL when neither is known. */
const char *td_gpu_driver_cuda(const struct td_gpu_info *gpu, const char *os, char *out,
                               size_t cap);

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
