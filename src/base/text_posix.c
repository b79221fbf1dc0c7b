/* base/text.h where there is no console code page: Linux and macOS
 * terminals are UTF-8, and pasted text is detected (base/text.c). */
#include "base/text.h"

int td_text_console_cp(void)
{
    return 0;
}

char *td_text_from_cp(int cp, const char *bytes, size_t n, size_t *len)
{
    (void)cp, (void)bytes, (void)n;
    *len = 0;
    return NULL;
}

int td_text_oem_cp(void)
{
    return 0;
}

char *td_text_to_cp(int cp, const char *utf8, size_t *len)
{
    (void)cp, (void)utf8;
    *len = 0;
    return NULL;
}
