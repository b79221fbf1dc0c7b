/* libFuzzer target for the trace's parsers: audit lines (the event pipe is
 * inherited by everything the traced command starts) folded into
 * libraries, and each line as an ld.so / Python error line. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_trace t = {0};
    td_trace_parse_events(&t, (const char *)data, size, 0x10);
    td_trace_build_libraries(&t);
    const char *roots[8];
    td_trace_roots(&t, roots, 8);
    char line[1024];
    size_t n = size < sizeof line - 1 ? size : sizeof line - 1;
    memcpy(line, data, n);
    line[n] = '\0';
    td_trace_parse_error(&t, line);
    td_trace_analyze(&t, NULL);
    td_trace_free(&t);
    return 0;
}
