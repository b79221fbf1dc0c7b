/* One pass over a wheel (probe/wheel/wheel.h): the file mapped read-only,
 * the central directory read, then each member streamed once through the
 * zip reader (SHA-256 against RECORD, bytes by kind), the mapped pages
 * given back behind the stream so the resident set stays bounded, and each
 * native member read from memory: in place when stored, inflated whole
 * when deflated and at most TD_WHEEL_WHOLE_MAX, else (ELF) from the
 * ranges its reader asks for, each fetched by one more pass. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/map.h"
#include "format/detect.h"
#include "format/record.h"
#include "format/zip.h"
#include "probe/install/digest.h"
#include "probe/wheel/wheel.h"

enum {
    RELEASE_STEP = 16 << 20,        /* give back mapped pages every 16 MiB of stream */
    HEAD = 8 << 20,                 /* of a large deflated ELF member, kept on the first pass */
    TAIL = 4 << 20,                 /* likewise its end (section headers) */
    FETCH_MIN = 1 << 20,            /* a range fetched for a miss: at least this much */
    FETCH_MAX = TD_WHEEL_RANGE_MAX, /* and at most this much */
    MAX_EXTENTS = 24,               /* ranges held of one member (each pass adds one) */
    RING = 16 << 20,    /* bytes of a member a forward reader may be behind the stream */
    LOOKBACK = 8 << 20, /* and how far before its last read it may go back cheaply */
    RESTARTS = 16,      /* streams restarted for reads further back, per member */
    MAX_BINARIES = 8192,
    MAX_ISSUES = 4096,
    TEXT_MAX = 64 << 20, /* RECORD / METADATA / WHEEL read into memory */
};

struct reader {
    struct td_wheel_facts *w;
    const char *path;
    struct td_map map;
    struct td_zip zip;
    struct td_record record;
    const struct td_record_row **sorted; /* RECORD rows by path */
    bool *listed;                        /* per sorted row: the archive has it */
    size_t nsorted;
};

/* One pass over a member's bytes. */
struct pass {
    struct reader *r;
    const struct td_zip_entry *e;
    uint64_t data_off; /* of its (compressed) data in the mapped file */
    uint64_t produced, released;
    struct td_sha256 *sha; /* NULL on later passes */
    bool first, native;
    enum td_file_kind kind;
    uint8_t *whole;            /* deflated and small: the member, inflated */
    uint8_t *head;             /* large deflated ELF: its first HEAD bytes */
    uint8_t *tail;             /* and its last TAIL bytes */
    uint64_t want_lo, want_hi; /* a later pass: the range to capture */
    uint8_t *want;
};

static char *keep(struct td_wheel_facts *w, const char *s)
{
    return td_arena_strdup(&w->arena, s ? s : "");
}

static void problem(struct reader *r, const char *fmt, const char *a, const char *b)
{
    struct td_wheel_facts *w = r->w;
    if (!w->problems)
        w->problems = td_arena_array(&w->arena, MAX_ISSUES, sizeof *w->problems);
    if (!w->problems || w->nproblems >= MAX_ISSUES)
        return;
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, a, b);
    w->problems[w->nproblems++] = keep(w, msg);
}

static void record_issue(struct reader *r, const char *path, const char *kind, const char *detail)
{
    struct td_wheel_facts *w = r->w;
    if (!w->record_issues)
        w->record_issues = td_arena_array(&w->arena, MAX_ISSUES, sizeof *w->record_issues);
    if (!w->record_issues || w->nrecord_issues >= MAX_ISSUES)
        return;
    struct td_wheel_record_issue *i = &w->record_issues[w->nrecord_issues++];
    i->path = keep(w, path);
    i->kind = kind;
    i->detail = keep(w, detail);
}

/* Gives back the mapped pages the stream has passed (stored: the bytes
 * themselves; deflated: the input, estimated from the output's share). */
static void release_behind(struct pass *p, bool all)
{
    const struct td_zip_entry *e = p->e;
    uint64_t done = e->compressed_size;
    if (!all && e->uncompressed_size > 0)
        done = (uint64_t)((double)e->compressed_size * (double)p->produced /
                          (double)e->uncompressed_size);
    if (!all)
        done = done > FETCH_MIN ? done - FETCH_MIN : 0; /* zlib may still hold input behind */
    if (done > p->released) {
        td_map_release(&p->r->map, p->data_off + p->released, done - p->released);
        p->released = done;
    }
}

