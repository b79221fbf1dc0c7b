/* torchdoctor check: the text and markdown views share one line model
 * (a section, then lines marked ✓ ! ✗ i), so the two always say the same;
 * JSON is written from the same facts. */
#include "report/check.h"

#include <stdarg.h>
#include <string.h>

#include "probe/gpu/gpu_code.h"
#include "report/deps.h"
#include "report/distributed.h"
#include "report/envelope.h"
#include "report/html.h"
#include "report/jsonw.h"

enum mark { MARK_OK, MARK_WARN, MARK_BAD, MARK_INFO, MARK_NONE };

struct out {
    FILE *f;
    const struct td_term *t; /* NULL for markdown and html */
    bool html;
    bool *section_open; /* html: a <section> to close before the next */
};

static const char *const mark_glyph[] = {"✓", "!", "✗", "i", " "};

static enum td_style mark_style(enum mark m)
{
    return m == MARK_OK     ? TD_STYLE_GREEN
           : m == MARK_WARN ? TD_STYLE_YELLOW
           : m == MARK_BAD  ? TD_STYLE_RED
                            : TD_STYLE_CYAN;
}

static const char *const mark_class[] = {"ok", "warn", "bad", "info", "none"};

static void html_close_section(const struct out *o)
{
    if (o->html && *o->section_open)
        fputs("</ul>\n</section>\n", o->f);
    if (o->html)
        *o->section_open = false;
}

static void section(const struct out *o, const char *title)
{
    if (o->html) {
        html_close_section(o);
        fputs("<section class=\"facts\">\n<h2>", o->f);
        td_html_text(o->f, title);
        fputs("</h2>\n<ul class=\"lines\">\n", o->f);
        *o->section_open = true;
    } else if (o->t)
        fprintf(o->f, "%s%s%s\n", td_term_style(o->t, TD_STYLE_BOLD), title,
                td_term_style(o->t, TD_STYLE_RESET));
    else
        fprintf(o->f, "\n### %s\n\n", title);
}

static void line(const struct out *o, enum mark m, const char *fmt, ...) TD_PRINTF(3, 4);
/* An html list item: the formatted text, escaped. */
static void html_item(const struct out *o, const char *cls, const char *glyph, const char *fmt,
                      va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(o->f, "<li class=\"%s\">", cls);
    if (glyph)
        fprintf(o->f, "<span class=\"%s\">%s</span> ", cls, glyph);
    td_html_text(o->f, buf);
    fputs("</li>\n", o->f);
}

static void line(const struct out *o, enum mark m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->html) {
        html_item(o, mark_class[m], mark_glyph[m], fmt, ap);
        va_end(ap);
        return;
    }
    if (o->t)
        fprintf(o->f, "  %s%s%s ", td_term_style(o->t, mark_style(m)), mark_glyph[m],
                td_term_style(o->t, TD_STYLE_RESET));
    else
        fprintf(o->f, "- %s ", mark_glyph[m]);
    vfprintf(o->f, fmt, ap);
    fputc('\n', o->f);
    va_end(ap);
}

/* A detail under the previous line. */
static void sub(const struct out *o, const char *fmt, ...) TD_PRINTF(2, 3);
static void sub(const struct out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (o->html) {
        html_item(o, "sub", NULL, fmt, ap);
        va_end(ap);
        return;
    }
    fputs(o->t ? "    " : "  - ", o->f);
    vfprintf(o->f, fmt, ap);
    fputc('\n', o->f);
    va_end(ap);
}

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

static double gb(double bytes)
{
    return bytes / (1024.0 * 1024.0 * 1024.0);
}

static const char *or_unknown(const char *s)
{
    return s ? s : "unknown";
}

/* The worst finding about a path under DIR (a torch installation). */
static enum mark worst_under(const struct td_findings *f, const char *dir)
{
    enum mark m = MARK_OK;
    size_t n = strlen(dir);
    for (size_t i = 0; i < f->count; i++) {
        const struct td_finding *x = &f->items[i];
        bool about = (x->library && strncmp(x->library, dir, n) == 0) ||
                     (x->needed_by && strncmp(x->needed_by, dir, n) == 0);
        if (!about || x->severity == TD_SEV_INFO)
            continue;
        if (x->severity == TD_SEV_ERROR)
            return MARK_BAD;
        m = MARK_WARN;
    }
    return m;
}

static bool any_cuda_torch(const struct td_check_report *r)
{
    for (size_t i = 0; i < r->n_torch; i++)
        if (r->torch[i].cuda)
            return true;
    return false;
}

static void view_system(const struct out *o, const struct td_check_report *r)
{
    const struct td_system *s = &r->sys;
    section(o, "System");
    if (r->win.probed)
        line(o, MARK_OK, "%s · build %s · %s", or_unknown(s->distro), or_unknown(s->kernel),
             or_unknown(s->machine));
    else
        line(o, MARK_OK, "%s · kernel %s · %s · glibc %s%s%s", or_unknown(s->distro),
             or_unknown(s->kernel), or_unknown(s->machine), or_unknown(s->glibc),
             s->libstdcxx ? " · libstdc++ " : "", s->libstdcxx ? s->libstdcxx : "");
    if (s->ram_total)
        line(o, MARK_OK, "RAM %.1f GiB (%.1f GiB available) · disk %.0f GiB free",
             gib(s->ram_total), gib(s->ram_available), gib(s->disk_free));
    const struct td_windows *win = &r->win;
    if (win->probed) {
        char dlls[256] = "";
        for (size_t i = 0; i < win->n_runtime_dlls; i++)
            snprintf(dlls + strlen(dlls), sizeof dlls - strlen(dlls), "%s%s %s",
                     dlls[0] ? " · " : "", win->runtime_dlls[i].name,
                     win->runtime_dlls[i].path ? or_unknown(win->runtime_dlls[i].version)
                                               : "absent");
        line(o, MARK_INFO, "VC++ redistributable %s · %s",
             win->vc_redist ? win->vc_redist : "not registered", dlls);
    }
    const struct td_cpu *c = &r->cpu;
    char feats[512] = "";
    for (int i = 0; i < TD_CPU_FEATURE_COUNT; i++)
        if (c->features & (1ull << i))
            snprintf(feats + strlen(feats), sizeof feats - strlen(feats), "%s%s",
                     feats[0] ? " " : "", td_cpu_feature_name((enum td_cpu_feature)i));
    char level[16] = "";
    if (c->x86_level)
        snprintf(level, sizeof level, " · x86-64-v%d", c->x86_level);
    line(o, MARK_OK, "CPU %s · %u logical%s", or_unknown(c->model), c->logical_cpus, level);
    if (feats[0])
        sub(o, "%s", feats);
}

/* ---- environment ---- */

