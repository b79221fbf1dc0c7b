/* libFuzzer target for the ld.so.cache reader: parse, decode every entry,
 * and look every name up with its candidates, as the loader model would. */
#include <stddef.h>
#include <stdint.h>

#include "format/ldcache.h"

static const char *const hwcaps[] = {"x86-64-v3", "x86-64-v2", ""};

static void look_up(const struct td_ldcache *c, const char *name)
{
    struct td_ldcache_query q = {.soname = name, .hwcaps = hwcaps, .hwcaps_count = 3};
    struct td_ldcache_result r;
    struct td_err err = {0};
    td_ldcache_abi_for_elf(2, 62, 0, &q.abi);
    q.check_isa_level = name[0] & 1;
    q.isa_levels = 0x3;
    if (td_ldcache_lookup(c, &q, &r, &err) != 0)
        return;
    for (uint32_t j = r.first; j < r.end; j++) {
        struct td_ldcache_entry e;
        enum td_ldcache_verdict v;
        td_ldcache_candidate(c, &q, &r, j, &e, &v, &err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct td_ldcache c;
    struct td_arena arena = {0};
    struct td_err err = {0};
    if (td_ldcache_parse(&c, data, size, &arena, &err) == 0) {
        uint32_t n = c.table.count < 64 ? c.table.count : 64;
        for (uint32_t i = 0; i < n; i++) {
            struct td_ldcache_entry e;
            struct td_err e2 = {0};
            char desc[256];
            if (td_ldcache_entry(&c, i, &e, &e2) != 0)
                continue;
            td_ldcache_describe(&e, desc, sizeof desc);
            look_up(&c, e.name);
        }
        for (uint32_t i = 0; i < c.old.count && i < 64; i++) {
            struct td_ldcache_entry e;
            td_ldcache_table_entry(&c, &c.old, i, &e, &err);
        }
        look_up(&c, "libc.so.6");
    }
    td_arena_free(&arena);
    return 0;
}
