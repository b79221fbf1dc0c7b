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
#include <unistd.h>

#include "base/compat.h"
#include "format/record.h"
#include "probe/digest.h"
#include "probe/pyfs.h"
#include "probe/torch_internal.h"

enum {
    REPORT_LIMIT = 20, /* findings of one kind per install before a summary */
    READ_CHUNK = 1 << 20,
    MAX_DEPTH = 32,
    MAX_THREADS = 8,
};

/* A set of target paths (open addressing, FNV-1a): the manifest's files. */
struct pathset {
    const char **slots;
    size_t mask;
};

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 1099511628211ull;
    return h;
}

static bool set_init(struct pathset *s, struct td_arena *a, size_t count)
{
    size_t cap = 64;
    while (cap < count * 2 && cap < ((size_t)1 << 30))
        cap <<= 1;
    s->slots = td_arena_array(a, cap, sizeof *s->slots);
    s->mask = cap - 1;
    return s->slots != NULL;
}

static bool set_has(const struct pathset *s, const char *path)
{
    for (size_t i = fnv1a(path) & s->mask;; i = (i + 1) & s->mask) {
        if (!s->slots[i])
            return false;
        if (strcmp(s->slots[i], path) == 0)
            return true;
    }
}

static void set_add(struct pathset *s, const char *path)
{
    size_t i = fnv1a(path) & s->mask;
    while (s->slots[i] && strcmp(s->slots[i], path) != 0)
        i = (i + 1) & s->mask;
    s->slots[i] = path;
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
        int fd = open(j->host, O_RDONLY | O_CLOEXEC);
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

/* Checks one listed file: present, SIZE bytes when HAS_SIZE, and its
 * digest when given and the file is at most HASH_LIMIT bytes or was
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
    bool changed = c->installed_ns && mtime_ns(&st) > c->installed_ns;
    if (!digest || digest_len != want || !S_ISREG(st.st_mode) ||
        ((uint64_t)st.st_size > hash_limit && !changed))
        return;
    c->t->record_hashed++;
    add_job(c, path, algo, digest, want, (uint64_t)st.st_size);
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
    if (!text)
        return false;
    struct stat st;
    c->installed_ns = td_pyfs_stat(c->ctx, path, &st) ? mtime_ns(&st) : 0;
    struct td_record r;
    struct td_err err = {0};
    int rc = td_record_parse(&r, text, len, &c->scratch, &err);
    free(text);
    if (rc < 0 || !set_init(&c->listed, &c->scratch, r.count))
        return false;
    c->manifest = "RECORD";
    for (size_t i = 0; i < r.count; i++) {
        const struct td_record_row *row = &r.rows[i];
        char *abs = td_pyfs_join(&c->scratch, c->t->site_dir, row->path);
        if (!abs)
            return false;
        set_add(&c->listed, abs);
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
static bool check_dpkg(struct check *c, uint64_t hash_limit)
{
    const char *list = c->t->dist_info;
    size_t len, ll = strlen(list);
    if (ll < 5 || strcmp(list + ll - 5, ".list") != 0)
        return false;
    char *text = td_pyfs_read(c->ctx, list, 64 << 20, &len);
    if (!text)
        return false;
    size_t lines = 0;
    for (char *p = text; *p; p++)
        lines += *p == '\n';
    bool ok = set_init(&c->listed, &c->scratch, lines + 1);
    for (char *save = NULL, *p = ok ? strtok_r(text, "\n", &save) : NULL; p;
         p = strtok_r(NULL, "\n", &save))
        if (*p == '/')
            set_add(&c->listed, td_arena_strdup(&c->scratch, p));
    free(text);
    if (!ok)
        return false;
    char sums[TD_PYFS_PATH_MAX];
    snprintf(sums, sizeof sums, "%.*s.md5sums", (int)(ll - 5), list);
    c->manifest = c->t->manifest = "md5sums";
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
    snprintf(fix, sizeof fix, "rm '%s'", path);
    td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, path, c->t->dir, NULL, fix,
                    "%s is inside torch %s but its %s does not list it: a leftover of another "
                    "install that Python or the loader may pick up",
                    path, c->t->version ? c->t->version : "(unknown version)", c->manifest);
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
        else if (worth_listing(n) && !set_has(&c->listed, path))
            stray(c, path);
    }
    closedir(d);
}

static void summarize(struct check *c)
{
    if (c->corrupted > REPORT_LIMIT)
        td_findings_add(c->f, TD_SEV_ERROR, TD_KIND_CORRUPTED_FILE, NULL, c->t->dir, NULL, c->fix,
                        "%zu more files of %s in %s differ from its %s (not listed one by one)",
                        c->corrupted - REPORT_LIMIT, c->what, c->t->site_dir, c->manifest);
    if (c->stray > REPORT_LIMIT)
        td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, NULL, c->t->dir, NULL, NULL,
                        "%zu more files inside %s are not in its %s (not listed one by one)",
                        c->stray - REPORT_LIMIT, c->t->dir, c->manifest);
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
        summarize(c);
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
    bool have = debian ? check_dpkg(&c, hash_limit) : check_record(&c, t->dist_info, hash_limit);
    if (have) {
        if (!debian)
            t->manifest = "RECORD";
        run_jobs(&c);
        walk(&c, t->dir, 0);
        summarize(&c);
    }
    for (size_t i = 0; i < t->n_companions; i++)
        check_companion(&c, &t->companions[i], python_exe, python_prefix, hash_limit);
    free(c.jobs);
    td_arena_free(&c.scratch);
}
