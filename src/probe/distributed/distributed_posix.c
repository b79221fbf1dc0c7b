/* Distributed-training readiness (probe/distributed/distributed.h). Facts
 * first (NCCL, backends, interfaces, /dev/shm, memlock), each read under
 * the probe root; then the rules over them and the environment, whose
 * costs and fixes are rows of data/distributed.tsv. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/data.h"
#include "probe/distributed/distributed.h"
#include "probe/distributed/resolve.h"
#include "probe/probe_util.h"

static const char *env_get(const char *const *envp, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; envp && envp[i]; i++)
        if (strncmp(envp[i], name, n) == 0 && envp[i][n] == '=')
            return envp[i] + n + 1;
    return NULL;
}

static const char *keep(const struct td_probe_ctx *ctx, const char *s)
{
    return td_arena_strdup(ctx->arena, s);
}

/* ---- facts ---- */

/* The names in a folder under the root (sorted), into OUT. */
static size_t list_dir(const struct td_probe_ctx *ctx, const char *dir, const char **out,
                       size_t max, bool *known)
{
    char host[4200];
    DIR *d = td_probe_path(ctx, dir, host, sizeof host) ? opendir(host) : NULL;
    size_t n = 0;
    *known = d != NULL;
    for (struct dirent *e; d && (e = readdir(d)) && n < max;)
        if (e->d_name[0] != '.')
            out[n++] = keep(ctx, e->d_name);
    if (d)
        closedir(d);
    for (size_t i = 1; i < n; i++) /* a handful: insertion sort */
        for (size_t j = i; j > 0 && strcmp(out[j - 1], out[j]) > 0; j--) {
            const char *t = out[j];
            out[j] = out[j - 1], out[j - 1] = t;
        }
    return n;
}

