/* ELF symbol binding across the lookup scope, as ld.so does it: every
 * undefined, non-weak dynamic symbol of every object must be defined by
 * some object of the global scope (the program, then the libraries in
 * breadth-first load order), with the version its reference names; every
 * version an object needs from a library must be defined there
 * (glibc elf/dl-version.c, "version `X' not found (required by Y)").
 *
 * Only whether some object defines a reference matters here, not which
 * one ld.so would take first, so the work is arranged for the fewest bytes
 * read (docs/performance.md). First every object's undefined references,
 * read in pieces with pread, are gathered into one table of distinct
 * (name, version) pairs (bind_gather.c, bind_refs.h), on a thread of their
 * own while the closure is still being found. Then each object's GNU hash
 * chain is scanned once against that table (bind_provide.c), by two
 * threads taking the objects heaviest first. This file drives the two
 * halves and reports what nothing defines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "graph/bind_elf.h"

enum { READERS = 2 }; /* DESIGN.md: use both cores */

static void report_unbound(struct td_graph *g, const struct td_unbound *u)
{
    struct td_unbound *grown = realloc(g->unbound, (g->n_unbound + 1) * sizeof *grown);
    if (!grown)
        return;
    g->unbound = grown;
    g->unbound[g->n_unbound++] = *u;
    char list[2048] = "";
    for (size_t k = 0; k < u->shown; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                 u->symbols[k]);
    td_findings_add(&g->findings, TD_SEV_ERROR, TD_KIND_MISSING_SYMBOL, NULL, u->object->path,
                    u->symbols[0],
                    "a library the loader finds first is an older or different build than the one "
                    "this was linked against: install matching versions",
                    "%zu undefined symbol%s of %s %s defined by nothing in the lookup scope: %s%s",
                    u->total, u->total == 1 ? "" : "s", u->object->name,
                    u->total == 1 ? "is" : "are", list, u->total > u->shown ? ", ..." : "");
}

/* ---- The whole closure, on two threads. ---- */

/* Object I of the scope: the load order, then the interpreter (NULL when
 * there is none). */
static struct td_object *nth(const struct td_graph *g, size_t i)
{
    return i < g->count ? g->objects[i] : g->interpreter;
}

/* References are gathered from each object as the closure adds it, on a
 * thread of their own (reader 0), while the loader model goes on finding
 * the next ones: the objects are handed over through a queue. */
struct td_bind_session {
    struct td_binding bd;
    struct td_bind_reader rd[READERS];
    pthread_t thread;
    bool threaded;
    pthread_mutex_t lock;
    pthread_cond_t more;
    struct td_object **queue; /* grown by the closure's thread, under LOCK */
    size_t queued, cap, taken;
    bool closed;
};

static bool gather_one(struct td_bind_reader *rd, struct td_object *o)
{
    if (o->kind != TD_FILE_ELF)
        return true;
    bool owned;
    int fd = td_bind_object_fd(rd, o, &owned);
    if (fd < 0)
        return true;
    if (o->u.elf.dyn.syment >= td_bind_entry_size(&o->u.elf) &&
        td_bind_count_symbols(rd, &o->u.elf, fd))
        td_bind_walk_references(rd, o, fd, false);
    if (owned)
        close(fd);
    return !rd->failed;
}

/* The next object handed over, NULL once the queue is closed and empty. */
static struct td_object *next_object(struct td_bind_session *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->taken == s->queued && !s->closed)
        pthread_cond_wait(&s->more, &s->lock);
    struct td_object *o = s->taken < s->queued ? s->queue[s->taken++] : NULL;
    pthread_mutex_unlock(&s->lock);
    return o;
}

static void *gather_thread(void *arg)
{
    struct td_bind_session *s = arg;
    struct td_object *o;
    while ((o = next_object(s)) != NULL)
        if (!gather_one(&s->rd[0], o))
            break;
    return NULL;
}

/* A reader of the binding BD whose memory is a reservation of its own
 * (no locking between the threads; its pages are faulted in by one). */
