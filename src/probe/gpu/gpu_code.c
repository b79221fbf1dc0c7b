/* The fat binaries of a torch's import closure (probe/gpu/gpu_code.h). Each
 * file is mapped for its ELF/PE headers; the fat binary's container and
 * entry headers are read with pread, so that none of the ~540 MB of
 * payload pages of the CUDA 13 libraries is faulted in (and unmapped). */
#include "probe/gpu/gpu_code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/compat.h"
#include "base/data.h"
#include "base/map.h"
#include "format/detect.h"
#include "format/detect_fatbin.h"
#include "format/fatbin.h"
#include "kb/kb.h"
#include "probe/python/pyfs.h"

enum { MAX_ARCHS = 64 };

/* The distinct architectures seen so far (a library has about fifteen). */
struct arch_set {
    char names[MAX_ARCHS][24];
    const char *list[MAX_ARCHS];
    uint16_t isa[MAX_ARCHS]; /* PTX: the lowest ISA version of the arch's entries */
    size_t n, entries;
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
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->names[i], name) == 0) {
            if (isa && isa < s->isa[i])
                s->isa[i] = isa;
            return true;
        }
    if (s->n == MAX_ARCHS)
        return true;
    memcpy(s->names[s->n], name, sizeof name);
    s->list[s->n] = s->names[s->n];
    s->isa[s->n] = isa;
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

/* Walks section S of the file mapped in M at HOST by its headers alone
 * (pread), falling back to the mapping when the file cannot be opened again. */
static int walk_section(const char *host, const struct td_map *m, const struct td_fatbin_section *s,
                        struct arch_set *set, struct td_err *bad)
{
    struct section_reader r = {.fd = open(host, O_RDONLY | O_CLOEXEC)};
    if (r.fd < 0)
        return td_fatbin_walk(s->data, s->size, add_arch, set, bad);
    r.base = (uint64_t)(s->data - m->data);
    int rc = td_fatbin_walk_read(section_read, &r, s->size, add_arch, set, bad);
    close(r.fd);
    return rc;
}

/* The fat binary section of the file in M, if any; -1 when unparsable. */
static int find_section(const struct td_map *m, struct td_arena *scratch,
                        struct td_fatbin_section *s, struct td_err *err)
{
    enum td_file_kind kind = td_detect(m->data, m->size);
    if (kind == TD_FILE_ELF) {
        struct td_elf elf;
        if (td_elf_parse_headers(&elf, m->data, m->size, scratch, err) != 0)
            return -1;
        return td_fatbin_section_elf(&elf, s, err) ? 1 : err->set ? -1 : 0;
    }
    if (kind == TD_FILE_PE) {
        struct td_pe pe;
        if (td_pe_parse(&pe, m->data, m->size, scratch, err) != 0)
            return -1;
        return td_fatbin_section_pe(&pe, s, err) ? 1 : err->set ? -1 : 0;
    }
    return 0;
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
    struct td_fatbin_section s;
    int found = find_section(&m, &scratch, &s, &err);
    if (found == 1) {
        static const struct td_gpu_code_for every = {0};
        struct arch_set set = {.q = q ? q : &every};
        struct td_err bad = {0};
        walk_section(host, &m, &s, &set, &bad);
        out->archs = td_arena_array(arena, set.n ? set.n : 1, sizeof *out->archs);
        uint16_t *isa = td_arena_array(arena, set.n ? set.n : 1, sizeof *isa);
        for (size_t i = 0; out->archs && isa && i < set.n; i++) {
            isa[i] = set.isa[i];
            out->archs[out->n_archs++] = td_arena_strdup(arena, set.names[i]);
        }
        out->ptx_isa = isa;
        out->entries = set.entries;
        out->whole = !set.stopped;
        if (bad.set)
            out->error = td_arena_strdup(arena, bad.msg);
    } else if (found < 0) {
        out->error = td_arena_strdup(arena, err.msg);
    }
    td_arena_free(&scratch);
    td_map_close(&m);
    return found;
}

static bool listed(const struct td_gpu_code *c, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(td_pyfs_basename(c[i].path), name) == 0)
            return true;
    return false;
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

/* Reads HOST into C[*N] when it has a fat binary. */
static void add_file(struct td_gpu_code *c, size_t *n, size_t cap, const char *host,
                     const char *path, const char *via, const struct td_gpu_code_for *q,
                     struct td_arena *arena)
{
    if (*n >= cap || td_gpu_code_read(host, q, arena, &c[*n]) != 1)
        return;
    c[*n].path = tidy_path(arena, path);
    c[*n].via = via ? tidy_path(arena, via) : NULL;
    (*n)++;
}

/* The sub-libraries the closure's object O loads from its own directory. */
static void add_sublibraries(const struct td_object *o, struct td_gpu_code *c, size_t *n,
                             size_t cap, const struct td_gpu_code_for *q, struct td_arena *arena)
{
    static const char *const cols[] = {"library", "loads", NULL};
    struct td_table t;
    const char *name = td_pyfs_basename(o->path);
    if (!td_table_open(&t, "cuda_sublibraries", cols))
        return;
    while (td_table_next(&t)) {
        const char *loads = td_table_cell(&t, 1);
        if (strcmp(td_table_cell(&t, 0), name) != 0 || listed(c, *n, loads))
            continue;
        char *host = sibling(arena, o->host_path, loads), *path = sibling(arena, o->path, loads);
        if (host && path)
            add_file(c, n, cap, host, path, o->path, q, arena);
    }
}

size_t td_gpu_code_of_closure(const struct td_graph *g, const struct td_gpu_code_for *q,
                              struct td_arena *arena, struct td_gpu_code **out)
{
    size_t cap = g->count + 16, n = 0;
    struct td_gpu_code *c = td_arena_array(arena, cap, sizeof *c);
    *out = c;
    for (size_t i = 0; c && i < g->count; i++) {
        const struct td_object *o = g->objects[i];
        if (o->refused || (o->kind != TD_FILE_ELF && o->kind != TD_FILE_PE))
            continue;
        add_file(c, &n, cap, o->host_path, o->path, NULL, q, arena);
        add_sublibraries(o, c, &n, cap, q, arena);
    }
    return n;
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