static bool starts_with(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* "libnccl.so.2.20.5" -> "2.20.5" (Debian's libnccl2, conda's nccl). */
static bool version_from_name(const char *name, char *out, size_t cap)
{
    const char *v = starts_with(name, "libnccl.so.") ? name + strlen("libnccl.so.") : NULL;
    size_t n = v ? strlen(v) : 0;
    if (!v || n >= cap || strchr(v, '.') == NULL || strspn(v, "0123456789.") != n)
        return false;
    memcpy(out, v, n + 1);
    return true;
}

/* The dynamic string table of O (its symbols' names), read with pread:
 * never the whole of a 500 MB libtorch. NULL when it cannot be read. */
static char *read_dynstr(const struct td_object *o, size_t *len)
{
    const struct td_elf *e = &o->u.elf;
    if (o->kind != TD_FILE_ELF || !e->has_dynamic || e->strtab_size == 0 ||
        e->strtab_size > ((uint64_t)64 << 20) || !o->host_path)
        return NULL;
    int fd = open(o->host_path, O_RDONLY);
    if (fd < 0)
        return NULL;
    char *buf = malloc((size_t)e->strtab_size + 1);
    ssize_t got = buf ? pread(fd, buf, (size_t)e->strtab_size, (off_t)e->strtab_off) : -1;
    close(fd);
    if (got <= 0) {
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *len = (size_t)got;
    return buf;
}

/* Backends from the c10d process-group classes torch's libraries define
 * (torch/csrc/distributed/c10d/ProcessGroup{NCCL,Gloo,MPI}.cpp are built
 * only with USE_NCCL, USE_GLOO, USE_MPI). */
static void read_backends(const struct td_graph *g, struct td_distributed *d)
{
    d->nccl = d->gloo = d->mpi = -1;
    for (size_t i = 0; g && i < g->count; i++) {
        const struct td_object *o = g->objects[i];
        if (!starts_with(base_name(o->path ? o->path : ""), "libtorch"))
            continue;
        size_t len;
        char *names = read_dynstr(o, &len);
        if (!names)
            continue;
        bool nccl = memmem(names, len, "ProcessGroupNCCL", 16) != NULL;
        bool gloo = memmem(names, len, "ProcessGroupGloo", 16) != NULL;
        bool mpi = memmem(names, len, "ProcessGroupMPI", 15) != NULL;
        d->nccl = d->nccl == 1 || nccl;
        d->gloo = d->gloo == 1 || gloo;
        d->mpi = d->mpi == 1 || mpi;
        free(names);
    }
}

/* The pin torch's METADATA puts on nvidia-nccl-*: "nvidia-nccl-cu12==2.20.5". */
static const char *read_pin(const struct td_probe_ctx *ctx, const struct td_torch *t, char *version,
                            size_t cap)
{
    if (!t || !t->dist_info || !strstr(t->dist_info, ".dist-info"))
        return NULL;
    char path[4200];
    snprintf(path, sizeof path, "%s/METADATA", t->dist_info);
    size_t len;
    char *text = td_probe_slurp(ctx, path, TD_PROBE_READ_CAP, &len);
    const char *p = text ? strstr(text, "Requires-Dist: nvidia-nccl-") : NULL;
    const char *pin = NULL;
    if (p) {
        p += strlen("Requires-Dist: ");
        size_t n = strcspn(p, " ;\r\n");
        char spec[128];
        snprintf(spec, sizeof spec, "%.*s", (int)(n < 127 ? n : 127), p);
        const char *eq = strstr(spec, "==");
        snprintf(version, cap, "%s", eq ? eq + 2 : "");
        pin = keep(ctx, spec);
    }
    free(text);
    return pin;
}

static void read_nccl(const struct td_probe_ctx *ctx, const struct td_torch *t,
                      const struct td_graph *g, struct td_distributed *d)
{
    const struct td_object *nccl = NULL;
    for (size_t i = 0; g && i < g->count && !nccl; i++)
        if (starts_with(g->objects[i]->name, "libnccl.so") ||
            starts_with(g->objects[i]->identity, "libnccl.so"))
            nccl = g->objects[i];
    char version[64] = "", pinned[64] = "";
    if (nccl) {
        d->nccl_path = nccl->path;
        char real[4200];
        if (nccl->host_path && realpath(nccl->host_path, real) &&
            version_from_name(base_name(real), version, sizeof version))
            d->nccl_version_from = "its file name";
        /* pip's nvidia-nccl-cuXX ships libnccl.so.2 only: its wheel's version. */
        for (size_t i = 0; !*version && t && i < t->n_companions; i++)
            if (starts_with(t->companions[i].name, "nvidia-nccl-") && t->companions[i].version &&
                strstr(nccl->path ? nccl->path : "", "/nvidia/nccl/")) {
                snprintf(version, sizeof version, "%s", t->companions[i].version);
                d->nccl_version_from = keep(ctx, t->companions[i].name);
            }
        if (*version)
            d->nccl_version = keep(ctx, version);
    }
    d->nccl_pin = read_pin(ctx, t, pinned, sizeof pinned);
    d->nccl_pin_matches = !d->nccl_pin || !*pinned || !d->nccl_version ? -1
                          : starts_with(d->nccl_version, pinned)       ? 1
                                                                       : 0;
}

/* ---- rules ---- */

struct row {
    const char *severity, *detail, *fix, *source;
    char buf[8192];
};

/* The data/distributed.tsv row for NAME when WHEN. */
static bool row_for(const char *name, const char *when, struct row *r)
{
    static const char *const cols[] = {"name", "when", "severity", "detail", "fix", "source", NULL};
    struct td_table t;
    if (!td_table_open(&t, "distributed", cols))
        return false;
    while (td_table_next(&t))
        if (strcmp(td_table_cell(&t, 0), name) == 0 && strcmp(td_table_cell(&t, 1), when) == 0) {
            size_t n = 0;
            const char **out[] = {&r->severity, &r->detail, &r->fix, &r->source};
            for (int i = 0; i < 4; i++) {
                const char *c = td_table_cell(&t, i + 2);
                size_t len = strlen(c);
                if (n + len + 1 > sizeof r->buf)
                    return false;
                memcpy(r->buf + n, c, len + 1);
                *out[i] = r->buf + n;
                n += len + 1;
            }
            return true;
        }
    return false;
}

static enum td_severity severity_of(const char *s)
{
    return strcmp(s, "error") == 0     ? TD_SEV_ERROR
           : strcmp(s, "warning") == 0 ? TD_SEV_WARNING
                                       : TD_SEV_INFO;
}

/* The finding the data row for NAME and WHEN describes, {value} in its
 * detail replaced. */
static void add_row(struct td_findings *f, const char *name, const char *when, const char *kind,
                    const char *value)
{
    struct row r;
    if (!row_for(name, when, &r))
        return;
    char detail[2048];
    const char *at = strstr(r.detail, "{value}");
    if (at)
        snprintf(detail, sizeof detail, "%.*s%s%s", (int)(at - r.detail), r.detail, value,
                 at + strlen("{value}"));
    else
        snprintf(detail, sizeof detail, "%s", r.detail);
    td_findings_add(f, severity_of(r.severity), kind, NULL, NULL, name, r.fix, "%s (source: %s)",
                    detail, r.source);
}

/* A whole number from 0 up, or -1. */
static long whole(const char *s)
{
    if (!s || !*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 9)
        return -1;
    return strtol(s, NULL, 10);
}

static void check_ranks(const char *const *envp, struct td_findings *f)
{
    static const char *const names[] = {"WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"};
    long v[4];
    for (int i = 0; i < 4; i++) {
        const char *s = env_get(envp, names[i]);
        v[i] = s ? whole(s) : -2;
        if (s && v[i] < 0)
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL, names[i],
                            "set it to a whole number (torchrun and srun set it per process)",
                            "%s=%.100s is not a whole number: torch.distributed's env:// "
                            "initialisation fails with a ValueError",
                            names[i], s);
    }
    const char *why = v[0] == 0                   ? "WORLD_SIZE is 0"
                      : v[0] > 0 && v[1] >= v[0]  ? "RANK is not below WORLD_SIZE"
                      : v[3] >= 0 && v[2] >= v[3] ? "LOCAL_RANK is not below LOCAL_WORLD_SIZE"
                      : v[3] > 0 && v[0] > 0 && v[3] > v[0] ? "LOCAL_WORLD_SIZE exceeds WORLD_SIZE"
                      : v[2] >= 0 && v[1] >= 0 && v[2] > v[1] ? "LOCAL_RANK exceeds RANK"
                                                              : NULL;
    if (why)
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL, "RANK",
                        "let the launcher set them (torchrun, or srun with RANK=$SLURM_PROCID, "
                        "WORLD_SIZE=$SLURM_NTASKS, LOCAL_RANK=$SLURM_LOCALID)",
                        "the ranks do not add up: %s (WORLD_SIZE=%ld RANK=%ld LOCAL_RANK=%ld "
                        "LOCAL_WORLD_SIZE=%ld; -2: unset); the process group waits forever for "
                        "ranks that never come, or refuses to start",
                        why, v[0], v[1], v[2], v[3]);
}

