/* fleet --slurm on POSIX (probe/fleet/slurm.h): srun in a child with its
 * stdout and stderr on pipes, both drained with poll() until it exits or
 * the timeout passes (then SIGTERM, which srun forwards to the step, and
 * SIGKILL if it lingers). srun -l keeps the tasks' lines apart: a line is
 * "TASK: text", so interleaved output still reassembles per task. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "probe/fleet/slurm.h"

struct buffer {
    char *s;
    size_t len, cap;
    unsigned long lines;
};

static bool buffer_add(struct buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *g = realloc(b->s, cap);
        if (!g)
            return false;
        b->s = g, b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
    for (size_t i = 0; i < n; i++)
        b->lines += s[i] == '\n';
    return true;
}

static double now_s(void)
{
    return td_monotonic_s();
}

static void child(const struct td_fleet_slurm_request *q, int out[2], int err[2])
{
    const char *argv[96];
    size_t n = 0;
    argv[n++] = q->srun ? q->srun : "srun";
    argv[n++] = "-l";
    argv[n++] = "--ntasks-per-node=1";
    for (size_t i = 0; q->srun_args && q->srun_args[i] && n < 70; i++)
        argv[n++] = q->srun_args[i];
    if (q->bench) {
        /* Both reports from one step: check, then bench, one line each. */
        static char script[8192];
        snprintf(script, sizeof script,
                 "\"$0\" check --format jsonl; \"$0\" bench --quick --format jsonl; exit 0");
        argv[n++] = "/bin/sh";
        argv[n++] = "-c";
        argv[n++] = script;
        argv[n++] = q->program;
    } else {
        argv[n++] = q->program;
        argv[n++] = "check";
        argv[n++] = "--format";
        argv[n++] = "jsonl";
    }
    argv[n] = NULL;
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]), close(out[1]), close(err[0]), close(err[1]);
    execvp(argv[0], (char *const *)argv);
    fprintf(stderr, "torchdoctor fleet: cannot run %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

/* "srun: error: NODE: task N: WHAT" names a failed node. */
static bool failed_node(const char *line, char *host, size_t cap, const char **what)
{
    const char *p = strstr(line, "srun: error: ");
    if (!p)
        return false;
    p += strlen("srun: error: ");
    const char *colon = strstr(p, ": task ");
    if (!colon || (size_t)(colon - p) >= cap || memchr(p, ' ', (size_t)(colon - p)))
        return false;
    memcpy(host, p, (size_t)(colon - p));
    host[colon - p] = '\0';
    const char *w = strchr(colon + 7, ':');
    *what = w ? w + 1 + (w[1] == ' ') : colon + 2;
    return true;
}

/* "slurmstepd: error: *** STEP 5.0 ON NODE CANCELLED AT ..." */
static bool cancelled_node(const char *line, char *host, size_t cap)
{
    const char *p = strstr(line, "*** STEP ");
    p = p ? strstr(p, " ON ") : NULL;
    if (!p || !strstr(p, "CANCELLED"))
        return false;
    p += 4;
    size_t n = strcspn(p, " ");
    if (n == 0 || n >= cap)
        return false;
    memcpy(host, p, n);
    host[n] = '\0';
    return true;
}

static void read_errors(struct td_fleet *f, char *text, bool timed_out, int status)
{
    char host[256];
    const char *what;
    bool any = false;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (failed_node(line, host, sizeof host, &what)) {
            td_fleet_mark(f, host, timed_out ? TD_FLEET_TIMED_OUT : TD_FLEET_FAILED, what);
            any = true;
        } else if (cancelled_node(line, host, sizeof host)) {
            td_fleet_mark(f, host, TD_FLEET_TIMED_OUT, "cancelled when fleet's --timeout passed");
            any = true;
        } else if (strstr(line, "error") && f->reports_read == 0 && !any) {
            td_fleet_problem(f, "srun", line);
            any = true;
        }
    }
    if (!any && f->reports_read == 0) {
        char why[128];
        snprintf(why, sizeof why, "srun %s and no node reported",
                 timed_out                                         ? "did not finish in time"
                 : WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "could not be run"
                                                                   : "ended");
        td_fleet_problem(f, "srun", why);
    }
}

int td_fleet_slurm(const struct td_fleet_slurm_request *q, struct td_fleet *f)
{
    int out[2], err[2];
    if (pipe(out) != 0 || pipe(err) != 0) {
        td_fleet_problem(f, "srun", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        td_fleet_problem(f, "srun", strerror(errno));
        return -1;
    }
    if (pid == 0)
        child(q, out, err);
    close(out[1]), close(err[1]);
    struct buffer o = {0}, e = {0};
    struct pollfd fds[2] = {{.fd = out[0], .events = POLLIN}, {.fd = err[0], .events = POLLIN}};
    double deadline = now_s() + (q->timeout_s > 0 ? q->timeout_s : 600), kill_at = 0;
    bool timed_out = false;
    int open_fds = 2;
    while (open_fds > 0) {
        double left = (kill_at ? kill_at : deadline) - now_s();
        int r = poll(fds, 2, left > 0 ? (int)(left * 1000) + 1 : 0);
        if (r < 0 && errno != EINTR)
            break;
        if (r == 0 || now_s() >= (kill_at ? kill_at : deadline)) {
            if (kill_at) {
                kill(pid, SIGKILL);
                break;
            }
            timed_out = true;
            kill(pid, SIGTERM);
            kill_at = now_s() + 10;
            continue;
        }
        for (int i = 0; i < 2; i++) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char chunk[65536];
            ssize_t n = read(fds[i].fd, chunk, sizeof chunk);
            if (n <= 0) {
                close(fds[i].fd);
                fds[i].fd = -1;
                open_fds--;
                continue;
            }
            buffer_add(i ? &e : &o, chunk, (size_t)n);
            if (q->progress)
                q->progress(q->progress_ctx, o.lines, e.lines);
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i].fd >= 0)
            close(fds[i].fd);
    int status = 0;
    waitpid(pid, &status, 0);
    f->timed_out = timed_out;
    td_fleet_read(f, "srun", o.s ? o.s : "", o.len);
    read_errors(f, e.s ? e.s : (char[]){""}, timed_out, status);
    free(o.s);
    free(e.s);
    return f->reports_read == 0 && f->n_nodes == 0 ? -1 : 0;
}
