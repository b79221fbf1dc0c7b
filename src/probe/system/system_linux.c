/* src/probe/system/ answers "what machine is this?": the OS, kernel,
 * memory, C runtimes, containers (system_*.c, machine_parse.c), the CPU
 * and its x86-64 level (cpu.c), Windows' API sets (apiset_*.c) and the
 * child-process helper the Windows probes share (child_windows.c), and
 * where training really runs: container, VM or WSL with the evidence, GPU
 * passthrough, WSL2's libcuda, container limits (environment.h: markers_,
 * environment_, passthrough_, wsl_, limits_linux.c, environment_rules.c).
 *
 * The system probe: distribution (os-release), kernel and machine, memory,
 * free disk, the system C and C++ runtimes' versions (read from their ELF
 * version definitions, since this program is static and its own glibc says
 * nothing about the machine's), containers and WSL (data/machine_markers.tsv,
 * read by system/markers_linux.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>

#include "base/version.h"
#include "probe/probe.h"
#include "probe/probe_util.h"
#include "probe/system/environment.h"

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

const char *td_probe_hostname(struct td_arena *a)
{
    struct utsname u;
    return uname(&u) == 0 ? td_arena_strdup(a, u.nodename) : NULL;
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
    out->container = td_probe_markers(ctx, "container", NULL, NULL);
    const char *wsl = td_probe_markers(ctx, "wsl", NULL, NULL);
    out->wsl = wsl ? atoi(wsl) : 0;
    return 0;
}
