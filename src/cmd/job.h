/* The options that size a training job, shared by check --workload and
 * bench --workload: their table entries, their values, and the job they
 * make (kb/memory.h), --model read for its parameter count. */
#ifndef TD_CMD_JOB_H
#define TD_CMD_JOB_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/args.h"
#include "kb/memory.h"

struct td_job_args {
    const char *workload, *model, *precision, *optimizer;
    int batch, resolution, lora_rank; /* lora_rank -1: not given */
    bool checkpointing, no_checkpointing;
};

/* --workload's values: "list" (when LIST), then every workload's slug. */
bool td_job_workload_value(size_t i, char *out, size_t cap);
bool td_job_workload_value_no_list(size_t i, char *out, size_t cap);
bool td_job_precision_value(size_t i, char *out, size_t cap);
extern const char *const td_job_optimizers[];

/* The sizing options of T's td_job_args member F (after --workload). */
#define TD_OPT_JOB(T, F)                                                                           \
    {.name = "--model",                                                                            \
     .type = TD_ARG_STRING,                                                                        \
     .value = "PATH",                                                                              \
     .help = "with --workload: take the parameter count from this checkpoint (a .safetensors, "    \
             "an index, a .gguf or a diffusers folder: its transformer or unet)",                  \
     .at = TD_AT(T, F.model, const char *)},                                                       \
        {.name = "--batch",                                                                        \
         .type = TD_ARG_INT,                                                                       \
         .value = "N",                                                                             \
         .min = 1,                                                                                 \
         .max = 4096,                                                                              \
         .help = "with --workload: images per step (default: the workload's)",                     \
         .at = TD_AT(T, F.batch, int)},                                                            \
        {.name = "--resolution",                                                                   \
         .type = TD_ARG_INT,                                                                       \
         .value = "PX",                                                                            \
         .min = 64,                                                                                \
         .max = 16384,                                                                             \
         .help = "with --workload: the image side in pixels (default: the workload's)",            \
         .at = TD_AT(T, F.resolution, int)},                                                       \
        {.name = "--precision",                                                                    \
         .type = TD_ARG_CHOICE,                                                                    \
         .value = "P",                                                                             \
         .values = td_job_precision_value,                                                         \
         .help = "with --workload: the base weights' precision (data/precisions.tsv)",             \
         .at = TD_AT(T, F.precision, const char *)},                                               \
        {.name = "--optimizer",                                                                    \
         .type = TD_ARG_CHOICE,                                                                    \
         .value = "OPT",                                                                           \
         .choices = td_job_optimizers,                                                             \
         .help = "with --workload: the optimizer, whose state is counted (data/optimizers.tsv)",   \
         .at = TD_AT(T, F.optimizer, const char *)},                                               \
        {.name = "--lora-rank",                                                                    \
         .type = TD_ARG_INT,                                                                       \
         .value = "R",                                                                             \
         .min = 0,                                                                                 \
         .max = 4096,                                                                              \
         .help = "with --workload: train a LoRA of this rank; 0 = full fine-tuning",               \
         .at = TD_AT(T, F.lora_rank, int)},                                                        \
        {.name = "--gradient-checkpointing",                                                       \
         .type = TD_ARG_FLAG,                                                                      \
         .help = "with --workload: recompute activations in the backward pass",                    \
         .at = TD_AT(T, F.checkpointing, bool)},                                                   \
    {                                                                                              \
        .name = "--no-gradient-checkpointing", .type = TD_ARG_FLAG,                                \
        .help = "with --workload: keep every activation", .at = TD_AT(T, F.no_checkpointing, bool) \
    }

/* A's job into JOB, --model's header read; false (said on stderr, prefixed
 * "torchdoctor COMMAND: ") on bad usage or an unreadable --model. */
bool td_job_from_args(const struct td_job_args *a, const char *command, struct td_mem_job *job);

#endif
