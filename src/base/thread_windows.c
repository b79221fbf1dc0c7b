/* Thread priorities on Windows: below normal, and back; a process may
 * set its own threads' priorities either way. */
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

bool td_thread_set_background(long id, bool background)
{
    HANDLE h = OpenThread(THREAD_SET_LIMITED_INFORMATION, FALSE, (DWORD)id);
    if (!h)
        return false;
    BOOL ok =
        SetThreadPriority(h, background ? THREAD_PRIORITY_BELOW_NORMAL : THREAD_PRIORITY_NORMAL);
    CloseHandle(h);
    return ok != 0;
}
