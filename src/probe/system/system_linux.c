/* src/probe/system/ answers "what machine is this?": the OS, kernel,
 * memory, C runtimes, containers (system_*.c, machine_parse.c), the CPU
 * and its x86-64 level (cpu.c), Windows' API sets (apiset_*.c) and the
 * child-process helper the Windows probes share (child_windows.c).
 *
 * The system probe: distribution (os-release), kernel and machine, memory,
 * free disk, the system C and C++ runtimes' versions (read from their ELF
 * version definitions, since this program is static and its own glibc says
 * nothing about the machine's), containers and WSL (data/machine_markers.tsv). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>

#include "base/data.h"
#include "base/version.h"
#include "probe/probe.h"
#include "probe/probe_util.h"

static const char *keep(const struct td_probe_ctx *ctx, const char *s)
{
    return s && s[0] ? td_arena_strdup(ctx->arena, s) : NULL;
}

/* os-release(5): /etc/os-release, and /usr/lib/os-release when it is absent. */
static void read_os_release(const struct td_probe_ctx *ctx, struct td_system *out)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/etc/os-release", 65536, &len);
    if (!text)
        text = td_probe_slurp(ctx, "/usr/lib/os-release", 65536, &len);
    if (!text)
        return;
    char v[256];
    if (td_parse_os_release(text, len, "PRETTY_NAME", v, sizeof v))
        out->distro = keep(ctx, v);
    if (td_parse_os_release(text, len, "ID", v, sizeof v))
        out->distro_id = keep(ctx, v);
    if (td_parse_os_release(text, len, "VERSION_ID", v, sizeof v))
        out->distro_version = keep(ctx, v);
    free(text);
}

static void read_memory(const struct td_probe_ctx *ctx, struct td_system *out)
{
    size_t len;
    char *text = td_probe_slurp(ctx, "/proc/meminfo", 65536, &len);
    if (!text)
        return;
    td_parse_meminfo(text, len, "MemTotal", &out->ram_total);
    td_parse_meminfo(text, len, "MemAvailable", &out->ram_available);
    td_parse_meminfo(text, len, "SwapTotal", &out->swap_total);
    free(text);
}

/* Bytes an unprivileged user may still write where $HOME is (f_bavail, as df
 * reports "Avail"). */
static void read_disk(const struct td_probe_ctx *ctx, struct td_system *out)
{
    const char *home = ctx->home ? ctx->home : getenv("HOME");
    char host[4096];
    struct statvfs st;
    if (home && td_probe_path(ctx, home, host, sizeof host) && statvfs(host, &st) == 0)
        out->disk_free = (uint64_t)st.f_bavail * st.f_frsize;
}

/* The newest version PREFIX<digits...> that SONAME defines, as the loader
 * model would find SONAME for a plain program (ld.so.cache, then the
 * default directories), without the prefix: "2.36" for GLIBC_2.36.
 * Non-numeric versions (GLIBC_PRIVATE) are skipped. */
static const char *newest_version(const struct td_probe_ctx *ctx, struct td_probe_loader *pl,
                                  const char *soname, const char *prefix)
{
    struct td_resolution res;
    struct td_object *o = td_probe_loader_find(pl, soname, &res);
    const char *best = NULL;
    size_t pn = strlen(prefix);
    for (uint32_t i = 0; o && o->kind == TD_FILE_ELF && i < o->u.elf.verdef_count; i++) {
        const char *name = o->u.elf.verdef[i].name;
        if (!name || strncmp(name, prefix, pn) != 0 || name[pn] < '0' || name[pn] > '9')
            continue;
        if (!best || td_version_cmp(name + pn, best) > 0)
            best = name + pn;
    }
    const char *kept = keep(ctx, best);
    td_probe_loader_release(&res);
    return kept;
}

static void read_runtimes(const struct td_probe_ctx *ctx, struct td_system *out)
{
    struct td_probe_loader pl;
    struct td_err err = {0};
    if (td_probe_loader_open(ctx, false, &pl, &err) != 0)
        return;
    out->glibc = newest_version(ctx, &pl, "libc.so.6", "GLIBC_");
    out->libstdcxx = newest_version(ctx, &pl, "libstdc++.so.6", "GLIBCXX_");
    td_probe_loader_close(&pl);
}

/* ---------------------------------------------- containers and WSL */

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

/* Whether one marker row matches; VALUE_OUT gets the row's value (or, for
 * "*", what the environment said). */
static bool marker_matches(const struct td_probe_ctx *ctx, const char *test, const char *path,
                           const char *pattern, const char *value, char *value_out, size_t cap)
{
    bool hit = false;
    snprintf(value_out, cap, "%s", value);
    if (strcmp(test, "exists") == 0)
        return td_probe_exists(ctx, path);
    if (strcmp(test, "env") == 0) {
        const char *v = getenv(path);
        return v && v[0];
    }
    size_t len;
    char *text = td_probe_slurp(ctx, path, TD_PROBE_READ_CAP, &len);
    if (!text)
        return false;
    if (strcmp(test, "contains") == 0)
        hit = contains_nocase(text, len, pattern);
    else if (strcmp(test, "root_mount") == 0)
        hit = root_mount_contains(text, len, pattern);
    else if (strcmp(test, "environ") == 0) {
        char v[128];
        hit = environ_value(text, len, pattern, v, sizeof v) && v[0];
        if (hit && strcmp(value, "*") == 0)
            snprintf(value_out, cap, "%s", v);
    }
    free(text);
    return hit;
}

/* The value of the first row of data/machine_markers.tsv for PROBE (in the
 * order column's order) that matches, or NULL. */
static const char *first_marker(const struct td_probe_ctx *ctx, const char *probe)
{
    size_t len;
    const char *table = td_data_table("machine_markers", &len);
    if (!table)
        return NULL;
    static const char *const names[] = {"probe", "order", "test", "path", "pattern", "value"};
    int col[6];
    char line[1024];
    const char *cells[12];
    struct td_tsv t;
    td_tsv_open(&t, table, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 12);
    for (int i = 0; i < 6; i++)
        if ((col[i] = td_tsv_column(cells, n, names[i])) < 0)
            return NULL;
    /* Rows are few: look for order 1, 2, ... in turn. */
    for (int want = 1; want < 100; want++) {
        bool seen = false;
        td_tsv_open(&t, table, len);
        td_tsv_next(&t, line, sizeof line, cells, 12);
        while ((n = td_tsv_next(&t, line, sizeof line, cells, 12)) >= 0) {
            if (n <= col[5] || strcmp(cells[col[0]], probe) != 0 || atoi(cells[col[1]]) != want)
                continue;
            seen = true;
            char value[128];
            if (marker_matches(ctx, cells[col[2]], cells[col[3]], cells[col[4]], cells[col[5]],
                               value, sizeof value))
                return keep(ctx, value);
        }
        if (!seen)
            break;
    }
    return NULL;
}

int td_probe_system(const struct td_probe_ctx *ctx, struct td_system *out)
{
    memset(out, 0, sizeof *out);
    out->os = "linux";
    read_os_release(ctx, out);
    struct utsname u;
    if (uname(&u) == 0) {
        out->kernel = keep(ctx, u.release);
        out->machine = keep(ctx, u.machine);
        out->hostname = keep(ctx, u.nodename);
    }
    read_memory(ctx, out);
    read_disk(ctx, out);
    read_runtimes(ctx, out);
    out->container = first_marker(ctx, "container");
    const char *wsl = first_marker(ctx, "wsl");
    out->wsl = wsl ? atoi(wsl) : 0;
    return 0;
}
