/* Helper programs carried inside the executable (CMake td_embed_program):
 * the GPU probe, run in a child so a broken driver cannot take the doctor
 * down, and the LD_AUDIT module of `trace`. They are written out at run
 * time to an anonymous in-memory file, so nothing is left on disk and the
 * program stays one file. */
#ifndef TD_BASE_EMBED_H
#define TD_BASE_EMBED_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

/* Writes BYTES to a new anonymous file named NAME (memfd) and returns its
 * descriptor, or -1 with ERR. INHERIT: the descriptor stays open across
 * exec, so a child can name it as /proc/self/fd/N (LD_AUDIT needs a path);
 * otherwise it is close-on-exec (fexecve of an ELF program works with
 * that). */
int td_embed_fd(const char *name, const unsigned char *bytes, size_t size, bool inherit,
                struct td_err *err);

/* "/proc/self/fd/N" for FD, written to OUT. */
const char *td_embed_fd_path(int fd, char *out, size_t cap);

#endif
