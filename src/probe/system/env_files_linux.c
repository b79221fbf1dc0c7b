/* The small reads under the probe root that the environment probe's files
 * share (env_internal.h): a short file, a directory's entries in name
 * order, the dpkg package that owns a file. Below environment_linux.c and
 * the probes it runs (passthrough_linux.c, wsl_linux.c, limits_linux.c),
 * so none of them calls back into the one that calls it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_util.h"
#include "probe/system/env_internal.h"

bool td_env_read(const struct td_probe_ctx *ctx, const char *path, char *out, size_t cap)
{
    size_t len;
    char *text = td_probe_slurp(ctx, path, cap > 1 ? cap - 1 : 1, &len);
    if (!text || cap == 0) {
        free(text);
        return false;
    }
    while (len && (text[len - 1] == '\n' || text[len - 1] == ' ' || text[len - 1] == '\r' ||
                   text[len - 1] == '\t' || text[len - 1] == '\0'))
        len--;
    memcpy(out, text, len);
    out[len] = '\0';
    free(text);
    return true;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t td_env_each_entry(const struct td_probe_ctx *ctx, const char *dir,
                         bool (*each)(void *cookie, const char *name), void *cookie)
{
    enum { MAX_ENTRIES = 8192 };
    char host[4096];
    DIR *d = td_probe_path(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    if (!d)
        return 0;
    char **names = malloc(MAX_ENTRIES * sizeof *names);
    size_t n = 0, called = 0;
    struct dirent *ent;
    while (names && n < MAX_ENTRIES && (ent = readdir(d)))
        if (strcmp(ent->d_name, ".") != 0 && strcmp(ent->d_name, "..") != 0 &&
            (names[n] = strdup(ent->d_name)))
            n++;
    closedir(d);
    if (names)
        qsort(names, n, sizeof *names, by_name);
    bool go = true;
    for (size_t i = 0; i < n; i++) {
        if (go) {
            called++;
            go = each(cookie, names[i]);
        }
        free(names[i]);
    }
    free(names);
    return called;
}

/* ---- dpkg: which package put a file there ---- */

struct owner_search {
    const struct td_probe_ctx *ctx;
    const char *file, *alt; /* the path, and its other spelling across the /usr merge */
    char found[256];
};

static bool list_names(const char *text, size_t len, const char *path)
{
    size_t n = strlen(path);
    for (const char *p = text; p && p + n <= text + len;) {
        if (memcmp(p, path, n) == 0 && (p + n == text + len || p[n] == '\n') &&
            (p == text || p[-1] == '\n'))
            return true;
        p = memchr(p, '\n', (size_t)(text + len - p));
        p = p ? p + 1 : NULL;
    }
    return false;
}

static bool owner_entry(void *cookie, const char *name)
{
    struct owner_search *s = cookie;
    size_t n = strlen(name);
    if (n < 6 || strcmp(name + n - 5, ".list") != 0)
        return true;
    char path[600];
    snprintf(path, sizeof path, "/var/lib/dpkg/info/%s", name);
    size_t len;
    char *text = td_probe_slurp(s->ctx, path, (size_t)8 << 20, &len);
    bool hit =
        text && (list_names(text, len, s->file) || (s->alt && list_names(text, len, s->alt)));
    free(text);
    if (hit) /* "libnvidia-compute-535:amd64.list" -> "libnvidia-compute-535" */
        snprintf(s->found, sizeof s->found, "%.*s", (int)strcspn(name, ":."), name);
    return !hit;
}

const char *td_env_dpkg_owner(const struct td_probe_ctx *ctx, const char *file)
{
    char alt[4096];
    struct owner_search s = {.ctx = ctx, .file = file};
    /* Debian's merged /usr: /lib/x86_64-linux-gnu is /usr/lib/x86_64-linux-gnu,
     * and packages list either spelling. */
    if (strncmp(file, "/usr/lib/", 9) == 0)
        snprintf(alt, sizeof alt, "%s", file + 4);
    else if (strncmp(file, "/lib/", 5) == 0)
        snprintf(alt, sizeof alt, "/usr%s", file);
    else
        alt[0] = '\0';
    s.alt = alt[0] ? alt : NULL;
    td_env_each_entry(ctx, "/var/lib/dpkg/info", owner_entry, &s);
    return s.found[0] ? td_arena_strdup(ctx->arena, s.found) : NULL;
}
