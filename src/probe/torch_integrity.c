/* Integrity of an installed torch against its installer's manifest: the
 * wheel's RECORD (sizes, SHA-256 as urlsafe base64 without padding) or
 * Debian's md5sums, and files inside torch/ the manifest does not list
 * (stray native libraries and modules). Hashing: probe/digest.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
    READ_CHUNK = 256 << 10,
    MAX_DEPTH = 32,
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

struct check {
    const struct td_probe_ctx *ctx;
    struct td_torch *t;
    struct td_findings *f;
    struct td_arena scratch; /* manifest text, rows and paths; freed at the end */
    struct pathset listed;
    const char *manifest; /* "RECORD" or "md5sums", for the wording */
    char fix[1024];       /* reinstall command for corrupted files */
    size_t corrupted, stray;
    uint8_t *buf; /* READ_CHUNK bytes */
};

enum algo { ALGO_SHA256, ALGO_MD5 };

/* Hashes target PATH; false when it cannot be read. */
static bool hash_file(struct check *c, const char *path, enum algo algo, uint8_t *digest)
{
    char host[TD_PYFS_PATH_MAX];
    int fd = td_pyfs_host(c->ctx, path, host, sizeof host) ? open(host, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return false;
    bool ok = td_digest_fd(fd, algo == ALGO_SHA256 ? TD_DIGEST_SHA256 : TD_DIGEST_MD5, c->buf,
                           READ_CHUNK, digest);
    close(fd);
    return ok;
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
                    "%s: %s; the %s install of torch %s is damaged", path, what, c->t->installer,
                    c->t->version ? c->t->version : "(unknown version)");
}

/* Checks one listed file: present, SIZE bytes when HAS_SIZE, and its
 * digest when given and the file is at most HASH_LIMIT bytes. */
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
    if (!digest || digest_len != want || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > hash_limit)
        return;
    uint8_t got[TD_DIGEST_MAX];
    c->t->record_hashed++;
    if (!hash_file(c, path, algo, got))
        corrupted(c, path, "unreadable");
    else if (memcmp(got, digest, want) != 0)
        corrupted(c, path, "%s differs from %s (modified or damaged)",
                  algo == ALGO_SHA256 ? "SHA-256" : "MD5", c->manifest);
}

/* RECORD rows are relative to the site dir (PEP 376 / packaging.python.org
 * "Recording installed projects"); rows without hash and size (RECORD
 * itself, .pyc files) are not checked. */
static bool check_record(struct check *c, uint64_t hash_limit)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/RECORD", c->t->dist_info);
    char *text = td_pyfs_read(c->ctx, path, 256 << 20, &len);
    if (!text)
        return false;
    struct td_record r;
    struct td_err err = {0};
    int rc = td_record_parse(&r, text, len, &c->scratch, &err);
    free(text);
    if (rc < 0 || !set_init(&c->listed, &c->scratch, r.count))
        return false;
    c->manifest = c->t->manifest = "RECORD";
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
                        "%zu more files of torch in %s differ from its %s (not listed one by one)",
                        c->corrupted - REPORT_LIMIT, c->t->dir, c->manifest);
    if (c->stray > REPORT_LIMIT)
        td_findings_add(c->f, TD_SEV_WARNING, TD_KIND_STRAY_FILE, NULL, c->t->dir, NULL, NULL,
                        "%zu more files inside %s are not in its %s (not listed one by one)",
                        c->stray - REPORT_LIMIT, c->t->dir, c->manifest);
}

void td_torch_integrity(const struct td_probe_ctx *ctx, struct td_torch *t, const char *python_exe,
                        const char *python_prefix, uint64_t hash_limit, struct td_findings *f)
{
    if (!t->dist_info)
        return;
    struct check c = {.ctx = ctx, .t = t, .f = f};
    c.buf = malloc(READ_CHUNK);
    if (!c.buf)
        return;
    bool debian = strcmp(t->installer, "debian") == 0;
    char spec[128], pkg[128] = "";
    snprintf(spec, sizeof spec, "torch==%s", t->version ? t->version : "");
    if (debian) {
        const char *b = td_pyfs_basename(t->dist_info);
        snprintf(pkg, sizeof pkg, "%.*s", (int)strcspn(b, ".:"), b);
    }
    td_install_cmd(t->installer, python_exe, python_prefix, pkg, TD_REINSTALL,
                   t->version ? spec : "torch", c.fix, sizeof c.fix);
    bool have = debian ? check_dpkg(&c, hash_limit) : check_record(&c, hash_limit);
    if (have) {
        walk(&c, t->dir, 0);
        summarize(&c);
    }
    free(c.buf);
    td_arena_free(&c.scratch);
}
