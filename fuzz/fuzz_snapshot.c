/* libFuzzer target for the snapshot reader (diff, log): any bytes as a
 * snapshot's JSON, then the document diffed against itself (nothing may
 * change) and against an empty snapshot. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "snapshot/snapshot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 64 << 20};
    struct td_snap_doc doc = {0}, empty = {0};
    struct td_err err = {0};
    if (td_snapshot_read((const char *)data, size, &doc, &arena, &err) == 0) {
        struct td_diff same = {0}, grown = {0};
        td_snapshot_diff(&doc, &doc, &same, &arena);
        if (same.n_changes != 0 || same.findings.count != 0)
            abort();
        td_snapshot_diff(&empty, &doc, &grown, &arena);
        td_diff_free(&same);
        td_diff_free(&grown);
    }
    td_snap_doc_free(&doc);
    td_arena_free(&arena);
    return 0;
}
