/* The training job's options (cmd/job.h), shared by check and bench. */
#include <stdio.h>
#include <string.h>

#include "cmd/job.h"
#include "kb/kb.h"
#include "loader/model.h"

static bool workload_slug(size_t i, char *out, size_t cap)
{
    struct td_kb_workload w[64];
    size_t n = td_kb_workloads(w, 64);
    if (i < n && i < 64)
        snprintf(out, cap, "%s", w[i].slug);
    return i < n && i < 64;
}

bool td_job_workload_value(size_t i, char *out, size_t cap)
{
    if (i == 0) {
        snprintf(out, cap, "list");
        return true;
    }
    return workload_slug(i - 1, out, cap);
}

bool td_job_workload_value_no_list(size_t i, char *out, size_t cap)
{
    return workload_slug(i, out, cap);
}

bool td_job_precision_value(size_t i, char *out, size_t cap)
{
    const char *names[16];
    size_t n = td_mem_precisions(names, 16);
    if (i < n)
        snprintf(out, cap, "%s", names[i]);
    return i < n;
}

const char *const td_job_optimizers[] = {"adamw", "adamw8bit", "adafactor", NULL};

/* The trained network of a checkpoint: its transformer or unet, else its
 * largest component. */
static double model_params(const struct td_model *m)
{
    const struct td_model_component *best = &m->comps[0];
    for (unsigned i = 0; i < m->ncomps; i++) {
        const char *n = m->comps[i].name;
        if (strcmp(n, "transformer") == 0 || strcmp(n, "unet") == 0)
            return (double)m->comps[i].params;
        if (m->comps[i].params > best->params)
            best = &m->comps[i];
    }
    return (double)best->params;
}

bool td_job_from_args(const struct td_job_args *a, const char *command, struct td_mem_job *job)
{
    bool any = a->model || a->batch || a->resolution || a->precision || a->optimizer ||
               a->lora_rank >= 0 || a->checkpointing || a->no_checkpointing;
    if (any && !a->workload) {
        fprintf(stderr,
                "torchdoctor %s: --model, --batch, --resolution, --precision, --optimizer, "
                "--lora-rank and --gradient-checkpointing need --workload\n",
                command);
        return false;
    }
    if (a->checkpointing && a->no_checkpointing) {
        fprintf(stderr,
                "torchdoctor %s: --gradient-checkpointing and --no-gradient-checkpointing "
                "contradict each other\n",
                command);
        return false;
    }
    *job = (struct td_mem_job){.workload = a->workload,
                               .batch = a->batch,
                               .resolution = a->resolution,
                               .precision = a->precision,
                               .optimizer = a->optimizer,
                               .lora_rank = a->lora_rank,
                               .checkpointing = a->checkpointing      ? 1
                                                : a->no_checkpointing ? 0
                                                                      : -1};
    if (!a->model)
        return true;
    static struct td_model m;
    struct td_arena arena = {0};
    struct td_err err = {0};
    bool ok = td_model_read(a->model, &m, &arena, &err) == 0;
    if (ok)
        job->params = model_params(&m);
    else
        fprintf(stderr, "torchdoctor %s: --model: %s\n", command, err.msg);
    td_arena_free(&arena);
    return ok;
}
