/* Hostile-input tests of the ELF reader: truncations, byte flips, huge
 * counts, overflowing offsets and self-referencing tables made from real
 * fixtures. Every parse must fail with a message that names the structure
 * and offset, or succeed with bounded results; never crash or hang. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/elf.h"

static uint8_t *load(const char *name, size_t *size)
{
    char rel[256];
    snprintf(rel, sizeof rel, "elf/%s", name);
    return td_read_file(td_fixture(rel), size);
}

static bool inside(const uint8_t *data, size_t size, const char *s)
{
    return !s || ((const uint8_t *)s >= data && (const uint8_t *)s < data + size);
}

/* Parses a private copy of exactly SIZE bytes (so a sanitizer sees any read
 * past the end), then walks every symbol and does a few lookups. Returns the
 * parse result; ERR holds the message on failure. */
static int exercise(const uint8_t *bytes, size_t size, struct td_err *err)
{
    uint8_t *data = malloc(size ? size : 1);
    struct td_arena arena = {0};
    struct td_elf elf;
    assert_non_null(data);
    memcpy(data, bytes, size);
    td_err_clear(err);
    int rc = td_elf_parse(&elf, data, size, &arena, err);
    if (rc != 0) {
        assert_true(err->set);
        if (!strstr(err->msg, "offset"))
            fail_msg("error without an offset: %s", err->msg);
    } else {
        uint32_t def, undef;
        struct td_err walk_err = {0};
        struct td_elf_sym s;
        for (uint32_t i = 0; i < elf.needed_count; i++)
            assert_true(inside(data, size, elf.needed[i]));
        assert_true(inside(data, size, elf.soname));
        if (td_elf_dynsym_tally(&elf, &def, &undef, &walk_err) != 0)
            assert_non_null(strstr(walk_err.msg, "offset"));
        for (uint32_t i = 0; i < td_elf_dynsym_count(&elf); i++)
            if (td_elf_dynsym(&elf, i, &s))
                assert_true(inside(data, size, s.name));
        /* The walk gives what td_elf_dynsym gives, and stops where it fails. */
        struct td_elf_dynsym_walk w;
        struct td_elf_sym ws;
        td_elf_dynsym_walk_begin(&w, &elf);
        while (td_elf_dynsym_walk_next(&w, &ws)) {
            assert_true(td_elf_dynsym(&elf, w.next - 1, &s));
            assert_ptr_equal(ws.name, s.name);
            assert_true(inside(data, size, ws.name));
            assert_true(ws.name_room > strlen(ws.name));
            assert_true(ws.name + ws.name_room <= (const char *)data + size);
        }
        if (w.next < td_elf_dynsym_count(&elf))
            assert_false(td_elf_dynsym(&elf, w.next, &s));
        static const char *names[] = {"foo", "bar", "baz", "qux", "dep_value", "nope"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            td_elf_lookup(&elf, names[i], td_elf_gnu_hash(names[i]), NULL, &s);
            td_elf_lookup(&elf, names[i], td_elf_gnu_hash(names[i]), "VER_2", &s);
        }
    }
    assert_true(arena.used_total <= TD_ARENA_DEFAULT_CAP);
    td_arena_free(&arena);
    free(data);
    return rc;
}

static void parse_ok(const uint8_t *data, size_t size, struct td_elf *elf, struct td_arena *a)
{
    struct td_err err = {0};
    if (td_elf_parse(elf, data, size, a, &err) != 0)
        fail_msg("%s", err.msg);
}

/* The file offset of the value of the first dynamic entry with TAG. */
static uint64_t dyn_value_offset(const struct td_elf *elf, uint64_t tag)
{
    unsigned w = elf->is64 ? 8 : 4;
    for (uint64_t at = elf->dyn.offset; at + 2 * w <= elf->dyn.offset + elf->dyn.size;
         at += 2 * w) {
        uint64_t t = 0;
        td_buf_word(&elf->buf, at, w, &t);
        if (t == tag)
            return at + w;
    }
    fail_msg("dynamic tag 0x%llx not found", (unsigned long long)tag);
    return 0;
}

