/* Reading check and bench reports for `fleet`: one pull parse per document
 * taking the fingerprint's fields, the findings' counts and the bench
 * figures and skipping everything else (the deps section is nine tenths of
 * a check report). Every string is interned in one table, which also maps
 * a host to its node, so a node's check and bench reports meet. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "probe/fleet/fleet.h"
#include "probe/fleet/fleet_internal.h"

/* FNV-1a. */
static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

static bool intern_grow(struct td_fleet_intern *t)
{
    size_t cap = t->cap ? t->cap * 2 : 1024;
    struct td_fleet_slot *s = calloc(cap, sizeof *s);
    if (!s)
        return false;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].s)
            continue;
        size_t k = t->slots[i].hash & (cap - 1);
        while (s[k].s)
            k = (k + 1) & (cap - 1);
        s[k] = t->slots[i];
    }
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return true;
}

struct td_fleet_slot *td_fleet_intern_slot(struct td_fleet *f, const char *s, size_t n)
{
    if (!f->intern && !(f->intern = calloc(1, sizeof *f->intern)))
        return NULL;
    struct td_fleet_intern *t = f->intern;
    if ((t->used + 1) * 2 > t->cap && !intern_grow(t))
        return NULL;
    uint64_t h = hash_bytes(s, n);
    size_t k = h & (t->cap - 1);
    for (; t->slots[k].s; k = (k + 1) & (t->cap - 1))
        if (t->slots[k].hash == h && t->slots[k].len == n && memcmp(t->slots[k].s, s, n) == 0)
            return &t->slots[k];
    char *copy = td_arena_strndup(&f->arena, s, n);
    if (!copy)
        return NULL;
    t->slots[k] = (struct td_fleet_slot){.s = copy, .len = n, .hash = h};
    t->used++;
    return &t->slots[k];
}

const char *td_fleet_intern(struct td_fleet *f, const char *s, size_t n)
{
    struct td_fleet_slot *slot = td_fleet_intern_slot(f, s, n);
    return slot ? slot->s : NULL;
}

/* What one document says, as spans into it (or into SCRATCH). */
struct doc {
    bool torchdoctor;
    int command; /* 1 check, 2 bench, 0 other */
    struct td_json_str host, hostname, kernel, glibc, driver, gpu_model, nccl;
    struct td_json_str torch_version, torch_variant, torch_cuda, torch_python;
    bool torch_taken, gpu_mixed;
    size_t gpus;
    bool gpus_seen;
    struct {
        struct td_json_str exe, version;
        bool active;
    } py[16];
    size_t n_py;
    size_t errors, warnings;
    struct td_json_str error_kind, error_fix;
    double bench[TD_FLEET_METRICS];
    /* The document's last byte ('}') when it is known to be one line, for
     * the jump over "deps"; NULL otherwise. */
    const char *last;
    bool jumped; /* the jump was taken: the parse must end exactly at LAST */
};

typedef void (*member_fn)(struct td_json *j, const struct td_json_str *key, struct doc *d,
                          void *ctx);

/* Walks the object that comes next, calling FN for each member; FN takes
 * the member's value (or skips it). */
static void each_member(struct td_json *j, struct doc *d, member_fn fn, void *ctx)
{
    if (td_json_peek(j) != TD_JSON_OBJECT) {
        td_json_skip_loose(j);
        return;
    }
    td_json_enter(j, TD_JSON_OBJECT);
    struct td_json_str key;
    for (bool first = true; td_json_next(j, &first);) {
        if (!td_json_key(j, &key))
            return;
        fn(j, &key, d, ctx);
    }
}

/* Calls FN for the members of each object of the array that comes next. */
static void each_element(struct td_json *j, struct doc *d, member_fn fn,
                         void (*done)(struct doc *, void *), void *ctx)
{
    if (td_json_peek(j) != TD_JSON_ARRAY) {
        td_json_skip_loose(j);
        return;
    }
    td_json_enter(j, TD_JSON_ARRAY);
    for (bool first = true; td_json_next(j, &first);) {
        each_member(j, d, fn, ctx);
        if (done)
            done(d, ctx);
    }
}

