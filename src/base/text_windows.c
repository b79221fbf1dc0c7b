/* base/text.h on Windows: text typed or saved in a console arrives in the
 * console's input code page (GetConsoleCP; GetACP when there is no
 * console), converted with the system's own tables. */
#include "base/text.h"
#include "base/utf8.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

int td_text_console_cp(void)
{
    UINT cp = GetConsoleCP();
    return (int)(cp ? cp : GetACP());
}

char *td_text_from_cp(int cp, const char *bytes, size_t n, size_t *len)
{
    *len = 0;
    if (n == 0 || n > INT_MAX / 2)
        return NULL;
    int wn = MultiByteToWideChar((UINT)cp, MB_ERR_INVALID_CHARS, bytes, (int)n, NULL, 0);
    wchar_t *w = wn > 0 ? malloc(((size_t)wn + 1) * sizeof *w) : NULL;
    if (!w)
        return NULL;
    MultiByteToWideChar((UINT)cp, MB_ERR_INVALID_CHARS, bytes, (int)n, w, wn);
    w[wn] = L'\0';
    char *s = td_wide_to_utf8(w);
    free(w);
    if (s)
        *len = strlen(s);
    return s;
}

int td_text_oem_cp(void)
{
    return (int)GetOEMCP();
}

char *td_text_to_cp(int cp, const char *utf8, size_t *len)
{
    *len = 0;
    wchar_t *w = td_utf8_to_wide(utf8);
    BOOL lossy = FALSE;
    /* No best-fit characters (an "a" for "ä"): exact, or not at all. */
    int n =
        w ? WideCharToMultiByte((UINT)cp, WC_NO_BEST_FIT_CHARS, w, -1, NULL, 0, NULL, &lossy) : 0;
    char *s = n > 0 && !lossy ? malloc((size_t)n) : NULL;
    if (s && WideCharToMultiByte((UINT)cp, WC_NO_BEST_FIT_CHARS, w, -1, s, n, NULL, &lossy) != n)
        lossy = TRUE;
    free(w);
    if (lossy) {
        free(s);
        return NULL;
    }
    if (s)
        *len = (size_t)n - 1;
    return s;
}
