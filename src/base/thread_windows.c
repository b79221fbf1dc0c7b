/* Thread priorities on Windows: one step below the thread's own, and
 * back; a process may set its own threads' priorities either way. */
#include "base/thread.h"

#include <windows.h>

void td_threads_prepare(void)
{
    /* Nothing to do: the stall is Linux's (the C runtime's descriptors
     * are not the kernel's table). */
}

long td_thread_current_id(void)
{
    return (long)GetCurrentThreadId();
}

int td_thread_priority(long id)
{
    HANDLE h = OpenThread(THREAD_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)id);
    if (!h)
        return THREAD_PRIORITY_NORMAL;
    int p = GetThreadPriority(h);
    CloseHandle(h);
    return p == THREAD_PRIORITY_ERROR_RETURN ? THREAD_PRIORITY_NORMAL : p;
}

int td_thread_priority_lowered(int base)
{
    /* One step down, never into the idle class nor out of the range. */
    return base > THREAD_PRIORITY_LOWEST && base <= THREAD_PRIORITY_HIGHEST ? base - 1 : base;
}

bool td_thread_priority_set(long id, int priority)
{
    HANDLE h = OpenThread(THREAD_SET_LIMITED_INFORMATION, FALSE, (DWORD)id);
    if (!h)
        return false;
    BOOL ok = SetThreadPriority(h, priority);
    CloseHandle(h);
    return ok != 0;
}
