/* Tests of the PE reader on real binaries: mingw-w64 x64/x86 EXEs and DLLs,
 * clang+lld delay-load and ARM64 images, and Wine's own DLLs, checked both
 * against exact values known from how the fixtures were built and against
 * llvm-readobj / objdump output recorded by tests/fixtures/pe.sh. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pe.h"

#define WINE_DIR "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/"

struct loaded {
    struct td_map map;
    struct td_arena arena;
    struct td_pe pe;
};

static void load(const char *rel, struct loaded *l)
{
    struct td_err err = {0};
    memset(l, 0, sizeof *l);
    td_map_fixture(rel, &l->map);
    if (td_pe_parse(&l->pe, l->map.data, l->map.size, &l->arena, &err) != 0)
        fail_msg("%s: %s", rel, err.msg);
}

static void unload(struct loaded *l)
{
    td_arena_free(&l->arena);
    td_map_close(&l->map);
}

/* Lines collected, sorted and joined, to compare with an .expect file. */
struct lines {
    char **items;
    size_t count, cap;
};

static void add_line(struct lines *ls, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (ls->count == ls->cap) {
        ls->cap = ls->cap ? ls->cap * 2 : 64;
        ls->items = realloc(ls->items, ls->cap * sizeof *ls->items);
    }
    ls->items[ls->count++] = strdup(buf);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void assert_lines_match(struct lines *ls, const char *expect_path)
{
    size_t size;
    uint8_t *expect = td_read_file(expect_path, &size);
    qsort(ls->items, ls->count, sizeof *ls->items, compare_strings);
    size_t total = 1;
    for (size_t i = 0; i < ls->count; i++)
        total += strlen(ls->items[i]) + 1;
    char *got = malloc(total), *p = got;
    for (size_t i = 0; i < ls->count; i++) {
        p += sprintf(p, "%s\n", ls->items[i]);
        free(ls->items[i]);
    }
    *p = '\0';
    assert_true(size > 0);
    if (strlen(got) != size || memcmp(got, expect, size) != 0)
        fail_msg("%s differs; got:\n%.3000s", expect_path, got);
    free(got);
    free(expect);
    free(ls->items);
    memset(ls, 0, sizeof *ls);
}

static void collect_imports(struct loaded *l, bool delay, struct lines *ls)
{
    struct td_err err = {0};
    struct td_pe_import_dll *dlls;
    size_t n;
    assert_int_equal(td_pe_imports(&l->pe, delay, &dlls, &n, &err), 0);
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j < dlls[i].count; j++) {
            struct td_pe_import_func fn;
            if (td_pe_import_func(&l->pe, &dlls[i], j, &fn, &err) != 0)
                fail_msg("%s", err.msg);
            if (fn.by_ordinal)
                add_line(ls, "%s %s #%u", delay ? "D" : "I", dlls[i].name, fn.ordinal);
            else
                add_line(ls, "%s %s %s %u", delay ? "D" : "I", dlls[i].name, fn.name, fn.hint);
        }
    }
}

static void check_imports(const char *rel, const char *expect)
{
    struct loaded l;
    struct lines ls = {0};
    load(rel, &l);
    collect_imports(&l, false, &ls);
    collect_imports(&l, true, &ls);
    assert_lines_match(&ls, expect[0] == '/' ? expect : td_fixture(expect));
    unload(&l);
}

static void check_exports(const char *rel, const char *expect)
{
    struct loaded l;
    struct lines ls = {0};
    struct td_err err = {0};
    struct td_pe_exports ex;
    load(rel, &l);
    assert_int_equal(td_pe_exports(&l.pe, &ex, &err), 0);
    assert_true(ex.present);
    for (uint32_t i = 0; i < ex.nfunctions; i++) {
        struct td_pe_export e;
        if (td_pe_export_at(&l.pe, &ex, i, &e, &err) != 0)
            fail_msg("%s", err.msg);
        add_line(&ls, "E %u %s %x", e.ordinal, e.name ? e.name : "-", e.rva);
        if (e.forwarder)
            add_line(&ls, "F %u %s", e.ordinal, e.forwarder);
        /* Every named export is found again by binary search. */
        struct td_pe_export again;
        if (e.name) {
            assert_true(td_pe_export_by_name(&l.pe, &ex, e.name, &again));
            assert_int_equal(again.rva, e.rva);
        }
    }
    char path[4096];
    snprintf(path, sizeof path, "%s", td_fixture(expect));
    assert_lines_match(&ls, path);
    unload(&l);
}

