/* The Linux loader model: how glibc 2.36's ld.so turns a DT_NEEDED name into
 * a file (elf/dl-load.c _dl_map_object, ld.so(8)). One short function per
 * rule; the order is the `search_order` list below. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/compat.h"
#include "base/map.h"
#include "base/data.h"
#include "format/ldcache.h"
#include "loader/loader.h"

#define PATH_CAP 4096
#define MAX_SUBDIRS 40
#define MAX_SYSTEM_DIRS 8
#define MAX_CHAIN 1024

/* ELF identification values (gABI); the header is read here directly
 * because glibc's open_verify decides on these bytes alone. */
enum {
    EHDR32_SIZE = 52,
    EHDR64_SIZE = 64,
    EM_386 = 3,
    EM_X86_64 = 62,
    EM_AARCH64 = 183,
};

/* What depends on the process's machine: computed once per machine. */
struct machine_facts {
    const char *machine;              /* td_elf_arch slug; NULL until computed */
    const char *subdirs[MAX_SUBDIRS]; /* glibc-hwcaps and legacy subdirectories, best first */
    size_t n_subdirs;
    const char *system_dirs[MAX_SYSTEM_DIRS];
    size_t n_system_dirs;
    const char *lib_token; /* $LIB */
};

/* One name a loaded object answers to, or one file it was read from, with
 * the first object in load order that does: 8 bytes, as the index of a
 * 288-library closure holds over a thousand. */
struct answer_slot {
    uint32_t hash; /* of the name, or of the file's dev/ino */
    uint32_t ref;  /* (1 + index in the loaded list) << 4 | enum answer_kind; 0: empty */
};

/* Which of its object's names a slot stands for. */
enum answer_kind { ANSWER_PATH, ANSWER_NAME, ANSWER_IDENTITY, ANSWER_FILE, ANSWER_ALIAS };

/* The loaded list's names and files, hashed (open addressing): the
 * already-loaded rule and the same-file check look a name up here instead
 * of comparing it with every object loaded (1,250 lookups over 288
 * libraries were a fifth of `deps --no-symbols`). The list only grows
 * between calls (the graph appends); one that does not start with the
 * objects indexed, the same first and last, is indexed again from
 * scratch. An object's names are read when it joins the list; the one
 * kind of name that comes later is an alias for an object this model
 * found again as the same file under another name (ld.so's
 * add_name_to_object), so those objects are watched. */
struct answer_index {
    struct answer_slot *slots;
    size_t cap, used;                 /* cap a power of two, or 0 */
    size_t indexed;                   /* loaded objects [0, indexed) are in */
    struct td_object *const *objects; /* the loaded list, as of the last sync */
    const struct td_object *first, *last;
    struct answer_watch {
        size_t pos;    /* 1 + index in the loaded list */
        uint32_t seen; /* its aliases indexed */
    } * watch;
    size_t n_watch, watch_cap;
};

struct linux_state {
    struct td_arena arena;
    struct answer_index answers;
    struct td_map cache_map;
    struct td_ldcache cache;
    bool have_cache;
    char cache_error[600];
    const char *family; /* "debian" or "generic" (data/linux_default_dirs.tsv) */
    int x86_level;      /* 1..4 */
    /* Legacy hwcaps (glibc < 2.37): AT_PLATFORM and the important hwcap names. */
    const char *platform;
    const char *legacy_names[4]; /* "x86_64", "avx512_1" */
    size_t n_legacy_names;
    uint64_t legacy_hwcap_bits;       /* the same, as ld.so.cache hwcap bits */
    struct machine_facts facts;       /* for the last process machine seen */
    struct td_header_scratch scratch; /* td_object_read_fd */
};

/* One resolution in progress. */
struct search {
    struct td_loader *L;
    struct linux_state *S;
    struct td_object *requester;     /* glibc's `loader` (the main program for a preload) */
    const struct td_object *process; /* whose class/machine the process has */
    const char *name;
    const struct td_loaded *loaded;
    struct td_resolution *out;
    struct td_err *err;
    const struct machine_facts *f;
    bool stop;   /* ld.so stops here: found, or a fatal error */
    bool failed; /* the model itself failed (err set) */
};

enum step { NEXT, STOP };

/* ---------------------------------------------------------------- helpers */

static const char *elf_slug(const struct td_object *o)
{
    return o && o->kind == TD_FILE_ELF ? td_elf_arch(&o->u.elf) : "x86_64";
}

static bool is_x86_64(const struct td_object *o)
{
    return !o || (o->kind == TD_FILE_ELF && o->u.elf.machine == EM_X86_64 && o->u.elf.is64);
}

static bool has_flag_1(const struct td_object *o, uint64_t flag)
{
    return o && o->kind == TD_FILE_ELF && o->u.elf.dyn.has_flags_1 && (o->u.elf.dyn.flags_1 & flag);
}

static const char *rpath_of(const struct td_object *o)
{
    return o && o->kind == TD_FILE_ELF ? o->u.elf.rpath : NULL;
}

static const char *runpath_of(const struct td_object *o)
{
    return o && o->kind == TD_FILE_ELF ? o->u.elf.runpath : NULL;
}

/* glibc's main map is the executable; a dlopen'ed root is not one
 * (dl-load.c: main_map->l_type != lt_loaded). */
