/* The memory a training job needs: see memory.h. The formula, per part:
 *   weights     = P x bytes(precision)              (the base weights)
 *   trainable   = T x 4, T = P (full) or P x 2r / h (LoRA on every h x h
 *                 linear: r x (h + h) per matrix), fp32 master copies
 *                 (full fine-tuning in bf16/fp16 keeps them in the
 *                 training precision instead: counted in weights)
 *   grads       = T x 4 (LoRA), T x bytes(precision, at least 2) (full)
 *   optimizer   = T x state_bytes, or for a factored state
 *                 state_bytes x (1/rows + 1/cols) per parameter
 *   activations = batch x sum over stages of blocks x c x tokens x h
 *                 (c = 34 bytes; with checkpointing each block keeps
 *                 2 x tokens x h and one block is recomputed at a time)
 * with the constants from data/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/finding.h"
#include "kb/memory.h"
#include "kb/table.h"

static double num(const char *s)
{
    return kb_empty(s) ? 0 : strtod(s, NULL);
}

double td_mem_precision_bytes(const char *precision)
{
    static const char *const cols[] = {"precision", "bytes_per_param", NULL};
    struct td_table t;
    if (!precision || !td_table_open(&t, "precisions", cols))
        return 0;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), precision) == 0)
            return num(td_table_cell(&t, 1));
    return 0;
}

size_t td_mem_precisions(const char **names, size_t cap)
{
    static const char *const cols[] = {"precision", NULL};
    static char keep[16][16];
    struct td_table t;
    size_t n = 0;
    if (!td_table_open(&t, "precisions", cols))
        return 0;
    while (td_table_next(&t) && n < cap && n < 16) {
        kb_copy(keep[n], sizeof keep[n], td_table_cell(&t, 0));
        names[n] = keep[n];
        n++;
    }
    return n;
}

static bool optimizer(const char *name, double *bytes, bool *factored)
{
    static const char *const cols[] = {"optimizer", "state_bytes", "factored", NULL};
    struct td_table t;
    if (!name || !td_table_open(&t, "optimizers", cols))
        return false;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), name) == 0) {
            *bytes = num(td_table_cell(&t, 1));
            *factored = strcmp(td_table_cell(&t, 2), "yes") == 0;
            return true;
        }
    return false;
}

static double constant(const char *name)
{
    static const char *const cols[] = {"name", "value", NULL};
    struct td_table t;
    if (!td_table_open(&t, "activation_constants", cols))
        return 0;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), name) == 0)
            return num(td_table_cell(&t, 1));
    return 0;
}

/* The workload's model row: its defaults fill E->used. */
static bool model_row(const struct td_mem_job *job, struct td_mem_estimate *e)
{
    static const char *const cols[] = {"workload",   "arch",          "params",    "train",
                                       "resolution", "batch",         "precision", "optimizer",
                                       "lora_rank",  "checkpointing", NULL};
    static char precision[16], opt[16];
    struct td_table t;
    if (!job->workload || !td_table_open(&t, "workload_models", cols))
        return false;
    while (td_table_next(&t)) {
        if (strcmp(td_table_cell(&t, 0), job->workload) != 0)
            continue;
        struct td_mem_job *u = &e->used;
        *u = *job;
        kb_copy(e->arch, sizeof e->arch, td_table_cell(&t, 1));
        e->params = job->params > 0 ? job->params : num(td_table_cell(&t, 2));
        kb_copy(precision, sizeof precision, td_table_cell(&t, 6));
        kb_copy(opt, sizeof opt, td_table_cell(&t, 7));
        if (!u->resolution)
            u->resolution = (int)num(td_table_cell(&t, 4));
        if (!u->batch)
            u->batch = (int)num(td_table_cell(&t, 5));
        if (!u->precision)
            u->precision = precision;
        if (!u->optimizer)
            u->optimizer = opt;
        if (u->lora_rank < 0)
            u->lora_rank =
                strcmp(td_table_cell(&t, 3), "lora") == 0 ? (int)num(td_table_cell(&t, 8)) : 0;
        if (u->checkpointing < 0)
            u->checkpointing = strcmp(td_table_cell(&t, 9), "yes") == 0;
        return true;
    }
    return false;
}

