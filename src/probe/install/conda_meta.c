/* conda-meta records (NAME.json) read with base/json.h's pull reader
 * (probe/install/conda_meta.h): only the fields check needs are taken, the rest
 * skipped. Any bytes may arrive: a field of another type than conda writes
 * is left unset, and a row without a path is left out. */
#include "probe/install/conda_meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "probe/install/torch_internal.h"

/* A string member's value, unescaped into A; NULL when not a string. */
static const char *string_value(struct td_json *j, struct td_arena *a)
{
    struct td_json_str v;
    return td_json_string(j, &v) ? td_json_strdup(a, &v) : NULL;
}

/* PathEnum (conda/models/enums.py): hardlink, softlink, directory, and the
 * noarch-python kinds conda creates itself (pyc_file, …), files like any. */
static enum td_conda_path_type path_type(const char *t)
{
    return !t                            ? TD_CONDA_HARDLINK
           : strcmp(t, "softlink") == 0  ? TD_CONDA_SOFTLINK
           : strcmp(t, "directory") == 0 ? TD_CONDA_DIRECTORY
                                         : TD_CONDA_HARDLINK;
}

static void read_row(struct td_json *j, struct td_conda_path *p, struct td_arena *a)
{
    memset(p, 0, sizeof *p);
    const char *type = NULL, *mode = NULL;
    struct td_json_str k;
    for (bool first = true; td_json_next(j, &first) && td_json_key(j, &k);) {
        const char **field = td_json_is(&k, "_path")                ? &p->path
                             : td_json_is(&k, "sha256")             ? &p->sha256
                             : td_json_is(&k, "sha256_in_prefix")   ? &p->sha256_in_prefix
                             : td_json_is(&k, "prefix_placeholder") ? &p->placeholder
                             : td_json_is(&k, "path_type")          ? &type
                             : td_json_is(&k, "file_mode")          ? &mode
                                                                    : NULL;
        if (field)
            *field = string_value(j, a);
        else if (td_json_is(&k, "size_in_bytes"))
            p->has_size = td_json_uint(j, &p->size);
        else
            td_json_skip(j);
    }
    p->type = path_type(type);
    p->binary_mode = mode && strcmp(mode, "binary") == 0;
}

struct rows {
    struct td_conda_path *v;
    size_t n, cap;
};

static bool grow(struct rows *r)
{
    if (r->n < r->cap)
        return true;
    size_t cap = r->cap ? r->cap * 2 : 256;
    struct td_conda_path *bigger = realloc(r->v, cap * sizeof *bigger);
    if (!bigger)
        return false;
    r->v = bigger, r->cap = cap;
    return true;
}

/* "paths_data": {"paths_version": 1, "paths": [{...}, ...]} */
static void read_paths_data(struct td_json *j, struct rows *rows, struct td_arena *a)
{
    if (td_json_peek(j) != TD_JSON_OBJECT) {
        td_json_skip(j);
        return;
    }
    td_json_enter(j, TD_JSON_OBJECT);
    struct td_json_str k;
    for (bool first = true; td_json_next(j, &first) && td_json_key(j, &k);) {
        if (!td_json_is(&k, "paths") || td_json_peek(j) != TD_JSON_ARRAY) {
            td_json_skip(j);
            continue;
        }
        td_json_enter(j, TD_JSON_ARRAY);
        for (bool one = true; td_json_next(j, &one);) {
            if (td_json_peek(j) != TD_JSON_OBJECT || !grow(rows)) {
                td_json_skip(j);
                continue;
            }
            td_json_enter(j, TD_JSON_OBJECT);
            read_row(j, &rows->v[rows->n], a);
            rows->n += rows->v[rows->n].path && rows->v[rows->n].path[0];
        }
    }
}

static void read_record(struct td_json *j, struct td_conda_record *r, struct rows *rows,
                        struct td_arena *a)
{
    struct td_json_str k;
    for (bool first = true; td_json_next(j, &first) && td_json_key(j, &k);) {
        const char **field = td_json_is(&k, "name")      ? &r->name
                             : td_json_is(&k, "version") ? &r->version
                             : td_json_is(&k, "build")   ? &r->build
                             : td_json_is(&k, "channel") ? &r->channel
                             : td_json_is(&k, "url")     ? &r->url
                                                         : NULL;
        if (field)
            *field = string_value(j, a);
        else if (td_json_is(&k, "paths_data"))
            read_paths_data(j, rows, a);
        else
            td_json_skip(j);
    }
}

int td_conda_record_read(const char *text, size_t len, struct td_conda_record *r,
                         struct td_arena *arena, struct td_err *err)
{
    memset(r, 0, sizeof *r);
    struct td_json j;
    struct rows rows = {0};
    td_json_init(&j, text, len);
    if (td_json_enter(&j, TD_JSON_OBJECT))
        read_record(&j, r, &rows, arena);
    if (!j.error && td_json_peek(&j) != TD_JSON_NONE)
        j.error = "text after the record", j.error_at = (size_t)(j.p - j.start);
    int rc = -1;
    if (j.error)
        td_err_set(err, "not JSON: %s at byte %zu", j.error, j.error_at);
    else if (!r->name)
        td_err_set(err, "not a conda-meta record (no \"name\")");
    else if (rows.n && !(r->paths = td_arena_array(arena, rows.n, sizeof *r->paths)))
        td_err_set(err, "out of memory reading paths_data");
    else
        rc = 0;
    if (rc == 0 && rows.n) {
        memcpy(r->paths, rows.v, rows.n * sizeof *r->paths);
        r->n_paths = rows.n;
    }
    free(rows.v);
    return rc;
}

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

const char *td_conda_reinstall_cmd(const struct td_conda_record *r, const char *prefix,
                                   struct td_arena *arena, char *out, size_t cap)
{
    const char *channel = td_conda_channel_name(r, arena);
    char spec[512];
    snprintf(spec, sizeof spec, "%s%s%s==%s%s%s", channel ? channel : "", channel ? "::" : "",
             r->name, r->version ? r->version : "", r->build ? "=" : "", r->build ? r->build : "");
    return td_install_cmd("conda", NULL, prefix, NULL, TD_REINSTALL, r->version ? spec : r->name,
                          out, cap);
}