static bool is_program(const struct td_loader *L, const struct td_object *o)
{
    if (!o || o != L->main || o->kind != TD_FILE_ELF)
        return false;
    enum td_profile p = L->cfg->profile;
    if (p != TD_PROFILE_AUTO && p != TD_PROFILE_EXE)
        return false;
    return td_elf_is_program(&o->u.elf);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The target path of a host path under --root (realpath'd host paths). */
static void target_of_host(const struct td_loader *L, const char *host, char *out, size_t cap)
{
    char root[PATH_CAP];
    const char *r = L->cfg->root;
    if (r && realpath(r, root)) {
        size_t n = strlen(root);
        if (strncmp(host, root, n) == 0 && (host[n] == '/' || host[n] == '\0')) {
            snprintf(out, cap, "%s", host[n] ? host + n : "/");
            return;
        }
    }
    snprintf(out, cap, "%s", host);
}

/* $ORIGIN of O: for the program, the directory of its realpath (glibc
 * _dl_get_origin reads /proc/self/exe); for a library, the directory of
 * the name it was opened by, not resolved (elf/dl-object.c _dl_new_object):
 * a relative name after the working directory, links and ".." left as
 * they are. Checked with LD_DEBUG=libs and ldd through symlinks on glibc
 * 2.36. */
static bool origin_of(const struct td_loader *L, const struct td_object *o, char *out, size_t cap)
{
    char buf[PATH_CAP], host[PATH_CAP], cwd[PATH_CAP];
    if (!o)
        return false;
    if (is_program(L, o)) {
        if (!realpath(o->host_path, host))
            return false;
        target_of_host(L, host, buf, sizeof buf);
    } else if (o->path[0] != '/') {
        bool relative = o->host_path[0] != '/';
        if ((relative && !getcwd(cwd, sizeof cwd)) ||
            snprintf(host, sizeof host, "%s%s%s", relative ? cwd : "", relative ? "/" : "",
                     o->host_path) >= (int)sizeof host)
            return false;
        target_of_host(L, host, buf, sizeof buf);
    } else {
        snprintf(buf, sizeof buf, "%s", o->path);
    }
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    if (slash == buf)
        slash[1] = '\0'; /* "/foo" keeps its slash */
    else
        *slash = '\0';
    return snprintf(out, cap, "%s", buf) < (int)cap;
}

/* Length of the dynamic string token NAME at S (after the '$'), or 0
 * (elf/dl-load.c is_dst: "$NAME" must end at '/' or the end; "${NAME}"). */
static size_t is_dst(const char *s, const char *token)
{
    size_t n = strlen(token);
    if (s[0] == '{')
        return strncmp(s + 1, token, n) == 0 && s[1 + n] == '}' ? n + 2 : 0;
    if (strncmp(s, token, n) != 0)
        return 0;
    return s[n] == '\0' || s[n] == '/' ? n : 0;
}

/* Expands $ORIGIN, $LIB and $PLATFORM in IN for OWNER (elf/dl-load.c
 * _dl_dst_substitute). False when a known token has no value: glibc then
 * drops the whole element. An unknown "$X" stays as it is. */
static bool expand_dst(const struct search *s, const char *in, const struct td_object *owner,
                       char *out, size_t cap)
{
    size_t w = 0;
    for (const char *p = in; *p; p++) {
        const char *repl = NULL;
        char origin[PATH_CAP];
        size_t len = 0;
        if (*p == '$') {
            if ((len = is_dst(p + 1, "ORIGIN")) != 0)
                repl = origin_of(s->L, owner, origin, sizeof origin) ? origin : NULL;
            else if ((len = is_dst(p + 1, "PLATFORM")) != 0)
                repl = s->S->platform;
            else if ((len = is_dst(p + 1, "LIB")) != 0)
                repl = s->f->lib_token;
            if (len && !repl)
                return false;
        }
        if (repl) {
            size_t n = strlen(repl);
            if (w + n >= cap)
                return false;
            memcpy(out + w, repl, n);
            w += n;
            p += len;
        } else {
            if (w + 1 >= cap)
                return false;
            out[w++] = *p;
        }
    }
    out[w] = '\0';
    return true;
}

/* ------------------------------------------------------ trying one file */

/* Why glibc's open_verify would refuse the header in HDR (N bytes read),
 * or NULL when the file is a loadable object for this process. *FATAL
 * tells whether ld.so stops the whole search (it does for anything but
 * another class or machine: elf/dl-load.c open_verify "goto lose"). */
static const char *verify_header(const struct search *s, const uint8_t *hdr, size_t n,
                                 enum td_verdict *verdict, bool *fatal)
{
    const struct td_elf *want =
        s->process && s->process->kind == TD_FILE_ELF ? &s->process->u.elf : NULL;
    bool is64 = want ? want->is64 : true;
    bool big = want ? want->big_endian : false;
    uint16_t machine = want ? want->machine : EM_X86_64;
    size_t need = is64 ? EHDR64_SIZE : EHDR32_SIZE;
    *fatal = true;
    *verdict = TD_VERDICT_NOT_A_LIBRARY;
    if (n < need)
        return "file too short (ld.so stops here)";
    if (memcmp(hdr, "\177ELF", 4) != 0)
        return "invalid ELF header (ld.so stops here)";
    if (hdr[4] != (is64 ? 2 : 1)) {
        *fatal = false;
        *verdict = TD_VERDICT_WRONG_CLASS;
        return hdr[4] == 1 ? "ELFCLASS32" : hdr[4] == 2 ? "ELFCLASS64" : "bad ELF class";
    }
    if (hdr[5] != (big ? 2 : 1)) {
        *verdict = TD_VERDICT_WRONG_MACHINE;
        return big ? "ELF file data encoding not big-endian (ld.so stops here)"
                   : "ELF file data encoding not little-endian (ld.so stops here)";
    }
    uint16_t type = big ? (uint16_t)(hdr[16] << 8 | hdr[17]) : (uint16_t)(hdr[17] << 8 | hdr[16]);
    uint16_t mach = big ? (uint16_t)(hdr[18] << 8 | hdr[19]) : (uint16_t)(hdr[19] << 8 | hdr[18]);
    if (hdr[6] != 1)
        return "ELF file version ident does not match current one (ld.so stops here)";
    if (mach != machine) {
        *fatal = false;
        *verdict = TD_VERDICT_WRONG_MACHINE;
        return td_elf_machine_name(mach);
    }
    if (type != TD_ET_DYN && type != TD_ET_EXEC)
        return "only ET_DYN and ET_EXEC can be loaded (ld.so stops here)";
    return NULL;
}

/* ------------------------------------------- what is loaded already */

static uint64_t name_hash(const char *name)
{
    uint64_t h = UINT64_C(1469598103934665603); /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * UINT64_C(1099511628211);
    return h;
}

static uint64_t file_hash(uint64_t dev, uint64_t ino)
{
    uint64_t h = ino * UINT64_C(0x9e3779b97f4a7c15) ^ dev * UINT64_C(0xc2b2ae3d27d4eb4f);
    return h ^ h >> 32;
}

/* What a slot is compared with: a name, or (NAME NULL) a file. */
struct answer_key {
    const char *name;
    uint64_t dev, ino;
    uint32_t hash;
};

static struct answer_key name_key(const char *name)
{
    return (struct answer_key){name, 0, 0, (uint32_t)name_hash(name)};
}

static struct answer_key file_key(uint64_t dev, uint64_t ino)
{
    return (struct answer_key){NULL, dev, ino, (uint32_t)file_hash(dev, ino)};
}

/* The name of O that KIND stands for. */
static const char *answer_name(const struct td_object *o, unsigned kind)
{
    switch (kind) {
    case ANSWER_PATH:
        return o->path;
    case ANSWER_NAME:
        return o->name;
    case ANSWER_IDENTITY:
        return o->identity;
    default:
        return o->aliases[kind - ANSWER_ALIAS];
    }
}

static bool answer_matches(const struct answer_index *ix, struct answer_slot e,
                           const struct answer_key *k)
{
    const struct td_object *o = ix->objects[(e.ref >> 4) - 1];
    unsigned kind = e.ref & 15;
    if (e.hash != k->hash || (kind == ANSWER_FILE) != !k->name)
        return false;
    return k->name ? strcmp(answer_name(o, kind), k->name) == 0
                   : o->dev == k->dev && o->ino == k->ino;
}

/* The slot holding K, or the empty slot where it would go. */
static struct answer_slot *answer_slot(const struct answer_index *ix, const struct answer_key *k)
{
    size_t mask = ix->cap - 1;
    for (size_t i = k->hash & mask;; i = (i + 1) & mask) {
        struct answer_slot *e = &ix->slots[i];
        if (!e->ref || answer_matches(ix, *e, k))
            return e;
    }
}

/* Notes that loaded object POS - 1 answers to K as its name KIND, unless
 * an earlier object does. False when out of memory. */
static bool answer_add(struct answer_index *ix, struct answer_key k, unsigned kind, size_t pos)
{
    if (pos > UINT32_MAX >> 4)
        return false;
    if ((ix->used + 1) * 4 > ix->cap * 3) {
        size_t cap = ix->cap ? ix->cap * 2 : 256, mask = cap - 1;
        struct answer_slot *grown = calloc(cap, sizeof *grown);
        if (!grown)
            return false;
        for (size_t i = 0; i < ix->cap; i++) {
            if (!ix->slots[i].ref)
                continue;
            size_t at = ix->slots[i].hash & mask;
            while (grown[at].ref)
                at = (at + 1) & mask;
            grown[at] = ix->slots[i];
        }
        free(ix->slots);
        ix->slots = grown;
        ix->cap = cap;
    }
    struct answer_slot *e = answer_slot(ix, &k);
    uint32_t ref = (uint32_t)pos << 4 | kind;
    if (!e->ref)
        ix->used++;
    if (!e->ref || ref < e->ref) /* a late alias of an earlier object */
        *e = (struct answer_slot){k.hash, ref};
    return true;
}

/* Indexes O's aliases from FROM on; returns how many it has indexed, or
 * -1 when out of memory. */
static int answer_add_aliases(struct answer_index *ix, const struct td_object *o, uint32_t from,
                              size_t pos)
{
    uint32_t n = o->alias_count < 8 ? o->alias_count : 8;
    for (uint32_t i = from; i < n; i++)
        if (o->aliases[i] && !answer_add(ix, name_key(o->aliases[i]), ANSWER_ALIAS + i, pos))
            return -1;
    return (int)n;
}

/* Indexes O, loaded object POS - 1, under every name it answers to
 * (rule_already_loaded) and its file identity (loaded_by_file). */
static bool answer_add_object(struct answer_index *ix, const struct td_object *o, size_t pos)
{
    if (!o)
        return true;
    bool ok = answer_add(ix, name_key(o->path), ANSWER_PATH, pos);
    if (o->name)
        ok = ok && answer_add(ix, name_key(o->name), ANSWER_NAME, pos);
    if (o->kind == TD_FILE_ELF && o->identity)
        ok = ok && answer_add(ix, name_key(o->identity), ANSWER_IDENTITY, pos);
    if (o->dev || o->ino)
        ok = ok && answer_add(ix, file_key(o->dev, o->ino), ANSWER_FILE, pos);
    return ok && answer_add_aliases(ix, o, 0, pos) >= 0;
}

/* Brings the index up to LOADED (see struct answer_index). */
static bool answers_sync(struct answer_index *ix, const struct td_loaded *loaded)
{
    size_t count = loaded ? loaded->count : 0;
    if (ix->indexed && (count < ix->indexed || loaded->objects[0] != ix->first ||
                        loaded->objects[ix->indexed - 1] != ix->last)) {
        if (ix->cap)
            memset(ix->slots, 0, ix->cap * sizeof *ix->slots);
        ix->used = ix->indexed = ix->n_watch = 0;
    }
    ix->objects = loaded ? loaded->objects : NULL;
    for (size_t i = 0; i < ix->n_watch; i++) {
        struct answer_watch *w = &ix->watch[i];
        const struct td_object *o = loaded->objects[w->pos - 1];
        int seen = o->alias_count != w->seen ? answer_add_aliases(ix, o, w->seen, w->pos) : 0;
        if (seen < 0)
            return false;
        if (seen > 0)
            w->seen = (uint32_t)seen;
    }
    for (; ix->indexed < count; ix->indexed++)
        if (!answer_add_object(ix, loaded->objects[ix->indexed], ix->indexed + 1))
            return false;
    if (count) {
        ix->first = loaded->objects[0];
        ix->last = loaded->objects[count - 1];
    }
    return true;
}

/* The position (1 + index) of the first loaded object that answers to
 * NAME, or (NAME NULL) that was read from the file DEV/INO; 0 when none. */
static size_t answer_find(const struct answer_index *ix, const char *name, uint64_t dev,
                          uint64_t ino)
{
    if (!ix->cap || (!name && !dev && !ino))
        return 0;
    struct answer_key k = name ? name_key(name) : file_key(dev, ino);
    return answer_slot(ix, &k)->ref >> 4;
}

/* An object already loaded from the same file (_dl_file_id_match_p),
 * watched from here on for the alias a caller may give it. NULL when none
 * is, or when out of memory (S->failed). */
static struct td_object *loaded_by_file(struct search *s, uint64_t dev, uint64_t ino)
{
    struct answer_index *ix = &s->S->answers;
    size_t pos = answer_find(ix, NULL, dev, ino);
    if (!pos)
        return NULL;
    struct td_object *o = s->loaded->objects[pos - 1];
    for (size_t i = 0; i < ix->n_watch; i++)
        if (ix->watch[i].pos == pos)
            return o;
    if (ix->n_watch == ix->watch_cap) {
        size_t cap = ix->watch_cap ? ix->watch_cap * 2 : 8;
        struct answer_watch *grown = realloc(ix->watch, cap * sizeof *grown);
        if (!grown) {
            td_err_set(s->err, "out of memory indexing the loaded objects");
            s->failed = s->stop = true;
            return NULL;
        }
        ix->watch = grown;
        ix->watch_cap = cap;
    }
    ix->watch[ix->n_watch++] = (struct answer_watch){pos, o->alias_count < 8 ? o->alias_count : 8};
    return o;
}

/* A link-time stub such as the CUDA toolkit's lib64/stubs/libcuda.so: it
 * sits in a "stubs" directory (CUDA Toolkit layout, toolchain-notes.md). */
static bool looks_like_stub(const char *path)
{
    return strstr(path, "/stubs/") != NULL || strncmp(path, "stubs/", 6) == 0;
}

static void take(struct search *s, struct td_object *o, bool newly, enum td_rule rule,
                 const char *origin)
{
    s->out->object = o;
    s->out->newly_opened = newly;
    s->out->rule = rule;
    s->out->origin = origin;
    s->stop = true;
}

static void add_probe(struct search *s, const char *path, enum td_rule rule, const char *origin,
                      enum td_verdict verdict, const char *detail)
{
    if (!td_probe_add(s->L, s->out, path, rule, origin, verdict, detail)) {
        td_err_set(s->err, "out of memory recording a probe");
        s->failed = s->stop = true;
    }
}

enum { KEEP_FDS_BELOW = 768 };

/* Tries TARGET (a target path) the way open_verify and
 * _dl_map_object_from_fd do: skip another class or machine, stop on a
 * file that is not a loadable object, reuse an object already loaded
 * from the same file (dev/ino: _dl_file_id_match_p). */
static enum step try_file(struct search *s, const char *target, enum td_rule rule,
                          const char *origin)
{
    char host[PATH_CAP];
    if (!td_host_path(s->L->cfg, target, host, sizeof host)) {
        add_probe(s, target, rule, origin, TD_VERDICT_UNREADABLE, "path too long");
        return s->stop ? STOP : NEXT;
    }
    int fd = td_open_file(host, NULL); /* a FIFO is refused, never waited on */
    if (fd < 0) {
        bool absent = errno == ENOENT || errno == ENOTDIR;
        add_probe(s, target, rule, origin, absent ? TD_VERDICT_ABSENT : TD_VERDICT_UNREADABLE,
                  absent            ? NULL
                  : errno == EINVAL ? "not a regular file"
                                    : strerror(errno));
        return s->stop ? STOP : NEXT;
    }
    uint8_t hdr[4096]; /* a page: usually all the program headers too */
    ssize_t n = pread(fd, hdr, sizeof hdr, 0);
    struct stat st;
    bool have_stat = fstat(fd, &st) == 0;
    if (have_stat && S_ISDIR(st.st_mode)) {
        close(fd);
        add_probe(s, target, rule, origin, TD_VERDICT_ABSENT, "a directory");
        return s->stop ? STOP : NEXT;
    }
    enum td_verdict verdict;
    bool fatal;
    const char *why = verify_header(s, hdr, n > 0 ? (size_t)n : 0, &verdict, &fatal);
    if (why) {
        close(fd);
        add_probe(s, target, rule, origin, verdict, why);
        if (fatal)
            s->stop = true;
        return s->stop ? STOP : NEXT;
    }
    struct td_object *same = have_stat ? loaded_by_file(s, st.st_dev, st.st_ino) : NULL;
    if (s->failed) {
        close(fd);
        return STOP;
    }
    if (same) {
        close(fd);
        char detail[PATH_CAP + 64];
        snprintf(detail, sizeof detail, "the same file as %s, already loaded", same->path);
        add_probe(s, target, rule, origin, TD_VERDICT_FOUND, detail);
        take(s, same, false, rule, origin);
        return STOP;
    }
    struct td_err oerr = {0};
    /* Read from the descriptor already open, not opened and examined a
     * second time (288 libraries: 576 fewer openat and stat calls). */
    struct td_object *o =
        have_stat && S_ISREG(st.st_mode)
            ? td_object_read_fd(fd, (uint64_t)st.st_size, (uint64_t)st.st_dev, (uint64_t)st.st_ino,
                                hdr, n > 0 ? (size_t)n : 0, !s->L->cfg->headers_only,
                                &s->S->scratch, host, target, &oerr)
            : td_object_open(host, target, NULL, &oerr);
    if (!o) {
        /* Past open_verify, a file ld.so cannot map is an error that ends
         * the search (_dl_map_object_from_fd). */
        close(fd);
        add_probe(s, target, rule, origin, TD_VERDICT_UNREADABLE, oerr.msg);
        s->stop = true;
        return STOP;
    }
    /* Symbol binding reads the tables next: the descriptor is kept for it
     * (288 fewer openat), below the usual limit of 1024 open files. */
    if (o && !s->L->cfg->headers_only && o->fd < 0 && fd < KEEP_FDS_BELOW)
        o->fd = fd;
    else
        close(fd);
    o->name = td_arena_strdup(&o->arena, s->name);
    o->is_stub = looks_like_stub(target);
    add_probe(s, target, rule, origin, TD_VERDICT_FOUND,
              o->is_stub ? "a link-time stub (stubs/ directory), not the real library" : NULL);
    take(s, o, true, rule, origin);
    return STOP;
}

/* Tries NAME in DIR's glibc-hwcaps and legacy hwcaps subdirectories, then
 * in DIR itself (elf/dl-load.c open_path over r_search_path_elem, whose
 * subdirectories come from elf/dl-hwcaps.c _dl_important_hwcaps). A
 * subdirectory that does not exist is not listed: ld.so marks it
 * nonexisting and stops trying it. */
static enum step try_dir(struct search *s, const char *dir, enum td_rule rule, const char *origin)
{
    char path[PATH_CAP], host[PATH_CAP];
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/')
        len--; /* dl-load.c fillin_rpath removes trailing slashes */
    for (size_t i = 0; i <= s->f->n_subdirs; i++) {
        const char *sub = i < s->f->n_subdirs ? s->f->subdirs[i] : NULL;
        if (sub) {
            snprintf(path, sizeof path, "%.*s/%s", (int)len, dir, sub);
            struct stat st;
            if (!td_host_path(s->L->cfg, path, host, sizeof host) || stat(host, &st) != 0 ||
                !S_ISDIR(st.st_mode))
                continue;
        }
        int n = sub ? snprintf(path, sizeof path, "%.*s/%s/%s", (int)len, dir, sub, s->name)
                    : snprintf(path, sizeof path, "%.*s%s%s", (int)len, dir,
                               len && dir[len - 1] == '/' ? "" : "/", s->name);
        if (n < 0 || (size_t)n >= sizeof path)
            continue;
        if (try_file(s, path, rule, origin) == STOP)
            return STOP;
    }
    return NEXT;
}

/* Searches a colon-separated list (DT_RPATH, DT_RUNPATH, LD_LIBRARY_PATH)
 * owned by OWNER (for $ORIGIN). LD_LIBRARY_PATH also splits at ';' and an
 * empty element means the current directory (ld.so(8)). Repeated
 * directories are searched once (dl-load.c fillin_rpath). */
static enum step try_list(struct search *s, const char *list, const char *seps,
                          const struct td_object *owner, enum td_rule rule, const char *origin)
{
    char elem[PATH_CAP], dir[PATH_CAP];
    char seen[16][PATH_CAP / 16];
    size_t n_seen = 0;
    const char *p = list;
    for (;;) {
        size_t n = strcspn(p, seps);
        snprintf(elem, sizeof elem, "%.*s", (int)n, p);
        if (n == 0)
            snprintf(elem, sizeof elem, "./");
        if (!expand_dst(s, elem, owner, dir, sizeof dir)) {
            add_probe(s, elem, rule, origin, TD_VERDICT_SKIPPED,
                      "a dynamic string token without a value: ld.so drops the element");
        } else {
            bool dup = false;
            for (size_t i = 0; i < n_seen && !dup; i++)
                dup = strcmp(seen[i], dir) == 0;
            if (!dup && n_seen < 16 && strlen(dir) < sizeof seen[0])
                memcpy(seen[n_seen++], dir, strlen(dir) + 1);
            if (!dup && try_dir(s, dir, rule, origin) == STOP)
                return STOP;
        }
        if (s->stop)
            return STOP;
        if (p[n] == '\0')
            break;
        p += n + 1;
    }
    return NEXT;
}

/* ------------------------------------------------------------ the rules */

/* A loaded object answers to the names it was loaded by, its path, its
 * DT_SONAME and its aliases (elf/dl-load.c _dl_map_object:
 * _dl_name_match_p, l_soname): the first in load order that does is
 * taken. The names are indexed by answer_add_object. */
static enum step rule_already_loaded(struct search *s)
{
    size_t pos = answer_find(&s->S->answers, s->name, 0, 0);
    if (pos) {
        struct td_object *o = s->loaded->objects[pos - 1];
        add_probe(s, o->path, TD_RULE_ALREADY_LOADED, NULL, TD_VERDICT_FOUND,
                  o->identity && strcmp(o->identity, s->name) == 0 ? "by DT_SONAME" : "by name");
        take(s, o, false, TD_RULE_ALREADY_LOADED, NULL);
        return STOP;
    }
    /* ld.so itself (the program's PT_INTERP) is in the namespace before any
     * library, under its PT_INTERP path and its soname (elf/rtld.c
     * _dl_rtld_libname). */
    const struct td_object *main = s->L->main;
    if (is_program(s->L, main) && main->u.elf.interp &&
        (strcmp(main->u.elf.interp, s->name) == 0 ||
         strcmp(base_name(main->u.elf.interp), s->name) == 0)) {
        size_t before = s->out->n_probes;
        try_file(s, main->u.elf.interp, TD_RULE_ALREADY_LOADED, NULL);
        if (s->out->object && s->out->n_probes > before)
            s->out->probes[s->out->n_probes - 1].detail = "the dynamic loader (PT_INTERP)";
        return s->out->object ? STOP : NEXT;
    }
    return NEXT;
}

/* A name with a slash is a path, relative to the process's current
 * directory, after $ORIGIN/$LIB/$PLATFORM expansion (ld.so(8); dl-load.c
 * _dl_map_object "if (strchr (name, '/') == NULL) ... else"). */
static enum step rule_path_in_name(struct search *s)
{
    if (!strchr(s->name, '/'))
        return NEXT;
    char path[PATH_CAP], rel[PATH_CAP * 2];
    if (!expand_dst(s, s->name, s->requester, path, sizeof path)) {
        add_probe(s, s->name, TD_RULE_PATH_IN_NAME, NULL, TD_VERDICT_SKIPPED,
                  "a dynamic string token without a value");
        s->stop = true;
        return STOP;
    }
    if (path[0] != '/' && s->L->cfg->cwd) {
        snprintf(rel, sizeof rel, "%s/%s", s->L->cfg->cwd, path);
        if (strlen(rel) >= sizeof path) {
            add_probe(s, rel, TD_RULE_PATH_IN_NAME, NULL, TD_VERDICT_UNREADABLE, "path too long");
            s->stop = true;
            return STOP;
        }
        memcpy(path, rel, strlen(rel) + 1);
    }
    try_file(s, path, TD_RULE_PATH_IN_NAME, NULL);
    s->stop = true; /* no search for a name with a slash */
    return STOP;
}

/* DT_RPATH of the requester, then of whoever loaded it, up to the root,
 * unless the requester has DT_RUNPATH; an object with DT_RUNPATH has no
 * DT_RPATH at all (dl-load.c _dl_map_object; elf/get-dynamic-info.h drops
 * DT_RPATH when DT_RUNPATH is present). */
static enum step rule_rpath_chain(struct search *s)
{
    if (runpath_of(s->requester)) {
        if (rpath_of(s->requester))
            add_probe(s, rpath_of(s->requester), TD_RULE_RPATH, s->requester->path,
                      TD_VERDICT_SKIPPED, "DT_RUNPATH present: DT_RPATH is ignored");
        return NEXT;
    }
    size_t hops = 0;
    for (const struct td_object *l = s->requester; l && hops < MAX_CHAIN; l = l->loader, hops++) {
        if (!rpath_of(l))
            continue;
        if (runpath_of(l)) {
            add_probe(s, rpath_of(l), TD_RULE_RPATH, l->path, TD_VERDICT_SKIPPED,
                      "DT_RUNPATH present: this object's DT_RPATH is ignored");
            continue;
        }
        if (try_list(s, rpath_of(l), ":", l, TD_RULE_RPATH, l->path) == STOP)
            return STOP;
    }
    return NEXT;
}

/* "If dynamically linked, try the DT_RPATH of the executable itself"
 * (dl-load.c), when the loader chain did not reach it. */
static enum step rule_rpath_main(struct search *s)
{
    const struct td_object *main = s->L->main;
    if (runpath_of(s->requester) || !is_program(s->L, main) || !rpath_of(main) || runpath_of(main))
        return NEXT;
    size_t hops = 0;
    for (const struct td_object *l = s->requester; l && hops < MAX_CHAIN; l = l->loader, hops++)
        if (l == main)
            return NEXT;
    return try_list(s, rpath_of(main), ":", main, TD_RULE_RPATH, main->path);
}

/* LD_LIBRARY_PATH, its tokens expanded for the program (elf/dl-load.c
 * _dl_init_paths uses the main map). Secure-execution mode is not modelled. */
static enum step rule_ld_library_path(struct search *s)
{
    const char *v = td_config_env(s->L->cfg, "LD_LIBRARY_PATH");
    if (!v || !*v)
        return NEXT;
    const struct td_object *main = is_program(s->L, s->L->main) ? s->L->main : NULL;
    return try_list(s, v, ":;", main, TD_RULE_LD_LIBRARY_PATH, NULL);
}

/* --search-dir: extra directories searched as if appended to
 * LD_LIBRARY_PATH (torchdoctor's own option, not a glibc rule). */
static enum step rule_search_dirs(struct search *s)
{
    for (size_t i = 0; i < s->L->cfg->n_search_dirs; i++)
        if (try_dir(s, s->L->cfg->search_dirs[i], TD_RULE_SEARCH_DIR, NULL) == STOP)
            return STOP;
    return NEXT;
}

/* DT_RUNPATH of the requester only: "searched only to find those objects
 * required by DT_NEEDED (direct dependencies)" (ld.so(8)). */
static enum step rule_runpath(struct search *s)
{
    if (!runpath_of(s->requester))
        return NEXT;
    return try_list(s, runpath_of(s->requester), ":", s->requester, TD_RULE_RUNPATH,
                    s->requester->path);
}

/* The object whose DF_1_NODEFLIB counts: `loader ?: main map` (dl-load.c). */
static bool nodeflib(const struct search *s)
{
    return has_flag_1(s->requester ? s->requester : s->L->main, TD_DF_1_NODEFLIB);
}

static bool in_system_dir(const struct search *s, const char *path)
{
    for (size_t i = 0; i < s->f->n_system_dirs; i++)
        if (strncmp(path, s->f->system_dirs[i], strlen(s->f->system_dirs[i])) == 0)
            return true;
    return false;
}

static void cache_query(const struct search *s, struct td_ldcache_query *q)
{
    static const char *const levels[] = {"x86-64-v4", "x86-64-v3", "x86-64-v2"};
    const struct td_object *p = s->process;
    memset(q, 0, sizeof *q);
    q->soname = s->name;
    if (!p || p->kind != TD_FILE_ELF ||
        !td_ldcache_abi_for_elf(p->u.elf.is64 ? 2 : 1, p->u.elf.machine, p->u.elf.flags, &q->abi))
        td_ldcache_abi_for_elf(2, EM_X86_64, 0, &q->abi);
    if (is_x86_64(p)) {
        int level = s->S->x86_level;
        size_t first = level >= 4 ? 0 : level == 3 ? 1 : level == 2 ? 2 : 3;
        q->hwcaps = levels + first;
        q->hwcaps_count = 3 - first;
        q->check_isa_level = true;
        q->isa_levels = (1u << level) - 1;
    }
    /* 2.33-2.36 accept legacy entries whose bits are within
     * (AT_HWCAP & hwcap_mask) | platform | "tls" (elf/dl-cache.c). */
    q->hwcap_allowed = TD_LDCACHE_HWCAP_TLS | s->S->legacy_hwcap_bits;
}

/* /etc/ld.so.cache (elf/dl-cache.c _dl_load_cache_lookup). With
 * DF_1_NODEFLIB an answer inside a default directory is not used, but one
 * elsewhere still is (dl-load.c: "If the loader has the DF_1_NODEFLIB flag
 * set we must not use a cache entry from any of these directories"). */
static enum step rule_ld_cache(struct search *s)
{
    if (!s->S->have_cache) {
        add_probe(s, "/etc/ld.so.cache", TD_RULE_LD_CACHE, NULL, TD_VERDICT_ABSENT,
                  s->S->cache_error[0] ? s->S->cache_error : NULL);
        return NEXT;
    }
    struct td_ldcache_query q;
    struct td_ldcache_result r;
    struct td_err cerr = {0};
    cache_query(s, &q);
    if (td_ldcache_lookup(&s->S->cache, &q, &r, &cerr) != 0) {
        add_probe(s, "/etc/ld.so.cache", TD_RULE_LD_CACHE, NULL, TD_VERDICT_UNREADABLE, cerr.msg);
        return NEXT;
    }
    if (r.first == r.end) {
        add_probe(s, "/etc/ld.so.cache", TD_RULE_LD_CACHE, NULL, TD_VERDICT_ABSENT,
                  "no entry for this name");
        return NEXT;
    }
    for (uint32_t i = r.first; i < r.end; i++) {
        struct td_ldcache_entry e;
        enum td_ldcache_verdict v;
        char detail[512], desc[256];
        if (td_ldcache_candidate(&s->S->cache, &q, &r, i, &e, &v, &cerr) != 0)
            continue;
        if (v != TD_LDCACHE_CHOSEN) {
            td_ldcache_describe(&e, desc, sizeof desc); /* only for the probe's detail */
            snprintf(detail, sizeof detail, "cache entry (%s): %s", desc,
                     td_ldcache_verdict_name(v));
            add_probe(s, e.path ? e.path : "?", TD_RULE_LD_CACHE, NULL,
                      v == TD_LDCACHE_WRONG_FLAGS ? TD_VERDICT_WRONG_CLASS : TD_VERDICT_SKIPPED,
                      detail);
        } else if (nodeflib(s) && in_system_dir(s, e.path)) {
            add_probe(s, e.path, TD_RULE_LD_CACHE, NULL, TD_VERDICT_SKIPPED,
                      "DF_1_NODEFLIB: a cache answer in a default directory is not used");
        } else if (try_file(s, e.path, TD_RULE_LD_CACHE, NULL) == STOP) {
            return STOP;
        }
        if (s->stop)
            return STOP;
    }
    return NEXT;
}

/* The built-in directories (data/linux_default_dirs.tsv), unless the
 * requester (or, for a preload, the program) has DF_1_NODEFLIB. */
static enum step rule_default_dirs(struct search *s)
{
    for (size_t i = 0; i < s->f->n_system_dirs; i++) {
        if (nodeflib(s)) {
            add_probe(s, s->f->system_dirs[i], TD_RULE_DEFAULT_DIR, NULL, TD_VERDICT_SKIPPED,
                      "DF_1_NODEFLIB: default directories are not searched");
            continue;
        }
        if (try_dir(s, s->f->system_dirs[i], TD_RULE_DEFAULT_DIR, NULL) == STOP)
            return STOP;
    }
    return NEXT;
}

/* glibc 2.36 _dl_map_object, in order. */
static enum step (*const search_order[])(struct search *) = {
    rule_already_loaded,  /* _dl_name_match_p / l_soname over the namespace */
    rule_path_in_name,    /* a slash: the name is the path */
    rule_rpath_chain,     /* DT_RPATH: requester, its loader, ... (no DT_RUNPATH) */
    rule_rpath_main,      /* DT_RPATH of the executable */
    rule_ld_library_path, /* LD_LIBRARY_PATH */
    rule_search_dirs,     /* --search-dir (an extension of LD_LIBRARY_PATH) */
    rule_runpath,         /* DT_RUNPATH of the requester */
    rule_ld_cache,        /* /etc/ld.so.cache */
    rule_default_dirs,    /* the built-in system directories */
};

/* ------------------------------------------------- per-target set-up */

/* The x86-64 ISA level of this CPU (glibc sysdeps/x86/get-isa-level.h:
 * v2 = CMPXCHG16B LAHF POPCNT SSE3 SSE4_1 SSE4_2 SSSE3; v3 adds AVX AVX2
 * BMI1 BMI2 F16C FMA LZCNT MOVBE; v4 AVX512F BW CD DQ VL), from
 * /proc/cpuinfo's flags ("abm" is LZCNT; some hypervisors hide it, so v3
 * does not require it when every other v3 flag is there). */
static int cpu_x86_level(const char *flags)
{
    static const char *const v2[] = {"cx16",   "lahf_lm", "popcnt", "pni",
                                     "sse4_1", "sse4_2",  "ssse3"};
    static const char *const v3[] = {"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "movbe"};
    static const char *const v4[] = {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"};
    const char *const *sets[] = {v2, v3, v4};
    const size_t counts[] = {7, 7, 5};
    int level = 1;
    for (int l = 0; l < 3; l++) {
        for (size_t i = 0; i < counts[l]; i++) {
            char word[32];
            snprintf(word, sizeof word, " %s ", sets[l][i]);
            if (!strstr(flags, word))
                return level;
        }
        level++;
    }
    return level;
}

static bool has_cpu_flag(const char *flags, const char *flag)
{
    char word[32];
    snprintf(word, sizeof word, " %s ", flag);
    return strstr(flags, word) != NULL;
}

/* Reads this CPU's flags and vendor; false when /proc/cpuinfo is unreadable. */
static bool read_cpuinfo(char *flags, size_t cap, bool *intel)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    bool got = false;
    *intel = false;
    if (!f)
        return false;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "vendor_id", 9) == 0 && strstr(line, "GenuineIntel"))
            *intel = true;
        if (!got && strncmp(line, "flags", 5) == 0) {
            const char *colon = strchr(line, ':');
            snprintf(flags, cap, " %s", colon ? colon + 1 : "");
            for (char *p = flags; *p; p++)
                if (*p == '\n' || *p == '\t')
                    *p = ' ';
            size_t n = strlen(flags);
            if (n + 1 < cap)
                flags[n] = ' ', flags[n + 1] = '\0';
            got = true;
        }
    }
    fclose(f);
    return got;
}

