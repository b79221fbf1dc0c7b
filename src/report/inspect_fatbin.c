/* `inspect` for the CUDA fat binary containers of an ELF or PE file, in
 * its fat binary section and among its other data (format/detect_fatbin.h):
 * what `cuobjdump --list-elf --list-ptx` would tell, read from the entry
 * headers alone (format/fatbin.h). JSON lists every entry with the section
 * it lies in and its file offset; text groups the entries of one kind,
 * architecture and compression on one line each (cuFFT holds 37,000 of
 * them), and with --verbose also by section. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/detect_fatbin.h"
#include "format/fatbin.h"
#include "report/inspect.h"

/* Every entry of the file, file offsets, with the region it lies in. */
struct collected {
    struct td_fatbin_entry *entries;
    uint16_t *region; /* beside each entry */
    size_t n, cap;
    const struct td_fatbin_regions *regions;
    uint16_t at; /* the region being read */
    struct td_arena *arena;
    bool full; /* out of memory: the entries after are not listed */
};

static bool grow(struct collected *c)
{
    size_t cap = c->cap ? c->cap * 2 : 256;
    struct td_fatbin_entry *e = td_arena_array(c->arena, cap, sizeof *e);
    uint16_t *r = td_arena_array(c->arena, cap, sizeof *r);
    if (!e || !r)
        return false;
    if (c->n) {
        memcpy(e, c->entries, c->n * sizeof *e);
        memcpy(r, c->region, c->n * sizeof *r);
    }
    c->entries = e, c->region = r, c->cap = cap;
    return true;
}

static bool collect(const struct td_fatbin_entry *e, void *ctx)
{
    struct collected *c = ctx;
    if (c->n == c->cap && !grow(c)) {
        c->full = true;
        return false;
    }
    uint64_t base = c->regions->list[c->at].offset;
    struct td_fatbin_entry *out = &c->entries[c->n];
    *out = *e;
    out->container += base, out->offset += base, out->payload_offset += base;
    c->region[c->n++] = c->at;
    return true;
}

/* Entries of one kind, architecture and compression (and region). */
struct entry_group {
    const struct td_fatbin_entry *first;
    uint16_t region;
    size_t count;
    uint64_t stored, inflated;
};

static const char *kind_name(const struct td_fatbin_entry *e)
{
    return e->kind == TD_FATBIN_ELF   ? "sass"
           : e->kind == TD_FATBIN_PTX ? "ptx"
           : e->kind == TD_FATBIN_LTO ? "lto"
                                      : "other";
}

static const char *kind_label(const struct td_fatbin_entry *e)
{
    return e->kind == TD_FATBIN_ELF   ? "SASS"
           : e->kind == TD_FATBIN_PTX ? "PTX"
           : e->kind == TD_FATBIN_LTO ? "LTO"
                                      : "?";
}

static void entry_arch(const struct td_fatbin_entry *e, char *out, size_t cap)
{
    if (!td_fatbin_arch_name(e, out, cap))
        snprintf(out, cap, "kind %u arch %u", e->kind, e->arch);
}

static void json_entry(struct td_view *v, const struct td_fatbin_entry *e, const char *section)
{
    char arch[48], version[16];
    entry_arch(e, arch, sizeof arch);
    snprintf(version, sizeof version, "%u.%u", e->version_major, e->version_minor);
    td_view_row_begin(v);
    td_view_str(v, "kind", NULL, kind_name(e));
    td_view_str(v, "arch", NULL, arch);
    td_view_bool(v, "compressed", NULL, e->compressed);
    td_view_str(v, "compression", NULL, td_fatbin_compression_name(e->compression));
    td_view_uint(v, "size", NULL, e->payload_size);
    if (e->uncompressed_size)
        td_view_uint(v, "uncompressed_size", NULL, e->uncompressed_size);
    else
        td_view_json_str(v, "uncompressed_size", NULL);
    td_view_str(v, "version", NULL, version);
    td_view_str(v, "section", NULL, section);
    td_view_hex(v, "offset", NULL, e->offset);
    td_view_row_end(v);
}