static const char *kind_words(const struct td_environment *e, char *out, size_t cap)
{
    static const char *const names[][2] = {
        {"bare_metal", "bare metal (no container, VM or WSL marker)"},
        {"vm", "a virtual machine"},
        {"docker", "a Docker container"},
        {"podman", "a Podman container"},
        {"kubernetes", "a Kubernetes pod"},
        {"containerd", "a containerd container"},
        {"apptainer", "an Apptainer/Singularity container"},
        {"lxc", "an LXC container"},
        {"wsl1", "WSL1"},
        {"wsl2", "WSL2"},
    };
    const char *words = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !words; i++)
        if (!strcmp(names[i][0], e->kind))
            words = names[i][1];
    snprintf(out, cap, "%s%s%s%s%s", words ? words : e->kind, e->wsl && e->wsl_distro ? " (" : "",
             e->wsl && e->wsl_distro ? e->wsl_distro : "", e->wsl && e->wsl_distro ? ")" : "",
             e->vm && strcmp(e->kind, "vm") ? " in a VM" : "");
    if (e->vm && !strcmp(e->kind, "vm"))
        snprintf(out + strlen(out), cap - strlen(out), " (%s)", e->vm);
    return out;
}

static void view_passthrough(const struct out *o, const struct td_environment *e)
{
    char buf[1024] = "";
    for (size_t i = 0; i < e->n_nodes; i++)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s %s", i ? " · " : "",
                 e->nodes[i].path,
                 !e->nodes[i].exists    ? "absent"
                 : e->nodes[i].openable ? "ok"
                                        : "not openable");
    bool any_node = false, all_ok = true;
    for (size_t i = 0; i < e->n_nodes; i++) {
        any_node |= e->nodes[i].exists;
        all_ok &= e->nodes[i].exists && e->nodes[i].openable;
    }
    if (any_node || e->container)
        line(o, !any_node ? MARK_INFO : all_ok ? MARK_OK : MARK_WARN, "device nodes: %s", buf);
    const struct td_env_lib *libs[] = {&e->libcuda, &e->libnvml};
    for (size_t i = 0; i < 2; i++)
        if (libs[i]->path)
            line(o, MARK_INFO, "%s: %s%s%s%s%s%s", libs[i]->soname,
                 libs[i]->file ? libs[i]->file : libs[i]->path,
                 libs[i]->version ? " · driver " : "", libs[i]->version ? libs[i]->version : "",
                 libs[i]->package ? " · package " : "", libs[i]->package ? libs[i]->package : "",
                 "");
    if (e->kernel_module)
        line(o, MARK_INFO, "kernel module %s%s%s", e->kernel_module, e->gpu_name ? " · " : "",
             e->gpu_name ? e->gpu_name : "");
    buf[0] = '\0';
    const char *vars[][2] = {{"NVIDIA_VISIBLE_DEVICES", e->visible_devices},
                             {"NVIDIA_DRIVER_CAPABILITIES", e->capabilities},
                             {"CUDA_VISIBLE_DEVICES", e->cuda_visible}};
    for (size_t i = 0; i < 3; i++)
        if (vars[i][1])
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s='%s'", buf[0] ? " · " : "",
                     vars[i][0], vars[i][1]);
    if (buf[0])
        line(o, MARK_INFO, "%s", buf);
    if (e->image_cuda)
        line(o, MARK_INFO, "the image's CUDA %s (%s)%s%s%s", e->image_cuda, e->image_cuda_from,
             e->compat_version ? " · cuda-compat driver " : "",
             e->compat_version ? e->compat_version : "",
             e->compat_version ? " (forward compatibility: data-center GPUs only)" : "");
}

static void view_environment(const struct out *o, const struct td_check_report *r)
{
    const struct td_environment *e = &r->environment;
    if (!e->probed)
        return;
    char buf[1024];
    section(o, "Where it runs");
    line(o, MARK_INFO, "%s", kind_words(e, buf, sizeof buf));
    for (size_t i = 0; i < e->n_evidence; i++)
        sub(o, "%s %s: %s", e->evidence[i].probe, e->evidence[i].value, e->evidence[i].evidence);
    view_passthrough(o, e);
    if (e->wsl == 2)
        line(o, e->wsl_libcuda && e->dxg ? MARK_OK : MARK_BAD,
             "/usr/lib/wsl/lib/libcuda.so.1 %s · /dev/dxg %s · Windows driver %s",
             e->wsl_libcuda ? (e->wsl_libcuda_copy ? "present (a copy)" : "present") : "absent",
             e->dxg ? "present" : "absent", or_unknown(e->windows_driver));
    buf[0] = '\0';
    if (e->shm_size)
        snprintf(buf, sizeof buf, "/dev/shm %.0f MiB (%s)", (double)e->shm_size / 1048576.0,
                 or_unknown(e->shm_from));
    if (e->cgroup)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%scgroup v%d", buf[0] ? " · " : "",
                 e->cgroup);
    if (e->memory_limit)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " memory %.1f GiB",
                 gib(e->memory_limit));
    if (e->cpu_quota > 0)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " CPU quota %.2f", e->cpu_quota);
    if (e->cpuset_cpus)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " cpuset %u", e->cpuset_cpus);
    if (e->online_cpus)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%sos.cpu_count() %u",
                 buf[0] ? " · " : "", e->online_cpus);
    if (e->memlock_known) {
        if (e->memlock == UINT64_MAX)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " · memlock unlimited");
        else
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " · memlock %llu KiB",
                     (unsigned long long)(e->memlock / 1024));
    }
    if (e->rdma_devices)
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " · %u RDMA device%s",
                 e->rdma_devices, e->rdma_devices == 1 ? "" : "s");
    if (buf[0])
        line(o, MARK_INFO, "%s", buf);
}

static void view_gpu(const struct out *o, const struct td_check_report *r)
{
    const struct td_gpu_info *g = &r->gpu;
    section(o, "GPU and driver");
    if (!r->gpu_probed) {
        line(o, MARK_INFO, "not probed (--no-gpu)");
        return;
    }
    char cuda[16] = "";
    if (g->cuda_driver_version)
        snprintf(cuda, sizeof cuda, "%d.%d", g->cuda_driver_version / 1000,
                 g->cuda_driver_version % 1000 / 10);
    switch (g->status) {
    case TD_GPU_NO_DRIVER:
        line(o, any_cuda_torch(r) ? MARK_WARN : MARK_INFO,
             "no NVIDIA driver (no libcuda.so.1 loads%s): torch runs on the CPU",
             g->kernel_driver ? "" : ", no /proc/driver/nvidia");
        break;
    case TD_GPU_OK:
    case TD_GPU_NO_DEVICE:
        line(o, g->status == TD_GPU_OK ? MARK_OK : MARK_BAD, "NVIDIA driver %s%s%s%s",
             or_unknown(g->driver_version ? g->driver_version : g->kernel_driver),
             cuda[0] ? " (CUDA " : "", cuda, cuda[0] ? ")" : "");
        if (g->status == TD_GPU_NO_DEVICE)
            sub(o, "the driver sees no GPU");
        break;
    default:
        line(o, MARK_BAD, "the NVIDIA driver fails: %s", or_unknown(g->status_detail));
    }
    if (g->libcuda)
        line(o, g->libcuda_is_stub ? MARK_BAD : MARK_OK, "libcuda.so.1: %s [%s]%s", g->libcuda,
             or_unknown(g->libcuda_via), g->libcuda_is_stub ? " — a link stub, not a driver" : "");
    for (size_t i = 0; i < g->n_gpus; i++) {
        const struct td_gpu *x = &g->gpus[i];
        line(o, MARK_OK, "GPU %d: %s · sm_%d%d · %.1f GiB", x->index, or_unknown(x->name),
             x->cc_major, x->cc_minor, gib(x->memory));
    }
}