/* The ISA level and the legacy hwcaps/platform of the target CPU. With an
 * explicit x86_level the CPU is not this one: generic platform "x86_64".
 * For this CPU, glibc 2.26-2.36 sysdeps/x86/cpu-features.c sets AT_PLATFORM
 * to "haswell" (or "xeon_phi") on Intel CPUs with AVX2 FMA BMI1 BMI2 LZCNT
 * MOVBE POPCNT, and the hwcap "avx512_1" with AVX512CD BW DQ VL. */
static void setup_cpu(struct linux_state *S, int configured)
{
    char flags[8192];
    bool intel = false;
    S->platform = "x86_64";
    S->legacy_names[0] = "x86_64"; /* HWCAP_X86_64, dl-hwcap.h bit 1 */
    S->n_legacy_names = 1;
    S->legacy_hwcap_bits = UINT64_C(1) << 1;
    if (configured >= 1 && configured <= 4) {
        S->x86_level = configured;
        return;
    }
    if (!read_cpuinfo(flags, sizeof flags, &intel)) {
        S->x86_level = 1;
        return;
    }
    S->x86_level = cpu_x86_level(flags);
    if (!intel)
        return;
    bool avx512 = has_cpu_flag(flags, "avx512cd");
    if (avx512 && has_cpu_flag(flags, "avx512er") && has_cpu_flag(flags, "avx512pf")) {
        S->platform = "xeon_phi";
        S->legacy_hwcap_bits |= UINT64_C(1) << (48 + 3); /* _DL_FIRST_PLATFORM + index */
        return;
    }
    if (avx512 && !has_cpu_flag(flags, "avx512er") && has_cpu_flag(flags, "avx512bw") &&
        has_cpu_flag(flags, "avx512dq") && has_cpu_flag(flags, "avx512vl")) {
        S->legacy_names[S->n_legacy_names++] = "avx512_1";
        S->legacy_hwcap_bits |= UINT64_C(1) << 2;
    }
    if (S->x86_level >= 3 && has_cpu_flag(flags, "abm")) {
        S->platform = "haswell";
        S->legacy_hwcap_bits |= UINT64_C(1) << (48 + 2);
    }
}

