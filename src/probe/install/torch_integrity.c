/* Integrity of an installed torch and of every distribution beside it that
 * the import touches (companions, nvidia-* wheels) against the installer's
 * manifest: the wheel's RECORD (sizes, SHA-256 as urlsafe base64 without
 * padding) or Debian's md5sums, and files inside torch/ the manifest does
 * not list. By default a file is hashed only when changed after install
 * (newer than its RECORD); --verify hashes all, on every core. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/map.h"
#include "format/record.h"
#include "graph/graph.h"
#include "probe/install/closure_checks.h"
#include "probe/install/conda_meta.h"
#include "probe/install/digest.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

enum {
    REPORT_LIMIT = 20, /* findings of one kind per install before a summary */
    READ_CHUNK = 1 << 20,
    MAX_DEPTH = 32,
    MAX_THREADS = 8,
};

/* The files the manifests list (open addressing, FNV-1a), each with the
 * distribution whose manifest lists it and that one's reinstall command;
 * it grows as every manifest of the install is read. */
struct listed {
    const char *path;
    const char *owner; /* "nvidia-cudnn-cu12 9.1.0.70" */
    const char *fix;
};

struct pathset {
    struct listed *slots;
    size_t mask, count;
};

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static struct listed *set_slot(const struct pathset *s, const char *path)
{
    size_t i = fnv1a(path) & s->mask;
    while (s->slots[i].path && strcmp(s->slots[i].path, path) != 0)
        i = (i + 1) & s->mask;
    return &s->slots[i];
}

/* Room for EXTRA more paths, at most half full (the old table is left in
 * the arena, which is freed whole at the end). */
static bool set_reserve(struct pathset *s, struct td_arena *a, size_t extra)
{
    size_t cap = s->slots ? s->mask + 1 : 64, need = s->count + extra;
    if (s->slots && need * 2 <= cap)
        return true;
    while (cap < need * 2 && cap < ((size_t)1 << 30))
        cap <<= 1;
    struct pathset grown = {.slots = td_arena_array(a, cap, sizeof *grown.slots), .mask = cap - 1};
    if (!grown.slots)
        return false;
    for (size_t i = 0; s->slots && i <= s->mask; i++)
        if (s->slots[i].path)
            *set_slot(&grown, s->slots[i].path) = s->slots[i];
    grown.count = s->count;
    *s = grown;
    return true;
}

static const struct listed *set_find(const struct pathset *s, const char *path)
{
    const struct listed *l = s->slots ? set_slot(s, path) : NULL;
    return l && l->path ? l : NULL;
}

static bool set_has(const struct pathset *s, const char *path)
{
    return set_find(s, path) != NULL;
}

/* Adds PATH (reserved for beforehand) as listed by OWNER. */
static void set_add(struct pathset *s, const char *path, const char *owner, const char *fix)
{
    struct listed *l = set_slot(s, path);
    if (!l->path)
        s->count++;
    *l = (struct listed){path, owner, fix};
}

enum algo { ALGO_SHA256, ALGO_MD5 };

/* A file to hash, and what its manifest says it hashes to. */
struct job {
    const char *path;
    char host[TD_PYFS_PATH_MAX];
    uint8_t want[TD_DIGEST_MAX];
    enum algo algo;
    uint64_t size;
    size_t order; /* its place in the manifest, for the report */
    enum { JOB_SAME, JOB_DIFFERS, JOB_UNREADABLE } result;
};

struct check {
    const struct td_probe_ctx *ctx;
    struct td_torch *t;
    struct td_findings *f;
    struct td_arena scratch; /* manifest text, rows and paths; freed at the end */
    struct pathset listed;
    const char *manifest; /* "RECORD" or "md5sums", for the wording */
    const char *what;     /* "torch 2.1.2+cu121", "nvidia-cudnn-cu12 9.1.0.70" */
    const char *installer;
    char fix[1024];       /* reinstall command for corrupted files */
    int64_t installed_ns; /* the manifest's mtime: a file newer than it changed since */
    struct job *jobs;     /* files to hash, hashed together at the end */
    size_t n_jobs, cap_jobs;
    size_t corrupted, stray;
};

/* Modification time in nanoseconds (seconds where the stat has no more). */
static int64_t mtime_ns(const struct stat *st)
{
#if defined(__linux__)
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
#else
    return (int64_t)st->st_mtime * 1000000000;
#endif
}

static void corrupted(struct check *c, const char *path, const char *fmt_what, ...) TD_PRINTF(3, 4);

static void corrupted(struct check *c, const char *path, const char *fmt_what, ...)
{
    if (++c->corrupted > REPORT_LIMIT)
        return;
    char what[512];
    va_list ap;
    va_start(ap, fmt_what);
    vsnprintf(what, sizeof what, fmt_what, ap);
    va_end(ap);
    td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_CORRUPTED_FILE, path, c->t->dir, NULL, c->fix,
                    "%s: %s; the %s install of %s is damaged", path, what, c->installer, c->what);
}