/* The port of the DNS servers: 53, except under a test's fake root, where
 * TD_TEST_DNS_PORT (tests only) points the lookup at a server of its own
 * (resolv.conf cannot name a port). Asking the real system ignores it. */
static int dns_port(const struct td_probe_ctx *ctx, const char *const *envp)
{
    const char *port = env_get(envp, "TD_TEST_DNS_PORT");
    long p = port ? whole(port) : -1;
    bool fake_root = ctx->root && strcmp(ctx->root, "/") != 0;
    return fake_root && p > 0 && p < 65536 ? (int)p : 53;
}

static void check_master(const struct td_probe_ctx *ctx, const char *const *envp,
                         struct td_distributed *d, struct td_findings *f)
{
    const char *addr = env_get(envp, "MASTER_ADDR"), *port = env_get(envp, "MASTER_PORT");
    d->master_addr_resolves = -1;
    if (addr) {
        struct td_resolve_request q = {
            .ctx = ctx, .budget_ms = ctx->dns_budget_ms, .dns_port = dns_port(ctx, envp)};
        struct td_resolve_result r;
        td_resolve_host(&q, addr, &r);
        d->master_addr_resolves = r.status == TD_RESOLVE_YES  ? 1
                                  : r.status == TD_RESOLVE_NO ? 0
                                                              : -1;
        d->master_addr_lookup = keep(ctx, r.how);
        const char *fix = "export MASTER_ADDR=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" "
                          "| head -n 1)   (rank 0's host, as every node resolves it)";
        if (r.status == TD_RESOLVE_NO)
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL, "MASTER_ADDR",
                            fix,
                            "MASTER_ADDR=%.200s does not resolve here (%s; nsswitch hosts: %s): "
                            "every rank but 0 fails to reach the rendezvous (torch.distributed: "
                            "'failed to resolve address' or a timeout)",
                            addr, r.how, r.order);
        else if (r.status == TD_RESOLVE_UNKNOWN)
            td_findings_add(f, r.unaskable ? TD_SEV_INFO : TD_SEV_WARNING, TD_KIND_ENV_VAR_INVALID,
                            NULL, NULL, "MASTER_ADDR",
                            r.unaskable ? "getent hosts \"$MASTER_ADDR\"   (asks every source "
                                          "nsswitch.conf lists)"
                                        : "getent hosts \"$MASTER_ADDR\"   (a slow or failing "
                                          "DNS server delays or breaks the rendezvous too)",
                            "whether MASTER_ADDR=%.200s resolves is unknown: %s (nsswitch hosts: "
                            "%s; check waits at most %d ms for DNS)",
                            addr, r.how, r.order,
                            ctx->dns_budget_ms > 0 ? ctx->dns_budget_ms : 300);
    }
    long p = port ? whole(port) : -2;
    if (port && (p < 1 || p > 65535))
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL, "MASTER_PORT",
                        "export MASTER_PORT=29500   (any free TCP port from 1024 to 65535, the "
                        "same on every rank)",
                        "MASTER_PORT=%.100s is not a TCP port (1-65535): the rendezvous store "
                        "cannot listen on it",
                        port);
}

