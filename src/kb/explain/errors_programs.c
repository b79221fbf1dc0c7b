/* A program's or framework's own sentence that it could not load or start
 * the library it depends on names no file ("Vulkan: Loader not found",
 * "Cannot find an OpenCL ICD loader library", "Failed to initialize
 * VapourSynth environment"): the raiser's row in data/error_raisers.tsv
 * gives, from the raiser's source, the file it loads on each platform. */
#include <string.h>

#include "kb/explain/errors_internal.h"

/* The platform's entry of SPEC ("WINDOWS|LINUX|MACOS", a raiser row's
 * library column after "platform:"): the first on Windows, the third on
 * macOS, the second elsewhere and when the text shows no platform, as a
 * loader on Linux would be asked. An empty entry is NULL (the raiser loads
 * nothing there). */
const char *td_explain_platform_file(const char *spec, const char *platform, struct td_arena *a)
{
    int want = td_explain_platform_column(platform);
    const char *s = spec;
    for (int i = 0; i < want && s; i++) {
        s = strchr(s, '|');
        if (s)
            s++;
    }
    if (!s)
        return NULL;
    size_t n = strcspn(s, "|");
    return n ? td_arena_strndup(a, s, n) : NULL;
}