static void add_job(struct check *c, const char *path, enum algo algo, const uint8_t *digest,
                    size_t len, uint64_t size)
{
    if (c->n_jobs == c->cap_jobs) {
        size_t cap = c->cap_jobs ? c->cap_jobs * 2 : 64;
        struct job *grown = realloc(c->jobs, cap * sizeof *grown);
        if (!grown)
            return;
        c->jobs = grown, c->cap_jobs = cap;
    }
    struct job *j = &c->jobs[c->n_jobs];
    if (!td_pyfs_host(c->ctx, path, j->host, sizeof j->host))
        return;
    j->path = path, j->algo = algo, j->result = JOB_SAME, j->size = size, j->order = c->n_jobs;
    memcpy(j->want, digest, len);
    c->n_jobs++;
}

/* The hashing threads share one queue of jobs, taken in order. */
struct queue {
    struct job *jobs;
    size_t n;
    atomic_size_t next;
};

static void *hash_jobs(void *arg)
{
    struct queue *q = arg;
    uint8_t *buf = malloc(READ_CHUNK);
    for (size_t i; buf && (i = atomic_fetch_add(&q->next, 1)) < q->n;) {
        struct job *j = &q->jobs[i];
        enum td_digest_algo a = j->algo == ALGO_SHA256 ? TD_DIGEST_SHA256 : TD_DIGEST_MD5;
        uint8_t got[TD_DIGEST_MAX];
        int fd = td_open_file(j->host, NULL); /* binary; a FIFO is refused, never waited on */
        bool ok = fd >= 0 && td_digest_fd(fd, a, buf, READ_CHUNK, got);
        if (fd >= 0)
            close(fd);
        j->result = !ok                                       ? JOB_UNREADABLE
                    : memcmp(got, j->want, td_digest_size(a)) ? JOB_DIFFERS
                                                              : JOB_SAME;
    }
    free(buf);
    return NULL;
}

static size_t cores(void)
{
#ifdef _SC_NPROCESSORS_ONLN
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (size_t)n;
#else
    return 2;
#endif
}

static int larger_first(const void *x, const void *y)
{
    const struct job *a = x, *b = y;
    return a->size != b->size ? (a->size < b->size ? 1 : -1)
                              : (a->order > b->order) - (a->order < b->order);
}

static int manifest_order(const void *x, const void *y)
{
    const struct job *a = x, *b = y;
    return (a->order > b->order) - (a->order < b->order);
}

/* Hashes every job, on as many threads as there are cores (and jobs), the
 * largest files first so that no core is left with one big file at the
 * end; then reports them in manifest order. */
static void run_jobs(struct check *c)
{
    if (c->n_jobs > 1)
        qsort(c->jobs, c->n_jobs, sizeof *c->jobs, larger_first);
    struct queue q = {.jobs = c->jobs, .n = c->n_jobs};
    atomic_init(&q.next, 0);
    size_t n = cores() < c->n_jobs ? cores() : c->n_jobs, started = 0;
    pthread_t threads[MAX_THREADS];
    for (size_t i = 1; i < n; i++)
        started += pthread_create(&threads[started], NULL, hash_jobs, &q) == 0;
    hash_jobs(&q);
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    if (c->n_jobs > 1)
        qsort(c->jobs, c->n_jobs, sizeof *c->jobs, manifest_order);
    for (size_t i = 0; i < c->n_jobs; i++) {
        const struct job *j = &c->jobs[i];
        if (j->result == JOB_UNREADABLE)
            corrupted(c, j->path, "unreadable");
        else if (j->result == JOB_DIFFERS)
            corrupted(c, j->path, "%s differs from %s (modified or damaged)",
                      j->algo == ALGO_SHA256 ? "SHA-256" : "MD5", c->manifest);
    }
    c->n_jobs = 0;
}

/* The digests of zero bytes (RFC 1321's test suite, FIPS 180-2): an empty
 * file is checked without opening it. Packages hold many (__init__.py). */
static const uint8_t md5_of_nothing[16] = {0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00, 0xb2, 0x04,
                                           0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};
static const uint8_t sha256_of_nothing[32] = {
    0xe3, 0xb0, 0xc4, 0x42, 0x98, 0xfc, 0x1c, 0x14, 0x9a, 0xfb, 0xf4, 0xc8, 0x99, 0x6f, 0xb9, 0x24,
    0x27, 0xae, 0x41, 0xe4, 0x64, 0x9b, 0x93, 0x4c, 0xa4, 0x95, 0x99, 0x1b, 0x78, 0x52, 0xb8, 0x55};

/* Checks one listed file: present, SIZE bytes when HAS_SIZE, and its
 * digest when given and the file is empty, at most HASH_LIMIT bytes or
 * modified after the manifest was written. */
static void check_file(struct check *c, const char *path, bool has_size, uint64_t size,
                       enum algo algo, const uint8_t *digest, size_t digest_len,
                       uint64_t hash_limit)
{
    struct stat st;
    c->t->record_files++;
    if (!td_pyfs_stat(c->ctx, path, &st)) {
        corrupted(c, path, "missing (listed in %s)", c->manifest);
        return;
    }
    if (has_size && (uint64_t)st.st_size != size) {
        corrupted(c, path, "%llu bytes, %s says %llu (truncated or replaced)",
                  (unsigned long long)st.st_size, c->manifest, (unsigned long long)size);
        return;
    }
    size_t want = td_digest_size(algo == ALGO_SHA256 ? TD_DIGEST_SHA256 : TD_DIGEST_MD5);
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
        corrupted(c, path, "not a regular file (a FIFO, socket or device; %s lists a file)",
                  c->manifest);
        return;
    }
    if (!digest || digest_len != want || !S_ISREG(st.st_mode))
        return;
    if (st.st_size == 0) { /* nothing to read: the digest of no bytes */
        c->t->record_hashed++;
        if (memcmp(digest, algo == ALGO_SHA256 ? sha256_of_nothing : md5_of_nothing, want) != 0)
            corrupted(c, path, "empty, %s lists content for it (truncated)", c->manifest);
        return;
    }
    bool changed = c->installed_ns && mtime_ns(&st) > c->installed_ns;
    if ((uint64_t)st.st_size > hash_limit && !changed)
        return;
    c->t->record_hashed++;
    add_job(c, path, algo, digest, want, (uint64_t)st.st_size);
}

