/* Mach-O reader against real binaries from tests/fixtures/macho.sh (clang +
 * ld64.lld-14 + llvm-lipo-14): exact values known from how they were built,
 * and the same facts as llvm-objdump-14 / llvm-nm-14 printed them. */
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/map.h"
#include "format/macho.h"

static const char *const thin_fixtures[] = {
    "libSystem.arm64.dylib",
    "libSystem.x86_64.dylib",
    "libbar.arm64.dylib",
    "libbar.x86_64.dylib",
    "libfoo.arm64.dylib",
    "libfoo.x86_64.dylib",
    "libre.arm64.dylib",
    "libre.x86_64.dylib",
    "libweakdep.arm64.dylib",
    "main.arm64",
    "main.x86_64",
    "plugin.arm64.bundle",
    "plugin.x86_64.bundle",
    "libmany.arm64.dylib",
    "libmany.x86_64.dylib",
    "libold.x86_64.dylib",
    "libios.arm64.dylib",
};

static char *oracle(const char *name, const char *suffix)
{
    char rel[256];
    size_t size;
    snprintf(rel, sizeof rel, "macho/%s%s", name, suffix);
    uint8_t *data = td_read_file(td_fixture(rel), &size);
    char *s = realloc(data, size + 1);
    s[size] = '\0';
    return s;
}

struct image {
    struct td_map map;
    struct td_arena arena;
    struct td_macho m;
};

static void open_image(const char *name, struct image *img)
{
    char rel[256];
    struct td_err err = {0};
    memset(img, 0, sizeof *img);
    snprintf(rel, sizeof rel, "macho/%s", name);
    td_map_fixture(rel, &img->map);
    if (td_macho_parse(img->map.data, img->map.size, &img->arena, &img->m, &err) != 0)
        fail_msg("%s: %s", name, err.msg);
}

static void close_image(struct image *img)
{
    td_arena_free(&img->arena);
    td_map_close(&img->map);
}

static const char *v(uint32_t version)
{
    static char bufs[4][TD_MACHO_VERSION_MAX];
    static unsigned next;
    return td_macho_version_string(version, bufs[next++ % 4]);
}

static const struct td_macho_dylib *dylib(const struct td_macho *m, size_t i)
{
    assert_true(i < m->ndylibs);
    return &m->dylibs[i];
}

/* ---- load commands ---- */