static bool owns_torch(const struct td_check_report *r, size_t py)
{
    for (size_t i = 0; i < r->n_torch; i++)
        if (r->torch[i].python == py)
            return true;
    return false;
}

/* The part of sys.path that decides which packages load: what is not the
 * standard library, each entry tagged with why it is there. */
static void view_sys_path(const struct out *o, const struct td_python *p)
{
    char list[2048] = "";
    size_t at = 0;
    for (size_t i = 0; i < p->n_sys_path && at < sizeof list; i++) {
        const struct td_syspath_entry *e = &p->sys_path[i];
        if (e->why == TD_SP_CWD || e->why == TD_SP_STDLIB_ZIP || e->why == TD_SP_STDLIB ||
            e->why == TD_SP_DYNLOAD || e->why == TD_SP_EXE_DIR || !e->exists)
            continue;
        int n =
            snprintf(list + at, sizeof list - at, "%s%s [%s]", at ? " · " : "", e->path, e->reason);
        at += n > 0 ? (size_t)n : 0;
    }
    if (list[0])
        sub(o, "sys.path: %s", list);
    if (p->pth_file)
        sub(o, "sys.path is set by %s (site %s)", p->pth_file,
            p->site_imported ? "imported" : "off: no `import site` line");
    if (p->n_pth_imports)
        sub(o, "%zu `import` line%s in .pth files (run by Python at start-up; see --format json)",
            p->n_pth_imports, p->n_pth_imports == 1 ? "" : "s");
}

/* The interpreters that matter are shown one per line: the active one,
 * the one named by --python / VIRTUAL_ENV / CONDA_PREFIX, and those with a
 * torch; the rest (a pyenv with ten versions) are summed up on one line. */
static void view_python(const struct out *o, const struct td_check_report *r)
{
    section(o, "Python");
    if (r->n_py == 0)
        line(o, MARK_WARN, "no Python interpreter found (PATH, venv, conda, pyenv)");
    char others[512] = "";
    size_t n_others = 0;
    for (size_t i = 0; i < r->n_py; i++) {
        const struct td_python *p = &r->pythons[i];
        bool named = p->found_by && strcmp(p->found_by, "PATH") != 0 &&
                     strcmp(p->found_by, "pyenv") != 0 && strcmp(p->found_by, "conda env") != 0;
        if (!p->active && !named && !owns_torch(r, i)) {
            snprintf(others + strlen(others), sizeof others - strlen(others), "%s%s %s",
                     n_others++ ? ", " : "", or_unknown(p->kind_name), or_unknown(p->version));
            continue;
        }
        line(o, MARK_OK, "%s%s%s · Python %s · %s%s · found by %s", p->exe,
             p->real && strcmp(p->real, p->exe) ? " → " : "",
             p->real && strcmp(p->real, p->exe) ? p->real : "", or_unknown(p->version),
             or_unknown(p->kind_name), p->active ? " (active)" : "", or_unknown(p->found_by));
        view_sys_path(o, p);
    }
    if (n_others)
        line(o, MARK_INFO, "%zu more without torch: %s", n_others, others);
}

/* Which copy `import torch` takes, and from which sys.path entry. */
static void view_import(const struct out *o, const struct td_check_report *r,
                        const struct td_torch *t)
{
    const char *exe = t->python < r->n_py ? r->pythons[t->python].exe : "?";
    if (!t->sys_path_entry)
        return;
    if (t->imported)
        sub(o, "imported by %s%s: sys.path[%zu] %s (%s)", exe,
            t->namespace_only ? " as a namespace package (no __init__.py)" : "", t->sys_path_index,
            t->sys_path_entry, or_unknown(t->reason));
    else
        sub(o, "shadowed: %s imports %s instead; this copy is sys.path[%zu] %s (%s)", exe,
            or_unknown(t->shadowed_by), t->sys_path_index, t->sys_path_entry,
            or_unknown(t->reason));
    if (t->editable)
        sub(o, "an editable install of %s", t->editable);
}

/* How many of T's CUDA libraries have each verdict on GPU number GPU. */
static void count_verdicts(const struct td_torch *t, size_t gpu, size_t counts[4])
{
    memset(counts, 0, 4 * sizeof *counts);
    for (size_t k = 0; k < t->n_gpu_code; k++)
        if (t->gpu_code[k].verdicts && t->gpu_code[k].verdicts[gpu] < 4)
            counts[t->gpu_code[k].verdicts[gpu]]++;
}

/* The CUDA libraries' code against each GPU; with --verbose every library's
 * architectures and the sections they were found in. */
static void view_gpu_code(const struct out *o, const struct td_check_report *r,
                          const struct td_torch *t)
{
    if (!t->n_gpu_code)
        return;
    size_t containers = 0;
    for (size_t k = 0; k < t->n_gpu_code; k++)
        containers += t->gpu_code[k].containers;
    for (size_t i = 0; i < r->gpu.n_gpus; i++) {
        size_t c[4];
        count_verdicts(t, i, c);
        sub(o,
            "%zu CUDA libraries with GPU code (%zu containers read) on %s (sm_%d%d): %zu native, "
            "%zu through PTX JIT, %zu without code for it",
            t->n_gpu_code, containers, or_unknown(r->gpu.gpus[i].name), r->gpu.gpus[i].cc_major,
            r->gpu.gpus[i].cc_minor, c[TD_GPU_CODE_NATIVE], c[TD_GPU_CODE_PTX_JIT],
            c[TD_GPU_CODE_NONE] + c[TD_GPU_CODE_PTX_TOO_NEW]);
    }
    for (size_t k = 0; r->verbose && k < t->n_gpu_code; k++) {
        const struct td_gpu_code *g = &t->gpu_code[k];
        char archs[2048] = "";
        for (size_t a = 0; a < g->n_archs; a++)
            snprintf(archs + strlen(archs), sizeof archs - strlen(archs), "%s%s (%s)", a ? " " : "",
                     g->archs[a], g->where ? g->where[a] : "?");
        sub(o, "%s: %zu containers%s: %s", g->path, g->containers,
            g->whole ? "" : " (read until every GPU had SASS)", archs);
    }
}

