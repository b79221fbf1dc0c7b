/* Renders a compat answer: one list of builds, the best pick and its pip
 * command, written as text, JSON (report.schema.json envelope) or markdown. */
#include "report/compat.h"

#include <stdlib.h>
#include <string.h>

#include "report/envelope.h"
#include "report/jsonw.h"

const char *td_compat_driver_word(const struct td_kb_query *q, const struct td_kb_build *b)
{
    if (!q->driver || !b->cuda[0])
        return NULL;
    return b->minor_compat ? "minor-compat" : "full";
}

const char *td_compat_arch_word(enum td_kb_arch_fit a)
{
    switch (a) {
    case TD_KB_ARCH_SASS:
        return "sass";
    case TD_KB_ARCH_PTX:
        return "ptx";
    case TD_KB_ARCH_UNKNOWN:
        return "unknown";
    case TD_KB_ARCH_NONE:
        return "none";
    default:
        return NULL;
    }
}

static const char *or_null(const char *s)
{
    return s && *s ? s : NULL;
}

static void json_build(struct td_jsonw *w, const struct td_compat_report *r,
                       const struct td_kb_build *b)
{
    char pip[1024];
    td_jw_begin_object(w);
    td_jw_kstr(w, "torch", b->torch);
    td_jw_kstr(w, "variant", b->variant);
    td_jw_kstr(w, "cuda", or_null(b->cuda));
    td_jw_kstr(w, "status", b->stable ? "stable" : "experimental");
    td_jw_kstr(w, "index_url", b->index_url);
    td_jw_kstr(w, "torchvision", or_null(b->torchvision));
    td_jw_kstr(w, "torchaudio", or_null(b->torchaudio));
    td_jw_kstr(w, "driver_min", or_null(b->driver_min));
    td_jw_kstr(w, "driver_floor", or_null(b->driver_floor));
    td_jw_kstr(w, "driver_support", td_compat_driver_word(&r->query, b));
    td_jw_kstr(w, "gpu_support", td_compat_arch_word(b->arch));
    td_jw_kstr(w, "pip", td_kb_pip_command(b, r->python_cmd, pip, sizeof pip));
    td_jw_end_object(w);
}

void td_compat_json(const struct td_compat_report *r, FILE *out)
{
    struct td_jsonw *w = malloc(sizeof *w);
    if (!w)
        return;
    const struct td_kb_query *q = &r->query;
    td_jw_init(w, out, true);
    td_envelope_begin(w, "compat", q->os ? q->os : "linux");
    td_envelope_findings(w, r->findings);
    td_jw_key(w, "query");
    td_jw_begin_object(w);
    td_jw_kstr(w, "torch", q->torch);
    td_jw_kstr(w, "cuda", q->cuda);
    td_jw_kstr(w, "python", q->python);
    td_jw_kstr(w, "driver", q->driver);
    td_jw_kstr(w, "os", q->os ? q->os : "linux");
    td_jw_kstr(w, "gpu", r->gpu);
    if (q->cc_major) {
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", q->cc_major, q->cc_minor);
        td_jw_kstr(w, "compute_capability", cc);
    } else {
        td_jw_kstr(w, "compute_capability", NULL);
    }
    td_jw_kbool(w, "allow_minor_compat", q->allow_minor_compat);
    td_jw_end_object(w);
    td_jw_key(w, "answers");
    td_jw_begin_object(w);
    td_jw_kstr(w, "driver_max_cuda", or_null(r->driver_max_cuda));
    td_jw_kstr(w, "cuda_min_driver", or_null(r->cuda_min_driver));
    td_jw_kstr(w, "cuda_compat_floor", or_null(r->cuda_floor));
    td_jw_kstr(w, "python_min", or_null(r->python_min));
    td_jw_kstr(w, "python_max", or_null(r->python_max));
    td_jw_end_object(w);
    td_jw_key(w, "builds");
    td_jw_begin_array(w);
    for (size_t i = 0; i < r->n_builds; i++)
        json_build(w, r, &r->builds[i]);
    td_jw_end_array(w);
    td_jw_key(w, "best");
    if (r->best)
        json_build(w, r, r->best);
    else
        td_jw_null(w);
    td_envelope_end(w);
    free(w);
}

