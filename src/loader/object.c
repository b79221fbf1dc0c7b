/* Opening a file as a loadable object: map it, recognise the format, parse
 * the headers the loader models and the graph need. */
#include <stdlib.h>
#include <string.h>

#include "base/compat.h"
#include "loader/loader.h"

static int parse_macho_fat(struct td_object *o, const char *prefer_arch, struct td_err *err)
{
    struct td_macho_fat fat;
    if (td_macho_fat_parse(o->map.data, o->map.size, &o->arena, &fat, err) != 0)
        return -1;
    const struct td_macho_slice *pick = fat.nslices ? &fat.slices[0] : NULL;
    for (uint32_t i = 0; prefer_arch && i < fat.nslices; i++) {
        const char *slug = td_macho_arch_slug(fat.slices[i].cputype, fat.slices[i].cpusubtype);
        if (slug && strcmp(slug, prefer_arch) == 0)
            pick = &fat.slices[i];
    }
    if (!pick) {
        td_err_set(err, "universal file with no slices");
        return -1;
    }
    return td_macho_parse_slice(o->map.data, o->map.size, pick, &o->arena, &o->u.macho, err);
}

static int parse_object(struct td_object *o, const char *prefer_arch, struct td_err *err)
{
    switch (o->kind) {
    case TD_FILE_ELF:
        if (td_elf_parse(&o->u.elf, o->map.data, o->map.size, &o->arena, err) != 0)
            return -1;
        o->identity = o->u.elf.soname;
        o->arch = td_elf_arch(&o->u.elf);
        return 0;
    case TD_FILE_PE: {
        if (td_pe_parse(&o->u.pe, o->map.data, o->map.size, &o->arena, err) != 0)
            return -1;
        struct td_pe_exports ex;
        struct td_err ignore = {0};
        if (td_pe_exports(&o->u.pe, &ex, &ignore) == 0 && ex.present)
            o->identity = ex.dll_name;
        o->arch = td_pe_arch_slug(&o->u.pe);
        return 0;
    }
    case TD_FILE_MACHO:
    case TD_FILE_MACHO_FAT:
        if (o->kind == TD_FILE_MACHO_FAT
                ? parse_macho_fat(o, prefer_arch, err)
                : td_macho_parse(o->map.data, o->map.size, &o->arena, &o->u.macho, err))
            return -1;
        o->identity = o->u.macho.install_name;
        o->arch = td_macho_arch_slug(o->u.macho.cputype, o->u.macho.cpusubtype);
        if (!o->arch)
            o->arch = "unknown";
        return 0;
    default:
        td_err_set(err, "not a binary this tool reads (%s)", td_file_kind_name(o->kind));
        return -1;
    }
}

/* A new object for the file at PATH (TARGET_PATH on the target), its
 * names in ARENA (taken over, freed on failure). */
static struct td_object *new_object(struct td_arena *arena, uint64_t dev, uint64_t ino,
                                    const char *path, const char *target_path, struct td_err *err)
{
    struct td_object *o = calloc(1, sizeof *o);
    if (!o) {
        td_arena_free(arena);
        td_err_set(err, "%s: out of memory", path);
        return NULL;
    }
    o->arena = *arena;
    o->dev = dev;
    o->ino = ino;
    o->fd = -1;
    o->host_path = td_arena_strdup(&o->arena, path);
    o->path = td_arena_strdup(&o->arena, target_path ? target_path : path);
    if (!o->host_path || !o->path) {
        td_err_set(err, "%s: out of memory", path);
        td_object_free(o);
        return NULL;
    }
    const char *slash = strrchr(o->path, '/');
    const char *bslash = strrchr(o->path, '\\');
    const char *base = slash > bslash ? slash : bslash;
    o->name = base ? base + 1 : o->path;
    return o;
}

/* Takes a parsed and detached ELF file. */
static void adopt_headers(struct td_object *o, const struct td_elf *elf)
{
    o->kind = TD_FILE_ELF;
    o->u.elf = *elf;
    o->identity = o->u.elf.soname;
    o->arch = td_elf_arch(&o->u.elf);
}

