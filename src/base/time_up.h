/* When a child's time is up. A timeout is the clock's decision, except in
 * tests: there the test names the event that means "time is up now" (the
 * child said it reached a phase), so no test races the machine's speed. */
#ifndef TD_BASE_TIME_UP_H
#define TD_BASE_TIME_UP_H

#include <stdbool.h>
#include <stddef.h>

struct td_time_up {
    /* NULL: the clock decides. Else asked with all the child has said so
     * far, each time it says more; true kills it as a timeout would, and
     * the clock is never read. */
    bool (*said)(void *ctx, const char *said, size_t len);
    void *ctx;
};

#endif
