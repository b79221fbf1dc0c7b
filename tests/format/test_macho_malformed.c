/* Hostile and hand-made Mach-O input: truncations, byte flips, huge counts,
 * cmdsize 0, overflowing offsets, trie cycles and depth, small arena caps,
 * plus what lld-14 cannot make (big-endian ppc, chained fixups, re-export
 * and resolver trie entries). Nothing may crash, hang or over-allocate, and
 * each error names the structure and offset. */
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/macho.h"

/* ---- a small image writer ---- */

#define IMAGE_SIZE 0x1000u
#define DATA_AT 0x800u /* commands stay below, tables above */

struct writer {
    uint8_t b[IMAGE_SIZE];
    bool be, is64;
    size_t pos;     /* next byte of the command being written */
    size_t cmd_end; /* end of the commands so far */
    uint32_t ncmds;
};

static void put32(struct writer *w, size_t off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        w->b[off + (size_t)i] = (uint8_t)(v >> (w->be ? 24 - 8 * i : 8 * i));
}

static void put64(struct writer *w, size_t off, uint64_t v)
{
    put32(w, off + (w->be ? 4 : 0), (uint32_t)v);
    put32(w, off + (w->be ? 0 : 4), (uint32_t)(v >> 32));
}

static void begin_image(struct writer *w, bool be, bool is64, uint32_t cputype, uint32_t filetype)
{
    memset(w, 0, sizeof *w);
    w->be = be;
    w->is64 = is64;
    put32(w, 0, is64 ? 0xfeedfacf : 0xfeedface);
    put32(w, 4, cputype);
    put32(w, 12, filetype);
    put32(w, 24, TD_MACHO_MH_TWOLEVEL);
    w->cmd_end = is64 ? 32 : 28;
}

static size_t begin_cmd(struct writer *w, uint32_t cmd)
{
    size_t off = w->cmd_end;
    put32(w, off, cmd);
    w->pos = off + 8;
    return off;
}

static void cmd_u32(struct writer *w, uint32_t v)
{
    put32(w, w->pos, v);
    w->pos += 4;
}

static void cmd_str(struct writer *w, const char *s)
{
    memcpy(w->b + w->pos, s, strlen(s) + 1);
    w->pos += strlen(s) + 1;
}

static void end_cmd(struct writer *w, size_t off)
{
    size_t align = w->is64 ? 8 : 4;
    w->pos = (w->pos + align - 1) / align * align;
    put32(w, off + 4, (uint32_t)(w->pos - off));
    w->cmd_end = w->pos;
    w->ncmds++;
    put32(w, 16, w->ncmds);
    put32(w, 20, (uint32_t)(w->cmd_end - (w->is64 ? 32 : 28)));
}

static void add_dylib(struct writer *w, uint32_t cmd, const char *name, uint32_t current)
{
    size_t off = begin_cmd(w, cmd);
    cmd_u32(w, 24); /* name offset */
    cmd_u32(w, 2);  /* timestamp */
    cmd_u32(w, current);
    cmd_u32(w, 0x10000);
    cmd_str(w, name);
    end_cmd(w, off);
}

static void add_linkedit(struct writer *w, uint32_t cmd, uint32_t off, uint32_t size)
{
    size_t at = begin_cmd(w, cmd);
    cmd_u32(w, off);
    cmd_u32(w, size);
    end_cmd(w, at);
}

static int parse(const uint8_t *data, size_t size, struct td_arena *a, struct td_macho *m,
                 struct td_err *err)
{
    td_err_clear(err);
    return td_macho_parse(data, size, a, m, err);
}

/* Parses, then exercises every walk; returns the parse result. */
static int count_export(void *ctx, const struct td_macho_export *e)
{
    (*(size_t *)ctx)++;
    return 0;
}

static int count_undef(void *ctx, const struct td_macho_undef *u)
{
    (*(size_t *)ctx)++;
    return 0;
}

static int count_import(void *ctx, const struct td_macho_import *imp)
{
    (*(size_t *)ctx)++;
    return 0;
}

static int exercise(const uint8_t *data, size_t size)
{
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    int rc = parse(data, size, &a, &m, &err);
    if (rc != 0) {
        assert_true(err.set && err.msg[0]);
    } else {
        size_t n = 0;
        uint32_t d, u;
        struct td_macho_export e;
        td_macho_exports_walk(&m, &a, count_export, &n, &err);
        td_macho_export_find(&m, "_foo_add", &e, &err);
        td_macho_undefined_walk(&m, count_undef, &n, &err);
        td_macho_symbol_counts(&m, &d, &u, &err);
        if (m.has_chained_fixups)
            td_macho_chained_imports_walk(&m, count_import, &n, &err);
    }
    td_arena_free(&a);
    return rc;
}

