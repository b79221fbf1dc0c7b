/* torchdoctor compat: which official torch builds fit a torch / CUDA /
 * Python / driver / OS / GPU question, the best pick as a pip command, and
 * findings (with fixes) when nothing fits. Every answer comes from the
 * knowledge tables through kb.h. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/version.h"
#include "cmd/args.h"
#include "cmd/cmd.h"
#include "kb/kb.h"
#include "report/compat.h"

enum { MAX_BUILDS = 256 };

struct compat_args {
    const char *torch, *cuda, *python, *driver, *os, *gpu, *format, *color;
    bool strict_driver;
    char cuda_buf[TD_KB_STR];
};

/* "cu124" -> "12.4", "cu118" -> "11.8"; other spellings unchanged. */
static const char *normalise_cuda(const char *v, char *out, size_t cap)
{
    size_t n = strlen(v);
    if (strncmp(v, "cu", 2) != 0 || n < 5 || n > 6 || strspn(v + 2, "0123456789") != n - 2)
        return v;
    snprintf(out, cap, "%.*s.%c", (int)(n - 3), v + 2, v[n - 1]);
    return out;
}

static bool dotted(const char *v, int min_parts)
{
    int parts = 1;
    if (!v || !isdigit((unsigned char)v[0]))
        return false;
    for (const char *p = v; *p; p++) {
        if (*p == '.') {
            if (!isdigit((unsigned char)p[1]))
                return false;
            parts++;
        } else if (!isdigit((unsigned char)*p)) {
            return false;
        }
    }
    return parts >= min_parts;
}

/* ---- the option table: the form of each value; make_query asks the tables ---- */

static const char *torch_check(const char *v)
{
    char lo[TD_KB_STR], hi[TD_KB_STR];
    return dotted(v, 2) && td_kb_torch_python_range(v, lo, hi)
               ? NULL
               : "a torch release the tables know (1.12 or later: 2.5, 2.5.1)";
}

static const char *cuda_check(const char *v)
{
    char buf[TD_KB_STR];
    const char *c = normalise_cuda(v, buf, sizeof buf);
    return strcmp(c, "cpu") == 0 || dotted(c, 2) ? NULL : "X.Y, cuXYZ or cpu";
}

static const char *python_check(const char *v)
{
    size_t n = strlen(v);
    char plain[TD_KB_STR];
    snprintf(plain, sizeof plain, "%.*s", (int)(n && v[n - 1] == 't' ? n - 1 : n), v);
    return dotted(plain, 2) ? NULL : "X.Y (3.11, or 3.13t for a free-threaded build)";
}

static const char *driver_check(const char *v)
{
    return dotted(v, 2) ? NULL : "the driver version as nvidia-smi prints it (550.54.14)";
}

static const char *gpu_check(const char *v)
{
    int major, minor;
    return td_kb_parse_cc(v, &major, &minor) || td_kb_gpu_cc(v, &major, &minor)
               ? NULL
               : "a GPU the tables know, sm_XY or a compute capability X.Y (nvidia-smi "
                 "--query-gpu=compute_cap --format=csv)";
}

static const char *const compat_formats[] = {"text", "json", "markdown", NULL};
/* torch has no CUDA builds for macOS. */
static const char *const compat_oses[] = {"linux", "windows", NULL};

