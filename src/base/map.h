/* Read-only file mapping. Files are mapped, never read whole, so that only
 * the pages a reader touches are brought in (a 120 MB libtorch_cpu.so costs
 * only its dynamic section and symbol tables). Never mapped executable. */
#ifndef TD_BASE_MAP_H
#define TD_BASE_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

struct td_map {
    const uint8_t *data;
    size_t size;
    int mapped; /* 1 when data came from mmap, 0 when from malloc (empty or special files) */
};

/* Maps PATH read-only. On failure returns -1 and describes why in ERR. */
int td_map_open(const char *path, struct td_map *m, struct td_err *err);
void td_map_close(struct td_map *m);

#endif
