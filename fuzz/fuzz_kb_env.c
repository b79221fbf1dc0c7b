/* libFuzzer target for the kb parsers of untrusted text: environment
 * values (every catalogued variable), wheel tags, GPU names and arch
 * strings, and the version strings a query is made of. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kb/kb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"PYTORCH_CUDA_ALLOC_CONF",
                                        "PYTORCH_ALLOC_CONF",
                                        "CUDA_VISIBLE_DEVICES",
                                        "OMP_NUM_THREADS",
                                        "KMP_DUPLICATE_LIB_OK",
                                        "CUDA_HOME",
                                        "CUDA_PATH",
                                        "LD_LIBRARY_PATH",
                                        "TORCH_CUDA_ARCH_LIST",
                                        "PYTORCH_ENABLE_MPS_FALLBACK"};
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0'; /* environment values are C strings: stop at the first NUL */

    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        struct td_findings f = {0};
        td_kb_check_env(names[i], s, i % 2 ? "windows" : "linux", "12.4", &f);
        td_findings_free(&f);
    }
    char out[TD_KB_STR];
    td_kb_manylinux_glibc(s, out, sizeof out);
    int ma, mi;
    td_kb_gpu_cc(s, &ma, &mi);
    td_kb_parse_cc(s, &ma, &mi);
    const char *arches[] = {s, "sm_80"};
    td_kb_arch_fit(arches, 2, 8, 6);
    td_kb_cuda_min_driver(s, "linux", out, sizeof out, NULL);
    td_kb_driver_max_cuda(s, "windows", out, sizeof out);
    struct td_kb_query q = {.torch = s, .python = s, .driver = s};
    td_kb_builds(&q, NULL, 0);
    free(s);
    return 0;
}
