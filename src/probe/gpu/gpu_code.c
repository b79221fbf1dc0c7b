/* The fat binaries of a torch's import closure (probe/gpu/gpu_code.h). Each
 * file is mapped for its ELF/PE headers; the containers of every region
 * that may hold them (format/detect_fatbin.h: the fat binary section
 * first) are found and their container and entry headers read with
 * pread, so that none of the ~2 GB of payload pages of the CUDA 13
 * libraries is faulted in (and unmapped). */
#include "probe/gpu/gpu_code.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "base/version.h"
#include "base/data.h"
#include "base/map.h"
#include "format/detect.h"
#include "format/detect_fatbin.h"
#include "format/fatbin.h"
#include "kb/kb.h"
#include "probe/python/pyfs.h"

enum { MAX_ARCHS = 64, MAX_REGIONS = 64 };

/* The distinct architectures seen so far (a library has about fifteen). */
struct arch_set {
    char names[MAX_ARCHS][24];
    const char *list[MAX_ARCHS];
    uint16_t isa[MAX_ARCHS];   /* PTX: the lowest ISA version of the arch's entries */
    uint64_t where[MAX_ARCHS]; /* bit R: seen in region R (the first MAX_REGIONS) */
    size_t n, entries;
    unsigned region; /* the region being read */
    const struct td_gpu_code_for *q;
    bool stopped;
};

/* Whether every GPU asked about has SASS among the arches seen. */
static bool every_gpu_served(const struct arch_set *s)
{
    for (size_t i = 0; i < s->q->n; i++) {
        const struct td_gpu *g = &s->q->gpus[i];
        if (td_kb_arch_fit(s->list, s->n, g->cc_major, g->cc_minor) != TD_KB_ARCH_SASS)
            return false;
    }
    return s->q->n > 0;
}

static bool add_arch(const struct td_fatbin_entry *e, void *ctx)
{
    struct arch_set *s = ctx;
    char name[24];
    s->entries++;
    if (!td_fatbin_arch_name(e, name, sizeof name))
        return true;
    uint16_t isa =
        e->kind == TD_FATBIN_PTX ? (uint16_t)(e->version_major << 8 | e->version_minor) : 0;
    uint64_t bit = s->region < MAX_REGIONS ? (uint64_t)1 << s->region : 0;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) {
            if (isa && isa < s->isa[i])
                s->isa[i] = isa;
            s->where[i] |= bit;
            return true;
        }
    if (s->n == MAX_ARCHS)
        return true;
    memcpy(s->names[s->n], name, sizeof name);
    s->list[s->n] = s->names[s->n];
    s->isa[s->n] = isa;
    s->where[s->n] = bit;
    s->n++;
    s->stopped = e->kind == TD_FATBIN_ELF && every_gpu_served(s);
    return !s->stopped;
}

/* pread of a section that starts at file offset BASE (a header window
 * serves the next headers when they lie close together: PTX entries of a
 * few hundred bytes). */
struct section_reader {
    int fd;
    uint64_t base;
    uint8_t window[512];
    uint64_t lo, hi; /* the section offsets the window holds */
};

static bool section_read(void *src, uint64_t off, void *out, size_t n)
{
    struct section_reader *r = src;
    if (off < r->lo || off + n > r->hi) {
        if (n > sizeof r->window)
            return pread(r->fd, out, n, (off_t)(r->base + off)) == (ssize_t)n;
        ssize_t got = pread(r->fd, r->window, sizeof r->window, (off_t)(r->base + off));
        if (got < (ssize_t)n)
            return false;
        r->lo = off;
        r->hi = off + (uint64_t)got;
    }
    memcpy(out, r->window + (off - r->lo), n);
    return true;
}

/* Reads every region of R in the file mapped in M at HOST by its headers
 * alone (pread; the mapping when the file cannot be opened again) until
 * the set has stopped. *CONTAINERS counts the containers read. */
