/* Hostile-input tests of the PE reader: truncations, byte flips, huge
 * counts, out-of-range RVAs, unterminated tables, resource loops and a small
 * arena cap. The reader must fail with an error naming the structure and
 * offset, never crash, hang or allocate past the cap. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/pe.h"

#define WINE_DIR "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/"

/* Runs every reader entry point; returns the parse status. */
static int exercise(const uint8_t *data, size_t size, size_t cap)
{
    struct td_arena arena = {.cap = cap};
    struct td_err err = {0};
    struct td_pe pe;
    int rc = td_pe_parse(&pe, data, size, &arena, &err);
    if (rc == 0) {
        for (int delay = 0; delay < 2; delay++) {
            struct td_pe_import_dll *dlls;
            size_t n;
            td_err_clear(&err);
            if (td_pe_imports(&pe, delay, &dlls, &n, &err) != 0)
                continue;
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < dlls[i].count; j++) {
                    struct td_pe_import_func fn;
                    td_err_clear(&err);
                    td_pe_import_func(&pe, &dlls[i], j, &fn, &err);
                }
        }
        struct td_pe_exports ex;
        struct td_pe_export e;
        td_err_clear(&err);
        if (td_pe_exports(&pe, &ex, &err) == 0 && ex.present) {
            for (uint32_t i = 0; i < ex.nfunctions; i++) {
                td_err_clear(&err);
                td_pe_export_at(&pe, &ex, i, &e, &err);
            }
            td_pe_export_by_name(&pe, &ex, "foo_add", &e);
            td_pe_export_by_ordinal(&pe, &ex, 5, &e);
        }
        struct td_pe_bound_import *bound;
        struct td_pe_version v;
        struct td_pe_manifest m;
        struct td_pe_codeview cv;
        size_t n;
        td_err_clear(&err);
        td_pe_bound_imports(&pe, &bound, &n, &err);
        td_err_clear(&err);
        td_pe_version(&pe, &v, &err);
        td_err_clear(&err);
        td_pe_manifest(&pe, &m, &err);
        td_err_clear(&err);
        td_pe_codeview(&pe, &cv, &err);
    } else {
        assert_true(err.set);
        assert_non_null(strstr(err.msg, "offset"));
    }
    assert_true(arena.used_total <= (cap ? cap : TD_ARENA_DEFAULT_CAP));
    td_arena_free(&arena);
    return rc;
}

static uint8_t *read_fixture(const char *rel, size_t *size)
{
    return td_read_file(rel[0] == '/' ? rel : td_fixture(rel), size);
}