static void put_le(uint8_t *p, uint64_t v, unsigned width)
{
    for (unsigned i = 0; i < width; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Patches WIDTH bytes at OFF of a copy, parses it and expects an error
 * containing WANT. */
static void expect_error(const uint8_t *orig, size_t size, uint64_t off, uint64_t value,
                         unsigned width, const char *want)
{
    uint8_t *copy = malloc(size);
    struct td_err err = {0};
    memcpy(copy, orig, size);
    put_le(copy + off, value, width);
    if (exercise(copy, size, &err) == 0)
        fail_msg("patch at 0x%llx parsed; wanted \"%s\"", (unsigned long long)off, want);
    if (!strstr(err.msg, want))
        fail_msg("wanted \"%s\", got \"%s\"", want, err.msg);
    free(copy);
}

static void truncations(void **state)
{
    static const char *files[] = {"libver.so", "libuser.so", "libi686.so", "libtiny-ppc64.so"};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        size_t size;
        uint8_t *data = load(files[k], &size);
        struct td_err err;
        for (size_t n = 0; n < size && n <= 4096; n++)
            exercise(data, n, &err);
        /* Table boundaries, and one byte either side. */
        struct td_arena a = {0};
        struct td_elf elf;
        parse_ok(data, size, &elf, &a);
        uint64_t marks[] = {elf.dyn.offset,    elf.dyn.offset + elf.dyn.size,
                            elf.strtab_off,    elf.strtab_off + elf.strtab_size,
                            elf.symtab_off,    elf.versym_off,
                            elf.gnu.chain_off, elf.sysv.chain_off};
        for (size_t m = 0; m < sizeof marks / sizeof marks[0]; m++)
            for (uint64_t n = marks[m] ? marks[m] - 1 : 0; n <= marks[m] + 1; n++)
                if (n < size)
                    exercise(data, (size_t)n, &err);
        for (uint32_t i = 0; i < elf.phnum; i++)
            if (elf.phdrs[i].offset + elf.phdrs[i].filesz < size)
                exercise(data, (size_t)(elf.phdrs[i].offset + elf.phdrs[i].filesz), &err);
        td_arena_free(&a);
        free(data);
    }
}

static void byte_flips(void **state)
{
    static const char *files[] = {"libver.so", "libuser.so", "libi686.so"};
    static const uint8_t patterns[][2] = {{0xff, 0}, {0x80, 0}, {0, 0xff}, {0, 0x01}};
    for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
        size_t size;
        uint8_t *data = load(files[k], &size);
        struct td_arena a = {0};
        struct td_elf elf;
        parse_ok(data, size, &elf, &a);
        uint64_t dyn_end = elf.dyn.offset + elf.dyn.size;
        struct td_err err;
        for (uint64_t off = 0; off < size; off++) {
            bool headers_and_tables = off < 0x800, dynamic = off >= elf.dyn.offset && off < dyn_end;
            if (!headers_and_tables && !dynamic)
                continue;
            for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
                uint8_t saved = data[off];
                /* xor with the first byte, or set to the second */
                data[off] = patterns[p][0] ? saved ^ patterns[p][0] : patterns[p][1];
                exercise(data, size, &err);
                data[off] = saved;
            }
        }
        td_arena_free(&a);
        free(data);
    }
}