static void reader_init(struct td_bind_reader *rd, struct td_binding *bd, unsigned char id)
{
    enum { RESERVE = 64 * 1024 * 1024 };
    memset(rd, 0, sizeof *rd);
    rd->bd = bd;
    rd->id = id;
    td_pages_init(&rd->pages, RESERVE);
    rd->syms.pages = rd->versym.pages = rd->strs.pages = rd->hash.pages = &rd->pages;
}

void td_graph_bind_elf_start(struct td_graph *g)
{
    struct td_bind_session *s = calloc(1, sizeof *s);
    if (!s)
        return;
    s->bd.g = g;
    for (int k = 0; k < READERS; k++)
        reader_init(&s->rd[k], &s->bd, (unsigned char)k);
    if (!td_refs_init(&s->bd.refs, 4096, &s->rd[0].pages)) {
        for (int k = 0; k < READERS; k++)
            td_pages_free(&s->rd[k].pages);
        free(s);
        return;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->more, NULL);
    s->threaded = pthread_create(&s->thread, NULL, gather_thread, s) == 0;
    g->bind = s;
}

void td_graph_bind_elf_offer(struct td_graph *g, struct td_object *o)
{
    struct td_bind_session *s = g->bind;
    if (!s)
        return;
    pthread_mutex_lock(&s->lock);
    if (s->queued == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        struct td_object **grown = realloc(s->queue, cap * sizeof *grown);
        if (grown)
            s->queue = grown, s->cap = cap;
    }
    if (s->queued < s->cap)
        s->queue[s->queued++] = o;
    else
        s->bd.failed = true; /* out of memory: this object's references would be missed */
    pthread_cond_signal(&s->more);
    pthread_mutex_unlock(&s->lock);
}

/* Closes the queue and waits until every object handed over is gathered
 * (here, when no thread could be made). */
static void close_queue(struct td_bind_session *s)
{
    pthread_mutex_lock(&s->lock);
    s->closed = true;
    pthread_cond_signal(&s->more);
    pthread_mutex_unlock(&s->lock);
}

static void finish_gathering(struct td_bind_session *s)
{
    close_queue(s);
    if (s->threaded)
        pthread_join(s->thread, NULL);
    else
        gather_thread(s);
    s->threaded = false;
    s->bd.failed |= s->rd[0].failed;
}

void td_graph_bind_elf_end(struct td_graph *g)
{
    struct td_bind_session *s = g->bind;
    if (!s)
        return;
    if (!s->closed)
        finish_gathering(s);
    for (int k = 0; k < READERS; k++)
        td_pages_free(&s->rd[k].pages); /* the references and numbers too: reader 0's */
    td_versions_free(&s->bd.versions);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->more);
    free(s->queue);
    free(s->bd.mv);
    free(s->bd.results);
    free(s->bd.order);
    free(s->bd.referrer);
    free(s);
    g->bind = NULL;
}

static bool is_referrer(const struct td_binding *bd, size_t i)
{
    return i < bd->g->count && bd->referrer[i];
}

enum half { PROVIDE, REPORT };

static void read_object(struct td_bind_reader *rd, struct td_object *o, enum half half)
{
    bool owned;
    int fd = td_bind_object_fd(rd, o, &owned);
    if (fd < 0)
        return;
    if (o->u.elf.dyn.syment >= td_bind_entry_size(&o->u.elf) &&
        td_bind_count_symbols(rd, &o->u.elf, fd)) {
        if (half == PROVIDE)
            td_bind_provide(rd, o, fd);
        else
            td_bind_walk_references(rd, o, fd, true);
    }
    if (owned)
        close(fd);
}

/* One half: PROVIDE, the objects in the planned order, each taken by the
 * first reader free; REPORT, the referrers in load order (one thread). */
static void run_half(struct td_bind_reader *rd, enum half half)
{
    struct td_binding *bd = rd->bd;
    struct td_graph *g = bd->g;
    for (size_t i = 0; i <= g->count && !rd->failed && !bd->failed; i++) {
        size_t at = i;
        if (half == PROVIDE && td_refs_all_found(&bd->refs))
            break; /* the objects left cannot change the answer */
        if (half == PROVIDE) {
            at = __atomic_fetch_add(&bd->next, 1, __ATOMIC_RELAXED);
            if (at > g->count)
                break;
            at = bd->order[at];
        }
        struct td_object *o = nth(g, at);
        if (o && o->kind == TD_FILE_ELF && (half == PROVIDE || is_referrer(bd, at)))
            read_object(rd, o, half);
    }
}