#define AT(field, ctype) TD_AT(struct compat_args, field, ctype)
static const struct td_option compat_options[] = {
    {.name = "--torch",
     .type = TD_ARG_STRING,
     .value = "V",
     .check = torch_check,
     .help = "a release line (2.5) or release (2.5.1)",
     .at = AT(torch, const char *)},
    {.name = "--cuda",
     .type = TD_ARG_STRING,
     .value = "V",
     .check = cuda_check,
     .help = "the CUDA of the build (12.4 or cu124); cpu for CPU-only builds",
     .at = AT(cuda, const char *)},
    {.name = "--python",
     .type = TD_ARG_STRING,
     .value = "V",
     .check = python_check,
     .help = "the interpreter (3.11; 3.13t for free-threaded)",
     .at = AT(python, const char *)},
    {.name = "--driver",
     .type = TD_ARG_STRING,
     .value = "V",
     .check = driver_check,
     .help = "the NVIDIA driver (nvidia-smi: 550.54.14)",
     .at = AT(driver, const char *)},
    {.name = "--os",
     .type = TD_ARG_CHOICE,
     .value = "OS",
     .choices = compat_oses,
     .def = "linux",
     .help = "the target's operating system",
     .at = AT(os, const char *)},
    {.name = "--gpu",
     .type = TD_ARG_STRING,
     .value = "G",
     .check = gpu_check,
     .help = "a GPU name (\"RTX 4090\"), sm_89 or a compute capability (8.9)",
     .at = AT(gpu, const char *)},
    {.name = "--strict-driver",
     .type = TD_ARG_FLAG,
     .help = "require the full-feature driver of each build's CUDA; without it a driver above "
             "the CUDA major's minor-version-compatibility floor counts",
     .at = AT(strict_driver, bool)},
    TD_OPT_FORMAT(struct compat_args, format, compat_formats,
                  "the answer's form: text, json (docs/schema.md) or markdown"),
    TD_OPT_COLOR(struct compat_args, color),
    {0},
};
#undef AT

static const struct td_example compat_examples[] = {
    {"torchdoctor compat --driver 535.104.05 --gpu \"RTX 4090\"",
     "the torch builds this driver and GPU run, and the pip command of the best"},
    {"torchdoctor compat --torch 2.1 --python 3.12", "why no build fits, and what would"},
    {0},
};

const struct td_args_spec td_compat_args = {
    .command = "compat",
    .max_operands = 0,
    .description = "Answers from PyTorch's and NVIDIA's published tables (docs/compat.md): the "
                   "official torch builds that fit every constraint given (newest torch first, "
                   "newest CUDA first), the best pick with the pip command that installs it, the "
                   "minimum driver of a CUDA version, the newest CUDA a driver fully supports, "
                   "and a finding with a fix when no build fits.",
    .options = compat_options,
    .examples = compat_examples,
    .exit_status = "0 some build fits, 1 none does (an error finding says why), 2 bad usage.",
};

/* The query from values the table has checked. */
static void make_query(const struct compat_args *a, struct td_kb_query *q)
{
    *q = (struct td_kb_query){.torch = a->torch,
                              .cuda = a->cuda,
                              .python = a->python,
                              .driver = a->driver,
                              .os = a->os,
                              .allow_minor_compat = !a->strict_driver};
    if (a->gpu && !td_kb_parse_cc(a->gpu, &q->cc_major, &q->cc_minor))
        td_kb_gpu_cc(a->gpu, &q->cc_major, &q->cc_minor);
}

static size_t count(const struct td_kb_query *q)
{
    return td_kb_builds(q, NULL, 0);
}

/* The best build of the newest torch that fits Q, into OUT; false when none. */
static bool newest(const struct td_kb_query *q, struct td_kb_build *out)
{
    static struct td_kb_build all[MAX_BUILDS];
    size_t n = td_kb_builds(q, all, MAX_BUILDS);
    if (n == 0)
        return false;
    *out = *td_kb_pick(all, n < MAX_BUILDS ? n : MAX_BUILDS);
    return true;
}

/* Nothing fits: find which constraint is to blame by dropping one at a time,
 * and say so with a fix that names a build that does fit. */
