/* conda-meta records (NAME.json) read with jansson (probe/conda_meta.h). Any bytes may
 * arrive: every field is checked for its type, and a row whose fields are
 * not what conda writes is left out rather than guessed at. */
#include "probe/conda_meta.h"

#include <stdio.h>
#include <string.h>

#ifdef TD_HAVE_JANSSON
#include <jansson.h>

static const char *copy(struct td_arena *a, const json_t *obj, const char *key)
{
    const char *s = json_string_value(json_object_get(obj, key));
    return s ? td_arena_strdup(a, s) : NULL;
}

/* PathEnum (conda/models/enums.py): hardlink, softlink, directory, and the
 * noarch-python kinds conda creates itself (pyc_file, …), files like any. */
static enum td_conda_path_type path_type(const json_t *row)
{
    const char *t = json_string_value(json_object_get(row, "path_type"));
    return !t                            ? TD_CONDA_HARDLINK
           : strcmp(t, "softlink") == 0  ? TD_CONDA_SOFTLINK
           : strcmp(t, "directory") == 0 ? TD_CONDA_DIRECTORY
                                         : TD_CONDA_HARDLINK;
}

static bool read_row(const json_t *row, struct td_conda_path *p, struct td_arena *a)
{
    p->path = copy(a, row, "_path");
    if (!p->path || !*p->path)
        return false;
    p->type = path_type(row);
    p->sha256 = copy(a, row, "sha256");
    p->sha256_in_prefix = copy(a, row, "sha256_in_prefix");
    p->placeholder = copy(a, row, "prefix_placeholder");
    const char *mode = json_string_value(json_object_get(row, "file_mode"));
    p->binary_mode = mode && strcmp(mode, "binary") == 0;
    const json_t *size = json_object_get(row, "size_in_bytes");
    p->has_size = json_is_integer(size) && json_integer_value(size) >= 0;
    p->size = p->has_size ? (uint64_t)json_integer_value(size) : 0;
    return true;
}

static int read_paths(const json_t *doc, struct td_conda_record *r, struct td_arena *a)
{
    const json_t *rows = json_object_get(json_object_get(doc, "paths_data"), "paths");
    size_t n = json_array_size(rows);
    if (n == 0)
        return 0;
    r->paths = td_arena_array(a, n, sizeof *r->paths);
    if (!r->paths)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *row = json_array_get(rows, i);
        if (json_is_object(row) && read_row(row, &r->paths[r->n_paths], a))
            r->n_paths++;
    }
    return 0;
}

int td_conda_record_read(const char *text, size_t len, struct td_conda_record *r,
                         struct td_arena *arena, struct td_err *err)
{
    memset(r, 0, sizeof *r);
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        td_err_set(err, "not JSON (line %d: %s)", je.line, je.text);
        return -1;
    }
    int rc = -1;
    r->name = json_is_object(doc) ? copy(arena, doc, "name") : NULL;
    if (!r->name) {
        td_err_set(err, "not a conda-meta record (no \"name\")");
        goto out;
    }
    r->version = copy(arena, doc, "version");
    r->build = copy(arena, doc, "build");
    r->channel = copy(arena, doc, "channel");
    r->url = copy(arena, doc, "url");
    rc = read_paths(doc, r, arena);
    if (rc != 0)
        td_err_set(err, "out of memory reading paths_data");
out:
    json_decref(doc);
    return rc;
}

#else

int td_conda_record_read(const char *text, size_t len, struct td_conda_record *r,
                         struct td_arena *arena, struct td_err *err)
{
    (void)text, (void)len, (void)arena;
    memset(r, 0, sizeof *r);
    td_err_set(err, "conda-meta records not parsed (this build has no JSON reader)");
    return -1;
}

#endif

/* Hosts whose URL path is the channel's name ("conda-forge", "pkgs/main"). */
static const char *const NAMED_HOSTS[] = {"https://conda.anaconda.org/",
                                          "https://repo.anaconda.com/"};

/* SUBDIR is a platform folder of a channel (conda/base/constants.py
 * KNOWN_SUBDIRS: "noarch", "linux-64", "win-64", "osx-arm64", …). */
static bool is_subdir(const char *s, size_t n)
{
    return (n == 6 && strncmp(s, "noarch", 6) == 0) ||
           (n > 4 && (strncmp(s, "linux-", 6) == 0 || strncmp(s, "win-", 4) == 0 ||
                      strncmp(s, "osx-", 4) == 0));
}

/* Where the last '/' of U's first N bytes is (0 when none). */
static size_t last_slash(const char *u, size_t n)
{
    while (n && u[n - 1] != '/')
        n--;
    return n ? n - 1 : 0;
}

/* The channel part of a URL: without the archive's file name
 * (".../pytorch/linux-64/pytorch-2.1.0-….tar.bz2") and without a
 * trailing subdir. */
static size_t channel_len(const char *u, bool archive)
{
    size_t n = strlen(u);
    while (n && u[n - 1] == '/')
        n--;
    if (archive)
        n = last_slash(u, n);
    size_t p = last_slash(u, n);
    if (p && is_subdir(u + p + 1, n - p - 1))
        n = p;
    return n;
}

const char *td_conda_channel_name(const struct td_conda_record *r, struct td_arena *arena)
{
    bool archive = r->url && strstr(r->url, "://");
    const char *u = archive ? r->url : r->channel;
    if (!u || !*u)
        return NULL;
    if (!strstr(u, "://"))
        return u; /* already a name ("conda-forge", "pytorch") */
    size_t n = channel_len(u, archive);
    for (size_t i = 0; i < sizeof NAMED_HOSTS / sizeof *NAMED_HOSTS; i++) {
        size_t h = strlen(NAMED_HOSTS[i]);
        if (n > h && strncmp(u, NAMED_HOSTS[i], h) == 0)
            return td_arena_strndup(arena, u + h, n - h);
    }
    return td_arena_strndup(arena, u, n);
}