static void take_string(struct td_json *j, struct td_json_str *out)
{
    if (!td_json_string(j, out))
        *out = (struct td_json_str){0};
}

static void system_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    if (td_json_is(k, "hostname"))
        take_string(j, &d->hostname);
    else if (td_json_is(k, "kernel"))
        take_string(j, &d->kernel);
    else if (td_json_is(k, "glibc"))
        take_string(j, &d->glibc);
    else
        td_json_skip_loose(j);
}

static void driver_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    if (td_json_is(k, "driver_version"))
        take_string(j, &d->driver);
    else
        td_json_skip_loose(j);
}

static bool same_str(const struct td_json_str *a, const struct td_json_str *b)
{
    return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

static void gpu_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    struct td_json_str name;
    if (!td_json_is(k, "name")) {
        td_json_skip_loose(j);
        return;
    }
    if (!td_json_string(j, &name))
        return;
    if (!d->gpu_model.s)
        d->gpu_model = name;
    else if (!same_str(&d->gpu_model, &name))
        d->gpu_mixed = true;
}

static void gpu_done(struct doc *d, void *ctx)
{
    d->gpus++;
}

static void python_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    if (d->n_py >= 16) {
        td_json_skip_loose(j);
        return;
    }
    if (td_json_is(k, "exe"))
        take_string(j, &d->py[d->n_py].exe);
    else if (td_json_is(k, "version"))
        take_string(j, &d->py[d->n_py].version);
    else if (td_json_is(k, "active") && td_json_peek(j) == TD_JSON_BOOL)
        d->py[d->n_py].active = *j->p == 't', td_json_skip_loose(j);
    else
        td_json_skip_loose(j);
}

static void python_done(struct doc *d, void *ctx)
{
    if (d->n_py < 16)
        d->n_py++;
}

struct torch_entry {
    struct td_json_str version, variant, cuda, python;
    bool imported;
};

static void torch_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    struct torch_entry *t = ctx;
    if (td_json_is(k, "version"))
        take_string(j, &t->version);
    else if (td_json_is(k, "variant"))
        take_string(j, &t->variant);
    else if (td_json_is(k, "cuda"))
        take_string(j, &t->cuda);
    else if (td_json_is(k, "python"))
        take_string(j, &t->python);
    else if (td_json_is(k, "imported") && td_json_peek(j) == TD_JSON_BOOL)
        t->imported = *j->p == 't', td_json_skip_loose(j);
    else
        td_json_skip_loose(j);
}

/* The first torch entry, unless a later one is the one imported. */
static void torch_done(struct doc *d, void *ctx)
{
    struct torch_entry *t = ctx;
    if (t->version.s && (!d->torch_version.s || (t->imported && !d->torch_taken))) {
        d->torch_version = t->version, d->torch_variant = t->variant;
        d->torch_cuda = t->cuda, d->torch_python = t->python;
        d->torch_taken = t->imported;
    }
    *t = (struct torch_entry){0};
}

static void nccl_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    if (td_json_is(k, "version"))
        take_string(j, &d->nccl);
    else
        td_json_skip_loose(j);
}

static void distributed_member(struct td_json *j, const struct td_json_str *k, struct doc *d,
                               void *ctx)
{
    if (td_json_is(k, "nccl"))
        each_member(j, d, nccl_member, NULL);
    else
        td_json_skip_loose(j);
}

struct finding_entry {
    bool error, warning;
    struct td_json_str kind, fix;
};

static void finding_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    struct finding_entry *e = ctx;
    struct td_json_str s;
    if (td_json_is(k, "severity") && td_json_string(j, &s)) {
        e->error = td_json_is(&s, "error");
        e->warning = td_json_is(&s, "warning");
    } else if (td_json_is(k, "kind")) {
        take_string(j, &e->kind);
    } else if (td_json_is(k, "fix")) {
        take_string(j, &e->fix);
    } else if (!td_json_is(k, "severity")) {
        td_json_skip_loose(j);
    }
}