/* Makes the object for MAP (owned from here on, closed on failure). */
static struct td_object *from_map(struct td_map *map, uint64_t dev, uint64_t ino, const char *path,
                                  const char *target_path, const char *prefer_arch,
                                  bool headers_only, struct td_err *err)
{
    struct td_arena arena = {0};
    struct td_object *o = new_object(&arena, dev, ino, path, target_path, err);
    if (!o) {
        td_map_close(map);
        return NULL;
    }
    o->map = *map;
    o->kind = td_detect(o->map.data, o->map.size);
    if (headers_only && o->kind == TD_FILE_ELF) {
        /* Everything the graph reads is copied out: the pages go now, so
         * a closure costs one file's pages at a time, not all of them. */
        struct td_elf elf;
        if (td_elf_parse_headers(&elf, o->map.data, o->map.size, &o->arena, err) != 0 ||
            td_elf_detach(&elf, &o->arena, err) != 0) {
            td_err_prefix(err, "%s: ", path);
            goto fail;
        }
        if (td_map_shrank(&o->map))
            goto fail;
        td_map_close(&o->map);
        adopt_headers(o, &elf);
        return o;
    }
    if (parse_object(o, prefer_arch, err) != 0) {
        td_err_prefix(err, "%s: ", path);
        goto fail;
    }
    if (!td_map_shrank(&o->map))
        return o;
fail:
    if (td_map_shrank(&o->map)) { /* whatever was parsed, pages of it read as zeros */
        memset(err, 0, sizeof *err);
        td_err_set(err, "%s: changed while it was read (it shrank)", path);
    }
    td_object_free(o);
    return NULL;
}

struct td_object *td_object_open(const char *path, const char *target_path, const char *prefer_arch,
                                 struct td_err *err)
{
    struct td_map map;
    uint64_t dev, ino;
    if (td_map_open(path, &map, err) != 0)
        return NULL;
    td_file_identity(path, &dev, &ino);
    return from_map(&map, dev, ino, path, target_path, prefer_arch, false, err);
}

struct td_object *td_object_from_map(struct td_map *map, uint64_t dev, uint64_t ino,
                                     const char *path, const char *target_path, bool headers_only,
                                     struct td_err *err)
{
    return from_map(map, dev, ino, path, target_path, NULL, headers_only, err);
}

/* Reads [OFF, OFF + LEN) of FD, widened to whole pages and merged with
 * the extents it touches, into S. False when S is full. */
static bool load_range(struct td_header_scratch *s, int fd, uint64_t size, uint64_t off,
                       uint64_t len)
{
    enum { PAGE = 4096 };
    uint64_t lo = off & ~(uint64_t)(PAGE - 1), hi;
    if (!td_add_u64(off, len, &hi) || hi > size)
        hi = size; /* a file size: far from overflowing when rounded up */
    hi = (hi + PAGE - 1) & ~(uint64_t)(PAGE - 1);
    if (hi > size)
        hi = size;
    uint64_t grown = 0; /* the largest extent merged */
    for (size_t i = 0; i < s->count;) {
        const struct td_buf_extent *e = &s->extents[i];
        if (e->off > hi || e->off + e->len < lo) {
            i++;
            continue;
        }
        lo = e->off < lo ? e->off : lo;
        hi = e->off + e->len > hi ? e->off + e->len : hi;
        grown = e->len > grown ? e->len : grown;
        s->extents[i] = s->extents[--s->count];
        i = 0;
    }
    /* A table read page by page (the GNU hash buckets, for the symbol
     * count) grows its extent by half at least each time, so that the
     * re-reads of merged extents stay a small multiple of the table. */
    if (grown && hi - lo < grown + grown / 2)
        hi = lo + grown + grown / 2 > size ? size : lo + grown + grown / 2;
    if (s->count == TD_HEADER_EXTENTS || hi - lo > s->cap - s->used)
        return false;
    uint8_t *to = s->mem + s->used;
    for (uint64_t done = 0; done < hi - lo;) {
        ssize_t n = pread(fd, to + done, (size_t)(hi - lo - done), (off_t)(lo + done));
        if (n <= 0)
            return false;
        done += (uint64_t)n;
    }
    s->extents[s->count++] = (struct td_buf_extent){lo, hi - lo, to};
    s->used += (size_t)(hi - lo);
    return true;
}

