/* The Windows-only facts (probe.h, struct td_windows) elsewhere: none are
 * read, but a --root that holds Windows\System32 (any case, as an
 * extracted drive may spell it) is a Windows tree, whose registry is not
 * read here: tree is set and LongPathsEnabled stays unknown. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "probe/probe.h"

/* DIR/NAME, NAME matched without regard to case, into OUT. */
static bool subdir(const char *dir, const char *name, char *out, size_t cap)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        if (strcasecmp(e->d_name, name) == 0)
            found = (size_t)snprintf(out, cap, "%s/%s", dir, e->d_name) < cap;
    if (d)
        closedir(d);
    return found;
}

int td_probe_windows(const struct td_probe_ctx *ctx, struct td_windows *out)
{
    memset(out, 0, sizeof *out);
    out->long_paths_enabled = -1;
    char windows[4096], system32[4096];
    out->tree = ctx->root && strcmp(ctx->root, "/") != 0 &&
                subdir(ctx->root, "Windows", windows, sizeof windows) &&
                subdir(windows, "System32", system32, sizeof system32);
    return -1;
}
