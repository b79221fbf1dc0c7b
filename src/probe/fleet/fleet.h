/* `torchdoctor fleet`: many nodes' check and bench reports read back, each
 * node's environment reduced to a fingerprint (driver, CUDA runtime, torch,
 * NCCL, GPU model and count, kernel, glibc, Python), nodes grouped by it,
 * every group that differs from the majority named with what differs, and
 * nodes slow beside the fleet's median flagged. The reading is a pull parse
 * that takes only those fields (base/json.h); every string is interned, so
 * 10,000 identical nodes cost one copy of each value (docs/fleet.md). */
#ifndef TD_PROBE_FLEET_H
#define TD_PROBE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/finding.h"

/* The fingerprint's fields, in the order a diff lists them. */
enum td_fleet_field {
    TD_FLEET_DRIVER,
    TD_FLEET_GPU_COUNT,
    TD_FLEET_GPU_MODEL,
    TD_FLEET_CUDA_RUNTIME,
    TD_FLEET_TORCH,
    TD_FLEET_NCCL,
    TD_FLEET_PYTHON,
    TD_FLEET_GLIBC,
    TD_FLEET_KERNEL,
    TD_FLEET_FIELDS
};
/* "driver", "gpu_count", ... as JSON keys. */
const char *td_fleet_field_name(enum td_fleet_field f);

/* bench figures compared across nodes (higher is better for all). */
enum td_fleet_metric {
    TD_FLEET_GPU_FMA,      /* the slowest GPU's FP32 FMA, GFLOP/s */
    TD_FLEET_GPU_H2D,      /* the slowest GPU's pinned host-to-device copy, GB/s */
    TD_FLEET_TORCH_MATMUL, /* torch's FP32 matmul */
    TD_FLEET_CPU_GEMM,     /* our FP32 GEMM on all cores */
    TD_FLEET_MEM_TRIAD,    /* memory triad bandwidth */
    TD_FLEET_METRICS
};
const char *td_fleet_metric_name(enum td_fleet_metric m);
const char *td_fleet_metric_unit(enum td_fleet_metric m);

enum td_fleet_state {
    TD_FLEET_OK,        /* a check report was read */
    TD_FLEET_NO_CHECK,  /* only a bench report named this host */
    TD_FLEET_FAILED,    /* the node's task failed (fleet --slurm) */
    TD_FLEET_TIMED_OUT, /* the node's task did not finish in time */
    TD_FLEET_MISSING,   /* expected (--expect, srun -w) but no report named it */
};
const char *td_fleet_state_name(enum td_fleet_state s);

struct td_fleet_node {
    const char *host;                    /* interned */
    const char *source;                  /* where its check report came from */
    const char *fields[TD_FLEET_FIELDS]; /* interned; NULL: not reported */
    enum td_fleet_state state;
    const char *state_detail;           /* srun's words for a failed node */
    size_t errors, warnings;            /* its own findings' counts */
    const char *error_kind, *error_fix; /* the first error finding */
    double bench[TD_FLEET_METRICS];     /* < 0: not measured */
    unsigned slow;                      /* bit per metric: slow beside the fleet */
    size_t group;
};

struct td_fleet_group {
    size_t *nodes; /* indices into td_fleet.nodes, hosts sorted */
    size_t n;
    const char *hosts;         /* the node set, folded (gpu[001-063]) */
    const char *const *fields; /* the shared fingerprint (one member's) */
    unsigned differs;          /* bit per field that differs from the majority */
    const char *fix;           /* the one fix for the group; NULL: none needed */
    const char *fix_why;       /* what the fix is for */
};

/* A report that could not be read: the file (and line or task) and why. */
struct td_fleet_problem {
    const char *where, *what;
};

struct td_fleet {
    struct td_fleet_node *nodes;
    size_t n_nodes, cap_nodes;
    struct td_fleet_group *groups; /* largest first; groups[0] is the majority */
    size_t n_groups;
    struct td_fleet_problem *problems;
    size_t n_problems, cap_problems;
    size_t reports_read;
    bool timed_out; /* fleet --slurm stopped srun: expected nodes left are timed out */
    double median[TD_FLEET_METRICS], mad[TD_FLEET_METRICS];
    size_t measured[TD_FLEET_METRICS]; /* how many nodes have the figure */
    struct td_findings findings;
    struct td_arena arena;
    struct td_fleet_intern *intern; /* private */
};

/* Reads every report in TEXT[0..LEN) (one JSON document, JSON Lines, or
 * documents one after another; `srun -l` labels "12: " taken off and
 * their tasks' lines kept apart). WHERE names the input in problems
 * ("a.json", "stdin"). Returns how many reports were read. */
size_t td_fleet_read(struct td_fleet *f, const char *where, const char *text, size_t len);
/* Records a node whose task failed or timed out (fleet --slurm). */
void td_fleet_mark(struct td_fleet *f, const char *host, enum td_fleet_state state,
                   const char *detail);
/* The nodes a hostlist expression names are expected: each one that no
 * report names is reported missing. NULL, or what is wrong with EXPR. */
const char *td_fleet_expect(struct td_fleet *f, const char *expr);
/* Records a report that could not be read. */
void td_fleet_problem(struct td_fleet *f, const char *where, const char *what);

/* Groups, majority, diffs, slow nodes, fixes and findings. */
void td_fleet_analyze(struct td_fleet *f);
/* Names the nodes N[0..count) as one folded hostlist expression. */
const char *td_fleet_hosts(struct td_fleet *f, const size_t *n, size_t count);
void td_fleet_free(struct td_fleet *f);

#endif
