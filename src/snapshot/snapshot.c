/* src/snapshot/ answers "what is this machine's torch stack, and what
 * changed since the last time?": the snapshot's own facts (here), on top
 * of check's diagnosis, read back (snapshot_read.c) and diffed, ranked by
 * what a change breaks (snapshot_diff.c). The top of the probe pipelines.
 *
 * snapshot's own facts (snapshot/snapshot.h): the distributions of every
 * interpreter's site directories read from their metadata folders, the
 * files of each torch's import closure, and PATH / LD_LIBRARY_PATH split
 * into entries. Nothing is imported or run. */
#include "snapshot/snapshot.h"
#include "base/map.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "probe/install/digest.h"
#include "probe/python/pyfs.h"
#include "probe/install/torch_internal.h"

#ifndef O_BINARY
#define O_BINARY 0
#endif

/* The value of header KEY ("Name") in METADATA / PKG-INFO text: RFC 822
 * style headers up to the first blank line (core metadata spec). */
static const char *metadata_field(struct td_arena *a, const char *text, const char *key)
{
    size_t kl = strlen(key);
    for (const char *line = text; *line && *line != '\n' && *line != '\r';) {
        size_t len = strcspn(line, "\r\n");
        if (len > kl && strncmp(line, key, kl) == 0 && line[kl] == ':') {
            const char *v = line + kl + 1;
            while (*v == ' ' || *v == '\t')
                v++;
            return td_arena_strndup(a, v, (size_t)(line + len - v));
        }
        line += len;
        line += *line == '\r';
        line += *line == '\n';
    }
    return NULL;
}

/* "url" of direct_url.json (PEP 610): a wheel or folder installed from a
 * URL. A string scan: the file is pip's own, a few hundred bytes. */
static const char *direct_url(const struct td_probe_ctx *ctx, const char *meta_dir)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/direct_url.json", meta_dir);
    char *text = td_pyfs_read(ctx, path, 1 << 16, &len);
    const char *out = NULL;
    const char *k = text ? strstr(text, "\"url\"") : NULL;
    if (k) {
        const char *q = strchr(k + 5, '"');
        const char *end = q ? strchr(q + 1, '"') : NULL;
        if (end)
            out = td_arena_strndup(ctx->arena, q + 1, (size_t)(end - q - 1));
    }
    free(text);
    return out;
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

/* Debian's and Ubuntu's own site directories: their packages come from dpkg. */
static bool debian_site(const char *site)
{
    return strncmp(site, "/usr/lib/python3/", 17) == 0;
}

/* The Debian package whose file list holds META_DIR of distribution NAME: Debian
 * names a module's package python3-NAME (Debian Python Policy 2.2), so that
 * package's file list is read (through the probe root) and believed only
 * when it lists META_DIR itself. NULL when it does not. */
