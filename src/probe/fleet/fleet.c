/* `fleet`'s analysis: nodes grouped by fingerprint (the interned fields
 * compared as pointers), the largest group taken as the majority, every
 * other group's differences named field by field, each group's one fix
 * chosen from its most serious difference, and slow nodes found against
 * the fleet's median and median absolute deviation. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hostlist.h"
#include "probe/fleet/fleet.h"
#include "probe/fleet/fleet_internal.h"

static const char *const field_names[TD_FLEET_FIELDS] = {
    "driver", "gpu_count", "gpu_model", "cuda_runtime", "torch",
    "nccl",   "python",    "glibc",     "kernel",
};
static const char *const metric_names[TD_FLEET_METRICS] = {
    "gpu_fp32_fma", "gpu_h2d_pinned", "torch_matmul_fp32", "cpu_gemm_fp32_all", "memory_triad",
};
static const char *const metric_units[TD_FLEET_METRICS] = {"GFLOP/s", "GB/s", "GFLOP/s", "GFLOP/s",
                                                           "GB/s"};
static const char *const state_names[] = {"ok", "no_check", "failed", "timed_out", "missing"};

const char *td_fleet_field_name(enum td_fleet_field f)
{
    return field_names[f];
}
const char *td_fleet_metric_name(enum td_fleet_metric m)
{
    return metric_names[m];
}
const char *td_fleet_metric_unit(enum td_fleet_metric m)
{
    return metric_units[m];
}
const char *td_fleet_state_name(enum td_fleet_state s)
{
    return state_names[s];
}

/* qsort has no context: the nodes being sorted. */
static const struct td_fleet_node *sorting;

static int by_fingerprint(const void *pa, const void *pb)
{
    const struct td_fleet_node *a = &sorting[*(const size_t *)pa],
                               *b = &sorting[*(const size_t *)pb];
    int c = memcmp(a->fields, b->fields, sizeof a->fields);
    return c ? c : strcmp(a->host, b->host);
}

static int by_size(const void *pa, const void *pb)
{
    const struct td_fleet_group *a = pa, *b = pb;
    if (a->n != b->n)
        return a->n > b->n ? -1 : 1;
    return strcmp(sorting[a->nodes[0]].host, sorting[b->nodes[0]].host);
}

const char *td_fleet_hosts(struct td_fleet *f, const size_t *n, size_t count)
{
    const char **names = malloc((count ? count : 1) * sizeof *names);
    if (!names)
        return "";
    for (size_t i = 0; i < count; i++)
        names[i] = f->nodes[n[i]].host;
    const char *r = td_hostlist_fold(names, count, &f->arena);
    free(names);
    return r ? r : "";
}