static void check_ifnames(const char *const *envp, const struct td_distributed *d,
                          struct td_findings *f)
{
    char have[1024] = "", why[512];
    size_t len = 0;
    for (size_t i = 0; i < d->n_ifaces && len < sizeof have; i++)
        len += (size_t)snprintf(have + len, sizeof have - len, "%s%s", i ? ", " : "", d->ifaces[i]);
    const char *first = NULL;
    for (size_t i = 0; i < d->n_ifaces && !first; i++)
        if (strcmp(d->ifaces[i], "lo") != 0)
            first = d->ifaces[i];
    char fix[256];
    const char *nccl = env_get(envp, "NCCL_SOCKET_IFNAME");
    if (nccl && d->ifaces_known &&
        !td_nccl_ifname_selects(nccl, d->ifaces, d->n_ifaces, why, sizeof why)) {
        snprintf(fix, sizeof fix,
                 "export NCCL_SOCKET_IFNAME=%s   (or unset it: NCCL then picks one)",
                 first ? first : "lo");
        td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL, "NCCL_SOCKET_IFNAME",
                        fix,
                        "NCCL_SOCKET_IFNAME=%.100s %s (interfaces here: %s): NCCL fails at "
                        "init with 'Bootstrap : no socket interface found' (NCCL docs, "
                        "NCCL_SOCKET_IFNAME)",
                        nccl, why, have);
    }
    const char *gloo = env_get(envp, "GLOO_SOCKET_IFNAME");
    for (const char *p = gloo; p && *p && d->ifaces_known;) {
        size_t n = strcspn(p, ",");
        bool found = false;
        for (size_t i = 0; i < d->n_ifaces; i++)
            found |= strlen(d->ifaces[i]) == n && strncmp(d->ifaces[i], p, n) == 0;
        if (!found) {
            snprintf(fix, sizeof fix, "export GLOO_SOCKET_IFNAME=%s", first ? first : "lo");
            td_findings_add(f, TD_SEV_ERROR, TD_KIND_ENV_VAR_INVALID, NULL, NULL,
                            "GLOO_SOCKET_IFNAME", fix,
                            "GLOO_SOCKET_IFNAME names %.*s, which is not an interface here "
                            "(interfaces: %s): Gloo needs exact names and fails to create its "
                            "device (torch.distributed docs, 'Choosing the network interface')",
                            (int)n, p, have);
            break;
        }
        p += n + (p[n] == ',');
    }
}