static void finding_done(struct doc *d, void *ctx)
{
    struct finding_entry *e = ctx;
    d->warnings += e->warning;
    if (e->error && d->errors++ == 0)
        d->error_kind = e->kind, d->error_fix = e->fix;
    *e = (struct finding_entry){0};
}

/* One figure {"value": x, ...}: its value into *OUT, the lower of the two
 * when one is already there (the slowest GPU). */
static void figure_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    double *out = ctx, v;
    if (td_json_is(k, "value") && td_json_double(j, &v)) {
        if (*out < 0 || v < *out)
            *out = v;
    } else if (!td_json_is(k, "value")) {
        td_json_skip_loose(j);
    }
}

/* The members of bench's cpu/memory/torch/gpu objects that are figures. */
static void figures_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    static const struct {
        const char *key;
        enum td_fleet_metric m;
    } wanted[] = {
        {"gemm_fp32_all", TD_FLEET_CPU_GEMM},   {"triad", TD_FLEET_MEM_TRIAD},
        {"matmul_fp32", TD_FLEET_TORCH_MATMUL}, {"fp32_fma", TD_FLEET_GPU_FMA},
        {"h2d_pinned", TD_FLEET_GPU_H2D},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (td_json_is(k, wanted[i].key)) {
            each_member(j, d, figure_member, &d->bench[wanted[i].m]);
            return;
        }
    td_json_skip_loose(j);
}

static void bench_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    if (td_json_is(k, "gpus"))
        each_element(j, d, figures_member, NULL, NULL);
    else if (td_json_is(k, "cpu") || td_json_is(k, "memory") || td_json_is(k, "torch"))
        each_member(j, d, figures_member, NULL);
    else
        td_json_skip_loose(j);
}

/* The last `"findings":` before LAST, preceded (past blanks) by a comma. */
static const char *last_findings(const char *from, const char *last)
{
    static const char key[] = "\"findings\":";
    size_t n = sizeof key - 1;
    for (const char *q = last - n; q > from; q--) {
        if (*q != '"' || memcmp(q, key, n) != 0)
            continue;
        const char *c = q - 1;
        while (c > from && (*c == ' ' || *c == '\n' || *c == '\r' || *c == '\t'))
            c--;
        return *c == ',' ? c : NULL;
    }
    return NULL;
}

/* check writes "deps" (nine tenths of the report) just before "findings",
 * its last member. In a one-line document the bytes between are taken as
 * deps without being read; the parse must then end exactly at the
 * document's end, else the document is read again the slow way. */
static bool jump_deps(struct td_json *j, struct doc *d)
{
    const char *comma = d->last && !d->jumped ? last_findings(j->p, d->last) : NULL;
    if (!comma)
        return false;
    j->p = comma;
    d->jumped = true;
    return true;
}

static void top_member(struct td_json *j, const struct td_json_str *k, struct doc *d, void *ctx)
{
    struct td_json_str s;
    if (td_json_is(k, "deps") && jump_deps(j, d))
        return;
    if (td_json_is(k, "tool")) {
        d->torchdoctor = td_json_string(j, &s) && td_json_is(&s, "torchdoctor");
    } else if (td_json_is(k, "command")) {
        if (td_json_string(j, &s))
            d->command = td_json_is(&s, "check") || td_json_is(&s, "snapshot") ? 1
                         : td_json_is(&s, "bench")                             ? 2
                                                                               : 0;
    } else if (td_json_is(k, "host")) {
        take_string(j, &d->host);
    } else if (td_json_is(k, "system")) {
        each_member(j, d, system_member, NULL);
    } else if (td_json_is(k, "driver")) {
        each_member(j, d, driver_member, NULL);
    } else if (td_json_is(k, "gpus")) {
        d->gpus_seen = true;
        each_element(j, d, gpu_member, gpu_done, NULL);
    } else if (td_json_is(k, "pythons")) {
        each_element(j, d, python_member, python_done, NULL);
    } else if (td_json_is(k, "torch")) {
        struct torch_entry t = {0};
        each_element(j, d, torch_member, torch_done, &t);
    } else if (td_json_is(k, "distributed")) {
        each_member(j, d, distributed_member, NULL);
    } else if (td_json_is(k, "findings")) {
        struct finding_entry e = {0};
        each_element(j, d, finding_member, finding_done, &e);
    } else if (td_json_is(k, "bench")) {
        each_member(j, d, bench_member, NULL);
    } else {
        td_json_skip_loose(j);
    }
}

