/* libFuzzer target for the Mach-O reader: universal tables and each slice,
 * thin parse, export trie walk and lookups, undefined symbols, counts and
 * chained-fixups imports, all under a small arena cap. */
#include <stdint.h>
#include <string.h>

#include "format/macho.h"

#define FUZZ_ARENA_CAP ((size_t)4 << 20)

struct lookups {
    const struct td_macho *m;
    unsigned left;
};

/* Looks a few walked names up again. dyld's lookup takes the first edge
 * that prefixes the name, so in a malformed trie (one label a prefix of a
 * sibling's, or empty) the two may differ; only safety is checked here. */
static int lookup_export(void *ctx, const struct td_macho_export *e)
{
    struct lookups *l = ctx;
    struct td_macho_export found;
    struct td_err err = {0};
    if (l->left == 0)
        return 0;
    l->left--;
    td_macho_export_find(l->m, e->name, &found, &err);
    return 0;
}

struct undefs {
    const struct td_macho *m;
    size_t sum;
};

static int touch_undef(void *ctx, const struct td_macho_undef *u)
{
    struct undefs *c = ctx;
    const struct td_macho_dylib *d = td_macho_ordinal_dylib(c->m, u->library_ordinal);
    c->sum += strlen(u->name) + (d ? strlen(d->name) : 0);
    return 0;
}

static int touch_import(void *ctx, const struct td_macho_import *imp)
{
    *(size_t *)ctx += strlen(imp->name);
    return 0;
}

static void thin(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = FUZZ_ARENA_CAP};
    struct td_macho m;
    struct td_err err = {0};
    size_t sum = 0;
    if (td_macho_parse(data, size, &arena, &m, &err) == 0) {
        struct lookups l = {&m, 16};
        struct td_macho_export e;
        uint32_t defined, undefined;
        td_macho_exports_walk(&m, &arena, lookup_export, &l, &err);
        td_macho_export_find(&m, "_main", &e, &err);
        td_macho_export_find(&m, "", &e, &err);
        struct undefs u = {&m, 0};
        td_macho_undefined_walk(&m, touch_undef, &u, &err);
        td_macho_symbol_counts(&m, &defined, &undefined, &err);
        td_macho_chained_imports_walk(&m, touch_import, &sum, &err);
        for (size_t i = 0; i < m.ndylibs; i++)
            sum += strlen(m.dylibs[i].name);
        for (size_t i = 0; i < m.nrpaths; i++)
            sum += strlen(m.rpaths[i]);
        (void)td_macho_arch_slug(m.cputype, m.cpusubtype);
    }
    td_arena_free(&arena);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_arena arena = {.cap = FUZZ_ARENA_CAP};
    struct td_macho_fat fat;
    struct td_err err = {0};
    if (td_macho_fat_parse(data, size, &arena, &fat, &err) == 0) {
        for (uint32_t i = 0; i < fat.nslices; i++) {
            struct td_arena slice_arena = {.cap = FUZZ_ARENA_CAP};
            struct td_macho m;
            td_macho_parse_slice(data, size, &fat.slices[i], &slice_arena, &m, &err);
            td_arena_free(&slice_arena);
            thin(data + fat.slices[i].offset, (size_t)fat.slices[i].size);
        }
        (void)td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_ARM64, TD_MACHO_SUBTYPE_ANY);
    } else {
        thin(data, size);
    }
    td_arena_free(&arena);
    return 0;
}