/* Maps the file open as FD; the Windows build maps it again by name
 * (map_windows.c has no descriptor call). */
static int map_fd(int fd, uint64_t size, const char *path, struct td_map *map, struct td_err *err)
{
#ifndef _WIN32
    return td_map_fd(fd, size, path, map, err);
#else
    (void)fd, (void)size;
    return td_map_open(path, map, err);
#endif
}

struct td_object *td_object_read_fd(int fd, uint64_t size, uint64_t dev, uint64_t ino,
                                    const uint8_t *head, size_t head_len, bool symbols,
                                    struct td_header_scratch *scratch, const char *path,
                                    const char *target_path, struct td_err *err)
{
    enum { TRIES = 64 };
    struct td_map map = {0};
    if (!scratch->mem && (scratch->mem = malloc(TD_HEADER_SCRATCH)) != NULL)
        scratch->cap = TD_HEADER_SCRATCH;
    scratch->used = 0;
    scratch->count = 0;
    if (head_len)
        scratch->extents[scratch->count++] = (struct td_buf_extent){0, head_len, head};
    for (int attempt = 0; scratch->mem && attempt < TRIES; attempt++) {
        struct td_buf_sparse sp = {scratch->extents, scratch->count, false, 0, 0};
        struct td_buf buf = td_buf_sparse_make((size_t)size, &sp);
        struct td_arena arena = {0};
        struct td_elf elf;
        struct td_err perr = {0};
        /* With SYMBOLS, the hash tables' headers only: the binder counts
         * the symbols as it reads the tables (graph/bind_elf.c). */
        int rc = td_elf_parse_buf(&elf, buf, false, &arena, &perr);
        if (rc == 0 && symbols)
            rc = td_elf_parse_hash_headers(&elf, &perr);
        if (!sp.missed && rc == 0 && td_elf_detach(&elf, &arena, &perr) == 0) {
            struct td_object *o = new_object(&arena, dev, ino, path, target_path, err);
            if (o)
                adopt_headers(o, &elf);
            return o;
        }
        td_arena_free(&arena);
        if (!sp.missed) {
            *err = perr;
            td_err_prefix(err, "%s: ", path);
            return NULL;
        }
        if (!load_range(scratch, fd, size, sp.miss_off, sp.miss_len))
            break;
    }
    /* Too many pieces, or too large ones: map the file and parse it whole. */
    if (map_fd(fd, size, path, &map, err) != 0)
        return NULL;
    return from_map(&map, dev, ino, path, target_path, NULL, !symbols, err);
}

void td_header_scratch_free(struct td_header_scratch *s)
{
    free(s->mem);
    memset(s, 0, sizeof *s);
}

void td_object_free(struct td_object *o)
{
    if (!o)
        return;
    td_map_close(&o->map);
    if (o->fd >= 0)
        close(o->fd);
    td_arena_free(&o->arena);
    free(o);
}

void td_object_free_keep_mapping(struct td_object *o)
{
    if (!o)
        return;
    if (o->fd >= 0)
        close(o->fd);
    td_arena_free(&o->arena);
    free(o);
}

bool td_object_same_abi(const struct td_object *a, const struct td_object *b)
{
    if (a->kind != b->kind && !((a->kind == TD_FILE_MACHO || a->kind == TD_FILE_MACHO_FAT) &&
                                (b->kind == TD_FILE_MACHO || b->kind == TD_FILE_MACHO_FAT)))
        return false;
    switch (a->kind) {
    case TD_FILE_ELF:
        return a->u.elf.is64 == b->u.elf.is64 && a->u.elf.machine == b->u.elf.machine &&
               a->u.elf.big_endian == b->u.elf.big_endian;
    case TD_FILE_PE:
        return a->u.pe.machine == b->u.pe.machine;
    default:
        return a->u.macho.cputype == b->u.macho.cputype;
    }
}