/* A span interned, its escapes taken first; NULL for an absent one. */
static const char *intern_str(struct td_fleet *f, const struct td_json_str *s)
{
    if (!s->s)
        return NULL;
    if (!s->escaped)
        return td_fleet_intern(f, s->s, s->len);
    struct td_arena scratch = {0};
    char *u = td_json_strdup(&scratch, s);
    const char *r = u ? td_fleet_intern(f, u, strlen(u)) : NULL;
    td_arena_free(&scratch);
    return r;
}

static const char *intern_text(struct td_fleet *f, const char *text)
{
    return td_fleet_intern(f, text, strlen(text));
}

/* The node for HOST (interned), made when new. */
struct td_fleet_node *td_fleet_node_for(struct td_fleet *f, const char *host, size_t len)
{
    struct td_fleet_slot *slot = td_fleet_intern_slot(f, host, len);
    if (!slot)
        return NULL;
    if (slot->node)
        return &f->nodes[slot->node - 1];
    if (f->n_nodes == f->cap_nodes) {
        size_t cap = f->cap_nodes ? f->cap_nodes * 2 : 64;
        struct td_fleet_node *g = realloc(f->nodes, cap * sizeof *g);
        if (!g)
            return NULL;
        f->nodes = g, f->cap_nodes = cap;
    }
    struct td_fleet_node *n = &f->nodes[f->n_nodes++];
    *n = (struct td_fleet_node){.host = slot->s, .state = TD_FLEET_NO_CHECK};
    for (int m = 0; m < TD_FLEET_METRICS; m++)
        n->bench[m] = -1;
    slot->node = f->n_nodes;
    return n;
}

/* The Python that owns the torch, else the active one, else the first. */
static const struct td_json_str *python_version(const struct doc *d)
{
    for (size_t i = 0; i < d->n_py; i++)
        if (d->torch_python.s && d->py[i].exe.s && same_str(&d->py[i].exe, &d->torch_python))
            return &d->py[i].version;
    for (size_t i = 0; i < d->n_py; i++)
        if (d->py[i].active)
            return &d->py[i].version;
    return d->n_py ? &d->py[0].version : NULL;
}

static void store_check(struct td_fleet *f, struct td_fleet_node *n, const struct doc *d,
                        const char *where)
{
    char text[160];
    n->state = TD_FLEET_OK;
    n->source = intern_text(f, where);
    n->fields[TD_FLEET_DRIVER] = intern_str(f, &d->driver);
    snprintf(text, sizeof text, "%zu", d->gpus);
    n->fields[TD_FLEET_GPU_COUNT] = d->gpus_seen ? intern_text(f, text) : NULL;
    n->fields[TD_FLEET_GPU_MODEL] =
        d->gpu_mixed ? intern_text(f, "(mixed)") : intern_str(f, &d->gpu_model);
    n->fields[TD_FLEET_CUDA_RUNTIME] = intern_str(f, &d->torch_cuda);
    if (d->torch_version.s) {
        snprintf(text, sizeof text, "%.*s%s%.*s", (int)d->torch_version.len, d->torch_version.s,
                 d->torch_variant.s ? " " : "", (int)d->torch_variant.len,
                 d->torch_variant.s ? d->torch_variant.s : "");
        n->fields[TD_FLEET_TORCH] = intern_text(f, text);
    }
    n->fields[TD_FLEET_NCCL] = intern_str(f, &d->nccl);
    const struct td_json_str *py = python_version(d);
    n->fields[TD_FLEET_PYTHON] = py ? intern_str(f, py) : NULL;
    n->fields[TD_FLEET_GLIBC] = intern_str(f, &d->glibc);
    n->fields[TD_FLEET_KERNEL] = intern_str(f, &d->kernel);
    n->errors = d->errors, n->warnings = d->warnings;
    n->error_kind = intern_str(f, &d->error_kind);
    n->error_fix = intern_str(f, &d->error_fix);
}

