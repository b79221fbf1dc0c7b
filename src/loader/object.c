/* Opening a file as a loadable object: map it, recognise the format, parse
 * the headers the loader models and the graph need. */
#include <stdlib.h>
#include <string.h>

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

struct td_object *td_object_open(const char *path, const char *target_path, const char *prefer_arch,
                                 struct td_err *err)
{
    struct td_object *o = calloc(1, sizeof *o);
    if (!o) {
        td_err_set(err, "%s: out of memory", path);
        return NULL;
    }
    if (td_map_open(path, &o->map, err) != 0)
        goto fail;
    td_file_identity(path, &o->dev, &o->ino);
    o->host_path = td_arena_strdup(&o->arena, path);
    o->path = td_arena_strdup(&o->arena, target_path ? target_path : path);
    const char *slash = strrchr(o->path, '/');
    const char *bslash = strrchr(o->path, '\\');
    const char *base = slash > bslash ? slash : bslash;
    o->name = base ? base + 1 : o->path;
    o->kind = td_detect(o->map.data, o->map.size);
    if (parse_object(o, prefer_arch, err) != 0) {
        td_err_prefix(err, "%s: ", path);
        goto fail;
    }
    return o;
fail:
    td_object_free(o);
    return NULL;
}

void td_object_free(struct td_object *o)
{
    if (!o)
        return;
    td_map_close(&o->map);
    td_arena_free(&o->arena);
    free(o);
}

void td_object_free_keep_mapping(struct td_object *o)
{
    if (!o)
        return;
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
