/* Error values: set once, prefixed with context on the way up. */
#include "base/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void td_err_set(struct td_err *err, const char *fmt, ...)
{
    if (!err || err->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    err->set = true;
}

void td_err_prefix(struct td_err *err, const char *fmt, ...)
{
    if (!err || !err->set)
        return;
    char prefix[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    /* Shift the message right and copy the prefix in front, truncating the tail. */
    size_t plen = strlen(prefix), mlen = strlen(err->msg), cap = sizeof err->msg - 1;
    if (plen > cap)
        plen = cap;
    if (plen + mlen > cap)
        mlen = cap - plen;
    memmove(err->msg + plen, err->msg, mlen);
    memcpy(err->msg, prefix, plen);
    err->msg[plen + mlen] = '\0';
}

void td_err_clear(struct td_err *err)
{
    if (!err)
        return;
    err->set = false;
    err->msg[0] = '\0';
}
