/* WSL2's GPU: the libcuda.so.1 WSL maps from the Windows driver into
 * /usr/lib/wsl/lib (as copies, which ldconfig warns about), /dev/dxg, and
 * the Windows driver's release, read from the DriverVer line of the .inf
 * in the driver store WSL mounts at /usr/lib/wsl/drivers (NVIDIA "CUDA on
 * WSL User Guide"; microsoft/WSL issues 5548 and 8587). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probe/probe_util.h"
#include "probe/python/pyfs.h"
#include "probe/system/env_internal.h"

struct inf_search {
    const struct td_probe_ctx *ctx;
    const char *dir; /* the driver-store folder being read */
    const char *version, *from;
};

static bool inf_file(void *cookie, const char *name)
{
    struct inf_search *s = cookie;
    size_t n = strlen(name);
    if (n < 5 || strcasecmp(name + n - 4, ".inf") != 0)
        return true;
    char path[1024], v[32];
    snprintf(path, sizeof path, "%s/%s", s->dir, name);
    size_t len;
    char *text = td_probe_slurp(s->ctx, path, (size_t)1 << 20, &len);
    if (text && td_parse_inf_driver(text, len, v, sizeof v)) {
        s->version = td_arena_strdup(s->ctx->arena, v);
        s->from = td_arena_strdup(s->ctx->arena, path);
    }
    free(text);
    return !s->version;
}

/* nv_dispi.inf_amd64_<hash>, nv_dispsi.inf_amd64_..., nvlti.inf_amd64_...:
 * NVIDIA's folders of the Windows driver store. */
static bool driver_folder(void *cookie, const char *name)
{
    struct inf_search *s = cookie;
    if (strncmp(name, "nv", 2) != 0)
        return true;
    char dir[600];
    snprintf(dir, sizeof dir, "/usr/lib/wsl/drivers/%s", name);
    s->dir = dir;
    td_env_each_entry(s->ctx, dir, inf_file, s);
    return !s->version;
}

void td_probe_wsl(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    struct stat st;
    e->wsl_libcuda = td_pyfs_lstat(ctx, "/usr/lib/wsl/lib/libcuda.so.1", &st);
    e->wsl_libcuda_copy = e->wsl_libcuda && S_ISREG(st.st_mode);
    e->dxg = td_probe_exists(ctx, "/dev/dxg");
    struct inf_search s = {.ctx = ctx};
    td_env_each_entry(ctx, "/usr/lib/wsl/drivers", driver_folder, &s);
    e->windows_driver = s.version;
    e->windows_driver_from = s.from;
    const char *distro = td_pyfs_env(ctx, "WSL_DISTRO_NAME");
    e->wsl_distro = distro ? td_arena_strdup(ctx->arena, distro) : NULL;
}
