/* libFuzzer target for the PEP 440/508 evaluator (kb/pep508.h): the input's
 * first line is a Requires-Dist requirement, the second an installed
 * version; both are also tried as a specifier set and a marker. The whole
 * input is also read as METADATA headers. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/pep508.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    struct td_requirement m;
    for (const char *at = s; td_metadata_next_requirement(&at, &m);)
        ;
    char *version = strchr(s, '\n');
    if (version)
        *version++ = '\0';
    else
        version = s;
    char buf[64];
    struct td_pep508_env env;
    td_pep508_env_for(&env, size % 2 ? "windows" : "linux", "x86_64", version, buf, sizeof buf);
    struct td_requirement r;
    if (td_pep508_parse(s, &r)) {
        td_pep508_marker(r.marker, &env, "");
        td_pep440_contains(r.specifier, version);
    }
    td_pep440_contains(s, version);
    td_pep508_marker(s, &env, version);
    struct td_pep440 v, w;
    char out[256];
    if (td_pep440_parse(s, &v) && td_pep440_parse(version, &w)) {
        td_pep440_cmp(&v, &w);
        td_pep440_str(&v, out, sizeof out);
    }
    free(s);
    return 0;
}