static bool same_group(const struct entry_group *g, const struct td_fatbin_entry *e,
                       uint16_t region, bool by_region)
{
    const struct td_fatbin_entry *a = g->first;
    return a->kind == e->kind && a->arch == e->arch && a->variant == e->variant &&
           a->compression == e->compression && (!by_region || g->region == region);
}

static void text_group(struct td_view *v, const struct entry_group *g, const char *section)
{
    const struct td_fatbin_entry *e = g->first;
    char arch[48], size[64];
    entry_arch(e, arch, sizeof arch);
    if (e->compressed)
        snprintf(size, sizeof size, "%llu bytes %s (%llu inflated)", (unsigned long long)g->stored,
                 td_fatbin_compression_name(e->compression), (unsigned long long)g->inflated);
    else
        snprintf(size, sizeof size, "%llu bytes", (unsigned long long)g->stored);
    td_view_note(v, "%-16s %-12s %-4s %5zu %-7s %s%s%s", "", arch, kind_label(e), g->count,
                 g->count == 1 ? "entry" : "entries", size, section ? " in " : "",
                 section ? section : "");
}

static void text_groups(struct td_view *v, const struct collected *c, bool by_region)
{
    struct entry_group *g = td_arena_array(c->arena, c->n ? c->n : 1, sizeof *g);
    size_t n = 0;
    for (size_t i = 0; g && i < c->n; i++) {
        const struct td_fatbin_entry *e = &c->entries[i];
        size_t k = 0;
        while (k < n && !same_group(&g[k], e, c->region[i], by_region))
            k++;
        if (k == n)
            g[n++] = (struct entry_group){.first = e, .region = c->region[i]};
        g[k].count++;
        g[k].stored += e->payload_size;
        g[k].inflated += e->uncompressed_size ? e->uncompressed_size : e->payload_size;
    }
    for (size_t k = 0; k < n; k++)
        text_group(v, &g[k], by_region ? c->regions->list[g[k].region].name : NULL);
}

/* The sections that hold containers: a row each (JSON), a line each (text). */
static void describe_sections(struct td_view *v, const struct collected *c,
                              const size_t *containers)
{
    const struct td_fatbin_regions *r = c->regions;
    td_view_list_begin(v, "sections", NULL);
    size_t next = 0; /* the entries lie in region order */
    for (size_t i = 0; i < r->count; i++) {
        size_t first = next;
        while (next < c->n && c->region[next] == i)
            next++;
        size_t entries = next - first;
        if (!containers[i])
            continue;
        if (v->kind == TD_VIEW_JSON) {
            td_view_row_begin(v);
            td_view_str(v, "name", NULL, r->list[i].name);
            td_view_uint(v, "containers", NULL, containers[i]);
            td_view_uint(v, "entries", NULL, entries);
            td_view_row_end(v);
        }
        td_view_note(v, "%-16s %s: %zu container%s, %zu entr%s", "fatbin", r->list[i].name,
                     containers[i], containers[i] == 1 ? "" : "s", entries,
                     entries == 1 ? "y" : "ies");
    }
    td_view_list_end(v);
}

/* A region's releases, passed on with file offsets. */
struct region_release {
    const struct td_inspect_opts *o;
    uint64_t base;
};

static void region_release(void *rctx, uint64_t off, uint64_t len)
{
    const struct region_release *r = rctx;
    r->o->release(r->o->release_ctx, r->base + off, len);
}

/* Reads every region of R from the file in BUF; CONTAINERS per region.
 * The regions searched (not the fat binary section, which is walked) give
 * their pages back behind the search when O can release them:
 * libtorch_cpu's 11 MB of data sections were 70% of inspect's peak RSS
 * once touched. */