static void imports_match_llvm_readobj(void **state)
{
    check_imports("pe/x64/app.exe", "pe/x64/app.imports.expect");
    check_imports("pe/x86/app.exe", "pe/x86/app.imports.expect");
    check_imports("pe/x64/appd.exe", "pe/x64/appd.imports.expect");
    check_imports("pe/x86/appd.exe", "pe/x86/appd.imports.expect");
    check_imports(WINE_DIR "msvcp140.dll", "pe/wine/msvcp140.imports.expect");
}

static void exports_match_readobj_and_objdump(void **state)
{
    check_exports("pe/x64/foo.dll", "pe/x64/foo.exports.expect");
    check_exports("pe/x86/foo.dll", "pe/x86/foo.exports.expect");
    check_exports(WINE_DIR "kernel32.dll", "pe/wine/kernel32.exports.expect");
    check_exports(WINE_DIR "msvcp140.dll", "pe/wine/msvcp140.exports.expect");
}

/* Compares machine, timestamp, image base, entry, SizeOfImage and subsystem
 * with llvm-readobj --file-headers. */
static void check_headers(const struct td_pe *pe, const char *expect)
{
    size_t size;
    uint8_t *raw = td_read_file(expect, &size);
    char *text = strndup((const char *)raw, size);
    free(raw);
    char *line = strtok(text, "\n");
    int checked = 0;
    for (; line; line = strtok(NULL, "\n"), checked++) {
        char key[32], value[64];
        assert_int_equal(sscanf(line, "%31s %63s", key, value), 2);
        const char *digits = value[0] == '(' ? value + 1 : value;
        unsigned long long v = strtoull(digits, NULL, 0);
        if (strcmp(key, "machine") == 0)
            assert_int_equal(pe->machine, v);
        else if (strcmp(key, "timestamp") == 0)
            assert_int_equal(pe->timestamp, v);
        else if (strcmp(key, "imagebase") == 0)
            assert_int_equal(pe->image_base, v);
        else if (strcmp(key, "entry") == 0)
            assert_int_equal(pe->entry_rva, v);
        else if (strcmp(key, "sizeofimage") == 0)
            assert_int_equal(pe->size_of_image, v);
        else if (strcmp(key, "subsystem") == 0)
            assert_int_equal(pe->subsystem, v);
        else
            fail_msg("unknown key %s in %s", key, expect);
    }
    assert_int_equal(checked, 6);
    free(text);
}

