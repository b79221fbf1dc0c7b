/* Target-path file helpers for the Python and torch probes (pyfs.h). */
#include "probe/python/pyfs.h"
#include "base/map.h"

#include "base/compat.h"
#include "probe/probe_util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Windows variable names are case-insensitive ("Path", "APPDATA"). */
#ifdef _WIN32
#define TD_ENV_NAME_EQ(e, name, n) (strncasecmp((e), (name), (n)) == 0)
#else
#define TD_ENV_NAME_EQ(e, name, n) (strncmp((e), (name), (n)) == 0)
#endif

static bool rooted(const struct td_probe_ctx *ctx)
{
    return ctx->root && ctx->root[0] && strcmp(ctx->root, "/") != 0;
}

const char *td_pyfs_host(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap)
{
    int n = rooted(ctx) ? snprintf(out, cap, "%s%s%s", ctx->root, path[0] == '/' ? "" : "/", path)
                        : snprintf(out, cap, "%s", path);
    return n < 0 || (size_t)n >= cap ? NULL : out;
}

bool td_pyfs_stat(const struct td_probe_ctx *ctx, const char *path, struct stat *st)
{
    char host[TD_PYFS_PATH_MAX];
    return td_pyfs_host(ctx, path, host, sizeof host) && stat(host, st) == 0;
}

bool td_pyfs_lstat(const struct td_probe_ctx *ctx, const char *path, struct stat *st)
{
    char host[TD_PYFS_PATH_MAX];
    return td_pyfs_host(ctx, path, host, sizeof host) && lstat(host, st) == 0;
}

bool td_pyfs_is_dir(const struct td_probe_ctx *ctx, const char *path)
{
    struct stat st;
    return td_pyfs_stat(ctx, path, &st) && S_ISDIR(st.st_mode);
}

bool td_pyfs_is_file(const struct td_probe_ctx *ctx, const char *path)
{
    struct stat st;
    return td_pyfs_stat(ctx, path, &st) && S_ISREG(st.st_mode);
}

char *td_pyfs_join(struct td_arena *a, const char *dir, const char *name)
{
    size_t dl = strlen(dir);
    while (dl > 1 && dir[dl - 1] == '/')
        dl--;
    while (*name == '/')
        name++;
    size_t nl = strlen(name);
    char *p = td_arena_alloc(a, dl + nl + 2);
    if (!p)
        return NULL;
    memcpy(p, dir, dl);
    size_t at = dl;
    if (!(dl == 1 && dir[0] == '/'))
        p[at++] = '/';
    memcpy(p + at, name, nl + 1);
    return p;
}

char *td_pyfs_from_host(struct td_arena *a, const char *path)
{
    char *p = td_arena_strdup(a, path);
    for (char *c = p; c && *c; c++)
        if (TD_HOST_SEP(*c))
            *c = '/';
    return p;
}

char *td_pyfs_dirname(struct td_arena *a, const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return td_arena_strdup(a, ".");
    if (slash == path)
        return td_arena_strdup(a, "/");
    return td_arena_strndup(a, path, (size_t)(slash - path));
}

const char *td_pyfs_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Component-wise resolution (POSIX path resolution, at most 40 links as
 * Linux's MAXSYMLINKS): REST holds what is still to walk, DONE the
 * resolved prefix. */
char *td_pyfs_realpath(const struct td_probe_ctx *ctx, const char *path)
{
    char done[TD_PYFS_PATH_MAX] = "", rest[TD_PYFS_PATH_MAX], link[TD_PYFS_PATH_MAX];
    if (snprintf(rest, sizeof rest, "%s", path) >= (int)sizeof rest)
        return NULL;
    int hops = 0;
    char *r = rest;
    if (td_host_absolute(path) && !TD_HOST_SEP(path[0])) { /* a Windows drive: "C:" stays */
        memcpy(done, path, 2);
        done[2] = '\0';
        r += 2;
    }
    while (*r) {
        while (*r == '/')
            r++;
        if (!*r)
            break;
        char *end = strchr(r, '/');
        size_t len = end ? (size_t)(end - r) : strlen(r);
        char *next = end ? end : r + len;
        if (len == 1 && r[0] == '.') {
            r = next;
            continue;
        }
        if (len == 2 && r[0] == '.' && r[1] == '.') {
            char *slash = strrchr(done, '/');
            if (slash)
                *slash = '\0';
            r = next;
            continue;
        }
        size_t dl = strlen(done);
        if (dl + 1 + len >= sizeof done)
            return NULL;
        done[dl] = '/';
        memcpy(done + dl + 1, r, len);
        done[dl + 1 + len] = '\0';
        struct stat st;
        if (!td_pyfs_lstat(ctx, done, &st))
            return NULL;
        if (S_ISLNK(st.st_mode)) {
            char host[TD_PYFS_PATH_MAX];
            ssize_t n = -1;
            if (++hops > 40 || !td_pyfs_host(ctx, done, host, sizeof host) ||
                (n = readlink(host, link, sizeof link - 1)) < 0)
                return NULL;
            link[n] = '\0';
            char tail[TD_PYFS_PATH_MAX];
            if (snprintf(tail, sizeof tail, "%s/%s", link, next) >= (int)sizeof tail)
                return NULL;
            memcpy(rest, tail, strlen(tail) + 1);
            r = rest;
            if (link[0] == '/')
                done[0] = '\0';
            else
                done[dl] = '\0';
            continue;
        }
        r = next;
    }
    return td_arena_strdup(ctx->arena, done[0] ? done : "/");
}

char *td_pyfs_read(const struct td_probe_ctx *ctx, const char *path, size_t max, size_t *len)
{
    char host[TD_PYFS_PATH_MAX];
    *len = 0;
    if (!td_pyfs_host(ctx, path, host, sizeof host))
        return NULL;
    int fd = td_open_file(host, NULL); /* a FIFO as RECORD is refused, never waited on */
    if (fd < 0)
        return NULL;
    char *buf = td_probe_read_fd(fd, max, len);
    close(fd);
    return buf;
}

const char *td_pyfs_env(const struct td_probe_ctx *ctx, const char *name)
{
    if (!ctx->envp)
        return getenv(name);
    size_t n = strlen(name);
    for (const char *const *e = ctx->envp; *e; e++)
        if (TD_ENV_NAME_EQ(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

const char *td_pyfs_home(const struct td_probe_ctx *ctx)
{
    const char *h = ctx->home ? ctx->home : td_pyfs_env(ctx, "HOME");
    return h && h[0] == '/' ? h : NULL;
}

/* One pass over PATH's steps, written back over its copy. */
char *td_pyfs_lexical(struct td_arena *a, const char *path)
{
    char *s = td_arena_strdup(a, path);
    if (!s)
        return NULL;
    size_t n = 0;
    for (const char *p = s; *p;) {
        size_t len = strcspn(p, "/\\");
        bool dot = len == 1 && p[0] == '.', dotdot = len == 2 && p[0] == '.' && p[1] == '.';
        if (dotdot && n > 0) {
            while (n > 0 && s[n - 1] != '/')
                n--;
            if (n > 0)
                n--; /* the '/' before the step taken back */
        } else if (!dot && (len || n == 0)) {
            if (n || p != s)
                s[n++] = '/';
            memmove(s + n, p, len);
            n += len;
        }
        p += len;
        if (*p)
            p++;
    }
    s[n] = '\0';
    return s;
}
