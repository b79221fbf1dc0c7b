/* A site directory's .dist-info folders (PEP 427, PEP 376): the one of a
 * distribution, and the INSTALLER it records. Below torch.c, pins.c and
 * companions.c, which all look distributions up this way. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "probe/install/torch_internal.h"
#include "probe/python/pyfs.h"

static bool is_dist_info(const char *name)
{
    size_t n = strlen(name), k = sizeof ".dist-info" - 1;
    return n >= k && strcmp(name + n - k, ".dist-info") == 0;
}

const char *td_site_dist_info(const struct td_probe_ctx *ctx, const struct td_site_listing *l,
                              const char *name, bool prefix, size_t *from)
{
    size_t nl = strlen(name);
    for (size_t i = from ? *from : 0; i < l->n; i++) {
        const char *e = l->names[i];
        if (!is_dist_info(e) || strncasecmp(e, name, nl) != 0)
            continue;
        /* "{name}-{version}.dist-info" (PEP 427): the name ends at the first '-'. */
        const char *dash = strchr(e, '-');
        if (!dash || (!prefix && (size_t)(dash - e) != nl))
            continue;
        if (from)
            *from = i + 1;
        return td_pyfs_join(ctx->arena, l->dir, e);
    }
    if (from)
        *from = l->n;
    return NULL;
}

const char *td_dist_info_installer(const struct td_probe_ctx *ctx, const char *dist_info)
{
    char path[TD_PYFS_PATH_MAX];
    size_t len;
    snprintf(path, sizeof path, "%s/INSTALLER", dist_info);
    char *text = td_pyfs_read(ctx, path, 256, &len);
    if (!text)
        return NULL;
    size_t n = strcspn(text, "\r\n \t");
    const char *out = n ? td_arena_strndup(ctx->arena, text, n) : NULL;
    free(text);
    return out;
}
