/* What the system is: bare metal, a VM, a container or WSL, each from the
 * markers of data/machine_markers.tsv that matched (all of them kept as
 * evidence); then the GPU passthrough, WSL and limit probes. Also the small
 * file helpers those probes share (env_internal.h). */
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

/* ---- what we are in ---- */

struct collect {
    struct td_environment *e;
    struct td_arena *arena;
};

static void seen(void *cookie, const char *probe, const char *value, const char *evidence)
{
    struct collect *c = cookie;
    if (c->e->n_evidence >= TD_ENV_MAX_EVIDENCE)
        return;
    struct td_env_evidence *x = &c->e->evidence[c->e->n_evidence++];
    x->probe = probe; /* a literal of this file */
    x->value = td_arena_strdup(c->arena, value);
    x->evidence = td_arena_strdup(c->arena, evidence);
}

void td_probe_environment(const struct td_probe_ctx *ctx, struct td_environment *e)
{
    memset(e, 0, sizeof *e);
    e->probed = true;
    struct collect c = {e, ctx->arena};
    const char *wsl = td_probe_markers(ctx, "wsl", seen, &c);
    e->container = td_probe_markers(ctx, "container", seen, &c);
    e->vm = td_probe_markers(ctx, "vm", seen, &c);
    e->wsl = wsl ? atoi(wsl) : 0;
    if (e->wsl)
        e->kind = e->wsl == 1 ? "wsl1" : "wsl2";
    else if (e->container)
        e->kind = e->container;
    else
        e->kind = e->vm ? "vm" : "bare_metal";
    td_probe_passthrough(ctx, e);
    td_probe_wsl(ctx, e);
    td_probe_limits(ctx, e);
}