/* The last byte of the one-line document at J ('}' before the newline or
 * the end), or NULL. */
static const char *one_line_end(const struct td_json *j)
{
    const char *nl = memchr(j->p, '\n', (size_t)(j->end - j->p));
    const char *e = nl ? nl : j->end;
    while (e > j->p && (e[-1] == ' ' || e[-1] == '\r' || e[-1] == '\t'))
        e--;
    return e > j->p && e[-1] == '}' ? e - 1 : NULL;
}

/* Reads the document at J; a problem is recorded against WHERE. */
static bool read_document(struct td_fleet *f, struct td_json *j, const char *where)
{
    struct doc d = {0};
    for (int m = 0; m < TD_FLEET_METRICS; m++)
        d.bench[m] = -1;
    if (td_json_peek(j) != TD_JSON_OBJECT) {
        td_fleet_problem(f, where, "not a JSON object");
        td_json_skip_loose(j);
        return false;
    }
    struct td_json again = *j;
    d.last = one_line_end(j);
    each_member(j, &d, top_member, NULL);
    if (d.jumped && (j->error || j->p != d.last + 1)) {
        /* The jump did not land on the document's own end: the slow way. */
        *j = again;
        d = (struct doc){.jumped = true};
        for (int m = 0; m < TD_FLEET_METRICS; m++)
            d.bench[m] = -1;
        each_member(j, &d, top_member, NULL);
    }
    char what[200];
    if (j->error) {
        snprintf(what, sizeof what, "not valid JSON: %s at byte %zu", j->error, j->error_at);
        td_fleet_problem(f, where, what);
        return false;
    }
    if (!d.torchdoctor || d.command == 0) {
        td_fleet_problem(f, where, "not a torchdoctor check or bench report");
        return false;
    }
    const struct td_json_str *host = d.host.s ? &d.host : &d.hostname;
    if (!host->s || host->len == 0 || host->escaped) {
        td_fleet_problem(f, where, "the report names no host (torchdoctor older than fleet?)");
        return false;
    }
    struct td_fleet_node *n = td_fleet_node_for(f, host->s, host->len);
    if (!n) {
        td_fleet_problem(f, where, "out of memory");
        return false;
    }
    if (d.command == 1)
        store_check(f, n, &d, where);
    for (int m = 0; m < TD_FLEET_METRICS; m++)
        if (d.bench[m] >= 0)
            n->bench[m] = d.bench[m];
    f->reports_read++;
    return true;
}

/* "file: line N" when the input holds more than one document. */
static const char *place(char *buf, size_t cap, const char *where, size_t line, bool many)
{
    if (!many)
        return where;
    snprintf(buf, cap, "%s: line %zu", where, line);
    return buf;
}

/* Documents one after another in TEXT; after a bad one, reading goes on at
 * the next line that starts with '{'. */
static size_t read_stream(struct td_fleet *f, const char *where, const char *text, size_t len)
{
    size_t read = 0, line = 1;
    const char *p = text, *end = text + len, *counted = text;
    char at[512];
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (p >= end)
            break;
        for (const char *nl; (nl = memchr(counted, '\n', (size_t)(p - counted))); counted = nl + 1)
            line++;
        counted = p;
        bool many = read > 0 || f->n_problems > 0 || memchr(p, '\n', (size_t)(end - p)) != NULL;
        struct td_json j;
        td_json_init(&j, p, (size_t)(end - p));
        bool ok = read_document(f, &j, place(at, sizeof at, where, line, many && line > 1));
        read += ok;
        if (ok && !j.error) {
            p = j.p;
            continue;
        }
        /* Past the bad document: the next line that opens one. */
        const char *q = p + (j.error ? j.error_at : 0);
        if (q <= p)
            q = p + 1;
        for (; q < end; q++)
            if (q[-1] == '\n' && *q == '{')
                break;
        p = q;
    }
    return read;
}

