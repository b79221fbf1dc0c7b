/* Threads on Linux: the descriptor table grown up front, and a thread's
 * nice value, set through its tid (Linux keeps one per thread; POSIX
 * would have it per process, so other systems leave it alone). */
#include "base/thread.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

enum { BACKGROUND_NICE = 10, DESCRIPTORS = 1024 };

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

bool td_thread_set_background(long id, bool background)
{
    return setpriority(PRIO_PROCESS, (id_t)id, background ? BACKGROUND_NICE : 0) == 0;
}
#else
long td_thread_current_id(void)
{
    return 0;
}

bool td_thread_set_background(long id, bool background)
{
    (void)id;
    (void)background;
    return false;
}
#endif
