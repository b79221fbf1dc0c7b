/* What bench --workload runs for a job (the memory estimate's job): one
 * block of each stage of the architecture at the job's shapes, its FLOPs
 * per training step, and the thresholds of the verdicts
 * (data/model_shapes.tsv, data/workload_bench.tsv). */
#ifndef TD_KB_STEP_H
#define TD_KB_STEP_H

#include <stdbool.h>
#include <stddef.h>

#include "kb/memory.h"

enum { TD_STEP_STAGES = 8 };

struct td_step_stage {
    char name[32];  /* "double-stream" */
    char block[16]; /* "double", "single", "unet" */
    int blocks;     /* in the whole network */
    int hidden, heads;
    int image_tokens, text_tokens; /* the sequence: image tokens (side x side) + text */
    int side;                      /* image tokens per side */
    int context_tokens, context_dim;
    double flops; /* one block, one training step (forward and backward), the whole batch */
};

struct td_step_plan {
    size_t n;
    struct td_step_stage stages[TD_STEP_STAGES];
    int batch;
    const char *dtype;  /* what the step computes in: "bf16", "fp16", "fp32" */
    int lora_rank;      /* 0: full fine-tuning */
    bool checkpointing; /* the forward pass runs twice */
    bool overridden;    /* --hidden or --tokens changed the shapes */
    double passes;      /* forward-pass equivalents a step costs */
    double flops;       /* the whole network: sum over stages of blocks x flops */
    char formula[512];  /* the FLOPs formula, in words */
};

/* The plan for the job estimated in E (its arch and used settings); HIDDEN
 * and TOKENS > 0 replace every stage's width and image tokens (a quick
 * trial: the extrapolation is then of that shape). False with ERR when the
 * architecture has no shapes. */
bool td_step_plan(const struct td_mem_estimate *e, int hidden, int tokens, struct td_step_plan *p,
                  char *err, size_t errcap);

/* A row of data/workload_bench.tsv ("gpu_efficiency", "drift_pct", ...);
 * 0 when absent. SOURCE, when not NULL, gets the row's source. */
double td_step_threshold(const char *name, char *source, size_t cap);

#endif
