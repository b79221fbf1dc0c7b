/* Tests of the ELF reader's headers-only paths: td_elf_parse_headers over a
 * sparse buffer (only some ranges loaded, the rest reported as misses and
 * loaded on demand) must give exactly what a parse of the whole file gives,
 * and td_elf_detach must leave nothing pointing into the file's bytes. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/elf.h"

/* Fixtures of every layout the tests build (both byte orders, both
 * classes, DT_RPATH, DT_RUNPATH, versions with and without section
 * headers), and real libraries whose strings sit megabytes away from the
 * headers, when this machine has them. */
static const char *const FILES[] = {
    "elf/libdep.so",
    "elf/libi686.so",
    "elf/librpath.so",
    "elf/librunpath.so",
    "elf/libtiny-ppc64.so",
    "elf/libtiny-aarch64.so",
    "elf/libuser.so",
    "elf/libver.so",
    "elf/libver-nosections.so",
    "elf/prog",
    "elf/libplain.so",
    "/lib/x86_64-linux-gnu/libc.so.6",
    "/lib/x86_64-linux-gnu/libstdc++.so.6",
};

static const char *path_of(const char *name)
{
    return name[0] == '/' ? name : td_fixture(name);
}

/* Everything td_elf_parse_headers reports, as text. */
static void render(struct td_text *t, const struct td_elf *e)
{
    td_text_add(t, "class=%d data=%d type=%u machine=%u flags=%u entry=%llu phnum=%u\n", e->is64,
                e->big_endian, e->type, e->machine, e->flags, (unsigned long long)e->entry,
                e->phnum);
    for (uint32_t i = 0; i < e->phnum; i++)
        td_text_add(t, "phdr=%u %u %llx %llx\n", e->phdrs[i].type, e->phdrs[i].flags,
                    (unsigned long long)e->phdrs[i].offset, (unsigned long long)e->phdrs[i].filesz);
    td_text_add(t, "interp=%s build_id=%s stack=%d/%u\n", e->interp ? e->interp : "-",
                e->build_id ? e->build_id : "-", e->has_gnu_stack, e->gnu_stack_flags);
    td_text_add(t, "dynamic=%d flags=%llx flags_1=%llx symcount=%d\n", e->has_dynamic,
                (unsigned long long)e->dyn.flags, (unsigned long long)e->dyn.flags_1,
                (int)e->symcount_source);
    for (uint32_t i = 0; i < e->needed_count; i++)
        td_text_add(t, "needed=%s\n", e->needed[i]);
    td_text_add(t, "soname=%s rpath=%s runpath=%s\n", e->soname ? e->soname : "-",
                e->rpath ? e->rpath : "-", e->runpath ? e->runpath : "-");
    for (uint32_t i = 0; i < e->verneed_count; i++)
        for (uint32_t k = 0; k < e->verneed[i].version_count; k++)
            td_text_add(t, "verneed=%s %s %u %u\n", e->verneed[i].file,
                        e->verneed[i].versions[k].name, e->verneed[i].versions[k].flags,
                        e->verneed[i].versions[k].other);
    for (uint32_t i = 0; i < e->verdef_count; i++)
        td_text_add(t, "verdef=%u %u %s\n", e->verdef[i].index, e->verdef[i].flags,
                    e->verdef[i].name);
    for (uint32_t i = 0; i < e->version_slots; i++)
        if (e->versions[i].name)
            td_text_add(t, "version=%u %s %s %d\n", i, e->versions[i].name,
                        e->versions[i].file ? e->versions[i].file : "-", e->versions[i].defined);
}

/* A sparse loader over a whole file held in memory: each miss loads the
 * missed bytes and LOAD more, merged into one extent with its neighbours
 * (buf.h wants a string or a table inside one extent). */
struct loader {
    const uint8_t *file;
    size_t size;
    struct td_buf_extent ext[64];
    size_t count;
};

static void load(struct loader *l, uint64_t off, uint64_t len, uint64_t more)
{
    uint64_t lo = off, hi = off + len + more > l->size ? l->size : off + len + more;
    for (size_t i = 0; i < l->count;) {
        if (l->ext[i].off > hi || l->ext[i].off + l->ext[i].len < lo) {
            i++;
            continue;
        }
        lo = l->ext[i].off < lo ? l->ext[i].off : lo;
        hi = l->ext[i].off + l->ext[i].len > hi ? l->ext[i].off + l->ext[i].len : hi;
        l->ext[i] = l->ext[--l->count];
        i = 0;
    }
    assert_true(l->count < 64);
    l->ext[l->count++] = (struct td_buf_extent){lo, hi - lo, l->file + lo};
}

/* Parses through misses; returns the number of attempts. */
static int parse_sparse(struct loader *l, struct td_elf *elf, struct td_arena *arena, uint64_t more)
{
    for (int attempt = 1; attempt < 100000; attempt++) {
        struct td_buf_sparse sp = {l->ext, l->count, false, 0, 0};
        struct td_buf buf = td_buf_sparse_make(l->size, &sp);
        struct td_err err = {0};
        td_arena_free(arena);
        int rc = td_elf_parse_buf(elf, buf, false, arena, &err);
        if (!sp.missed) {
            if (rc != 0)
                fail_msg("sparse parse failed without a miss: %s", err.msg);
            return attempt;
        }
        assert_true(sp.miss_off + sp.miss_len <= l->size);
        load(l, sp.miss_off, sp.miss_len, more);
    }
    fail_msg("no end to the misses");
    return 0;
}

