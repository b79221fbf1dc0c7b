/* A program's start-up probes for optional libraries are no failure when the
 * program says so itself: TensorFlow dlopens TensorRT's libnvinfer at import,
 * logs each miss ("Could not load dynamic library 'libnvinfer.so.7'; dlerror:
 * libnvinfer.so.7: cannot open shared object file") and then its verdict,
 * "Cannot dlopen some TensorRT libraries. If you would like to use Nvidia GPU
 * with TensorRT, ...". Those probe lines look like every loader failure, so
 * they are set aside before any reader sees the text
 * (data/optional_probes.tsv holds the verdicts). */
#include <stdbool.h>
#include <string.h>

#include "base/compat.h"
#include "base/arena.h"
#include "base/data.h"
#include "kb/explain/errors_internal.h"

/* Whether LINE (N bytes) is a probe line of PROBE for a file whose name
 * starts with LIBRARY. */
static bool probe_line(const char *line, size_t n, const char *probe, const char *library)
{
    size_t pn = strlen(probe), ln = strlen(library);
    for (const char *p = line; (size_t)(p - line) + pn + ln <= n; p++)
        if (strncmp(p, probe, pn) == 0 && strncmp(p + pn, library, ln) == 0)
            return true;
    return false;
}

/* TEXT without the lines of PROBE for LIBRARY (in place). */
static void drop_probe_lines(char *text, const char *probe, const char *library)
{
    char *out = text;
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        size_t whole = n + (nl != NULL);
        if (!probe_line(line, n, probe, library)) {
            memmove(out, line, whole);
            out += whole;
        }
        line += whole;
    }
    *out = '\0';
}

char *td_explain_drop_optional_probes(char *text, struct td_arena *a)
{
    static const char *const cols[] = {"verdict", "probe", "library", NULL};
    struct td_table t;
    if (!text || !td_table_open(&t, "optional_probes", cols))
        return text;
    char *copy = NULL;
    while (td_table_next(&t)) {
        if (!strstr(text, td_table_cell(&t, 0)))
            continue;
        if (!copy && !(copy = td_arena_strdup(a, text)))
            return text;
        drop_probe_lines(copy, td_table_cell(&t, 1), td_table_cell(&t, 2));
    }
    return copy ? copy : text;
}
