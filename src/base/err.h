/* Errors as values: a parse or I/O failure is described in a struct the
 * caller owns, never in a global and never by exiting. */
#ifndef TD_BASE_ERR_H
#define TD_BASE_ERR_H

#include <stdbool.h>

/* printf-style format checking. On Windows the C99 printf of mingw-w64
 * (__USE_MINGW_ANSI_STDIO, on with _GNU_SOURCE) is used, which plain
 * "printf" would check as msvcrt's (no %zu, %llu). */
#ifdef __MINGW32__
#define TD_PRINTF(fmt, first) __attribute__((format(gnu_printf, fmt, first)))
#else
#define TD_PRINTF(fmt, first) __attribute__((format(printf, fmt, first)))
#endif

struct td_err {
    bool set;
    char msg[512];
};

/* Records the first error only: later calls keep the original message,
 * because the first defect is the one that explains the others. */
void td_err_set(struct td_err *err, const char *fmt, ...) TD_PRINTF(2, 3);

/* Prefixes the message with a context ("libfoo.so: "), as callers add the
 * file name that the pure format readers never see. */
void td_err_prefix(struct td_err *err, const char *fmt, ...) TD_PRINTF(2, 3);

void td_err_clear(struct td_err *err);

#endif
