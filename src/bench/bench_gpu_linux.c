/* bench's GPU part on Linux: the embedded GPU helper (gpuhelper/) runs the
 * measurements of gpu_bench_ask.c in a child with a timeout, so a driver
 * that crashes or hangs in a copy or a kernel launch takes only the child;
 * what it answered before that is kept, and the step it died in is said. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "probe/probe_util.h"

#define ANSWER_CAP ((size_t)64 << 10)

/* How the child ended, in words; NULL when it finished normally. */
static const char *ending(const struct td_gpu_helper_outcome *o, int timeout_ms, bool done,
                          char *out, size_t cap)
{
    if (!o->started)
        snprintf(out, cap, "the GPU helper could not be started: %s", o->why);
    else if (o->timed_out)
        td_gpu_timeout_detail(timeout_ms, "GPU helper", out, cap);
    else if (o->exited && WIFSIGNALED(o->status))
        snprintf(out, cap, "the GPU helper was killed by SIG%s",
                 sigabbrev_np(WTERMSIG(o->status)) ? sigabbrev_np(WTERMSIG(o->status)) : "?");
    else if (!done)
        snprintf(out, cap, "the GPU helper exited before answering");
    else
        return NULL;
    return out;
}

/* The kernel log as /dev/kmsg gives it (records up to now, without
 * waiting), or NULL where it is not readable (dmesg_restrict, no root). */
static char *read_kmsg(size_t *len)
{
    enum { CAP = 4 << 20 };
    int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    char *buf = fd >= 0 ? malloc(CAP) : NULL;
    size_t used = 0;
    while (buf && used + 8192 < CAP) {
        ssize_t n = read(fd, buf + used, 8192); /* one record per read */
        if (n < 0 && errno == EPIPE)
            continue; /* a record was overwritten while we read */
        if (n <= 0)
            break;
        used += (size_t)n;
    }
    if (fd >= 0)
        close(fd);
    if (buf && used == 0) {
        free(buf);
        buf = NULL;
    }
    *len = used;
    return buf;
}

static void count_xids(struct td_bench_gpus *g)
{
    size_t len;
    char *log = read_kmsg(&len);
    for (size_t i = 0; log && i < g->n_gpus; i++)
        g->gpus[i].xid_errors = td_bench_count_xids(log, len, g->gpus[i].pci);
    free(log);
}

void td_bench_gpu_run(const struct td_bench_options *o, struct td_bench_gpus *g,
                      struct td_arena *arena)
{
    int iterations = o->iterations > 0 ? o->iterations : o->quick ? 10 : 100;
    int timeout = o->timeout_ms > 0 ? o->timeout_ms : o->quick ? 20000 : 60000;
    char iters[16];
    snprintf(iters, sizeof iters, "%d", iterations);
    const char *args[] = {"bench", iters, o->quick ? "1" : "0", NULL};
    char *buf = malloc(ANSWER_CAP);
    struct td_gpu_helper_outcome out = {0};
    if (!buf) {
        g->status = "not measured: out of memory";
        return;
    }
    if (o->progress)
        o->progress(o->progress_ctx, "GPU: copies, FMA kernel, stability loop");
    size_t n = td_gpu_helper_run(args, timeout, o->time_up, buf, ANSWER_CAP, &out);
    g->last_gpu = -1;
    td_bench_gpu_parse(buf, n, g, arena);
    bool done = n >= 5 && memcmp(buf + n - 5, "done\n", 5) == 0;
    free(buf);
    count_xids(g);
    char why[700];
    const char *end = ending(&out, timeout, done, why, sizeof why);
    if (!end)
        return;
    td_bench_gpu_ended(g, end, arena);
}