static void parse_copy(const uint8_t *data, size_t size, struct td_arena *arena, struct td_pe *pe)
{
    struct td_err err = {0};
    if (td_pe_parse(pe, data, size, arena, &err) != 0)
        fail_msg("%s", err.msg);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void truncations(void **state)
{
    const char *files[] = {"pe/x64/foo.dll", "pe/x86/foo.dll", "pe/x64/appd.exe"};
    for (int f = 0; f < 3; f++) {
        size_t size;
        uint8_t *data = read_fixture(files[f], &size);
        /* Every length of the first 4 KB; each copy is exact-sized so ASan
         * sees a read past its end. */
        for (size_t len = 0; len <= 4096 && len <= size; len++) {
            uint8_t *copy = malloc(len ? len : 1);
            memcpy(copy, data, len);
            int rc = exercise(copy, len, 0);
            if (len < 0x40)
                assert_int_equal(rc, -1);
            free(copy);
        }
        /* Each section boundary and each data directory's start and end. */
        struct td_arena arena = {0};
        struct td_pe pe;
        parse_copy(data, size, &arena, &pe);
        for (unsigned i = 0; i < pe.nsections + pe.ndirs; i++) {
            uint64_t cut[2];
            if (i < pe.nsections) {
                cut[0] = pe.sections[i].raw_offset;
                cut[1] = (uint64_t)pe.sections[i].raw_offset + pe.sections[i].raw_size;
            } else {
                uint64_t off;
                const struct td_pe_dir *d = &pe.dirs[i - pe.nsections];
                if (!td_pe_rva_to_offset(&pe, d->rva, 1, &off, NULL))
                    continue;
                cut[0] = off;
                cut[1] = off + d->size;
            }
            for (int k = 0; k < 2; k++)
                for (uint64_t len = cut[k] > 2 ? cut[k] - 2 : 0; len <= cut[k] + 2; len++) {
                    if (len > size)
                        break;
                    uint8_t *copy = malloc(len ? len : 1);
                    memcpy(copy, data, len);
                    exercise(copy, len, 0);
                    free(copy);
                }
        }
        td_arena_free(&arena);
        free(data);
    }
}

static void byte_flips(void **state)
{
    const char *files[] = {"pe/x64/foo.dll", "pe/x86/appd.exe"};
    for (int f = 0; f < 2; f++) {
        size_t size;
        uint8_t *data = read_fixture(files[f], &size);
        struct td_arena arena = {0};
        struct td_pe pe;
        parse_copy(data, size, &arena, &pe);
        /* The headers, then every byte of the table directories. */
        for (size_t i = 0; i < 4096 && i < size; i++) {
            data[i] ^= 0xff;
            exercise(data, size, 0);
            data[i] ^= 0xff;
        }
        static const unsigned dirs[] = {TD_PE_DIR_EXPORT, TD_PE_DIR_IMPORT, TD_PE_DIR_RESOURCE,
                                        TD_PE_DIR_DELAY_IMPORT};
        for (size_t d = 0; d < 4; d++) {
            uint64_t off, avail;
            if (!td_pe_has_dir(&pe, dirs[d]) ||
                !td_pe_rva_to_offset(&pe, pe.dirs[dirs[d]].rva, 1, &off, &avail))
                continue;
            uint64_t end = off + (avail < 4096 ? avail : 4096);
            for (uint64_t i = off; i < end; i++) {
                static const uint8_t values[] = {0x00, 0xff, 0x80, 0x7f};
                uint8_t saved = data[i];
                for (int v = 0; v < 4; v++) {
                    data[i] = values[v];
                    exercise(data, size, 0);
                }
                data[i] = saved;
            }
        }
        td_arena_free(&arena);
        free(data);
    }
}

/* Parses a patched copy and expects the error to contain NEEDLE. */
static void expect_error(const uint8_t *data, size_t size, const char *needle,
                         int (*step)(const struct td_pe *, struct td_err *))
{
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_pe pe;
    int rc = td_pe_parse(&pe, data, size, &arena, &err);
    if (rc == 0 && step)
        rc = step(&pe, &err);
    if (rc == 0)
        fail_msg("expected an error containing \"%s\"", needle);
    if (!strstr(err.msg, needle))
        fail_msg("error \"%s\" lacks \"%s\"", err.msg, needle);
    td_arena_free(&arena);
}

static int step_exports(const struct td_pe *pe, struct td_err *err)
{
    struct td_pe_exports ex;
    return td_pe_exports(pe, &ex, err);
}

static int step_imports(const struct td_pe *pe, struct td_err *err)
{
    struct td_pe_import_dll *dlls;
    size_t n;
    return td_pe_imports(pe, false, &dlls, &n, err);
}

static int step_version(const struct td_pe *pe, struct td_err *err)
{
    struct td_pe_version v;
    return td_pe_version(pe, &v, err);
}

/* File offset of directory INDEX's table in DATA. */
static uint64_t dir_offset(const uint8_t *data, size_t size, unsigned index, uint64_t *avail)
{
    struct td_arena arena = {0};
    struct td_pe pe;
    uint64_t off;
    parse_copy(data, size, &arena, &pe);
    assert_true(td_pe_rva_to_offset(&pe, pe.dirs[index].rva, 1, &off, avail));
    td_arena_free(&arena);
    return off;
}

static void huge_counts_and_bad_rvas(void **state)
{
    size_t size;
    uint8_t *data = read_fixture("pe/x64/foo.dll", &size);
    uint32_t lfanew = data[0x3c] | data[0x3d] << 8;
    uint8_t *coff = data + lfanew + 4, *opt = coff + 20;
    uint8_t *work = malloc(size);

    memcpy(work, data, size);
    work[lfanew + 4 + 2] = 0xff, work[lfanew + 4 + 3] = 0xff; /* NumberOfSections */
    expect_error(work, size, "section table at offset 0x", NULL);

    memcpy(work, data, size);
    put_u32(work + (opt - data) + 108, 0xffffffff); /* NumberOfRvaAndSizes (PE32+) */
    assert_int_equal(exercise(work, size, 0), 0);

    memcpy(work, data, size);
    work[(opt - data) + 0] = 0x07; /* optional header magic */
    expect_error(work, size, "magic 0x207", NULL);

    memcpy(work, data, size);
    put_u32(work + 0x3c, 0xfffffff0); /* e_lfanew */
    expect_error(work, size, "PE signature at offset 0xfffffff0", NULL);

    uint64_t edata = dir_offset(data, size, TD_PE_DIR_EXPORT, NULL);
    memcpy(work, data, size);
    put_u32(work + edata + 20, 0xffffffff); /* NumberOfFunctions */
    expect_error(work, size, "export address table (RVA", step_exports);
    memcpy(work, data, size);
    put_u32(work + edata + 24, 0xffffffff); /* NumberOfNames */
    expect_error(work, size, "name pointer table (RVA", step_exports);
    memcpy(work, data, size);
    put_u32(work + (opt - data) + 112, 0xfffffff0); /* export directory RVA */
    expect_error(work, size, "export directory: RVA 0xfffffff0", step_exports);

    /* An import descriptor list with no terminator: fill the rest of its
     * section with copies of the first descriptor. */
    uint64_t avail, idata = dir_offset(data, size, TD_PE_DIR_IMPORT, &avail);
    memcpy(work, data, size);
    for (uint64_t at = idata + 20; at + 20 <= idata + avail; at += 20)
        memcpy(work + at, work + idata, 20);
    expect_error(work, size, "without a null terminator", step_imports);
    memcpy(work, data, size);
    put_u32(work + idata + 12, 0xffffff00); /* first descriptor's Name RVA */
    expect_error(work, size, "DLL name RVA 0xffffff00", step_imports);

    /* Resource directories pointing back at themselves. */
    uint64_t rsrc = dir_offset(data, size, TD_PE_DIR_RESOURCE, NULL);
    memcpy(work, data, size);
    assert_int_equal(work[rsrc + 12] | work[rsrc + 13] << 8, 0); /* no named types */
    put_u32(work + rsrc + 16 + 4, 0x80000000);                   /* first type -> the root */
    expect_error(work, size, "loop", step_version);
    memcpy(work, data, size);
    uint32_t type_dir = (work[rsrc + 20] | work[rsrc + 21] << 8 | work[rsrc + 22] << 16) & 0xffffff;
    put_u32(work + rsrc + type_dir + 16 + 4, 0x80000000 | type_dir); /* name -> itself */
    expect_error(work, size, "loop", step_version);
    memcpy(work, data, size);
    put_u32(work + rsrc + 12, 0xffffffff); /* 65535 named + 65535 ID entries */
    expect_error(work, size, "entries run past the resource section", step_version);

    free(work);
    free(data);
    (void)coff;
}

static void arena_cap_is_honoured(void **state)
{
    size_t size;
    uint8_t *data = read_fixture(WINE_DIR "kernel32.dll", &size);
    struct td_arena arena = {.cap = 1};
    struct td_err err = {0};
    struct td_pe pe;
    assert_int_equal(td_pe_parse(&pe, data, size, &arena, &err), -1);
    assert_non_null(strstr(err.msg, "arena cap"));
    td_arena_free(&arena);

    /* A hostile export table as large as the biggest section: it is backed
     * by the file, so only the cap stops the per-function array. */
    struct td_arena big = {0};
    parse_copy(data, size, &big, &pe);
    const struct td_pe_section *largest = &pe.sections[0];
    for (unsigned i = 1; i < pe.nsections; i++)
        if (pe.sections[i].raw_size > largest->raw_size)
            largest = &pe.sections[i];
    uint32_t backed =
        largest->raw_size < largest->virtual_size ? largest->raw_size : largest->virtual_size;
    assert_true(backed > 512 * 1024);
    uint64_t edata;
    assert_true(td_pe_rva_to_offset(&pe, pe.dirs[TD_PE_DIR_EXPORT].rva, 40, &edata, NULL));
    put_u32(data + edata + 20, backed / 4);               /* NumberOfFunctions */
    put_u32(data + edata + 28, largest->virtual_address); /* AddressOfFunctions */
    td_arena_free(&big);

    struct td_arena capped = {.cap = 256 * 1024};
    struct td_pe_exports ex;
    td_err_clear(&err);
    parse_copy(data, size, &capped, &pe);
    assert_int_equal(td_pe_exports(&pe, &ex, &err), -1);
    if (!strstr(err.msg, "exceeds the arena cap"))
        fail_msg("unexpected error: %s", err.msg);
    assert_true(capped.used_total <= capped.cap);
    td_arena_free(&capped);

    struct td_arena roomy = {0};
    td_err_clear(&err);
    parse_copy(data, size, &roomy, &pe);
    assert_int_equal(td_pe_exports(&pe, &ex, &err), 0);
    assert_int_equal(ex.nfunctions, backed / 4);
    td_arena_free(&roomy);
    free(data);
}

static void not_a_pe(void **state)
{
    static const uint8_t elf[64] = {0x7f, 'E', 'L', 'F'};
    expect_error(elf, sizeof elf, "DOS header at offset 0x0", NULL);
    uint8_t mz[0x80] = {'M', 'Z'};
    mz[0x3c] = 0x40;
    memcpy(mz + 0x40, "NE\0\0", 4);
    expect_error(mz, sizeof mz, "PE signature at offset 0x40", NULL);
}

static void manifest_scanner_is_tolerant(void **state)
{
    struct td_arena arena = {0};
    struct td_err err = {0};
    struct td_pe_manifest m;
    static const char text[] =
        "<assembly><dependency><dependentAssembly><assemblyIdentity name=\"A\" version='1.0'"
        " bogus = \"x\" / ></dependentAssembly></dependency>"
        "<!-- <dependentAssembly><assemblyIdentity name=\"B\"/></dependentAssembly> -->"
        "<dependentAssembly><assemblyIdentity name=\"C";
    assert_int_equal(td_pe_manifest_scan(text, sizeof text - 1, &arena, &m, &err), 0);
    assert_int_equal(m.ndeps, 2);
    assert_string_equal(m.deps[0].name, "A");
    assert_string_equal(m.deps[0].version, "1.0");
    assert_string_equal(m.deps[1].name, "C"); /* unterminated value: taken to the end */
    for (size_t len = 0; len < sizeof text; len++)
        assert_int_equal(td_pe_manifest_scan(text, len, &arena, &m, &err), 0);
    td_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_a_pe),
        cmocka_unit_test(huge_counts_and_bad_rvas),
        cmocka_unit_test(arena_cap_is_honoured),
        cmocka_unit_test(manifest_scanner_is_tolerant),
        cmocka_unit_test(truncations),
        cmocka_unit_test(byte_flips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
