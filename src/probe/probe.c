/* What every probe shares: paths under the probe root (tests build whole
 * fake systems and point ctx->root at them) and reading files there. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/map.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

const char *td_probe_path(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap)
{
    const char *root = ctx ? ctx->root : NULL;
    size_t rn = root ? strlen(root) : 0;
    while (rn > 0 && root[rn - 1] == '/')
        rn--; /* "/" and "/tmp/x/" both join without a double slash */
    if (!out || cap == 0)
        return NULL;
    int n = snprintf(out, cap, "%.*s%s%s", (int)rn, rn ? root : "",
                     path[0] == '/' || rn == 0 ? "" : "/", path);
    return n >= 0 && (size_t)n < cap ? out : NULL;
}

/* Room for a file of SIZE bytes (0: unknown, as /proc reports), and one
 * more, so that the read at its end needs no second buffer; at most MAX.
 * Not MAX itself: a 64 MiB limit would be a 64 MiB mapping for every
 * small file, and mapping takes the lock the other threads' page faults
 * wait on. */
static size_t first_room(uint64_t size, size_t max)
{
    uint64_t want = size ? size + 1 : 4096;
    return want < max ? (size_t)want : max;
}

char *td_probe_read_fd(int fd, size_t max, size_t *len)
{
    struct stat st;
    *len = 0;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode))
        return NULL;
    size_t cap = first_room(S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0, max), used = 0;
    char *buf = malloc(cap + 1);
    while (buf) {
        if (used == cap) { /* larger than it said (or than 4 KiB): twice the room */
            if (cap >= max)
                break;
            cap = cap > max / 2 ? max : cap * 2;
            char *grown = realloc(buf, cap + 1);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        ssize_t n = read(fd, buf + used, cap - used);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            free(buf);
            buf = NULL;
            break;
        }
        if (n == 0)
            break;
        used += (size_t)n;
    }
    if (buf) {
        buf[used] = '\0';
        *len = used;
    }
    return buf;
}

char *td_probe_slurp(const struct td_probe_ctx *ctx, const char *path, size_t max, size_t *len)
{
    char host[4096];
    *len = 0;
    if (!td_probe_path(ctx, path, host, sizeof host))
        return NULL;
    int fd = td_open_file(host, NULL);
    if (fd < 0)
        return NULL;
    char *buf = td_probe_read_fd(fd, max, len);
    close(fd);
    return buf;
}

bool td_probe_exists(const struct td_probe_ctx *ctx, const char *path)
{
    char host[4096];
    struct stat st;
    return td_probe_path(ctx, path, host, sizeof host) && lstat(host, &st) == 0;
}

int td_probe_loader_open(const struct td_probe_ctx *ctx, bool with_env, struct td_probe_loader *pl,
                         struct td_err *err)
{
    memset(pl, 0, sizeof *pl);
    const char *root =
        ctx && ctx->root && strcmp(ctx->root, "/") != 0 && ctx->root[0] ? ctx->root : NULL;
    pl->cfg.platform = TD_PLATFORM_LINUX;
    pl->cfg.profile = TD_PROFILE_EXE;
    pl->cfg.root = root;
    const char *llp = with_env ? getenv("LD_LIBRARY_PATH") : NULL;
    if (llp) {
        pl->env[0] = (struct td_env_var){"LD_LIBRARY_PATH", llp};
        pl->cfg.env = pl->env;
        pl->cfg.n_env = 1;
    }
    if (td_loader_init(&pl->L, &pl->cfg, err) != 0)
        return -1;
    char host[4096];
    struct td_err oerr = {0};
    if (td_probe_path(ctx, "/bin/sh", host, sizeof host)) {
        pl->program = td_object_open(host, "/bin/sh", NULL, &oerr);
        if (pl->program && pl->program->kind != TD_FILE_ELF) {
            td_object_free(pl->program);
            pl->program = NULL;
        }
    }
    pl->L.main = pl->program;
    pl->ready = true;
    return 0;
}

struct td_object *td_probe_loader_find(struct td_probe_loader *pl, const char *name,
                                       struct td_resolution *res)
{
    struct td_loaded loaded = {NULL, 0};
    struct td_err err = {0};
    memset(res, 0, sizeof *res);
    if (!pl->ready || pl->L.ops->resolve(&pl->L, NULL, name, false, &loaded, res, &err) != 0)
        return NULL;
    return res->object;
}

void td_probe_loader_release(struct td_resolution *res)
{
    if (res->object && res->newly_opened)
        td_object_free(res->object);
    res->object = NULL;
}

void td_probe_loader_close(struct td_probe_loader *pl)
{
    if (pl->ready)
        td_loader_fini(&pl->L);
    if (pl->program)
        td_object_free(pl->program);
    memset(pl, 0, sizeof *pl);
}
