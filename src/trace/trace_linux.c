/* The Linux tracer: runs a command with the embedded LD_AUDIT module,
 * collects its event lines from a pipe and the command's stderr from
 * another, and turns both into a struct td_trace. The module's line format
 * is described in trace/audit/td_audit.c; ld.so's error lines are matched
 * with data/ldso_errors.tsv. */
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

#include "base/data.h"
#include "base/embed.h"
#include "trace/trace.h"

extern char **environ;
extern const unsigned char td_embed_audit[];
extern const size_t td_embed_audit_size;

enum { STDERR_TAIL = 4096, LINE_MAX_LEN = 8192 };

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- audit lines ---- */

/* The next blank-separated hexadecimal field of *P. */
static bool hex_field(const char **p, uint64_t *out)
{
    const char *s = *p;
    if (*s != ' ')
        return false;
    s++;
    uint64_t v = 0;
    int digits = 0;
    for (; digits < 16; s++, digits++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0)
            break;
        v = v << 4 | (uint64_t)d;
    }
    if (digits == 0)
        return false;
    *p = s;
    *out = v;
    return true;
}

/* One audit line (without its newline) of process PID; T0 is the start. */
static void parse_line(struct td_trace *t, const char *s, size_t len, long pid, uint64_t t0)
{
    char line[LINE_MAX_LEN];
    if (len == 0 || len >= sizeof line)
        return;
    memcpy(line, s, len);
    line[len] = '\0';
    const char *p = line + 1;
    uint64_t lpid, ts, a = 0, b = 0;
    if (!hex_field(&p, &lpid) || !hex_field(&p, &ts))
        return;
    if ((long)lpid != pid) {
        if (line[0] == 'V')
            t->other_processes++;
        return;
    }
    ts = ts > t0 ? ts - t0 : 0;
    const char *rest = *p == ' ' ? p + 1 : p;
    switch (line[0]) {
    case 'V':
        /* A new program image in this process (exec): what came before
         * was the launcher (env, a shell), not the program. */
        t->n_events = 0;
        t->ld_library_path = t->ld_preload = NULL;
        break;
    case 'E':
        if (strncmp(rest, "LD_LIBRARY_PATH=", 16) == 0)
            t->ld_library_path = td_arena_strdup(&t->arena, rest + 16);
        else if (strncmp(rest, "LD_PRELOAD=", 11) == 0)
            t->ld_preload = td_arena_strdup(&t->arena, rest + 11);
        break;
    case 'S':
    case 'O': {
        if (!hex_field(&p, &a) || !hex_field(&p, &b) || *p != ' ')
            return;
        struct td_trace_event *e = td_trace_add_event(t);
        if (!e)
            return;
        e->kind = line[0] == 'S' ? TD_TEV_SEARCH : TD_TEV_OPEN;
        e->t_ns = ts;
        e->cookie = a;
        if (line[0] == 'S')
            e->flag = (unsigned)b;
        else
            e->lmid = (long)b;
        e->path = td_arena_strdup(&t->arena, p + 1);
        break;
    }
    case 'C':
    case 'A': {
        if (!hex_field(&p, &a))
            return;
        struct td_trace_event *e = td_trace_add_event(t);
        if (!e)
            return;
        e->kind = line[0] == 'C' ? TD_TEV_CLOSE : TD_TEV_ACTIVITY;
        e->t_ns = ts;
        if (line[0] == 'C')
            e->cookie = a;
        else
            e->flag = (unsigned)a;
        break;
    }
    case 'P': {
        struct td_trace_event *e = td_trace_add_event(t);
        if (e) {
            e->kind = TD_TEV_PREINIT;
            e->t_ns = ts;
        }
        break;
    }
    default:
        break;
    }
}

static void parse_events_from(struct td_trace *t, const char *text, size_t len, long pid,
                              uint64_t t0)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] != '\n')
            continue;
        parse_line(t, text + start, i - start, pid, t0);
        start = i + 1;
    }
}

void td_trace_parse_events(struct td_trace *t, const char *text, size_t len, long pid)
{
    parse_events_from(t, text, len, pid, 0);
}

/* ---- the runner ---- */

struct sink {
    char *buf;
    size_t len, cap;
};