static void view_torch(const struct out *o, const struct td_check_report *r)
{
    section(o, "torch");
    if (r->n_torch == 0)
        line(o, MARK_WARN, "no torch installation found in any interpreter's site-packages");
    for (size_t i = 0; i < r->n_torch; i++) {
        const struct td_torch *t = &r->torch[i];
        const struct td_graph *g = r->graphs ? r->graphs[i] : NULL;
        enum mark m = worst_under(&r->findings, t->dir);
        if (m == MARK_OK && t->shadowed_by)
            m = MARK_WARN; /* its multiple_installs finding names "torch", not the folder */
        if (g && m != MARK_BAD && td_findings_count(&g->findings, TD_SEV_ERROR))
            m = MARK_BAD; /* its import closure fails (Debian's libraries are not under torch/) */
        else if (g && m == MARK_OK && td_findings_count(&g->findings, TD_SEV_WARNING))
            m = MARK_WARN;
        line(o, m, "torch %s (%s%s%s) · %s · %s", or_unknown(t->version), or_unknown(t->variant),
             t->cuda ? " " : "", t->cuda ? t->cuda : "", or_unknown(t->installer), t->dir);
        view_import(o, r, t);
        char comp[1024] = "";
        for (size_t k = 0; k < t->n_companions; k++)
            snprintf(comp + strlen(comp), sizeof comp - strlen(comp), "%s%s %s", k ? ", " : "",
                     t->companions[k].name, or_unknown(t->companions[k].version));
        if (comp[0])
            sub(o, "with %s", comp);
        if (t->n_cuda_archs) {
            char archs[512] = "";
            for (size_t k = 0; k < t->n_cuda_archs; k++)
                snprintf(archs + strlen(archs), sizeof archs - strlen(archs), "%s%s", k ? " " : "",
                         t->cuda_archs[k]);
            sub(o, "CUDA architectures: %s", archs);
        }
        view_gpu_code(o, r, t);
        if (t->record_files)
            sub(o, "%zu files checked against %s (%zu hashed; --verify hashes all)",
                t->record_files, or_unknown(t->manifest), t->record_hashed);
        if (g) {
            size_t missing = 0;
            for (size_t k = 0; k < g->n_edges; k++)
                missing += !g->edges[k].to && !g->edges[k].res.in_shared_cache;
            sub(o, "import torch loads %zu libraries; %zu not found; errors: %zu", g->count,
                missing, td_findings_count(&g->findings, TD_SEV_ERROR));
        }
    }
}

static void view_distributed(const struct out *o, const struct td_check_report *r)
{
    const struct td_distributed *d = &r->dist;
    if (!d->probed || (d->nccl != 1 && !d->nccl_path && d->gloo != 1))
        return;
    section(o, "Distributed");
    line(o, MARK_INFO, "backends: NCCL %s, Gloo %s, MPI %s", d->nccl == 1 ? "yes" : "no",
         d->gloo == 1 ? "yes" : "no", d->mpi == 1 ? "yes" : "no");
    if (d->nccl_path)
        line(o, d->nccl_pin_matches == 0 ? MARK_WARN : MARK_OK, "NCCL %s (%s)%s%s",
             d->nccl_version ? d->nccl_version : "of unknown version", d->nccl_path,
             d->nccl_pin ? ", torch pins " : "", d->nccl_pin ? d->nccl_pin : "");
    if (d->shm_bytes)
        line(o, d->shm_bytes < ((uint64_t)1 << 30) ? MARK_WARN : MARK_OK, "/dev/shm %.1f GiB",
             (double)d->shm_bytes / (1 << 30));
    for (size_t i = 0; i < d->n_links; i++)
        line(o, MARK_INFO, "GPU %u-%u: %s%s", d->links[i].a, d->links[i].b,
             d->links[i].nvlink == 1 ? "NVLink, " : "", td_gpu_link_path(d->links[i].level));
}

static void view_env(const struct out *o, const struct td_check_report *r)
{
    section(o, "Environment");
    if (r->n_env == 0)
        line(o, MARK_OK, "no variable that changes how torch loads or uses the GPU is set");
    for (size_t i = 0; i < r->n_env; i++)
        line(o, MARK_INFO, "%s", r->env[i]);
}

const char *td_check_memory_verdict(const struct td_mem_estimate *e, const char *device, char *out,
                                    size_t cap)
{
    double need = gb(e->parts.total), have = gb(e->capacity);
    if (e->capacity <= 0)
        snprintf(out, cap, "needs %.1f GB (the memory of %s is not known)", need, device);
    else if (e->fits)
        snprintf(out, cap, "fits with %.1f GB to spare (needs %.1f GB, %s has %.1f GB)",
                 have - need, need, device, have);
    else if (e->fix_total > 0)
        snprintf(out, cap, "will not fit: needs %.1f GB, %s has %.1f GB; with %s %.1f GB", need,
                 device, have, e->fix, gb(e->fix_total));
    else
        snprintf(out, cap, "will not fit: needs %.1f GB, %s has %.1f GB; %s may make it fit", need,
                 device, have, e->fix);
    return out;
}

const char *td_check_workload_needs(const struct td_kb_workload *w, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
#define NEED(fmt, ...)                                                                             \
    if (n < cap)                                                                                   \
    n += (size_t)snprintf(out + n, cap - n, "%s" fmt, n ? ", " : "", __VA_ARGS__)
    if (w->vram_min_gb > 0)
        NEED("%g GB GPU memory", w->vram_min_gb);
    if (w->vram_rec_gb > 0)
        NEED("%g GB GPU memory recommended", w->vram_rec_gb);
    if (w->cc_major > 0)
        NEED("compute capability %d.%d", w->cc_major, w->cc_minor);
    if (w->ram_min_gb > 0)
        NEED("%g GB RAM", w->ram_min_gb);
    if (w->disk_gb > 0)
        NEED("%g GB disk", w->disk_gb);
#undef NEED
    return out;
}

/* The job's memory estimate: verdict, parts, formula, assumptions. */
static void view_memory(const struct out *o, const struct td_check_report *r)
{
    const struct td_mem_estimate *e = &r->memory;
    if (!r->has_memory) {
        if (r->memory_error[0])
            line(o, MARK_INFO, "no memory estimate: %s", r->memory_error);
        return;
    }
    char verdict[512];
    td_check_memory_verdict(e, r->memory_device, verdict, sizeof verdict);
    line(o, e->capacity <= 0 ? MARK_INFO : e->fits ? MARK_OK : MARK_BAD, "%s", verdict);
    const struct td_mem_job *u = &e->used;
    char rank[48] = "full fine-tuning";
    if (u->lora_rank > 0)
        snprintf(rank, sizeof rank, "LoRA rank %d", u->lora_rank);
    sub(o, "job: batch %d, %d px, %s weights, %s, %s%s", u->batch, u->resolution, u->precision,
        u->optimizer, rank, u->checkpointing ? ", gradient checkpointing" : "");
    sub(o,
        "weights %.1f GB + trainable copies %.1f GB + gradients %.1f GB + optimizer %.1f GB + "
        "activations %.1f GB = %.1f GB",
        gb(e->parts.weights), gb(e->parts.trainable), gb(e->parts.grads), gb(e->parts.optimizer),
        gb(e->parts.activations), gb(e->parts.total));
    sub(o, "formula: %s", e->formula);
    sub(o, "assumes: %s", e->assumptions);
    if (r->workload && r->workload->vram_min_gb > 0)
        sub(o, "cross-check: the toolkit says %g GB minimum with its options (%s)",
            r->workload->vram_min_gb, r->workload->notes);
}