/* A RECORD that is there but cannot be read or parsed (a FIFO, a device,
 * no permission, garbage): said, so that "nothing corrupted" is never
 * claimed for files nobody checked. WHY is the parser's, or NULL. */
static void record_unreadable(struct check *c, const char *path, const char *why)
{
    struct stat st;
    if (!td_pyfs_lstat(c->ctx, path, &st))
        return; /* no RECORD at all: nothing to check against, nothing to say */
    if (!why)
        why = !td_pyfs_stat(c->ctx, path, &st) ? "a link to nothing"
              : !S_ISREG(st.st_mode)           ? "not a regular file"
                                               : "it cannot be opened";
    td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_UNREADABLE_FILE, path, c->t->dir, NULL, NULL,
                    "%s cannot be read (%s): the files of %s were not checked against it", path,
                    why, c->what);
}

/* RECORD rows are relative to the site dir (PEP 376 / packaging.python.org
 * "Recording installed projects"); rows without hash and size (RECORD
 * itself, .pyc files) are not checked. */
static bool check_record(struct check *c, const char *dist_info, uint64_t hash_limit)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/RECORD", dist_info);
    char *text = td_pyfs_read(c->ctx, path, 256 << 20, &len);
    if (!text) {
        record_unreadable(c, path, NULL);
        return false;
    }
    struct stat st;
    c->installed_ns = td_pyfs_stat(c->ctx, path, &st) ? mtime_ns(&st) : 0;
    struct td_record r;
    struct td_err err = {0};
    int rc = td_record_parse(&r, text, len, &c->scratch, &err);
    free(text);
    if (rc < 0)
        record_unreadable(c, path, err.msg);
    if (rc < 0 || !set_reserve(&c->listed, &c->scratch, r.count))
        return false;
    c->manifest = "RECORD";
    const char *owner = td_arena_strdup(&c->scratch, c->what);
    const char *fix = td_arena_strdup(&c->scratch, c->fix);
    for (size_t i = 0; i < r.count; i++) {
        const struct td_record_row *row = &r.rows[i];
        char *abs = td_pyfs_join(&c->scratch, c->t->site_dir, row->path);
        if (!abs)
            return false;
        set_add(&c->listed, abs, owner, fix);
        bool sha = row->algorithm && strcmp(row->algorithm, "sha256") == 0;
        if (!row->has_size && !sha)
            continue;
        check_file(c, abs, row->has_size, row->size, ALGO_SHA256, sha ? row->digest : NULL,
                   row->digest_len, hash_limit);
    }
    return true;
}

static int hexval(char ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10 : -1;
}

/* dpkg's files: NAME.list holds every path the package installed (one
 * absolute path a line); NAME.md5sums "HEX  relative/path" for each
 * regular file (dpkg-deb(1), deb(5)). No sizes, so every check hashes. */
static bool check_dpkg(struct check *c, const char *list, uint64_t hash_limit)
{
    size_t len, ll = strlen(list);
    if (ll < 5 || strcmp(list + ll - 5, ".list") != 0)
        return false;
    char *text = td_pyfs_read(c->ctx, list, 64 << 20, &len);
    if (!text)
        return false;
    size_t lines = 0;
    for (char *p = text; *p; p++)
        lines += *p == '\n';
    bool ok = set_reserve(&c->listed, &c->scratch, lines + 1);
    const char *owner = td_arena_strdup(&c->scratch, c->what);
    const char *fix = td_arena_strdup(&c->scratch, c->fix);
    for (char *save = NULL, *p = ok ? strtok_r(text, "\n", &save) : NULL; p;
         p = strtok_r(NULL, "\n", &save))
        if (*p == '/')
            set_add(&c->listed, td_arena_strdup(&c->scratch, p), owner, fix);
    free(text);
    if (!ok)
        return false;
    char sums[TD_PYFS_PATH_MAX];
    snprintf(sums, sizeof sums, "%.*s.md5sums", (int)(ll - 5), list);
    c->manifest = "md5sums";
    struct stat st; /* dpkg writes md5sums as it unpacks */
    c->installed_ns = td_pyfs_stat(c->ctx, sums, &st) ? mtime_ns(&st) : 0;
    text = td_pyfs_read(c->ctx, sums, 64 << 20, &len);
    for (char *p = text, *nl; p && *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        uint8_t digest[16];
        bool good = strlen(p) > 34 && p[32] == ' ' && p[33] == ' ';
        for (int i = 0; good && i < 16; i++) {
            int hi = hexval(p[2 * i]), lo = hexval(p[2 * i + 1]);
            good = hi >= 0 && lo >= 0;
            digest[i] = (uint8_t)(hi << 4 | lo);
        }
        if (good) {
            char abs[TD_PYFS_PATH_MAX];
            snprintf(abs, sizeof abs, "/%s", p + 34);
            check_file(c, abs, false, 0, ALGO_MD5, digest, sizeof digest, hash_limit);
        }
        if (!nl)
            break;
    }
    free(text);
    return true;
}