static void copy_range(uint8_t *dst, uint64_t dst_lo, uint64_t dst_hi, const uint8_t *chunk,
                       uint64_t at, size_t len)
{
    uint64_t lo = at > dst_lo ? at : dst_lo, hi = at + len < dst_hi ? at + len : dst_hi;
    if (lo < hi)
        memcpy(dst + (lo - dst_lo), chunk + (lo - at), (size_t)(hi - lo));
}

static int sink(void *ctx, const uint8_t *chunk, size_t len)
{
    struct pass *p = ctx;
    uint64_t size = p->e->uncompressed_size, at = p->produced;
    if (p->first) {
        p->first = false;
        p->kind = td_detect(chunk, len);
        p->native = p->kind == TD_FILE_ELF || p->kind == TD_FILE_PE || p->kind == TD_FILE_MACHO ||
                    p->kind == TD_FILE_MACHO_FAT;
        if (p->native && p->e->method != TD_ZIP_STORED) {
            if (size <= TD_WHEEL_WHOLE_MAX)
                p->whole = td_map_scratch((size_t)size);
            else if (p->kind == TD_FILE_ELF) {
                p->head = malloc(HEAD);
                p->tail = malloc(TAIL);
            }
        }
    }
    if (p->sha)
        td_sha256_update(p->sha, chunk, len);
    if (p->whole)
        memcpy(p->whole + at, chunk, len);
    if (p->head)
        copy_range(p->head, 0, HEAD, chunk, at, len);
    if (p->tail && size > TAIL)
        copy_range(p->tail, size - TAIL, size, chunk, at, len);
    if (p->want)
        copy_range(p->want, p->want_lo, p->want_hi, chunk, at, len);
    p->produced += len;
    if (p->produced / RELEASE_STEP != at / RELEASE_STEP)
        release_behind(p, false);
    /* A later pass stops once its range has gone by. */
    return p->want && !p->sha && p->produced >= p->want_hi ? 1 : 0;
}

/* ---- RECORD ---- */

static int row_cmp(const void *a, const void *b)
{
    const struct td_record_row *x = *(const struct td_record_row *const *)a,
                               *y = *(const struct td_record_row *const *)b;
    size_t n = x->path_len < y->path_len ? x->path_len : y->path_len;
    int c = memcmp(x->path, y->path, n);
    return c ? c : (x->path_len > y->path_len) - (x->path_len < y->path_len);
}