size_t td_mem_shapes(const char *arch, struct td_mem_shape *out, size_t cap)
{
    static const char *const cols[] = {
        "arch",         "stage", "blocks",         "hidden",      "heads", "token_px",
        "extra_tokens", "block", "context_tokens", "context_dim", NULL};
    struct td_table t;
    size_t n = 0;
    if (!arch || !td_table_open(&t, "model_shapes", cols))
        return 0;
    while (td_table_next(&t) && n < cap) {
        if (strcmp(td_table_cell(&t, 0), arch) != 0)
            continue;
        struct td_mem_shape *s = &out[n++];
        memset(s, 0, sizeof *s);
        kb_copy(s->stage, sizeof s->stage, td_table_cell(&t, 1));
        s->blocks = num(td_table_cell(&t, 2));
        s->hidden = num(td_table_cell(&t, 3));
        s->heads = num(td_table_cell(&t, 4));
        s->token_px = num(td_table_cell(&t, 5));
        s->extra = num(td_table_cell(&t, 6));
        kb_copy(s->block, sizeof s->block, td_table_cell(&t, 7));
        s->context_tokens = num(td_table_cell(&t, 8));
        s->context_dim = num(td_table_cell(&t, 9));
    }
    return n;
}

static double gb(double bytes)
{
    return bytes / (1024.0 * 1024.0 * 1024.0);
}

/* The parts for the job in E->used (E's arch and params set). */
static bool compute(struct td_mem_estimate *e, bool explain, char *err, size_t errcap)
{
    const struct td_mem_job *u = &e->used;
    struct td_mem_shape s[8];
    size_t ns = td_mem_shapes(e->arch, s, 8);
    double pb = td_mem_precision_bytes(u->precision), state;
    bool factored;
    if (!pb) {
        snprintf(err, errcap, "--precision %s: not in data/precisions.tsv", u->precision);
        return false;
    }
    if (!optimizer(u->optimizer, &state, &factored)) {
        snprintf(err, errcap, "--optimizer %s: not in data/optimizers.tsv", u->optimizer);
        return false;
    }
    if (!ns) {
        snprintf(err, errcap, "%s: no shapes in data/model_shapes.tsv", e->arch);
        return false;
    }
    /* The widest stage's h stands for every matrix of the network. */
    double h = 0, per_block = constant("bytes_per_token_hidden"),
           kept = constant("checkpoint_bytes_per_token_hidden");
    for (size_t i = 0; i < ns; i++)
        h = s[i].hidden > h ? s[i].hidden : h;
    double r = u->lora_rank, P = e->params;
    double T = r > 0 ? P * 2 * r / h : P;
    double act = 0, biggest = 0;
    e->tokens = 0;
    for (size_t i = 0; i < ns; i++) {
        double side = floor(u->resolution / s[i].token_px);
        double tokens = side * side + s[i].extra;
        double block = per_block * tokens * s[i].hidden * u->batch;
        e->tokens = tokens > e->tokens ? tokens : e->tokens;
        biggest = block > biggest ? block : biggest;
        act += s[i].blocks * (u->checkpointing ? kept * tokens * s[i].hidden * u->batch : block);
    }
    if (u->checkpointing)
        act += biggest; /* the one block recomputed at a time */
    struct td_mem_parts *p = &e->parts;
    e->trainable_params = T;
    p->weights = P * pb;
    p->trainable = r > 0 ? T * 4 : 0;
    p->grads = T * (r > 0 ? 4 : (pb < 2 ? 2 : pb));
    p->optimizer = factored ? T * state * (1.0 / (r > 0 ? r : h) + 1.0 / h) : T * state;
    p->activations = act;
    p->total = p->weights + p->trainable + p->grads + p->optimizer + p->activations;
    if (!explain)
        return true;
    snprintf(e->formula, sizeof e->formula,
             "weights P x %g B (%s) = %.1f GB; %s T = %s%.3g params: %s%.1f GB, "
             "gradients %.1f GB; optimizer (%s) %s = %.1f GB; activations %d x sum(blocks x "
             "%s x tokens x h)%s = %.1f GB (%.0f tokens at %d px)",
             pb, u->precision, gb(p->weights), r > 0 ? "LoRA" : "full fine-tuning",
             r > 0 ? "P x 2r/h = " : "P = ", T, r > 0 ? "fp32 copies " : "", gb(p->trainable),
             gb(p->grads), u->optimizer,
             factored ? "4 B x (rows + cols) per matrix" : "T x state bytes", gb(p->optimizer),
             u->batch, u->checkpointing ? "2 B" : "34 B",
             u->checkpointing ? " + one block recomputed" : "", gb(p->activations), e->tokens,
             u->resolution);
    snprintf(e->assumptions, sizeof e->assumptions,
             "%s with P = %.3g; every weight matrix taken as h x h (h = %.0f) for LoRA and "
             "Adafactor; attention fused (torch SDPA: no s^2 score term); activations 16-bit; "
             "text encoders and VAE cached or off the GPU; CUDA context, allocator "
             "fragmentation and the data loader not counted",
             e->arch, P, h);
    return true;
}

