/* Unit tests of the ELF binder's parts: reading names in pieces
 * (symtab_reader.c: the hashes of a name, names that run off their table,
 * windows over a file), sorting by string offset, the table of distinct
 * references (bind_refs.c) and td_pages. */
#include "testutil.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pages.h"
#include "graph/bind_refs.h"
#include "graph/symtab_reader.h"

/* A file holding TEXT at offset 100 (the "string table"), open for reading. */
static int file_with(const void *text, size_t len, char *path)
{
    strcpy(path, "/tmp/td_test_bind.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    char pad[100];
    memset(pad, 'x', sizeof pad);
    assert_int_equal(write(fd, pad, sizeof pad), sizeof pad);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    return fd;
}

static struct td_elf strtab_at(uint64_t off, uint64_t size)
{
    struct td_elf e;
    memset(&e, 0, sizeof e);
    e.strtab_off = off;
    e.strtab_size = size;
    return e;
}

static void names_hash_like_the_loader(void **state)
{
    (void)state;
    /* Every length from 0 to 39 (the 8-byte loop and its tail), and bytes
     * above 127. */
    char text[64 * 41];
    size_t at = 0, offs[41];
    for (int n = 0; n < 40; n++) {
        offs[n] = at;
        for (int i = 0; i < n; i++)
            text[at++] = (char)(i % 3 == 0 ? 0xc3 + n : 'a' + (i * 7 + n) % 26);
        text[at++] = 0;
    }
    char path[64];
    int fd = file_with(text, at, path);
    struct td_pages pages;
    td_pages_init(&pages, 1 << 20);
    struct td_window w = {.pages = &pages};
    struct td_elf e = strtab_at(100, at);
    for (int n = 0; n < 40; n++) {
        struct td_symname name;
        assert_true(td_window_name(&w, fd, &e, (uint32_t)offs[n], (uint32_t)offs[n], &name));
        assert_int_equal(name.len, n);
        assert_memory_equal(name.text, text + offs[n], (size_t)n);
        assert_int_equal(name.gnu, td_elf_gnu_hash(text + offs[n]));
        struct td_symname alone; /* the second hash alone: the same */
        assert_true(td_window_name_h2(&w, fd, &e, (uint32_t)offs[n], 0, &alone));
        assert_int_equal(alone.len, n);
        assert_true(alone.h2 == name.h2);
    }
    /* The same name twice: the same hashes; one byte apart: different. */
    const char two[] = "libtorch_cpu_symbol\0libtorch_cpu_symbol\0libtorch_cpu_symbom";
    close(fd);
    unlink(path);
    fd = file_with(two, sizeof two, path);
    e = strtab_at(100, sizeof two);
    td_window_forget(&w);
    struct td_symname a, b, c;
    assert_true(td_window_name(&w, fd, &e, 0, 0, &a));
    uint64_t ha = a.h2;
    uint32_t ga = a.gnu;
    assert_true(td_window_name(&w, fd, &e, 20, 20, &b));
    assert_true(td_window_name(&w, fd, &e, 40, 40, &c));
    assert_true(ha == b.h2 && ga == b.gnu);
    assert_true(ha != c.h2);
    close(fd);
    unlink(path);
    td_pages_free(&pages);
}

static void names_that_leave_their_table_are_refused(void **state)
{
    (void)state;
    const char text[] = "fine\0unterminated";
    char path[64];
    int fd = file_with(text, sizeof text - 1, path); /* no NUL after the last name */
    struct td_pages pages;
    td_pages_init(&pages, 1 << 20);
    struct td_window w = {.pages = &pages};
    struct td_elf e = strtab_at(100, sizeof text - 1);
    struct td_symname name;
    assert_true(td_window_name(&w, fd, &e, 0, 0, &name));
    assert_string_equal(name.text, "fine");
    assert_false(td_window_name(&w, fd, &e, 5, 5, &name));     /* runs to the end */
    assert_false(td_window_name(&w, fd, &e, 500, 500, &name)); /* past DT_STRSZ */
    /* A table said to be longer than the file: the bytes are not there. */
    e = strtab_at(100, 1 << 20);
    td_window_forget(&w);
    assert_false(td_window_name(&w, fd, &e, 5, 5, &name));
    /* A window never reads past LIMIT, however far REACH asks. */
    td_window_forget(&w);
    assert_null(td_window_at(&w, fd, 100, 8, 1 << 20, 104));
    const uint8_t *p = td_window_at(&w, fd, 100, 4, 1 << 20, 104);
    assert_non_null(p);
    assert_memory_equal(p, "fine", 4);
    assert_true(w.hi <= 104);
    close(fd);
    unlink(path);
    td_pages_free(&pages);
}

/* An image holds one range read at once; a window viewing part of it
 * answers from it, and once asked for bytes outside reads into its own
 * buffer, leaving the image as it was. */
static void images_are_viewed_not_written(void **state)
{
    (void)state;
    char data[8192], file[100 + sizeof data]; /* file_with puts 100 bytes first */
    for (size_t i = 0; i < sizeof data; i++)
        data[i] = (char)(i * 7 + 1);
    memset(file, 'x', 100);
    memcpy(file + 100, data, sizeof data);
    char path[64];
    int fd = file_with(data, sizeof data, path);
    struct td_pages pages;
    td_pages_init(&pages, 1 << 20);
    struct td_image im = {0};
    assert_false(td_image_load(&im, fd, 8000, sizeof file + 1)); /* the file ends first */
    assert_true(td_image_load(&im, fd, 100, 4100));
    struct td_window w = {.pages = &pages};
    assert_false(td_image_view(&im, 50, 100, &w));   /* starts before it */
    assert_false(td_image_view(&im, 4000, 101, &w)); /* ends after it */
    assert_true(td_image_view(&im, 1000, 500, &w));
    const uint8_t *p = td_window_at(&w, fd, 1200, 16, 1216, sizeof file);
    assert_ptr_equal(p, im.mem + 1100);
    assert_memory_equal(p, file + 1200, 16);
    /* Outside the view (though inside the image): read anew, elsewhere. */
    p = td_window_at(&w, fd, 1600, 16, 1616, sizeof file);
    assert_non_null(p);
    assert_true(p < im.mem || p >= im.mem + im.cap);
    assert_memory_equal(p, file + 1600, 16);
    assert_memory_equal(im.mem, file + 100, 4000);
    /* A bigger range: the image grows. */
    assert_true(td_image_load(&im, fd, 0, sizeof file));
    assert_true(td_image_view(&im, 8000, 292, &w));
    assert_memory_equal(td_window_at(&w, fd, 8000, 292, sizeof file, sizeof file), file + 8000,
                        292);
    td_image_free(&im);
    close(fd);
    unlink(path);
    td_pages_free(&pages);
}

static void items_sort_by_key_stably(void **state)
{
    (void)state;
    enum { N = 5000 };
    struct td_symitem *v = malloc(N * sizeof *v), *tmp = malloc(N * sizeof *tmp);
    uint32_t x = 12345;
    for (uint32_t i = 0; i < N; i++) {
        x = x * 1103515245u + 12345u;
        v[i] = (struct td_symitem){(x >> 8) % 70000, i, 0, 0};
    }
    td_symitems_sort(v, tmp, N);
    for (size_t i = 1; i < N; i++) {
        assert_true(v[i - 1].key <= v[i].key);
        if (v[i - 1].key == v[i].key)
            assert_true(v[i - 1].index < v[i].index); /* stable */
    }
    size_t last = 0;
    uint32_t reach = td_symitems_reach(v, N, 0, &last, 1000);
    assert_true(reach - v[0].key < 1000);
    assert_true(last + 1 == N || v[last + 1].key - v[0].key >= 1000);
    free(v);
    free(tmp);
}

static struct td_symname named(const char *s, uint64_t h2)
{
    return (struct td_symname){s, strlen(s), td_elf_gnu_hash(s), h2};
}

static void references_are_distinct_pairs(void **state)
{
    (void)state;
    struct td_pages pages;
    td_pages_init(&pages, 8 << 20);
    struct td_refs t;
    assert_true(td_refs_init(&t, 4, &pages));
    struct td_symname memcpy_ = named("memcpy", 1), malloc_ = named("malloc", 2);
    assert_true(td_refs_add(&t, &memcpy_, 0));
    assert_true(td_refs_add(&t, &memcpy_, 0)); /* again: no new reference */
    assert_true(td_refs_add(&t, &memcpy_, 7)); /* another version: a new one */
    assert_true(td_refs_add(&t, &malloc_, 0));
    assert_int_equal(t.n, 3);
    assert_int_equal(td_refs_find(&t, &memcpy_, 7), 1);
    assert_int_equal(td_refs_find(&t, &malloc_, 7), -1);
    assert_true(td_refs_may_hold(&t, memcpy_.gnu) && td_refs_may_hold(&t, memcpy_.gnu ^ 1));
    /* Found flags: each reference counts once, however often it is found,
     * and stays found while the table grows. */
    td_refs_set_found(&t, 1);
    td_refs_set_found(&t, 1);
    assert_int_equal(t.unfound, 2);
    /* Many more than the reserved room and the first table: both grow. */
    char names[20000][12];
    for (int i = 0; i < 20000; i++) {
        snprintf(names[i], sizeof names[i], "sym%d", i);
        struct td_symname n = named(names[i], (uint64_t)i * 0x9e3779b97f4a7c15ull);
        assert_true(td_refs_add(&t, &n, (uint16_t)(i % 3)));
    }
    assert_true(td_refs_add(&t, &memcpy_, 0));
    assert_int_equal(t.n, 3 + 20000);
    assert_int_equal(t.unfound, 2 + 20000);
    assert_true(td_refs_found(&t, 1));
    for (int i = 0; i < 20000; i += 997) {
        struct td_symname n = named(names[i], (uint64_t)i * 0x9e3779b97f4a7c15ull);
        assert_true(td_refs_find(&t, &n, (uint16_t)(i % 3)) >= 0);
        assert_int_equal(td_refs_find(&t, &n, (uint16_t)((i + 1) % 3)), -1);
    }
    assert_false(td_refs_all_found(&t));
    for (size_t r = 0; r < t.n; r++) {
        assert_int_equal(td_refs_found(&t, r), r == 1);
        td_refs_set_found(&t, r);
        assert_true(td_refs_found(&t, r));
    }
    assert_true(td_refs_all_found(&t));
    td_pages_free(&pages);
}

static void pages_are_zeroed_aligned_and_spill(void **state)
{
    (void)state;
    struct td_pages p;
    td_pages_init(&p, 4 << 20);
    uint8_t *a = td_pages_alloc(&p, 100), *b = td_pages_alloc(&p, 3);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal((uintptr_t)a % 16, 0);
    assert_int_equal((uintptr_t)b % 16, 0);
    assert_true(b >= a + 100 || a >= b + 3);
    for (int i = 0; i < 100; i++)
        assert_int_equal(a[i], 0);
    uint8_t *big = td_pages_alloc(&p, 16 << 20); /* more than the reservation */
    assert_non_null(big);
    big[(16 << 20) - 1] = 1;
    assert_null(td_pages_array(&p, SIZE_MAX / 2, 4)); /* overflow */
    td_pages_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_hash_like_the_loader),
        cmocka_unit_test(names_that_leave_their_table_are_refused),
        cmocka_unit_test(images_are_viewed_not_written),
        cmocka_unit_test(items_sort_by_key_stably),
        cmocka_unit_test(references_are_distinct_pairs),
        cmocka_unit_test(pages_are_zeroed_aligned_and_spill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
