/* The local half of `torchdoctor explain`: finding the file an error message
 * names on this machine (or under --root), the requirer of a missing .so in
 * the directories a traceback mentions, and what the built dependency graph
 * says the message does not, as records (graph/explain_local.h). */
#include "graph/explain_local.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/map.h"
#include "format/elf.h"
#include "loader/loader.h"

enum {
    MAX_SCAN_DIRS = 16,
    MAX_SCAN_FILES = 512, /* per directory */
    MAX_SHOWN_DIRS = 4,
    PATH_CAP = 4096,
};

/* snprintf whose truncation is expected (paths are cut at the buffer size). */
static void put(char *out, size_t cap, const char *format, ...) TD_PRINTF(3, 4);
static void put(char *out, size_t cap, const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    (void)vsnprintf(out, cap, format, ap);
    va_end(ap);
}

static bool windows_path(const char *p)
{
    return (p[0] && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) || strchr(p, '\\');
}

static bool host_of(const char *path, const char *root, char *out, size_t cap)
{
    if (!root) {
        put(out, cap, "%s", path);
        return true;
    }
    struct td_loader_config cfg = {
        .platform = windows_path(path) ? TD_PLATFORM_WINDOWS : TD_PLATFORM_LINUX, .root = root};
    return td_host_path(&cfg, path, out, cap);
}

bool td_local_file(const char *path, const char *root, char *out, size_t cap)
{
    if (!path || !*path || !host_of(path, root, out, cap))
        return false;
    struct stat st;
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, R_OK) == 0;
}

/* Read by hand: each byte is looked at once, where regexec from each
 * match on took strlen of the rest of the text (a text of many short paths
 * cost time in the square of its length). */