static char *printed(struct td_fleet *f, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static char *printed(struct td_fleet *f, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return td_arena_strdup(&f->arena, buf);
}

static const char *or_none(const char *s)
{
    return s ? s : "(none)";
}

/* The CUDA tag of a torch version ("2.3.1+cu121 cuda" -> "cu121"). */
static void cuda_tag(const char *torch, char *out, size_t cap)
{
    const char *plus = torch ? strchr(torch, '+') : NULL;
    size_t n = plus ? strcspn(plus + 1, " ") : 0;
    snprintf(out, cap, "%.*s", (int)n, plus ? plus + 1 : "");
}

/* The one fix for group G, from its most serious difference with the
 * majority M (the fields' order), else from its own error findings. */
static void choose_fix(struct td_fleet *f, struct td_fleet_group *g, const struct td_fleet_group *m)
{
    const char *hosts = g->hosts, *want, *have;
    for (int k = 0; k < TD_FLEET_FIELDS; k++) {
        if (!(g->differs >> k & 1))
            continue;
        want = or_none(m->fields[k]), have = or_none(g->fields[k]);
        char tag[32], version[64];
        switch (k) {
        case TD_FLEET_DRIVER:
            g->fix_why = printed(f, "NVIDIA driver %s where the fleet runs %s", have, want);
            g->fix =
                printed(f,
                        "install NVIDIA driver %s (the fleet's) on %s and reboot; until then: "
                        "scontrol update nodename=%s state=drain reason=\"driver %s, fleet %s\"",
                        want, hosts, hosts, have, want);
            return;
        case TD_FLEET_GPU_COUNT:
            g->fix_why = printed(f, "%s GPUs visible where the fleet has %s", have, want);
            g->fix =
                printed(f,
                        "on %s: nvidia-smi -L and dmesg | grep -i -e xid -e nvrm (a GPU fallen "
                        "off the bus needs a reset or a reboot); until then: scontrol update "
                        "nodename=%s state=drain reason=\"%s of %s GPUs visible\"",
                        hosts, hosts, have, want);
            return;
        case TD_FLEET_GPU_MODEL:
            g->fix_why = printed(f, "GPU %s where the fleet has %s", have, want);
            g->fix = printed(f,
                             "give %s a node feature of its own (Feature= in slurm.conf) and "
                             "request it with --constraint, so one job does not span both models",
                             hosts);
            return;
        case TD_FLEET_CUDA_RUNTIME:
        case TD_FLEET_TORCH:
            cuda_tag(m->fields[TD_FLEET_TORCH], tag, sizeof tag);
            snprintf(version, sizeof version, "%.*s",
                     (int)strcspn(or_none(m->fields[TD_FLEET_TORCH]), " "),
                     or_none(m->fields[TD_FLEET_TORCH]));
            g->fix_why = printed(f, "%s %s where the fleet has %s", field_names[k], have, want);
            g->fix =
                printed(f, "on %s: pip install torch==%s%s%s (the fleet's build)", hosts, version,
                        *tag ? " --index-url https://download.pytorch.org/whl/" : "", tag);
            return;
        case TD_FLEET_NCCL:
            g->fix_why = printed(f, "NCCL %s where the fleet loads %s", have, want);
            g->fix = printed(f,
                             "on %s: install the NCCL the fleet loads (%s), e.g. pip install "
                             "nvidia-nccl-cu12==%s in torch's environment",
                             hosts, want, want);
            return;
        case TD_FLEET_PYTHON:
            g->fix_why = printed(f, "Python %s where the fleet runs %s", have, want);
            g->fix = printed(f, "run the job on %s with the fleet's Python %s (its venv or module)",
                             hosts, want);
            return;
        default:
            g->fix_why = printed(f, "%s %s where the fleet has %s", field_names[k], have, want);
            g->fix = printed(f, "reimage %s from the fleet's image (%s %s)", hosts, field_names[k],
                             want);
            return;
        }
    }
    for (size_t i = 0; i < g->n; i++) {
        const struct td_fleet_node *n = &f->nodes[g->nodes[i]];
        if (n->errors && n->error_fix) {
            g->fix_why = printed(f, "%s on %s (and perhaps others of the group)",
                                 or_none(n->error_kind), n->host);
            g->fix = n->error_fix;
            return;
        }
    }
}

static int by_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Slow: below the median by more than 10% and by more than two median
 * absolute deviations (a fleet whose figures spread widely flags none). */
static void find_slow(struct td_fleet *f)
{
    double *v = malloc((f->n_nodes ? f->n_nodes : 1) * sizeof *v);
    if (!v)
        return;
    for (int m = 0; m < TD_FLEET_METRICS; m++) {
        size_t n = 0;
        for (size_t i = 0; i < f->n_nodes; i++)
            if (f->nodes[i].bench[m] >= 0)
                v[n++] = f->nodes[i].bench[m];
        f->measured[m] = n;
        if (n < 3)
            continue;
        double med = median_of(v, n);
        for (size_t i = 0; i < n; i++)
            v[i] = fabs(v[i] - med);
        double mad = median_of(v, n);
        f->median[m] = med, f->mad[m] = mad;
        for (size_t i = 0; i < f->n_nodes; i++) {
            double x = f->nodes[i].bench[m];
            if (x >= 0 && x < 0.9 * med && med - x > 2 * mad)
                f->nodes[i].slow |= 1u << m;
        }
    }
    free(v);
}

static void group_nodes(struct td_fleet *f)
{
    size_t *order = malloc((f->n_nodes ? f->n_nodes : 1) * sizeof *order), n = 0;
    if (!order)
        return;
    for (size_t i = 0; i < f->n_nodes; i++)
        if (f->nodes[i].state == TD_FLEET_OK)
            order[n++] = i;
    sorting = f->nodes;
    qsort(order, n, sizeof *order, by_fingerprint);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        groups += i == 0 || memcmp(f->nodes[order[i]].fields, f->nodes[order[i - 1]].fields,
                                   sizeof f->nodes[0].fields) != 0;
    f->groups = td_arena_array(&f->arena, groups ? groups : 1, sizeof *f->groups);
    if (!f->groups) {
        free(order);
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && memcmp(f->nodes[order[j]].fields, f->nodes[order[i]].fields,
                               sizeof f->nodes[0].fields) == 0)
            j++;
        struct td_fleet_group *g = &f->groups[f->n_groups++];
        g->nodes = td_arena_array(&f->arena, j - i, sizeof *g->nodes);
        if (g->nodes)
            memcpy(g->nodes, order + i, (j - i) * sizeof *order);
        g->n = g->nodes ? j - i : 0;
        g->fields = f->nodes[order[i]].fields;
        i = j;
    }
    free(order);
    qsort(f->groups, f->n_groups, sizeof *f->groups, by_size);
    for (size_t k = 0; k < f->n_groups; k++) {
        struct td_fleet_group *g = &f->groups[k];
        for (size_t i = 0; i < g->n; i++)
            f->nodes[g->nodes[i]].group = k;
        g->hosts = td_fleet_hosts(f, g->nodes, g->n);
        for (int x = 0; x < TD_FLEET_FIELDS; x++)
            if (g->fields[x] != f->groups[0].fields[x])
                g->differs |= 1u << x;
        choose_fix(f, g, &f->groups[0]);
    }
}