static void headers_x64_and_x86(void **state)
{
    struct loaded l;
    char flags[256];
    load("pe/x64/foo.dll", &l);
    check_headers(&l.pe, td_fixture("pe/x64/foo.headers.expect"));
    assert_true(l.pe.pe32plus);
    assert_int_equal(l.pe.machine, TD_PE_MACHINE_AMD64);
    assert_string_equal(l.pe.machine_info->name, "AMD64");
    assert_string_equal(td_pe_arch_slug(&l.pe), "x64");
    assert_true(td_pe_is_dll(&l.pe));
    assert_false(l.pe.managed);
    assert_int_equal(l.pe.hybrid, TD_PE_HYBRID_NONE);
    assert_int_equal(l.pe.ndirs, 16);
    assert_int_equal(l.pe.linker_major, 2); /* GNU ld 2.40 */
    assert_int_equal(l.pe.linker_minor, 40);
    assert_string_equal(td_pe_subsystem_name(l.pe.subsystem), "WINDOWS_CUI");
    td_pe_flag_names(TD_PE_FLAGS_FILE, l.pe.characteristics, flags, sizeof flags);
    assert_non_null(strstr(flags, "DLL"));
    assert_null(strstr(flags, "32BIT_MACHINE"));
    /* Section names, long ones (from the COFF string table) included. */
    bool text = false, edata = false, rsrc = false;
    for (unsigned i = 0; i < l.pe.nsections; i++) {
        text |= strcmp(l.pe.sections[i].name, ".text") == 0;
        edata |= strcmp(l.pe.sections[i].name, ".edata") == 0;
        rsrc |= strcmp(l.pe.sections[i].name, ".rsrc") == 0;
    }
    assert_true(text && edata && rsrc);
    unload(&l);

    load("pe/x86/foo.dll", &l);
    check_headers(&l.pe, td_fixture("pe/x86/foo.headers.expect"));
    assert_false(l.pe.pe32plus);
    assert_int_equal(l.pe.machine, TD_PE_MACHINE_I386);
    assert_string_equal(td_pe_arch_slug(&l.pe), "x86");
    td_pe_flag_names(TD_PE_FLAGS_FILE, l.pe.characteristics, flags, sizeof flags);
    assert_non_null(strstr(flags, "32BIT_MACHINE"));
    assert_non_null(strstr(flags, "DLL"));
    unload(&l);

    load("pe/x64/app.exe", &l);
    assert_false(td_pe_is_dll(&l.pe));
    assert_int_equal(l.pe.image_base, 0x140000000ull); /* mingw-w64 default for x64 EXEs */
    unload(&l);

    load(WINE_DIR "kernel32.dll", &l);
    check_headers(&l.pe, td_fixture("pe/wine/kernel32.headers.expect"));
    td_pe_flag_names(TD_PE_FLAGS_DLL, l.pe.dll_characteristics, flags, sizeof flags);
    assert_string_equal(flags, "HIGH_ENTROPY_VA|DYNAMIC_BASE|NX_COMPAT");
    unload(&l);
}

static void imports_by_name_and_ordinal(void **state)
{
    const char *exes[] = {"pe/x64/app.exe", "pe/x86/app.exe"};
    for (int k = 0; k < 2; k++) {
        struct loaded l;
        struct td_err err = {0};
        struct td_pe_import_dll *dlls;
        size_t n;
        load(exes[k], &l);
        assert_int_equal(td_pe_imports(&l.pe, false, &dlls, &n, &err), 0);
        const struct td_pe_import_dll *foo = NULL;
        for (size_t i = 0; i < n; i++)
            if (strcmp(dlls[i].name, "foo.dll") == 0)
                foo = &dlls[i];
        assert_non_null(foo);
        assert_int_equal(foo->count, 2);
        struct td_pe_import_func a, b;
        assert_int_equal(td_pe_import_func(&l.pe, foo, 0, &a, &err), 0);
        assert_int_equal(td_pe_import_func(&l.pe, foo, 1, &b, &err), 0);
        assert_false(a.by_ordinal);
        assert_string_equal(a.name, "foo_add");
        assert_true(b.by_ordinal);
        assert_int_equal(b.ordinal, 5);
        assert_null(b.name);
        /* Out of range is an error, not a read past the table. */
        assert_int_equal(td_pe_import_func(&l.pe, foo, 2, &a, &err), -1);
        /* No delay imports from GNU ld. */
        assert_int_equal(td_pe_imports(&l.pe, true, &dlls, &n, &err), 0);
        assert_int_equal(n, 0);
        unload(&l);
    }
}

