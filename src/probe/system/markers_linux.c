/* The markers of data/machine_markers.tsv: which files, variables and
 * mounts say the system is a container, WSL or a VM. Each row that matches
 * is evidence, said in words; the first one for a probe decides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/data.h"
#include "probe/probe_util.h"
#include "probe/python/pyfs.h"
#include "probe/system/environment.h"

/* ASCII case-insensitive search for NEEDLE in the first N bytes of HAY. */
static bool contains_nocase(const char *hay, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; k && i + k <= n; i++)
        if (strncasecmp(hay + i, needle, k) == 0)
            return true;
    return false;
}

/* mountinfo (proc(5)): "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3
 * /dev/root rw": the fifth field is the mount point. True when the line
 * mounted on / contains PATTERN. */
static bool root_mount_contains(const char *text, size_t len, const char *pattern)
{
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - line) : len - pos;
        pos += n + 1;
        const char *p = line, *end = line + n;
        for (int field = 0; field < 4 && p < end; field++) {
            p = memchr(p, ' ', (size_t)(end - p));
            p = p ? p + 1 : end;
        }
        if (end - p >= 2 && p[0] == '/' && p[1] == ' ' && contains_nocase(line, n, pattern))
            return true;
    }
    return false;
}

/* The value of NAME= in a NUL-separated environment block, into OUT. */
static bool environ_value(const char *text, size_t len, const char *name, char *out, size_t cap)
{
    size_t k = strlen(name);
    for (size_t pos = 0; pos < len;) {
        const char *e = text + pos;
        size_t n = strnlen(e, len - pos);
        pos += n + 1;
        if (n > k && strncmp(e, name, k) == 0) {
            snprintf(out, cap, "%.*s", (int)(n - k), e + k);
            return true;
        }
    }
    return false;
}

struct row {
    const char *test, *path, *pattern, *value;
};

/* Whether row R matches; VALUE gets its value (or, for "*", what the
 * environment said), WHY the evidence in words. */
static bool row_matches(const struct td_probe_ctx *ctx, const struct row *r, char *value,
                        size_t vcap, char *why, size_t wcap)
{
    bool hit = false;
    snprintf(value, vcap, "%s", r->value);
    if (strcmp(r->test, "exists") == 0) {
        snprintf(why, wcap, "%s exists", r->path);
        return td_probe_exists(ctx, r->path);
    }
    if (strcmp(r->test, "env") == 0) {
        const char *v = td_pyfs_env(ctx, r->path);
        snprintf(why, wcap, "%s=%.200s is set", r->path, v ? v : "");
        return v && v[0];
    }
    size_t len;
    char *text = td_probe_slurp(ctx, r->path, TD_PROBE_READ_CAP, &len);
    if (!text)
        return false;
    if (strcmp(r->test, "contains") == 0) {
        hit = contains_nocase(text, len, r->pattern);
        snprintf(why, wcap, "%s contains \"%s\"", r->path, r->pattern);
    } else if (strcmp(r->test, "root_mount") == 0) {
        hit = root_mount_contains(text, len, r->pattern);
        snprintf(why, wcap, "the root mount in %s is under %s", r->path, r->pattern);
    } else if (strcmp(r->test, "environ") == 0) {
        char v[128];
        hit = environ_value(text, len, r->pattern, v, sizeof v) && v[0];
        if (hit && strcmp(r->value, "*") == 0)
            snprintf(value, vcap, "%s", v);
        snprintf(why, wcap, "%s has %s%s", r->path, r->pattern, hit ? v : "");
    }
    free(text);
    return hit;
}

const char *td_probe_markers(const struct td_probe_ctx *ctx, const char *probe, td_marker_seen seen,
                             void *cookie)
{
    static const char *const names[] = {"probe", "order", "test", "path", "pattern", "value", NULL};
    struct td_table t;
    const char *first = NULL;
    /* Rows are few: look for order 1, 2, ... in turn. */
    for (int want = 1; want < 100; want++) {
        bool any = false;
        if (!td_table_open(&t, "machine_markers", names))
            return NULL;
        while (td_table_next(&t)) {
            if (strcmp(td_table_cell(&t, 0), probe) != 0 || atoi(td_table_cell(&t, 1)) != want)
                continue;
            any = true;
            struct row r = {td_table_cell(&t, 2), td_table_cell(&t, 3), td_table_cell(&t, 4),
                            td_table_cell(&t, 5)};
            char value[128], why[512];
            if (!row_matches(ctx, &r, value, sizeof value, why, sizeof why))
                continue;
            if (!first)
                first = td_arena_strdup(ctx->arena, value);
            if (seen)
                seen(cookie, probe, value, why);
            else
                return first;
        }
        if (!any)
            break;
    }
    return first;
}
