/* base/thread.h: the descriptor table grown before any thread exists
 * (the kernel's own count, FDSize in /proc/self/status), and a thread's
 * priority lowered by itself and raised by another, in either order, both
 * relative to the priority the test started with (a suite run under
 * `nice -n 19` must see no thread raised above it). */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/thread.h"

static long status_field(const char *name)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long v = -1;
    size_t n = strlen(name);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, name, n) == 0 && line[n] == ':')
            v = atol(line + n + 1);
    if (f)
        fclose(f);
    return v;
}

static void descriptor_table_grown(void **state)
{
    (void)state;
    struct rlimit lim;
    assert_int_equal(getrlimit(RLIMIT_NOFILE, &lim), 0);
    long before = status_field("FDSize");
    td_threads_prepare();
    long after = status_field("FDSize");
    long want = lim.rlim_cur < 1024 ? (long)lim.rlim_cur : 1024;
    printf("FDSize %ld -> %ld (limit %llu)\n", before, after, (unsigned long long)lim.rlim_cur);
    assert_true(before < 1024); /* a fresh process starts smaller, or this shows nothing */
    assert_true(after >= want);
    /* Nothing is left open: the next descriptor is the lowest free one. */
    int fd = dup(0);
    assert_true(fd >= 0 && fd < 16);
    close(fd);
}

struct worker {
    struct td_thread_claim claim;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stage; /* 1: lowered itself, 2: may finish */
    long id;
    int nice_lowered;
};

static void *worker_run(void *arg)
{
    struct worker *w = arg;
    td_thread_claim_lower(&w->claim);
    pthread_mutex_lock(&w->lock);
    w->id = td_thread_current_id();
    w->nice_lowered = getpriority(PRIO_PROCESS, (id_t)w->id);
    w->stage = 1;
    pthread_cond_broadcast(&w->cond);
    while (w->stage < 2)
        pthread_cond_wait(&w->cond, &w->lock);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void lowered_then_restored(void **state)
{
    (void)state;
    struct worker w = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker_run, &w), 0);
    pthread_mutex_lock(&w.lock);
    while (w.stage < 1)
        pthread_cond_wait(&w.cond, &w.lock);
    int base = getpriority(PRIO_PROCESS, 0);
    assert_int_equal(w.nice_lowered, base + 10 < 19 ? base + 10 : 19);
    assert_int_equal(w.claim.base, base);
    td_thread_claim_restore(&w.claim);
    assert_int_equal(getpriority(PRIO_PROCESS, 0), base); /* this thread keeps its own */
    int now = getpriority(PRIO_PROCESS, (id_t)w.id);
    if (geteuid() == 0 || w.nice_lowered == base)
        assert_int_equal(now, base);
    else /* raising a nice value back is a privilege (RLIMIT_NICE) */
        printf("skipped: restoring the priority needs CAP_SYS_NICE (nice stays %d)\n", now);
    w.stage = 2;
    pthread_cond_broadcast(&w.cond);
    pthread_mutex_unlock(&w.lock);
    pthread_join(t, NULL);
}

static void restored_before_lowered(void **state)
{
    (void)state;
    struct worker w = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
    td_thread_claim_restore(&w.claim); /* asked before the thread ran */
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, worker_run, &w), 0);
    pthread_mutex_lock(&w.lock);
    while (w.stage < 1)
        pthread_cond_wait(&w.cond, &w.lock);
    assert_int_equal(w.nice_lowered, getpriority(PRIO_PROCESS, 0)); /* it never lowered itself */
    w.stage = 2;
    pthread_cond_broadcast(&w.cond);
    pthread_mutex_unlock(&w.lock);
    pthread_join(t, NULL);
}

/* Started at nice 19 (as under `nice -n 19`), a lowered thread stays at
 * 19 and its restore does not raise it to 0. Run in a child so the test's
 * own priority is left alone. */
static void never_above_the_start(void **state)
{
    (void)state;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setpriority(PRIO_PROCESS, 0, 19) != 0)
            _exit(3);
        struct worker w = {.lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER};
        pthread_t t;
        if (pthread_create(&t, NULL, worker_run, &w) != 0)
            _exit(3);
        pthread_mutex_lock(&w.lock);
        while (w.stage < 1)
            pthread_cond_wait(&w.cond, &w.lock);
        int lowered = w.nice_lowered;
        td_thread_claim_restore(&w.claim);
        int after = getpriority(PRIO_PROCESS, (id_t)w.id);
        w.stage = 2;
        pthread_cond_broadcast(&w.cond);
        pthread_mutex_unlock(&w.lock);
        pthread_join(t, NULL);
        _exit(lowered == 19 && after == 19 ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(descriptor_table_grown),
        cmocka_unit_test(lowered_then_restored),
        cmocka_unit_test(restored_before_lowered),
        cmocka_unit_test(never_above_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