static void delay_imports_from_lld(void **state)
{
    const char *exes[] = {"pe/x64/appd.exe", "pe/x86/appd.exe"};
    for (int k = 0; k < 2; k++) {
        struct loaded l;
        struct td_err err = {0};
        struct td_pe_import_dll *dlls;
        size_t n;
        load(exes[k], &l);
        assert_int_equal(td_pe_imports(&l.pe, true, &dlls, &n, &err), 0);
        assert_int_equal(n, 1);
        assert_string_equal(dlls[0].name, "foo.dll");
        assert_true(dlls[0].delay);
        assert_int_equal(dlls[0].attributes, 1); /* RVA-based */
        assert_false(dlls[0].va_based);
        assert_int_equal(dlls[0].count, 2);
        struct td_pe_import_func fn;
        assert_int_equal(td_pe_import_func(&l.pe, &dlls[0], 0, &fn, &err), 0);
        assert_string_equal(fn.name, "foo_add");
        assert_int_equal(td_pe_import_func(&l.pe, &dlls[0], 1, &fn, &err), 0);
        assert_true(fn.by_ordinal);
        assert_int_equal(fn.ordinal, 5);
        /* foo.dll is not among the ordinary imports. */
        assert_int_equal(td_pe_imports(&l.pe, false, &dlls, &n, &err), 0);
        for (size_t i = 0; i < n; i++)
            assert_string_not_equal(dlls[i].name, "foo.dll");
        unload(&l);
    }
}

static void export_lookups(void **state)
{
    const char *dlls[] = {"pe/x64/foo.dll", "pe/x86/foo.dll"};
    for (int k = 0; k < 2; k++) {
        struct loaded l;
        struct td_err err = {0};
        struct td_pe_exports ex;
        struct td_pe_export e;
        load(dlls[k], &l);
        assert_int_equal(td_pe_exports(&l.pe, &ex, &err), 0);
        assert_string_equal(ex.dll_name, "foo.dll");
        assert_int_equal(ex.ordinal_base, 1);
        assert_int_equal(ex.nfunctions, 7);
        assert_int_equal(ex.nnames, 4);
        assert_true(td_pe_export_by_name(&l.pe, &ex, "foo_mul", &e));
        assert_int_equal(e.ordinal, 2);
        assert_null(e.forwarder);
        assert_true(td_pe_export_by_name(&l.pe, &ex, "ExitProc", &e));
        assert_int_equal(e.ordinal, 3);
        assert_string_equal(e.forwarder, "kernel32.ExitProcess");
        assert_true(td_pe_export_by_ordinal(&l.pe, &ex, 5, &e));
        assert_null(e.name);
        assert_true(e.rva != 0);
        assert_true(td_pe_export_by_ordinal(&l.pe, &ex, 7, &e));
        assert_null(e.name);
        assert_false(td_pe_export_by_ordinal(&l.pe, &ex, 6, &e)); /* the gap */
        assert_false(td_pe_export_by_ordinal(&l.pe, &ex, 0, &e));
        assert_false(td_pe_export_by_ordinal(&l.pe, &ex, 8, &e));
        assert_false(td_pe_export_by_name(&l.pe, &ex, "foo_hidden", &e));
        assert_false(td_pe_export_by_name(&l.pe, &ex, "", &e));
        unload(&l);
    }
    struct loaded l;
    struct td_err err = {0};
    struct td_pe_exports ex;
    struct td_pe_export e;
    load(WINE_DIR "kernel32.dll", &l);
    assert_int_equal(td_pe_exports(&l.pe, &ex, &err), 0);
    assert_string_equal(ex.dll_name, "KERNEL32.dll");
    assert_true(td_pe_export_by_name(&l.pe, &ex, "AcquireSRWLockExclusive", &e));
    assert_string_equal(e.forwarder, "NTDLL.RtlAcquireSRWLockExclusive");
    assert_true(td_pe_export_by_name(&l.pe, &ex, "CreateFileW", &e));
    assert_null(e.forwarder);
    assert_false(td_pe_export_by_name(&l.pe, &ex, "CreateFileZ", &e));
    unload(&l);
}