/* The changes tried, in order, when the job does not fit. */
static bool change(int i, struct td_mem_job *u, char *what, size_t cap)
{
    switch (i) {
    case 0:
        if (td_mem_precision_bytes(u->precision) <= 1)
            return false;
        u->precision = "fp8";
        snprintf(what, cap, "--precision fp8 (fp8 base weights)");
        return true;
    case 1:
        if (strcmp(u->optimizer, "adamw") != 0)
            return false;
        u->optimizer = "adamw8bit";
        snprintf(what, cap, "--optimizer adamw8bit");
        return true;
    case 2:
        if (u->checkpointing)
            return false;
        u->checkpointing = 1;
        snprintf(what, cap, "--gradient-checkpointing");
        return true;
    case 3:
        if (u->batch <= 1)
            return false;
        u->batch = 1;
        snprintf(what, cap, "--batch 1");
        return true;
    default:
        return false;
    }
}

/* The first single change that fits, else the first run of changes. */
static void find_fix(struct td_mem_estimate *e)
{
    char err[160];
    struct td_mem_estimate t = *e;
    for (int i = 0; i < 4; i++) {
        t.used = e->used;
        if (change(i, &t.used, t.fix, sizeof t.fix) && compute(&t, false, err, sizeof err) &&
            t.parts.total <= e->capacity) {
            snprintf(e->fix, sizeof e->fix, "%s", t.fix);
            e->fix_total = t.parts.total;
            return;
        }
    }
    t.used = e->used;
    char all[160] = "";
    for (int i = 0; i < 4; i++) {
        char what[64];
        if (!change(i, &t.used, what, sizeof what))
            continue;
        snprintf(all + strlen(all), sizeof all - strlen(all), "%s%s", *all ? " " : "", what);
        if (compute(&t, false, err, sizeof err) && t.parts.total <= e->capacity) {
            snprintf(e->fix, sizeof e->fix, "%s", all);
            e->fix_total = t.parts.total;
            return;
        }
    }
    snprintf(e->fix, sizeof e->fix, "offloading (weights or optimizer state to system RAM)");
    e->fix_total = 0;
}

bool td_mem_estimate(const struct td_mem_job *job, double capacity, struct td_mem_estimate *e,
                     char *err, size_t errcap)
{
    memset(e, 0, sizeof *e);
    if (!model_row(job, e)) {
        snprintf(err, errcap, "workload %s: no row in data/workload_models.tsv",
                 job->workload ? job->workload : "(none)");
        return false;
    }
    e->known = true;
    if (!compute(e, true, err, errcap))
        return false;
    e->capacity = capacity;
    e->fits = capacity > 0 && e->parts.total <= capacity;
    if (capacity > 0 && !e->fits)
        find_fix(e);
    return true;
}

void td_mem_finding(const struct td_mem_estimate *e, const char *device, const char *workload,
                    struct td_findings *f)
{
    if (e->capacity <= 0 || e->fits)
        return;
    double g30 = 1024.0 * 1024.0 * 1024.0;
    char fix[256] = "";
    if (e->fix_total > 0)
        snprintf(fix, sizeof fix, "train with %s: the job then needs %.1f GB", e->fix,
                 e->fix_total / g30);
    else
        snprintf(fix, sizeof fix, "%s", e->fix);
    td_findings_add(f, TD_SEV_ERROR, TD_KIND_INSUFFICIENT_MEMORY, device, workload, NULL,
                    fix[0] ? fix : NULL, "will not fit: needs %.1f GB, %s has %.1f GB",
                    e->parts.total / g30, device, e->capacity / g30);
}