static bool sink_put(struct sink *s, const char *data, size_t n)
{
    if (s->len + n + 1 > s->cap) {
        size_t cap = s->cap ? s->cap : 1 << 16;
        while (cap < s->len + n + 1)
            cap *= 2;
        char *grown = realloc(s->buf, cap);
        if (!grown)
            return false;
        s->buf = grown;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, data, n);
    s->len += n;
    s->buf[s->len] = '\0';
    return true;
}

/* The child's environment: ours, with the audit module first in LD_AUDIT
 * and TD_AUDIT_FD naming the event pipe. */
static char **child_env(struct td_arena *a, const char *audit, int fd)
{
    size_t n = 0;
    while (environ[n])
        n++;
    char **env = td_arena_array(a, n + 3, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    const char *old_audit = NULL;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(environ[i], "LD_AUDIT=", 9) == 0)
            old_audit = environ[i] + 9;
        else if (strncmp(environ[i], "TD_AUDIT_FD=", 12) != 0)
            env[k++] = environ[i];
    }
    size_t cap = strlen(audit) + (old_audit ? strlen(old_audit) : 0) + 16;
    char *la = td_arena_alloc(a, cap), *fdv = td_arena_alloc(a, 32);
    if (!la || !fdv)
        return NULL;
    snprintf(la, cap, "LD_AUDIT=%s%s%s", audit, old_audit && *old_audit ? ":" : "",
             old_audit ? old_audit : "");
    snprintf(fdv, 32, "TD_AUDIT_FD=%d", fd);
    env[k++] = la;
    env[k++] = fdv;
    env[k] = NULL;
    return env;
}

/* Reads the child's stderr: keeps its tail and the last error line. */
struct errstate {
    struct td_trace *t;
    char line[LINE_MAX_LEN];
    size_t line_len;
    char tail[STDERR_TAIL];
    size_t tail_len;
    bool echo;
};

static void err_line_done(struct errstate *es)
{
    es->line[es->line_len] = '\0';
    if (es->line_len)
        td_trace_parse_error(es->t, es->line);
    es->line_len = 0;
}

static void err_bytes(struct errstate *es, const char *buf, size_t n)
{
    if (es->echo)
        (void)!write(STDERR_FILENO, buf, n);
    for (size_t i = 0; i < n; i++) {
        if (es->tail_len == sizeof es->tail) {
            memmove(es->tail, es->tail + sizeof es->tail / 2, sizeof es->tail / 2);
            es->tail_len = sizeof es->tail / 2;
        }
        es->tail[es->tail_len++] = buf[i];
        if (buf[i] == '\n')
            err_line_done(es);
        else if (es->line_len + 1 < sizeof es->line)
            es->line[es->line_len++] = buf[i];
    }
}

/* The child: stdout goes to our stderr (our stdout is the report), stderr
 * to the pipe; exec failures are written to EXEC_ERR (close-on-exec). */
static void child(const char *const *argv, char **env, int err_w, int exec_err)
{
    dup2(STDERR_FILENO, STDOUT_FILENO);
    dup2(err_w, STDERR_FILENO);
    close(err_w);
    environ = env;
    execvp(argv[0], (char *const *)argv);
    int e = errno;
    (void)!write(exec_err, &e, sizeof e);
    _exit(127);
}

/* TIME_UP: the test's event happened (with a test's TIME_UP, the clock is
 * not read). */
static int wait_child(pid_t pid, const struct td_trace_options *opts, uint64_t t0, bool time_up,
                      int *status, bool *timed_out)
{
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid)
        return 1;
    bool late = opts->time_up.said
                    ? time_up
                    : opts->timeout_ms > 0 && now_ns() - t0 > (uint64_t)opts->timeout_ms * 1000000u;
    if (late) {
        kill(pid, SIGKILL);
        *timed_out = true;
        waitpid(pid, status, 0);
        return 1;
    }
    return 0;
}

