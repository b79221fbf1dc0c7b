/* td_memstream (base/compat.h) over POSIX open_memstream. */
#include <stdlib.h>

#include "base/compat.h"

FILE *td_memstream_open(struct td_memstream *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    return m->f;
}

char *td_memstream_close(struct td_memstream *m, size_t *len)
{
    *len = 0;
    if (!m->f)
        return NULL;
    bool ok = fclose(m->f) == 0;
    m->f = NULL;
    if (!ok) {
        free(m->buf);
        return NULL;
    }
    *len = m->len;
    return m->buf;
}
