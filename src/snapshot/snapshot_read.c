/* A snapshot's JSON read back (with jansson) as the facts diff compares:
 * each section flattened to (area, environment, item, value) rows, sorted,
 * and its findings. Any bytes at all may arrive here (a user's file, a log
 * line): every field is checked for its type, and what is not a snapshot
 * is an error naming why. */
#include "snapshot/snapshot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/map.h"

#ifdef TD_HAVE_JANSSON
#include <jansson.h>

struct facts {
    struct td_snap_doc *d;
    size_t cap;
    struct td_arena *a;
};

static void add(struct facts *f, const char *area, const char *env, const char *item,
                const char *value)
{
    if (!item || !value)
        return;
    struct td_snap_doc *d = f->d;
    if (d->n_facts == f->cap) {
        size_t grown = f->cap ? f->cap * 2 : 256;
        struct td_snap_fact *bigger = td_arena_array(f->a, grown, sizeof *bigger);
        if (!bigger)
            return;
        if (d->n_facts)
            memcpy(bigger, d->facts, d->n_facts * sizeof *bigger);
        d->facts = bigger, f->cap = grown;
    }
    d->facts[d->n_facts++] =
        (struct td_snap_fact){area, td_arena_strdup(f->a, env ? env : ""),
                              td_arena_strdup(f->a, item), td_arena_strdup(f->a, value)};
}

static const char *str(const json_t *obj, const char *key)
{
    return json_string_value(json_object_get(obj, key));
}

static void read_packages(struct facts *f, const json_t *snap)
{
    const json_t *envs = json_object_get(snap, "environments");
    for (size_t i = 0; i < json_array_size(envs); i++) {
        const json_t *e = json_array_get(envs, i);
        const char *py = str(e, "python");
        const json_t *pkgs = json_object_get(e, "packages");
        add(f, "python", "", py, str(e, "version"));
        for (size_t k = 0; py && k < json_array_size(pkgs); k++) {
            const json_t *p = json_array_get(pkgs, k);
            const char *name = str(p, "name");
            const char *prev = k ? str(json_array_get(pkgs, k - 1), "name") : NULL;
            char item[512];
            /* A second copy of one name (user site over system site): by location. */
            if (name && prev && strcmp(name, prev) == 0)
                snprintf(item, sizeof item, "%s@%s", name,
                         str(p, "location") ? str(p, "location") : "?");
            else
                snprintf(item, sizeof item, "%s", name ? name : "");
            if (name)
                add(f, "package", py, item, str(p, "version"));
        }
    }
}

static void read_native(struct facts *f, const json_t *snap)
{
    const json_t *native = json_object_get(snap, "native");
    for (size_t i = 0; i < json_array_size(native); i++) {
        const json_t *x = json_array_get(native, i);
        const char *path = str(x, "path"), *sha = str(x, "sha256");
        char value[4400];
        snprintf(value, sizeof value, "%s (%lld bytes%s%.12s)", path ? path : "?",
                 (long long)json_integer_value(json_object_get(x, "size")), sha ? ", sha256 " : "",
                 sha ? sha : "");
        add(f, "native", str(x, "torch"), str(x, "name"), value);
    }
}

static bool in_search_paths(const json_t *snap, const char *name)
{
    return json_object_get(json_object_get(snap, "search_paths"), name) != NULL;
}

/* check's "env" (NAME=value of the catalogue's variables), then the search
 * paths joined as the platform writes them. */
static void read_env(struct facts *f, const json_t *doc, const json_t *snap)
{
    const json_t *env = json_object_get(doc, "env");
    for (size_t i = 0; i < json_array_size(env); i++) {
        const char *nv = json_string_value(json_array_get(env, i));
        const char *eq = nv ? strchr(nv, '=') : NULL;
        if (!eq || (size_t)(eq - nv) >= 128)
            continue;
        char name[128];
        memcpy(name, nv, (size_t)(eq - nv));
        name[eq - nv] = '\0';
        if (!in_search_paths(snap, name))
            add(f, "env", "", name, eq + 1);
    }
    const char *key;
    json_t *dirs;
    const char sep =
        strcmp(str(doc, "platform") ? str(doc, "platform") : "", "windows") ? ':' : ';';
    json_object_foreach(json_object_get(snap, "search_paths"), key, dirs)
    {
        size_t len = 1;
        for (size_t i = 0; i < json_array_size(dirs); i++)
            len += (json_string_value(json_array_get(dirs, i))
                        ? strlen(json_string_value(json_array_get(dirs, i)))
                        : 0) +
                   1;
        char *joined = calloc(1, len);
        for (size_t i = 0; joined && i < json_array_size(dirs); i++) {
            const char *dir = json_string_value(json_array_get(dirs, i));
            size_t used = strlen(joined);
            snprintf(joined + used, len - used, "%s%s", i ? (char[]){sep, '\0'} : "",
                     dir ? dir : "");
        }
        add(f, "env", "", key, joined ? joined : "");
        free(joined);
    }
}

