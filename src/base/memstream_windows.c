/* td_memstream (base/compat.h) on Windows, which has no open_memstream:
 * a binary temporary file in %TEMP% ("D": deleted when closed), read back
 * into memory on close. */
#include <stdlib.h>

#include <windows.h>

#include "base/compat.h"

FILE *td_memstream_open(struct td_memstream *m)
{
    wchar_t dir[MAX_PATH + 1], name[MAX_PATH];
    m->buf = NULL;
    m->len = 0;
    m->f = NULL;
    /* Wide: %TEMP% lies in the user's folder, whose name may be outside
     * the ANSI code page. */
    DWORD n = GetTempPathW(sizeof dir / sizeof dir[0], dir);
    if (n == 0 || n >= sizeof dir / sizeof dir[0] || GetTempFileNameW(dir, L"td", 0, name) == 0)
        return NULL;
    m->f = _wfopen(name, L"w+bD");
    if (!m->f)
        DeleteFileW(name);
    return m->f;
}

char *td_memstream_close(struct td_memstream *m, size_t *len)
{
    *len = 0;
    if (!m->f)
        return NULL;
    char *buf = NULL;
    long size = fflush(m->f) == 0 && fseek(m->f, 0, SEEK_END) == 0 ? ftell(m->f) : -1;
    if (size >= 0 && fseek(m->f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)size + 1))) {
        if (fread(buf, 1, (size_t)size, m->f) == (size_t)size) {
            buf[size] = '\0';
            *len = (size_t)size;
        } else {
            free(buf);
            buf = NULL;
        }
    }
    fclose(m->f);
    m->f = NULL;
    return buf;
}
