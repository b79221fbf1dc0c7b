/* libFuzzer target for the Windows tracer's parsers: loader-snaps lines
 * (OutputDebugString text of the traced process), [WinError N] lines of its
 * stderr and loader statuses, folded into libraries and findings. '/' is
 * replaced so that no path in the input names a device of this machine
 * (the folding reads the headers of the files a failure names). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_trace t = {0};
    char line[1024];
    size_t n = 0;
    uint32_t status = 0xC0000000u;
    for (size_t i = 0; i <= size; i++) {
        char c = i < size ? (char)data[i] : '\n';
        if (c == '\n' || n + 1 == sizeof line) {
            line[n] = '\0';
            if (!td_trace_pe_snap(&t, line, i))
                td_trace_parse_error(&t, line);
            n = 0;
        } else {
            line[n++] = c == '/' ? '_' : c;
            status = status * 31 + (uint8_t)c;
        }
    }
    if (size && data[0] == 'S')
        td_trace_pe_status(&t, 0xC0000100u | (status & 0x7f), "exit code");
    td_trace_build_libraries_pe(&t);
    const char *roots[8];
    td_trace_roots(&t, roots, 8);
    t.exit_status = 1;
    td_trace_analyze(&t, NULL);
    td_trace_free(&t);
    return 0;
}