static void read_machine(struct facts *f, const json_t *doc)
{
    static const char *const sys_keys[] = {"os",      "distro", "kernel",
                                           "machine", "glibc",  "libstdcxx"};
    const json_t *sys = json_object_get(doc, "system");
    for (size_t i = 0; i < sizeof sys_keys / sizeof sys_keys[0]; i++)
        add(f, "system", "", sys_keys[i], str(sys, sys_keys[i]));
    const json_t *drv = json_object_get(doc, "driver");
    add(f, "driver", "", "status", str(drv, "status"));
    add(f, "driver", "", "driver_version", str(drv, "driver_version"));
    add(f, "driver", "", "libcuda", str(drv, "libcuda"));
    json_int_t cuda = json_integer_value(json_object_get(drv, "cuda_driver_version"));
    char v[64];
    snprintf(v, sizeof v, "%lld.%lld", (long long)(cuda / 1000), (long long)(cuda % 1000 / 10));
    if (cuda > 0)
        add(f, "driver", "", "cuda_driver_version", v);
    const json_t *gpus = json_object_get(doc, "gpus");
    for (size_t i = 0; i < json_array_size(gpus); i++) {
        const json_t *g = json_array_get(gpus, i);
        char item[32], value[512];
        snprintf(item, sizeof item, "gpu %lld",
                 (long long)json_integer_value(json_object_get(g, "index")));
        snprintf(value, sizeof value, "%s (compute capability %s, %lld MiB)",
                 str(g, "name") ? str(g, "name") : "?",
                 str(g, "compute_capability") ? str(g, "compute_capability") : "?",
                 (long long)(json_integer_value(json_object_get(g, "memory")) >> 20));
        add(f, "gpu", "", item, value);
    }
}

static enum td_severity severity_of(const char *s)
{
    return s && strcmp(s, "error") == 0     ? TD_SEV_ERROR
           : s && strcmp(s, "warning") == 0 ? TD_SEV_WARNING
                                            : TD_SEV_INFO;
}

/* td_findings_add copies every string but the kind (a TD_KIND_* constant
 * elsewhere): here it is copied into the arena. */
static void read_findings(struct td_snap_doc *d, const json_t *doc, struct td_arena *a)
{
    const json_t *fs = json_object_get(doc, "findings");
    for (size_t i = 0; i < json_array_size(fs); i++) {
        const json_t *x = json_array_get(fs, i);
        const json_t *nb = json_object_get(x, "needed_by");
        const char *needed_by =
            json_is_array(nb) ? json_string_value(json_array_get(nb, 0)) : json_string_value(nb);
        const char *kind = str(x, "kind"), *detail = str(x, "detail");
        if (kind && detail)
            td_findings_add(&d->findings, severity_of(str(x, "severity")), td_arena_strdup(a, kind),
                            str(x, "library"), needed_by, str(x, "symbol"), str(x, "fix"), "%s",
                            detail);
    }
}

static int fact_cmp(const void *a, const void *b)
{
    const struct td_snap_fact *x = a, *y = b;
    int c = strcmp(x->area, y->area);
    c = c ? c : strcmp(x->environment, y->environment);
    return c ? c : strcmp(x->item, y->item);
}

int td_snapshot_read(const char *text, size_t len, struct td_snap_doc *d, struct td_arena *arena,
                     struct td_err *err)
{
    json_error_t je;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        td_err_set(err, "not JSON (line %d, column %d: %s)", je.line, je.column, je.text);
        return -1;
    }
    const json_t *snap = json_object_get(doc, "snapshot");
    const char *command = str(doc, "command");
    if (!json_is_object(doc) || !command || strcmp(command, "snapshot") != 0 ||
        !json_is_object(snap)) {
        td_err_set(err, "not a torchdoctor snapshot (no \"command\": \"snapshot\" with a "
                        "\"snapshot\" section)");
        json_decref(doc);
        return -1;
    }
    struct facts f = {.d = d, .a = arena};
    const char *taken = str(snap, "taken_at");
    d->taken_at = taken ? td_arena_strdup(arena, taken) : NULL;
    read_packages(&f, snap);
    read_native(&f, snap);
    read_env(&f, doc, snap);
    read_machine(&f, doc);
    read_findings(d, doc, arena);
    if (d->n_facts)
        qsort(d->facts, d->n_facts, sizeof *d->facts, fact_cmp);
    json_decref(doc);
    return 0;
}

#else

int td_snapshot_read(const char *text, size_t len, struct td_snap_doc *d, struct td_arena *arena,
                     struct td_err *err)
{
    (void)text, (void)len, (void)d, (void)arena;
    td_err_set(err, "this build reads no snapshots (it was built without jansson)");
    return -1;
}

#endif

/* Snapshots are some hundred KB; a log of a year of daily ones some MB. */
enum { SNAPSHOT_FILE_MAX = 1 << 28 };

char *td_snapshot_file(const char *path, size_t *len, struct td_err *err)
{
    /* td_open_file refuses a FIFO or a device (fopen would wait for a
     * writer) and a folder, and names the file and why. */
    int fd = td_open_file(path, err);
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        if (fd >= 0) {
            td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
            close(fd);
        }
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    for (size_t got = 1; buf && got;) {
        if (n == cap) {
            char *bigger = cap < SNAPSHOT_FILE_MAX ? realloc(buf, cap * 2 + 1) : NULL;
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger, cap *= 2;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    }
    bool failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        td_err_set(err, "%s: cannot read%s", path, buf ? "" : " (too large)");
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

void td_snap_doc_free(struct td_snap_doc *d)
{
    td_findings_free(&d->findings);
}
