/* libFuzzer target for the wheel reader and its rules (torchdoctor wheel):
 * any bytes as a .whl file (written to a temporary file, as the reader
 * maps what it reads), read, judged, freed. Every binary listed must have
 * a path, and every finding a kind and a detail. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/wheel/wheel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A folder per input, removed before returning: libFuzzer may end the
     * process without running exit handlers, and a folder made once would
     * be left behind by every run. */
    const char *tmp = getenv("TMPDIR");
    char dir[256], path[320];
    snprintf(dir, sizeof dir, "%s/td-fuzz-wheel-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/x-1.0-cp38-abi3-manylinux_2_17_x86_64.whl", dir);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(data, 1, size, f);
    fclose(f);
    struct td_wheel_facts w;
    struct td_err err = {0};
    if (td_wheel_read(path, &w, &err) == 0) {
        for (size_t i = 0; i < w.nbinaries; i++)
            if (!w.binaries[i].path)
                abort();
        struct td_findings out = {0};
        td_kb_wheel_check(&w, &out);
        for (size_t i = 0; i < out.count; i++)
            if (!out.items[i].kind || !out.items[i].detail || !*out.items[i].detail)
                abort();
        td_findings_free(&out);
    }
    td_wheel_facts_free(&w);
    unlink(path);
    rmdir(dir);
    return 0;
}
