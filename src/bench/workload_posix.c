/* bench --workload's child on POSIX: the interpreter runs the step
 * program with its stdout and stderr on pipes; each whole stdout line is
 * handed over as it arrives (the parent's progress and parsing are driven
 * by what the child says, never by sleeping), a child silent for too long
 * is killed, and wait4 gives its peak RSS. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "bench/bench.h"

extern char **environ;

static long long now_ms(void)
{
    return (long long)(td_monotonic_s() * 1000.0);
}

/* The end of the child's stderr, kept in OUT->err_tail. */
static void keep_tail(struct td_line_child *out, const char *buf, size_t n)
{
    size_t cap = sizeof out->err_tail - 1, used = strlen(out->err_tail);
    if (n >= cap) {
        memcpy(out->err_tail, buf + n - cap, cap);
        out->err_tail[cap] = '\0';
        return;
    }
    if (used + n > cap) {
        memmove(out->err_tail, out->err_tail + (used + n - cap), cap - n);
        used = cap - n;
    }
    memcpy(out->err_tail + used, buf, n);
    out->err_tail[used + n] = '\0';
}

static void reap(pid_t pid, bool kill_it, struct td_line_child *out)
{
    int st = 0;
    struct rusage ru;
    if (kill_it)
        kill(pid, SIGKILL);
    while (wait4(pid, &st, 0, &ru) < 0)
        if (errno != EINTR)
            return;
    out->exited = true;
    out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (WIFSIGNALED(st)) {
        const char *name = sigabbrev_np(WTERMSIG(st));
        if (name)
            snprintf(out->signal, sizeof out->signal, "%s", name);
        else
            snprintf(out->signal, sizeof out->signal, "%d", WTERMSIG(st));
    }
    out->peak_rss = (double)ru.ru_maxrss * 1024.0; /* kilobytes on Linux */
}

void td_line_child_run(const char *const *argv, int stall_ms, struct td_time_up time_up,
                       bool (*line)(void *ctx, const char *line, size_t len), void *ctx,
                       struct td_line_child *out)
{
    int o[2] = {-1, -1}, e[2] = {-1, -1}, x[2] = {-1, -1};
    char *said = NULL; /* all of stdout, for TIME_UP */
    size_t said_len = 0, said_cap = 0, start = 0;
    memset(out, 0, sizeof *out);
    if (pipe2(o, O_CLOEXEC) != 0 || pipe2(e, O_CLOEXEC) != 0 || pipe2(x, O_CLOEXEC) != 0) {
        snprintf(out->why, sizeof out->why, "cannot create a pipe: %s", strerror(errno));
        goto done;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(out->why, sizeof out->why, "cannot start a child process: %s", strerror(errno));
        goto done;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0 || dup2(o[1], 1) < 0 || dup2(e[1], 2) < 0)
            _exit(126);
        execve(argv[0], (char *const *)argv, environ);
        int err = errno;
        (void)!write(x[1], &err, sizeof err);
        _exit(127);
    }
    close(o[1]), close(e[1]), close(x[1]);
    o[1] = e[1] = x[1] = -1;
    int exec_errno = 0;
    if (read(x[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        reap(pid, false, out);
        snprintf(out->why, sizeof out->why, "cannot run %s: %s", argv[0], strerror(exec_errno));
        goto done;
    }
    out->started = true;
    struct pollfd pf[2] = {{o[0], POLLIN, 0}, {e[0], POLLIN, 0}};
    long long last = now_ms();
    bool stop = false;
    while (!stop && (pf[0].fd >= 0 || pf[1].fd >= 0)) {
        long long left = time_up.said ? -1 : last + stall_ms - now_ms();
        if (!time_up.said && left <= 0) {
            out->timed_out = true;
            break;
        }
        int r = poll(pf, 2, left < 0 ? -1 : (int)(left > 1000000 ? 1000000 : left));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        for (int i = 0; i < 2 && !stop; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[8192];
            ssize_t n = read(pf[i].fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                continue;
            }
            if (i == 1) {
                keep_tail(out, buf, (size_t)n);
                continue;
            }
            if (said_len + (size_t)n + 1 > said_cap) {
                size_t cap = (said_len + (size_t)n + 1) * 2;
                char *g = realloc(said, cap);
                if (!g) {
                    stop = true;
                    break;
                }
                said = g, said_cap = cap;
            }
            memcpy(said + said_len, buf, (size_t)n);
            said_len += (size_t)n;
            said[said_len] = '\0';
            last = now_ms();
            char *nl;
            while (!stop && (nl = memchr(said + start, '\n', said_len - start))) {
                *nl = '\0';
                stop = !line(ctx, said + start, (size_t)(nl - (said + start)));
                *nl = '\n';
                start = (size_t)(nl - said) + 1;
            }
            if (!stop && time_up.said && time_up.said(time_up.ctx, said, said_len)) {
                out->timed_out = true;
                stop = true;
            }
        }
    }
    /* Killed when it overstayed or was stopped; else it closed its pipes. */
    reap(pid, out->timed_out || stop, out);
done:
    for (int i = 0; i < 2; i++) {
        if (o[i] >= 0)
            close(o[i]);
        if (e[i] >= 0)
            close(e[i]);
        if (x[i] >= 0)
            close(x[i]);
    }
    free(said);
}