/* Native libraries and Python modules: what a stray copy would change. */
static bool worth_listing(const char *name)
{
    static const char *const suffixes[] = {".py", ".so", ".pyd", ".dll", ".dylib"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t s = strlen(suffixes[i]);
        if (n > s && strcmp(name + n - s, suffixes[i]) == 0)
            return true;
    }
    return strstr(name, ".so.") != NULL; /* libfoo.so.1, libtorch_cpu.so.bak */
}

static void stray(struct check *c, const char *path)
{
    if (++c->stray > REPORT_LIMIT)
        return;
    char fix[TD_PYFS_PATH_MAX + 16];
    td_remove_cmd(path, false, fix, sizeof fix);
    td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, path, c->t->dir, NULL, fix,
                    "%s is inside torch %s but its %s does not list it: a leftover of another "
                    "install that Python or the loader may pick up",
                    path, c->t->version ? c->t->version : "(unknown version)", c->manifest);
}

static bool is_leftover(const struct td_torch *t, const char *path)
{
    for (size_t i = 0; i < t->n_leftovers; i++)
        if (strcmp(t->leftovers[i].path, path) == 0)
            return true;
    return false;
}

/* One walk of torch/ (each directory read once; __pycache__ skipped). */
static void walk(struct check *c, const char *dir, int depth)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d =
        depth < MAX_DEPTH && td_pyfs_host(c->ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "__pycache__"))
            continue;
        char path[TD_PYFS_PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, n) >= (int)sizeof path)
            continue;
        unsigned char type = TD_DIRENT_TYPE(e);
        if (type == DT_UNKNOWN) {
            struct stat st;
            type = td_pyfs_lstat(c->ctx, path, &st) && S_ISDIR(st.st_mode) ? DT_DIR : DT_REG;
        }
        if (type == DT_DIR)
            walk(c, path, depth + 1);
        else if (worth_listing(n) && !set_has(&c->listed, path) && !is_leftover(c->t, path))
            stray(c, path);
    }
    closedir(d);
}

static void summarize_corrupted(struct check *c)
{
    if (c->corrupted > REPORT_LIMIT)
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_CORRUPTED_FILE, NULL, c->t->dir, NULL, c->fix,
                        "%zu more files of %s in %s differ from its %s (not listed one by one)",
                        c->corrupted - REPORT_LIMIT, c->what, c->t->site_dir, c->manifest);
}

static void summarize_stray(struct check *c)
{
    if (c->stray > REPORT_LIMIT)
        td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, NULL, c->t->dir, NULL, NULL,
                        "%zu more files inside %s are not in its %s (not listed one by one)",
                        c->stray - REPORT_LIMIT, c->t->dir, c->manifest);
}

/* A library file of a folder where wheels keep their libraries. */
struct lib_file {
    char *path;
    char stem[128]; /* "libcudnn" for libcudnn.so.8, "cudnn64" for cudnn64_9.dll */
    const struct listed *listed;
};

struct lib_files {
    struct lib_file *v;
    size_t n, cap;
};

/* A name the loader could be asked for: "libcudnn.so", "libcudnn.so.8.9.2",
 * "cudnn64_8.dll"; not a backup such as "libtorch_cpu.so.bak". */
static bool loadable_name(const char *name)
{
    const char *so = strstr(name, ".so");
    size_t n = strlen(name);
    if (n > 4 && strcasecmp(name + n - 4, ".dll") == 0)
        return true;
    if (!so || (so[3] != '\0' && so[3] != '.'))
        return false;
    for (const char *p = so + 3; *p; p++)
        if (!(*p == '.' ? p[1] >= '0' && p[1] <= '9' : *p >= '0' && *p <= '9'))
            return false;
    return true;
}

static void gather_libs(struct check *c, const char *dir, struct lib_files *out)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(c->ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        char stem[128];
        if (!loadable_name(e->d_name) || !td_library_stem(e->d_name, stem, sizeof stem))
            continue;
        if (out->n == out->cap) {
            size_t cap = out->cap ? out->cap * 2 : 64;
            struct lib_file *grown = realloc(out->v, cap * sizeof *grown);
            if (!grown)
                break;
            out->v = grown, out->cap = cap;
        }
        struct lib_file *l = &out->v[out->n];
        l->path = td_pyfs_join(&c->scratch, dir, e->d_name);
        if (!l->path)
            break;
        snprintf(l->stem, sizeof l->stem, "%s", stem);
        l->listed = set_find(&c->listed, l->path);
        out->n++;
    }
    if (d)
        closedir(d);
}

/* The folders: torch/lib, and each nvidia/<x>/lib (Linux wheels) or
 * nvidia/<x>/bin (Windows wheels) of the site dir. */
