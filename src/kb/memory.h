/* The memory a training job needs (check --workload): weights, trainable
 * copies and gradients, optimizer state and activations, each from the
 * tables precisions, optimizers, activation_constants, model_shapes and
 * workload_models, held against the GPU's memory (or RAM). */
#ifndef TD_KB_MEMORY_H
#define TD_KB_MEMORY_H

#include <stdbool.h>
#include <stddef.h>

/* What was asked; 0 / NULL / -1 fields take the workload's default. */
struct td_mem_job {
    const char *workload;  /* slug of workload_models */
    double params;         /* the trained network's parameters (--model); 0: the table's */
    int batch, resolution; /* 0: default */
    const char *precision; /* of the base weights: bf16, fp16, fp8, nf4, fp32 */
    const char *optimizer; /* adamw, adamw8bit, adafactor */
    int lora_rank;         /* -1: default; 0: full fine-tuning */
    int checkpointing;     /* -1: default; 0 off; 1 on */
};

struct td_mem_parts {
    double weights, trainable, grads, optimizer, activations, total; /* bytes */
};

struct td_mem_estimate {
    bool known; /* the workload has a model row */
    char arch[32];
    struct td_mem_job used; /* the job with its defaults filled in */
    double params, trainable_params, tokens;
    struct td_mem_parts parts;
    double capacity; /* bytes; 0 = unknown */
    bool fits;
    char fix[160];      /* the first change that makes it fit ("--precision fp8"), or "" */
    double fix_total;   /* bytes with that change */
    char formula[1024]; /* the formula with the numbers put in */
    char assumptions[768];
};

/* Fills E for JOB against CAPACITY bytes (0: no verdict). False when the
 * workload has no model row, or an option's value is not in a table (ERR
 * gets the message). */
bool td_mem_estimate(const struct td_mem_job *job, double capacity, struct td_mem_estimate *e,
                     char *err, size_t errcap);

/* One stage of an architecture's blocks (data/model_shapes.tsv). */
struct td_mem_shape {
    char stage[32], block[16]; /* "double-stream", "double" | "single" | "unet" */
    double blocks, hidden, heads, token_px, extra, context_tokens, context_dim;
};
/* The stages of ARCH, at most CAP; their count (0: unknown arch). */
size_t td_mem_shapes(const char *arch, struct td_mem_shape *out, size_t cap);

struct td_findings;
/* An insufficient_memory error into F when E does not fit its capacity,
 * with the first change that fits as the fix. */
void td_mem_finding(const struct td_mem_estimate *e, const char *device, const char *workload,
                    struct td_findings *f);

/* Bytes per parameter at PRECISION (precisions table); 0 when unknown. */
double td_mem_precision_bytes(const char *precision);
/* The precisions table's names in order (for tables and --help); count. */
size_t td_mem_precisions(const char **names, size_t cap);

#endif