static void version_resource(void **state)
{
    const char *dlls[] = {"pe/x64/foo.dll", "pe/x86/foo.dll"};
    for (int k = 0; k < 2; k++) {
        struct loaded l;
        struct td_err err = {0};
        struct td_pe_version v;
        load(dlls[k], &l);
        if (td_pe_version(&l.pe, &v, &err) != 0)
            fail_msg("%s", err.msg);
        assert_true(v.present);
        const uint16_t file[4] = {1, 2, 3, 4}, product[4] = {5, 6, 7, 8};
        assert_memory_equal(v.file_version, file, sizeof file);
        assert_memory_equal(v.product_version, product, sizeof product);
        assert_int_equal(v.flags_mask, 0x3f);
        assert_int_equal(v.flags, 0x2);
        assert_int_equal(v.os, 0x40004);
        assert_int_equal(v.type, 0x2);
        assert_int_equal(v.translation, 0x040904b0);
        assert_int_equal(v.nstrings, 7);
        assert_string_equal(td_pe_version_string(&v, "CompanyName"), "Torchdoctor Test Co");
        assert_string_equal(td_pe_version_string(&v, "FileVersion"), "1.2.3.4");
        assert_string_equal(td_pe_version_string(&v, "ProductVersion"), "5.6.7.8");
        assert_string_equal(td_pe_version_string(&v, "OriginalFilename"), "foo.dll");
        assert_string_equal(td_pe_version_string(&v, "ProductName"), "TD Foo");
        assert_string_equal(td_pe_version_string(&v, "FileDescription"),
                            "foo test library \xe2\x82\xac");
        assert_null(td_pe_version_string(&v, "LegalCopyright"));
        unload(&l);
    }
    struct loaded l;
    struct td_err err = {0};
    struct td_pe_version v;
    load(WINE_DIR "kernel32.dll", &l);
    assert_int_equal(td_pe_version(&l.pe, &v, &err), 0);
    assert_true(v.present);
    assert_string_equal(td_pe_version_string(&v, "CompanyName"), "Microsoft Corporation");
    assert_string_equal(td_pe_version_string(&v, "FileVersion"), "10.0.18362.1350");
    assert_string_equal(td_pe_version_string(&v, "FileDescription"), "Wine kernel DLL");
    const uint16_t file[4] = {10, 0, 18362, 1350};
    assert_memory_equal(v.file_version, file, sizeof file);
    unload(&l);
    /* Wine's msvcp140 and vcruntime140 carry no version resource: absent, not an error. */
    load(WINE_DIR "msvcp140.dll", &l);
    assert_int_equal(td_pe_version(&l.pe, &v, &err), 0);
    assert_false(v.present);
    unload(&l);
    load(WINE_DIR "vcruntime140.dll", &l);
    assert_int_equal(td_pe_version(&l.pe, &v, &err), 0);
    assert_false(v.present);
    unload(&l);
}

static void manifest_dependencies(void **state)
{
    const char *dlls[] = {"pe/x64/foo.dll", "pe/x86/foo.dll"};
    for (int k = 0; k < 2; k++) {
        struct loaded l;
        struct td_err err = {0};
        struct td_pe_manifest m;
        load(dlls[k], &l);
        if (td_pe_manifest(&l.pe, &m, &err) != 0)
            fail_msg("%s", err.msg);
        assert_true(m.present);
        assert_non_null(strstr(m.text, "urn:schemas-microsoft-com:asm.v1"));
        assert_int_equal(m.ndeps, 2);
        assert_string_equal(m.deps[0].name, "Microsoft.Windows.Common-Controls");
        assert_string_equal(m.deps[0].version, "6.0.0.0");
        assert_string_equal(m.deps[0].type, "win32");
        assert_string_equal(m.deps[0].arch, "*");
        assert_string_equal(m.deps[0].public_key_token, "6595b64144ccf1df");
        assert_string_equal(m.deps[0].language, "*");
        assert_string_equal(m.deps[1].name, "Microsoft.VC90.CRT");
        assert_string_equal(m.deps[1].version, "9.0.21022.8");
        assert_string_equal(m.deps[1].arch, "amd64");
        assert_null(m.deps[1].language);
        unload(&l);
    }
    struct loaded l;
    struct td_err err = {0};
    struct td_pe_manifest m;
    load("pe/x64/app.exe", &l);
    assert_int_equal(td_pe_manifest(&l.pe, &m, &err), 0);
    assert_false(m.present);
    unload(&l);
}