/* The distribution family of the target: Debian-like (multiarch) when its
 * os-release says so or its multiarch directory exists, else glibc's generic. */
static const char *detect_family(const struct td_loader_config *cfg)
{
    char host[PATH_CAP], line[512];
    FILE *f = NULL;
    if (td_host_path(cfg, "/etc/os-release", host, sizeof host))
        f = fopen(host, "r");
    if (!f && td_host_path(cfg, "/usr/lib/os-release", host, sizeof host))
        f = fopen(host, "r");
    bool debian = false;
    while (f && fgets(line, sizeof line, f))
        if ((strncmp(line, "ID=", 3) == 0 || strncmp(line, "ID_LIKE=", 8) == 0) &&
            (strstr(line, "debian") || strstr(line, "ubuntu")))
            debian = true;
    if (f)
        fclose(f);
    struct stat st;
    if (!debian && td_host_path(cfg, "/usr/lib/x86_64-linux-gnu", host, sizeof host) &&
        stat(host, &st) == 0 && S_ISDIR(st.st_mode))
        debian = true;
    return debian ? "debian" : "generic";
}

/* Fills the system directories and $LIB for the process's machine from
 * data/linux_default_dirs.tsv. */
static int load_default_dirs(struct linux_state *S, struct machine_facts *f, struct td_err *err)
{
    size_t len;
    const char *text = td_data_table("linux_default_dirs", &len);
    if (!text) {
        td_err_set(err, "data/linux_default_dirs.tsv is not in this build");
        return -1;
    }
    struct td_tsv t;
    char line[1024];
    const char *cells[8];
    int c[5] = {-1, -1, -1, -1, -1};
    static const char *const cols[5] = {"family", "machine", "kind", "order", "value"};
    td_tsv_open(&t, text, len);
    int n = td_tsv_next(&t, line, sizeof line, cells, 8);
    for (int i = 0; i < 5; i++)
        c[i] = td_tsv_column(cells, n, cols[i]);
    for (int i = 0; i < 5; i++)
        if (c[i] < 0) {
            td_err_set(err, "data/linux_default_dirs.tsv: no column %s", cols[i]);
            return -1;
        }
    while ((n = td_tsv_next(&t, line, sizeof line, cells, 8)) >= 0) {
        if (n <= c[4] || strcmp(cells[c[0]], S->family) != 0 ||
            strcmp(cells[c[1]], f->machine) != 0)
            continue;
        const char *v = td_arena_strdup(&S->arena, cells[c[4]]);
        if (!v) {
            td_err_set(err, "out of memory");
            return -1;
        }
        if (strcmp(cells[c[2]], "lib_token") == 0)
            f->lib_token = v;
        else if (strcmp(cells[c[2]], "system_dir") == 0 && f->n_system_dirs < MAX_SYSTEM_DIRS)
            f->system_dirs[f->n_system_dirs++] = v; /* rows are written in order */
    }
    return 0;
}