static void libfoo_commands(void **state)
{
    const char *names[] = {"libfoo.arm64.dylib", "libfoo.x86_64.dylib"};
    for (int i = 0; i < 2; i++) {
        struct image img;
        open_image(names[i], &img);
        const struct td_macho *m = &img.m;
        assert_true(m->is_64);
        assert_false(m->big_endian);
        assert_int_equal(m->cputype, i == 0 ? TD_MACHO_CPU_TYPE_ARM64 : TD_MACHO_CPU_TYPE_X86_64);
        assert_string_equal(td_macho_arch_slug(m->cputype, m->cpusubtype),
                            i == 0 ? "arm64" : "x86_64");
        assert_int_equal(m->filetype, TD_MACHO_DYLIB);
        assert_true(m->flags & TD_MACHO_MH_TWOLEVEL);
        assert_true(m->flags & TD_MACHO_MH_WEAK_DEFINES);
        assert_string_equal(m->install_name, "@rpath/libfoo.dylib");
        assert_string_equal(v(m->id_current_version), "1.2.3");
        assert_string_equal(v(m->id_compatibility_version), "1.0.0");
        assert_int_equal(m->ndylibs, 3);
        assert_string_equal(dylib(m, 0)->name, "@rpath/libbar.dylib");
        assert_int_equal(dylib(m, 0)->kind, TD_MACHO_DYLIB_LOAD);
        assert_string_equal(v(dylib(m, 0)->current_version), "2.5.1");
        assert_string_equal(v(dylib(m, 0)->compatibility_version), "2.0.0");
        assert_string_equal(dylib(m, 1)->name, "@rpath/libweakdep.dylib");
        assert_int_equal(dylib(m, 1)->kind, TD_MACHO_DYLIB_WEAK);
        assert_string_equal(dylib(m, 2)->name, "/usr/lib/libSystem.B.dylib");
        assert_string_equal(v(dylib(m, 2)->current_version), "1311.0.0");
        assert_ptr_equal(td_macho_ordinal_dylib(m, 2), dylib(m, 1));
        assert_null(td_macho_ordinal_dylib(m, 0));
        assert_null(td_macho_ordinal_dylib(m, 4));
        assert_int_equal(m->nrpaths, 2);
        assert_string_equal(m->rpaths[0], "@loader_path/../lib");
        assert_string_equal(m->rpaths[1], "@executable_path/Frameworks");
        assert_int_equal(m->version_source, TD_MACHO_VERSION_BUILD);
        assert_string_equal(td_macho_platform_name(m->platform), "macos");
        assert_string_equal(v(m->minos), "11.0.0");
        assert_string_equal(v(m->sdk), "12.3.0");
        assert_int_equal(m->ntools, 1);
        assert_int_equal(m->tools[0].tool, 3); /* ld */
        assert_true(m->has_uuid);
        assert_false(m->has_main);
        assert_true(m->has_symtab && m->has_dysymtab && m->has_dyld_info);
        assert_int_equal(m->trie_source, TD_MACHO_TRIE_DYLD_INFO);
        assert_false(m->has_chained_fixups);
        assert_int_equal(m->nsegments, 4); /* __TEXT __DATA_CONST __DATA __LINKEDIT */
        assert_int_equal(m->unknown_cmds, 0);
        uint32_t defined, undefined;
        struct td_err err = {0};
        assert_int_equal(td_macho_symbol_counts(m, &defined, &undefined, &err), 0);
        assert_int_equal(defined, 3);   /* _foo_add _foo_counter _foo_weak */
        assert_int_equal(undefined, 3); /* _bar_value _weakdep_fn dyld_stub_binder */
        close_image(&img);
    }
}

static void version_min_and_reexport(void **state)
{
    struct image img;
    open_image("libold.x86_64.dylib", &img);
    assert_int_equal(img.m.version_source, TD_MACHO_VERSION_MIN_MACOSX);
    assert_int_equal(img.m.platform, 1);
    assert_string_equal(v(img.m.minos), "10.13.0");
    assert_string_equal(v(img.m.sdk), "10.14.0");
    assert_string_equal(img.m.install_name, "/opt/old/libold.dylib");
    close_image(&img);

    open_image("libios.arm64.dylib", &img);
    assert_int_equal(img.m.version_source, TD_MACHO_VERSION_BUILD);
    assert_string_equal(td_macho_platform_name(img.m.platform), "ios");
    assert_string_equal(v(img.m.minos), "14.0.0");
    assert_string_equal(v(img.m.sdk), "14.5.0");
    assert_int_equal(img.m.ndylibs, 0);
    close_image(&img);

    open_image("libre.arm64.dylib", &img);
    size_t reexports = 0;
    for (size_t i = 0; i < img.m.ndylibs; i++) {
        if (img.m.dylibs[i].kind == TD_MACHO_DYLIB_REEXPORT) {
            reexports++;
            assert_string_equal(img.m.dylibs[i].name, "@rpath/libbar.dylib");
        }
    }
    assert_int_equal(reexports, 1);
    close_image(&img);

    open_image("plugin.x86_64.bundle", &img);
    assert_int_equal(img.m.filetype, TD_MACHO_BUNDLE);
    assert_null(img.m.install_name);
    assert_false(img.m.has_main);
    close_image(&img);
}