static void check_settings(const char *const *envp, const struct td_distributed *d,
                           struct td_findings *f)
{
    /* P2P off where NVLink joins GPUs (NVML's topology): the fast path. */
    char pairs[256] = "";
    size_t len = 0;
    for (size_t i = 0; i < d->n_links && len < sizeof pairs; i++)
        if (d->links[i].nvlink == 1)
            len += (size_t)snprintf(pairs + len, sizeof pairs - len, "%s%u-%u",
                                    len ? ", " : "GPUs ", d->links[i].a, d->links[i].b);
    static const char *const costly[] = {"NCCL_P2P_DISABLE", "NCCL_IB_DISABLE"};
    for (int i = 0; i < 2; i++) {
        const char *v = env_get(envp, costly[i]);
        bool nvlink = i == 0 && *pairs;
        if (v && strcmp(v, "1") == 0)
            add_row(f, costly[i], nvlink ? "1 with NVLink" : "1", TD_KIND_ENV_VAR_INVALID,
                    nvlink ? pairs : v);
    }
    bool distributed = env_get(envp, "MASTER_ADDR") || env_get(envp, "WORLD_SIZE");
    if (distributed && d->nccl == 1 && !env_get(envp, "NCCL_DEBUG"))
        add_row(f, "NCCL_DEBUG", "unset", TD_KIND_ENV_VAR_INVALID, "");
    if (d->nccl_pin_matches == 0)
        td_findings_add(f, TD_SEV_WARNING, TD_KIND_COMPANION_MISMATCH, d->nccl_path, NULL, NULL,
                        "remove the other NCCL from the library path (LD_LIBRARY_PATH, "
                        "/etc/ld.so.conf.d), or pip install the pinned wheel",
                        "torch pins %s but its closure loads NCCL %s from %s (version from %s): "
                        "collectives may hang or fail on version checks between ranks",
                        d->nccl_pin, d->nccl_version, d->nccl_path, d->nccl_version_from);
}

void td_probe_distributed(const struct td_probe_ctx *ctx, const struct td_torch *t,
                          const struct td_graph *g, const char *const *envp,
                          const struct td_environment *e, const struct td_gpu_link *links,
                          size_t n_links, struct td_distributed *d, struct td_findings *f)
{
    memset(d, 0, sizeof *d);
    d->probed = true;
    d->links = links;
    d->n_links = n_links;
    read_nccl(ctx, t, g, d);
    read_backends(g, d);
    d->n_ifaces = list_dir(ctx, "/sys/class/net", d->ifaces, TD_DIST_MAX_IFACES, &d->ifaces_known);
    if (e) {
        d->shm_bytes = e->shm_size;
        d->shm_from = e->shm_from;
        d->memlock_known = e->memlock_known;
        d->memlock_unlimited = e->memlock == UINT64_MAX;
        d->memlock_bytes = d->memlock_unlimited ? 0 : e->memlock;
        d->infiniband = e->rdma_devices > 0;
    }
    check_master(ctx, envp, d, f);
    check_ranks(envp, f);
    check_ifnames(envp, d, f);
    check_settings(envp, d, f);
}
