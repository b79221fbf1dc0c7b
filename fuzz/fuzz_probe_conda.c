/* libFuzzer target for the conda-meta record reader (check's integrity of
 * a conda environment): any bytes as conda-meta/NAME.json; every row read
 * must have a path, and the channel name must be derivable or NULL. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "probe/install/conda_meta.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 64 << 20};
    struct td_conda_record r;
    struct td_err err = {0};
    if (td_conda_record_read((const char *)data, size, &r, &arena, &err) == 0) {
        for (size_t i = 0; i < r.n_paths; i++)
            if (!r.paths[i].path || !*r.paths[i].path)
                abort();
        const char *channel = td_conda_channel_name(&r, &arena);
        if (channel && strlen(channel) > size)
            abort();
    }
    td_arena_free(&arena);
    return 0;
}