static int read_regions(const char *host, const struct td_map *m, const struct td_fatbin_regions *r,
                        struct arch_set *set, size_t *containers, struct td_err *bad)
{
    struct section_reader sr = {.fd = open(host, O_RDONLY | O_CLOEXEC)};
    struct td_fatbin_scan st = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && !st.stopped && i < r->count; i++) {
        const struct td_fatbin_region *g = &r->list[i];
        set->region = (unsigned)i;
        if (sr.fd < 0) {
            rc = td_fatbin_scan(m->data + g->offset, (size_t)g->size, g->primary, add_arch, set,
                                &st, bad);
            continue;
        }
        sr.base = g->offset;
        sr.lo = sr.hi = 0;
        rc = td_fatbin_scan_read(section_read, &sr, g->size, g->primary, add_arch, set, &st, bad);
    }
    if (sr.fd >= 0)
        close(sr.fd);
    *containers = st.containers;
    return rc;
}

/* The regions of the file in M that may hold containers: 1, or 0 when it
 * is neither ELF nor PE, -1 when it cannot be parsed. */
static int find_regions(const struct td_map *m, struct td_arena *scratch,
                        struct td_fatbin_regions *r, struct td_err *err)
{
    enum td_file_kind kind = td_detect(m->data, m->size);
    r->count = 0;
    if (kind == TD_FILE_ELF) {
        struct td_elf elf;
        if (td_elf_parse_headers(&elf, m->data, m->size, scratch, err) != 0 ||
            td_fatbin_regions_elf(&elf, scratch, r, err) != 0)
            return -1;
        return 1;
    }
    if (kind == TD_FILE_PE) {
        struct td_pe pe;
        if (td_pe_parse(&pe, m->data, m->size, scratch, err) != 0 ||
            td_fatbin_regions_pe(&pe, scratch, r, err) != 0)
            return -1;
        return 1;
    }
    return 0;
}

/* The names of the regions of R in WHERE's bits, space-separated, in ARENA. */
static const char *region_names(uint64_t where, const struct td_fatbin_regions *r,
                                struct td_arena *arena)
{
    char out[512] = "";
    size_t at = 0;
    for (size_t i = 0; i < r->count && i < MAX_REGIONS && at < sizeof out; i++)
        if (where & (uint64_t)1 << i)
            at +=
                (size_t)snprintf(out + at, sizeof out - at, "%s%s", at ? " " : "", r->list[i].name);
    return td_arena_strdup(arena, out);
}

/* SET's architectures into OUT (ARENA strings). */
static void store_archs(const struct arch_set *set, const struct td_fatbin_regions *r,
                        struct td_arena *arena, struct td_gpu_code *out)
{
    size_t cap = set->n ? set->n : 1;
    out->archs = td_arena_array(arena, cap, sizeof *out->archs);
    out->where = td_arena_array(arena, cap, sizeof *out->where);
    uint16_t *isa = td_arena_array(arena, cap, sizeof *isa);
    for (size_t i = 0; out->archs && out->where && isa && i < set->n; i++) {
        isa[i] = set->isa[i];
        out->where[i] = region_names(set->where[i], r, arena);
        out->archs[out->n_archs++] = td_arena_strdup(arena, set->names[i]);
    }
    out->ptx_isa = isa;
    out->entries = set->entries;
    out->whole = !set->stopped;
}

int td_gpu_code_read(const char *host, const struct td_gpu_code_for *q, struct td_arena *arena,
                     struct td_gpu_code *out)
{
    struct td_map m;
    struct td_err err = {0};
    memset(out, 0, sizeof *out);
    if (td_map_open(host, &m, &err) != 0) {
        out->error = td_arena_strdup(arena, err.msg);
        return -1;
    }
    struct td_arena scratch = {0};
    struct td_fatbin_regions r;
    int found = find_regions(&m, &scratch, &r, &err);
    if (found == 1) {
        static const struct td_gpu_code_for every = {0};
        struct arch_set set = {.q = q ? q : &every};
        struct td_err bad = {0};
        read_regions(host, &m, &r, &set, &out->containers, &bad);
        store_archs(&set, &r, arena, out);
        found = out->containers > 0 || bad.set;
        if (bad.set)
            out->error = td_arena_strdup(arena, bad.msg);
    } else if (found < 0) {
        out->error = td_arena_strdup(arena, err.msg);
    }
    td_arena_free(&scratch);
    td_map_close(&m);
    return found;
}

/* PATH's directory joined with NAME ('/' or '\\' as PATH has it). */
static char *sibling(struct td_arena *a, const char *path, const char *name)
{
    const char *base = td_pyfs_basename(path);
    size_t dir = (size_t)(base - path);
    size_t len = dir + strlen(name) + 1;
    char *out = td_arena_alloc(a, len);
    if (out)
        snprintf(out, len, "%.*s%s", (int)dir, path, name);
    return out;
}