enum { SRUN_PIECE = 1024 };

/* `srun -l` prefixes every line with its task number ("  3: "). */
static bool label_of(const char *p, const char *end, long *task, const char **rest)
{
    while (p < end && *p == ' ')
        p++;
    const char *digits = p;
    long v = 0;
    while (p < end && *p >= '0' && *p <= '9' && p - digits < 9)
        v = v * 10 + (*p++ - '0');
    if (p == digits || p + 1 >= end || p[0] != ':' || p[1] != ' ')
        return false;
    *task = v;
    *rest = p + 2;
    return true;
}

struct task_text {
    long task;
    char *s;
    size_t len, cap;
};

static bool append(struct task_text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        size_t cap = (t->len + n + 1) * 2;
        char *g = realloc(t->s, cap);
        if (!g)
            return false;
        t->s = g, t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
    return true;
}

/* Labelled output: each task's lines gathered apart, then read. */
static size_t read_labelled(struct td_fleet *f, const char *where, const char *text, size_t len)
{
    struct task_text *tasks = NULL;
    size_t n_tasks = 0, read = 0;
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl + 1 : end, *rest;
        long task;
        if (label_of(p, eol, &task, &rest)) {
            size_t i = 0;
            while (i < n_tasks && tasks[i].task != task)
                i++;
            if (i == n_tasks) {
                struct task_text *g = realloc(tasks, (n_tasks + 1) * sizeof *g);
                if (!g)
                    break;
                tasks = g;
                tasks[n_tasks++] = (struct task_text){.task = task};
            }
            /* srun -l cuts a long line into labelled pieces of 1024 bytes
             * (seen with Slurm 22.05): such a piece goes on in the next. */
            size_t n = (size_t)(eol - rest);
            bool cut = nl && n - 1 >= SRUN_PIECE;
            append(&tasks[i], rest, cut ? n - 1 : n);
        }
        p = eol;
    }
    for (size_t i = 0; i < n_tasks; i++) {
        char at[512];
        snprintf(at, sizeof at, "%s task %ld", where, tasks[i].task);
        read += read_stream(f, at, tasks[i].s ? tasks[i].s : "", tasks[i].len);
        free(tasks[i].s);
    }
    free(tasks);
    return read;
}

size_t td_fleet_read(struct td_fleet *f, const char *where, const char *text, size_t len)
{
    const char *p = text, *end = text + len, *rest;
    while (p < end && (*p == '\n' || *p == '\r'))
        p++;
    long task;
    if (label_of(p, end, &task, &rest))
        return read_labelled(f, where, text, len);
    return read_stream(f, where, text, len);
}

void td_fleet_problem(struct td_fleet *f, const char *where, const char *what)
{
    if (f->n_problems == f->cap_problems) {
        size_t cap = f->cap_problems ? f->cap_problems * 2 : 16;
        struct td_fleet_problem *g = realloc(f->problems, cap * sizeof *g);
        if (!g)
            return;
        f->problems = g, f->cap_problems = cap;
    }
    f->problems[f->n_problems++] = (struct td_fleet_problem){td_arena_strdup(&f->arena, where),
                                                             td_arena_strdup(&f->arena, what)};
}

void td_fleet_mark(struct td_fleet *f, const char *host, enum td_fleet_state state,
                   const char *detail)
{
    struct td_fleet_node *n = td_fleet_node_for(f, host, strlen(host));
    if (!n || n->state == TD_FLEET_OK)
        return; /* it reported: its exit status was its findings' */
    n->state = state;
    n->state_detail = td_arena_strdup(&f->arena, detail);
}