/* The subdirectories tried in every directory, best first. glibc-hwcaps
 * (2.33+, elf/dl-hwcaps.c; x86-64 levels from sysdeps/x86_64/dl-hwcaps-subdirs.c)
 * then, until 2.37, the legacy ones: every combination of "tls", the
 * important hwcap names and the platform, longest first. Debian 12's
 * glibc 2.36 prints for x86_64 with LD_DEBUG=libs: glibc-hwcaps/x86-64-v4,
 * v3, v2, tls/x86_64/x86_64, tls/x86_64 (twice), tls, x86_64/x86_64,
 * x86_64 (twice), then the directory. Other machines: not modelled. */
static int build_subdirs(struct linux_state *S, bool x86_64, struct machine_facts *f,
                         struct td_err *err)
{
    static const char *const levels[] = {"glibc-hwcaps/x86-64-v4", "glibc-hwcaps/x86-64-v3",
                                         "glibc-hwcaps/x86-64-v2"};
    if (!x86_64)
        return 0;
    for (int l = 4; l >= 2; l--)
        if (S->x86_level >= l)
            f->subdirs[f->n_subdirs++] = levels[4 - l];
    const char *parts[6];
    size_t np = 0;
    parts[np++] = "tls";
    for (size_t i = 0; i < S->n_legacy_names; i++)
        parts[np++] = S->legacy_names[i];
    parts[np++] = S->platform;
    for (unsigned mask = (1u << np) - 1; mask > 0 && f->n_subdirs < MAX_SUBDIRS; mask--) {
        char buf[128] = "";
        for (size_t i = 0; i < np; i++)
            if (mask & (1u << (np - 1 - i))) {
                size_t used = strlen(buf);
                snprintf(buf + used, sizeof buf - used, "%s%s", used ? "/" : "", parts[i]);
            }
        const char *sub = td_arena_strdup(&S->arena, buf);
        if (!sub) {
            td_err_set(err, "out of memory");
            return -1;
        }
        f->subdirs[f->n_subdirs++] = sub;
    }
    return 0;
}