static bool is_sep(char c)
{
    return c == '/' || c == '\\';
}

/* PATH with "x/../" and "./" taken out, as the loader's $ORIGIN/../../
 * paths are written (lexically: torch's lib/ is no symlink). Arena copy. */
static char *tidy_path(struct td_arena *a, const char *path)
{
    char *out = td_arena_strdup(a, path);
    size_t n = 0;
    for (const char *p = path; out && *p;) {
        size_t len = 0;
        while (p[len] && !is_sep(p[len]))
            len++;
        bool dot = len == 1 && p[0] == '.', dotdot = len == 2 && p[0] == '.' && p[1] == '.';
        if (dotdot && n > 1) { /* drop the last segment written (after its separator) */
            size_t at = n - 1;
            while (at > 0 && !is_sep(out[at - 1]))
                at--;
            n = at;
        } else if (!dot) {
            memcpy(out + n, p, len);
            n += len;
            if (p[len])
                out[n++] = p[len];
        }
        p += len + (p[len] ? 1 : 0);
    }
    if (out)
        out[n] = '\0';
    return out;
}

/* A file of the closure to read, and what reading it gave. */
struct pending {
    const char *host, *path, *via;
    struct td_gpu_code code; /* strings in the reading thread's arena */
    int found;
};

static bool pending_has(const struct pending *p, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(td_pyfs_basename(p[i].path), name) == 0)
            return true;
    return false;
}

/* The sub-libraries the closure's object O loads from its own directory. */
static void add_sublibraries(const struct td_object *o, struct pending *p, size_t *n, size_t cap,
                             struct td_arena *arena)
{
    static const char *const cols[] = {"library", "loads", NULL};
    struct td_table t;
    const char *name = td_pyfs_basename(o->path);
    if (!td_table_open(&t, "cuda_sublibraries", cols))
        return;
    while (td_table_next(&t)) {
        const char *loads = td_table_cell(&t, 1);
        if (strcmp(td_table_cell(&t, 0), name) != 0 || pending_has(p, *n, loads) || *n >= cap)
            continue;
        char *host = sibling(arena, o->host_path, loads), *path = sibling(arena, o->path, loads);
        if (host && path)
            p[(*n)++] = (struct pending){.host = host, .path = path, .via = o->path};
    }
}

/* Files read by two threads: the search between containers is most of
 * check's cost on a GPU the libraries lack (docs/performance.md), and the
 * files are independent. Each thread reads into its own arena; the results
 * are copied into the caller's after. */
struct reading {
    struct pending *p;
    size_t n;
    int next; /* atomic: the next file to take */
    const struct td_gpu_code_for *q;
};

struct reader_thread {
    struct reading *r;
    struct td_arena arena;
};

static void *read_files(void *arg)
{
    struct reader_thread *w = arg;
    for (;;) {
        size_t i = (size_t)__atomic_fetch_add(&w->r->next, 1, __ATOMIC_RELAXED);
        if (i >= w->r->n)
            return NULL;
        struct pending *p = &w->r->p[i];
        p->found = td_gpu_code_read(p->host, w->r->q, &w->arena, &p->code);
    }
}

static const char **copy_strings(struct td_arena *a, const char *const *s, size_t n)
{
    const char **out = s ? td_arena_array(a, n ? n : 1, sizeof *out) : NULL;
    for (size_t i = 0; out && i < n; i++)
        out[i] = s[i] ? td_arena_strdup(a, s[i]) : NULL;
    return out;
}

/* C, read into another arena, with its strings and arrays in A. */
static void copy_code(struct td_arena *a, const struct td_gpu_code *c, struct td_gpu_code *out)
{
    *out = *c;
    out->archs = copy_strings(a, c->archs, c->n_archs);
    out->where = copy_strings(a, c->where, c->n_archs);
    uint16_t *isa = c->ptx_isa ? td_arena_array(a, c->n_archs ? c->n_archs : 1, sizeof *isa) : NULL;
    if (isa && c->n_archs)
        memcpy(isa, c->ptx_isa, c->n_archs * sizeof *isa);
    out->ptx_isa = isa;
    out->error = c->error ? td_arena_strdup(a, c->error) : NULL;
}