static void view_workload(const struct out *o, const struct td_check_report *r)
{
    const struct td_kb_workload *w = r->workload;
    if (!w)
        return;
    section(o, "Workload");
    line(o, r->workload_ready ? MARK_OK : MARK_BAD, "%s: %s", w->name,
         r->workload_ready ? "ready" : "not ready (see below)");
    char needs[256];
    sub(o, "needs %s (%s)", td_check_workload_needs(w, needs, sizeof needs), w->notes);
    view_memory(o, r);
}

static void view_live(const struct out *o, const struct td_check_report *r)
{
    const struct td_trace *t = r->live;
    if (!t)
        return;
    section(o, "Live import (--live)");
    size_t loaded = 0;
    for (size_t i = 0; i < t->n_libs; i++)
        loaded += t->libs[i].status == TD_TLIB_LOADED;
    if (t->timed_out)
        line(o, MARK_BAD, "import torch with %s did not finish within the timeout", r->live_python);
    else if (r->live_import_ms >= 0)
        line(o, MARK_OK, "import torch %s with %s: %.0f ms, %zu libraries loaded",
             or_unknown(r->live_version), r->live_python, r->live_import_ms, loaded);
    else
        line(o, MARK_BAD, "import torch with %s failed: %s", r->live_python,
             t->failed ? t->failed->message : or_unknown(t->stderr_tail));
    if (r->live_cuda >= 0)
        line(o, r->live_cuda ? MARK_OK : MARK_BAD, "torch.cuda.is_available(): %s, %d device%s",
             r->live_cuda ? "True" : "False", r->live_devices, r->live_devices == 1 ? "" : "s");
    line(o, t->n_divergences ? MARK_WARN : MARK_OK,
         "%zu need%s loaded as the static model predicts, %zu differ%s", t->n_agreements,
         t->n_agreements == 1 ? "" : "s", t->n_divergences,
         t->n_divergences ? " (see --format json)" : "");
}

static void view_replay(const struct out *o, const struct td_check_report *r)
{
    const struct td_replay *x = r->replay;
    if (!x)
        return;
    section(o, "Live DLL replay (--live)");
    size_t loaded = 0;
    for (size_t i = 0; i < x->n_loads; i++)
        loaded += td_replay_final(&x->loads[i]) == 0;
    line(o, loaded == x->n_loads && x->done ? MARK_OK : MARK_BAD,
         "%zu of %zu DLLs loaded as torch loads them%s%s", loaded, x->n_loads,
         x->detail ? "; " : "", x->detail ? x->detail : "");
    for (size_t i = 0; i < x->n_loads; i++) {
        const struct td_replay_load *l = &x->loads[i];
        long code = td_replay_final(l);
        if (code != 0 || l->retry == 0)
            sub(o, "%s: %s %ld%s%s", l->file,
                code ? "error" : "loaded only by the PATH retry after", code ? code : l->code,
                l->init && strcmp(l->init, ".") ? ", initialiser of " : "",
                l->init && strcmp(l->init, ".") ? l->init : "");
    }
}

static void findings_markdown(FILE *out, const struct td_findings *f)
{
    fprintf(out, "\n### Findings\n\n");
    if (f->count == 0)
        fprintf(out, "None.\n");
    for (size_t i = 0; i < f->count; i++) {
        const struct td_finding *x = &f->items[i];
        fprintf(out, "- **%s** `%s`: %s\n", td_severity_name(x->severity), x->kind, x->detail);
        if (x->fix)
            fprintf(out, "  - fix: `%s`\n", x->fix);
    }
}

static void summary(const struct out *o, const struct td_check_report *r)
{
    size_t e = td_findings_count(&r->findings, TD_SEV_ERROR);
    size_t w = td_findings_count(&r->findings, TD_SEV_WARNING);
    if (o->t)
        fputc('\n', o->f);
    if (e + w == 0)
        line(o, MARK_OK, "no problem found (%.0f ms)", r->elapsed_ms);
    else
        line(o, e ? MARK_BAD : MARK_WARN, "%zu error%s, %zu warning%s (%.0f ms)%s", e,
             e == 1 ? "" : "s", w, w == 1 ? "" : "s", r->elapsed_ms, o->t ? ":" : "");
}

void td_check_text(const struct td_check_report *r, const struct td_term *t)
{
    struct out o = {t->out, t, false, NULL};
    view_system(&o, r);
    view_environment(&o, r);
    view_gpu(&o, r);
    view_python(&o, r);
    view_torch(&o, r);
    view_env(&o, r);
    view_distributed(&o, r);
    view_workload(&o, r);
    view_live(&o, r);
    view_replay(&o, r);
    summary(&o, r);
    td_findings_text(t, &r->findings);
}

void td_check_markdown(const struct td_check_report *r, FILE *out)
{
    struct out o = {out, NULL, false, NULL};
    fprintf(out, "## torchdoctor check (%s)\n", TD_VERSION);
    view_system(&o, r);
    view_environment(&o, r);
    view_gpu(&o, r);
    view_python(&o, r);
    view_torch(&o, r);
    view_env(&o, r);
    view_distributed(&o, r);
    view_workload(&o, r);
    view_live(&o, r);
    view_replay(&o, r);
    fprintf(out, "\n");
    summary(&o, r);
    findings_markdown(out, &r->findings);
}

/* ---- html ---- */

/* One line on top: the machine, and the verdict. */
static void html_headline(FILE *f, const struct td_check_report *r)
{
    size_t e = td_findings_count(&r->findings, TD_SEV_ERROR);
    size_t w = td_findings_count(&r->findings, TD_SEV_WARNING);
    fputs("<p class=\"machine\">", f);
    td_html_text(f, or_unknown(r->sys.distro));
    fputs(" · ", f);
    td_html_text(f, or_unknown(r->sys.machine));
    fputs(" · ", f);
    td_html_text(f, or_unknown(r->cpu.model));
    fprintf(f, " · %zu torch install%s</p>\n", r->n_torch, r->n_torch == 1 ? "" : "s");
    if (e + w == 0)
        fprintf(f, "<p class=\"ok verdict\">✓ no problem found (%.0f ms)</p>\n", r->elapsed_ms);
    else
        fprintf(f, "<p class=\"%s verdict\">%s %zu error%s, %zu warning%s (%.0f ms)</p>\n",
                e ? "bad" : "warn", e ? "✗" : "!", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s",
                r->elapsed_ms);
}