static long row_find(const struct reader *r, const char *path, size_t len)
{
    size_t lo = 0, hi = r->nsorted;
    struct td_record_row key = {.path = path, .path_len = len};
    const struct td_record_row *kp = &key;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = row_cmp(&kp, &r->sorted[mid]);
        if (c == 0)
            return (long)mid;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

/* A small text member, inflated into the arena; NULL when absent. */
static char *read_text(struct reader *r, const char *name, size_t *len)
{
    const struct td_zip_entry *e = td_zip_find(&r->zip, name, strlen(name));
    if (!e || e->uncompressed_size > TEXT_MAX)
        return NULL;
    char *text = td_arena_alloc(&r->w->arena, (size_t)e->uncompressed_size + 1);
    struct td_err err = {0};
    if (!text ||
        td_zip_extract(&r->zip, e, (uint8_t *)text, (size_t)e->uncompressed_size, &err) != 0) {
        if (err.set)
            problem(r, "%s: %s", r->w->filename, err.msg);
        return NULL;
    }
    text[e->uncompressed_size] = '\0';
    *len = (size_t)e->uncompressed_size;
    return text;
}

static void read_dist_info(struct reader *r)
{
    struct td_wheel_facts *w = r->w;
    const char *dir;
    struct td_err err = {0};
    if (td_zip_wheel_dist_info(&r->zip, &dir, &w->arena, &err) != 0) {
        problem(r, "%s: %s", w->filename, err.msg);
        return;
    }
    char name[1024];
    size_t len;
    snprintf(name, sizeof name, "%s/METADATA", dir);
    char *text = read_text(r, name, &len);
    struct td_zip_metadata m;
    if (text && td_zip_wheel_parse_metadata(&m, text, len, &w->arena, &err) == 0)
        for (size_t i = 0; i < m.requires_dist_count; i++) {
            const char *q = m.requires_dist[i];
            size_t n = strcspn(q, " <>=!~;[(");
            if (n == 5 && strncasecmp(q, "torch", 5) == 0) { /* PEP 503: names match without case */
                size_t cut = strcspn(q, ";");
                while (cut && q[cut - 1] == ' ')
                    cut--;
                w->torch_requirement = td_arena_strndup(&w->arena, q, cut);
                break;
            }
        }
    snprintf(name, sizeof name, "%s/RECORD", dir);
    text = read_text(r, name, &len);
    if (!text)
        return;
    w->has_record = true;
    struct td_err rerr = {0};
    if (td_record_parse(&r->record, text, len, &w->arena, &rerr) < 0)
        return;
    for (size_t i = 0; i < r->record.problem_count; i++)
        record_issue(r, "RECORD", TD_KIND_CORRUPTED_FILE, r->record.problems[i].message);
    r->sorted = td_arena_array(&w->arena, r->record.count + 1, sizeof *r->sorted);
    r->listed = td_arena_array(&w->arena, r->record.count + 1, sizeof *r->listed);
    if (!r->sorted || !r->listed)
        return;
    for (size_t i = 0; i < r->record.count; i++)
        r->sorted[i] = &r->record.rows[i];
    r->nsorted = r->record.count;
    qsort(r->sorted, r->nsorted, sizeof *r->sorted, row_cmp);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static enum td_wheel_size_kind kind_of(const char *name, bool native)
{
    if (native)
        return TD_WHEEL_SIZE_NATIVE;
    const char *slash = strchr(name, '/');
    if (slash && slash - name > 10 && strncmp(slash - 10, ".dist-info", 10) == 0)
        return TD_WHEEL_SIZE_METADATA;
    if (ends_with(name, ".py") || ends_with(name, ".pyc") || ends_with(name, ".pyi"))
        return TD_WHEEL_SIZE_PYTHON;
    if (ends_with(name, ".h") || ends_with(name, ".hpp") || ends_with(name, ".cuh"))
        return TD_WHEEL_SIZE_HEADERS;
    return TD_WHEEL_SIZE_OTHER;
}

/* RECORD's verdict on one streamed member. */
static void check_row(struct reader *r, const struct td_zip_entry *e, const uint8_t *digest)
{
    long at = row_find(r, e->name, e->name_len);
    char msg[1024];
    if (at < 0) {
        if (r->w->has_record && !ends_with(e->name, "/RECORD") &&
            !ends_with(e->name, "/RECORD.jws") && !ends_with(e->name, "/RECORD.p7s")) {
            snprintf(msg, sizeof msg, "%s is in the wheel but not in its RECORD", e->name);
            record_issue(r, e->name, TD_KIND_STRAY_FILE, msg);
        }
        return;
    }
    r->listed[at] = true;
    const struct td_record_row *row = r->sorted[at];
    if (row->has_size && row->size != e->uncompressed_size) {
        snprintf(msg, sizeof msg, "%s is %llu bytes, RECORD says %llu", e->name,
                 (unsigned long long)e->uncompressed_size, (unsigned long long)row->size);
        record_issue(r, e->name, TD_KIND_CORRUPTED_FILE, msg);
        return;
    }
    if (!row->algorithm || strcmp(row->algorithm, "sha256") != 0 || row->digest_len != 32)
        return; /* only sha256 is verified; RECORD itself has no hash */
    r->w->record_checked++;
    if (digest && memcmp(digest, row->digest, 32) != 0) {
        snprintf(msg, sizeof msg,
                 "%s's SHA-256 differs from its RECORD row (line %zu): the file was changed "
                 "after the wheel was built, or the download is damaged",
                 e->name, row->line);
        record_issue(r, e->name, TD_KIND_CORRUPTED_FILE, msg);
    }
}

/* ---- native members read in ranges ---- */

struct ranges {
    struct td_buf_extent ext[MAX_EXTENTS];
    size_t n;
    struct td_buf_sparse sparse;
};

static void ranges_free(struct ranges *g)
{
    for (size_t i = 0; i < g->n; i++)
        free((void *)g->ext[i].data);
    g->n = 0;
}

/* Adds [lo, hi) (merging the extents it touches), inflating the member again
 * up to HI. False when it cannot. */
static bool fetch(struct pass *proto, struct ranges *g, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; i < g->n;) {
        const struct td_buf_extent *x = &g->ext[i];
        if (x->off <= hi && lo <= x->off + x->len) {
            lo = x->off < lo ? x->off : lo;
            hi = x->off + x->len > hi ? x->off + x->len : hi;
            free((void *)x->data);
            g->ext[i] = g->ext[--g->n];
        } else {
            i++;
        }
    }
    if (g->n >= MAX_EXTENTS || hi - lo > FETCH_MAX + HEAD + TAIL)
        return false;
    struct pass p = *proto;
    p.produced = p.released = 0;
    p.sha = NULL;
    p.first = false;
    p.whole = p.head = p.tail = NULL;
    p.want_lo = lo;
    p.want_hi = hi;
    p.want = malloc((size_t)(hi - lo));
    struct td_err err = {0};
    int rc = p.want ? td_zip_stream(&p.r->zip, p.e, sink, &p, &err) : -1;
    release_behind(&p, true);
    if ((rc != 0 && rc != 1) || p.produced < hi) {
        free(p.want);
        return false;
    }
    g->ext[g->n++] = (struct td_buf_extent){lo, hi - lo, p.want};
    return true;
}

static int read_ranges(struct pass *p, struct td_wheel_binary *b, struct td_arena *arena,
                       struct td_err *err)
{
    uint64_t size = p->e->uncompressed_size;
    struct ranges g = {.n = 0};
    g.ext[g.n++] = (struct td_buf_extent){0, HEAD, p->head};
    g.ext[g.n++] = (struct td_buf_extent){size - TAIL, TAIL, p->tail};
    p->head = p->tail = NULL;
    int rc = -1;
    uint64_t last_miss = 0;
    for (int tries = 0; tries < MAX_EXTENTS; tries++) {
        memset(&g.sparse, 0, sizeof g.sparse);
        g.sparse.extents = g.ext;
        g.sparse.count = g.n;
        struct td_buf buf = td_buf_sparse_make((size_t)size, &g.sparse);
        struct td_wheel_binary copy = *b;
        struct td_err perr = {0};
        rc = td_wheel_binary_read(&copy, &buf, arena, &perr);
        if (!g.sparse.missed) {
            *b = copy;
            if (rc != 0)
                *err = perr;
            break;
        }
        uint64_t lo = g.sparse.miss_off, want = g.sparse.miss_len;
        if (tries > 0 && lo == last_miss) { /* the range fetched did not cover it */
            b->not_parsed = "a table larger than the ranges read of a deflated member";
            rc = 0;
            break;
        }
        last_miss = lo;
        want = want < FETCH_MIN ? FETCH_MIN : want > FETCH_MAX ? FETCH_MAX : want;
        uint64_t hi = lo + want > size ? size : lo + want;
        if (!fetch(p, &g, lo, hi)) {
            b->not_parsed = "a range its reader needed could not be held (deflated member too "
                            "large to read in ranges)";
            rc = 0;
            break;
        }
    }
    ranges_free(&g);
    return rc;
}

/* ---- a fat binary streamed: the inflater in a thread, its reader forward ---- */

/* The member's bytes [lo, hi) of a ring of RING bytes: the inflating
 * thread appends (waiting while the reader is RING behind), the fat binary
 * walker reads forward (waiting until the bytes it asks for have come). */
struct ring {
    struct pass pass;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint8_t *buf;
    uint64_t lo, hi, base;
    bool done, ended, running;
    int restarts;
    pthread_t thread;
};

static int ring_sink(void *ctx, const uint8_t *chunk, size_t len)
{
    struct ring *g = ctx;
    pthread_mutex_lock(&g->mu);
    while (!g->done && g->hi + len > g->lo + RING)
        pthread_cond_wait(&g->cv, &g->mu);
    bool done = g->done;
    pthread_mutex_unlock(&g->mu);
    if (done)
        return 1;
    for (size_t at = 0; at < len;) { /* the writer alone touches [hi, hi + len) */
        size_t pos = (size_t)((g->hi + at) % RING),
               n = RING - pos < len - at ? RING - pos : len - at;
        memcpy(g->buf + pos, chunk + at, n);
        at += n;
    }
    pthread_mutex_lock(&g->mu);
    g->hi += len;
    g->pass.produced = g->hi;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    if (g->pass.produced / RELEASE_STEP != (g->pass.produced - len) / RELEASE_STEP)
        release_behind(&g->pass, false);
    return 0;
}

static void *ring_thread(void *arg)
{
    struct ring *g = arg;
    struct td_err err = {0};
    td_zip_stream(&g->pass.r->zip, g->pass.e, ring_sink, g, &err);
    pthread_mutex_lock(&g->mu);
    g->ended = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* Starts the inflating thread from the member's first byte, keeping what
 * comes from LO on. */
static void ring_start(struct ring *g, uint64_t lo)
{
    struct pass p = g->pass;
    p.produced = p.released = 0;
    g->pass = p;
    g->lo = lo;
    g->hi = 0;
    g->done = g->ended = false;
    g->running = pthread_create(&g->thread, NULL, ring_thread, g) == 0;
    g->ended = !g->running;
}

static void ring_stop(struct ring *g)
{
    if (!g->running)
        return;
    pthread_mutex_lock(&g->mu);
    g->done = true;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    pthread_join(g->thread, NULL);
    g->running = false;
    release_behind(&g->pass, true);
}

static bool ring_read(void *src, uint64_t off, void *out, size_t n)
{
    struct ring *g = src;
    uint64_t at = g->base + off, keep = at > LOOKBACK ? at - LOOKBACK : 0;
    /* Further back than the ring holds (a long container checked, then
     * read from its start): the stream starts again, a bounded number of
     * times per member. */
    if (at < g->lo && g->restarts < RESTARTS) {
        g->restarts++;
        ring_stop(g);
        ring_start(g, keep);
    }
    pthread_mutex_lock(&g->mu);
    if (keep > g->lo) {
        g->lo = keep;
        pthread_cond_broadcast(&g->cv);
    }
    while (!g->ended && at + n > g->hi)
        pthread_cond_wait(&g->cv, &g->mu);
    bool ok = at >= g->lo && at + n <= g->hi && n <= RING && at + RING >= g->hi;
    for (size_t i = 0; ok && i < n;) {
        size_t pos = (size_t)((at + i) % RING), k = RING - pos < n - i ? RING - pos : n - i;
        memcpy((uint8_t *)out + i, g->buf + pos, k);
        i += k;
    }
    pthread_mutex_unlock(&g->mu);
    return ok;
}

/* Lists the fat binary containers of a deflated member too large to hold:
 * one more inflating pass, its regions read forward through the ring. */
static void stream_fatbin(struct pass *p, struct td_wheel_binary *b, struct td_arena *arena)
{
    struct ring *g = calloc(1, sizeof *g);
    uint8_t *buf = malloc(RING);
    if (!g || !buf) {
        free(g);
        free(buf);
        return;
    }
    g->pass = *p;
    g->pass.produced = g->pass.released = 0;
    g->pass.sha = NULL;
    g->pass.whole = g->pass.head = g->pass.tail = g->pass.want = NULL;
    g->buf = buf;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    ring_start(g, b->regions[0].offset > LOOKBACK ? b->regions[0].offset - LOOKBACK : 0);
    if (g->running) {
        for (size_t i = 0; i < b->nregions; i++) {
            struct td_err err = {0};
            g->base = b->regions[i].offset;
            if (td_wheel_binary_fatbin(b, ring_read, g, i, arena, &err) != 0)
                b->not_parsed = "part of its CUDA fat binary (a malformed header stopped it)";
        }
        if (g->restarts == RESTARTS)
            b->not_parsed = "part of its CUDA fat binary (read too far back too often to stream)";
        ring_stop(g);
    } else {
        b->not_parsed = "its CUDA fat binary (no thread to stream it)";
    }
    pthread_cond_destroy(&g->cv);
    pthread_mutex_destroy(&g->mu);
    free(buf);
    free(g);
}

/* ---- one member ---- */

static struct td_wheel_binary *new_binary(struct td_wheel_facts *w, const char *name)
{
    if (!w->binaries)
        w->binaries = td_arena_array(&w->arena, MAX_BINARIES, sizeof *w->binaries);
    if (!w->binaries || w->nbinaries >= MAX_BINARIES)
        return NULL;
    struct td_wheel_binary *b = &w->binaries[w->nbinaries++];
    memset(b, 0, sizeof *b);
    b->path = keep(w, name);
    return b;
}

static void read_native(struct reader *r, struct pass *p)
{
    struct td_wheel_facts *w = r->w;
    const struct td_zip_entry *e = p->e;
    struct td_wheel_binary *b = new_binary(w, e->name);
    if (!b)
        return;
    struct td_err err = {0};
    int rc = 0;
    if (e->method == TD_ZIP_STORED) {
        const uint8_t *data;
        size_t len;
        if (td_zip_stored(&r->zip, e, &data, &len, &err) == 0) {
            struct td_buf buf = td_buf_make(data, len, false);
            rc = td_wheel_binary_read(b, &buf, &w->arena, &err);
        }
    } else if (p->whole) {
        struct td_buf buf = td_buf_make(p->whole, (size_t)e->uncompressed_size, false);
        rc = td_wheel_binary_read(b, &buf, &w->arena, &err);
    } else if (p->head && p->tail) {
        rc = read_ranges(p, b, &w->arena, &err);
        if (rc == 0 && b->nregions)
            stream_fatbin(p, b, &w->arena);
    } else {
        b->not_parsed = "a deflated PE or Mach-O member larger than the size read whole";
        b->format = p->kind == TD_FILE_PE ? "pe" : "macho";
        b->os = p->kind == TD_FILE_PE ? "windows" : "macos";
    }
    if (rc != 0 || err.set) {
        problem(r, "%s: %s", e->name, err.set ? err.msg : "unreadable");
        w->nbinaries--;
        return;
    }
    w->size_by_kind[TD_WHEEL_SIZE_DEBUG] += b->debug_bytes;
    release_behind(p, true);
}

static void read_member(struct reader *r, const struct td_zip_entry *e)
{
    struct td_wheel_facts *w = r->w;
    struct pass p = {.r = r, .e = e, .first = true};
    struct td_err err = {0};
    w->members++;
    w->bytes += e->uncompressed_size;
    w->compressed_bytes += e->compressed_size;
    if (td_zip_data_offset(&r->zip, e, &p.data_off, &err) != 0) {
        problem(r, "%s", err.msg, NULL);
        return;
    }
    p.sha = td_sha256_begin();
    int rc = td_zip_stream(&r->zip, e, sink, &p, &err);
    uint8_t digest[32];
    bool hashed = td_sha256_end(p.sha, digest);
    p.sha = NULL;
    if (rc != 0) {
        problem(r, "%s", err.set ? err.msg : "member could not be read", NULL);
    } else {
        check_row(r, e, hashed ? digest : NULL);
        w->size_by_kind[kind_of(e->name, p.native)] += e->uncompressed_size;
        if (p.native)
            read_native(r, &p);
    }
    release_behind(&p, true);
    if (p.whole)
        td_map_scratch_free(p.whole, (size_t)e->uncompressed_size);
    free(p.head);
    free(p.tail);
}

static void read_tags(struct reader *r, const char *base)
{
    struct td_wheel_facts *w = r->w;
    struct td_zip_wheel_name wn;
    struct td_err err = {0};
    if (td_zip_wheel_parse_name(&wn, base, strlen(base), &w->arena, &err) != 0) {
        problem(r, "%s: %s", base, err.msg);
        return;
    }
    w->name = wn.name;
    w->version = wn.version;
    w->python_tags = wn.python.text;
    w->abi_tags = wn.abi.text;
    w->platform_tags = wn.platform.text;
    w->platforms = td_arena_array(&w->arena, wn.platform.count + 1, sizeof *w->platforms);
    if (!w->platforms)
        return;
    for (size_t i = 0; i < wn.platform.count; i++) {
        const char *t = wn.platform.items[i];
        td_wheel_platform_parse(t, strlen(t), &w->platforms[w->nplatforms++]);
    }
}

int td_wheel_read(const char *path, struct td_wheel_facts *w, struct td_err *err)
{
    memset(w, 0, sizeof *w);
    struct reader r = {.w = w, .path = path};
    w->path = keep(w, path);
    const char *base = strrchr(path, '/');
    w->filename = keep(w, base ? base + 1 : path);
    if (td_map_open(path, &r.map, err) != 0)
        return -1;
    if (td_zip_open(&r.zip, r.map.data, r.map.size, &w->arena, err) != 0) {
        td_err_prefix(err, "%s: ", path);
        td_map_close(&r.map);
        return -1;
    }
    read_tags(&r, w->filename);
    read_dist_info(&r);
    for (size_t i = 0; i < r.zip.count; i++)
        if (!td_zip_is_dir(&r.zip.entries[i]))
            read_member(&r, &r.zip.entries[i]);
    for (size_t i = 0; i < r.nsorted; i++) {
        const struct td_record_row *row = r.sorted[i];
        if (r.listed[i] || (row->path_len && row->path[row->path_len - 1] == '/'))
            continue;
        char msg[1024];
        snprintf(msg, sizeof msg, "%s is listed in RECORD but missing from the wheel", row->path);
        record_issue(&r, row->path, TD_KIND_CORRUPTED_FILE, msg);
    }
    td_map_close(&r.map);
    return 0;
}

void td_wheel_facts_free(struct td_wheel_facts *w)
{
    td_arena_free(&w->arena);
}