static const char *debian_owner(const struct td_probe_ctx *ctx, const char *name,
                                const char *meta_dir)
{
    char pkg[256], list[TD_PYFS_PATH_MAX];
    size_t n = (size_t)snprintf(pkg, sizeof pkg, "python3-%s", name);
    for (size_t i = 8; i < n && i < sizeof pkg; i++)
        pkg[i] = pkg[i] == '_' ? '-' : (char)tolower((unsigned char)pkg[i]);
    snprintf(list, sizeof list, "/var/lib/dpkg/info/%s.list", pkg);
    size_t len, dl = strlen(meta_dir);
    char *text = td_pyfs_read(ctx, list, 16 << 20, &len);
    bool hit = false;
    for (const char *p = text; p && *p && !hit; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        hit = strncmp(p, meta_dir, dl) == 0 && (p[dl] == '\n' || p[dl] == '\0');
    free(text);
    return hit ? td_arena_strdup(ctx->arena, pkg) : NULL;
}

/* Where the wheel came from: its direct_url.json, else the index the tables
 * give its local version label. */
static void find_index(const struct td_probe_ctx *ctx, const char *meta_dir,
                       struct td_snap_package *p)
{
    p->index_url = direct_url(ctx, meta_dir);
    if (p->index_url) {
        p->index_from = "direct_url.json";
        return;
    }
    char url[256];
    if (p->local && td_kb_variant_index(p->local, url, sizeof url)) {
        p->index_url = td_arena_strdup(ctx->arena, url);
        p->index_from = "variant";
    }
}

/* One .dist-info / .egg-info entry NAME of SITE; false when its metadata
 * names no distribution. */
static bool read_package(const struct td_probe_ctx *ctx, const char *site, const char *name,
                         struct td_snap_package *p)
{
    char *meta_dir = td_pyfs_join(ctx->arena, site, name);
    bool egg = ends_with(name, ".egg-info");
    char path[TD_PYFS_PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", meta_dir, egg ? "PKG-INFO" : "METADATA");
    if (egg && td_pyfs_is_file(ctx, meta_dir)) /* an egg-info file is PKG-INFO itself */
        snprintf(path, sizeof path, "%s", meta_dir);
    size_t len;
    char *text = td_pyfs_read(ctx, path, 1 << 14, &len);
    if (!text)
        return false;
    p->name = metadata_field(ctx->arena, text, "Name");
    p->version = metadata_field(ctx->arena, text, "Version");
    free(text);
    if (!p->name || !p->version)
        return false;
    const char *plus = strchr(p->version, '+');
    p->local = plus && plus[1] ? plus + 1 : NULL;
    p->installer = egg ? NULL : td_dist_info_installer(ctx, meta_dir);
    if (!p->installer)
        p->installer = debian_site(site) ? "debian" : "unknown";
    if (strcmp(p->installer, "debian") == 0)
        p->deb_package = debian_owner(ctx, p->name, meta_dir);
    p->location = site;
    p->meta_dir = meta_dir;
    if (!egg)
        find_index(ctx, meta_dir, p);
    return true;
}

/* PEP 503 normalised names compare equal: "Foo_Bar" and "foo-bar". */
static int name_cmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = *a == '_' || *a == '.' ? '-' : tolower((unsigned char)*a);
        int y = *b == '_' || *b == '.' ? '-' : tolower((unsigned char)*b);
        if (x != y || !x)
            return x - y;
    }
}

static int package_cmp(const void *a, const void *b)
{
    const struct td_snap_package *x = a, *y = b;
    int c = name_cmp(x->name, y->name);
    return c ? c : strcmp(x->location, y->location);
}

/* Appends the distributions of SITE to *OUT (grown in the arena). */
static void read_site(const struct td_probe_ctx *ctx, const char *site,
                      struct td_snap_package **out, size_t *n, size_t *cap)
{
    char host[TD_PYFS_PATH_MAX];
    if (!td_pyfs_host(ctx, site, host, sizeof host))
        return;
    DIR *d = opendir(host);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!ends_with(e->d_name, ".dist-info") && !ends_with(e->d_name, ".egg-info"))
            continue;
        if (*n == *cap) {
            size_t grown = *cap ? *cap * 2 : 64;
            struct td_snap_package *bigger = td_arena_array(ctx->arena, grown, sizeof *bigger);
            if (!bigger)
                break;
            if (*n)
                memcpy(bigger, *out, *n * sizeof *bigger);
            *out = bigger, *cap = grown;
        }
        struct td_snap_package p = {0};
        if (read_package(ctx, site, e->d_name, &p))
            (*out)[(*n)++] = p;
    }
    closedir(d);
}

static void collect_env(const struct td_probe_ctx *ctx, const struct td_python *py,
                        struct td_snap_env *env)
{
    env->python = py->exe;
    env->version = py->version;
    env->kind = py->kind_name;
    size_t cap = 0;
    for (size_t i = 0; i < py->n_site_dirs; i++)
        read_site(ctx, py->site_dirs[i], &env->packages, &env->n_packages, &cap);
    if (env->n_packages)
        qsort(env->packages, env->n_packages, sizeof *env->packages, package_cmp);
}