void td_check_html(const struct td_check_report *r, FILE *out)
{
    bool open = false;
    struct out o = {out, NULL, true, &open};
    td_html_begin(out, "torchdoctor check");
    html_headline(out, r);
    td_html_findings(out, &r->findings);
    view_system(&o, r);
    view_environment(&o, r);
    view_gpu(&o, r);
    view_python(&o, r);
    view_torch(&o, r);
    view_env(&o, r);
    view_workload(&o, r);
    view_live(&o, r);
    view_replay(&o, r);
    html_close_section(&o);
    for (size_t i = 0; r->graphs && i < r->n_torch; i++)
        if (r->graphs[i])
            td_deps_html_tree(r->graphs[i], out);
    td_html_end(out);
}

/* ---- JSON ---- */

static void json_system(struct td_jsonw *w, const struct td_check_report *r, bool stable)
{
    const struct td_system *s = &r->sys;
    td_jw_key(w, "system");
    td_jw_begin_object(w);
    td_jw_kstr(w, "os", s->os);
    td_jw_kstr(w, "distro", s->distro);
    td_jw_kstr(w, "distro_id", s->distro_id);
    td_jw_kstr(w, "distro_version", s->distro_version);
    td_jw_kstr(w, "kernel", s->kernel);
    td_jw_kstr(w, "machine", s->machine);
    td_jw_kstr(w, "glibc", s->glibc);
    td_jw_kstr(w, "libstdcxx", s->libstdcxx);
    td_jw_kstr(w, "hostname", s->hostname);
    td_jw_kuint(w, "ram_total", s->ram_total);
    if (!stable)
        td_jw_kuint(w, "ram_available", s->ram_available);
    td_jw_kuint(w, "swap_total", s->swap_total);
    if (!stable)
        td_jw_kuint(w, "disk_free", s->disk_free);
    td_jw_kstr(w, "container", s->container);
    td_jw_kint(w, "wsl", s->wsl);
    td_jw_end_object(w);

    const struct td_cpu *c = &r->cpu;
    td_jw_key(w, "cpu");
    td_jw_begin_object(w);
    td_jw_kstr(w, "vendor", c->vendor);
    td_jw_kstr(w, "model", c->model);
    td_jw_kuint(w, "logical_cpus", c->logical_cpus);
    td_jw_kint(w, "x86_level", c->x86_level);
    td_jw_key(w, "features");
    td_jw_begin_array(w);
    for (int i = 0; i < TD_CPU_FEATURE_COUNT; i++)
        if (c->features & (1ull << i))
            td_jw_string(w, td_cpu_feature_name((enum td_cpu_feature)i));
    td_jw_end_array(w);
    td_jw_end_object(w);
}

static const char *gpu_status_name(enum td_gpu_status s)
{
    static const char *const names[] = {"no_driver",   "ok",      "no_device",
                                        "init_failed", "crashed", "timeout"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown";
}

static void json_windows(struct td_jsonw *w, const struct td_windows *x)
{
    if (!x->probed && x->tree) { /* --root on a Windows tree from elsewhere: no registry */
        td_jw_key(w, "windows");
        td_jw_begin_object(w);
        td_jw_key(w, "long_paths_enabled");
        td_jw_null(w);
        td_jw_end_object(w);
    }
    if (!x->probed)
        return;
    td_jw_key(w, "windows");
    td_jw_begin_object(w);
    td_jw_kstr(w, "product", x->product);
    td_jw_kstr(w, "display_version", x->display_version);
    td_jw_kuint(w, "major", x->major);
    td_jw_kuint(w, "minor", x->minor);
    td_jw_kuint(w, "build", x->build);
    td_jw_kstr(w, "vc_redist", x->vc_redist);
    td_jw_kstr(w, "system32", x->system32);
    td_jw_key(w, "runtime_dlls");
    td_jw_begin_array(w);
    for (size_t i = 0; i < x->n_runtime_dlls; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "name", x->runtime_dlls[i].name);
        td_jw_kstr(w, "path", x->runtime_dlls[i].path);
        td_jw_kstr(w, "version", x->runtime_dlls[i].version);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "safe_dll_search_mode");
    if (x->safe_dll_search_mode < 0)
        td_jw_null(w);
    else
        td_jw_int(w, x->safe_dll_search_mode);
    td_jw_key(w, "long_paths_enabled");
    if (x->long_paths_enabled < 0)
        td_jw_null(w);
    else
        td_jw_bool(w, x->long_paths_enabled == 1);
    td_jw_key(w, "known_dlls");
    td_jw_begin_array(w);
    for (size_t i = 0; i < x->n_known_dlls; i++)
        td_jw_string(w, x->known_dlls[i]);
    td_jw_end_array(w);
    td_jw_kstr(w, "cuda_path", x->cuda_path);
    td_jw_key(w, "cuda_path_versions");
    td_jw_begin_array(w);
    for (size_t i = 0; i < x->n_cuda_path_versions; i++)
        td_jw_string(w, x->cuda_path_versions[i]);
    td_jw_end_array(w);
    td_jw_end_object(w);
}

