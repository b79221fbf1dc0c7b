/* bench --workload's plan: see step.h. The FLOPs of one block's forward
 * pass, with s = image + text tokens, h the width, b the batch (a matrix
 * product of m x k by k x n is 2mkn operations):
 *   double, single: 24 h^2 s b (QKV 3h^2, output h^2, MLP 8h^2 per token)
 *                   + 4 s^2 h b (scores and their product with V)
 *   unet:           72 h^2 s b (two 3x3 convolutions 36 h^2, self-attention
 *                   4 h^2, cross-attention query and output 2 h^2, GEGLU
 *                   12 h^2 per token, times 2) + 4 s^2 h b + 4 s c h b
 *                   + 4 c d h b (c context tokens of width d: keys, values)
 * A training step is 3 forward passes with every weight trained (the
 * backward pass computes the inputs' and the weights' gradients), 2 with
 * frozen weights and LoRA adapters (the inputs' gradients only; the
 * adapters' own products are small), one more with checkpointing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kb/step.h"
#include "kb/table.h"

/* The whole square root of N (a square grid of about N tokens). */
static int isqrt(int n)
{
    int r = 0;
    while ((long long)(r + 1) * (r + 1) <= n)
        r++;
    return r;
}

static double block_flops(const struct td_step_stage *s, int batch)
{
    double h = s->hidden, n = s->image_tokens + s->text_tokens, b = batch;
    if (strcmp(s->block, "unet") == 0)
        return (72 * h * h * n + 4 * n * n * h + 4 * n * s->context_tokens * h +
                4.0 * s->context_tokens * s->context_dim * h) *
               b;
    return (24 * h * h * n + 4 * n * n * h) * b;
}

/* The dtype a step computes in: the base weights' 16-bit type, bf16 for
 * quantised weights (fp8, nf4: dequantised to bf16 to compute, as
 * ai-toolkit and SimpleTuner train), fp32 for fp32. */
static const char *compute_dtype(const char *precision)
{
    if (precision && strcmp(precision, "fp16") == 0)
        return "fp16";
    if (precision && strcmp(precision, "fp32") == 0)
        return "fp32";
    return "bf16";
}

bool td_step_plan(const struct td_mem_estimate *e, int hidden, int tokens, struct td_step_plan *p,
                  char *err, size_t errcap)
{
    struct td_mem_shape s[TD_STEP_STAGES];
    size_t n = td_mem_shapes(e->arch, s, TD_STEP_STAGES);
    const struct td_mem_job *u = &e->used;
    memset(p, 0, sizeof *p);
    if (!n) {
        snprintf(err, errcap, "%s: no shapes in data/model_shapes.tsv", e->arch);
        return false;
    }
    p->batch = u->batch > 0 ? u->batch : 1;
    p->dtype = compute_dtype(u->precision);
    p->lora_rank = u->lora_rank > 0 ? u->lora_rank : 0;
    p->checkpointing = u->checkpointing > 0;
    p->overridden = hidden > 0 || tokens > 0;
    p->passes = (p->lora_rank ? 2 : 3) + (p->checkpointing ? 1 : 0);
    for (size_t i = 0; i < n; i++) {
        struct td_step_stage *t = &p->stages[p->n++];
        int head_dim = s[i].heads > 0 ? (int)(s[i].hidden / s[i].heads) : 64;
        kb_copy(t->name, sizeof t->name, s[i].stage);
        kb_copy(t->block, sizeof t->block, s[i].block);
        t->blocks = (int)s[i].blocks;
        t->hidden = hidden > 0 ? hidden : (int)s[i].hidden;
        t->heads = hidden > 0 ? (head_dim > 0 && hidden % head_dim == 0 ? hidden / head_dim : 1)
                              : (int)s[i].heads;
        t->heads = t->heads > 0 ? t->heads : 1;
        t->side = tokens > 0 ? isqrt(tokens) : (int)(u->resolution / s[i].token_px);
        t->side = t->side > 0 ? t->side : 1;
        t->image_tokens = t->side * t->side;
        t->text_tokens = (int)s[i].extra;
        t->context_tokens = (int)s[i].context_tokens;
        t->context_dim = (int)s[i].context_dim;
        t->flops = block_flops(t, p->batch) * p->passes;
        p->flops += t->blocks * t->flops;
    }
    snprintf(p->formula, sizeof p->formula,
             "per block forward: 24 h^2 s + 4 s^2 h (transformer), 72 h^2 s + 4 s^2 h + 4 s c h "
             "+ 4 c d h (U-Net ResNet and transformer block), times the batch %d; a step is %g "
             "forward passes (%s%s)",
             p->batch, p->passes,
             p->lora_rank ? "LoRA: frozen weights, the inputs' gradients only"
                          : "full: the inputs' and the weights' gradients",
             p->checkpointing ? ", plus the forward pass again for checkpointing" : "");
    return true;
}

double td_step_threshold(const char *name, char *source, size_t cap)
{
    static const char *const cols[] = {"name", "value", "source", NULL};
    struct td_table t;
    if (source && cap)
        source[0] = '\0';
    if (!name || !td_table_open(&t, "workload_bench", cols))
        return 0;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), name) == 0) {
            if (source && cap)
                kb_copy(source, cap, td_table_cell(&t, 2));
            return kb_empty(td_table_cell(&t, 1)) ? 0 : strtod(td_table_cell(&t, 1), NULL);
        }
    return 0;
}