static void read_all(const struct td_buf *buf, const struct td_inspect_opts *o, struct collected *c,
                     size_t *containers, struct td_err *bad)
{
    for (size_t i = 0; i < c->regions->count && !c->full; i++) {
        const struct td_fatbin_region *g = &c->regions->list[i];
        struct region_release rr = {o, g->offset};
        const uint8_t *data = td_buf_at(buf, g->offset, g->size);
        struct td_fatbin_scan st = {0};
        struct td_err err = {0};
        c->at = (uint16_t)i;
        if (data && o->release && !g->primary)
            td_fatbin_scan_mapped(data, (size_t)g->size, region_release, &rr, collect, c, &st);
        else if (data)
            td_fatbin_scan(data, (size_t)g->size, g->primary, collect, c, &st, &err);
        containers[i] = st.containers;
        if (err.set && !bad->set)
            td_err_set(bad, "%s section: %s", g->name, err.msg);
    }
    if (c->full && !bad->set)
        td_err_set(bad, "out of memory after %zu fat binary entries", c->n);
}

/* The search of a file's regions, and what it found: run at once, or on
 * a thread of its own beside inspect's symbol pass (the two read
 * different parts of the file: libtorch_cpu's 9.7 MB of data sections,
 * its 3.6 MB of symbol and string tables). */
struct td_fatbin_job {
    const struct td_buf *buf;
    const struct td_inspect_opts *o;
    struct td_fatbin_regions r;
    struct td_err fail; /* the regions could not be listed: "fatbin": null */
    struct collected c;
    size_t *containers;
    struct td_err bad;     /* what the search met, reported in the block */
    struct td_arena arena; /* the entries: the search's own, as it may run on a thread */
    pthread_t thread;
    bool threaded;
    struct claim *claim; /* with a thread: which of the two does the search */
};

static void *search_job(void *arg)
{
    struct td_fatbin_job *j = arg;
    read_all(j->buf, j->o, &j->c, j->containers, &j->bad);
    return NULL;
}

/* The search goes to whichever of the thread and its starter claims it
 * first: on a loaded machine a new thread may wait in a run queue for
 * longer than the symbol pass takes (the starter waited 5-45 ms in 8 of
 * 20 runs at a load average of 8 on the 2 cores), and the starter then
 * searches itself rather than wait. The claim is shared by the two and
 * freed by the last one done with it; a thread that lost it touches
 * nothing else, so the starter need not wait for it to run at all. */
struct claim {
    atomic_int taken, users;
    struct td_fatbin_job *job;
};

static bool take(struct claim *c)
{
    int free_ = 0;
    return atomic_compare_exchange_strong(&c->taken, &free_, 1);
}

static void leave(struct claim *c)
{
    if (atomic_fetch_sub(&c->users, 1) == 1)
        free(c);
}

static void *claimed_search(void *arg)
{
    struct claim *c = arg;
    if (take(c))
        search_job(c->job);
    leave(c);
    return NULL;
}

static int describe(struct td_view *v, struct td_fatbin_job *j, struct td_err *err)
{
    const struct td_fatbin_regions *r = &j->r;
    const struct td_inspect_opts *o = j->o;
    struct td_arena *arena = &j->arena;
    struct collected c = j->c;
    size_t *containers = j->containers;
    struct td_err bad = j->bad;
    size_t total = 0, first = r->count;
    for (size_t i = 0; i < r->count; i++) {
        total += containers[i];
        if (first == r->count && (containers[i] || r->list[i].primary))
            first = i;
    }
    if (first == r->count && !bad.set) {
        td_view_json_str(v, "fatbin", NULL);
        return 0;
    }
    td_view_begin(v, "fatbin", NULL);
    td_view_str(v, "section", NULL, first < r->count ? r->list[first].name : NULL);
    td_view_uint(v, "containers", NULL, total);
    describe_sections(v, &c, containers);
    const char **archs;
    struct td_fatbin all = {.entries = c.entries, .count = c.n};
    size_t n = td_fatbin_archs(&all, arena, &archs);
    td_view_list_begin_inline(v, "archs", "gpu archs");
    for (size_t i = 0; i < n; i++)
        td_view_item(v, archs[i]);
    td_view_list_end(v);
    td_view_list_begin(v, "entries", NULL);
    for (size_t i = 0; v->kind == TD_VIEW_JSON && i < c.n; i++)
        json_entry(v, &c.entries[i], r->list[c.region[i]].name);
    td_view_list_end(v);
    if (v->kind == TD_VIEW_TEXT)
        text_groups(v, &c, o->verbose);
    td_view_str(v, "error", "fatbin error", bad.set ? bad.msg : NULL);
    td_view_end(v);
    if (!bad.set)
        return 0;
    td_err_set(err, "%s", bad.msg);
    return -1;
}