static void json_gpu(struct td_jsonw *w, const struct td_check_report *r)
{
    const struct td_gpu_info *g = &r->gpu;
    td_jw_key(w, "driver");
    td_jw_begin_object(w);
    td_jw_kstr(w, "status", r->gpu_probed ? gpu_status_name(g->status) : "not_probed");
    td_jw_kstr(w, "detail", g->status_detail);
    td_jw_kstr(w, "kernel_driver", g->kernel_driver);
    td_jw_kstr(w, "driver_version", g->driver_version);
    td_jw_kint(w, "cuda_driver_version", g->cuda_driver_version);
    td_jw_kstr(w, "libcuda", g->libcuda);
    td_jw_kstr(w, "libcuda_found_via", g->libcuda_via);
    td_jw_kbool(w, "libcuda_is_stub", g->libcuda_is_stub);
    td_jw_kbool(w, "wsl_libcuda", g->wsl_libcuda);
    td_jw_key(w, "dev_nodes");
    td_jw_begin_array(w);
    for (size_t i = 0; i < g->n_dev_nodes; i++)
        td_jw_string(w, g->dev_nodes[i]);
    td_jw_end_array(w);
    td_jw_end_object(w);
    td_jw_key(w, "gpus");
    td_jw_begin_array(w);
    for (size_t i = 0; i < g->n_gpus; i++) {
        const struct td_gpu *x = &g->gpus[i];
        td_jw_begin_object(w);
        td_jw_kint(w, "index", x->index);
        td_jw_kstr(w, "name", x->name);
        char cc[16];
        snprintf(cc, sizeof cc, "%d.%d", x->cc_major, x->cc_minor);
        td_jw_kstr(w, "compute_capability", cc);
        td_jw_kuint(w, "memory", x->memory);
        td_jw_kstr(w, "uuid", x->uuid);
        td_jw_kstr(w, "pci_bus", x->pci_bus);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_strings(struct td_jsonw *w, const char *key, const char *const *s, size_t n)
{
    td_jw_key(w, key);
    td_jw_begin_array(w);
    for (size_t i = 0; i < n; i++)
        td_jw_string(w, s[i]);
    td_jw_end_array(w);
}

/* One CUDA library's code: what was read, and its verdict for each GPU. */
static void json_gpu_code_one(struct td_jsonw *w, const struct td_check_report *r,
                              const struct td_gpu_code *c)
{
    td_jw_begin_object(w);
    td_jw_kstr(w, "library", c->path);
    td_jw_kstr(w, "loaded_by", c->via);
    td_jw_kstr(w, "package", c->package);
    td_jw_kuint(w, "containers", c->containers);
    td_jw_kuint(w, "entries", c->entries);
    td_jw_kbool(w, "complete", c->whole);
    json_strings(w, "archs", c->archs, c->n_archs);
    json_strings(w, "sections", c->where, c->where ? c->n_archs : 0);
    td_jw_kstr(w, "error", c->error);
    td_jw_key(w, "verdicts");
    td_jw_begin_array(w);
    for (size_t i = 0; c->verdicts && i < r->gpu.n_gpus; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kuint(w, "gpu", i);
        td_jw_kstr(w, "verdict", td_gpu_code_verdict_name(c->verdicts[i]));
        td_jw_kstr(w, "needs_cuda", c->need ? c->need[i] : NULL);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_end_object(w);
}

static void json_gpu_code(struct td_jsonw *w, const struct td_check_report *r,
                          const struct td_torch *t)
{
    td_jw_key(w, "gpu_code");
    td_jw_begin_array(w);
    for (size_t k = 0; k < t->n_gpu_code; k++)
        json_gpu_code_one(w, r, &t->gpu_code[k]);
    td_jw_end_array(w);
}

/* sys.path as the probe computed it, each entry with its reason. */
static void json_sys_path(struct td_jsonw *w, const struct td_python *p)
{
    td_jw_key(w, "sys_path");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_sys_path; i++) {
        const struct td_syspath_entry *e = &p->sys_path[i];
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "path", e->path);
        td_jw_kstr(w, "reason", e->reason);
        td_jw_kstr(w, "detail", e->detail);
        td_jw_kstr(w, "from", e->from);
        td_jw_kbool(w, "exists", e->exists);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_key(w, "pth_imports");
    td_jw_begin_array(w);
    for (size_t i = 0; i < p->n_pth_imports; i++) {
        td_jw_begin_object_inline(w);
        td_jw_kstr(w, "file", p->pth_imports[i].file);
        td_jw_kuint(w, "line", p->pth_imports[i].line);
        td_jw_kstr(w, "text", p->pth_imports[i].text);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
    td_jw_kstr(w, "pth_file", p->pth_file);
    td_jw_kbool(w, "site", p->site_imported);
    td_jw_kstr(w, "user_site", p->user_site);
    td_jw_kstr(w, "user_site_off", p->user_site_off);
}

static void json_pythons(struct td_jsonw *w, const struct td_check_report *r)
{
    td_jw_key(w, "pythons");
    td_jw_begin_array(w);
    for (size_t i = 0; i < r->n_py; i++) {
        const struct td_python *p = &r->pythons[i];
        td_jw_begin_object(w);
        td_jw_kstr(w, "exe", p->exe);
        td_jw_kstr(w, "real", p->real);
        td_jw_kstr(w, "version", p->version);
        td_jw_kstr(w, "kind", p->kind_name);
        td_jw_kstr(w, "prefix", p->prefix);
        td_jw_kstr(w, "found_by", p->found_by);
        td_jw_kbool(w, "active", p->active);
        json_strings(w, "site_dirs", p->site_dirs, p->n_site_dirs);
        json_sys_path(w, p);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

static void json_torch(struct td_jsonw *w, const struct td_check_report *r)
{
    td_jw_key(w, "torch");
    td_jw_begin_array(w);
    for (size_t i = 0; i < r->n_torch; i++) {
        const struct td_torch *t = &r->torch[i];
        td_jw_begin_object(w);
        td_jw_kstr(w, "version", t->version ? t->version : "unknown");
        td_jw_kstr(w, "base_version", t->base_version);
        td_jw_kstr(w, "local_tag", t->local_tag);
        td_jw_kstr(w, "variant", t->variant);
        td_jw_kstr(w, "cuda", t->cuda);
        td_jw_kstr(w, "hip", t->hip);
        td_jw_kstr(w, "installer", t->installer);
        td_jw_kstr(w, "dir", t->dir);
        td_jw_kstr(w, "dist_info", t->dist_info);
        td_jw_kstr(w, "python", t->python < r->n_py ? r->pythons[t->python].exe : NULL);
        td_jw_kbool(w, "imported", t->imported);
        td_jw_kbool(w, "namespace_only", t->namespace_only);
        td_jw_kstr(w, "shadowed_by", t->shadowed_by);
        td_jw_kstr(w, "sys_path_entry", t->sys_path_entry);
        td_jw_key(w, "sys_path_index");
        if (t->sys_path_entry)
            td_jw_uint(w, t->sys_path_index);
        else
            td_jw_null(w);
        td_jw_kstr(w, "reason", t->reason);
        td_jw_kstr(w, "editable", t->editable);
        td_jw_key(w, "companions");
        td_jw_begin_array(w);
        for (size_t k = 0; k < t->n_companions; k++) {
            td_jw_begin_object_inline(w);
            td_jw_kstr(w, "name", t->companions[k].name);
            td_jw_kstr(w, "version", t->companions[k].version);
            td_jw_kstr(w, "installer", t->companions[k].installer);
            td_jw_end_object(w);
        }
        td_jw_end_array(w);
        json_strings(w, "cuda_archs", t->cuda_archs, t->n_cuda_archs);
        td_jw_kstr(w, "archs_from", t->archs_from);
        json_gpu_code(w, r, t);
        td_jw_kuint(w, "record_files", t->record_files);
        td_jw_kuint(w, "record_hashed", t->record_hashed);
        td_jw_kstr(w, "record_manifest", t->manifest);
        const struct td_graph *g = r->graphs ? r->graphs[i] : NULL;
        td_jw_kuint(w, "libraries_loaded", g ? g->count : 0);
        td_jw_end_object(w);
    }
    td_jw_end_array(w);
}

void td_check_json_memory(struct td_jsonw *w, const struct td_mem_estimate *e, const char *device)
{
    const struct td_mem_job *u = &e->used;
    char verdict[512];
    td_jw_key(w, "memory");
    td_jw_begin_object(w);
    td_jw_kstr(w, "device", device);
    td_jw_key(w, "capacity_bytes");
    td_jw_fixed(w, e->capacity, 0);
    td_jw_key(w, "total_bytes");
    td_jw_fixed(w, e->parts.total, 0);
    td_jw_kbool(w, "fits", e->fits);
    td_jw_kstr(w, "verdict", td_check_memory_verdict(e, device, verdict, sizeof verdict));
    td_jw_kstr(w, "fix", e->fix[0] ? e->fix : NULL);
    td_jw_key(w, "fix_total_bytes");
    td_jw_fixed(w, e->fix_total, 0);
    td_jw_key(w, "parts");
    td_jw_begin_object(w);
    static const char *const names[] = {"weights", "trainable", "gradients", "optimizer",
                                        "activations"};
    const double v[] = {e->parts.weights, e->parts.trainable, e->parts.grads, e->parts.optimizer,
                        e->parts.activations};
    for (int i = 0; i < 5; i++) {
        td_jw_key(w, names[i]);
        td_jw_fixed(w, v[i], 0);
    }
    td_jw_end_object(w);
    td_jw_key(w, "job");
    td_jw_begin_object(w);
    td_jw_kstr(w, "arch", e->arch);
    td_jw_key(w, "params");
    td_jw_fixed(w, e->params, 0);
    td_jw_key(w, "trainable_params");
    td_jw_fixed(w, e->trainable_params, 0);
    td_jw_key(w, "batch");
    td_jw_fixed(w, u->batch, 0);
    td_jw_key(w, "resolution");
    td_jw_fixed(w, u->resolution, 0);
    td_jw_kstr(w, "precision", u->precision);
    td_jw_kstr(w, "optimizer", u->optimizer);
    td_jw_key(w, "lora_rank");
    td_jw_fixed(w, u->lora_rank, 0);
    td_jw_kbool(w, "gradient_checkpointing", u->checkpointing == 1);
    td_jw_end_object(w);
    td_jw_kstr(w, "formula", e->formula);
    td_jw_kstr(w, "assumptions", e->assumptions);
    td_jw_end_object(w);
}

void td_check_json_sections(struct td_jsonw *w, const struct td_check_report *r, bool stable)
{
    json_system(w, r, stable);
    td_check_json_environment(w, &r->environment);
    json_windows(w, &r->win);
    json_gpu(w, r);
    json_pythons(w, r);
    json_torch(w, r);
    json_strings(w, "env", r->env, r->n_env);
    td_distributed_json(w, &r->dist);
    if (r->workload) {
        td_jw_key(w, "workload");
        td_jw_begin_object(w);
        td_jw_kstr(w, "slug", r->workload->slug);
        td_jw_kstr(w, "name", r->workload->name);
        td_jw_kbool(w, "ready", r->workload_ready);
        td_jw_kstr(w, "source", r->workload->source);
        if (r->has_memory)
            td_check_json_memory(w, &r->memory, r->memory_device);
        td_jw_end_object(w);
    }
    if (r->live) {
        const struct td_trace *t = r->live;
        td_jw_key(w, "live");
        td_jw_begin_object(w);
        td_jw_kstr(w, "python", r->live_python);
        td_jw_kstr(w, "torch_version", r->live_version);
        td_jw_kbool(w, "imported", r->live_import_ms >= 0);
        if (r->live_import_ms >= 0) {
            td_jw_key(w, "import_ms");
            td_jw_uint(w, (uint64_t)(r->live_import_ms + 0.5));
        }
        td_jw_kbool(w, "timed_out", t->timed_out);
        td_jw_kint(w, "exit_status", t->exit_status);
        td_jw_kint(w, "signal", t->signal);
        td_jw_kuint(w, "libraries", t->n_libs);
        td_jw_kstr(w, "failed", t->failed ? t->failed->message : NULL);
        if (r->live_cuda >= 0) {
            td_jw_kbool(w, "cuda_available", r->live_cuda == 1);
            td_jw_kint(w, "cuda_devices", r->live_devices);
        }
        td_jw_kuint(w, "agreements", t->n_agreements);
        td_jw_key(w, "divergences");
        td_jw_begin_array(w);
        for (size_t i = 0; i < t->n_divergences; i++) {
            const struct td_trace_divergence *d = &t->divergences[i];
            td_jw_begin_object_inline(w);
            td_jw_kstr(w, "name", d->name);
            td_jw_kstr(w, "predicted", d->predicted);
            td_jw_kstr(w, "loaded", d->loaded);
            td_jw_kstr(w, "why", d->why);
            td_jw_end_object(w);
        }
        td_jw_end_array(w);
        td_jw_end_object(w);
    }
    if (r->replay) {
        const struct td_replay *x = r->replay;
        td_jw_key(w, "replay");
        td_jw_begin_object(w);
        td_jw_kbool(w, "done", x->done);
        td_jw_kbool(w, "timed_out", x->timed_out);
        td_jw_kstr(w, "detail", x->detail);
        json_strings(w, "failed_dirs", x->failed_dirs, x->n_failed_dirs);
        td_jw_key(w, "loads");
        td_jw_begin_array(w);
        for (size_t i = 0; i < x->n_loads; i++) {
            const struct td_replay_load *l = &x->loads[i];
            td_jw_begin_object_inline(w);
            td_jw_kstr(w, "file", l->file);
            td_jw_kint(w, "error", (int)l->code);
            td_jw_key(w, "path_retry");
            if (l->retry >= 0)
                td_jw_int(w, l->retry);
            else
                td_jw_null(w);
            td_jw_kstr(w, "init_failed", l->init);
            td_jw_kbool(w, "warn_only", l->warn_only);
            td_jw_kint(w, "final", (int)td_replay_final(l));
            td_jw_end_object(w);
        }
        td_jw_end_array(w);
        td_jw_end_object(w);
    }
    /* DESIGN.md: "deps" is the torch closure check, of the torch the active
     * interpreter imports (the first found). */
    const struct td_graph *g = r->n_torch && r->graphs ? r->graphs[0] : NULL;
    if (g) {
        td_jw_key(w, "deps");
        td_jw_begin_object(w);
        td_deps_json_body(w, g);
        td_jw_end_object(w);
    }
}

void td_check_json(const struct td_check_report *r, FILE *out, bool pretty)
{
    static struct td_jsonw w;
    td_jw_init(&w, out, pretty);
    td_envelope_begin(&w, "check", r->os);
    td_envelope_host(&w, r->sys.hostname);
    td_jw_key(&w, "elapsed_ms");
    td_jw_uint(&w, (uint64_t)(r->elapsed_ms + 0.5));
    td_check_json_sections(&w, r, false);
    td_envelope_findings(&w, &r->findings);
    td_envelope_end(&w);
}
