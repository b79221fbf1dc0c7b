/* Threads on Linux: the descriptor table grown up front, and a thread's
 * nice value, set through its tid (Linux keeps one per thread; POSIX
 * would have it per process, so other systems leave it alone). */
#include "base/thread.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

enum { BACKGROUND_STEP = 10, NICEST = 19, DESCRIPTORS = 1024 };

void td_threads_prepare(void)
{
    struct rlimit lim;
    rlim_t room = DESCRIPTORS;
    if (getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY && lim.rlim_cur < room)
        room = lim.rlim_cur;
    int fd = room > 3 ? open("/", O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    int high = fcntl(fd, F_DUPFD_CLOEXEC, (int)room - 1); /* the table grows to hold it */
    if (high >= 0)
        close(high);
    close(fd);
}

#ifdef __linux__
long td_thread_current_id(void)
{
    return (long)gettid();
}

int td_thread_priority(long id)
{
    errno = 0; /* -1 is a nice value too */
    int nice = getpriority(PRIO_PROCESS, (id_t)id);
    return errno ? 0 : nice;
}

int td_thread_priority_lowered(int base)
{
    return base + BACKGROUND_STEP < NICEST ? base + BACKGROUND_STEP : base > NICEST ? base : NICEST;
}

bool td_thread_priority_set(long id, int priority)
{
    return setpriority(PRIO_PROCESS, (id_t)id, priority) == 0;
}
#else
long td_thread_current_id(void)
{
    return 0;
}

int td_thread_priority(long id)
{
    (void)id;
    return 0;
}

int td_thread_priority_lowered(int base)
{
    return base; /* per-thread priorities are Linux's: nothing lowered */
}

bool td_thread_priority_set(long id, int priority)
{
    (void)id;
    (void)priority;
    return false;
}
#endif