static void explain_nothing(const struct td_compat_report *r, struct td_findings *f)
{
    const struct td_kb_query *q = &r->query;
    struct td_kb_build b;
    char pip[1024], need[TD_KB_STR];
    bool said = false;

    if (q->python) {
        struct td_kb_query x = *q;
        x.python = NULL;
        if (count(&x)) {
            struct td_kb_query y = *q;
            y.torch = NULL; /* a newer or older torch that has wheels for this Python */
            bool other = newest(&y, &b);
            if (q->torch)
                td_findings_add(f, TD_SEV_ERROR, TD_KIND_PYTHON_VERSION_UNSUPPORTED, NULL, NULL,
                                NULL,
                                other ? td_kb_pip_command(&b, q->python, pip, sizeof pip) : NULL,
                                "torch %s has no official wheels for Python %s (it supports "
                                "%s to %s; torch_releases.tsv)",
                                q->torch, q->python, r->python_min, r->python_max);
            else
                td_findings_add(
                    f, TD_SEV_ERROR, TD_KIND_PYTHON_VERSION_UNSUPPORTED, NULL, NULL, NULL, NULL,
                    "no official torch build for Python %s fits the other constraints", q->python);
            said = true;
        }
    }
    if (q->driver) {
        struct td_kb_query x = *q;
        x.driver = NULL;
        if (count(&x)) {
            /* The lowest driver any of those builds runs on. */
            struct td_kb_build all[MAX_BUILDS];
            size_t n = td_kb_builds(&x, all, MAX_BUILDS);
            need[0] = '\0';
            for (size_t i = 0; i < n && i < MAX_BUILDS; i++) {
                bool floor_ok = q->allow_minor_compat && all[i].driver_floor[0] &&
                                all[i].arch != TD_KB_ARCH_PTX;
                const char *d = floor_ok ? all[i].driver_floor : all[i].driver_min;
                if (d[0] && (!need[0] || td_version_cmp(d, need) < 0))
                    snprintf(need, sizeof need, "%s", d);
            }
            char fix[512];
            snprintf(fix, sizeof fix,
                     "install an NVIDIA driver >= %s (%s), then check with nvidia-smi",
                     need[0] ? need : "newer",
                     strcmp(q->os, "windows") == 0 ? "nvidia.com/drivers"
                                                   : "your distribution's nvidia-driver package "
                                                     "or nvidia.com/drivers");
            td_findings_add(
                f, TD_SEV_ERROR, TD_KIND_CUDA_DRIVER_TOO_OLD, NULL, NULL, NULL, fix,
                "driver %s runs none of the %zu builds that fit otherwise: the least any "
                "of them needs is %s (cuda_driver_minimums.tsv, cuda_minor_compat.tsv)",
                q->driver, n, need[0] ? need : "unknown");
            said = true;
        }
    }
    if (q->cc_major) {
        struct td_kb_query x = *q;
        x.cc_major = x.cc_minor = 0;
        if (count(&x)) {
            struct td_kb_query y = *q;
            y.torch = NULL, y.cuda = NULL; /* which release does carry the arch */
            bool other = newest(&y, &b);
            td_findings_add(
                f, TD_SEV_ERROR, TD_KIND_GPU_ARCH_UNSUPPORTED, NULL, NULL, NULL,
                other ? td_kb_pip_command(&b, q->python, pip, sizeof pip) : NULL,
                "no build that fits otherwise has kernels for %s, compute capability %d.%d: no "
                "cubin of major %d with minor <= %d and no PTX <= %d.%d "
                "(torch_cuda_arch_list.tsv)%s",
                r->gpu, q->cc_major, q->cc_minor, q->cc_major, q->cc_minor, q->cc_major,
                q->cc_minor, other ? "; the fix installs a build that has them" : "");
            said = true;
        }
    }
    if (!said) {
        struct td_kb_query y = *q;
        y.cuda = NULL;
        bool other = q->torch && q->cuda && newest(&y, &b);
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_CUDA_RUNTIME_MISMATCH, NULL, NULL, NULL,
                        other ? td_kb_pip_command(&b, q->python, pip, sizeof pip) : NULL,
                        "no official torch build fits all of the constraints together "
                        "(torch_cuda_builds.tsv lists the published torch/CUDA pairs)%s",
                        other ? "; the fix installs this torch's newest build instead" : "");
    }
}