/* Every fixture's dylib list, rendered as llvm-objdump --dylibs-used does. */
static void dylibs_match_objdump(void **state)
{
    static const char *const suffix[] = {"", ", weak", ", reexport", ", lazy", ", upward"};
    for (size_t f = 0; f < sizeof thin_fixtures / sizeof thin_fixtures[0]; f++) {
        struct image img;
        struct td_text t = {0};
        open_image(thin_fixtures[f], &img);
        const struct td_macho *m = &img.m;
        td_text_add(&t, "%s", "");
        if (m->install_name)
            td_text_add(&t, "\t%s (compatibility version %s, current version %s)\n",
                        m->install_name, v(m->id_compatibility_version), v(m->id_current_version));
        for (size_t i = 0; i < m->ndylibs; i++)
            td_text_add(&t, "\t%s (compatibility version %s, current version %s%s)\n",
                        m->dylibs[i].name, v(m->dylibs[i].compatibility_version),
                        v(m->dylibs[i].current_version), suffix[m->dylibs[i].kind]);
        char *want = oracle(thin_fixtures[f], ".dylibs.txt");
        if (strcmp(t.s, want) != 0)
            fail_msg("%s: reader says\n%s\nllvm-objdump says\n%s", thin_fixtures[f], t.s, want);
        /* Presence flags agree with --private-headers. */
        char *headers = oracle(thin_fixtures[f], ".headers.txt");
        assert_int_equal(m->has_code_signature, strstr(headers, "LC_CODE_SIGNATURE") != NULL);
        assert_int_equal(m->has_main, strstr(headers, "LC_MAIN") != NULL);
        assert_int_equal(m->has_uuid, strstr(headers, "LC_UUID") != NULL);
        char last_cmd[64];
        snprintf(last_cmd, sizeof last_cmd, "Load command %" PRIu32 "\n", m->ncmds - 1);
        assert_non_null(strstr(headers, last_cmd));
        if (m->has_main) {
            char entry[64];
            snprintf(entry, sizeof entry, "entryoff %" PRIu64 "\n", m->entryoff);
            assert_non_null(strstr(headers, entry));
        }
        free(headers);
        free(want);
        free(t.s);
        close_image(&img);
    }
}

/* ---- universal ---- */

static void universal_slices(void **state)
{
    struct td_map map;
    struct td_arena arena = {0};
    struct td_macho_fat fat;
    struct td_err err = {0};
    td_map_fixture("macho/libfoo.universal.dylib", &map);
    assert_true(td_macho_is_fat(map.data, map.size));
    assert_false(td_macho_is_thin(map.data, map.size));
    assert_int_equal(td_macho_fat_parse(map.data, map.size, &arena, &fat, &err), 0);
    assert_false(fat.is_64);
    assert_int_equal(fat.nslices, 2);

    /* The slice table, as llvm-objdump --universal-headers prints it. */
    char *want = oracle("libfoo.universal", ".txt");
    const char *p = want;
    for (uint32_t i = 0; i < fat.nslices; i++) {
        uint64_t offset, size;
        unsigned align;
        p = strstr(p, "    offset ");
        assert_non_null(p);
        assert_int_equal(sscanf(p, "    offset %" SCNu64 "\n    size %" SCNu64 "\n    align 2^%u",
                                &offset, &size, &align),
                         3);
        assert_int_equal(fat.slices[i].offset, offset);
        assert_int_equal(fat.slices[i].size, size);
        assert_int_equal(fat.slices[i].align, align);
        p++;
    }
    free(want);
    struct td_text t = {0};
    for (uint32_t i = 0; i < fat.nslices; i++)
        td_text_add(&t, "%s ", td_macho_arch_slug(fat.slices[i].cputype, fat.slices[i].cpusubtype));
    td_text_add(&t, "\n");
    char *archs = oracle("libfoo.universal", ".archs.txt");
    assert_string_equal(t.s, archs);
    free(archs);
    free(t.s);

    const struct td_macho_slice *arm = td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_ARM64, 0);
    assert_ptr_equal(arm, &fat.slices[1]);
    assert_ptr_equal(td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_X86_64, TD_MACHO_SUBTYPE_ANY),
                     &fat.slices[0]);
    assert_null(td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_ARM64, TD_MACHO_CPU_SUBTYPE_ARM64E));
    assert_null(td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_POWERPC, TD_MACHO_SUBTYPE_ANY));
    for (uint32_t i = 0; i < fat.nslices; i++) {
        struct td_macho m;
        assert_int_equal(td_macho_parse_slice(map.data, map.size, &fat.slices[i], &arena, &m, &err),
                         0);
        assert_string_equal(m.install_name, "@rpath/libfoo.dylib");
        assert_int_equal(m.ndylibs, 3);
        struct td_macho_export e;
        assert_int_equal(td_macho_export_find(&m, "_foo_weak", &e, &err), 1);
        assert_true(e.flags & TD_MACHO_EXPORT_WEAK);
    }
    /* A fat file is not a thin image. */
    struct td_macho m;
    assert_int_equal(td_macho_parse(map.data, map.size, &arena, &m, &err), -1);
    assert_non_null(strstr(err.msg, "universal"));
    td_arena_free(&arena);
    td_map_close(&map);
}

