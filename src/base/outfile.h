/* Files the user names for output. A report (-o) is written to a
 * temporary file beside its target and renamed over it only once all of it
 * is written, so a full disk or a kill leaves the old file (or none), never
 * half a report; a target that exists and is not a regular file
 * (/dev/full, a FIFO, /dev/stdout) is written in place, as it cannot be
 * replaced. A log (snapshot --log) is appended to under an exclusive lock,
 * one entry per write. */
#ifndef TD_BASE_OUTFILE_H
#define TD_BASE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"

struct td_outfile {
    FILE *f;         /* write the report here */
    char path[4096]; /* the target */
    char tmp[4200];  /* the temporary file beside it; "" when written in place */
};

/* Opens O for writing PATH. Returns O->f, or NULL with ERR. */
FILE *td_outfile_open(struct td_outfile *o, const char *path, struct td_err *err);

/* Flushes, closes and renames into place; on any failure the temporary file
 * is removed and ERR says why ("PATH: cannot write: No space left on
 * device"). */
bool td_outfile_commit(struct td_outfile *o, struct td_err *err);

/* Closes and removes what was written (an error elsewhere). */
void td_outfile_abort(struct td_outfile *o);

/* Opens PATH for appending (creating it) and locks it exclusively against
 * every other td_log_open of it, calling WAITING(PATH) first when another
 * holds the lock. Returns a descriptor, or -1 with ERR. */
int td_log_open(const char *path, void (*waiting)(const char *path), struct td_err *err);

/* The whole of the locked log FD (malloc'd, NUL-terminated), or NULL with
 * ERR. */
char *td_log_read(int fd, const char *path, size_t max, size_t *len, struct td_err *err);

/* Appends ENTRY (LEN bytes, one line; a newline is added when missing) in
 * one write, after a newline that ends an entry a killed writer left
 * cut short, then syncs. False with ERR. */
bool td_log_append(int fd, const char *path, const char *entry, size_t len, struct td_err *err);

/* Unlocks and closes. */
void td_log_close(int fd);

#endif