/* The facts for the process's machine, computed on first use. */
static const struct machine_facts *facts_for(struct linux_state *S, const struct td_object *process,
                                             struct td_err *err)
{
    const char *machine = elf_slug(process);
    struct machine_facts *f = &S->facts;
    if (f->machine && strcmp(f->machine, machine) == 0)
        return f;
    memset(f, 0, sizeof *f);
    f->machine = machine;
    if (load_default_dirs(S, f, err) != 0 || build_subdirs(S, is_x86_64(process), f, err) != 0) {
        f->machine = NULL;
        return NULL;
    }
    return f;
}

static int init(struct td_loader *L, struct td_err *err)
{
    struct linux_state *S = calloc(1, sizeof *S);
    if (!S) {
        td_err_set(err, "out of memory");
        return -1;
    }
    L->state = S;
    S->family = detect_family(L->cfg);
    setup_cpu(S, L->cfg->x86_level);
    char host[PATH_CAP];
    struct td_err cerr = {0};
    if (td_host_path(L->cfg, "/etc/ld.so.cache", host, sizeof host) &&
        td_map_open(host, &S->cache_map, &cerr) == 0) {
        if (td_ldcache_parse(&S->cache, S->cache_map.data, S->cache_map.size, &S->arena, &cerr) ==
            0)
            S->have_cache = true;
        else
            snprintf(S->cache_error, sizeof S->cache_error, "ld.so ignores it: %s", cerr.msg);
    }
    return 0;
}