size_t td_gpu_code_of_closure(const struct td_graph *g, const struct td_gpu_code_for *q,
                              struct td_arena *arena, struct td_gpu_code **out)
{
    size_t cap = g->count + 16, n = 0, kept = 0;
    struct pending *p = td_arena_array(arena, cap, sizeof *p);
    struct td_gpu_code *c = td_arena_array(arena, cap, sizeof *c);
    *out = c;
    for (size_t i = 0; p && c && i < g->count && n < cap; i++) {
        const struct td_object *o = g->objects[i];
        if (o->refused || (o->kind != TD_FILE_ELF && o->kind != TD_FILE_PE) ||
            pending_has(p, n, td_pyfs_basename(o->path))) /* a sub-library read already */
            continue;
        p[n++] = (struct pending){.host = o->host_path, .path = o->path};
        add_sublibraries(o, p, &n, cap, arena);
    }
    if (!p || !c)
        return 0;
    struct reading r = {.p = p, .n = n, .q = q};
    struct reader_thread mine = {.r = &r}, other = {.r = &r};
    pthread_t thread;
    bool threaded = n > 1 && pthread_create(&thread, NULL, read_files, &other) == 0;
    read_files(&mine);
    if (threaded)
        pthread_join(thread, NULL);
    for (size_t i = 0; i < n; i++) {
        if (p[i].found != 1)
            continue;
        copy_code(arena, &p[i].code, &c[kept]);
        c[kept].path = tidy_path(arena, p[i].path);
        c[kept].via = p[i].via ? tidy_path(arena, p[i].via) : NULL;
        kept++;
    }
    td_arena_free(&mine.arena);
    td_arena_free(&other.arena);
    return kept;
}

/* RECORD's path of the target file PATH, relative to SITE, '/'-separated. */
static bool record_path(const char *site, const char *path, char *out, size_t cap)
{
    size_t n = strlen(site);
    if (strncmp(path, site, n) != 0 || (path[n] != '/' && path[n] != '\\'))
        return false;
    snprintf(out, cap, "%s", path + n + 1);
    for (char *p = out; *p; p++)
        if (*p == '\\')
            *p = '/';
    return true;
}

/* Whether RECORD (text) has a row for REL: "REL," at a line's start. */
static bool record_lists(const char *record, const char *rel)
{
    size_t n = strlen(rel);
    for (const char *p = record; (p = strstr(p, rel)); p += n)
        if ((p == record || p[-1] == '\n') && p[n] == ',')
            return true;
    return false;
}

static bool any_to_name(const struct td_gpu_code *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].whole && !c[i].package)
            return true;
    return false;
}

/* RECORD of the wheel P, whole (its own size: a RECORD is a few hundred KB). */
static char *read_record(const struct td_probe_ctx *ctx, const struct td_package *p)
{
    char file[TD_PYFS_PATH_MAX];
    struct stat st;
    size_t len;
    snprintf(file, sizeof file, "%s/RECORD", p->dist_info);
    if (!td_pyfs_stat(ctx, file, &st) || st.st_size <= 0 || st.st_size > (64 << 20))
        return NULL;
    return td_pyfs_read(ctx, file, (size_t)st.st_size, &len);
}

void td_gpu_code_packages(const struct td_probe_ctx *ctx, const struct td_torch *t,
                          struct td_gpu_code *c, size_t n)
{
    for (size_t k = 0; t->site_dir && any_to_name(c, n) && k < t->n_companions; k++) {
        const struct td_package *p = &t->companions[k];
        char *record = p->dist_info ? read_record(ctx, p) : NULL;
        char rel[TD_PYFS_PATH_MAX];
        for (size_t i = 0; record && i < n; i++)
            if (c[i].whole && !c[i].package &&
                record_path(t->site_dir, c[i].path, rel, sizeof rel) && record_lists(record, rel)) {
                char name[256];
                snprintf(name, sizeof name, "%s%s%s", p->name, p->version ? " " : "",
                         p->version ? p->version : "");
                c[i].package = td_arena_strdup(ctx->arena, name);
            }
        free(record);
    }
}

/* ARCHS of C that count under ENV: only PTX when the driver is forced to
 * JIT, only SASS when it may not; into OUT (at most CAP). */