/* "driver 535.104.05 (fleet 550.54.15), gpu_count 7 (fleet 8)". */
static const char *diff_words(struct td_fleet *f, const struct td_fleet_group *g)
{
    char buf[1024];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k < TD_FLEET_FIELDS; k++)
        if (g->differs >> k & 1 && len < sizeof buf)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s %s (fleet %s)",
                                    len ? ", " : "", field_names[k], or_none(g->fields[k]),
                                    or_none(f->groups[0].fields[k]));
    return td_arena_strdup(&f->arena, buf);
}

static void add_findings(struct td_fleet *f)
{
    for (size_t k = 1; k < f->n_groups; k++) {
        const struct td_fleet_group *g = &f->groups[k];
        td_findings_add(&f->findings, TD_SEV_ERROR, TD_KIND_NODE_MISMATCH, g->hosts, NULL, NULL,
                        g->fix, "%s: %zu node%s differ%s from the fleet's %zu: %s", g->hosts, g->n,
                        g->n == 1 ? "" : "s", g->n == 1 ? "s" : "", f->groups[0].n,
                        diff_words(f, g));
    }
    for (int m = 0; m < TD_FLEET_METRICS; m++) {
        size_t *slow = malloc((f->n_nodes ? f->n_nodes : 1) * sizeof *slow), n = 0;
        if (!slow)
            return;
        double worst = -1;
        for (size_t i = 0; i < f->n_nodes; i++)
            if (f->nodes[i].slow >> m & 1) {
                slow[n++] = i;
                if (worst < 0 || f->nodes[i].bench[m] < worst)
                    worst = f->nodes[i].bench[m];
            }
        if (n) {
            const char *hosts = td_fleet_hosts(f, slow, n);
            td_findings_add(
                &f->findings, TD_SEV_WARNING, TD_KIND_PERFORMANCE_BELOW_EXPECTED, hosts, NULL, NULL,
                printed(f,
                        "torchdoctor bench on %s for the cause it names (clocks, "
                        "throttling, PCIe link); a synchronous job runs at the "
                        "slowest node's pace, so leave it out until then",
                        hosts),
                "%s %s down to %.1f %s, fleet median %.1f (median absolute deviation "
                "%.1f): below by more than 10%% and 2 deviations",
                hosts, metric_names[m], worst, metric_units[m], f->median[m], f->mad[m]);
        }
        free(slow);
    }
    for (size_t i = 0; i < f->n_nodes; i++) {
        const struct td_fleet_node *n = &f->nodes[i];
        if (n->state == TD_FLEET_FAILED || n->state == TD_FLEET_TIMED_OUT ||
            n->state == TD_FLEET_MISSING)
            td_findings_add(
                &f->findings, TD_SEV_ERROR, TD_KIND_NODE_FAILED, n->host, NULL, NULL,
                printed(f, "srun -w %s torchdoctor check, to see it fail there", n->host),
                "%s %s: %s", n->host,
                n->state == TD_FLEET_FAILED      ? "failed"
                : n->state == TD_FLEET_TIMED_OUT ? "did not finish in time"
                                                 : "sent no report",
                or_none(n->state_detail));
    }
}

static bool expect_one(void *ctx, const char *name)
{
    struct td_fleet *f = ctx;
    struct td_fleet_node *n = td_fleet_node_for(f, name, strlen(name));
    if (n && n->state == TD_FLEET_NO_CHECK && !n->state_detail) {
        bool bench = false;
        for (int m = 0; m < TD_FLEET_METRICS; m++)
            bench |= n->bench[m] >= 0;
        if (!bench) {
            n->state = f->timed_out ? TD_FLEET_TIMED_OUT : TD_FLEET_MISSING;
            n->state_detail = f->timed_out ? "no report before fleet's --timeout"
                                           : "named in the expected node set";
        }
    }
    return n != NULL;
}

const char *td_fleet_expect(struct td_fleet *f, const char *expr)
{
    return td_hostlist_expand(expr, 1000000, expect_one, f);
}

void td_fleet_analyze(struct td_fleet *f)
{
    find_slow(f);
    group_nodes(f);
    add_findings(f);
}

void td_fleet_free(struct td_fleet *f)
{
    if (f->intern)
        free(f->intern->slots);
    free(f->intern);
    free(f->nodes);
    free(f->problems);
    td_findings_free(&f->findings);
    td_arena_free(&f->arena);
    *f = (struct td_fleet){0};
}
