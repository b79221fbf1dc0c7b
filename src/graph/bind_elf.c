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
 * own while the closure is still being found (once it is found, the
 * closure's thread reads objects from the other end of the queue). Then
 * each object's GNU hash chain is scanned once against that table
 * (bind_provide.c), by two threads taking the objects heaviest first. This file drives the two
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

/* Object I of the scope: the load order, then the interpreter and its own
 * closure (the scope tail); NULL past the end. */
static struct td_object *nth(const struct td_graph *g, size_t i)
{
    if (i < g->count)
        return g->objects[i];
    return i - g->count < g->n_scope_tail ? g->scope_tail[i - g->count] : NULL;
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
    size_t end; /* the gathering thread takes [taken, end): a helper the rest */
    bool closed;
    struct td_bind_helped *helped; /* what the closure's thread read once it was found */
    size_t n_helped;
};

/* Room in RD's default-version counters for every reference so far. */
static bool reserve_defaults(struct td_bind_reader *rd)
{
    size_t need = rd->bd->refs.n + 1;
    if (need <= rd->defaults_cap)
        return true;
    size_t cap = rd->defaults_cap ? rd->defaults_cap : 4096;
    while (cap < need)
        cap *= 2;
    rd->defaults = td_pages_alloc(&rd->pages, cap); /* the old ones are all zero again */
    rd->defaults_cap = rd->defaults ? cap : 0;
    return rd->defaults != NULL;
}

/* Where the hash table of E starts (GNU: its buckets; what binding reads
 * of it). */
static uint64_t hash_start(const struct td_elf *e)
{
    return e->has_gnu_hash ? e->gnu.buckets_off : e->sysv.buckets_off;
}

/* The nearest of the N table starts AT after OFF, where the table at OFF
 * ends at the latest when they are laid out one after the other (as
 * linkers do); 0 when none follows. */
static uint64_t next_table(const uint64_t *at, size_t n, uint64_t off)
{
    uint64_t next = 0;
    for (size_t k = 0; k < n; k++)
        if (at[k] > off && (next == 0 || at[k] < next))
            next = at[k];
    return next;
}

/* Reads E's tables (hash, symbols, strings, versions) in one piece when
 * they lie together, before its symbols are counted: as many symbols as
 * fit before the next table are assumed (the exact count is taken from
 * the hash table read with them). Points the hash and string windows at
 * them; false (the windows read in pieces then) otherwise. */
static bool read_tables_whole(struct td_bind_reader *rd, const struct td_elf *e, int fd)
{
    enum { MAX_IMAGE = 64 * 1024 * 1024, SLACK = 64 * 1024 };
    enum { HASH, SYMS, STRS, VERSYM };
    uint64_t at[4] = {hash_start(e), 0, e->strtab_off, 0}, len[4];
    bool versym = e->dyn.versym != 0;
    if (!td_elf_vaddr_to_offset(e, e->dyn.symtab, 0, &at[SYMS], NULL) ||
        (versym && !td_elf_vaddr_to_offset(e, e->dyn.versym, 0, &at[VERSYM], NULL)))
        return false;
    uint64_t ent = e->dyn.syment, count = e->dynsym_count;
    if (e->symcount_source == TD_ELF_SYMCOUNT_NOT_PARSED) {
        uint64_t next = next_table(at, 4, at[SYMS]);
        if (!next)
            return false;
        count = (next - at[SYMS]) / ent;
    }
    if (e->has_gnu_hash) {
        uint64_t next = next_table(at, 4, at[HASH]), avail = e->gnu.chain_off + e->gnu.chain_avail;
        len[HASH] = (next && next < avail ? next : avail) - at[HASH];
    } else {
        len[HASH] = e->sysv.chain_off + e->sysv.nchain * e->sysv.width - at[HASH];
    }
    len[SYMS] = count * ent;
    len[STRS] = e->strtab_size;
    len[VERSYM] = versym ? 2 * count : 0;
    uint64_t first = UINT64_MAX, last = 0, sum = 0;
    for (size_t k = 0; k < 4; k++) {
        if (!len[k])
            continue;
        if (at[k] > UINT64_MAX - len[k] || len[k] > MAX_IMAGE)
            return false;
        first = at[k] < first ? at[k] : first;
        last = at[k] + len[k] > last ? at[k] + len[k] : last;
        sum += len[k];
    }
    /* Not when the tables lie far apart: the gaps would be read too. */
    if (first >= last || last - first > MAX_IMAGE || last - first > sum + sum / 4 + SLACK ||
        !td_image_load(&rd->image, fd, first, last))
        return false;
    td_image_view(&rd->image, at[HASH], len[HASH], &rd->hash);
    td_image_view(&rd->image, at[STRS], len[STRS], &rd->strs);
    return true;
}

/* Once E's symbols are counted: points the symbol and version windows at
 * the image; false when it does not hold them. */
static bool view_symbols(struct td_bind_reader *rd, const struct td_elf *e)
{
    uint64_t count = e->dynsym_count;
    return td_image_view(&rd->image, e->symtab_off, count * e->dyn.syment, &rd->syms) &&
           (!e->has_versym || td_image_view(&rd->image, e->versym_off, 2 * count, &rd->versym));
}

/* Keeps a copy of what the hash window holds (the object's hash table,
 * 6% of its tables) for asking it again after the closure: the chain is
 * then scanned without reading the file. */
static void keep_hash_table(struct td_bind_reader *rd, const uint8_t **hash, uint64_t *off,
                            uint64_t *len)
{
    const struct td_window *w = &rd->hash;
    uint8_t *copy = w->mem ? td_pages_alloc(&rd->pages, (size_t)(w->hi - w->lo)) : NULL;
    if (!copy)
        return;
    memcpy(copy, w->mem, (size_t)(w->hi - w->lo));
    *hash = copy;
    *off = w->lo;
    *len = w->hi - w->lo;
}

/* O's references into the table, and, when its tables could be read
 * whole, the references known so far that it defines: the tables are in
 * memory now, and most references come from objects loaded before the
 * ones that define them (the rest are asked for once the closure is
 * complete). */
static bool gather_one(struct td_bind_reader *rd, struct td_object *o)
{
    if (o->kind != TD_FILE_ELF)
        return true;
    bool owned;
    int fd = td_bind_object_fd(rd, o, &owned);
    if (fd < 0)
        return true;
    struct td_elf *e = &o->u.elf;
    if (e->dyn.syment >= td_bind_entry_size(e)) {
        bool whole = read_tables_whole(rd, e, fd);
        if (td_bind_count_symbols(rd, e, fd)) {
            whole = whole && view_symbols(rd, e);
            td_bind_walk_references(rd, o, fd, TD_WALK_ADD, NULL);
            struct td_bind_object *rec = whole ? td_bind_object_record(rd, o) : NULL;
            if (rec && !rd->failed && reserve_defaults(rd)) {
                rd->from_ref = 0;
                td_bind_provide(rd, o, fd);
                rec->seen = (uint32_t)rd->bd->refs.n;
                rec->provided = true;
                keep_hash_table(rd, &rec->hash, &rec->hash_off, &rec->hash_len);
            }
        }
    }
    if (owned)
        close(fd);
    return !rd->failed;
}

/* The next object handed over, NULL once the queue is closed and empty. */
static struct td_object *next_object(struct td_bind_session *s)
{
    pthread_mutex_lock(&s->lock);
    while (s->taken == s->end && !s->closed)
        pthread_cond_wait(&s->more, &s->lock);
    struct td_object *o = s->taken < s->end ? s->queue[s->taken++] : NULL;
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

/* ---- Helping, once the closure is found. ---- */

/* By then the closure's thread has nothing left to do but wait for the
 * gathering thread, with a core idle (docs/performance.md, session 9): it
 * takes objects from the end of the queue while the gathering thread goes
 * on from its start, and collects their references without writing
 * anything shared. They are added to the table once the gathering thread
 * has ended; what they define is asked in the last pass. */
struct td_bind_helped {
    struct td_object *o;
    struct td_bind_collected refs;
    const uint8_t *hash; /* a copy of its hash table, when its tables were read whole */
    uint64_t hash_off, hash_len;
};

/* The last object not taken yet, taken from the end of the queue; NULL
 * when none is left. */
static struct td_object *take_last(struct td_bind_session *s)
{
    pthread_mutex_lock(&s->lock);
    struct td_object *o = s->taken < s->end ? s->queue[--s->end] : NULL;
    pthread_mutex_unlock(&s->lock);
    return o;
}

static void collect_one(struct td_bind_reader *rd, struct td_object *o, struct td_bind_helped *h)
{
    memset(h, 0, sizeof *h);
    h->o = o;
    if (o->kind != TD_FILE_ELF)
        return;
    bool owned;
    int fd = td_bind_object_fd(rd, o, &owned);
    if (fd < 0)
        return;
    struct td_elf *e = &o->u.elf;
    if (e->dyn.syment >= td_bind_entry_size(e)) {
        bool whole = read_tables_whole(rd, e, fd);
        if (td_bind_count_symbols(rd, e, fd)) {
            whole = whole && view_symbols(rd, e);
            td_bind_walk_references(rd, o, fd, TD_WALK_COLLECT, &h->refs);
            if (whole)
                keep_hash_table(rd, &h->hash, &h->hash_off, &h->hash_len);
        }
    }
    if (owned)
        close(fd);
}

/* The closure is complete (the queue closed): objects from its end, by
 * reader 1, which is idle until the last pass. */
static void help_gathering(struct td_bind_session *s)
{
    struct td_bind_reader *rd = &s->rd[1];
    s->helped = calloc(s->queued + 1, sizeof *s->helped);
    rd->image.small_pages = true; /* its tables are seldom large: no 2 MiB page for them */
    struct td_object *o;
    while (s->helped && !rd->failed && (o = take_last(s)) != NULL)
        collect_one(rd, o, &s->helped[s->n_helped++]);
}

/* After the gathering thread: what the helper collected, into the table
 * and the records, by reader 0 (its thread has ended). */
static void add_helped(struct td_bind_session *s)
{
    struct td_bind_reader *rd = &s->rd[0];
    for (size_t k = 0; k < s->n_helped && !rd->failed; k++) {
        struct td_bind_helped *h = &s->helped[k];
        struct td_bind_object *rec = td_bind_object_record(rd, h->o);
        if (!rec || !td_bind_add_collected(rd, h->o, &h->refs)) {
            rd->failed = true;
            break;
        }
        rec = &rd->bd->objs[h->o->index]; /* the records may have moved */
        rec->hash = h->hash;
        rec->hash_off = h->hash_off;
        rec->hash_len = h->hash_len;
    }
    s->bd.failed |= rd->failed || s->rd[1].failed;
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
    g->on_add = td_graph_bind_elf_offer; /* every object the closure adds from now on */
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
        s->queue[s->queued++] = o, s->end = s->queued;
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
    for (int k = 0; k < READERS; k++) {
        td_pages_free(&s->rd[k].pages); /* the references and numbers too: reader 0's */
        free(s->rd[k].items);
        free(s->rd[k].tmp);
        td_image_free(&s->rd[k].image);
    }
    td_versions_free(&s->bd.versions);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->more);
    free(s->queue);
    free(s->helped);
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

/* The first reference the object at I of the scope has not been asked
 * for (0 for one never asked: the interpreter, or tables not read whole). */
static uint32_t first_unasked(const struct td_binding *bd, size_t i)
{
    return i < bd->g->count && i < bd->objs_cap && bd->objs[i].provided ? bd->objs[i].seen : 0;
}

enum half { PROVIDE, REPORT };

static void read_object(struct td_bind_reader *rd, struct td_object *o, enum half half)
{
    bool owned;
    int fd = td_bind_object_fd(rd, o, &owned);
    if (fd < 0)
        return;
    const struct td_binding *bd = rd->bd;
    if (o->index < bd->objs_cap && bd->objs[o->index].hash && o == nth(bd->g, o->index)) {
        const struct td_bind_object *rec = &bd->objs[o->index];
        td_window_show(&rd->hash, rec->hash, rec->hash_off, rec->hash_len);
    }
    if (o->u.elf.dyn.syment >= td_bind_entry_size(&o->u.elf) &&
        td_bind_count_symbols(rd, &o->u.elf, fd)) {
        if (half == PROVIDE)
            td_bind_provide(rd, o, fd);
        else
            td_bind_walk_references(rd, o, fd, TD_WALK_REPORT, NULL);
    }
    /* Asked for the last time: the descriptor goes now, on this reader's
     * core, rather than with the graph (a report reopens the file). */
    if (owned || half == PROVIDE)
        close(fd);
    if (!owned && half == PROVIDE)
        o->fd = -1;
}

/* One half: PROVIDE, the objects in the planned order, each taken by the
 * first reader free and asked for the references it was not asked for
 * while they were gathered; REPORT, the referrers in load order (one
 * thread). */
static void run_half(struct td_bind_reader *rd, enum half half)
{
    struct td_binding *bd = rd->bd;
    struct td_graph *g = bd->g;
    for (size_t i = 0; i < td_graph_scope_size(g) && !rd->failed && !bd->failed; i++) {
        size_t at = i;
        if (half == PROVIDE && td_refs_all_found(&bd->refs))
            break; /* the objects left cannot change the answer */
        if (half == PROVIDE) {
            at = __atomic_fetch_add(&bd->next, 1, __ATOMIC_RELAXED);
            if (at >= bd->n_order)
                break;
            at = bd->order[at];
            rd->from_ref = first_unasked(bd, at);
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

/* How much asking object I of the scope takes, roughly: its symbol
 * count; 0 when it has been asked for every reference already. */
static uint64_t weight(const struct td_binding *bd, size_t i)
{
    const struct td_object *o = nth(bd->g, i);
    if (!o || o->kind != TD_FILE_ELF || first_unasked(bd, i) == bd->refs.n)
        return 0;
    return o->u.elf.dynsym_count ? o->u.elf.dynsym_count : 1;
}

/* The objects still to ask, in the order the readers take them: the
 * heaviest first, so that the two finish together (each takes the next
 * one when it is free). */
static void plan(struct td_binding *bd)
{
    size_t n = 0;
    uint32_t *order = bd->order;
    for (size_t i = 0; i < td_graph_scope_size(bd->g); i++) {
        uint64_t w = weight(bd, i);
        if (!w)
            continue;
        size_t k = n++; /* insertion sort: a few hundred objects */
        for (; k > 0 && weight(bd, order[k - 1]) < w; k--)
            order[k] = order[k - 1];
        order[k] = (uint32_t)i;
    }
    bd->n_order = n;
    bd->next = 0;
}

/* Asks the objects for the references they were not asked for while
 * gathering: true when all were found. */
static bool provide_all(struct td_bind_session *s)
{
    struct td_binding *bd = &s->bd;
    td_refs_filter_unfound(&bd->refs);
    plan(bd);
    for (int k = 0; k < READERS; k++)
        if (!reserve_defaults(&s->rd[k]))
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
    bd->mv = calloc(td_graph_scope_size(g) + 1, sizeof *bd->mv);
    bd->results = calloc(td_graph_scope_size(g) + 1, sizeof *bd->results);
    bd->order = calloc(td_graph_scope_size(g) + 1, sizeof *bd->order);
    bd->referrer = calloc(td_graph_scope_size(g) + 1, sizeof *bd->referrer);
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
    help_gathering(s);
    finish_gathering(s);
    add_helped(s);
    if (!bd->failed && known && !provide_all(s) && !bd->failed)
        run_half(&s->rd[0], REPORT); /* names, in symbol order, of what is missing */
    g->symbols_checked = bd->refs.n;
    for (size_t i = 0; i < g->count && !bd->failed; i++)
        if (bd->results[i].total)
            report_unbound(g, &bd->results[i]);
    td_graph_bind_elf_end(g);
}