struct job {
    struct td_bind_reader *rd;
    enum half half;
};

static void *run_job(void *arg)
{
    struct job *j = arg;
    run_half(j->rd, j->half);
    return NULL;
}

/* HALF on both readers at once (one after the other when no thread can
 * be made). */
static void run_both(struct td_bind_reader *rd, enum half half)
{
    struct job second = {&rd[1], half};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, run_job, &second) == 0;
    run_half(&rd[0], half);
    if (threaded)
        pthread_join(thread, NULL);
    else
        run_half(&rd[1], half);
    for (int k = 0; k < READERS; k++)
        rd->bd->failed |= rd[k].failed;
}

/* How much reading object O takes, roughly: its symbol count. */
static uint64_t weight(const struct td_object *o)
{
    return o && o->kind == TD_FILE_ELF ? o->u.elf.dynsym_count : 0;
}

/* The order the readers take the objects in: the heaviest first, so that
 * the two finish together (each takes the next one when it is free). */
static void plan(struct td_binding *bd)
{
    size_t n = bd->g->count + 1;
    uint32_t *order = bd->order;
    for (size_t i = 0; i < n; i++)
        order[i] = (uint32_t)i;
    for (size_t i = 1; i < n; i++) { /* insertion sort: a few hundred objects */
        uint32_t v = order[i];
        size_t k = i;
        for (; k > 0 && weight(nth(bd->g, order[k - 1])) < weight(nth(bd->g, v)); k--)
            order[k] = order[k - 1];
        order[k] = v;
    }
    bd->next = 0;
}

/* Asks every object for the references: true when all were found. */
static bool provide_all(struct td_bind_session *s)
{
    struct td_binding *bd = &s->bd;
    if (!td_refs_start_binding(&bd->refs))
        return false;
    plan(bd);
    for (int k = 0; k < READERS; k++)
        if (!(s->rd[k].defaults = td_pages_alloc(&s->rd[k].pages, bd->refs.n + 1)))
            return false;
    run_both(s->rd, PROVIDE);
    return !bd->failed && td_refs_all_found(&bd->refs);
}

/* The whole-graph facts the report needs: the versions each object's
 * libraries lack, and which objects miss a dependency of their own (their
 * unbound symbols would only repeat that finding; ldd -r buries the cause
 * in hundreds of such lines). */
static bool know_the_graph(struct td_binding *bd)
{
    struct td_graph *g = bd->g;
    bd->mv = calloc(g->count + 1, sizeof *bd->mv);
    bd->results = calloc(g->count + 1, sizeof *bd->results);
    bd->order = calloc(g->count + 1, sizeof *bd->order);
    bd->referrer = calloc(g->count + 1, sizeof *bd->referrer);
    if (!bd->mv || !bd->results || !bd->order || !bd->referrer)
        return false;
    td_bind_check_versions(g, bd->mv);
    for (size_t i = 0; i < g->count; i++)
        bd->referrer[i] = g->objects[i]->kind == TD_FILE_ELF;
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (!e->to && !e->delay && !e->weak)
            bd->referrer[e->from->index] = false;
    }
    return true;
}

void td_graph_bind_elf(struct td_graph *g)
{
    struct td_bind_session *s = g->bind;
    if (g->opts.versions_only || !s) { /* the version needs only */
        td_bind_check_versions(g, NULL);
        td_graph_bind_elf_end(g);
        return;
    }
    /* The version needs are checked while the last references are read:
     * that reads only headers the gathering thread does not write. */
    struct td_binding *bd = &s->bd;
    close_queue(s);
    bool known = know_the_graph(bd);
    finish_gathering(s);
    if (!bd->failed && known && !provide_all(s) && !bd->failed)
        run_half(&s->rd[0], REPORT); /* names, in symbol order, of what is missing */
    g->symbols_checked = bd->refs.n;
    for (size_t i = 0; i < g->count && !bd->failed; i++)
        if (bd->results[i].total)
            report_unbound(g, &bd->results[i]);
    td_graph_bind_elf_end(g);
}
