/* src/probe/gpu/ answers "what does the NVIDIA driver say, and can this
 * torch's kernels run on these GPUs?": the driver and GPUs, asked in a
 * child process (gpu_linux.c, gpu_windows.c; the child's side is
 * gpu_ask.c, gpu_bench_ask.c and gpuhelper/), its answer read back
 * (gpu_answer.c), and the fatbin-vs-GPU comparison (gpu_code.c).
 *
 * The NVIDIA driver and GPU probe. What files say is read here: the kernel
 * module's version (/proc/driver/nvidia/version), the device nodes, and
 * which libcuda.so.1 a plain program would load (the Linux loader model).
 * What only the driver can say is asked in a child process running the
 * embedded helper (gpuhelper/gpu_helper.c), with a timeout, so a driver
 * that crashes or hangs cannot take torchdoctor with it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/embed.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

extern const unsigned char td_embed_gpu_helper[];
extern const size_t td_embed_gpu_helper_size;
extern char **environ;

#define ANSWER_CAP ((size_t)64 << 10)
#define DEFAULT_TIMEOUT_MS 5000
#define MAX_DEV_NODES 64

/* Where WSL2 maps the Windows driver's user-mode libraries, libcuda.so.1
 * among them (NVIDIA "CUDA on WSL User Guide", section "Getting started"). */
static const char wsl_lib_dir[] = "/usr/lib/wsl/lib/";