/* Below this many bytes to search, a thread costs more than it saves. */
enum { THREAD_FROM = 1 << 20 };

/* Starts J, whose regions of BUF are listed (or J->fail says why not):
 * searched on a thread where MAY_THREAD and there is enough to search,
 * else at once. NULL when out of memory. */
static struct td_fatbin_job *start(const struct td_buf *buf, const struct td_inspect_opts *o,
                                   struct td_arena *arena, struct td_fatbin_job *j, bool may_thread)
{
    if (!j)
        return NULL;
    j->buf = buf, j->o = o;
    if (j->fail.set)
        return j;
    /* The entries' arena gets what the file's has left: the cap they had
     * when they were allocated in it. */
    size_t cap = arena->cap ? arena->cap : TD_ARENA_DEFAULT_CAP;
    j->arena.cap = cap > arena->used_total ? cap - arena->used_total : 1;
    j->c = (struct collected){.regions = &j->r, .arena = &j->arena};
    j->containers = td_arena_array(arena, j->r.count ? j->r.count : 1, sizeof *j->containers);
    if (!j->containers)
        return NULL;
    uint64_t searched = 0;
    for (size_t i = 0; i < j->r.count; i++)
        searched += j->r.list[i].primary ? 0 : j->r.list[i].size;
    if (may_thread && searched >= THREAD_FROM && (j->claim = malloc(sizeof *j->claim))) {
        atomic_init(&j->claim->taken, 0);
        atomic_init(&j->claim->users, 2);
        j->claim->job = j;
        j->threaded = pthread_create(&j->thread, NULL, claimed_search, j->claim) == 0;
        if (!j->threaded)
            free(j->claim), j->claim = NULL;
    }
    if (!j->threaded)
        search_job(j);
    return j;
}

struct td_fatbin_job *td_inspect_elf_fatbin_start(const struct td_elf *elf,
                                                  const struct td_inspect_opts *o,
                                                  struct td_arena *arena, bool may_thread)
{
    struct td_fatbin_job *j = td_arena_alloc(arena, sizeof *j);
    if (j)
        td_fatbin_regions_elf(elf, arena, &j->r, &j->fail);
    return start(&elf->buf, o, arena, j, may_thread);
}

int td_inspect_fatbin_finish(struct td_view *v, struct td_fatbin_job *j, struct td_err *err)
{
    if (!j) {
        td_err_set(err, "fat binary: out of memory");
        return -1;
    }
    if (j->threaded && take(j->claim)) { /* the thread has not started: search here */
        search_job(j);
        pthread_detach(j->thread);
    } else if (j->threaded) {
        pthread_join(j->thread, NULL);
    }
    if (j->threaded)
        leave(j->claim);
    j->threaded = false;
    int rc;
    if (j->fail.set) {
        td_view_json_str(v, "fatbin", NULL);
        td_err_set(err, "%s", j->fail.msg);
        rc = -1;
    } else {
        rc = describe(v, j, err);
    }
    td_arena_free(&j->arena);
    return rc;
}

int td_inspect_elf_fatbin(struct td_view *v, const struct td_elf *elf,
                          const struct td_inspect_opts *o, struct td_arena *arena,
                          struct td_err *err)
{
    return td_inspect_fatbin_finish(v, td_inspect_elf_fatbin_start(elf, o, arena, false), err);
}

int td_inspect_pe_fatbin(struct td_view *v, const struct td_pe *pe, const struct td_inspect_opts *o,
                         struct td_arena *arena, struct td_err *err)
{
    struct td_fatbin_job *j = td_arena_alloc(arena, sizeof *j);
    if (j)
        td_fatbin_regions_pe(pe, arena, &j->r, &j->fail);
    return td_inspect_fatbin_finish(v, start(&pe->buf, o, arena, j, false), err);
}
