/* Is the GPU passed through? The device nodes the CUDA driver opens and
 * whether this user may open them; the driver's user-space libraries the
 * loader would take (libcuda.so.1, libnvidia-ml.so.1), the driver release
 * their file names carry and the package that installed them, against the
 * kernel module's version; the NVIDIA Container Toolkit's variables; the
 * image's CUDA toolkit and its cuda-compat forward-compatibility driver. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/probe_util.h"
#include "probe/python/pyfs.h"
#include "probe/system/env_internal.h"

static void add_node(const struct td_probe_ctx *ctx, struct td_environment *e, const char *path)
{
    char host[4096];
    if (e->n_nodes >= TD_ENV_MAX_NODES || !td_probe_path(ctx, path, host, sizeof host))
        return;
    struct td_env_node *n = &e->nodes[e->n_nodes++];
    n->path = td_arena_strdup(ctx->arena, path);
    n->exists = td_probe_exists(ctx, path);
    /* The CUDA driver opens them read-write; AT_EACCESS: as this process's
     * effective user and groups would (access(2)). */
    n->openable = n->exists && faccessat(AT_FDCWD, host, R_OK | W_OK, AT_EACCESS) == 0;
}

struct gpu_nodes {
    const struct td_probe_ctx *ctx;
    struct td_environment *e;
};

/* /dev/nvidia0, /dev/nvidia1, ...: one per GPU the container was given. */
static bool gpu_node(void *cookie, const char *name)
{
    struct gpu_nodes *g = cookie;
    if (strncmp(name, "nvidia", 6) == 0 && name[6] >= '0' && name[6] <= '9' &&
        strspn(name + 6, "0123456789") == strlen(name + 6)) {
        char path[300];
        snprintf(path, sizeof path, "/dev/%s", name);
        add_node(g->ctx, g->e, path);
    }
    return true;
}

/* The Model line of the first GPU the kernel module lists. */
struct gpu_model {
    const struct td_probe_ctx *ctx;
    const char *name;
};

static bool gpu_information(void *cookie, const char *bus)
{
    struct gpu_model *g = cookie;
    char path[512], text[4096], model[256];
    snprintf(path, sizeof path, "/proc/driver/nvidia/gpus/%s/information", bus);
    if (td_env_read(g->ctx, path, text, sizeof text) &&
        td_parse_gpu_information(text, strlen(text), model, sizeof model))
        g->name = td_arena_strdup(g->ctx->arena, model);
    return !g->name;
}

static void find_lib(const struct td_probe_ctx *ctx, struct td_probe_loader *pl, const char *soname,
                     struct td_env_lib *out)
{
    struct td_resolution res;
    out->soname = soname;
    struct td_object *o = td_probe_loader_find(pl, soname, &res);
    if (o && !o->is_stub) {
        out->path = td_arena_strdup(ctx->arena, o->path);
        out->file = td_pyfs_realpath(ctx, o->path);
        char v[64];
        if (td_parse_lib_driver_version(td_pyfs_basename(out->file ? out->file : out->path), v,
                                        sizeof v))
            out->version = td_arena_strdup(ctx->arena, v);
    }
    td_probe_loader_release(&res);
}

/* /usr/local/cuda/compat/libcuda.so.<driver>: the forward-compatibility
 * driver an image carries (NVIDIA CUDA Compatibility guide, "Forward
 * Compatibility": the cuda-compat-<major>-<minor> package). */
struct compat_search {
    const struct td_probe_ctx *ctx;
    const char *version;
};

static bool compat_entry(void *cookie, const char *name)
{
    struct compat_search *s = cookie;
    char v[64];
    if (strncmp(name, "libcuda.so.", 11) == 0 && td_parse_lib_driver_version(name, v, sizeof v))
        s->version = td_arena_strdup(s->ctx->arena, v);
    return !s->version;
}

static void image_cuda(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    static const char *const files[] = {"/usr/local/cuda/version.json",
                                        "/usr/local/cuda/version.txt"};
    char text[8192], v[64];
    for (size_t i = 0; i < 2 && !e->image_cuda; i++)
        if (td_env_read(ctx, files[i], text, sizeof text) &&
            td_parse_cuda_version_file(text, strlen(text), v, sizeof v)) {
            e->image_cuda = td_arena_strdup(ctx->arena, v);
            e->image_cuda_from = files[i];
        }
    /* NVIDIA's CUDA images set CUDA_VERSION (nvidia/container-images cuda Dockerfiles). */
    const char *env = td_pyfs_env(ctx, "CUDA_VERSION");
    if (!e->image_cuda && env && env[0]) {
        e->image_cuda = td_arena_strdup(ctx->arena, env);
        e->image_cuda_from = "CUDA_VERSION";
    }
    struct compat_search s = {ctx, NULL};
    td_env_each_entry(ctx, "/usr/local/cuda/compat", compat_entry, &s);
    e->compat_version = s.version;
}

static const char *env_copy(const struct td_probe_ctx *ctx, const char *name)
{
    const char *v = td_pyfs_env(ctx, name);
    return v ? td_arena_strdup(ctx->arena, v) : NULL;
}

void td_probe_passthrough(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    add_node(ctx, e, "/dev/nvidiactl");
    add_node(ctx, e, "/dev/nvidia-uvm");
    struct gpu_nodes g = {ctx, e};
    td_env_each_entry(ctx, "/dev", gpu_node, &g);

    char text[4096], v[64];
    if (td_env_read(ctx, "/proc/driver/nvidia/version", text, sizeof text) &&
        td_parse_nvidia_version(text, strlen(text), v, sizeof v))
        e->kernel_module = td_arena_strdup(ctx->arena, v);
    struct gpu_model m = {ctx, NULL};
    td_env_each_entry(ctx, "/proc/driver/nvidia/gpus", gpu_information, &m);
    e->gpu_name = m.name;

    struct td_probe_loader pl;
    struct td_err err = {0};
    if (td_probe_loader_open(ctx, true, &pl, &err) == 0) {
        find_lib(ctx, &pl, "libcuda.so.1", &e->libcuda);
        find_lib(ctx, &pl, "libnvidia-ml.so.1", &e->libnvml);
        td_probe_loader_close(&pl);
    }
    e->visible_devices = env_copy(ctx, "NVIDIA_VISIBLE_DEVICES");
    e->capabilities = env_copy(ctx, "NVIDIA_DRIVER_CAPABILITIES");
    e->cuda_visible = env_copy(ctx, "CUDA_VISIBLE_DEVICES");
    image_cuda(ctx, e);

    /* Who installed a driver library that does not match the kernel module,
     * or one inside WSL (there the Windows driver's copy must be used). */
    struct td_env_lib *libs[] = {&e->libcuda, &e->libnvml};
    for (size_t i = 0; i < 2; i++) {
        struct td_env_lib *l = libs[i];
        bool wsl_copy = l->path && strncmp(l->path, "/usr/lib/wsl/", 13) == 0;
        bool odd = (e->kernel_module && l->version && strcmp(l->version, e->kernel_module) != 0) ||
                   (e->wsl && !wsl_copy);
        if (l->path && odd)
            l->package = td_env_dpkg_owner(ctx, l->file ? l->file : l->path);
    }
}