static void fini(struct td_loader *L)
{
    struct linux_state *S = L->state;
    if (!S)
        return;
    if (S->cache_map.data)
        td_map_close(&S->cache_map);
    td_header_scratch_free(&S->scratch);
    free(S->answers.slots);
    free(S->answers.watch);
    td_arena_free(&S->arena);
    free(S);
    L->state = NULL;
}

/* Resolves NAME for REQUESTER. REQUESTER NULL resolves a preload
 * (LD_PRELOAD, /etc/ld.so.preload): glibc maps those with the main map as
 * the loader (elf/rtld.c do_preload), so the same search applies with the
 * program as requester. DELAY (a lazy dlopen) searches the same way. */
static int resolve(struct td_loader *L, struct td_object *requester, const char *name, bool delay,
                   const struct td_loaded *loaded, struct td_resolution *out, struct td_err *err)
{
    (void)delay;
    if (!L->state && init(L, err) != 0)
        return -1;
    memset(out, 0, sizeof *out);
    struct search s = {
        .L = L,
        .S = L->state,
        .requester = requester ? requester : L->main,
        .name = name,
        .loaded = loaded,
        .out = out,
        .err = err,
    };
    s.process = L->main && L->main->kind == TD_FILE_ELF ? L->main : s.requester;
    if (!(s.f = facts_for(s.S, s.process, err)))
        return -1;
    if (!answers_sync(&s.S->answers, loaded)) {
        td_err_set(err, "out of memory indexing the loaded objects");
        return -1;
    }
    for (size_t i = 0; i < sizeof search_order / sizeof search_order[0] && !s.stop; i++)
        search_order[i](&s);
    return s.failed ? -1 : 0;
}