/* ---- exports ---- */

struct export_ctx {
    struct td_text t;
    uint64_t base;
};

static int render_export(void *ctx, const struct td_macho_export *e)
{
    struct export_ctx *c = ctx;
    td_text_add(&c->t, "0x%08" PRIX64 "  %s%s\n", c->base + e->address, e->name,
                (e->flags & TD_MACHO_EXPORT_WEAK) ? " [weak_def]" : "");
    return 0;
}

static void exports_match_objdump(void **state)
{
    for (size_t f = 0; f < sizeof thin_fixtures / sizeof thin_fixtures[0]; f++) {
        struct image img;
        struct td_err err = {0};
        open_image(thin_fixtures[f], &img);
        struct export_ctx c = {.base = img.m.text_vmaddr};
        td_text_add(&c.t, "%s", "");
        if (td_macho_exports_walk(&img.m, &img.arena, render_export, &c, &err) != 0)
            fail_msg("%s: %s", thin_fixtures[f], err.msg);
        char *want = oracle(thin_fixtures[f], ".exports.txt");
        if (strcmp(c.t.s, want) != 0)
            fail_msg("%s: reader says\n%s\nllvm-objdump says\n%s", thin_fixtures[f], c.t.s, want);
        free(want);
        free(c.t.s);
        close_image(&img);
    }
}

static void libfoo_exports_exact(void **state)
{
    struct image img;
    struct td_err err = {0};
    open_image("libfoo.arm64.dylib", &img);
    struct export_ctx c = {0};
    td_text_add(&c.t, "%s", "");
    assert_int_equal(td_macho_exports_walk(&img.m, &img.arena, render_export, &c, &err), 0);
    /* Addresses differ by layout; names, order and flags do not. */
    const char *add = strstr(c.t.s, "  _foo_add\n");
    const char *counter = strstr(c.t.s, "  _foo_counter\n");
    const char *weak = strstr(c.t.s, "  _foo_weak [weak_def]\n");
    assert_true(add && counter && weak && add < counter && counter < weak);
    size_t lines = 0;
    for (const char *q = c.t.s; *q; q++)
        lines += *q == '\n';
    assert_int_equal(lines, 3);
    free(c.t.s);
    close_image(&img);
}

struct lookup_ctx {
    const struct td_macho *m;
    size_t count;
};

static int lookup_each(void *ctx, const struct td_macho_export *e)
{
    struct lookup_ctx *c = ctx;
    struct td_macho_export found;
    struct td_err err = {0};
    char name[512];
    snprintf(name, sizeof name, "%s", e->name);
    assert_int_equal(td_macho_export_find(c->m, name, &found, &err), 1);
    assert_int_equal(found.address, e->address);
    assert_int_equal(found.flags, e->flags);
    assert_int_equal(found.node_offset, e->node_offset);
    /* A proper prefix or extension of an export is not one. */
    name[strlen(name) - 1] = '\0';
    assert_int_equal(td_macho_export_find(c->m, name, &found, &err), 0);
    snprintf(name, sizeof name, "%sx", e->name);
    assert_int_equal(td_macho_export_find(c->m, name, &found, &err), 0);
    c->count++;
    return 0;
}

static int stop_after_first(void *ctx, const struct td_macho_export *e)
{
    (*(int *)ctx)++;
    return 1;
}