static void huge_counts_and_offsets(void **state)
{
    size_t size;
    uint8_t *data = load("libuser.so", &size);
    struct td_arena a = {0};
    struct td_elf elf;
    parse_ok(data, size, &elf, &a);

    expect_error(data, size, 56, 0xfffe, 2, "program headers at offset 0x40");
    expect_error(data, size, 32, UINT64_MAX, 8, "program headers at offset 0xffffffffffffffff");
    expect_error(data, size, dyn_value_offset(&elf, 0x6fffffff), 0xffffffff, 8, "DT_VERNEEDNUM");
    expect_error(data, size, dyn_value_offset(&elf, 0x6fffffff), 2, 8,
                 "list ends after 1 of 2 entries");
    expect_error(data, size, dyn_value_offset(&elf, 5), UINT64_MAX, 8,
                 "DT_STRTAB 0xffffffffffffffff");
    expect_error(data, size, dyn_value_offset(&elf, 10), UINT64_MAX, 8, "DT_STRTAB");
    expect_error(data, size, dyn_value_offset(&elf, 1), 0x7fffffff, 8, "DT_NEEDED string");
    expect_error(data, size, elf.gnu.bloom_off - 16, 0xffffffff, 4, "GNU hash table at offset");
    expect_error(data, size, elf.gnu.bloom_off - 16, 0, 4, "GNU hash table at offset");
    expect_error(data, size, elf.gnu.bloom_off - 4, 64, 4, "shift 64");

    /* PT_DYNAMIC's offset, and every PT_LOAD's size, set to all ones. */
    for (uint32_t i = 0; i < elf.phnum; i++) {
        uint64_t ph = 64 + 56ull * i;
        if (elf.phdrs[i].type == TD_PT_DYNAMIC)
            expect_error(data, size, ph + 8, UINT64_MAX, 8, "PT_DYNAMIC at offset 0xffff");
    }
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    for (uint32_t i = 0; i < elf.phnum; i++)
        if (elf.phdrs[i].type == TD_PT_LOAD)
            put_le(copy + 64 + 56ull * i + 32, UINT64_MAX, 8);
    struct td_err err = {0};
    /* Huge sizes alone still translate: every read is bounded by the file. */
    assert_int_equal(exercise(copy, size, &err), 0);
    for (uint32_t i = 0; i < elf.phnum; i++)
        if (elf.phdrs[i].type == TD_PT_LOAD)
            put_le(copy + 64 + 56ull * i + 16, UINT64_MAX, 8);
    assert_int_equal(exercise(copy, size, &err), -1);
    assert_non_null(strstr(err.msg, "lies outside every PT_LOAD segment"));

    /* A verneed entry whose vn_aux points back at itself: the "aux" list
     * reads the verneed as vernaux entries until vna_next ends it early. */
    uint64_t vn;
    assert_true(td_elf_vaddr_to_offset(&elf, elf.dyn.verneed, 16, &vn, NULL));
    memcpy(copy, data, size);
    put_le(copy + vn + 8, 0, 4);
    assert_int_equal(exercise(copy, size, &err), -1);
    /* vn_cnt beyond what the file can hold. */
    expect_error(data, size, vn + 2, 0xffff, 2, "verneed aux at offset");
    free(copy);
    td_arena_free(&a);
    free(data);
}

/* The count of dynamic symbols (inspect without --symbols) stops at a
 * symbol whose name lies outside DT_STRSZ or whose versym index names no
 * version, and says which: it reads no name's bytes, but checks each. */
static void tally_names_a_bad_symbol(void **state)
{
    (void)state;
    size_t size;
    uint8_t *data = load("libuser.so", &size);
    struct td_arena a = {0};
    struct td_elf elf;
    parse_ok(data, size, &elf, &a);
    uint32_t def, undef;
    struct td_err err = {0};
    assert_int_equal(td_elf_dynsym_tally(&elf, &def, &undef, &err), 0);
    assert_true(elf.has_versym && elf.dynsym_count > 2);
    uint32_t last = elf.dynsym_count - 1;
    struct {
        uint64_t off;
        uint64_t value;
        unsigned width;
    } patches[] = {
        {elf.symtab_off + last * elf.dyn.syment, 0xffffffff, 4}, /* st_name */
        {elf.versym_off + 2ull * last, 0x7ff0, 2},               /* versym index */
    };
    char want[64];
    snprintf(want, sizeof want, "dynamic symbol %u at offset", last);
    for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
        uint8_t *copy = malloc(size);
        memcpy(copy, data, size);
        put_le(copy + patches[i].off, patches[i].value, patches[i].width);
        struct td_arena ca = {0};
        struct td_elf bad;
        parse_ok(copy, size, &bad, &ca);
        td_err_clear(&err);
        assert_int_equal(td_elf_dynsym_tally(&bad, &def, &undef, &err), -1);
        if (!strstr(err.msg, want))
            fail_msg("wanted \"%s\", got \"%s\"", want, err.msg);
        td_arena_free(&ca);
        free(copy);
    }
    td_arena_free(&a);
    free(data);
}