static void sparse_parse_equals_whole(void **state)
{
    (void)state;
    static const uint64_t MORE[] = {0, 7, 4096};
    for (size_t f = 0; f < sizeof FILES / sizeof FILES[0]; f++) {
        const char *path = path_of(FILES[f]);
        if (FILES[f][0] == '/' && access(path, R_OK) != 0)
            continue;
        size_t size;
        uint8_t *file = td_read_file(path, &size);
        struct td_arena a = {0};
        struct td_elf whole;
        struct td_err err = {0};
        if (td_elf_parse_headers(&whole, file, size, &a, &err) != 0)
            fail_msg("%s: %s", path, err.msg);
        struct td_text want = {0};
        render(&want, &whole);
        for (size_t m = 0; m < sizeof MORE / sizeof MORE[0]; m++) {
            struct loader l = {file, size, {{0}}, 0};
            load(&l, 0, 16, 0); /* the ELF identification only */
            struct td_arena b = {0};
            struct td_elf sparse;
            int attempts = parse_sparse(&l, &sparse, &b, MORE[m]);
            struct td_text got = {0};
            render(&got, &sparse);
            if (strcmp(want.s, got.s) != 0)
                fail_msg("%s (load +%llu): sparse parse differs\n--- whole\n%s--- sparse\n%s", path,
                         (unsigned long long)MORE[m], want.s, got.s);
            assert_true(attempts > 1);
            free(got.s);
            td_arena_free(&b);
        }
        free(want.s);
        td_arena_free(&a);
        free(file);
    }
}

static void detach_copies_every_string(void **state)
{
    (void)state;
    for (size_t f = 0; f < sizeof FILES / sizeof FILES[0]; f++) {
        const char *path = path_of(FILES[f]);
        if (FILES[f][0] == '/' && access(path, R_OK) != 0)
            continue;
        size_t size;
        uint8_t *file = td_read_file(path, &size);
        struct td_arena a = {0};
        struct td_elf elf;
        struct td_err err = {0};
        assert_int_equal(td_elf_parse(&elf, file, size, &a, &err), 0);
        struct td_text want = {0}, got = {0};
        render(&want, &elf);
        assert_int_equal(td_elf_detach(&elf, &a, &err), 0);
        memset(file, 'X', size); /* anything still pointing here would now read X */
        render(&got, &elf);
        free(file);
        if (strcmp(want.s, got.s) != 0)
            fail_msg("%s: detached view differs\n--- before\n%s--- after\n%s", path, want.s, got.s);
        /* The symbols are gone with the bytes. */
        struct td_elf_sym sym;
        assert_true(td_elf_dynsym_count(&elf) > 1);
        assert_false(td_elf_dynsym(&elf, 1, &sym));
        assert_null(td_elf_dynstr(&elf, 0));
        assert_false(td_elf_lookup(&elf, "malloc", td_elf_gnu_hash("malloc"), NULL, &sym));
        free(want.s);
        free(got.s);
        td_arena_free(&a);
    }
}

/* The miss a sparse read reports, exactly. */
static void sparse_reads_report_misses(void **state)
{
    (void)state;
    static const uint8_t bytes[] = "abcdefgh\0ijkl";
    struct td_buf_extent ext[] = {{100, 8, bytes}, {200, 6, bytes + 8}};
    struct td_buf_sparse sp = {ext, 2, false, 0, 0};
    struct td_buf b = td_buf_sparse_make(1000, &sp);
    uint32_t v;
    assert_true(td_buf_u32(&b, 104, &v));
    assert_int_equal(v, 0x68676665); /* "efgh", little-endian */
    assert_false(sp.missed);
    assert_false(td_buf_u32(&b, 106, &v)); /* runs past the first extent */
    assert_int_equal(v, 0);
    assert_true(sp.missed);
    assert_int_equal(sp.miss_off, 106);
    assert_int_equal(sp.miss_len, 4);
    sp.missed = false;
    assert_false(td_buf_u32(&b, 2000, &v)); /* past the file: a failure, not a miss */
    assert_false(sp.missed);
    assert_string_equal(td_buf_cstr(&b, 201, 0), "ijkl");
    assert_null(td_buf_cstr(&b, 102, 0)); /* no NUL before the extent ends */
    assert_true(sp.missed);
    assert_int_equal(sp.miss_off, 108);
    sp.missed = false;
    assert_null(td_buf_cstr(&b, 102, 4)); /* bounded scan inside the extent: no miss */
    assert_false(sp.missed);
    assert_true(td_buf_in_file(&b, 500, 500));
    assert_false(sp.missed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sparse_parse_equals_whole),
        cmocka_unit_test(detach_copies_every_string),
        cmocka_unit_test(sparse_reads_report_misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