static const char *sha256_hex(struct td_arena *a, const char *host_path)
{
    int fd = td_open_file(host_path, NULL);
    if (fd < 0)
        return NULL;
    static uint8_t buf[1 << 16];
    uint8_t md[TD_DIGEST_MAX];
    bool ok = td_digest_fd(fd, TD_DIGEST_SHA256, buf, sizeof buf, md);
    close(fd);
    if (!ok)
        return NULL;
    char hex[2 * TD_DIGEST_MAX + 1];
    for (size_t i = 0; i < td_digest_size(TD_DIGEST_SHA256); i++)
        snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return td_arena_strdup(a, hex);
}

static void collect_native(const struct td_check_report *r, bool verify, struct td_snapshot *s,
                           struct td_arena *a)
{
    size_t total = 0;
    for (size_t i = 0; r->graphs && i < r->n_torch; i++)
        total += r->graphs[i] ? r->graphs[i]->count : 0;
    s->native = td_arena_array(a, total + 1, sizeof *s->native);
    for (size_t i = 0; s->native && i < r->n_torch; i++) {
        const struct td_graph *g = r->graphs[i];
        for (size_t k = 0; g && k < g->count; k++) {
            const struct td_object *o = g->objects[k];
            struct td_snap_native *x = &s->native[s->n_native++];
            struct stat st;
            x->torch = r->torch[i].dir;
            x->name = o->name;
            x->path = o->path;
            x->found_via = td_rule_name(o->found_via);
            x->size = stat(o->host_path, &st) == 0 ? (uint64_t)st.st_size : 0;
            x->sha256 = verify ? sha256_hex(a, o->host_path) : NULL;
        }
    }
}

static const char *env_value(const char *const *envp, const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = envp; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* NAME's value split at the platform's list separator. */
static void split_path(const char *name, const char *value, struct td_snap_search_path *out,
                       struct td_arena *a)
{
#ifdef _WIN32
    const char sep[] = ";";
#else
    const char sep[] = ":";
#endif
    size_t n = 1;
    for (const char *p = value; *p; p++)
        n += *p == sep[0];
    out->name = name;
    out->dirs = td_arena_array(a, n, sizeof *out->dirs);
    for (const char *p = value; out->dirs;) {
        size_t len = strcspn(p, sep);
        out->dirs[out->n++] = td_arena_strndup(a, p, len);
        if (!p[len])
            break;
        p += len + 1;
    }
}

static void collect_paths(const struct td_diagnose_request *q, struct td_snapshot *s,
                          struct td_arena *a)
{
    static const char *const names[] = {"PATH", "LD_LIBRARY_PATH", "LD_PRELOAD"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *v = env_value(q->envp, names[i]);
        if (v)
            split_path(names[i], v, &s->paths[s->n_paths++], a);
    }
}

static const char *utc_now(struct td_arena *a)
{
    time_t now = time(NULL);
    struct tm tm;
#ifdef _WIN32
    tm = *gmtime(&now); /* one thread here; mingw lacks gmtime_r */
#else
    gmtime_r(&now, &tm);
#endif
    char out[32];
    strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return td_arena_strdup(a, out);
}

void td_snapshot_collect(const struct td_diagnose_request *q, const struct td_check_report *r,
                         bool verify, struct td_snapshot *s, struct td_arena *arena)
{
    struct td_probe_ctx ctx = {.root = q->root, .arena = arena};
    s->taken_at = utc_now(arena);
    s->envs = td_arena_array(arena, r->n_py + 1, sizeof *s->envs);
    for (size_t i = 0; s->envs && i < r->n_py; i++)
        collect_env(&ctx, &r->pythons[i], &s->envs[s->n_envs++]);
    collect_native(r, verify, s, arena);
    collect_paths(q, s, arena);
}

void td_snapshot_take(const struct td_diagnose_request *q, bool verify, struct td_check_report *r,
                      struct td_snapshot *s, struct td_arena *arena)
{
    td_diagnose(q, r, arena);
    td_snapshot_collect(q, r, verify, s, arena);
}