const char *td_local_next_path(const char *p, size_t *len)
{
    for (; *p; p++) {
        const char *stop, *q;
        if (*p == '/')
            stop = " \t\n\"':,()", q = p + 1;
        else if (((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z') && p[1] == ':' && p[2] == '\\')
            stop = "\t\n\"'", q = p + 3;
        else
            continue;
        size_t run = strcspn(q, stop);
        if (run == 0)
            continue;
        *len = (size_t)(q + run - p);
        return p;
    }
    return NULL;
}

/* Directories TEXT mentions (a traceback's File "..." lines, paths in the
 * message), as host paths, each once. */
static size_t mentioned_dirs(const char *text, const char *root, char dirs[][PATH_CAP], size_t cap)
{
    size_t n = 0, len = 0;
    for (const char *p = text; n < cap && (p = td_local_next_path(p, &len)) != NULL; p += len) {
        char path[PATH_CAP], host[PATH_CAP];
        put(path, sizeof path, "%.*s", (int)len, p);
        char *slash = strrchr(path, windows_path(path) ? '\\' : '/');
        if (!slash)
            continue;
        *slash = '\0';
        if (!host_of(path, root, host, sizeof host))
            continue;
        struct stat st;
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen |= strcmp(dirs[k], host) == 0;
        if (seen || stat(host, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        put(dirs[n++], PATH_CAP, "%s", host);
        /* A traceback through torch/__init__.py: what it loads is in torch/lib. */
        const char *base = strrchr(host, '/');
        char lib[PATH_CAP + 8];
        put(lib, sizeof lib, "%s/lib", host);
        if (n < cap && base && strcmp(base, "/torch") == 0 && stat(lib, &st) == 0 &&
            S_ISDIR(st.st_mode))
            put(dirs[n++], PATH_CAP, "%s", lib);
    }
    return n;
}

/* The files a scan has read (a library's names are links to one file: 461
 * names of /lib/x86_64-linux-gnu are 379 files). */
struct scanned {
    uint64_t dev[MAX_SCAN_FILES], ino[MAX_SCAN_FILES];
    size_t n;
};

/* Whether ST's file is one SEEN holds; records it when not (and SEEN has
 * room). A file without an inode number (Windows) is never known again. */
static bool read_before(struct scanned *seen, const struct stat *st)
{
    if (!st->st_ino)
        return false;
    for (size_t i = 0; i < seen->n; i++)
        if (seen->dev[i] == (uint64_t)st->st_dev && seen->ino[i] == (uint64_t)st->st_ino)
            return true;
    if (seen->n < MAX_SCAN_FILES) {
        seen->dev[seen->n] = (uint64_t)st->st_dev;
        seen->ino[seen->n++] = (uint64_t)st->st_ino;
    }
    return false;
}

/* Whether the ELF file at PATH needs NEED (a DT_NEEDED entry). Its headers
 * are read with pread into SCRATCH, kept from one file to the next, not
 * mapped and parsed whole: a scan reads up to MAX_SCAN_FILES files of a
 * directory, and a text that quotes ldd's output names the system's own
 * (1,500 files in /lib/x86_64-linux-gnu: mapping each took 24 ms of a
 * 1 KB text's answer). */
static bool elf_needs(const char *path, const char *need, struct td_header_scratch *scratch,
                      struct scanned *seen)
{
    int fd = td_open_file(path, NULL); /* a FIFO is refused, never waited on */
    if (fd < 0)
        return false;
    uint8_t head[4096];
    struct stat st;
    ssize_t n = 0;
    bool found = false;
    static const uint8_t magic[4] = {0x7f, 'E', 'L', 'F'};
    /* a file read under another name did not need NEED: the scan stops at
     * the first that does */
    if (fstat(fd, &st) == 0 && !read_before(seen, &st) && S_ISREG(st.st_mode) &&
        (n = pread(fd, head, sizeof head, 0)) >= (ssize_t)sizeof magic &&
        memcmp(head, magic, sizeof magic) == 0) {
        struct td_err err = {0};
        struct td_object *o =
            td_object_read_fd(fd, (uint64_t)st.st_size, (uint64_t)st.st_dev, (uint64_t)st.st_ino,
                              head, (size_t)n, false, scratch, path, NULL, &err);
        for (uint32_t i = 0; o && o->kind == TD_FILE_ELF && i < o->u.elf.needed_count; i++)
            found |= strcmp(o->u.elf.needed[i], need) == 0;
        td_object_free(o);
    }
    close(fd);
    return found;
}

bool td_local_requirer(const char *text, const char *root, const char *need, char *out, size_t cap)
{
    static char dirs[MAX_SCAN_DIRS][PATH_CAP];
    size_t n_dirs = mentioned_dirs(text, root, dirs, MAX_SCAN_DIRS);
    struct td_header_scratch scratch = {0};
    bool found = false;
    for (size_t d = 0; d < n_dirs && !found; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir)
            continue;
        struct dirent *e;
        static struct scanned files;
        files.n = 0;
        size_t seen = 0;
        while (!found && (e = readdir(dir)) && seen++ < MAX_SCAN_FILES) {
            if (!strstr(e->d_name, ".so") || strcmp(e->d_name, need) == 0)
                continue;
            char path[2 * PATH_CAP];
            put(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            if ((found = elf_needs(path, need, &scratch, &files)))
                put(out, cap, "%s", path);
        }
        closedir(dir);
    }
    td_header_scratch_free(&scratch);
    return found;
}

static struct td_local_note *note(struct td_local_notes *out, enum td_local_kind kind)
{
    if (out->n == TD_LOCAL_MAX_NOTES)
        return NULL;
    struct td_local_note *n = &out->items[out->n++];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    return n;
}

static void dir_of(const char *path, char *out, size_t cap)
{
    put(out, cap, "%s", path);
    char *s = strrchr(out, strchr(out, '\\') ? '\\' : '/');
    if (s)
        *s = '\0';
}

/* The first places the loader tried for E, as directories. */
static void places_tried(const struct td_edge *e, struct td_local_note *n)
{
    size_t shown = 0;
    for (size_t k = 0; k < e->res.n_probes && shown < MAX_SHOWN_DIRS; k++) {
        char d[PATH_CAP];
        const struct td_probe *p = &e->res.probes[k];
        if (!p->path)
            continue;
        if (p->rule == TD_RULE_LD_CACHE)
            put(d, sizeof d, "%s", p->path); /* the cache file, not its directory */
        else
            dir_of(p->path, d, sizeof d);
        if (strstr(n->tried, d))
            continue;
        size_t used = strlen(n->tried);
        put(n->tried + used, sizeof n->tried - used, "%s%s", shown ? ", " : "", d);
        shown++;
    }
    n->n_places = e->res.n_probes;
    n->more_places = e->res.n_probes > shown;
}

void td_local_missing(const struct td_graph *g, struct td_local_notes *out)
{
    for (size_t i = 0; i < g->n_edges; i++) {
        const struct td_edge *e = &g->edges[i];
        if (e->to || e->res.in_shared_cache || e->weak)
            continue;
        struct td_local_note *n = note(out, TD_LOCAL_MISSING);
        if (!n)
            return;
        put(n->library, sizeof n->library, "%s", e->name);
        put(n->needed_by, sizeof n->needed_by, "%s", e->from->name);
        n->delay = e->delay;
        places_tried(e, n);
    }
}

/* A loaded library that defines SYMBOL, into OUT; false when none does.
 * The graph's objects hold headers only (binding reads their tables with
 * pread): each is opened whole for the lookup. */
static bool loaded_definer(const struct td_graph *g, const char *symbol, char *out, size_t cap)
{
    uint32_t h = td_elf_gnu_hash(symbol);
    struct td_elf_sym sym;
    for (size_t i = 0; i < g->count; i++) {
        struct td_err ignore = {0};
        struct td_object *o =
            g->objects[i]->kind == TD_FILE_ELF
                ? td_object_open(g->objects[i]->host_path, g->objects[i]->path, NULL, &ignore)
                : NULL;
        bool defines =
            o && o->kind == TD_FILE_ELF && td_elf_lookup(&o->u.elf, symbol, h, NULL, &sym);
        if (defines)
            put(out, cap, "%s", o->path);
        td_object_free(o);
        if (defines)
            return true;
    }
    return false;
}

/* The directories of the closure's objects, each once. */
static size_t closure_dirs(const struct td_graph *g, char dirs[][PATH_CAP], size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < g->count && n < cap; i++) {
        char d[PATH_CAP];
        dir_of(g->objects[i]->host_path, d, sizeof d);
        bool seen = false;
        for (size_t k = 0; k < n; k++)
            seen |= strcmp(dirs[k], d) == 0;
        if (!seen)
            put(dirs[n++], PATH_CAP, "%s", d);
    }
    return n;
}

/* Another copy of NEED (by soname) in DIR that defines SYMBOL, other than
 * the one the loader took. */
static void other_copies(const struct td_object *root, const char *need,
                         const struct td_object *taken, const char *dir_path, const char *symbol,
                         const char *version, struct td_local_notes *out)
{
    uint32_t h = td_elf_gnu_hash(symbol);
    struct td_elf_sym sym;
    DIR *dir = opendir(dir_path);
    struct dirent *e;
    while (dir && (e = readdir(dir))) {
        char path[2 * PATH_CAP];
        put(path, sizeof path, "%s/%s", dir_path, e->d_name);
        if (taken && strcmp(path, taken->host_path) == 0)
            continue;
        struct td_err err = {0};
        struct td_object *o = strncmp(e->d_name, need, strlen(need) - 1) == 0
                                  ? td_object_open(path, NULL, NULL, &err)
                                  : NULL;
        struct td_local_note *n = NULL;
        if (o && o->kind == TD_FILE_ELF && o->identity && strcmp(o->identity, need) == 0 &&
            td_elf_lookup(&o->u.elf, symbol, h, NULL, &sym) &&
            (n = note(out, TD_LOCAL_NEWER_COPY))) {
            put(n->needed_by, sizeof n->needed_by, "%s", root->name);
            put(n->symbol, sizeof n->symbol, "%s", symbol);
            put(n->version, sizeof n->version, "%s", version ? version : "");
            put(n->other, sizeof n->other, "%s", path);
            put(n->library, sizeof n->library, "%s", taken ? taken->path : need);
        }
        td_object_free(o);
    }
    if (dir)
        closedir(dir);
}

void td_local_symbol(const struct td_graph *g, const char *symbol, const char *version,
                     struct td_local_notes *out)
{
    if (!symbol)
        return;
    struct td_local_note *n;
    char definer[PATH_CAP];
    if (loaded_definer(g, symbol, definer, sizeof definer)) {
        if ((n = note(out, TD_LOCAL_DEFINED_LOADED))) {
            put(n->library, sizeof n->library, "%s", definer);
            put(n->symbol, sizeof n->symbol, "%s", symbol);
        }
        return;
    }
    const struct td_object *root = g->count ? g->objects[0] : NULL;
    if (!root || root->kind != TD_FILE_ELF)
        return;
    static char dirs[MAX_SCAN_DIRS][PATH_CAP];
    size_t n_dirs = closure_dirs(g, dirs, MAX_SCAN_DIRS);
    /* Each direct need of the requirer, by name: is there a copy elsewhere that defines it? */
    for (uint32_t k = 0; k < root->u.elf.needed_count; k++) {
        const char *need = root->u.elf.needed[k];
        const struct td_object *taken = td_graph_find(g, need);
        for (size_t d = 0; d < n_dirs; d++)
            other_copies(root, need, taken, dirs[d], symbol, version, out);
    }
    if (out->n > 0 || !(n = note(out, TD_LOCAL_NO_DEFINER)))
        return;
    put(n->needed_by, sizeof n->needed_by, "%s", root->name);
    put(n->symbol, sizeof n->symbol, "%s", symbol);
    for (uint32_t k = 0; k < root->u.elf.needed_count; k++) {
        const struct td_object *o = td_graph_find(g, root->u.elf.needed[k]);
        size_t used = strlen(n->other);
        put(n->other + used, sizeof n->other - used, "%s%s (%s)", k ? ", " : "",
            root->u.elf.needed[k], o ? o->path : "not found");
    }
}

void td_local_not_analysed(const char *file, const char *why, struct td_local_notes *out)
{
    struct td_local_note *n = note(out, TD_LOCAL_NOT_ANALYSED);
    if (n) {
        put(n->library, sizeof n->library, "%s", file);
        put(n->other, sizeof n->other, "%s", why);
    }
}

/* "__version__ = '2.4.0'" in the file at PATH, into OUT. */
static bool version_in(const char *path, char *out, size_t cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) {
        const char *v = strncmp(line, "__version__", 11) == 0 ? strpbrk(line, "'\"") : NULL;
        if (!v)
            continue;
        size_t n = strcspn(v + 1, "'\"\n");
        if (n && n < cap) {
            memcpy(out, v + 1, n);
            out[n] = '\0';
            found = true;
        }
    }
    fclose(f);
    return found;
}

bool td_local_torch_version(const char *host_path, char *out, size_t cap)
{
    char dir[PATH_CAP], probe[PATH_CAP + 32];
    put(dir, sizeof dir, "%s", host_path);
    for (int up = 0; up < 6; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            return false;
        *slash = '\0';
        const char *name = strrchr(dir, '/');
        name = name ? name + 1 : dir;
        put(probe, sizeof probe, "%s/%s", dir,
            strcasecmp(name, "torch") == 0 ? "version.py" : "torch/version.py");
        if (version_in(probe, out, cap))
            return true;
    }
    return false;
}