static void lookup_agrees_with_walk(void **state)
{
    const char *names[] = {"libmany.arm64.dylib", "libmany.x86_64.dylib"};
    for (int i = 0; i < 2; i++) {
        struct image img;
        struct td_err err = {0};
        open_image(names[i], &img);
        struct lookup_ctx c = {&img.m, 0};
        assert_int_equal(td_macho_exports_walk(&img.m, &img.arena, lookup_each, &c, &err), 0);
        assert_int_equal(c.count, 300);
        struct td_macho_export e;
        assert_int_equal(td_macho_export_find(&img.m, "_torch_op_3_kernel_20_v143", &e, &err), 1);
        assert_int_equal(td_macho_export_find(&img.m, "", &e, &err), 0);
        assert_int_equal(td_macho_export_find(&img.m, "_torch_op_", &e, &err), 0);
        assert_int_equal(td_macho_export_find(&img.m, "_torch_op_7_kernel_0_v0", &e, &err), 0);
        int calls = 0;
        assert_int_equal(td_macho_exports_walk(&img.m, &img.arena, stop_after_first, &calls, &err),
                         0);
        assert_int_equal(calls, 1);
        close_image(&img);
    }
}

/* ---- undefined symbols ---- */

struct undef_ctx {
    const struct td_macho *m;
    struct td_text t;
    struct td_macho_undef first[8];
    size_t count;
};

/* llvm-nm -m names a library by its install name's base up to the first dot. */
static void short_name(const char *install, char *out, size_t size)
{
    const char *base = strrchr(install, '/');
    snprintf(out, size, "%s", base ? base + 1 : install);
    char *dot = strchr(out, '.');
    if (dot)
        *dot = '\0';
}

static int render_undef(void *ctx, const struct td_macho_undef *u)
{
    struct undef_ctx *c = ctx;
    char from[256];
    const struct td_macho_dylib *d = td_macho_ordinal_dylib(c->m, u->library_ordinal);
    if (u->library_ordinal == TD_MACHO_DYNAMIC_LOOKUP_ORDINAL)
        snprintf(from, sizeof from, "dynamically looked up");
    else {
        assert_non_null(d);
        char base[200];
        short_name(d->name, base, sizeof base);
        snprintf(from, sizeof from, "from %s", base);
    }
    td_text_add(&c->t, "(undefined) %sexternal %s (%s)\n", u->weak_ref ? "weak " : "", u->name,
                from);
    if (c->count < 8)
        c->first[c->count] = *u;
    c->count++;
    return 0;
}

static void undefined_match_nm(void **state)
{
    for (size_t f = 0; f < sizeof thin_fixtures / sizeof thin_fixtures[0]; f++) {
        struct image img;
        struct td_err err = {0};
        open_image(thin_fixtures[f], &img);
        struct undef_ctx c = {.m = &img.m};
        td_text_add(&c.t, "%s", "");
        if (td_macho_undefined_walk(&img.m, render_undef, &c, &err) != 0)
            fail_msg("%s: %s", thin_fixtures[f], err.msg);
        char *want = oracle(thin_fixtures[f], ".undefs.txt");
        if (strcmp(c.t.s, want) != 0)
            fail_msg("%s: reader says\n%s\nllvm-nm says\n%s", thin_fixtures[f], c.t.s, want);
        free(want);
        free(c.t.s);
        close_image(&img);
    }
}