int td_trace_run(const char *const *argv, const struct td_trace_options *opts, struct td_trace *out,
                 struct td_err *err)
{
    memset(out, 0, sizeof *out);
    out->argv = argv;
    out->exit_status = -1;
    int rc = -1, audit_fd = -1, ev[2] = {-1, -1}, er[2] = {-1, -1}, ex[2] = {-1, -1};
    struct sink events = {0};
    struct errstate *es = calloc(1, sizeof *es);
    char audit[64];
    const char *audit_path = opts->audit_path;
    if (!es) {
        td_err_set(err, "out of memory");
        goto done;
    }
    es->t = out;
    es->echo = opts->echo_stderr;
    if (!audit_path) {
        /* glibc 2.36 takes LD_AUDIT=/proc/self/fd/N (checked by
         * tests/trace/trace.test.sh): the module never touches the disk. */
        audit_fd = td_embed_fd("td_audit", td_embed_audit, td_embed_audit_size, true, err);
        if (audit_fd < 0)
            goto done;
        audit_path = td_embed_fd_path(audit_fd, audit, sizeof audit);
    }
    if (pipe(ev) != 0 || pipe2(er, O_CLOEXEC) != 0 || pipe2(ex, O_CLOEXEC) != 0) {
        td_err_set(err, "cannot create a pipe: %s", strerror(errno));
        goto done;
    }
    /* Only the write end of the event pipe is inherited, by the child and
     * anything it starts; our read ends stay private. */
    fcntl(ev[0], F_SETFD, FD_CLOEXEC);
    char **env = child_env(&out->arena, audit_path, ev[1]);
    if (!env) {
        td_err_set(err, "out of memory");
        goto done;
    }
    fflush(NULL);
    uint64_t t0 = now_ns();
    pid_t pid = fork();
    if (pid < 0) {
        td_err_set(err, "cannot start %s: %s", argv[0], strerror(errno));
        goto done;
    }
    if (pid == 0)
        child(argv, env, er[1], ex[1]);
    close(ev[1]), close(er[1]), close(ex[1]);
    ev[1] = er[1] = ex[1] = -1;
    int exec_errno = 0;
    if (read(ex[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        waitpid(pid, NULL, 0);
        td_err_set(err, "cannot run %s: %s", argv[0], strerror(exec_errno));
        goto done;
    }

    /* Read both pipes until the child is gone and they are drained. The
     * command's own children may hold the pipes open after it exits, so
     * the child's exit, not end-of-file, ends the run. */
    int status = 0;
    bool exited = false, time_up = false;
    uint64_t exit_seen = 0;
    struct pollfd pf[2] = {{ev[0], POLLIN, 0}, {er[0], POLLIN, 0}};
    char buf[1 << 16];
    for (;;) {
        int open_fds = (pf[0].fd >= 0) + (pf[1].fd >= 0);
        if (open_fds == 0 && exited)
            break;
        int n = open_fds ? poll(pf, 2, exited ? 0 : 50) : 0;
        if (n < 0 && errno != EINTR)
            break;
        bool got = false;
        for (int i = 0; n > 0 && i < 2; i++) {
            if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            ssize_t r = read(pf[i].fd, buf, sizeof buf);
            if (r <= 0) {
                close(pf[i].fd);
                pf[i].fd = -1;
                continue;
            }
            got = true;
            if (i == 0) {
                sink_put(&events, buf, (size_t)r);
                time_up |= opts->time_up.said &&
                           opts->time_up.said(opts->time_up.ctx, events.buf, events.len);
            } else
                err_bytes(es, buf, (size_t)r);
        }
        if (!exited && open_fds == 0) {
            waitpid(pid, &status, 0); /* both pipes closed: only the exit is left */
            exited = true;
        } else if (!exited) {
            exited = wait_child(pid, opts, t0, time_up, &status, &out->timed_out) == 1;
        } else if (!got || now_ns() - exit_seen > 1000000000u) {
            break; /* exited, and nothing more to read now (or a second of draining) */
        }
        if (exited && !exit_seen)
            exit_seen = now_ns();
    }
    out->duration_ns = (exit_seen ? exit_seen : now_ns()) - t0;
    if (WIFEXITED(status)) {
        out->exit_status = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        out->signal = WTERMSIG(status);
    }
    if (es->line_len)
        err_line_done(es);
    out->stderr_tail = td_arena_strndup(&out->arena, es->tail, es->tail_len);
    parse_events_from(out, events.buf ? events.buf : "", events.len, (long)pid, t0);
    td_trace_build_libraries(out);
    rc = 0;
done:
    for (int i = 0; i < 2; i++) {
        if (ev[i] >= 0)
            close(ev[i]);
        if (er[i] >= 0)
            close(er[i]);
        if (ex[i] >= 0)
            close(ex[i]);
    }
    if (audit_fd >= 0)
        close(audit_fd);
    free(events.buf);
    free(es);
    return rc;
}
