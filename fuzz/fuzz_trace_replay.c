/* libFuzzer target for the live replay's answer (trace/replay.h): the
 * lines a child that loaded torch's DLLs wrote, parsed, then turned into
 * findings without a static model. */
#include <stddef.h>
#include <stdint.h>

#include "trace/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {0};
    struct td_replay r = {.ran = true};
    struct td_findings f = {0};
    td_replay_parse((const char *)data, size, &arena, &r);
    td_replay_findings(&r, NULL, "python.exe", &f);
    td_findings_free(&f);
    td_arena_free(&arena);
    return 0;
}