static void main_executable(void **state)
{
    struct image img;
    struct td_err err = {0};
    open_image("main.arm64", &img);
    const struct td_macho *m = &img.m;
    assert_int_equal(m->filetype, TD_MACHO_EXECUTE);
    assert_true(m->has_main);
    assert_true(m->entryoff > 0);
    assert_int_equal(m->stacksize, 0);
    assert_int_equal(m->nrpaths, 1);
    assert_string_equal(m->rpaths[0], "@executable_path/../lib");
    assert_int_equal(m->ndylibs, 2);
    struct undef_ctx c = {.m = m};
    assert_int_equal(td_macho_undefined_walk(m, render_undef, &c, &err), 0);
    assert_int_equal(c.count, 4);
    assert_string_equal(c.first[0].name, "_foo_add");
    assert_int_equal(c.first[0].library_ordinal, 1);
    assert_false(c.first[0].weak_ref);
    assert_string_equal(c.first[1].name, "_foo_counter");
    assert_int_equal(c.first[1].library_ordinal, 1);
    assert_string_equal(c.first[2].name, "_late_fn");
    assert_int_equal(c.first[2].library_ordinal, TD_MACHO_DYNAMIC_LOOKUP_ORDINAL);
    assert_true(c.first[2].weak_ref);
    assert_string_equal(c.first[3].name, "dyld_stub_binder");
    assert_int_equal(c.first[3].library_ordinal, 2);
    uint32_t defined, undefined;
    assert_int_equal(td_macho_symbol_counts(m, &defined, &undefined, &err), 0);
    assert_int_equal(defined, 2); /* __mh_execute_header _main */
    assert_int_equal(undefined, 4);
    free(c.t.s);
    /* No chained fixups in an lld-14 image: said so, not "none". */
    assert_int_equal(td_macho_chained_imports_walk(m, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "not parsed"));
    close_image(&img);
}

/* ---- names ---- */

static void names(void **state)
{
    char buf[TD_MACHO_VERSION_MAX];
    assert_string_equal(td_macho_version_string(0xffffffff, buf), "65535.255.255");
    assert_string_equal(td_macho_version_string(0x000b0000, buf), "11.0.0");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_ARM64, 0x80000002), "arm64e");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_X86_64, 3), "x86_64");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_X86_64, 8), "x86_64h");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_X86, 3), "i386");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_ARM, 9), "armv7");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_POWERPC, 0), "ppc");
    assert_string_equal(td_macho_arch_slug(TD_MACHO_CPU_TYPE_POWERPC64, 0), "ppc64");
    assert_null(td_macho_arch_slug(99, 0));
    assert_string_equal(td_macho_cpu_name(TD_MACHO_CPU_TYPE_ARM64), "ARM64");
    assert_string_equal(td_macho_cpu_name(1234), "unknown");
    assert_string_equal(td_macho_filetype_name(TD_MACHO_EXECUTE), "MH_EXECUTE");
    assert_string_equal(td_macho_filetype_name(TD_MACHO_BUNDLE), "MH_BUNDLE");
    assert_null(td_macho_filetype_name(0));
    assert_null(td_macho_filetype_name(200));
    assert_string_equal(td_macho_flag_name(TD_MACHO_MH_TWOLEVEL), "MH_TWOLEVEL");
    assert_string_equal(td_macho_flag_name(TD_MACHO_MH_PIE), "MH_PIE");
    assert_null(td_macho_flag_name(3));
    assert_string_equal(td_macho_platform_name(10), "driverkit");
    assert_null(td_macho_platform_name(11));
    assert_string_equal(td_macho_command_name(0x8000001c), "LC_RPATH");
    assert_null(td_macho_command_name(0x1c));
    assert_string_equal(td_macho_command_name(0x80000022), "LC_DYLD_INFO_ONLY");
    assert_string_equal(td_macho_command_name(0x22), "LC_DYLD_INFO");
    assert_string_equal(td_macho_command_name(0xc), "LC_LOAD_DYLIB");
    assert_string_equal(td_macho_command_name(0x80000034), "LC_DYLD_CHAINED_FIXUPS");
    assert_null(td_macho_command_name(0x7777));
    assert_string_equal(td_macho_dylib_kind_name(TD_MACHO_DYLIB_UPWARD), "LC_LOAD_UPWARD_DYLIB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(libfoo_commands),         cmocka_unit_test(version_min_and_reexport),
        cmocka_unit_test(dylibs_match_objdump),    cmocka_unit_test(universal_slices),
        cmocka_unit_test(exports_match_objdump),   cmocka_unit_test(libfoo_exports_exact),
        cmocka_unit_test(lookup_agrees_with_walk), cmocka_unit_test(undefined_match_nm),
        cmocka_unit_test(main_executable),         cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
