/* libFuzzer target for the pull JSON reader (base/json.h): any bytes
 * skipped as one value, then walked as nested containers with every
 * string unescaped; the reader must stay inside the input and end. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"

static void walk(struct td_json *j, struct td_arena *a, int depth)
{
    enum td_json_type t = td_json_peek(j);
    if ((t != TD_JSON_OBJECT && t != TD_JSON_ARRAY) || depth > 8) {
        struct td_json_str s;
        if (td_json_string(j, &s)) {
            char *u = td_json_strdup(a, &s);
            if (u && strlen(u) > s.len)
                abort();
        }
        return;
    }
    td_json_enter(j, t);
    struct td_json_str k;
    for (bool first = true; td_json_next(j, &first);) {
        if (t == TD_JSON_OBJECT && !td_json_key(j, &k))
            break;
        walk(j, a, depth + 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = 64 << 20};
    struct td_json j;
    td_json_init(&j, (const char *)data, size);
    td_json_skip(&j);
    if (j.p < j.start || j.p > j.end || (j.error && j.error_at > size))
        abort();
    td_json_init(&j, (const char *)data, size);
    walk(&j, &arena, 0);
    if (j.p < j.start || j.p > j.end)
        abort();
    td_arena_free(&arena);
    return 0;
}