static void sysv_hash_hostile(void **state)
{
    size_t size;
    uint8_t *data = load("libi686.so", &size);
    struct td_arena a = {0};
    struct td_elf elf;
    parse_ok(data, size, &elf, &a);
    uint64_t h = elf.sysv.buckets_off - 8;
    expect_error(data, size, h + 4, 0xffffffff, 4, "hash table at offset");
    expect_error(data, size, h, 0, 4, "hash table at offset");
    /* Every chain entry points at itself: lookups must still end. */
    uint8_t *copy = malloc(size);
    memcpy(copy, data, size);
    for (uint64_t i = 0; i < elf.sysv.nchain; i++)
        put_le(copy + elf.sysv.chain_off + 4 * i, i, 4);
    for (uint64_t b = 0; b < elf.sysv.nbucket; b++)
        put_le(copy + elf.sysv.buckets_off + 4 * b, elf.sysv.nchain - 1, 4);
    struct td_err err = {0};
    assert_int_equal(exercise(copy, size, &err), 0);
    struct td_arena a2 = {0};
    struct td_elf looped;
    parse_ok(copy, size, &looped, &a2);
    struct td_elf_sym s;
    assert_false(td_elf_lookup(&looped, "nope", 0, NULL, &s));
    td_arena_free(&a2);
    free(copy);
    td_arena_free(&a);
    free(data);
}

/* A GNU hash chain that never ends: every word from the chain to the end of
 * its segment has bit 0 clear. */
static void gnu_chain_never_ends(void **state)
{
    size_t size;
    uint8_t *data = load("libver.so", &size);
    struct td_arena a = {0};
    struct td_elf elf;
    parse_ok(data, size, &elf, &a);
    for (uint64_t i = 0; 4 * (i + 1) <= elf.gnu.chain_avail; i++)
        put_le(data + elf.gnu.chain_off + 4 * i, 2, 4);
    struct td_err err = {0};
    assert_int_equal(exercise(data, size, &err), -1);
    assert_non_null(strstr(err.msg, "GNU hash chain at offset"));
    assert_non_null(strstr(err.msg, "never ends"));
    td_arena_free(&a);
    free(data);
}

static void arena_cap_is_honoured(void **state)
{
    size_t size;
    uint8_t *data = load("libver.so", &size);
    struct td_arena tiny = {.cap = 1000};
    struct td_elf elf;
    struct td_err err = {0};
    assert_int_equal(td_elf_parse(&elf, data, size, &tiny, &err), -1);
    assert_non_null(strstr(err.msg, "arena cap reached"));
    assert_true(tiny.used_total <= 1000);
    td_arena_free(&tiny);
    free(data);

    /* 60000 program headers fit the file but not a 1 MiB cap. */
    size = 64 + 60000 * 56;
    uint8_t *big = calloc(1, size);
    memcpy(big, "\177ELF\2\1\1", 7);
    put_le(big + 16, TD_ET_DYN, 2);
    put_le(big + 32, 64, 8);
    put_le(big + 54, 56, 2);
    put_le(big + 56, 60000, 2);
    struct td_arena capped = {.cap = 1 << 20};
    td_err_clear(&err);
    assert_int_equal(td_elf_parse(&elf, big, size, &capped, &err), -1);
    assert_string_equal(err.msg, "program headers at offset 0x40: arena cap reached");
    assert_true(capped.used_total <= capped.cap);
    td_arena_free(&capped);
    struct td_arena roomy = {0};
    assert_int_equal(td_elf_parse(&elf, big, size, &roomy, &err), 0);
    assert_int_equal(elf.phnum, 60000);
    assert_false(elf.has_dynamic);
    td_arena_free(&roomy);
    free(big);
}

static void not_elf(void **state)
{
    struct td_err err = {0};
    struct td_arena a = {0};
    struct td_elf elf;
    assert_int_equal(td_elf_parse(&elf, (const uint8_t *)"MZ\0\0", 4, &a, &err), -1);
    assert_string_equal(err.msg, "ELF header at offset 0x0: no ELF magic");
    td_err_clear(&err);
    assert_int_equal(td_elf_parse(&elf, (const uint8_t *)"\177ELF\3\1", 6, &a, &err), -1);
    assert_non_null(strstr(err.msg, "offset 0x0"));
    td_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_elf),
        cmocka_unit_test(truncations),
        cmocka_unit_test(byte_flips),
        cmocka_unit_test(huge_counts_and_offsets),
        cmocka_unit_test(tally_names_a_bad_symbol),
        cmocka_unit_test(sysv_hash_hostile),
        cmocka_unit_test(gnu_chain_never_ends),
        cmocka_unit_test(arena_cap_is_honoured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
