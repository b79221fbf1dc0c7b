/* libFuzzer target for the pasted-text decoder (base/text.c): any bytes
 * decode to valid UTF-8, or are passed on marked "unknown". */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/text.h"
#include "base/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_decoded t;
    if (td_text_decode((const char *)data, size, &t) != 0)
        return 0;
    if (strcmp(t.encoding, "unknown") != 0 && !td_utf8_valid(t.utf8, t.len))
        abort();
    free(t.utf8);
    return 0;
}
