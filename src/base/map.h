/* Read-only file mapping (map_posix.c, map_windows.c). Files are mapped, never read whole, so that
 * only the pages a reader touches are brought in (a 120 MB libtorch_cpu.so costs only its dynamic
 * section and symbol tables). Never mapped executable. */
#ifndef TD_BASE_MAP_H
#define TD_BASE_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct td_map {
    const uint8_t *data;
    size_t size;
    int mapped;  /* 1 when data came from mmap, 0 when from malloc (empty or special files) */
    size_t lead; /* mapped bytes before DATA: a range mapped from its page boundary */
    int guard;   /* POSIX: 1 + the slot watching this mapping for a shrinking file; 0: none */
};

/* Opens PATH to read it as a file, read-only: never blocks (opening a FIFO
 * waits for a writer; here it is refused at once) and refuses what is not a
 * regular file, saying what it is ("PATH: is a FIFO, not a regular file").
 * Returns the descriptor, or -1 with ERR (which may be NULL) and errno:
 * open's, or EINVAL for a file that is not regular. */
int td_open_file(const char *path, struct td_err *err);

/* Maps PATH read-only. On failure returns -1 and describes why in ERR. */
int td_map_open(const char *path, struct td_map *m, struct td_err *err);
void td_map_close(struct td_map *m);

/* True when the file shrank while M was mapped and a read fell past its new
 * end. Such a read would raise SIGBUS and kill the process; instead it
 * reads zeros, and whoever parsed M must refuse what it read ("changed
 * while it was read"). Always false on Windows, where the system refuses
 * to shrink a mapped file. */
bool td_map_shrank(const struct td_map *m);

#ifndef _WIN32
/* Maps SIZE bytes (the caller's fstat) of FD, a regular file the caller
 * opened and still owns, so that a file already opened to check it is not
 * opened again (POSIX builds; PATH is for messages). 0, or -1 with ERR. */
int td_map_fd(int fd, uint64_t size, const char *path, struct td_map *m, struct td_err *err);
#endif

/* Gives back the pages of [OFF, OFF + LEN) of M that a reader is done with
 * (POSIX: madvise MADV_DONTNEED; the file's bytes stay in the page cache
 * and fault back in if touched again), so that streaming a mapped file
 * of any size keeps the resident set bounded. No effect on Windows, where
 * a view's pages leave the working set under pressure on their own. */
void td_map_release(const struct td_map *m, uint64_t off, uint64_t len);

/* Zeroed writable memory of SIZE bytes straight from the system (pages,
 * returned whole by td_map_scratch_free): room to inflate a zip member.
 * NULL when the system refuses. */
void *td_map_scratch(size_t size);
void td_map_scratch_free(void *p, size_t size);

/* The identity of the file at PATH, the same however it is named: st_dev
 * and st_ino on POSIX, the volume serial number and file index on Windows.
 * Returns false (and zeroes) when PATH cannot be examined. */
bool td_file_identity(const char *path, uint64_t *dev, uint64_t *ino);

#endif
