/* libFuzzer target for bench --workload's child protocol (bench/bench.h
 * td_workload_read_line): any bytes, split into lines, read into a run of
 * two stages and three rounds until a line is refused; the rounds read
 * never exceed the rounds asked, every time read is a finite number, and
 * "done" is taken only after every round and the device, dtype and torch. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {0};
    struct td_bench_workload w;
    struct td_workload_options o = {0};
    double block[3], step[3], stage[6];
    memset(&w, 0, sizeof w);
    w.plan.n = 2;
    w.plan.stages[0].blocks = 19;
    w.plan.stages[1].blocks = 38;
    w.rounds_asked = 3;
    w.block_s = block, w.step_s = step, w.stage_s = stage;
    struct td_workload_reader r = {.w = &w, .o = &o, .arena = &arena};
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    for (char *line = text; line < text + size;) {
        char *nl = memchr(line, '\n', (size_t)(text + size - line));
        size_t len = nl ? (size_t)(nl - line) : (size_t)(text + size - line);
        line[len] = '\0';
        if (!td_workload_read_line(&r, line, len))
            break;
        line += len + 1;
    }
    if (w.rounds > w.rounds_asked || r.stages_said > 2)
        abort();
    /* "done" only after every round, which only come after what they ran on */
    if (r.done &&
        (w.rounds != w.rounds_asked || !w.device || !w.dtype || !w.torch_version || !w.attention))
        abort();
    for (int i = 0; i < w.rounds; i++)
        if (!isfinite(w.step_s[i]) || w.step_s[i] < 0)
            abort();
    free(text);
    td_arena_free(&arena);
    return 0;
}