static void describe_build(const struct td_compat_report *r, const struct td_kb_build *b, char *out,
                           size_t cap)
{
    const char *drv = td_compat_driver_word(&r->query, b), *gpu = td_compat_arch_word(b->arch);
    size_t n = (size_t)snprintf(out, cap, "torch %-5s %-8s %-12s", b->torch, b->variant,
                                b->stable ? "stable" : "experimental");
    if (drv && n < cap)
        n += (size_t)snprintf(out + n, cap - n, "  driver %s (full >= %s)", drv,
                              b->driver_min[0] ? b->driver_min : "?");
    if (gpu && n < cap)
        snprintf(out + n, cap - n, "  gpu %s", gpu);
}

void td_compat_text(const struct td_compat_report *r, const struct td_term *t)
{
    const char *bold = td_term_style(t, TD_STYLE_BOLD), *reset = td_term_style(t, TD_STYLE_RESET);
    const struct td_kb_query *q = &r->query;
    FILE *out = t->out;
    fprintf(out, "%sQuery%s  os %s", bold, reset, q->os ? q->os : "linux");
    if (q->torch)
        fprintf(out, ", torch %s", q->torch);
    if (q->cuda)
        fprintf(out, ", cuda %s", q->cuda);
    if (q->python)
        fprintf(out, ", python %s", q->python);
    if (q->driver)
        fprintf(out, ", driver %s", q->driver);
    if (q->cc_major)
        fprintf(out, ", gpu %s (compute capability %d.%d)", r->gpu, q->cc_major, q->cc_minor);
    fprintf(out, "\n");
    if (r->driver_max_cuda[0])
        fprintf(out, "Driver %s fully supports CUDA up to %s\n", q->driver, r->driver_max_cuda);
    if (r->cuda_min_driver[0])
        fprintf(out, "CUDA %s needs driver >= %s (full), >= %s (minor-version compatibility)\n",
                q->cuda, r->cuda_min_driver, r->cuda_floor[0] ? r->cuda_floor : "-");
    if (r->python_min[0])
        fprintf(out, "torch %s supports Python %s to %s\n", q->torch, r->python_min, r->python_max);
    fprintf(out, "\n%sBuilds that fit%s (%zu, newest first)\n", bold, reset, r->n_builds);
    for (size_t i = 0; i < r->n_builds; i++) {
        char line[256];
        describe_build(r, &r->builds[i], line, sizeof line);
        fprintf(out, "  %s\n", line);
    }
    if (r->best) {
        char line[256], pip[1024];
        describe_build(r, r->best, line, sizeof line);
        fprintf(out, "\n%sBest pick%s  %s\n  %s\n", bold, reset, line,
                td_kb_pip_command(r->best, r->python_cmd, pip, sizeof pip));
    }
    if (r->findings->count) {
        fprintf(out, "\n");
        td_findings_text(t, r->findings);
    }
}

void td_compat_markdown(const struct td_compat_report *r, FILE *out)
{
    fprintf(out, "### torchdoctor compat\n\n| torch | variant | status | driver | gpu | index |\n"
                 "|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < r->n_builds; i++) {
        const struct td_kb_build *b = &r->builds[i];
        const char *drv = td_compat_driver_word(&r->query, b), *gpu = td_compat_arch_word(b->arch);
        fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", b->torch, b->variant,
                b->stable ? "stable" : "experimental", drv ? drv : "-", gpu ? gpu : "-",
                b->index_url);
    }
    if (r->best) {
        char pip[1024];
        fprintf(out, "\nBest pick: torch %s %s\n\n```\n%s\n```\n", r->best->torch, r->best->variant,
                td_kb_pip_command(r->best, r->python_cmd, pip, sizeof pip));
    }
    for (size_t i = 0; i < r->findings->count; i++) {
        const struct td_finding *f = &r->findings->items[i];
        fprintf(out, "\n- **%s** `%s`: %s\n", td_severity_name(f->severity), f->kind, f->detail);
        if (f->fix)
            fprintf(out, "  - fix: `%s`\n", f->fix);
    }
}
