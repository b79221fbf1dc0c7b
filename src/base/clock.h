/* The one monotonic clock every timeout and measurement reads: seconds since
 * an unspecified start, never stepped by a change of the wall clock. */
#ifndef TD_BASE_CLOCK_H
#define TD_BASE_CLOCK_H

#include <time.h>

static inline double td_monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#endif
