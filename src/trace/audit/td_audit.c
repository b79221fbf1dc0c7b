/* The LD_AUDIT module of `torchdoctor trace` (rtld-audit(7)): ld.so calls
 * it at every search step, load and unload of the traced program, and it
 * writes one line per event to the descriptor named by TD_AUDIT_FD. It runs
 * inside the traced process, before and during its own loading, so it uses
 * only the stack and write(2): no malloc, no stdio, no locks.
 *
 * Line format (fields separated by one space, the path last so it may
 * hold spaces; every line is shorter than PIPE_BUF so writes from several
 * processes sharing the pipe never interleave):
 *   V pid t_ns version                      la_version (a new program image)
 *   E pid t_ns NAME=value                   the loader's environment it started with
 *   S pid t_ns requester_cookie flag name   la_objsearch (flag: LA_SER_*)
 *   O pid t_ns cookie lmid path             la_objopen ("" path: the program)
 *   C pid t_ns cookie                       la_objclose
 *   A pid t_ns flag                         la_activity (LA_ACT_*)
 *   P pid t_ns                              la_preinit (everything mapped, main next)
 * t_ns is CLOCK_MONOTONIC in nanoseconds; the runner subtracts its own
 * start. Numbers are hexadecimal, to keep the formatting trivial. */
#define _GNU_SOURCE /* Lmid_t, LAV_CURRENT (link.h) */
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int out_fd = -1;

struct line {
    char buf[PIPE_BUF];
    size_t len;
};

static void put_char(struct line *l, char c)
{
    if (l->len < sizeof l->buf - 1)
        l->buf[l->len++] = c;
}

static void put_hex(struct line *l, uint64_t v)
{
    char tmp[16];
    int n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    put_char(l, ' ');
    while (n)
        put_char(l, tmp[--n]);
}

/* A path, with newlines (which would end the line) written as '?'. */
static void put_text(struct line *l, const char *s)
{
    put_char(l, ' ');
    for (; s && *s; s++)
        put_char(l, *s == '\n' ? '?' : *s);
}

static void begin(struct line *l, char kind)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    l->len = 0;
    put_char(l, kind);
    put_hex(l, (uint64_t)getpid());
    put_hex(l, (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

static void finish(struct line *l)
{
    if (out_fd < 0)
        return;
    l->buf[l->len++] = '\n'; /* put_char always leaves room for it */
    size_t done = 0;
    while (done < l->len) {
        ssize_t n = write(out_fd, l->buf + done, l->len - done);
        if (n <= 0)
            return; /* the runner went away: stay silent, never disturb the program */
        done += (size_t)n;
    }
}

unsigned int la_version(unsigned int version)
{
    const char *fd = getenv("TD_AUDIT_FD");
    if (fd && *fd) {
        int v = 0;
        for (; *fd >= '0' && *fd <= '9' && v < 1000000; fd++)
            v = v * 10 + (*fd - '0');
        out_fd = v;
    }
    struct line l;
    begin(&l, 'V');
    put_hex(&l, version);
    finish(&l);
    /* What ld.so read at start; a launcher (env, a shell script) may have
     * changed it from what torchdoctor itself sees. */
    static const char *const names[] = {"LD_LIBRARY_PATH", "LD_PRELOAD"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *value = getenv(names[i]);
        if (!value)
            continue;
        begin(&l, 'E');
        put_text(&l, names[i]);
        put_char(&l, '=');
        for (; *value; value++)
            put_char(&l, *value == '\n' ? '?' : *value);
        finish(&l);
    }
    /* rtld-audit(7): return a version no newer than the one ld.so offers. */
    return version < LAV_CURRENT ? version : LAV_CURRENT;
}

char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag)
{
    struct line l;
    begin(&l, 'S');
    put_hex(&l, cookie ? *cookie : 0);
    put_hex(&l, flag);
    put_text(&l, name);
    finish(&l);
    return (char *)name;
}

unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
    struct line l;
    begin(&l, 'O');
    put_hex(&l, *cookie);
    put_hex(&l, (uint64_t)lmid);
    if (map->l_name && map->l_name[0]) {
        put_text(&l, map->l_name);
    } else {
        /* The program itself has an empty l_name: name it by its file. */
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        put_text(&l, exe);
    }
    finish(&l);
    return 0; /* no LA_FLG_BINDTO/BINDFROM: symbol binding is not audited (it is slow) */
}

unsigned int la_objclose(uintptr_t *cookie)
{
    struct line l;
    begin(&l, 'C');
    put_hex(&l, *cookie);
    finish(&l);
    return 0;
}

void la_activity(uintptr_t *cookie, unsigned int flag)
{
    (void)cookie;
    struct line l;
    begin(&l, 'A');
    put_hex(&l, flag);
    finish(&l);
}

void la_preinit(uintptr_t *cookie)
{
    (void)cookie;
    struct line l;
    begin(&l, 'P');
    finish(&l);
}