/* ---- real files, damaged ---- */

static void truncations(void **state)
{
    size_t size;
    uint8_t *data = td_read_file(td_fixture("macho/libfoo.x86_64.dylib"), &size);
    size_t limit = size < 4096 ? size : 4096;
    for (size_t len = 0; len <= limit; len++) {
        uint8_t *copy = malloc(len ? len : 1); /* exact size, so ASan sees any overread */
        memcpy(copy, data, len);
        int rc = exercise(copy, len);
        if (len < 32)
            assert_int_equal(rc, -1);
        free(copy);
    }
    assert_int_equal(exercise(data, size), 0);
    free(data);
}

/* Each load command boundary: sizeofcmds cut there, and ncmds one too many. */
static void command_boundaries(void **state)
{
    size_t size;
    uint8_t *data = td_read_file(td_fixture("macho/libfoo.arm64.dylib"), &size);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    assert_int_equal(parse(data, size, &a, &m, &err), 0);
    uint32_t ncmds = m.ncmds;
    struct td_buf b = td_buf_make(data, size, false);
    uint64_t off = 32;
    for (uint32_t i = 0; i < ncmds; i++) {
        uint32_t cmdsize;
        assert_true(td_buf_u32(&b, off + 4, &cmdsize));
        uint8_t *copy = malloc(size);
        memcpy(copy, data, size);
        copy[20] = (uint8_t)(off - 32); /* sizeofcmds ends before command i */
        copy[21] = (uint8_t)((off - 32) >> 8);
        assert_int_equal(parse(copy, size, &a, &m, &err), -1);
        char want[96];
        snprintf(want, sizeof want, "load command %" PRIu32 " at offset 0x%" PRIx64 ":", i, off);
        if (!strstr(err.msg, want) && !strstr(err.msg, "cannot fit in sizeofcmds"))
            fail_msg("cut before command %u: %s", i, err.msg);
        free(copy);
        off += cmdsize;
    }
    /* One command more than there are. */
    data[16] = (uint8_t)(ncmds + 1);
    assert_int_equal(parse(data, size, &a, &m, &err), -1);
    assert_non_null(strstr(err.msg, "past the end of sizeofcmds"));
    td_arena_free(&a);
    free(data);
}

static void byte_flips(void **state)
{
    const char *files[] = {"macho/libfoo.x86_64.dylib", "macho/main.arm64",
                           "macho/libfoo.universal.dylib"};
    static const uint8_t masks[] = {0xff, 0x80, 0x01};
    for (size_t f = 0; f < 3; f++) {
        size_t size;
        uint8_t *data = td_read_file(td_fixture(files[f]), &size);
        struct td_arena a = {0};
        struct td_macho_fat fat;
        struct td_err err = {0};
        bool is_fat = td_macho_is_fat(data, size);
        for (size_t i = 0; i < size; i++) {
            for (size_t k = 0; k < sizeof masks; k++) {
                data[i] ^= masks[k];
                if (!is_fat) {
                    exercise(data, size);
                } else if (td_macho_fat_parse(data, size, &a, &fat, &err) == 0) {
                    for (uint32_t s = 0; s < fat.nslices; s++)
                        exercise(data + fat.slices[s].offset, (size_t)fat.slices[s].size);
                }
                data[i] ^= masks[k];
                td_arena_free(&a);
                td_err_clear(&err);
            }
        }
        free(data);
    }
}

