/* Errors as values: a parse or I/O failure is described in a struct the
 * caller owns, never in a global and never by exiting. */
#ifndef TD_BASE_ERR_H
#define TD_BASE_ERR_H

#include <stdbool.h>

struct td_err {
    bool set;
    char msg[512];
};

/* Records the first error only: later calls keep the original message,
 * because the first defect is the one that explains the others. */
void td_err_set(struct td_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefixes the message with a context ("libfoo.so: "), as callers add the
 * file name that the pure format readers never see. */
void td_err_prefix(struct td_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void td_err_clear(struct td_err *err);

#endif