/* The names preloaded before the program's needs, in order: LD_PRELOAD
 * (split at spaces and colons), then /etc/ld.so.preload under the root
 * (split at white space and colons) (ld.so(8) "LD_PRELOAD"; elf/rtld.c).
 * Fills NAMES (allocated in ARENA) and returns the count, or -1. Each is
 * resolved with resolve(L, NULL, name, ...). A preload that cannot be
 * found is ignored by ld.so with a message, not an error. */
int td_linux_preload_names(const struct td_loader_config *cfg, struct td_arena *arena,
                           const char ***names);
int td_linux_preload_names(const struct td_loader_config *cfg, struct td_arena *arena,
                           const char ***names)
{
    char text[8192] = "", host[PATH_CAP];
    const char *env = td_config_env(cfg, "LD_PRELOAD");
    size_t used = (size_t)snprintf(text, sizeof text, "%s", env ? env : "");
    FILE *f = td_host_path(cfg, "/etc/ld.so.preload", host, sizeof host) ? fopen(host, "r") : NULL;
    if (f) {
        if (used < sizeof text - 1)
            text[used++] = ' ';
        used += fread(text + used, 1, sizeof text - 1 - used, f);
        text[used] = '\0';
        fclose(f);
    }
    size_t count = 0, cap = 16;
    const char **list = td_arena_array(arena, cap, sizeof *list);
    if (!list)
        return -1;
    for (char *p = text; *p;) {
        size_t skip = strspn(p, " \t\n:");
        p += skip;
        size_t n = strcspn(p, " \t\n:");
        if (n == 0)
            break;
        if (count == cap) {
            const char **grown = td_arena_array(arena, cap * 2, sizeof *grown);
            if (!grown)
                return -1;
            memcpy(grown, list, count * sizeof *list);
            list = grown;
            cap *= 2;
        }
        if (!(list[count++] = td_arena_strndup(arena, p, n)))
            return -1;
        p += n;
    }
    *names = list;
    return (int)count;
}

/* A library no search location holds. The loader cannot see packages:
 * probe/install/provider.c replaces this with the package, wheel or driver that
 * provides it whenever it knows one. */
static void fix_missing(const char *name, char *out, size_t cap)
{
    snprintf(out, cap,
             "find what provides %s (apt-file search %s; dnf provides '*/%s') and install "
             "that; LD_LIBRARY_PATH only helps one shell",
             name, name, name);
}

const struct td_loader_ops td_loader_linux = {.name = "linux",
                                              .init = init,
                                              .resolve = resolve,
                                              .fini = fini,
                                              .preloads = td_linux_preload_names,
                                              .fix_missing = fix_missing};