static void arm64_and_hybrid_images(void **state)
{
    struct loaded l;
    load("pe/arm/arm64.dll", &l);
    check_headers(&l.pe, td_fixture("pe/arm/arm64.headers.expect"));
    assert_int_equal(l.pe.machine, TD_PE_MACHINE_ARM64);
    assert_string_equal(td_pe_arch_slug(&l.pe), "arm64");
    assert_int_equal(l.pe.hybrid, TD_PE_HYBRID_NONE);
    unload(&l);

    static const struct {
        const char *file;
        enum td_pe_hybrid hybrid;
        const char *slug;
    } cases[] = {
        {"pe/arm/lc_aarch64_0.dll", TD_PE_HYBRID_NONE, "arm64"},
        {"pe/arm/lc_aarch64_0x1000.dll", TD_PE_HYBRID_ARM64X, "arm64x"},
        {"pe/arm/lc_x86_64_0.dll", TD_PE_HYBRID_NONE, "x64"},
        {"pe/arm/lc_x86_64_0x1000.dll", TD_PE_HYBRID_ARM64EC, "arm64ec"},
        {"pe/arm/lc_i686_0.dll", TD_PE_HYBRID_NONE, "x86"},
        {"pe/arm/lc_i686_0x1000.dll", TD_PE_HYBRID_CHPE_X86, "x86"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        load(cases[i].file, &l);
        assert_true(td_pe_has_dir(&l.pe, TD_PE_DIR_LOAD_CONFIG));
        if (l.pe.hybrid != cases[i].hybrid)
            fail_msg("%s: hybrid %d, expected %d", cases[i].file, l.pe.hybrid, cases[i].hybrid);
        assert_string_equal(td_pe_arch_slug(&l.pe), cases[i].slug);
        unload(&l);
    }
}

static void machine_table(void **state)
{
    assert_string_equal(td_pe_machine_info(0x14c)->slug, "x86");
    assert_string_equal(td_pe_machine_info(0x8664)->slug, "x64");
    assert_string_equal(td_pe_machine_info(0xaa64)->slug, "arm64");
    assert_string_equal(td_pe_machine_info(0x1c0)->slug, "arm");
    assert_string_equal(td_pe_machine_info(0x1c4)->slug, "armnt");
    assert_string_equal(td_pe_machine_info(0x200)->slug, "ia64");
    assert_string_equal(td_pe_machine_info(0xa641)->name, "ARM64EC");
    assert_string_equal(td_pe_machine_info(0xa64e)->name, "ARM64X");
    assert_string_equal(td_pe_machine_info(0x5064)->name, "RISCV64");
    assert_string_equal(td_pe_machine_info(0x6264)->name, "LOONGARCH64");
    assert_null(td_pe_machine_info(0x1234));
    char flags[64];
    td_pe_flag_names(TD_PE_FLAGS_FILE, 0x2102 | 0x40, flags, sizeof flags);
    assert_string_equal(flags, "EXECUTABLE_IMAGE|0x40|32BIT_MACHINE|DLL");
}

static void codeview_and_bound_imports(void **state)
{
    struct loaded l;
    struct td_err err = {0};
    struct td_pe_codeview cv;
    struct td_pe_bound_import *bound;
    size_t n;
    load("pe/x64/foo.dll", &l);
    assert_int_equal(td_pe_codeview(&l.pe, &cv, &err), 0);
    assert_false(cv.present); /* GNU ld writes no CodeView record without --build-id */
    assert_int_equal(td_pe_bound_imports(&l.pe, &bound, &n, &err), 0);
    assert_int_equal(n, 0);
    unload(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(headers_x64_and_x86),
        cmocka_unit_test(machine_table),
        cmocka_unit_test(imports_by_name_and_ordinal),
        cmocka_unit_test(delay_imports_from_lld),
        cmocka_unit_test(imports_match_llvm_readobj),
        cmocka_unit_test(export_lookups),
        cmocka_unit_test(exports_match_readobj_and_objdump),
        cmocka_unit_test(version_resource),
        cmocka_unit_test(manifest_dependencies),
        cmocka_unit_test(arm64_and_hybrid_images),
        cmocka_unit_test(codeview_and_bound_imports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