static void read_kernel_driver(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/driver/nvidia/version", 65536, &len);
    char v[64];
    if (text && td_parse_nvidia_version(text, len, v, sizeof v))
        out->kernel_driver = td_arena_strdup(ctx->arena, v);
    free(text);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* /dev/nvidia0.., /dev/nvidiactl, /dev/nvidia-uvm (the proprietary and
 * open kernel modules create them), /dev/dxg (WSL2), sorted by name. */
static void list_dev_nodes(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    char host[4096];
    if (!td_probe_path(ctx, "/dev", host, sizeof host))
        return;
    DIR *d = opendir(host);
    if (!d)
        return;
    const char **nodes = td_arena_array(ctx->arena, MAX_DEV_NODES, sizeof *nodes);
    size_t n = 0;
    struct dirent *e;
    while (nodes && n < MAX_DEV_NODES && (e = readdir(d))) {
        if (strncmp(e->d_name, "nvidia", 6) != 0 && strcmp(e->d_name, "dxg") != 0)
            continue;
        if (e->d_type == DT_DIR)
            continue; /* /dev/nvidia-caps holds capability nodes, not devices */
        char path[300];
        snprintf(path, sizeof path, "/dev/%s", e->d_name);
        if ((nodes[n] = td_arena_strdup(ctx->arena, path)))
            n++;
    }
    closedir(d);
    if (n) {
        qsort(nodes, n, sizeof *nodes, by_name);
        out->dev_nodes = nodes;
        out->n_dev_nodes = n;
    }
}

/* The libcuda.so.1 a plain program would load, by the loader model. */
static void find_libcuda(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    struct td_probe_loader pl;
    struct td_err err = {0};
    if (td_probe_loader_open(ctx, true, &pl, &err) != 0)
        return;
    struct td_resolution res;
    struct td_object *o = td_probe_loader_find(&pl, "libcuda.so.1", &res);
    if (o) {
        out->libcuda = td_arena_strdup(ctx->arena, o->path);
        out->libcuda_via = td_arena_strdup(ctx->arena, td_rule_name(res.rule));
        out->libcuda_is_stub = o->is_stub;
        out->wsl_libcuda = strncmp(o->path, wsl_lib_dir, sizeof wsl_lib_dir - 1) == 0;
    }
    td_probe_loader_release(&res);
    td_probe_loader_close(&pl);
}

static long long now_ms(void)
{
    return (long long)(td_monotonic_s() * 1000.0);
}

/* Reads the child's answer from FD until end of file or DEADLINE (or, in
 * tests, until TIME_UP says so: then the clock is not read). */
static size_t read_answer(int fd, long long deadline, struct td_time_up time_up, char *buf,
                          size_t cap, bool *timed_out)
{
    size_t used = 0;
    char sink[4096];
    for (;;) {
        long long left = time_up.said ? -1 : deadline - now_ms();
        if (!time_up.said && left <= 0) {
            *timed_out = true;
            break;
        }
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int r = poll(&p, 1, left < 0 ? -1 : (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        if (r == 0)
            continue; /* the deadline check above ends it */
        ssize_t n = used < cap ? read(fd, buf + used, cap - used) : read(fd, sink, sizeof sink);
        if (n < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (n <= 0)
            break;
        if (used < cap)
            used += (size_t)n;
        if (time_up.said && time_up.said(time_up.ctx, buf, used)) {
            *timed_out = true;
            break;
        }
    }
    return used;
}

/* Waits for PID until DEADLINE (with a TIME_UP, until it exits), then kills it. */
static void reap(pid_t pid, long long deadline, struct td_time_up time_up,
                 struct td_gpu_helper_outcome *o)
{
    for (;;) {
        int st;
        pid_t r = waitpid(pid, &st, o->timed_out || !time_up.said ? WNOHANG : 0);
        if (r == pid) {
            o->exited = true;
            o->status = st;
            return;
        }
        if (r < 0 && errno != EINTR)
            return;
        if (o->timed_out || (!time_up.said && now_ms() >= deadline)) {
            o->timed_out = true;
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            return;
        }
        if (!time_up.said)
            poll(NULL, 0, 2);
    }
}

size_t td_gpu_helper_run(const char *const *args, int timeout, struct td_time_up time_up, char *buf,
                         size_t cap, struct td_gpu_helper_outcome *o)
{
    struct td_err err = {0};
    int exe = td_embed_fd("torchdoctor-gpu-helper", td_embed_gpu_helper, td_embed_gpu_helper_size,
                          false, &err);
    int pipefd[2] = {-1, -1};
    size_t used = 0;
    if (exe < 0) {
        memcpy(o->why, err.msg, sizeof o->why);
        return 0;
    }
    if (pipe2(pipefd, O_CLOEXEC) != 0) {
        snprintf(o->why, sizeof o->why, "cannot create a pipe: %s", strerror(errno));
        goto out;
    }
    long long deadline = now_ms() + timeout;
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(o->why, sizeof o->why, "cannot start a child process: %s", strerror(errno));
        goto out;
    }
    if (pid == 0) {
        /* The child: answers on stdout; the driver's own messages are dropped. */
        int null = open("/dev/null", O_RDWR);
        if (dup2(pipefd[1], 1) < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 2) < 0)
            _exit(126);
        char *argv[8] = {(char *)"torchdoctor-gpu-helper"};
        for (int i = 0; args && args[i] && i < 6; i++)
            argv[i + 1] = (char *)args[i];
        fexecve(exe, argv, environ);
        _exit(127);
    }
    o->started = true;
    close(pipefd[1]);
    pipefd[1] = -1;
    used = read_answer(pipefd[0], deadline, time_up, buf, cap, &o->timed_out);
    reap(pid, deadline, time_up, o);
out:
    if (pipefd[0] >= 0)
        close(pipefd[0]);
    if (pipefd[1] >= 0)
        close(pipefd[1]);
    close(exe);
    return used;
}

static void set_detail(const struct td_probe_ctx *ctx, struct td_gpu_info *out,
                       enum td_gpu_status st, const char *detail)
{
    out->status = st;
    out->status_detail = td_arena_strdup(ctx->arena, detail);
}

/* The driver's answer, corrected by how the child ended. */
static void ask_driver(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    char *buf = malloc(ANSWER_CAP);
    struct td_gpu_helper_outcome o = {0};
    char detail[sizeof o.why + 64];
    if (!buf) {
        set_detail(ctx, out, TD_GPU_CRASHED, "out of memory");
        return;
    }
    int timeout = ctx->timeout_ms > 0 ? ctx->timeout_ms : DEFAULT_TIMEOUT_MS;
    size_t n = td_gpu_helper_run(NULL, timeout, ctx->time_up, buf, ANSWER_CAP, &o);
    bool done = td_gpu_parse_answer(buf, n, ctx->arena, out);
    free(buf);
    if (!o.started) {
        snprintf(detail, sizeof detail, "the GPU helper could not be started: %s", o.why);
        set_detail(ctx, out, TD_GPU_CRASHED, detail);
    } else if (o.timed_out) {
        set_detail(ctx, out, TD_GPU_TIMEOUT,
                   td_gpu_timeout_detail(timeout, "helper", detail, sizeof detail));
    } else if (o.exited && WIFSIGNALED(o.status)) {
        const char *abbrev = sigabbrev_np(WTERMSIG(o.status));
        if (abbrev)
            snprintf(detail, sizeof detail, "killed by SIG%s", abbrev);
        else
            snprintf(detail, sizeof detail, "killed by signal %d", WTERMSIG(o.status));
        set_detail(ctx, out, TD_GPU_CRASHED, detail);
    } else if (!done) {
        snprintf(detail, sizeof detail, "the helper exited with status %d before answering",
                 o.exited && WIFEXITED(o.status) ? WEXITSTATUS(o.status) : -1);
        set_detail(ctx, out, TD_GPU_CRASHED, detail);
    }
}

int td_probe_gpu(const struct td_probe_ctx *ctx, struct td_gpu_info *out)
{
    memset(out, 0, sizeof *out);
    read_kernel_driver(ctx, out);
    list_dev_nodes(ctx, out);
    find_libcuda(ctx, out);
    /* Nothing to ask: no libcuda.so.1 on the loader's path (the model is
     * the same search the child's dlopen does), no kernel module, no
     * device node. Starting the helper would cost ~20 ms of check's budget
     * to learn the same. */
    if (!out->libcuda && !out->kernel_driver && out->n_dev_nodes == 0)
        set_detail(ctx, out, TD_GPU_NO_DRIVER,
                   "no libcuda.so.1 where the loader looks, no NVIDIA kernel module, no "
                   "/dev/nvidia* device");
    else
        ask_driver(ctx, out);
    if (out->status == TD_GPU_NO_DRIVER && out->kernel_driver) {
        char detail[700];
        snprintf(detail, sizeof detail, "%s (the kernel module %s is loaded)",
                 out->status_detail ? out->status_detail : "libcuda.so.1 cannot be loaded",
                 out->kernel_driver);
        set_detail(ctx, out, TD_GPU_NO_DRIVER, detail);
    }
    if (!out->driver_version)
        out->driver_version = out->kernel_driver;
    return 0;
}