static size_t counted_archs(const struct td_gpu_code *c, const struct td_gpu_code_env *env,
                            const char **out, uint16_t *isa, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < c->n_archs && n < cap; i++) {
        bool ptx = strncmp(c->archs[i], "compute_", 8) == 0;
        if ((ptx && env->disable_ptx_jit) || (!ptx && env->force_ptx_jit))
            continue;
        isa[n] = c->ptx_isa ? c->ptx_isa[i] : 0;
        out[n++] = c->archs[i];
    }
    return n;
}

/* Only PTX runs: whether the driver loads the ISA of one of those PTX
 * arches (data/ptx_isa_cuda.tsv); NEED gets the lowest CUDA they ask for.
 * An ISA the table does not know, or an unknown driver, is given the
 * benefit of the doubt. */
static enum td_gpu_code_verdict ptx_verdict(const char **archs, const uint16_t *isa, size_t n,
                                            int major, int minor, const char *driver_cuda,
                                            char *need, size_t cap)
{
    for (size_t i = 0; driver_cuda && i < n; i++) {
        char cuda[16];
        if (!isa[i] || td_kb_arch_fit(&archs[i], 1, major, minor) != TD_KB_ARCH_PTX)
            continue;
        if (!td_kb_ptx_isa_cuda(isa[i] >> 8, isa[i] & 0xff, cuda, sizeof cuda) ||
            td_version_cmp(driver_cuda, cuda) >= 0)
            return TD_GPU_CODE_PTX_JIT;
        if (!need[0] || td_version_cmp(cuda, need) < 0)
            snprintf(need, cap, "%s", cuda);
    }
    return need[0] ? TD_GPU_CODE_PTX_TOO_NEW : TD_GPU_CODE_PTX_JIT;
}

enum td_gpu_code_verdict td_gpu_code_judge(const struct td_gpu_code *c, int major, int minor,
                                           const struct td_gpu_code_env *env, char *need,
                                           size_t cap)
{
    const char *archs[MAX_ARCHS];
    uint16_t isa[MAX_ARCHS];
    need[0] = '\0';
    if (!c->n_archs || (!c->whole && !env->force_ptx_jit))
        return TD_GPU_CODE_NATIVE;
    size_t n = counted_archs(c, env, archs, isa, MAX_ARCHS);
    switch (td_kb_arch_fit(archs, n, major, minor)) {
    case TD_KB_ARCH_SASS:
        return TD_GPU_CODE_NATIVE;
    case TD_KB_ARCH_PTX:
        return ptx_verdict(archs, isa, n, major, minor, env->driver_cuda, need, cap);
    default:
        return TD_GPU_CODE_NONE;
    }
}

const char *td_gpu_code_verdict_name(enum td_gpu_code_verdict v)
{
    static const char *const names[] = {"native", "ptx_jit", "ptx_too_new", "no_code"};
    return v <= TD_GPU_CODE_NONE ? names[v] : "?";
}

void td_gpu_code_judge_all(struct td_gpu_code *c, size_t n, const struct td_gpu_info *gpu,
                           const struct td_gpu_code_env *env, struct td_arena *arena)
{
    for (size_t i = 0; i < n && gpu->n_gpus; i++) {
        uint8_t *v = td_arena_array(arena, gpu->n_gpus, sizeof *v);
        const char **need = td_arena_array(arena, gpu->n_gpus, sizeof *need);
        for (size_t k = 0; v && need && k < gpu->n_gpus; k++) {
            char cuda[16];
            const struct td_gpu *g = &gpu->gpus[k];
            v[k] =
                (uint8_t)td_gpu_code_judge(&c[i], g->cc_major, g->cc_minor, env, cuda, sizeof cuda);
            need[k] = cuda[0] ? td_arena_strdup(arena, cuda) : NULL;
        }
        c[i].verdicts = v;
        c[i].need = need;
    }
}

const char *td_gpu_driver_cuda(const struct td_gpu_info *gpu, const char *os, char *out, size_t cap)
{
    if (!gpu)
        return NULL;
    if (gpu->cuda_driver_version > 0)
        return td_kb_cuda_from_int(gpu->cuda_driver_version, out, cap);
    const char *drv = gpu->driver_version ? gpu->driver_version : gpu->kernel_driver;
    return drv ? td_kb_driver_max_cuda(drv, os, out, cap) : NULL;
}
