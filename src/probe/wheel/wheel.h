/* Reading a wheel for `torchdoctor wheel` without extracting it: every
 * member streamed once through the zip reader (hashed against RECORD,
 * counted by kind), and every native member's headers, needs, symbol
 * versions, Python symbols, debug sections and fat binaries read from
 * memory: stored members in place (their pages given back as the stream
 * passes), deflated ones inflated whole when small, else only the ranges
 * the ELF reader asks for (docs/wheel.md "Memory"). */
#ifndef TD_PROBE_WHEEL_H
#define TD_PROBE_WHEEL_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"
#include "format/fatbin.h"
#include "kb/wheel.h"

/* Largest deflated native member inflated whole; larger ones are read in
 * ranges (ELF) or only their headers (PE, Mach-O). */
enum { TD_WHEEL_WHOLE_MAX = 128 << 20 };
/* Largest range fetched for a member read in ranges. */
enum { TD_WHEEL_RANGE_MAX = 48 << 20 };

/* Fills W from the wheel at PATH. 0, or -1 with ERR when the file is not a
 * readable zip at all (a bad member is a problem in W, not a failure). */
int td_wheel_read(const char *path, struct td_wheel_facts *w, struct td_err *err);

void td_wheel_facts_free(struct td_wheel_facts *w);

/* The wheels named by OPERANDS: a file as given, a directory as its *.whl
 * files (sorted). -1 with ERR when a directory cannot be listed or holds
 * none. */
struct td_wheel_paths {
    char **v;
    size_t n, cap;
};
int td_wheel_paths(const char *const *operands, size_t n, struct td_wheel_paths *out,
                   struct td_err *err);
void td_wheel_paths_free(struct td_wheel_paths *p);

/* Internal to src/probe/wheel: the facts of one native member from its
 * bytes (BUF: the whole member, or a sparse buffer of some of its ranges).
 * Returns 0; -1 with ERR when it is not a binary this reader parses. A
 * sparse buffer that missed leaves buf.sparse->missed set: read that range
 * and call again. */
struct td_buf;
int td_wheel_binary_read(struct td_wheel_binary *b, const struct td_buf *buf,
                         struct td_arena *arena, struct td_err *err);

/* Internal: the containers of B's fat binary region REGION (B->regions),
 * its bytes read through READ (offsets from the region's start, forward). */
int td_wheel_binary_fatbin(struct td_wheel_binary *b, td_fatbin_read_fn read, void *src,
                           size_t region, struct td_arena *arena, struct td_err *err);

#endif