/* Sets a 32-bit little-endian field of a copy and expects ERR to say WANT. */
static void expect_field_error(const char *fixture, size_t at, uint32_t value, const char *want)
{
    size_t size;
    uint8_t *data = td_read_file(td_fixture(fixture), &size);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    struct writer w = {.be = false};
    put32(&w, 0, value);
    memcpy(data + at, w.b, 4);
    assert_int_equal(parse(data, size, &a, &m, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("field at 0x%zx = 0x%x: got \"%s\", want \"%s\"", at, value, err.msg, want);
    td_arena_free(&a);
    free(data);
}

/* Offset of the first load command CMD in a little-endian fixture. */
static size_t find_cmd(const char *fixture, uint32_t cmd)
{
    size_t size;
    uint8_t *data = td_read_file(td_fixture(fixture), &size);
    struct td_buf b = td_buf_make(data, size, false);
    uint32_t ncmds, c, cmdsize;
    td_buf_u32(&b, 16, &ncmds);
    uint64_t off = 32;
    for (uint32_t i = 0; i < ncmds; i++, off += cmdsize) {
        td_buf_u32(&b, off, &c);
        td_buf_u32(&b, off + 4, &cmdsize);
        if (c == cmd) {
            free(data);
            return (size_t)off;
        }
    }
    free(data);
    fail_msg("%s has no command 0x%x", fixture, cmd);
    return 0;
}

static void huge_counts_and_offsets(void **state)
{
    const char *lib = "macho/libfoo.arm64.dylib";
    expect_field_error(lib, 16, 0xffffffff, "Mach-O header at offset 0x0: ncmds 4294967295");
    expect_field_error(lib, 20, 0xfffffff0, "Mach-O header at offset 0x0: sizeofcmds 0xfffffff0");
    expect_field_error(lib, 32 + 4, 0, "load command 0 at offset 0x20: cmdsize 0");
    expect_field_error(lib, 32 + 4, 12, "load command 0 at offset 0x20: cmdsize 12");
    size_t symtab = find_cmd(lib, 0x2);
    char want[128];
    snprintf(want, sizeof want, "(LC_SYMTAB) at offset 0x%zx: symbol table", symtab);
    expect_field_error(lib, symtab + 12, 0x7fffffff, want); /* nsyms */
    expect_field_error(lib, symtab + 8, 0xfffffff0, want);  /* symoff */
    snprintf(want, sizeof want, "(LC_SYMTAB) at offset 0x%zx: string table", symtab);
    expect_field_error(lib, symtab + 20, 0xffffffff, want); /* strsize */
    size_t info = find_cmd(lib, 0x80000022);
    snprintf(want, sizeof want, "(LC_DYLD_INFO_ONLY) at offset 0x%zx: export trie", info);
    expect_field_error(lib, info + 40, 0xffffffff, want);
    size_t dysym = find_cmd(lib, 0xb);
    snprintf(want, sizeof want, "(LC_DYSYMTAB) at offset 0x%zx: undef symbols", dysym);
    expect_field_error(lib, dysym + 28, 0xffffffff, want);
    size_t rpath = find_cmd(lib, 0x8000001c);
    snprintf(want, sizeof want, "(LC_RPATH) at offset 0x%zx: string at offset 4096", rpath);
    expect_field_error(lib, rpath + 8, 4096, want);
    size_t id = find_cmd(lib, 0xd);
    snprintf(want, sizeof want, "(LC_ID_DYLIB) at offset 0x%zx: string at offset 8 ", id);
    expect_field_error(lib, id + 8, 8, want); /* points into its own fixed fields */
}

static void string_table_index_outside(void **state)
{
    size_t size;
    uint8_t *data = td_read_file(td_fixture("macho/main.arm64"), &size);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    assert_int_equal(parse(data, size, &a, &m, &err), 0);
    size_t sym = m.symoff + (size_t)m.iundefsym * 16;
    struct writer w = {.be = false};
    put32(&w, 0, m.strsize + 5);
    memcpy(data + sym, w.b, 4);
    size_t n = 0;
    assert_int_equal(td_macho_undefined_walk(&m, count_undef, &n, &err), -1);
    char want[96];
    snprintf(want, sizeof want, "symbol %" PRIu32 " at offset 0x%zx: n_strx", m.iundefsym, sym);
    assert_non_null(strstr(err.msg, want));
    td_arena_free(&a);
    free(data);
}

static void arena_cap_is_enforced(void **state)
{
    struct td_map map;
    struct td_macho m;
    struct td_err err = {0};
    td_map_fixture("macho/libmany.arm64.dylib", &map);
    struct td_arena tiny = {.cap = 512}; /* below the arena's first block: nothing fits */
    assert_int_equal(td_macho_parse(map.data, map.size, &tiny, &m, &err), -1);
    assert_non_null(strstr(err.msg, "arena cap"));
    assert_true(tiny.used_total <= tiny.cap);
    /* One 64 KiB block: enough for the commands, not for the trie walk too. */
    struct td_arena small = {.cap = 70 * 1024};
    td_err_clear(&err);
    assert_int_equal(td_macho_parse(map.data, map.size, &small, &m, &err), 0);
    assert_true(small.used_total <= small.cap);
    /* The walk's scratch memory is capped too. */
    size_t n = 0;
    assert_int_equal(td_macho_exports_walk(&m, &tiny, count_export, &n, &err), -1);
    assert_non_null(strstr(err.msg, "export trie at offset"));
    assert_non_null(strstr(err.msg, "arena cap"));
    assert_int_equal(n, 0);
    td_err_clear(&err);
    assert_int_equal(td_macho_exports_walk(&m, &small, count_export, &n, &err), 0);
    assert_int_equal(n, 300);
    assert_true(small.used_total <= small.cap);
    /* Lookups need no arena at all. */
    struct td_macho_export e;
    assert_int_equal(td_macho_export_find(&m, "_torch_op_6_kernel_42_v300", &e, &err), 0);
    assert_int_equal(td_macho_export_find(&m, "_torch_op_6_kernel_41_v293", &e, &err), 1);
    td_arena_free(&tiny);
    td_arena_free(&small);
    td_map_close(&map);
}

/* ---- hand-made images ---- */

/* A 64-bit little-endian arm64 dylib whose export trie is TRIE. */
static void image_with_trie(struct writer *w, const uint8_t *trie, size_t len)
{
    begin_image(w, false, true, TD_MACHO_CPU_TYPE_ARM64, TD_MACHO_DYLIB);
    add_dylib(w, 0xd, "@rpath/libhand.dylib", 0x10203);
    add_dylib(w, 0xc, "/usr/lib/libSystem.B.dylib", 0);
    add_linkedit(w, 0x80000033, DATA_AT, (uint32_t)len);
    assert_true(DATA_AT + len <= IMAGE_SIZE);
    memcpy(w->b + DATA_AT, trie, len);
}

struct collected {
    char names[8][64];
    struct td_macho_export e[8];
    size_t n;
};

static int collect(void *ctx, const struct td_macho_export *e)
{
    struct collected *c = ctx;
    if (c->n < 8) {
        snprintf(c->names[c->n], sizeof c->names[0], "%s", e->name);
        c->e[c->n] = *e;
    }
    c->n++;
    return 0;
}

static void trie_entry_kinds(void **state)
{
    /* root -> "_a" regular 0x1234, "_r" re-export of _orig from ordinal 1,
     * "_s" stub 0x10 with resolver 0x20, weak. */
    static const uint8_t trie[] = {
        0x00, 0x03, '_',  'a',  0,    14,   '_',  'r',  0,    19,
        '_',  's',  0,    29,   0x03, 0x00, 0xb4, 0x24, 0x00,       /* 14: _a */
        0x08, 0x08, 0x01, '_',  'o',  'r',  'i',  'g',  0,    0x00, /* 19: _r */
        0x03, 0x14, 0x10, 0x20, 0x00,                               /* 29: _s */
    };
    struct writer w;
    image_with_trie(&w, trie, sizeof trie);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    assert_int_equal(m.trie_source, TD_MACHO_TRIE_EXPORTS);
    assert_false(m.has_dyld_info);
    char ver[TD_MACHO_VERSION_MAX];
    assert_string_equal(td_macho_version_string(m.id_current_version, ver), "1.2.3");
    struct collected c = {0};
    assert_int_equal(td_macho_exports_walk(&m, &a, collect, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.names[0], "_a");
    assert_int_equal(c.e[0].address, 0x1234);
    assert_int_equal(c.e[0].flags, 0);
    assert_string_equal(c.names[1], "_r");
    assert_int_equal(c.e[1].flags, TD_MACHO_EXPORT_REEXPORT);
    assert_int_equal(c.e[1].ordinal, 1);
    assert_string_equal(c.e[1].imported, "_orig");
    assert_string_equal(c.names[2], "_s");
    assert_int_equal(c.e[2].flags, TD_MACHO_EXPORT_STUB_AND_RESOLVER | TD_MACHO_EXPORT_WEAK);
    assert_int_equal(c.e[2].address, 0x10);
    assert_int_equal(c.e[2].resolver, 0x20);
    struct td_macho_export e;
    assert_int_equal(td_macho_export_find(&m, "_r", &e, &err), 1);
    assert_string_equal(e.name, "_r");
    assert_string_equal(e.imported, "_orig");
    assert_int_equal(td_macho_export_find(&m, "_", &e, &err), 0);
    assert_int_equal(td_macho_export_find(&m, "_b", &e, &err), 0);
    /* No LC_SYMTAB: symbols are "not parsed", not "none". */
    size_t n = 0;
    assert_int_equal(td_macho_undefined_walk(&m, count_undef, &n, &err), -1);
    assert_non_null(strstr(err.msg, "not parsed"));
    td_arena_free(&a);
}

static void trie_cycles_and_depth(void **state)
{
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    struct writer w;
    size_t n = 0;
    struct td_macho_export e;

    /* The root's only child is the root. */
    static const uint8_t cycle[] = {0x00, 0x01, 'a', 0, 0x00};
    image_with_trie(&w, cycle, sizeof cycle);
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    assert_int_equal(td_macho_exports_walk(&m, &a, count_export, &n, &err), -1);
    char want[96];
    snprintf(want, sizeof want, "export trie node at offset 0x%x (trie offset 0x0): reached twice",
             DATA_AT);
    assert_non_null(strstr(err.msg, want));
    char name[256];
    memset(name, 'a', 150);
    name[150] = '\0';
    td_err_clear(&err);
    assert_int_equal(td_macho_export_find(&m, name, &e, &err), -1);
    assert_non_null(strstr(err.msg, "deeper than 128"));

    /* Two edges to one node. */
    static const uint8_t shared[] = {0x00, 0x02, 'a', 0, 8, 'b', 0, 8, 0x02, 0x00, 0x05, 0x00};
    image_with_trie(&w, shared, sizeof shared);
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    td_err_clear(&err);
    assert_int_equal(td_macho_exports_walk(&m, &a, count_export, &n, &err), -1);
    assert_non_null(strstr(err.msg, "(trie offset 0x8): reached twice"));

    /* Chains of single-letter edges: 120 deep is fine, 200 is refused. */
    for (int deep = 0; deep < 2; deep++) {
        int levels = deep ? 200 : 120;
        uint8_t chain[IMAGE_SIZE - DATA_AT];
        size_t at = 0;
        for (int i = 0; i < levels; i++) {
            size_t next = at + 6;
            uint8_t node[] = {0x00,
                              0x01,
                              'a',
                              0,
                              (uint8_t)(0x80 | (next & 0x7f)),
                              (uint8_t)(next >> 7)}; /* two-byte ULEB */
            memcpy(chain + at, node, sizeof node);
            at = next;
        }
        static const uint8_t leaf[] = {0x02, 0x00, 0x05, 0x00};
        memcpy(chain + at, leaf, sizeof leaf);
        image_with_trie(&w, chain, at + sizeof leaf);
        td_err_clear(&err);
        assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
        struct collected c = {0};
        memset(name, 'a', (size_t)levels);
        name[levels] = '\0';
        if (!deep) {
            assert_int_equal(td_macho_exports_walk(&m, &a, collect, &c, &err), 0);
            assert_int_equal(c.n, 1);
            assert_int_equal(c.e[0].address, 5);
            assert_int_equal(td_macho_export_find(&m, name, &e, &err), 1);
        } else {
            assert_int_equal(td_macho_exports_walk(&m, &a, collect, &c, &err), -1);
            assert_non_null(strstr(err.msg, "deeper than 128"));
            td_err_clear(&err);
            assert_int_equal(td_macho_export_find(&m, name, &e, &err), -1);
            assert_non_null(strstr(err.msg, "deeper than 128"));
        }
    }

    /* Truncated and overlong pieces. */
    static const uint8_t bad[][6] = {
        {0x80, 0x80, 0x80, 0x80, 0x80, 0x80}, /* ULEB never ends */
        {0x05, 0x00, 0x00, 0x00, 0x00, 0x00}, /* terminal size past the end */
        {0x00, 0x01, 'a', 'b', 'c', 'd'},     /* label never ends */
        {0x00, 0x01, 'a', 0, 0x7f, 0x00},     /* child outside the trie */
    };
    static const char *const why[] = {"terminal size truncated", "past the end",
                                      "edge label does not end", "child offset lies outside"};
    for (size_t i = 0; i < 4; i++) {
        image_with_trie(&w, bad[i], 6);
        td_err_clear(&err);
        assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
        assert_int_equal(td_macho_exports_walk(&m, &a, count_export, &n, &err), -1);
        if (!strstr(err.msg, why[i]))
            fail_msg("bad trie %zu: %s", i, err.msg);
        td_err_clear(&err);
        assert_int_equal(td_macho_export_find(&m, "abc", &e, &err), -1);
    }
    td_arena_free(&a);
}

static void big_endian_ppc(void **state)
{
    struct writer w;
    begin_image(&w, true, false, TD_MACHO_CPU_TYPE_POWERPC, TD_MACHO_BUNDLE);
    add_dylib(&w, 0xc, "/usr/lib/libSystem.B.dylib", 0x58f0000);
    add_dylib(&w, 0x20, "/usr/lib/liblazy.dylib", 0);
    add_dylib(&w, 0x80000023, "/usr/lib/libup.dylib", 0);
    size_t off = begin_cmd(&w, 0x24); /* LC_VERSION_MIN_MACOSX 10.4 */
    cmd_u32(&w, 0x000a0400);
    cmd_u32(&w, 0x000a0500);
    end_cmd(&w, off);
    off = begin_cmd(&w, 0x7777); /* unknown: counted */
    end_cmd(&w, off);
    /* LC_SYMTAB with one undefined symbol, weak, ordinal 1. */
    off = begin_cmd(&w, 0x2);
    cmd_u32(&w, DATA_AT);
    cmd_u32(&w, 1);
    cmd_u32(&w, DATA_AT + 0x40);
    cmd_u32(&w, 16);
    end_cmd(&w, off);
    put32(&w, DATA_AT, 1);   /* n_strx */
    w.b[DATA_AT + 4] = 0x01; /* N_UNDF | N_EXT */
    w.b[DATA_AT + 6] = 0x01; /* n_desc high byte: ordinal 1 */
    w.b[DATA_AT + 7] = 0x40; /* N_WEAK_REF */
    memcpy(w.b + DATA_AT + 0x41, "_printf", 8);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    assert_true(td_macho_is_thin(w.b, IMAGE_SIZE));
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    assert_true(m.big_endian);
    assert_false(m.is_64);
    assert_int_equal(m.magic, 0xfeedface);
    assert_string_equal(td_macho_arch_slug(m.cputype, m.cpusubtype), "ppc");
    assert_int_equal(m.filetype, TD_MACHO_BUNDLE);
    assert_int_equal(m.ndylibs, 3);
    assert_int_equal(m.dylibs[0].kind, TD_MACHO_DYLIB_LOAD);
    char ver[TD_MACHO_VERSION_MAX];
    assert_string_equal(td_macho_version_string(m.dylibs[0].current_version, ver), "1423.0.0");
    assert_int_equal(m.dylibs[1].kind, TD_MACHO_DYLIB_LAZY);
    assert_int_equal(m.dylibs[2].kind, TD_MACHO_DYLIB_UPWARD);
    assert_string_equal(m.dylibs[2].name, "/usr/lib/libup.dylib");
    assert_int_equal(m.version_source, TD_MACHO_VERSION_MIN_MACOSX);
    assert_string_equal(td_macho_version_string(m.minos, ver), "10.4.0");
    assert_int_equal(m.unknown_cmds, 1);
    assert_int_equal(m.trie_source, TD_MACHO_TRIE_NONE);
    size_t n = 0;
    assert_int_equal(td_macho_exports_walk(&m, &a, count_export, &n, &err), 0);
    assert_int_equal(n, 0);
    struct td_macho_export e;
    assert_int_equal(td_macho_export_find(&m, "_printf", &e, &err), -1);
    assert_non_null(strstr(err.msg, "exports not parsed"));
    td_err_clear(&err);
    uint32_t defined, undefined;
    assert_int_equal(td_macho_symbol_counts(&m, &defined, &undefined, &err), 0);
    assert_int_equal(defined, 0);
    assert_int_equal(undefined, 1);
    /* cmdsize must be a multiple of 4 in a 32-bit image. */
    put32(&w, 28 + 4, 30);
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), -1);
    assert_non_null(strstr(err.msg, "load command 0 at offset 0x1c: cmdsize 30"));
    td_arena_free(&a);
}

struct imports {
    char names[4][32];
    struct td_macho_import imp[4];
    size_t n;
};

static int collect_import(void *ctx, const struct td_macho_import *imp)
{
    struct imports *c = ctx;
    if (c->n < 4) {
        snprintf(c->names[c->n], sizeof c->names[0], "%s", imp->name);
        c->imp[c->n] = *imp;
    }
    c->n++;
    return 0;
}

static void chained_fixups_imports(void **state)
{
    struct writer w;
    begin_image(&w, false, true, TD_MACHO_CPU_TYPE_ARM64, TD_MACHO_EXECUTE);
    add_dylib(&w, 0xc, "@rpath/libfoo.dylib", 0);
    add_linkedit(&w, 0x80000034, DATA_AT, 0x80);
    /* dyld_chained_fixups_header; imports at 0x20 (format 1), names at 0x40. */
    size_t h = DATA_AT;
    put32(&w, h + 4, 0x1c);                          /* starts_offset */
    put32(&w, h + 8, 0x20);                          /* imports_offset */
    put32(&w, h + 12, 0x40);                         /* symbols_offset */
    put32(&w, h + 16, 3);                            /* imports_count */
    put32(&w, h + 20, 1);                            /* DYLD_CHAINED_IMPORT */
    put32(&w, h + 0x20, 1u | 1u << 9);               /* ordinal 1, "_foo_add" at 1 */
    put32(&w, h + 0x24, 0xfeu | 1u << 8 | 10u << 9); /* flat lookup, weak, "_late" */
    put32(&w, h + 0x28, 0xffu | 16u << 9);           /* main executable, "_main_sym" */
    memcpy(w.b + h + 0x41, "_foo_add\0_late\0_main_sym", 25);
    struct td_arena a = {0};
    struct td_macho m;
    struct td_err err = {0};
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    assert_true(m.has_chained_fixups);
    struct imports c = {0};
    assert_int_equal(td_macho_chained_imports_walk(&m, collect_import, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.names[0], "_foo_add");
    assert_int_equal(c.imp[0].lib_ordinal, 1);
    assert_false(c.imp[0].weak_import);
    assert_string_equal(c.names[1], "_late");
    assert_int_equal(c.imp[1].lib_ordinal, -2);
    assert_true(c.imp[1].weak_import);
    assert_string_equal(c.names[2], "_main_sym");
    assert_int_equal(c.imp[2].lib_ordinal, -1);
    /* A name offset past the strings, and an unknown format. */
    put32(&w, h + 0x28, 0xffu | 0x7fffffu << 9);
    assert_int_equal(parse(w.b, IMAGE_SIZE, &a, &m, &err), 0);
    assert_int_equal(td_macho_chained_imports_walk(&m, collect_import, &c, &err), -1);
    assert_non_null(strstr(err.msg, "chained fixups header at offset 0x800: import 2"));
    put32(&w, h + 20, 7);
    td_err_clear(&err);
    assert_int_equal(td_macho_chained_imports_walk(&m, collect_import, &c, &err), -1);
    assert_non_null(strstr(err.msg, "imports_format not parsed"));
    put32(&w, h + 20, 3); /* DYLD_CHAINED_IMPORT_ADDEND64, with far too many */
    put32(&w, h + 16, 0x10000000);
    td_err_clear(&err);
    assert_int_equal(td_macho_chained_imports_walk(&m, collect_import, &c, &err), -1);
    assert_non_null(strstr(err.msg, "imports table runs past"));
    td_arena_free(&a);
}

/* ---- universal files, damaged ---- */

/* A fat file of two hand-made thin images at 0x1000 and 0x2000 (align 2^12). */
static uint8_t *fat_file(bool fat64, size_t *size)
{
    static const uint32_t cpus[] = {TD_MACHO_CPU_TYPE_X86_64, TD_MACHO_CPU_TYPE_ARM64};
    uint8_t *f = calloc(1, 3 * IMAGE_SIZE);
    struct writer w;
    begin_image(&w, true, false, 0, 0);
    put32(&w, 0, fat64 ? 0xcafebabf : 0xcafebabe);
    put32(&w, 4, 2);
    for (uint32_t i = 0; i < 2; i++) {
        size_t at = 8 + i * (fat64 ? 32 : 20);
        put32(&w, at, cpus[i]);
        put32(&w, at + 4, 3);
        if (fat64) {
            put64(&w, at + 8, IMAGE_SIZE * (i + 1));
            put64(&w, at + 16, IMAGE_SIZE);
            put32(&w, at + 24, 12);
        } else {
            put32(&w, at + 8, IMAGE_SIZE * (i + 1));
            put32(&w, at + 12, IMAGE_SIZE);
            put32(&w, at + 16, 12);
        }
    }
    memcpy(f, w.b, 128);
    for (uint32_t i = 0; i < 2; i++) {
        begin_image(&w, false, true, cpus[i], TD_MACHO_DYLIB);
        add_dylib(&w, 0xd, "@rpath/libfat.dylib", 0);
        memcpy(f + IMAGE_SIZE * (i + 1), w.b, IMAGE_SIZE);
    }
    *size = 3 * IMAGE_SIZE;
    return f;
}

static void expect_fat_error(const uint8_t *f, size_t size, const char *want)
{
    struct td_arena a = {0};
    struct td_macho_fat fat;
    struct td_err err = {0};
    assert_int_equal(td_macho_fat_parse(f, size, &a, &fat, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("got \"%s\", want \"%s\"", err.msg, want);
    td_arena_free(&a);
}

static void set_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static void fat_tables(void **state)
{
    for (int fat64 = 0; fat64 < 2; fat64++) {
        size_t size, entry = fat64 ? 32 : 20, offw = fat64 ? 12 : 8; /* low word of offset */
        uint8_t *f = fat_file(fat64, &size);
        struct td_arena a = {0};
        struct td_macho_fat fat;
        struct td_macho m;
        struct td_err err = {0};
        assert_true(td_macho_is_fat(f, size));
        assert_int_equal(td_macho_fat_parse(f, size, &a, &fat, &err), 0);
        assert_int_equal(fat.is_64, fat64);
        assert_int_equal(fat.nslices, 2);
        assert_null(td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_ARM64, 0));
        const struct td_macho_slice *s =
            td_macho_fat_find(&fat, TD_MACHO_CPU_TYPE_ARM64, TD_MACHO_SUBTYPE_ANY);
        assert_non_null(s);
        assert_int_equal(s->offset, 0x2000);
        assert_int_equal(td_macho_parse_slice(f, size, s, &a, &m, &err), 0);
        assert_string_equal(m.install_name, "@rpath/libfat.dylib");
        /* The slice table lies about the CPU of slice 0. */
        set_be32(f + 8, TD_MACHO_CPU_TYPE_X86);
        assert_int_equal(td_macho_fat_parse(f, size, &a, &fat, &err), 0);
        assert_int_equal(td_macho_parse_slice(f, size, &fat.slices[0], &a, &m, &err), -1);
        assert_non_null(strstr(err.msg, "slice at offset 0x1000: the fat table says cputype i386"));
        td_arena_free(&a);

        uint8_t *arch1 = f + 8 + entry;
        uint8_t saved[32];
        memcpy(saved, arch1, entry);
        char want[96];
        snprintf(want, sizeof want, "fat_arch 1 at offset 0x%zx: slice", 8 + entry);
        set_be32(arch1 + offw, 0x1000); /* overlaps slice 0 */
        expect_fat_error(f, size, "overlaps slice 0");
        set_be32(arch1 + offw, 0x1100); /* not aligned to 2^12 */
        expect_fat_error(f, size, "does not meet its alignment 2^12");
        set_be32(arch1 + offw, 0x10); /* inside the header */
        expect_fat_error(f, size, "inside the fat header");
        set_be32(arch1 + offw, 0xfffff000); /* past the end */
        expect_fat_error(f, size, want);
        memcpy(arch1, saved, entry);
        set_be32(arch1, TD_MACHO_CPU_TYPE_X86); /* same arch as slice 0 (i386 now) */
        expect_fat_error(f, size, "same architecture as slice 0");
        memcpy(arch1, saved, entry);
        if (fat64) {
            memset(arch1 + 8, 0xff, 8); /* offset UINT64_MAX: no overflow */
            expect_fat_error(f, size, "lies outside the file");
            memcpy(arch1, saved, entry);
        }
        set_be32(f + 4, 0xffffffff);
        assert_false(td_macho_is_fat(f, size));
        expect_fat_error(f, size, "nfat_arch 4294967295");
        set_be32(f + 4, 40); /* plausible, but the table runs off a tiny file */
        expect_fat_error(f, 200, "fat_arch entries end at");
        set_be32(f + 4, 0);
        expect_fat_error(f, size, "nfat_arch 0");
        free(f);
    }
    /* A Java class file (major version 52) is not universal. */
    static const uint8_t java[] = {0xca, 0xfe, 0xba, 0xbe, 0x00, 0x00, 0x00, 0x34};
    assert_false(td_macho_is_fat(java, sizeof java));
    assert_false(td_macho_is_thin(java, sizeof java));
    expect_fat_error(java, 4, "truncated");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(truncations),
        cmocka_unit_test(command_boundaries),
        cmocka_unit_test(byte_flips),
        cmocka_unit_test(huge_counts_and_offsets),
        cmocka_unit_test(string_table_index_outside),
        cmocka_unit_test(arena_cap_is_enforced),
        cmocka_unit_test(trie_entry_kinds),
        cmocka_unit_test(trie_cycles_and_depth),
        cmocka_unit_test(big_endian_ppc),
        cmocka_unit_test(chained_fixups_imports),
        cmocka_unit_test(fat_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