static void note_best(const struct td_compat_report *r, struct td_findings *f)
{
    const struct td_kb_build *b = r->best;
    char fix[256];
    snprintf(fix, sizeof fix, "install an NVIDIA driver >= %s for the full CUDA %s feature set",
             b->driver_min, b->cuda);
    if (b->minor_compat)
        td_findings_add(
            f, TD_SEV_WARNING, TD_KIND_CUDA_DRIVER_TOO_OLD, NULL, NULL, NULL, fix,
            "driver %s runs %s only through CUDA minor-version compatibility (floor %s): "
            "PTX JIT and some newer CUDA calls need >= %s (NVIDIA CUDA Compatibility guide)",
            r->query.driver, b->variant, b->driver_floor, b->driver_min);
    if (b->arch == TD_KB_ARCH_PTX)
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_GPU_ARCH_UNSUPPORTED, NULL, NULL, NULL, NULL,
                        "torch %s %s has no cubin for compute capability %d.%d: kernels are "
                        "JIT-compiled from PTX at first use (slow start, driver >= %s)",
                        b->torch, b->variant, r->query.cc_major, r->query.cc_minor, b->driver_min);
    if (b->arch == TD_KB_ARCH_UNKNOWN)
        td_findings_add(f, TD_SEV_INFO, TD_KIND_GPU_ARCH_UNSUPPORTED, NULL, NULL, NULL,
                        "python -c \"import torch; print(torch.cuda.get_arch_list())\"",
                        "the tables have no arch list for torch %s %s on %s: whether it carries "
                        "kernels for compute capability %d.%d is not known here",
                        b->torch, b->variant, r->query.os, r->query.cc_major, r->query.cc_minor);
}

int td_cmd_compat(int argc, char **argv)
{
    struct compat_args a = {0};
    struct td_operands none;
    int status = td_args_parse(&td_compat_args, argc, argv, &a, &none);
    if (status != TD_ARGS_CONTINUE)
        return status;
    if (a.cuda)
        a.cuda = normalise_cuda(a.cuda, a.cuda_buf, sizeof a.cuda_buf);
    struct td_compat_report r = {.gpu = a.gpu, .python_cmd = a.python};
    make_query(&a, &r.query);
    const struct td_kb_query *q = &r.query;
    if (q->driver)
        td_kb_driver_max_cuda(q->driver, q->os, r.driver_max_cuda, sizeof r.driver_max_cuda);
    if (q->cuda && strcmp(q->cuda, "cpu") != 0) {
        td_kb_cuda_min_driver(q->cuda, q->os, r.cuda_min_driver, sizeof r.cuda_min_driver, NULL);
        td_kb_cuda_compat_floor(q->cuda, q->os, r.cuda_floor, sizeof r.cuda_floor, NULL);
    }
    if (q->torch)
        td_kb_torch_python_range(q->torch, r.python_min, r.python_max);

    static struct td_kb_build builds[MAX_BUILDS];
    size_t n = td_kb_builds(q, builds, MAX_BUILDS);
    r.builds = builds;
    r.n_builds = n < MAX_BUILDS ? n : MAX_BUILDS;
    struct td_findings findings = {0};
    r.findings = &findings;
    if (r.n_builds) {
        r.best = td_kb_pick(builds, r.n_builds);
        note_best(&r, &findings);
    } else {
        explain_nothing(&r, &findings);
    }

    if (strcmp(a.format, "json") == 0) {
        td_compat_json(&r, stdout);
    } else if (strcmp(a.format, "markdown") == 0) {
        td_compat_markdown(&r, stdout);
    } else {
        struct td_term t;
        td_term_init(&t, stdout, a.color);
        td_compat_text(&r, &t);
    }
    fflush(stdout);
    int rc = td_findings_count(&findings, TD_SEV_ERROR) ? TD_EXIT_FINDINGS : TD_EXIT_OK;
    td_findings_free(&findings);
    return rc;
}