static void gather_lib_dirs(struct check *c, struct lib_files *out)
{
    char dir[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
    snprintf(dir, sizeof dir, "%s/lib", c->t->dir);
    gather_libs(c, dir, out);
    snprintf(dir, sizeof dir, "%s/nvidia", c->t->site_dir);
    DIR *d = td_pyfs_host(c->ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        static const char *const subs[] = {"lib", "bin"};
        for (size_t i = 0; e->d_name[0] != '.' && i < 2; i++) {
            char sub[TD_PYFS_PATH_MAX];
            if (snprintf(sub, sizeof sub, "%s/%s/%s", dir, e->d_name, subs[i]) < (int)sizeof sub)
                gather_libs(c, sub, out);
        }
    }
    if (d)
        closedir(d);
}

/* A library no manifest lists, beside (in these folders) another version
 * of it that one does: what an upgrade or a hand copy leaves behind
 * (issue #13: libcudnn.so.8 beside libcudnn.so.9). Recorded on T; which
 * copy the loader takes is told once the closure is built
 * (td_torch_leftovers). */
static void find_leftovers(struct check *c)
{
    struct lib_files libs = {0};
    gather_lib_dirs(c, &libs);
    struct td_arena *a = c->ctx->arena;
    for (size_t i = 0; i < libs.n; i++) {
        const struct lib_file *l = &libs.v[i];
        for (size_t k = 0; !l->listed && k < libs.n; k++) {
            const struct lib_file *o = &libs.v[k];
            if (!o->listed || strcmp(o->stem, l->stem) != 0 ||
                strcmp(td_pyfs_basename(o->path), td_pyfs_basename(l->path)) == 0)
                continue;
            if (c->t->n_leftovers % 8 == 0) {
                struct td_leftover *grown = td_arena_array(a, c->t->n_leftovers + 8, sizeof *grown);
                if (!grown)
                    break;
                if (c->t->n_leftovers)
                    memcpy(grown, c->t->leftovers, c->t->n_leftovers * sizeof *grown);
                c->t->leftovers = grown;
            }
            c->t->leftovers[c->t->n_leftovers++] = (struct td_leftover){
                .path = td_arena_strdup(a, l->path),
                .listed = td_arena_strdup(a, o->path),
                .owner = td_arena_strdup(a, o->listed->owner),
                .reinstall = td_arena_strdup(a, o->listed->fix),
            };
            break;
        }
    }
    free(libs.v);
}

/* A companion or nvidia-* wheel: its own RECORD, rows relative to the same
 * site dir; its own reinstall command. Debian's packages are dpkg's. */
static void check_companion(struct check *c, const struct td_package *p, const char *exe,
                            const char *prefix, uint64_t hash_limit)
{
    if (!p->dist_info || !p->name || !strcmp(p->installer, "debian"))
        return;
    char spec[256], what[256];
    snprintf(spec, sizeof spec, "%s==%s", p->name, p->version ? p->version : "");
    snprintf(what, sizeof what, "%s %s", p->name, p->version ? p->version : "");
    c->what = what;
    c->installer = p->installer;
    c->corrupted = 0;
    td_install_cmd(p->installer, exe, prefix, NULL, TD_REINSTALL, p->version ? spec : p->name,
                   c->fix, sizeof c->fix);
    if (check_record(c, p->dist_info, hash_limit)) {
        run_jobs(c);
        summarize_corrupted(c);
    }
    c->what = NULL;
}

void td_torch_integrity(const struct td_probe_ctx *ctx, struct td_torch *t, const char *python_exe,
                        const char *python_prefix, uint64_t hash_limit, struct td_findings *f)
{
    if (!t->dist_info)
        return;
    struct check c = {.ctx = ctx, .t = t, .f = f, .installer = t->installer};
    bool debian = strcmp(t->installer, "debian") == 0;
    char spec[128], pkg[128] = "", what[160];
    snprintf(spec, sizeof spec, "torch==%s", t->version ? t->version : "");
    snprintf(what, sizeof what, "torch %s", t->version ? t->version : "(unknown version)");
    c.what = what;
    if (debian) {
        const char *b = td_pyfs_basename(t->dist_info);
        snprintf(pkg, sizeof pkg, "%.*s", (int)strcspn(b, ".:"), b);
    }
    td_install_cmd(t->installer, python_exe, python_prefix, pkg, TD_REINSTALL,
                   t->version ? spec : "torch", c.fix, sizeof c.fix);
    bool have = debian ? check_dpkg(&c, t->dist_info, hash_limit)
                       : check_record(&c, t->dist_info, hash_limit);
    if (have) {
        t->manifest = debian ? "md5sums" : "RECORD";
        run_jobs(&c);
        summarize_corrupted(&c);
    }
    for (size_t i = 0; i < t->n_companions; i++)
        check_companion(&c, &t->companions[i], python_exe, python_prefix, hash_limit);
    if (have) { /* every manifest read: what none of them lists */
        c.what = what;
        c.manifest = t->manifest;
        find_leftovers(&c);
        walk(&c, t->dir, 0);
        summarize_stray(&c);
    }
    free(c.jobs);
    td_arena_free(&c.scratch);
}

/* ---- conda environments: paths_data of conda-meta/NAME.json ---- */

static bool hex_sha256(const char *hex, uint8_t out[32])
{
    if (!hex || strlen(hex) != 64)
        return false;
    for (int i = 0; i < 32; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return true;
}

/* One paths_data row. A file with a prefix_placeholder was rewritten when
 * conda linked it (the build prefix replaced by this one), so its sha256 is
 * the package's, not the file's: its bytes are held against
 * sha256_in_prefix when conda recorded it, and its size only in binary mode,
 * where conda pads the new prefix with NULs to keep the length (conda docs,
 * "Package structure: info/has_prefix"; conda/core/portability.py). */
static void check_conda_row(struct check *c, const char *prefix, const struct td_conda_path *p,
                            const char *owner, uint64_t hash_limit)
{
    char *abs = td_pyfs_join(&c->scratch, prefix, p->path);
    if (!abs || !set_reserve(&c->listed, &c->scratch, 1))
        return;
    set_add(&c->listed, abs, owner, NULL);
    struct stat st;
    if (p->type == TD_CONDA_DIRECTORY)
        return;
    if (p->type == TD_CONDA_SOFTLINK) {
        c->t->record_files++;
        if (!td_pyfs_lstat(c->ctx, abs, &st))
            corrupted(c, abs, "missing (a link listed in %s)", c->manifest);
        return;
    }
    uint8_t digest[32];
    bool sha = hex_sha256(p->placeholder ? p->sha256_in_prefix : p->sha256, digest);
    bool sized = p->has_size && (!p->placeholder || p->binary_mode);
    check_file(c, abs, sized, p->size, ALGO_SHA256, sha ? digest : NULL, sizeof digest, hash_limit);
}

static bool add_file(struct pathset *s, const char *path, struct td_arena *a)
{
    char *p = path ? td_pyfs_lexical(a, path) : NULL;
    if (p && set_reserve(s, a, 1))
        set_add(s, p, NULL, NULL);
    return p != NULL;
}

/* The files the import touches: every object G loaded, and every file a
 * search found there but rejected (damaged past parsing, wrong machine). */
static bool closure_files(struct pathset *s, const struct td_graph *g, struct td_arena *a)
{
    bool ok = set_reserve(s, a, g ? g->count : 0);
    for (size_t i = 0; ok && g && i < g->count; i++)
        if (g->objects[i]->path)
            ok = add_file(s, g->objects[i]->path, a);
    for (size_t i = 0; ok && g && i < g->n_edges; i++) {
        const struct td_resolution *r = &g->edges[i].res;
        for (size_t k = 0; ok && k < r->n_probes; k++)
            if (r->probes[k].verdict != TD_VERDICT_ABSENT &&
                r->probes[k].verdict != TD_VERDICT_SKIPPED)
                ok = add_file(s, r->probes[k].path, a);
    }
    return ok;
}

/* Does record R list a file of the closure, or one inside torch's folder
 * (TORCH_REL, relative to the prefix, with its trailing '/')? */
static bool conda_touches(const struct td_conda_record *r, const char *prefix,
                          const struct pathset *closure, const char *torch_rel, struct td_arena *a)
{
    size_t tl = torch_rel ? strlen(torch_rel) : 0;
    for (size_t i = 0; i < r->n_paths; i++) {
        const char *rel = r->paths[i].path;
        if (tl && strncmp(rel, torch_rel, tl) == 0)
            return true;
        char *abs = td_pyfs_join(a, prefix, rel);
        if (abs && set_has(closure, abs))
            return true;
    }
    return false;
}

/* The exact build, from the channel it came from. */
static void conda_fix(struct check *c, const struct td_conda_record *r, const char *prefix,
                      struct td_arena *a)
{
    td_conda_reinstall_cmd(r, prefix, a, c->fix, sizeof c->fix);
}

/* Checks the record in conda-meta/NAME when it touches the import; true
 * when it lists files of torch's folder (the pytorch package). */
static bool check_conda_record(struct check *c, const char *prefix, const char *meta,
                               const char *name, const struct pathset *closure,
                               const char *torch_rel, uint64_t hash_limit)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    struct stat st;
    if (snprintf(path, sizeof path, "%s/%s", meta, name) >= (int)sizeof path)
        return false;
    char *text = td_pyfs_read(c->ctx, path, 256 << 20, &len);
    struct td_arena tmp = {0};
    struct td_conda_record r;
    struct td_err err = {0};
    bool torch = false;
    if (!text || td_conda_record_read(text, len, &r, &tmp, &err) != 0 ||
        !conda_touches(&r, prefix, closure, torch_rel, &tmp))
        goto out;
    char what[512];
    snprintf(what, sizeof what, "%s %s (build %s)", r.name, r.version ? r.version : "",
             r.build ? r.build : "?");
    c->what = what;
    c->installer = "conda";
    c->corrupted = 0;
    c->installed_ns = td_pyfs_stat(c->ctx, path, &st) ? mtime_ns(&st) : 0;
    snprintf(path, sizeof path, "conda-meta/%s", name);
    c->manifest = td_arena_strdup(&c->scratch, path);
    conda_fix(c, &r, prefix, &tmp);
    const char *owner = td_arena_strdup(&c->scratch, what);
    size_t tl = torch_rel ? strlen(torch_rel) : 0;
    for (size_t i = 0; i < r.n_paths; i++) {
        torch = torch || (tl && strncmp(r.paths[i].path, torch_rel, tl) == 0);
        check_conda_row(c, prefix, &r.paths[i], owner, hash_limit);
    }
    run_jobs(c);
    summarize_corrupted(c);
    c->what = NULL;
out:
    free(text);
    td_arena_free(&tmp);
    return torch;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

void td_conda_integrity(const struct td_probe_ctx *ctx, struct td_torch *t,
                        const struct td_python *py, const struct td_graph *g, uint64_t hash_limit,
                        struct td_findings *f)
{
    if (!py || py->kind != TD_PY_CONDA || !py->prefix)
        return;
    struct check c = {.ctx = ctx, .t = t, .f = f, .installer = "conda"};
    char meta[TD_PYFS_PATH_MAX], host[TD_PYFS_PATH_MAX];
    snprintf(meta, sizeof meta, "%s/conda-meta", py->prefix);
    DIR *d = td_pyfs_host(ctx, meta, host, sizeof host) ? opendir(host) : NULL;
    struct pathset closure = {0};
    if (!d || !closure_files(&closure, g, &c.scratch))
        goto out;
    size_t pl = strlen(py->prefix);
    bool inside = strncmp(t->dir, py->prefix, pl) == 0 && t->dir[pl] == '/';
    char torch_rel[TD_PYFS_PATH_MAX];
    snprintf(torch_rel, sizeof torch_rel, "%s/", inside ? t->dir + pl + 1 : "");
    bool listed_torch = false;
    size_t rows_before = t->record_files;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.' && ends_with(e->d_name, ".json"))
            listed_torch |= check_conda_record(&c, py->prefix, meta, e->d_name, &closure,
                                               inside ? torch_rel : NULL, hash_limit);
    if (listed_torch && strcmp(t->installer, "conda") == 0) {
        t->manifest = "conda-meta";
        c.manifest = "conda-meta records";
        walk(&c, t->dir, 0);
        summarize_stray(&c);
    } else if (t->record_files > rows_before) { /* a pip torch in a conda env */
        t->manifest = !t->manifest                         ? "conda-meta"
                      : strcmp(t->manifest, "RECORD") == 0 ? "RECORD and conda-meta"
                                                           : t->manifest;
    }
out:
    if (d)
        closedir(d);
    free(c.jobs);
    td_arena_free(&c.scratch);
}

/* ---- Debian: the packages torch/lib's links resolve into ---- */

/* A symbolic link of torch/lib (Debian's torch/lib holds only links into
 * /usr/lib/<triplet>, shipped by libtorchX.Y) and the file it names. */
struct deb_link {
    const char *link;   /* /usr/lib/python3/dist-packages/torch/lib/libc10.so */
    const char *target; /* /usr/lib/x86_64-linux-gnu/libc10.so.1.13, lexical */
    const char *list;   /* /var/lib/dpkg/info/libtorch1.13:amd64.list, or NULL */
    bool dangling;      /* the link resolves to nothing */
};

struct deb_links {
    struct deb_link *v;
    size_t n, cap;
};

static void gather_links(struct check *c, const char *dir, struct deb_links *out)
{
    char host[TD_PYFS_PATH_MAX], lhost[TD_PYFS_PATH_MAX], to[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(c->ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    for (struct dirent *e; d && (e = readdir(d));) {
        struct stat st;
        char *link = e->d_name[0] != '.' ? td_pyfs_join(&c->scratch, dir, e->d_name) : NULL;
        if (!link || !td_pyfs_lstat(c->ctx, link, &st) || !S_ISLNK(st.st_mode) ||
            !td_pyfs_host(c->ctx, link, lhost, sizeof lhost))
            continue;
        ssize_t n = readlink(lhost, to, sizeof to - 1);
        if (n <= 0)
            continue;
        to[n] = '\0';
        if (out->n == out->cap) {
            size_t cap = out->cap ? out->cap * 2 : 16;
            struct deb_link *grown = realloc(out->v, cap * sizeof *grown);
            if (!grown)
                break;
            out->v = grown, out->cap = cap;
        }
        char *abs = to[0] == '/' ? to : td_pyfs_join(&c->scratch, dir, to);
        out->v[out->n++] = (struct deb_link){
            .link = link,
            .target = abs ? td_pyfs_lexical(&c->scratch, abs) : NULL,
            .dangling = !td_pyfs_stat(c->ctx, link, &st),
        };
        if (!out->v[out->n - 1].target)
            out->n--;
    }
    if (d)
        closedir(d);
}

/* Does dpkg's file list TEXT (one absolute path a line) hold PATH? */
static bool list_holds(const char *text, const char *path)
{
    size_t n = strlen(path);
    for (const char *p = text; (p = strstr(p, path)); p += n)
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return true;
    return false;
}

/* Reads the NAME.list files of INFO (those with "torch" in NAME when
 * TORCH_NAMED, the others when not; never torch's own) until each link's
 * target has the list that holds it; the number of links left. */
static size_t owners_pass(struct check *c, const char *info, struct deb_links *l, size_t left,
                          bool torch_named)
{
    char host[TD_PYFS_PATH_MAX];
    DIR *d = td_pyfs_host(c->ctx, info, host, sizeof host) ? opendir(host) : NULL;
    for (struct dirent *e; d && left && (e = readdir(d));) {
        if (!ends_with(e->d_name, ".list") || (strstr(e->d_name, "torch") != NULL) != torch_named ||
            strcmp(e->d_name, td_pyfs_basename(c->t->dist_info)) == 0)
            continue;
        char *path = td_pyfs_join(&c->scratch, info, e->d_name);
        size_t len;
        char *text = path ? td_pyfs_read(c->ctx, path, 64 << 20, &len) : NULL;
        for (size_t i = 0; text && i < l->n; i++)
            if (!l->v[i].list && list_holds(text, l->v[i].target))
                l->v[i].list = path, left--;
        free(text);
    }
    if (d)
        closedir(d);
    return left;
}

/* Names the file list that holds each link's target, the search `dpkg -S`
 * makes: Debian's libtorchX.Y ships them, so the lists named *torch* are
 * read first (a few kB), the others (10 MB on a desktop) only for a
 * target none of those holds. */
static void find_owners(struct check *c, const char *info, struct deb_links *l)
{
    size_t left = owners_pass(c, info, l, l->n, true);
    if (left)
        owners_pass(c, info, l, left, false);
}

/* The package of dpkg's LIST: "libtorch1.13" for ".../libtorch1.13:amd64.list". */
static void list_package(const char *list, char *out, size_t cap)
{
    const char *b = td_pyfs_basename(list);
    size_t n = strlen(b) - 5; /* ".list" */
    const char *colon = memchr(b, ':', n);
    snprintf(out, cap, "%.*s", (int)(colon ? (size_t)(colon - b) : n), b);
}

static bool names_either(const char *path, const struct deb_link *l, struct td_arena *a)
{
    const char *p = path ? td_pyfs_lexical(a, path) : NULL;
    return p && (strcmp(p, l->link) == 0 || strcmp(p, l->target) == 0);
}

/* Does torch's import need link L: does its closure G load, or search for,
 * the link or its target (by path, or by the name an object needs, as
 * _C's libtorch_python.so.1.13 names Debian's target)? The link
 * torch/__init__.py opens by path (lib/libtorch_global_deps.so, see
 * graph/torch_import.c) is needed whether or not the graph holds it: a
 * root that is not there is left out of the graph. */
static bool closure_needs(const struct td_graph *g, const struct deb_link *l, struct td_arena *a)
{
    if (strcmp(td_pyfs_basename(l->link), "libtorch_global_deps.so") == 0)
        return true;
    for (size_t i = 0; i < g->count; i++)
        if (names_either(g->objects[i]->path, l, a))
            return true;
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_resolution *r = &g->edges[i].res;
        const char *name = g->edges[i].name ? td_pyfs_basename(g->edges[i].name) : "";
        if (!strcmp(name, td_pyfs_basename(l->link)) || !strcmp(name, td_pyfs_basename(l->target)))
            return true;
        for (size_t k = 0; k < r->n_probes; k++)
            if (names_either(r->probes[k].path, l, a))
                return true;
    }
    return false;
}

/* A link of torch/lib that resolves to nothing: an error when the import
 * needs it (G; a warning when no closure was built), else an info. */
static void dangling_link(struct check *c, const struct deb_link *l, const struct td_graph *g)
{
    char pkg[256] = "", fix[512] = "";
    if (l->list) {
        list_package(l->list, pkg, sizeof pkg);
        td_install_cmd("debian", NULL, NULL, pkg, TD_REINSTALL, pkg, fix, sizeof fix);
    }
    bool needed = g && closure_needs(g, l, &c->scratch);
    enum td_severity sev = !g ? TD_SEV_WARNING : needed ? TD_SEV_ERROR : TD_SEV_INFO;
    char owner[512];
    if (l->list)
        snprintf(owner, sizeof owner, "package %s lists it (`dpkg --verify %s` says missing)", pkg,
                 pkg);
    else
        snprintf(owner, sizeof owner, "no package's file list names it");
    td_findings_add(c->f, sev, TD_KIND_CORRUPTED_FILE, l->link, needed ? c->t->dir : NULL, NULL,
                    l->list ? fix : NULL, "%s is a link to %s, which is missing: %s; %s", l->link,
                    l->target, owner,
                    needed ? "torch's import needs it, so `import torch` fails"
                    : g    ? "torch's import does not load it (only code that opens it by name "
                             "fails)"
                           : "whether torch's import needs it is not known (no closure)");
}

void td_debian_integrity(const struct td_probe_ctx *ctx, struct td_torch *t,
                         const struct td_graph *g, uint64_t hash_limit, struct td_findings *f)
{
    if (!t->dist_info || strcmp(t->installer, "debian") != 0 || !ends_with(t->dist_info, ".list"))
        return;
    struct check c = {.ctx = ctx, .t = t, .f = f, .installer = "debian"};
    struct deb_links links = {0};
    char dir[TD_PYFS_PATH_MAX], pkg[256];
    snprintf(dir, sizeof dir, "%s/lib", t->dir);
    gather_links(&c, dir, &links);
    char *info = td_pyfs_dirname(&c.scratch, t->dist_info);
    if (info)
        find_owners(&c, info, &links);
    for (size_t i = 0; i < links.n; i++) {
        const char *list = links.v[i].list;
        bool first = list != NULL;
        for (size_t k = 0; first && k < i; k++)
            first = !links.v[k].list || strcmp(links.v[k].list, list) != 0;
        if (!first)
            continue; /* each package once */
        list_package(list, pkg, sizeof pkg);
        c.what = pkg;
        c.corrupted = 0;
        td_install_cmd("debian", NULL, NULL, pkg, TD_REINSTALL, pkg, c.fix, sizeof c.fix);
        if (check_dpkg(&c, list, hash_limit)) {
            run_jobs(&c);
            summarize_corrupted(&c);
        }
    }
    for (size_t i = 0; i < links.n; i++)
        if (links.v[i].dangling)
            dangling_link(&c, &links.v[i], g);
    free(links.v);
    free(c.jobs);
    td_arena_free(&c.scratch);
}
